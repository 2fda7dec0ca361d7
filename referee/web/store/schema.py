"""The store's tables (matches, their hands, their events), its tokens and clock, and the
database connection (SQLite set up for several server processes on one file).

The circles' tables (``circlestore``) share this metadata, so ``Store`` creates them too."""

from __future__ import annotations

import sqlite3
import time
from datetime import UTC, datetime
from typing import Any

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
    create_engine,
    event,
)
from sqlalchemy.engine import Connection, Engine

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
    # the language the match is recorded in (its scoresheet, its CSV): engine.words.LANGUAGES
    Column("language", String(8), nullable=False, default="en", server_default="en"),
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
    # what the event did: a sentence as JSON (events.stored_label), or, before 2027-01,
    # English words (at most 200 characters)
    Column("label", Text, nullable=False),
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


def now() -> datetime:
    """The time now, in UTC, as the tables store it (without a time zone)."""
    return datetime.now(UTC).replace(tzinfo=None)


def connect(url: str) -> Engine:
    """The engine of the database at ``url``; on SQLite, every connection waits for another's
    lock (SQLITE_WAIT), keeps its write-ahead log and begins its own transactions."""
    sqlite = url.startswith("sqlite")
    engine = create_engine(url, connect_args={"timeout": SQLITE_WAIT} if sqlite else {})
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_connect)
        event.listen(engine, "begin", _sqlite_begin)
    return engine


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
