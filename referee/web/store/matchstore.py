"""The store: matches and the facts of their hands, plus the history of every change.

Only facts are stored; every score is derived by the engine. One transaction per user action,
and the writes to one match are serialised (SQLite: ``BEGIN IMMEDIATE``; other databases:
``SELECT ... FOR UPDATE`` on the match's row), so a write built on a stale read is refused,
never interleaved.

A match has two secret tokens: its id, which is the edit link, and a view token, which only
reads. Every change is an event kept in ``actions`` (time, device, what happened and what it
changed: splices, each the hands it took out and the hands it put in at one place, so that an
event stays small however long the match); an undo is an event too, so deleting a hand, or
undoing, loses nothing.

Each hand has an identity in its match (``uid``) that it keeps when other hands move to other
numbers and when an undo or a restore puts it back: a restored hand goes back between the
neighbours it had, and a new hand always takes a higher uid than every hand before it, so the
hands stand in the order of their uids."""

from __future__ import annotations

import hashlib
import itertools
import json
import secrets
import sqlite3
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, NamedTuple

from sqlalchemy import (
    Column,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    bindparam,
    create_engine,
    delete,
    event,
    func,
    insert,
    inspect,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError, OperationalError

from ...engine import matchfile
from ...engine.errors import RuleViolation
from ...engine.games import get
from ...engine.memo import ByIdentity
from .splice import Hand, Splice, build, dumps, loads, region

metadata = MetaData()

matches = Table(
    "matches", metadata,
    Column("id", String(32), primary_key=True),                 # the edit token
    Column("view_token", String(32), nullable=False, unique=True),
    Column("version", Integer, nullable=False, default=0),      # +1 on every change
    # +1 whenever hands may have moved to other numbers (a delete, an undo): a form built
    # for "hand 3" before that no longer knows which hand it is about.
    Column("layout", Integer, nullable=False, default=0),
    Column("uids", Integer, nullable=False, default=0),         # the last hand uid given
    Column("game", String(20), nullable=False),
    Column("settings", Text, nullable=False),
    Column("created", DateTime, nullable=False),
    Column("updated", DateTime, nullable=False),
)
hands = Table(
    "hands", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("match_id", String(32), ForeignKey("matches.id", ondelete="CASCADE"), nullable=False),
    Column("position", Integer, nullable=False),
    Column("facts", Text, nullable=False),
    Column("uid", Integer, nullable=False),       # the hand's identity in its match
    UniqueConstraint("match_id", "position"),
    Index("ix_hands_match_uid", "match_id", "uid", unique=True),
)
actions = Table(
    "actions", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("match_id", String(32), ForeignKey("matches.id", ondelete="CASCADE"), nullable=False),
    Column("created", DateTime, nullable=False),
    Column("label", String(200), nullable=False),
    # Before 2026-12 every event stored the whole list of hands before it here; now "".
    Column("before", Text, nullable=False, default=""),
    # What the event changed, as JSON: the splices it made one after the other, each
    # {"at": position, "removed": [[uid, facts], ...], "inserted": [[uid, facts], ...]}
    # (None for the event that made the match).
    Column("splice", Text, nullable=True),
    Column("device", String(100), nullable=False, default=""),
    Column("kind", String(10), nullable=False, default="change"),  # create change undo restore
    Column("undoes", Integer, nullable=True),     # the event an undo takes back or a restore
    Column("hand", Integer, nullable=True),       # the number of the hand a delete took out
)

TOKEN_BYTES = 16          # 128 bits per token
SQLITE_WAIT = 30.0        # seconds a SQLite connection waits for another's lock
STARTUP_WAIT = 900.0      # seconds a starting process waits for another's upgrade
MARKS_KEPT = 8192         # loaded hands whose fingerprint a process keeps (StoredMatch.base)
PARSED_MATCHES = 64       # matches whose parsed hands a process keeps (Store.load)

# A match's version by either of its tokens (Store.version).
_VERSION = select(matches.c.id, matches.c.version).where(
    or_(matches.c.id == bindparam("token"), matches.c.view_token == bindparam("token")))
# Store.load's reads, built once (issue 12: building a statement costs as much as sending it)
_MATCH = select(matches).where(
    or_(matches.c.id == bindparam("token"), matches.c.view_token == bindparam("token")))
_HANDS = (select(hands.c.uid, hands.c.facts).where(hands.c.match_id == bindparam("match"))
          .order_by(hands.c.position))
# A change's writes, built once too (save_hands, undo: _apply, _log, _changed)
_WRITE_ROW = select(matches.c.version, matches.c.uids, matches.c.game, matches.c.updated).where(
    matches.c.id == bindparam("match"))
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
_SPLICE = select(actions.c.splice).where(actions.c.id == bindparam("event"))
_LOCK = select(matches.c.id).where(matches.c.id == bindparam("match")).with_for_update()
_ROWS_FROM = (select(hands.c.uid, hands.c.facts)
              .where(_OF_MATCH, hands.c.position >= bindparam("start")).order_by(hands.c.position))
_ROWS_BETWEEN = _ROWS_FROM.where(hands.c.position < bindparam("stop"))


class StaleMatch(Exception):
    """The match changed (another device) between reading it and writing the change."""


@dataclass(frozen=True)
class Event:
    id: int
    at: datetime              # UTC
    device: str
    label: str
    kind: str
    undone: bool
    restorable: bool = False      # a delete whose hand can be put back


@dataclass
class StoredMatch:
    id: str                   # the edit token; never shown to a viewer
    view_token: str
    version: int
    layout: int
    game: str
    settings: dict[str, Any]
    hands: list[dict[str, Any]]
    created: datetime
    can_edit: bool = True
    undoable: Event | None = None
    events: list[Event] = field(default_factory=list)

    @property
    def token(self) -> str:
        """The token this match was opened with: what its links may carry."""
        return self.id if self.can_edit else self.view_token

    def base(self, hand: int) -> str:
        """The fingerprint a form for hand ``hand`` (1-based; past the end: a new hand) is
        built on now."""
        if not 1 <= hand <= len(self.hands):
            return hand_base(None, self.layout)
        return _at_layout(_fingerprints.mark(self.hands[hand - 1]), self.layout)

    @property
    def last_action(self) -> str | None:
        return self.undoable.label if self.undoable else None


def _mark(facts: dict[str, Any]) -> str:
    canonical = json.dumps(facts, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()[:16]


class _Fingerprints:
    """The fingerprints of the loaded hands, by the hand (issue 12: a history row's Delete
    carries its hand's base; the hands a match loads are the ones ``_Parsed`` keeps, which no
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


def _now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


Stamp = tuple[int, datetime]     # a match's (version, updated): what a read was made at


class _Parsed:
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
        """The hands kept at stamp ``old``, changed by ``changes`` (as ``_apply`` wrote them in
        the transaction that gave the match stamp ``new``), kept at ``new``; nothing kept
        unless they were kept at ``old``."""
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
                stored = json.dumps(facts)          # the text _apply wrote
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


class Store:
    def __init__(self, url: str) -> None:
        self._version: tuple[str, Any] | None = None       # Store.version's SQL, compiled
        self._parsed = _Parsed()
        self._logs = _Logs()
        self._waiting = 0                                  # writes waiting for the database
        self._waiting_lock = threading.Lock()
        sqlite = url.startswith("sqlite")
        self.engine: Engine = create_engine(
            url, connect_args={"timeout": SQLITE_WAIT} if sqlite else {},
        )
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_connect)
            event.listen(self.engine, "begin", _sqlite_begin)
        # Several server processes may start at once on an empty database: one creates the
        # tables while the others wait (SQLite: the write lock; PostgreSQL: an advisory lock).
        # Upgrading a large old database takes longer than one SQLite wait: the others keep
        # waiting until it is done (STARTUP_WAIT).
        deadline = time.monotonic() + STARTUP_WAIT
        while True:
            try:
                with self._writing(None) as conn:
                    if self.engine.dialect.name == "postgresql":
                        conn.execute(text("SELECT pg_advisory_xact_lock(7305942)"))
                    metadata.create_all(conn)
                    _upgrade(conn)
                return
            except OperationalError as error:
                if not sqlite or "locked" not in str(error) or time.monotonic() > deadline:
                    raise

    def make_way(self, held: float) -> None:
        """A long job that writes in many short transactions (a circle's import) lets other
        writes in between two of them: it waits while a write of this process waits for the
        database, and, for other processes' writes (on SQLite, which has one write lock), as
        long as it held the lock (``held`` seconds, at most SQLITE_WAIT), so that it holds
        the lock at most half the time."""
        deadline = time.monotonic() + SQLITE_WAIT
        while self._waiting and time.monotonic() < deadline:
            time.sleep(0.001)
        if self.engine.dialect.name == "sqlite":
            time.sleep(min(held, SQLITE_WAIT))

    def _reading(self) -> Connection:
        """A read that sees one state of the database (SQLite: one snapshot per transaction;
        other databases: repeatable read), so hands and history always belong together."""
        conn = self.engine.connect()
        if self.engine.dialect.name != "sqlite":
            conn.execution_options(isolation_level="REPEATABLE READ")
        return conn

    # -- reading ---------------------------------------------------------------------------

    def load(self, token: str, events: int = 0) -> StoredMatch | None:
        """The match whose edit or view token this is, with its last ``events`` events."""
        with self._reading() as conn:
            row = conn.execute(_MATCH, {"token": token}).first()
            if row is None:
                return None
            stamp = (row.version, row.updated)
            facts = self._parsed.known(row.id, stamp)
            if facts is None:
                rows = conn.execute(_HANDS, {"match": row.id}).all()
                facts = self._parsed.parse(row.id, rows, stamp)
            undoable, latest = _recent(self._logs.rows(conn, row.id, stamp), events)
            return StoredMatch(
                row.id, row.view_token, row.version, row.layout, row.game,
                json.loads(row.settings),
                facts, row.created, can_edit=row.id == token,
                undoable=undoable, events=latest,
            )

    def version(self, token: str) -> tuple[int, bool] | None:
        """(version, opened with the edit token) — one indexed read, for live scoreboards
        (asked every second by every phone: the statement, ``_VERSION``, is compiled once
        and sent on the driver's own connection from the pool)."""
        if self._version is None:
            compiled = _VERSION.compile(dialect=self.engine.dialect)
            self._version = (compiled.string, compiled.positiontup)
        sql, positions = self._version
        params: Any = (tuple({"token": token}[name] for name in positions)
                       if positions is not None else {"token": token})
        conn = self.engine.raw_connection()
        try:
            cursor = conn.cursor()
            cursor.execute(sql, params)
            row = cursor.fetchone()
            cursor.close()
        finally:
            conn.close()
        return None if row is None else (row[1], row[0] == token)

    def listed(self, tokens: list[str]) -> list[tuple[str, str, dict[str, Any], datetime]]:
        """(token, game, settings, updated) of the matches these tokens open, newest first."""
        if not tokens:
            return []
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(matches.c.id, matches.c.view_token, matches.c.game, matches.c.settings,
                       matches.c.updated)
                .where(or_(matches.c.id.in_(tokens), matches.c.view_token.in_(tokens)))
            ).all()
        found = []
        for r in rows:
            token = r.id if r.id in tokens else r.view_token
            found.append((token, r.game, json.loads(r.settings), r.updated))
        return sorted(found, key=lambda m: m[3], reverse=True)

    def count(self) -> int:
        """How many matches the store holds (every table's: never for a page)."""
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(matches)).scalar_one())

    # -- writing ---------------------------------------------------------------------------

    def create(
        self, game: str, settings: dict[str, Any], hand_list: list[dict[str, Any]],
        created: datetime | None = None, device: str = "", label: str = "Match started",
    ) -> str:
        with self._writing(None) as conn:
            return insert_match(conn, game, settings, hand_list, created, device, label)

    def save_hands(
        self, match_id: str, before: list[dict[str, Any]], after: list[dict[str, Any]],
        label: str, device: str = "", *, renumbers: bool = False,
        deletes: int | None = None, restores: int | None = None, version: int | None = None,
    ) -> None:
        """Replace the match's hands ``before`` by ``after`` in one transaction, logging what
        changed; ``renumbers``: hands move to other numbers; ``deletes``: the number of the
        hand this takes out; ``restores``: the delete event whose hand this puts back (at the
        place ``deleted_hand`` gives).

        A change that adds hands past ``matchfile.MAX_HANDS`` is refused (RuleViolation).
        Refused with StaleMatch when the stored hands are no longer ``before``: with
        ``version`` (the match's version that ``before`` was read at), by that version alone;
        without it, by comparing every stored hand."""
        try:
            with self._writing(match_id) as conn:
                row = conn.execute(_WRITE_ROW, {"match": match_id}).first()
                if row is None or (version is not None and row.version != version):
                    raise StaleMatch(match_id)
                stored = None if version is not None else _rows(conn, match_id)
                if stored is not None and [f for _, f in stored] != before:
                    raise StaleMatch(match_id)
                if len(after) > max(len(before), matchfile.MAX_HANDS):
                    raise RuleViolation("match.hands", (
                        f"A match holds at most {matchfile.MAX_HANDS:,} "
                        f"{get(row.game).hand_word}s, as a match file does, so this one is "
                        f"full: nothing was saved. Start a new match to play on"))
                removes = deletes - 1 if deletes is not None else None
                inserts = restored = None
                if restores is not None:
                    found = _deleted(conn, match_id, restores)
                    if found is None or found.at > len(after) or (
                            version is None and after[found.at - 1] != found.facts):
                        raise StaleMatch(match_id)
                    inserts, restored = found.at - 1, found.uid
                start, end_before, end_after = region(before, after, removes=removes,
                                                      inserts=inserts)
                removed = (stored[start:end_before] if stored is not None
                           else [] if start == end_before
                           else self._parsed.hands(match_id, (row.version, row.updated),
                                                   start, end_before)
                           or _rows(conn, match_id, start, end_before))
                if [f for _, f in removed] != before[start:end_before]:
                    raise StaleMatch(match_id)
                changes, last_uid = build(removed, after, start, end_after, row.uids,
                                          removes=removes, inserts=inserts, restored=restored)
                logged = _log(conn, match_id, label=label[:200], splice=dumps(changes),
                              device=device[:100], kind="restore" if restores else "change",
                              undoes=restores, hand=deletes)
                for change in changes:
                    _apply(conn, match_id, change)
                now = _changed(conn, match_id, renumbers, last_uid)
        except IntegrityError as error:
            raise StaleMatch(match_id) from error
        self._parsed.advance(match_id, (row.version, row.updated), (row.version + 1, now),
                             changes)
        self._logs.advance(match_id, (row.version, row.updated), (row.version + 1, now), logged)

    def undo(self, match_id: str, device: str = "", expected: int | None = None) -> str | None:
        """Take back the latest change not yet taken back; the undo is itself an event.

        ``expected`` is the event the user saw as "Undo: ..."; if another device changed the
        match since, StaleMatch, and nothing is undone."""
        try:
            with self._writing(match_id) as conn:
                row = conn.execute(_WRITE_ROW, {"match": match_id}).one()
                stamp = (row.version, row.updated)
                top = _recent(self._logs.rows(conn, match_id, stamp), 0)[0]
                if top is None:
                    if expected is not None:
                        raise StaleMatch(match_id)
                    return None
                if expected is not None and expected != top.id:
                    raise StaleMatch(match_id)
                stored = conn.execute(_SPLICE, {"event": top.id}).scalar()
                undone = []
                # Undos nest (last in, first out): the hands stand as the change left them.
                for done in reversed(loads(stored)):
                    current = _rows(conn, match_id, done.at, done.at + len(done.inserted))
                    if [uid for uid, _ in current] != [uid for uid, _ in done.inserted]:
                        raise StaleMatch(match_id)
                    back = Splice(done.at, current, done.removed)
                    _apply(conn, match_id, back)
                    undone.append(back)
                logged = _log(conn, match_id, label=f"Undone: {top.label}"[:200],
                              splice=dumps(undone), device=device[:100], kind="undo",
                              undoes=top.id, hand=None)
                now = _changed(conn, match_id, True, row.uids)
        except IntegrityError as error:     # never on a state this store made: 409, not 500
            raise StaleMatch(match_id) from error
        self._parsed.advance(match_id, stamp, (row.version + 1, now), undone)
        self._logs.advance(match_id, stamp, (row.version + 1, now), logged)
        return top.label

    def deleted_hand(self, match_id: str, event: int) -> Deleted | None:
        """The hand that the delete ``event`` took out and the number it gets back (between
        the neighbours it had), while it can be put back (not undone, not restored already)."""
        with self._reading() as conn:
            return _deleted(conn, match_id, event)

    @contextmanager
    def _writing(self, match_id: str | None) -> Iterator[Connection]:
        """A write transaction holding the match (SQLite: the database) until it commits."""
        with self.engine.connect() as conn:
            conn.execution_options(referee_write=True)
            with self._waiting_lock:
                self._waiting += 1
            try:
                transaction = conn.begin()
            finally:
                with self._waiting_lock:
                    self._waiting -= 1
            with transaction:
                if match_id is not None and self.engine.dialect.name != "sqlite":
                    conn.execute(_LOCK, {"match": match_id})
                yield conn


def insert_match(
    conn: Connection, game: str, settings: dict[str, Any], hand_list: list[dict[str, Any]],
    created: datetime | None = None, device: str = "", label: str = "Match started",
) -> str:
    """Write a new match (new tokens) in the transaction ``conn``; its edit token."""
    match_id = secrets.token_urlsafe(TOKEN_BYTES)
    now = _now()
    conn.execute(insert(matches).values(
        id=match_id, view_token=secrets.token_urlsafe(TOKEN_BYTES), version=1, layout=0,
        uids=len(hand_list), game=game, settings=json.dumps(settings),
        created=created or now, updated=now,
    ))
    if hand_list:
        conn.execute(insert(hands), [
            {"match_id": match_id, "position": position, "uid": position + 1,
             "facts": json.dumps(facts)} for position, facts in enumerate(hand_list)])
    conn.execute(insert(actions).values(
        match_id=match_id, created=now, label=label[:200], before="",
        device=device[:100], kind="create",
    ))
    return match_id


@dataclass(frozen=True)
class Deleted:
    number: int               # the number the hand had when it was deleted
    at: int                   # the number it gets back now
    uid: int
    facts: dict[str, Any]


def _rows(conn: Connection, match_id: str, start: int = 0,
          stop: int | None = None) -> list[Hand]:
    """(uid, facts) of the stored hands at positions ``start`` to ``stop`` (0-based)."""
    query, values = ((_ROWS_FROM, {"match": match_id, "start": start}) if stop is None else
                     (_ROWS_BETWEEN, {"match": match_id, "start": start, "stop": stop}))
    return [(r.uid, json.loads(r.facts)) for r in conn.execute(query, values).all()]


def _deleted(conn: Connection, match_id: str, event: int) -> Deleted | None:
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


def _apply(conn: Connection, match_id: str, change: Splice) -> None:
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


def _changed(conn: Connection, match_id: str, renumbers: bool, last_uid: int) -> datetime:
    """The match's row after a change: a new version (and layout, if hands moved); the time
    of the change it now holds."""
    now = _now()
    conn.execute(_CHANGED, {"match": match_id, "now": now, "last_uid": last_uid,
                            "step": 1 if renumbers else 0})
    return now


_EVENT_ROWS = select(actions.c.id, actions.c.created, actions.c.device, actions.c.label,
                    actions.c.kind, actions.c.undoes, actions.c.hand)
_EVENTS_AFTER = (_EVENT_ROWS.where(actions.c.match_id == bindparam("match"),
                                   actions.c.id > bindparam("after"))
                 .order_by(actions.c.id))


class _EventRow(NamedTuple):
    """An event's row as ``_event_rows`` reads it."""

    id: int
    created: datetime
    device: str
    label: str
    kind: str
    undoes: int | None
    hand: int | None


def _log(conn: Connection, match_id: str, *, label: str, splice: str, device: str, kind: str,
         undoes: int | None, hand: int | None) -> _EventRow:
    """Store an event of the match (now); its row as ``_event_rows`` reads it."""
    created = _now()
    made = conn.execute(_LOG, {
        "match_id": match_id, "created": created, "label": label, "before": "",
        "splice": splice, "device": device, "kind": kind, "undoes": undoes, "hand": hand})
    key = made.inserted_primary_key
    assert key is not None
    return _EventRow(int(key[0]), created, device, label, kind, undoes, hand)


def _event_rows(conn: Connection, match_id: str, after: int = 0) -> list[Any]:
    """The rows of the match's events after event ``after``, oldest first."""
    return list(conn.execute(_EVENTS_AFTER, {"match": match_id, "after": after}).all())


class _Marks:
    """What later events did to each event: undone, or (a delete) its hand put back."""

    def __init__(self, rows: list[Any]) -> None:
        self.undone = {r.undoes for r in rows if r.kind == "undo"}
        self.restored = {r.undoes for r in rows if r.kind == "restore" and r.id not in self.undone}

    def event(self, r: Any) -> Event:
        return Event(r.id, r.created, r.device, r.label, r.kind, r.id in self.undone,
                     # a delete, not undone, whose hand no standing restore has put back
                     restorable=(r.kind == "change" and r.hand is not None
                                 and r.id not in self.undone and r.id not in self.restored))


def _history(conn: Connection, match_id: str) -> list[Event]:
    """Every event of the match, oldest first, marked with what later events did to it."""
    rows = _event_rows(conn, match_id)
    marks = _Marks(rows)
    return [marks.event(r) for r in rows]


def _recent(rows: list[Any], events: int) -> tuple[Event | None, list[Event]]:
    """The change an undo takes back next (the latest change or restore not undone: undos nest
    last in, first out, so everything after it has been taken back already) and the latest
    ``events`` events,
    newest first, of the events stored as ``rows``: only those made into events."""
    marks = _Marks(rows)
    latest = [marks.event(r) for r in itertools.islice(reversed(rows), events)]
    undoable = next((marks.event(r) for r in reversed(rows)
                     if r.kind in ("change", "restore") and r.id not in marks.undone), None)
    return undoable, latest


class _Logs:
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

    def advance(self, match_id: str, old: Stamp, new: Stamp, row: _EventRow) -> None:
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
            since = _event_rows(conn, match_id, kept[-1].id - 1)
            rows = (kept + since[1:] if since and tuple(since[0]) == tuple(kept[-1])
                    else _event_rows(conn, match_id))
        else:
            rows = _event_rows(conn, match_id)
        with self._lock:
            now = self._by_match.get(match_id)
            if now is None or now[0][0] <= stamp[0]:
                self._by_match[match_id] = (stamp, rows)
            self._by_match.move_to_end(match_id)
            while len(self._by_match) > self._size:
                self._by_match.popitem(last=False)
        return rows


def _upgrade(conn: Connection) -> None:
    """Bring a database made by an earlier Referee up to date, in the start-up transaction
    that holds the creation lock: existing links keep their edit rights, and events that
    stored the whole list of hands store what they changed."""
    _upgrade_tokens(conn)
    _upgrade_splices(conn)


def _upgrade_tokens(conn: Connection) -> None:
    """No view tokens, no event columns (before 2026-11): every link is an edit link."""
    columns = {c["name"] for c in inspect(conn).get_columns("matches")}
    if "view_token" in columns:
        return
    conn.execute(text("ALTER TABLE matches ADD COLUMN view_token VARCHAR(32)"))
    conn.execute(text("ALTER TABLE matches ADD COLUMN version INTEGER NOT NULL DEFAULT 1"))
    conn.execute(text("ALTER TABLE matches ADD COLUMN layout INTEGER NOT NULL DEFAULT 0"))
    conn.execute(text("ALTER TABLE actions ADD COLUMN device VARCHAR(100) NOT NULL DEFAULT ''"))
    conn.execute(text("ALTER TABLE actions ADD COLUMN kind VARCHAR(10) NOT NULL "
                      "DEFAULT 'change'"))
    conn.execute(text("ALTER TABLE actions ADD COLUMN undoes INTEGER"))
    conn.execute(text("ALTER TABLE actions ADD COLUMN hand INTEGER"))
    for (match_id,) in conn.execute(select(matches.c.id)).all():
        conn.execute(update(matches).where(matches.c.id == match_id).values(
            view_token=secrets.token_urlsafe(TOKEN_BYTES)))
    conn.execute(text("CREATE UNIQUE INDEX ix_matches_view_token ON matches (view_token)"))


UPGRADE_BATCH = 200       # events rewritten per statement while upgrading


def _upgrade_splices(conn: Connection) -> None:
    """Events that hold the whole list of hands before them (before 2026-12) get the splice
    they made, and every hand its uid; one match at a time, one event's list at a time."""
    if "splice" in {c["name"] for c in inspect(conn).get_columns("actions")}:
        return
    conn.execute(text("ALTER TABLE actions ADD COLUMN splice TEXT"))
    conn.execute(text("ALTER TABLE hands ADD COLUMN uid INTEGER NOT NULL DEFAULT 0"))
    conn.execute(text("ALTER TABLE matches ADD COLUMN uids INTEGER NOT NULL DEFAULT 0"))
    for match_id in conn.execute(select(matches.c.id)).scalars().all():
        _convert_history(conn, match_id)
    conn.execute(text("CREATE UNIQUE INDEX ix_hands_match_uid ON hands (match_id, uid)"))


def _convert_history(conn: Connection, match_id: str) -> None:
    """Replay the match's events from their lists of hands, giving each hand a uid as the
    store does now (a delete's hand and a restored hand are the ones the event names; an undo
    puts back the very hands its change took out), and store each event's splices."""
    events = conn.execute(
        select(actions.c.id, actions.c.kind, actions.c.undoes, actions.c.hand)
        .where(actions.c.match_id == match_id).order_by(actions.c.id)).all()
    current = [f for _, f in _rows(conn, match_id)]
    state: list[Hand] = []
    last_uid = 0
    done: dict[int, tuple[list[Splice], int | None]] = {}   # event: (splices, deleted number)
    rewritten: list[dict[str, Any]] = []

    def listed(event: int) -> list[dict[str, Any]]:
        stored = conn.execute(select(actions.c.before).where(actions.c.id == event)).scalar()
        return list(json.loads(stored or "[]"))

    def seated(facts: list[dict[str, Any]], last: int) -> tuple[list[Hand], int]:
        """``state`` turned into ``facts`` (the first list, or a gap in the log)."""
        start, end_b, end_a = region([f for _, f in state], facts)
        seat, last = build(state[start:end_b], facts, start, end_a, last)
        return _made(state, seat) or [], last

    after = listed(events[0].id) if events else current
    for k, ev in enumerate(events):
        before, after = after, (listed(events[k + 1].id) if k + 1 < len(events) else current)
        if [f for _, f in state] != before:
            state, last_uid = seated(before, last_uid)
        changes, last_uid = _replayed(ev, state, before, after, done, last_uid)
        state = _made(state, changes) or state
        done[ev.id] = (changes, ev.hand)
        rewritten.append({"event": ev.id,
                          "change": None if ev.kind == "create" else dumps(changes)})
    if [f for _, f in state] != current:                # hands changed outside the log
        state, last_uid = seated(current, last_uid)
    statement = (update(actions).where(actions.c.id == bindparam("event"))
                 .values(splice=bindparam("change"), before=""))
    for i in range(0, len(rewritten), UPGRADE_BATCH):
        conn.execute(statement, rewritten[i: i + UPGRADE_BATCH])
    numbered = [{"pos": pos, "hand_uid": uid} for pos, (uid, _) in enumerate(state)]
    for i in range(0, len(numbered), UPGRADE_BATCH):
        conn.execute(update(hands).where(hands.c.match_id == match_id,
                                         hands.c.position == bindparam("pos"))
                     .values(uid=bindparam("hand_uid")), numbered[i: i + UPGRADE_BATCH])
    conn.execute(update(matches).where(matches.c.id == match_id).values(uids=last_uid))


def _made(state: list[Hand], changes: list[Splice]) -> list[Hand] | None:
    """``state`` with ``changes`` made one after the other; None if one does not fit (its
    hands out are not the hands at its place)."""
    for change in changes:
        if state[change.at: change.at + len(change.removed)] != change.removed:
            return None
        state = change.apply(state)
    return state


def _replayed(
    ev: Any, state: list[Hand], before: list[dict[str, Any]], after: list[dict[str, Any]],
    done: dict[int, tuple[list[Splice], int | None]], last_uid: int,
) -> tuple[list[Splice], int]:
    """The splices an old event made, from the lists of hands before and after it."""
    if ev.kind == "undo" and ev.undoes in done:
        back = [change.reverse() for change in reversed(done[ev.undoes][0])]
        made = _made(state, back)
        if made is not None and [f for _, f in made] == after:
            return back, last_uid
    removes = ev.hand - 1 if ev.kind == "change" and ev.hand else None
    inserts = restored = None
    if ev.kind == "restore" and ev.undoes in done:
        deleted, number = done[ev.undoes]
        uids = {uid for uid, _ in state}
        if (number and deleted and deleted[0].at == number - 1 and len(deleted[0].removed) == 1
                and not deleted[0].inserted and deleted[0].removed[0][0] not in uids):
            restored = deleted[0].removed[0][0]
            inserts = min(number, len(before) + 1) - 1       # where the old store put it
    start, end_b, end_a = region(before, after, removes=removes, inserts=inserts)
    return build(state[start:end_b], after, start, end_a, last_uid,
                 removes=removes, inserts=inserts, restored=restored)


def _sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
    # Transactions are begun by _sqlite_begin, not by the driver, so that a write can take
    # the database's write lock before it reads.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    _write_ahead_log(cursor)
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.close()


def _write_ahead_log(cursor: Any) -> None:
    """Switch the database to write-ahead logging (kept in the file: a no-op once done).

    On a fresh file, several processes starting at once all switch it; SQLite refuses the
    switch at once ("database is locked", without waiting out the busy timeout, which could
    deadlock) while another connection holds the write lock. So wait here, as the busy
    timeout would: try again until the other is done."""
    deadline = time.monotonic() + SQLITE_WAIT
    pause = 0.005
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() + pause > deadline:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.1)


def _sqlite_begin(conn: Connection) -> None:
    write = conn.get_execution_options().get("referee_write")
    conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")
