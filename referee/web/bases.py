"""The bases of a match's hands, worked out only for the hands a page shows."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .store import StoredMatch


class Bases(Sequence[str]):
    """The base (``StoredMatch.base``) of each stored hand, worked out only for the hands a
    page shows: a page of a 1,000-hand match does not fingerprint every hand."""

    def __init__(self, match: StoredMatch) -> None:
        self._match = match
        self._found: dict[int, str] = {}      # worked out once (a row's key, then the row)

    def __len__(self) -> int:
        return len(self._match.hands)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(len(self))[index]]
        if not -len(self) <= index < len(self):
            raise IndexError(index)
        number = index % len(self) + 1
        base = self._found.get(number)
        if base is None:
            base = self._found[number] = self._match.base(number)
        return base
