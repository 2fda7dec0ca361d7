"""Counting what a handful of cards can be worth: the subset sums behind every "possible
points" check (Tartli 6.3.2, Stovkahra 6.3.2), and a short text for a set of sums."""

from __future__ import annotations

from collections.abc import Iterable

from .words import T


def sums_by_count(values: Iterable[int]) -> tuple[frozenset[int], ...]:
    """sums[k] = every total that exactly k of the given card values can make.

    ``values`` has one entry per card of the pack (repeats allowed); the result has one entry
    per card count, from 0 (only the total 0) to every card."""
    cards = list(values)
    sums: list[set[int]] = [set() for _ in range(len(cards) + 1)]
    sums[0].add(0)
    for value in cards:
        for k in range(len(cards) - 1, -1, -1):
            sums[k + 1].update(s + value for s in sums[k])
    return tuple(frozenset(s) for s in sums)


def ranges_text(totals: Iterable[int]) -> str:
    """A set of totals as the rules print it: ``{0, 3, 4, 5, 72}`` → ``"0, 3–5, 72"``."""
    ordered = sorted(set(totals))
    parts: list[str] = []
    start = 0
    for i in range(1, len(ordered) + 1):
        if i == len(ordered) or ordered[i] != ordered[i - 1] + 1:
            low, high = ordered[start], ordered[i - 1]
            parts.append(str(low) if low == high else f"{low}–{high}")
            start = i
    return ", ".join(parts) if parts else T("nothing")
