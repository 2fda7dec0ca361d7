"""Running totals of tallies that a tally can also be taken out of (issue 24): the statistics
of a circle kept up to date by the difference of the one match that changed.

A plain sum (``tally.add``) cannot be undone: a key stays once added, though the statistics
show a key only while some match has it (a player's evening of a day, a game's day; an evening
balance of 0 is still an evening). So every key here carries how many of the tallies added
have it, beside its sum: ``remove`` takes a tally out again, and a key no tally has any more
goes. ``tally()`` gives the sum as ``tally.add`` would have made it from the tallies that are
in (the same keys and figures)."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

# a key's [how many tallies have it, its sum: a whole number or the nested keys]
_Node = dict[Hashable, list[Any]]


class Sums:
    """The sum of the tallies added and not removed, key by key (keys need only be
    hashable: the statistics' pairs are keyed by tuples)."""

    def __init__(self) -> None:
        self._root: _Node = {}

    def add(self, more: Mapping[Any, Any]) -> None:
        _into(self._root, more, 1)

    def remove(self, less: Mapping[Any, Any]) -> None:
        """Take out a tally added before (exactly that one: else the sums are wrong)."""
        _into(self._root, less, -1)

    def tally(self) -> dict[Hashable, Any]:
        """The sum as new nested dicts (the caller may change them)."""
        return _out(self._root)

    def copy(self) -> Sums:
        other = Sums()
        other._root = _copy(self._root)
        return other


def _into(node: _Node, more: Mapping[Any, Any], sign: int) -> None:
    for key, value in more.items():
        nested = isinstance(value, Mapping)
        slot = node.get(key)
        if slot is None:
            slot = node[key] = [0, {} if nested else 0]
        slot[0] += sign
        if nested:
            _into(slot[1], value, sign)
        else:
            slot[1] += sign * int(value)
        if slot[0] == 0:
            del node[key]


def _out(node: _Node) -> dict[Hashable, Any]:
    return {key: _out(value) if isinstance(value, dict) else value
            for key, (_, value) in node.items()}


def _copy(node: _Node) -> _Node:
    return {key: [count, _copy(value) if isinstance(value, dict) else value]
            for key, (count, value) in node.items()}
