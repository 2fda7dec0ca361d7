"""Counts that add up: nested dicts of whole numbers, summed key by key."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Union

Tally = dict[str, Union[int, "Tally"]]


def add(into: Tally, more: Mapping[str, Any]) -> Tally:
    """Add ``more`` into ``into`` in place: numbers are summed, nested dicts added in turn,
    keys missing on one side taken as they are. Returns ``into``."""
    for key, value in more.items():
        if isinstance(value, Mapping):
            inner = into.setdefault(key, {})
            assert isinstance(inner, dict)
            add(inner, value)
        else:
            current = into.get(key, 0)
            assert isinstance(current, int)
            into[key] = current + int(value)
    return into


def ratio(part: int, whole: int) -> float | None:
    """``part / whole``, or None when there is nothing to divide by."""
    return None if whole == 0 else part / whole


def bump(tally: Tally, key: str, amount: int = 1) -> None:
    """Add ``amount`` to the count ``tally[key]`` (0 when missing)."""
    value = tally.get(key, 0)
    assert isinstance(value, int)
    tally[key] = value + amount
