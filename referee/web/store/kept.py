"""What a process keeps of the matches it read (issue 12: a request costs about as much at
1,000 hands as at 10): their hands parsed, the rows of their events, and the fingerprints of
their hands (what a form is built on: ``hand_base``), each kept with the stamp of the match
it was read at, so that another process's change is always seen."""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy.engine import Connection

from ...engine.memo import ByIdentity
from .events import EventRow, event_rows
from .splice import Hand, Splice

MARKS_KEPT = 8192         # loaded hands whose fingerprint a process keeps (StoredMatch.base)
PARSED_MATCHES = 64       # matches whose parsed hands a process keeps (Store.load)

Stamp = tuple[int, datetime]     # a match's (version, updated): what a read was made at


def _mark(facts: dict[str, Any]) -> str:
    canonical = json.dumps(facts, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()[:16]


class _Fingerprints:
    """The fingerprints of the loaded hands, by the hand (issue 12: a history row's Delete
    carries its hand's base; the hands a match loads are the ones ``Parsed`` keeps, which no
    caller changes in place, so a hand's fingerprint is worked out once per process)."""

    def __init__(self, kept: int = MARKS_KEPT) -> None:
        self._marks: ByIdentity[str] = ByIdentity(kept)

    def mark(self, facts: dict[str, Any]) -> str:
        mark = self._marks.get(facts)
        if mark is None:
            mark = _mark(facts)
            self._marks.put(facts, mark)
        return mark


_fingerprints = _Fingerprints()


def hand_base(facts: dict[str, Any] | None, layout: int = 0) -> str:
    """A short fingerprint of a stored hand ("new" for none) at its place: what an edit form
    was built on. ``layout`` is the match's count of deletes and undos, so that a form for
    hand 3 is stale once another hand has taken that number, even one with the same facts."""
    return _at_layout("new" if facts is None else _mark(facts), layout)


def is_new_base(base: str) -> bool:
    """Was a form with this base built for a hand not stored yet (``hand_base(None)``)?"""
    return base.rpartition("-")[2] == "new"


def _at_layout(mark: str, layout: int) -> str:
    return f"{layout}-{mark}" if layout else mark


def kept_base(facts: dict[str, Any], layout: int) -> str:
    """``hand_base`` of a loaded hand (one that ``Parsed`` keeps): its fingerprint worked out
    once per process."""
    return _at_layout(_fingerprints.mark(facts), layout)


class Parsed:
    """The hands of the matches this process read last, parsed (``Store.load``), with the
    stamp of the match (its version and the time of its last change) they were read at.

    A read that finds the match at the stamp kept takes its hands from here without reading
    its hand rows (issue 12: a request costs about as much at 1,000 hands as at 10): every
    change the store makes gives the match a new version in the transaction that changes its
    hands, and the stamp is read in the same transaction as the hands it stands for, so
    another process's change is always seen. (A hand changed in the database by hand must
    change the match's version too, as the store's own writes do.) At another stamp only a
    hand whose stored text is not the one parsed before for its uid is decoded again. A
    change this process makes brings the kept hands to the new stamp itself (``advance``).

    The parsed hands are shared by every request that loads the match (and by the engine's
    fold cache): no caller may change a loaded hand in place."""

    def __init__(self, matches: int = PARSED_MATCHES) -> None:
        self._size = matches
        # match id -> (stamp, {uid: (text, facts)} in the hands' order, the facts alone)
        self._by_match: OrderedDict[str, tuple[
            Stamp, dict[int, tuple[str, dict[str, Any]]], list[dict[str, Any]]]] = OrderedDict()
        self._lock = threading.Lock()

    def known(self, match_id: str, stamp: Stamp) -> list[dict[str, Any]] | None:
        """The match's hands as kept at ``stamp``; None if not kept at that stamp."""
        with self._lock:
            found = self._by_match.get(match_id)
            if found is None or found[0] != stamp:
                return None
            self._by_match.move_to_end(match_id)
        return list(found[2])                       # the caller's own list

    def hands(self, match_id: str, stamp: Stamp, start: int, stop: int) -> list[Hand] | None:
        """(uid, facts) of the hands at positions ``start`` to ``stop`` (0-based) as kept at
        ``stamp``; None if not kept at that stamp."""
        with self._lock:
            found = self._by_match.get(match_id)
        if found is None or found[0] != stamp:
            return None
        uids = list(found[1])[start:stop]
        return [(uid, facts) for uid, facts in zip(uids, found[2][start:stop], strict=True)]

    def parse(self, match_id: str, rows: Sequence[Any], stamp: Stamp) -> list[dict[str, Any]]:
        """The hands stored as ``rows`` (uid, facts text) at ``stamp``, each decoded only if
        its text is not the one parsed before for its uid."""
        with self._lock:
            found = self._by_match.get(match_id)
        known = found[1] if found is not None else {}
        parsed: dict[int, tuple[str, dict[str, Any]]] = {}
        for uid, stored in rows:
            old = known.get(uid)
            parsed[uid] = (old if old is not None and old[0] == stored
                           else (stored, json.loads(stored)))
        return list(self._keep(match_id, stamp, parsed))

    def advance(self, match_id: str, old: Stamp, new: Stamp, changes: list[Splice]) -> None:
        """The hands kept at stamp ``old``, changed by ``changes`` (as ``apply_splice`` wrote
        them in the transaction that gave the match stamp ``new``), kept at ``new``; nothing
        kept unless they were kept at ``old``."""
        with self._lock:
            found = self._by_match.get(match_id)
        if found is None or found[0] != old:
            return
        state = list(found[1].items())
        kept = list(found[2])               # the same, spliced alike (issue 12: not remade)
        for change in changes:
            end = change.at + len(change.removed)
            if [uid for uid, _ in state[change.at:end]] != [uid for uid, _ in change.removed]:
                with self._lock:                    # not the hands this change was made on
                    if self._by_match.get(match_id) is found:
                        del self._by_match[match_id]
                return
            put = []
            for uid, facts in change.inserted:
                stored = json.dumps(facts)          # the text apply_splice wrote
                was = found[1].get(uid)
                put.append((uid, was if was is not None and was[0] == stored
                            else (stored, json.loads(stored))))
            state[change.at:end] = put
            kept[change.at:end] = [f for _, (_, f) in put]
        self._keep(match_id, new, dict(state), kept)

    def _keep(self, match_id: str, stamp: Stamp,
              parsed: dict[int, tuple[str, dict[str, Any]]],
              facts: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
        """Keep ``parsed`` at ``stamp``; its facts in order (``facts``, where known)."""
        if facts is None:
            facts = [f for _, f in parsed.values()]
        with self._lock:
            now = self._by_match.get(match_id)
            if now is None or now[0][0] <= stamp[0]:     # never back to an older version
                self._by_match[match_id] = (stamp, parsed, facts)
            self._by_match.move_to_end(match_id)
            while len(self._by_match) > self._size:
                self._by_match.popitem(last=False)
        return facts

class Logs:
    """The rows of the events of the matches this process read last (``Store.load``), with the
    match's stamp (version, updated) they were read at: events are only ever added (one per
    version, in the transaction that gives the match its version), so a read at the stamp kept
    fetches none, and a later read fetches only the events after the last one kept (issue 12:
    a match of 1,000 hands has thousands of events, and a page shows the latest ones), once
    it finds that one still stored as kept (issue 21: a database put back to an earlier state
    gives the numbers of the events it lost to new ones)."""

    def __init__(self, matches: int = PARSED_MATCHES) -> None:
        self._size = matches
        self._by_match: OrderedDict[str, tuple[Stamp, list[Any]]] = OrderedDict()
        self._lock = threading.Lock()

    def advance(self, match_id: str, old: Stamp, new: Stamp, row: EventRow) -> None:
        """The events kept at stamp ``old`` and ``row``, the event stored in the transaction
        that gave the match stamp ``new``, kept at ``new``; nothing unless kept at ``old``."""
        with self._lock:
            found = self._by_match.get(match_id)
            if found is not None and found[0] == old:
                self._by_match[match_id] = (new, [*found[1], row])

    def rows(self, conn: Connection, match_id: str, stamp: Stamp) -> list[Any]:
        """Every event row of the match as the read ``conn`` (at ``stamp``) sees it."""
        with self._lock:
            found = self._by_match.get(match_id)
        if found is not None and found[0] == stamp:
            rows = found[1]
        elif found is not None and found[0][0] <= stamp[0] and found[1]:
            # every kept event belongs to this read too (made at or before its version),
            # unless the database was put back to an earlier state since (a backup restored):
            # then the last kept event is gone, or its number was given to another event
            kept = found[1]
            since = event_rows(conn, match_id, kept[-1].id - 1)
            rows = (kept + since[1:] if since and tuple(since[0]) == tuple(kept[-1])
                    else event_rows(conn, match_id))
        else:
            rows = event_rows(conn, match_id)
        with self._lock:
            now = self._by_match.get(match_id)
            if now is None or now[0][0] <= stamp[0]:
                self._by_match[match_id] = (stamp, rows)
            self._by_match.move_to_end(match_id)
            while len(self._by_match) > self._size:
                self._by_match.popitem(last=False)
        return rows

