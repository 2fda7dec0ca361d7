"""The history of a match's changes: every change is an event (time, device, what happened and
the splices it made), written with the hands' rows it changes in the same transaction; the
history read back (what an undo takes back next, what a delete can put back); a change's
splices written to the hands' rows, the match's row stamped with its new version."""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import bindparam, delete, func, insert, select, update
from sqlalchemy.engine import Connection

from ...engine.words import T, Text, from_data, to_data
from .schema import actions, hands, matches, now
from .splice import Hand, Splice, loads

LABEL_WORDS = 200         # characters of a label kept as English words
LABEL_DATA = 4000         # characters of a label kept as a sentence (beyond: its English words)
_SENTENCE = '{"msgid":'   # how a label kept as a sentence starts (never one of English words)
MATCH_STARTED = T("Match started")


def stored_label(label: str) -> str:
    """What the label column holds for ``label``: a ``Text`` (issue 22) as its data in JSON,
    so that each phone reads the history in its own language; plain words as they are (at
    most ``LABEL_WORDS`` characters)."""
    if isinstance(label, Text):
        data = json.dumps(to_data(label), ensure_ascii=False, separators=(",", ":"))
        if len(data) <= LABEL_DATA:
            return data
    return str.__str__(label)[:LABEL_WORDS]


def read_label(stored: str) -> str:
    """The label a column holds: the ``Text`` that ``stored_label`` kept, or the words of a
    label stored before labels were sentences (shown as they are)."""
    if stored.startswith(_SENTENCE):
        try:
            return from_data(json.loads(stored))
        except ValueError:            # json's errors are ValueErrors too
            pass
    return stored


@dataclass(frozen=True)
class Event:
    id: int
    at: datetime              # UTC
    device: str
    label: str
    kind: str
    undone: bool
    restorable: bool = False      # a delete whose hand can be put back


@dataclass(frozen=True)
class Deleted:
    """A deleted hand that can be put back (``deleted_hand``)."""

    number: int               # the number the hand had when it was deleted
    at: int                   # the number it gets back now
    uid: int
    facts: dict[str, Any]


# A change's writes and the event rows' reads, built once (issue 12: building a statement
# costs as much as sending it)
_OF_MATCH = hands.c.match_id == bindparam("match")
_DROP_HANDS = delete(hands).where(_OF_MATCH, hands.c.uid.in_(bindparam("gone", expanding=True)))
_MOVE_OUT = (update(hands).where(_OF_MATCH, hands.c.position >= bindparam("start"))
             .values(position=-hands.c.position - 1))
_MOVE_BACK = (update(hands).where(_OF_MATCH, hands.c.position <= bindparam("last"))
              .values(position=-hands.c.position - 1 + bindparam("shift")))
_ADD_HAND = insert(hands)
_SET_HAND = (update(hands).where(_OF_MATCH, hands.c.uid == bindparam("hand_uid"))
             .values(position=bindparam("place"), facts=bindparam("text")))
_CHANGED = update(matches).where(matches.c.id == bindparam("match")).values(
    updated=bindparam("now"), version=matches.c.version + 1, uids=bindparam("last_uid"),
    layout=matches.c.layout + bindparam("step"))
_LOG = insert(actions)
_ROWS_FROM = (select(hands.c.uid, hands.c.facts)
              .where(_OF_MATCH, hands.c.position >= bindparam("start")).order_by(hands.c.position))
_ROWS_BETWEEN = _ROWS_FROM.where(hands.c.position < bindparam("stop"))
_EVENT_ROWS = select(actions.c.id, actions.c.created, actions.c.device, actions.c.label,
                    actions.c.kind, actions.c.undoes, actions.c.hand)
_EVENTS_AFTER = (_EVENT_ROWS.where(actions.c.match_id == bindparam("match"),
                                   actions.c.id > bindparam("after"))
                 .order_by(actions.c.id))


def hand_rows(conn: Connection, match_id: str, start: int = 0,
              stop: int | None = None) -> list[Hand]:
    """(uid, facts) of the stored hands at positions ``start`` to ``stop`` (0-based)."""
    query, values = ((_ROWS_FROM, {"match": match_id, "start": start}) if stop is None else
                     (_ROWS_BETWEEN, {"match": match_id, "start": start, "stop": stop}))
    return [(r.uid, json.loads(r.facts)) for r in conn.execute(query, values).all()]


def deleted_hand(conn: Connection, match_id: str, event: int) -> Deleted | None:
    """The hand the delete ``event`` took out, if it can be put back now, and its place: before
    the first hand with a higher uid (the hands stand in the order of their uids, so that is
    right after the nearest of its earlier neighbours still there)."""
    if not any(e.id == event and e.restorable for e in _history(conn, match_id)):
        return None
    row = conn.execute(select(actions.c.splice, actions.c.hand)
                       .where(actions.c.id == event)).one()
    done = loads(row.splice)
    # a delete's first splice takes out its hand alone (see splice.build)
    if not done or len(done[0].removed) != 1 or done[0].inserted or done[0].at != row.hand - 1:
        return None
    uid, facts = done[0].removed[0]
    if conn.execute(select(hands.c.id).where(hands.c.match_id == match_id,
                                             hands.c.uid == uid)).first() is not None:
        return None
    later = conn.execute(select(func.min(hands.c.position)).where(
        hands.c.match_id == match_id, hands.c.uid > uid)).scalar()
    if later is None:
        later = conn.execute(select(func.count()).select_from(hands)
                             .where(hands.c.match_id == match_id)).scalar_one()
    return Deleted(int(row.hand), int(later) + 1, uid, facts)


def apply_splice(conn: Connection, match_id: str, change: Splice) -> None:
    """Write ``change`` to the hands rows: only the rows it touches, and one shift of the
    later hands' numbers when it takes out or puts in hands."""
    old = {uid: (change.at + i, facts) for i, (uid, facts) in enumerate(change.removed)}
    new = {uid for uid, _ in change.inserted}
    gone = [uid for uid in old if uid not in new]
    if gone:
        conn.execute(_DROP_HANDS, {"match": match_id, "gone": gone})
    shift = len(change.inserted) - len(change.removed)
    moves = shift != 0 or any(uid in old and old[uid][0] != change.at + i
                              for i, (uid, _) in enumerate(change.inserted))
    if moves:
        # Two steps, so that no two hands ever hold the same number (checked row by row):
        # every hand from the splice on to a negative number, then the later ones to theirs.
        end = change.at + len(change.removed)
        conn.execute(_MOVE_OUT, {"match": match_id, "start": change.at})
        conn.execute(_MOVE_BACK, {"match": match_id, "last": -end - 1, "shift": shift})
    for i, (uid, facts) in enumerate(change.inserted):
        if uid not in old:
            conn.execute(_ADD_HAND, {"match_id": match_id, "position": change.at + i,
                                     "uid": uid, "facts": json.dumps(facts)})
        elif moves or old[uid][1] != facts:
            conn.execute(_SET_HAND, {"match": match_id, "hand_uid": uid,
                                     "place": change.at + i, "text": json.dumps(facts)})


def match_changed(conn: Connection, match_id: str, renumbers: bool, last_uid: int) -> datetime:
    """The match's row after a change: a new version (and layout, if hands moved); the time
    of the change it now holds."""
    when = now()
    conn.execute(_CHANGED, {"match": match_id, "now": when, "last_uid": last_uid,
                            "step": 1 if renumbers else 0})
    return when


class EventRow(NamedTuple):
    """An event's row as ``event_rows`` reads it."""

    id: int
    created: datetime
    device: str
    label: str
    kind: str
    undoes: int | None
    hand: int | None


def log_event(conn: Connection, match_id: str, *, label: str, splice: str, device: str,
              kind: str, undoes: int | None, hand: int | None) -> EventRow:
    """Store an event of the match (now); its row as ``event_rows`` reads it."""
    created = now()
    made = conn.execute(_LOG, {
        "match_id": match_id, "created": created, "label": stored_label(label), "before": "",
        "splice": splice, "device": device, "kind": kind, "undoes": undoes, "hand": hand})
    key = made.inserted_primary_key
    assert key is not None
    return EventRow(int(key[0]), created, device, label, kind, undoes, hand)


def event_rows(conn: Connection, match_id: str, after: int = 0) -> list[Any]:
    """The rows of the match's events after event ``after``, oldest first."""
    return list(conn.execute(_EVENTS_AFTER, {"match": match_id, "after": after}).all())


class _Marks:
    """What later events did to each event: undone, or (a delete) its hand put back."""

    def __init__(self, rows: list[Any]) -> None:
        self.undone = {r.undoes for r in rows if r.kind == "undo"}
        self.restored = {r.undoes for r in rows if r.kind == "restore" and r.id not in self.undone}

    def event(self, r: Any) -> Event:
        return Event(r.id, r.created, r.device, read_label(r.label), r.kind, r.id in self.undone,
                     # a delete, not undone, whose hand no standing restore has put back
                     restorable=(r.kind == "change" and r.hand is not None
                                 and r.id not in self.undone and r.id not in self.restored))


def _history(conn: Connection, match_id: str) -> list[Event]:
    """Every event of the match, oldest first, marked with what later events did to it."""
    rows = event_rows(conn, match_id)
    marks = _Marks(rows)
    return [marks.event(r) for r in rows]


def recent(rows: list[Any], events: int) -> tuple[Event | None, list[Event]]:
    """The change an undo takes back next (the latest change or restore not undone: undos nest
    last in, first out, so everything after it has been taken back already) and the latest
    ``events`` events,
    newest first, of the events stored as ``rows``: only those made into events."""
    marks = _Marks(rows)
    latest = [marks.event(r) for r in itertools.islice(reversed(rows), events)]
    undoable = next((marks.event(r) for r in reversed(rows)
                     if r.kind in ("change", "restore") and r.id not in marks.undone), None)
    return undoable, latest
