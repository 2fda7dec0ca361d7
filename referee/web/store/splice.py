"""What one change did to a match's list of hands: splices, each a run of hands it took out and
the hands it put in at the same place, each hand with its identity in the match (its uid).
Undoing a change applies its splices the other way round, last first.

Pure functions: the store reads and writes the rows."""

from __future__ import annotations

import json
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any

from ...engine.scoring import common_start

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
    def from_json(cls, data: dict[str, Any]) -> Splice:
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
    start = common_start(before, after)
    if removes is not None and 0 <= removes < n:
        start = min(start, removes)
    if inserts is not None and 0 <= inserts < m:
        start = min(start, inserts)
    limit = min(n, m) - start
    if removes is not None and 0 <= removes < n:
        limit = min(limit, n - 1 - removes)
    if inserts is not None and 0 <= inserts < m:
        limit = min(limit, m - 1 - inserts)
    # the common end: the same from the first when both are read backwards (compared as list
    # slices: the very same hands found without looking into them, issue 12)
    limit = max(0, limit)
    same = common_start(before[n - limit:][::-1], after[m - limit:][::-1])
    return start, n - same, m - same


def build(
    removed: list[Hand], after: list[Facts], start: int, end: int, last_uid: int, *,
    removes: int | None = None, inserts: int | None = None, restored: int | None = None,
) -> tuple[list[Splice], int]:
    """The splices, made one after the other, that turn ``removed`` (the stored hands from
    ``start`` on) into ``after[start:end]``, and the last uid given: first the hand a delete
    takes out (``removes``, a position) or a restore puts back (its uid ``restored``, at
    ``inserts``), then each run of hands that differs, so that an edit and a later hand it
    corrects far away store only those two. Hands keep their uids; a new one takes the next."""
    done: list[Splice] = []
    rows = list(removed)
    if removes is not None and start <= removes < start + len(rows):
        done.append(Splice(removes, [rows[removes - start]], []))
        del rows[removes - start]
    if restored is not None and inserts is not None and start <= inserts < end:
        back = (restored, after[inserts])
        done.append(Splice(inserts, [], [back]))
        rows.insert(inserts - start, back)
    wanted = after[start:end]
    keys = [_key(f) for _, f in rows]
    for i1, i2, j1, j2 in _runs(keys, [_key(f) for f in wanted]):
        uids = [uid for uid, _ in rows[i1:i2]][: j2 - j1]
        while len(uids) < j2 - j1:
            last_uid += 1
            uids.append(last_uid)
        done.append(Splice(start + j1, rows[i1:i2], list(zip(uids, wanted[j1:j2], strict=True))))
    return done, last_uid


def _runs(old: list[str], new: list[str]) -> list[tuple[int, int, int, int]]:
    """The runs that differ, as (i1, i2, j1, j2): ``old[i1:i2]`` becomes ``new[j1:j2]``. The
    same number of hands on both sides are paired by position (an edit, or an edit with a
    correction: each hand keeps its uid, so the hands stay in uid order, which is where a
    restore puts a hand back); otherwise the longest matching runs are kept."""
    if len(old) == len(new):
        runs: list[tuple[int, int, int, int]] = []
        for i, (a, b) in enumerate(zip(old, new, strict=True)):
            if a == b:
                continue
            if runs and runs[-1][1] == i:
                runs[-1] = (runs[-1][0], i + 1, runs[-1][2], i + 1)
            else:
                runs.append((i, i + 1, i, i + 1))
        return runs
    matcher = SequenceMatcher(None, old, new, autojunk=False)
    return [(i1, i2, j1, j2) for op, i1, i2, j1, j2 in matcher.get_opcodes() if op != "equal"]


def _key(facts: Facts) -> str:
    return json.dumps(facts, sort_keys=True, separators=(",", ":"))


def dumps(splices: list[Splice]) -> str:
    return "[" + ",".join(s.dumps() for s in splices) + "]"


def loads(text: str | None) -> list[Splice]:
    """The splices an event stored (none for the event that made the match)."""
    return [Splice.from_json(item) for item in json.loads(text or "[]")]
