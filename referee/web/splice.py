"""What one change did to a match's list of hands: a splice, the smallest run of hands it took
out and the hands it put in at the same place, each hand with its identity in the match (its
uid). Undoing a change applies its splice the other way round.

Pure functions: the store reads and writes the rows."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

Facts = dict[str, Any]
Hand = tuple[int, Facts]          # (uid, facts)


@dataclass(frozen=True)
class Splice:
    at: int                       # the position (0-based) of the first hand taken out or put in
    removed: list[Hand]
    inserted: list[Hand]

    def reverse(self) -> Splice:
        return Splice(self.at, self.inserted, self.removed)

    def dumps(self) -> str:
        return json.dumps({"at": self.at, "removed": [list(h) for h in self.removed],
                           "inserted": [list(h) for h in self.inserted]})

    @classmethod
    def loads(cls, text: str) -> Splice:
        data = json.loads(text)
        return cls(int(data["at"]), [(int(u), f) for u, f in data["removed"]],
                   [(int(u), f) for u, f in data["inserted"]])

    def apply(self, hands: list[Hand]) -> list[Hand]:
        """``hands`` with this splice made (in memory)."""
        end = self.at + len(self.removed)
        return hands[: self.at] + self.inserted + hands[end:]


def region(
    before: list[Facts], after: list[Facts], *, removes: int | None = None,
    inserts: int | None = None,
) -> tuple[int, int, int]:
    """(start, end in ``before``, end in ``after``): the smallest run of hands that differs,
    widened so that it takes out ``before[removes]`` (a delete) and puts in
    ``after[inserts]`` (a restore) even where equal hands stand side by side."""
    n, m = len(before), len(after)
    start = 0
    while start < min(n, m) and before[start] == after[start]:
        start += 1
    if removes is not None and 0 <= removes < n:
        start = min(start, removes)
    if inserts is not None and 0 <= inserts < m:
        start = min(start, inserts)
    limit = min(n, m) - start
    if removes is not None and 0 <= removes < n:
        limit = min(limit, n - 1 - removes)
    if inserts is not None and 0 <= inserts < m:
        limit = min(limit, m - 1 - inserts)
    same = 0
    while same < limit and before[n - 1 - same] == after[m - 1 - same]:
        same += 1
    return start, n - same, m - same


def build(
    removed: list[Hand], after: list[Facts], start: int, end: int, last_uid: int, *,
    removes: int | None = None, inserts: int | None = None, restored: int | None = None,
) -> tuple[Splice, int]:
    """The splice that replaces ``removed`` (the stored hands from ``start`` on) by
    ``after[start:end]``, and the last uid given. Hands keep their uids in order; a deleted
    hand (``removes``, a position) gives up its uid, a restored one (``restored`` at position
    ``inserts``) takes its own back, and a new hand takes the next uid."""
    uids = [uid for uid, _ in removed]
    if removes is not None and start <= removes < start + len(uids):
        del uids[removes - start]
    if restored is not None and inserts is not None and start <= inserts < end:
        uids.insert(inserts - start, restored)
    uids = uids[: end - start]
    while len(uids) < end - start:
        last_uid += 1
        uids.append(last_uid)
    return Splice(start, removed, list(zip(uids, after[start:end], strict=True))), last_uid
