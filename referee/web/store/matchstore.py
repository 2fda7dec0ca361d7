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

import json
import secrets
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, func, insert, or_, select, text, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError, OperationalError

from ...engine import matchfile
from ...engine.errors import RuleViolation
from ...engine.games import get
from ...engine.words import T
from .events import (
    MATCH_STARTED,
    Deleted,
    Event,
    apply_splice,
    deleted_hand,
    hand_rows,
    log_event,
    match_changed,
    recent,
    stored_label,
)
from .kept import Logs, Parsed, hand_base, kept_base
from .schema import (
    SQLITE_WAIT,
    STARTUP_WAIT,
    TOKEN_BYTES,
    actions,
    connect,
    hands,
    matches,
    metadata,
    now,
)
from .splice import Splice, build, dumps, loads, region
from .upgrades import upgrade

# A match's version by either of its tokens (Store.version).
_VERSION = select(matches.c.id, matches.c.version).where(
    or_(matches.c.id == bindparam("token"), matches.c.view_token == bindparam("token")))
# Store.load's reads, built once (issue 12: building a statement costs as much as sending it)
_MATCH = select(matches).where(
    or_(matches.c.id == bindparam("token"), matches.c.view_token == bindparam("token")))
_HANDS = (select(hands.c.uid, hands.c.facts).where(hands.c.match_id == bindparam("match"))
          .order_by(hands.c.position))
# A change's writes, built once too (save_hands, undo: apply_splice, log_event, match_changed)
# A change's reads and lock (save_hands, undo)
_WRITE_ROW = select(matches.c.version, matches.c.uids, matches.c.game, matches.c.updated).where(
    matches.c.id == bindparam("match"))
_SPLICE = select(actions.c.splice).where(actions.c.id == bindparam("event"))
_LOCK = select(matches.c.id).where(matches.c.id == bindparam("match")).with_for_update()


class StaleMatch(Exception):
    """The match changed (another device) between reading it and writing the change."""



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
    language: str = "en"      # what its scoresheet and CSV are written in
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
        return kept_base(self.hands[hand - 1], self.layout)

    @property
    def last_action(self) -> str | None:
        return self.undoable.label if self.undoable else None


class Store:
    def __init__(self, url: str) -> None:
        self._version: tuple[str, Any] | None = None       # Store.version's SQL, compiled
        self._parsed = Parsed()
        self._logs = Logs()
        self._waiting = 0                                  # writes waiting for the database
        self._waiting_lock = threading.Lock()
        sqlite = url.startswith("sqlite")
        self.engine: Engine = connect(url)
        # Several server processes may start at once on an empty database: one creates the
        # tables while the others wait (SQLite: the write lock; PostgreSQL: an advisory lock).
        # Upgrading a large old database takes longer than one SQLite wait: the others keep
        # waiting until it is done (STARTUP_WAIT).
        deadline = time.monotonic() + STARTUP_WAIT
        while True:
            try:
                with self.writing(None) as conn:
                    if self.engine.dialect.name == "postgresql":
                        conn.execute(text("SELECT pg_advisory_xact_lock(7305942)"))
                    metadata.create_all(conn)
                    upgrade(conn)
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

    def reading(self) -> Connection:
        """A read that sees one state of the database (SQLite: one snapshot per transaction;
        other databases: repeatable read), so hands and history always belong together."""
        conn = self.engine.connect()
        if self.engine.dialect.name != "sqlite":
            conn.execution_options(isolation_level="REPEATABLE READ")
        return conn

    # -- reading ---------------------------------------------------------------------------

    def load(self, token: str, events: int = 0) -> StoredMatch | None:
        """The match whose edit or view token this is, with its last ``events`` events."""
        with self.reading() as conn:
            row = conn.execute(_MATCH, {"token": token}).first()
            if row is None:
                return None
            stamp = (row.version, row.updated)
            facts = self._parsed.known(row.id, stamp)
            if facts is None:
                rows = conn.execute(_HANDS, {"match": row.id}).all()
                facts = self._parsed.parse(row.id, rows, stamp)
            undoable, latest = recent(self._logs.rows(conn, row.id, stamp), events)
            return StoredMatch(
                row.id, row.view_token, row.version, row.layout, row.game,
                json.loads(row.settings),
                facts, row.created, can_edit=row.id == token, language=row.language,
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
        created: datetime | None = None, device: str = "", label: str = MATCH_STARTED,
        language: str = "en",
    ) -> str:
        with self.writing(None) as conn:
            return insert_match(conn, game, settings, hand_list, created, device, label,
                                language)

    def set_language(self, match_id: str, language: str) -> None:
        """Record the match ``match_id`` in ``language`` from now on (its scoresheet, its
        CSV); its hands and history are left as they are."""
        with self.writing(match_id) as conn:
            conn.execute(update(matches).where(matches.c.id == match_id).values(
                language=language))

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
            with self.writing(match_id) as conn:
                row = conn.execute(_WRITE_ROW, {"match": match_id}).first()
                if row is None or (version is not None and row.version != version):
                    raise StaleMatch(match_id)
                stored = None if version is not None else hand_rows(conn, match_id)
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
                    found = deleted_hand(conn, match_id, restores)
                    # the hand put back is the caller's, completed for its place: a deal
                    # deleted while a correction was pending comes back with what the fold
                    # fills in (Stovkahra's sticks_by), so it is not compared with the stored
                    if found is None or found.at > len(after):
                        raise StaleMatch(match_id)
                    inserts, restored = found.at - 1, found.uid
                start, end_before, end_after = region(before, after, removes=removes,
                                                      inserts=inserts)
                removed = (stored[start:end_before] if stored is not None
                           else [] if start == end_before
                           else self._parsed.hands(match_id, (row.version, row.updated),
                                                   start, end_before)
                           or hand_rows(conn, match_id, start, end_before))
                if [f for _, f in removed] != before[start:end_before]:
                    raise StaleMatch(match_id)
                changes, last_uid = build(removed, after, start, end_after, row.uids,
                                          removes=removes, inserts=inserts, restored=restored)
                logged = log_event(conn, match_id, label=label, splice=dumps(changes),
                              device=device[:100], kind="restore" if restores else "change",
                              undoes=restores, hand=deletes)
                for change in changes:
                    apply_splice(conn, match_id, change)
                when = match_changed(conn, match_id, renumbers, last_uid)
        except IntegrityError as error:
            raise StaleMatch(match_id) from error
        self._parsed.advance(match_id, (row.version, row.updated), (row.version + 1, when),
                             changes)
        self._logs.advance(match_id, (row.version, row.updated), (row.version + 1, when), logged)

    def undo(self, match_id: str, device: str = "", expected: int | None = None) -> str | None:
        """Take back the latest change not yet taken back; the undo is itself an event.

        ``expected`` is the event the user saw as "Undo: ..."; if another device changed the
        match since, StaleMatch, and nothing is undone."""
        try:
            with self.writing(match_id) as conn:
                row = conn.execute(_WRITE_ROW, {"match": match_id}).one()
                stamp = (row.version, row.updated)
                top = recent(self._logs.rows(conn, match_id, stamp), 0)[0]
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
                    current = hand_rows(conn, match_id, done.at, done.at + len(done.inserted))
                    if [uid for uid, _ in current] != [uid for uid, _ in done.inserted]:
                        raise StaleMatch(match_id)
                    back = Splice(done.at, current, done.removed)
                    apply_splice(conn, match_id, back)
                    undone.append(back)
                logged = log_event(conn, match_id, label=T("Undone: %(label)s", label=top.label),
                              splice=dumps(undone), device=device[:100], kind="undo",
                              undoes=top.id, hand=None)
                when = match_changed(conn, match_id, True, row.uids)
        except IntegrityError as error:     # never on a state this store made: 409, not 500
            raise StaleMatch(match_id) from error
        self._parsed.advance(match_id, stamp, (row.version + 1, when), undone)
        self._logs.advance(match_id, stamp, (row.version + 1, when), logged)
        return top.label

    def deleted_hand(self, match_id: str, event: int) -> Deleted | None:
        """The hand that the delete ``event`` took out and the number it gets back (between
        the neighbours it had), while it can be put back (not undone, not restored already)."""
        with self.reading() as conn:
            return deleted_hand(conn, match_id, event)

    @contextmanager
    def writing(self, match_id: str | None) -> Iterator[Connection]:
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
    created: datetime | None = None, device: str = "", label: str = MATCH_STARTED,
    language: str = "en",
) -> str:
    """Write a new match (new tokens) in the transaction ``conn``; its edit token."""
    match_id = secrets.token_urlsafe(TOKEN_BYTES)
    when = now()
    conn.execute(insert(matches).values(
        id=match_id, view_token=secrets.token_urlsafe(TOKEN_BYTES), version=1, layout=0,
        uids=len(hand_list), game=game, settings=json.dumps(settings),
        created=created or when, updated=when, language=language,
    ))
    if hand_list:
        conn.execute(insert(hands), [
            {"match_id": match_id, "position": position, "uid": position + 1,
             "facts": json.dumps(facts)} for position, facts in enumerate(hand_list)])
    conn.execute(insert(actions).values(
        match_id=match_id, created=when, label=stored_label(label), before="",
        device=device[:100], kind="create",
    ))
    return match_id
