"""The store: matches and the facts of their hands, plus the history of every change.

Only facts are stored; every score is derived by the engine. One transaction per user action,
and the writes to one match are serialised (SQLite: ``BEGIN IMMEDIATE``; other databases:
``SELECT ... FOR UPDATE`` on the match's row), so a write built on a stale read is refused,
never interleaved.

A match has two secret tokens: its id, which is the edit link, and a view token, which only
reads. Every change is an event kept in ``actions`` (time, device, what happened and the hands
before it); an undo is an event too, so deleting a hand, or undoing, loses nothing."""

from __future__ import annotations

import hashlib
import json
import secrets
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    Column,
    DateTime,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
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
from sqlalchemy.exc import IntegrityError

metadata = MetaData()

matches = Table(
    "matches", metadata,
    Column("id", String(32), primary_key=True),                 # the edit token
    Column("view_token", String(32), nullable=False, unique=True),
    Column("version", Integer, nullable=False, default=0),      # +1 on every change
    # +1 whenever hands may have moved to other numbers (a delete, an undo): a form built
    # for "hand 3" before that no longer knows which hand it is about.
    Column("layout", Integer, nullable=False, default=0),
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
    UniqueConstraint("match_id", "position"),
)
actions = Table(
    "actions", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("match_id", String(32), ForeignKey("matches.id", ondelete="CASCADE"), nullable=False),
    Column("created", DateTime, nullable=False),
    Column("label", String(200), nullable=False),
    Column("before", Text, nullable=False),                     # the hands before, as JSON
    Column("device", String(100), nullable=False, default=""),
    Column("kind", String(10), nullable=False, default="change"),  # create change undo restore
    Column("undoes", Integer, nullable=True),     # the event an undo takes back or a restore
    Column("hand", Integer, nullable=True),       # the number of the hand a delete took out
)

TOKEN_BYTES = 16          # 128 bits per token
SQLITE_WAIT = 30.0        # seconds a SQLite connection waits for another's lock


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
        facts = self.hands[hand - 1] if 1 <= hand <= len(self.hands) else None
        return hand_base(facts, self.layout)

    @property
    def last_action(self) -> str | None:
        return self.undoable.label if self.undoable else None


def hand_base(facts: dict[str, Any] | None, layout: int = 0) -> str:
    """A short fingerprint of a stored hand ("new" for none) at its place: what an edit form
    was built on. ``layout`` is the match's count of deletes and undos, so that a form for
    hand 3 is stale once another hand has taken that number, even one with the same facts."""
    if facts is None:
        mark = "new"
    else:
        canonical = json.dumps(facts, sort_keys=True, separators=(",", ":"))
        mark = hashlib.sha256(canonical.encode()).hexdigest()[:16]
    return f"{layout}-{mark}" if layout else mark


def _now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


class Store:
    def __init__(self, url: str) -> None:
        sqlite = url.startswith("sqlite")
        self.engine: Engine = create_engine(
            url, connect_args={"timeout": SQLITE_WAIT} if sqlite else {},
        )
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_connect)
            event.listen(self.engine, "begin", _sqlite_begin)
        # Several server processes may start at once on an empty database: one creates the
        # tables while the others wait (SQLite: the write lock; PostgreSQL: an advisory lock).
        with self._writing(None) as conn:
            if self.engine.dialect.name == "postgresql":
                conn.execute(text("SELECT pg_advisory_xact_lock(7305942)"))
            metadata.create_all(conn)
            _upgrade(conn)

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
            row = conn.execute(select(matches).where(
                or_(matches.c.id == token, matches.c.view_token == token)
            )).first()
            if row is None:
                return None
            facts = conn.execute(
                select(hands.c.facts).where(hands.c.match_id == row.id)
                .order_by(hands.c.position)
            ).scalars()
            history = _history(conn, row.id)
            return StoredMatch(
                row.id, row.view_token, row.version, row.layout, row.game,
                json.loads(row.settings),
                [json.loads(f) for f in facts], row.created, can_edit=row.id == token,
                undoable=_undoable(history), events=history[::-1][:events],
            )

    def version(self, token: str) -> tuple[int, bool] | None:
        """(version, opened with the edit token) — one indexed read, for live scoreboards."""
        with self.engine.connect() as conn:
            row = conn.execute(select(matches.c.id, matches.c.version).where(
                or_(matches.c.id == token, matches.c.view_token == token)
            )).first()
        return None if row is None else (row.version, row.id == token)

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
        match_id = secrets.token_urlsafe(TOKEN_BYTES)
        now = _now()
        with self._writing(None) as conn:
            conn.execute(insert(matches).values(
                id=match_id, view_token=secrets.token_urlsafe(TOKEN_BYTES), version=1, layout=0,
                game=game, settings=json.dumps(settings), created=created or now, updated=now,
            ))
            for position, facts in enumerate(hand_list):
                conn.execute(insert(hands).values(
                    match_id=match_id, position=position, facts=json.dumps(facts),
                ))
            conn.execute(insert(actions).values(
                match_id=match_id, created=now, label=label[:200], before="[]",
                device=device[:100], kind="create",
            ))
        return match_id

    def save_hands(
        self, match_id: str, before: list[dict[str, Any]], after: list[dict[str, Any]],
        label: str, device: str = "", *, renumbers: bool = False,
        deletes: int | None = None, restores: int | None = None,
    ) -> None:
        """Replace the match's hands by ``after`` in one transaction, logging ``before``;
        ``renumbers``: hands move to other numbers; ``deletes``: the number of the hand this
        takes out; ``restores``: the delete event whose hand this puts back.

        Refused with StaleMatch when the stored hands are no longer ``before``."""
        try:
            with self._writing(match_id) as conn:
                if self._current(conn, match_id) != before:
                    raise StaleMatch(match_id)
                conn.execute(insert(actions).values(
                    match_id=match_id, created=_now(), label=label[:200],
                    before=json.dumps(before), device=device[:100],
                    kind="restore" if restores else "change", undoes=restores, hand=deletes,
                ))
                self._write(conn, match_id, before, after, renumbers)
        except IntegrityError as error:
            raise StaleMatch(match_id) from error

    def undo(self, match_id: str, device: str = "", expected: int | None = None) -> str | None:
        """Take back the latest change not yet taken back; the undo is itself an event.

        ``expected`` is the event the user saw as "Undo: ..."; if another device changed the
        match since, StaleMatch, and nothing is undone."""
        with self._writing(match_id) as conn:
            top = _undoable(_history(conn, match_id))
            if top is None:
                if expected is not None:
                    raise StaleMatch(match_id)
                return None
            if expected is not None and expected != top.id:
                raise StaleMatch(match_id)
            before = conn.execute(select(actions.c.before).where(actions.c.id == top.id)).scalar()
            current = self._current(conn, match_id)
            conn.execute(insert(actions).values(
                match_id=match_id, created=_now(), label=f"Undone: {top.label}"[:200],
                before=json.dumps(current), device=device[:100], kind="undo", undoes=top.id,
            ))
            self._write(conn, match_id, current, json.loads(before or "[]"), renumbers=True)
            return top.label

    def deleted_hand(self, match_id: str, event: int) -> tuple[int, dict[str, Any]] | None:
        """(number, facts) of the hand that the delete ``event`` took out, while it can be put
        back (not undone, not restored already)."""
        with self._reading() as conn:
            if not any(e.id == event and e.restorable for e in _history(conn, match_id)):
                return None
            before = conn.execute(select(actions.c.before, actions.c.hand)
                                  .where(actions.c.id == event)).one()
        return int(before.hand), json.loads(before.before)[before.hand - 1]

    @contextmanager
    def _writing(self, match_id: str | None) -> Iterator[Connection]:
        """A write transaction holding the match (SQLite: the database) until it commits."""
        with self.engine.connect() as conn:
            conn.execution_options(referee_write=True)
            with conn.begin():
                if match_id is not None and self.engine.dialect.name != "sqlite":
                    conn.execute(select(matches.c.id).where(matches.c.id == match_id)
                                 .with_for_update())
                yield conn

    @staticmethod
    def _current(conn: Connection, match_id: str) -> list[dict[str, Any]]:
        return [
            json.loads(f) for f in conn.execute(
                select(hands.c.facts).where(hands.c.match_id == match_id)
                .order_by(hands.c.position)
            ).scalars()
        ]

    @staticmethod
    def _write(
        conn: Connection, match_id: str, before: list[dict[str, Any]],
        after: list[dict[str, Any]], renumbers: bool,
    ) -> None:
        for position, facts in enumerate(after):
            if position < len(before):
                if before[position] != facts:
                    conn.execute(
                        update(hands)
                        .where(hands.c.match_id == match_id, hands.c.position == position)
                        .values(facts=json.dumps(facts))
                    )
            else:
                conn.execute(insert(hands).values(
                    match_id=match_id, position=position, facts=json.dumps(facts),
                ))
        if len(before) > len(after):
            conn.execute(delete(hands).where(
                hands.c.match_id == match_id, hands.c.position >= len(after)
            ))
        conn.execute(update(matches).where(matches.c.id == match_id).values(
            updated=_now(), version=matches.c.version + 1,
            layout=matches.c.layout + (1 if renumbers else 0),
        ))


def _history(conn: Connection, match_id: str) -> list[Event]:
    """Every event of the match, oldest first, marked with what later events did to it."""
    rows = conn.execute(
        select(actions.c.id, actions.c.created, actions.c.device, actions.c.label,
               actions.c.kind, actions.c.undoes, actions.c.hand)
        .where(actions.c.match_id == match_id).order_by(actions.c.id)
    ).all()
    undone = {r.undoes for r in rows if r.kind == "undo"}
    restored = {r.undoes for r in rows if r.kind == "restore" and r.id not in undone}
    return [
        Event(r.id, r.created, r.device, r.label, r.kind, r.id in undone,
              # a delete, not undone, whose hand no standing restore has put back
              restorable=(r.kind == "change" and r.hand is not None and r.id not in undone
                          and r.id not in restored))
        for r in rows
    ]


def _undoable(history: list[Event]) -> Event | None:
    """The change an undo takes back next: the latest change or restore not undone (undos
    nest last in, first out, so everything after it has been taken back already)."""
    return next((e for e in reversed(history)
                 if e.kind in ("change", "restore") and not e.undone), None)


def _upgrade(conn: Connection) -> None:
    """Bring a database made by an earlier Referee (no view tokens, no event columns) up to
    date; existing links keep their edit rights."""
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
