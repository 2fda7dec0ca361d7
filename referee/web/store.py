"""The store: matches and the facts of their hands, plus an action log for undo.

Only facts are stored; every score is derived by the engine. One transaction per action."""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
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
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

metadata = MetaData()

matches = Table(
    "matches", metadata,
    Column("id", String(32), primary_key=True),
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
    Column("before", Text, nullable=False),
)


class StaleMatch(Exception):
    """The match changed (another device) between reading it and writing the change."""


@dataclass
class StoredMatch:
    id: str
    game: str
    settings: dict[str, Any]
    hands: list[dict[str, Any]]
    created: datetime
    last_action: str | None


def _now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


class Store:
    def __init__(self, url: str) -> None:
        self.engine: Engine = create_engine(url)
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        metadata.create_all(self.engine)

    def create(
        self, game: str, settings: dict[str, Any], hand_list: list[dict[str, Any]],
        created: datetime | None = None,
    ) -> str:
        match_id = secrets.token_urlsafe(16)
        now = _now()
        with self.engine.begin() as conn:
            conn.execute(insert(matches).values(
                id=match_id, game=game, settings=json.dumps(settings), created=created or now,
                updated=now,
            ))
            for position, facts in enumerate(hand_list):
                conn.execute(insert(hands).values(
                    match_id=match_id, position=position, facts=json.dumps(facts),
                ))
        return match_id

    def load(self, match_id: str) -> StoredMatch | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(matches).where(matches.c.id == match_id)).first()
            if row is None:
                return None
            facts = conn.execute(
                select(hands.c.facts).where(hands.c.match_id == match_id).order_by(hands.c.position)
            ).scalars()
            last = conn.execute(
                select(actions.c.label).where(actions.c.match_id == match_id)
                .order_by(actions.c.id.desc()).limit(1)
            ).scalar()
            return StoredMatch(
                row.id, row.game, json.loads(row.settings), [json.loads(f) for f in facts],
                row.created, last,
            )

    def recent(self, limit: int = 50) -> list[tuple[str, str, dict[str, Any], datetime]]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(matches.c.id, matches.c.game, matches.c.settings, matches.c.updated)
                .order_by(matches.c.updated.desc()).limit(limit)
            )
            return [(r.id, r.game, json.loads(r.settings), r.updated) for r in rows]

    def save_hands(
        self, match_id: str, before: list[dict[str, Any]], after: list[dict[str, Any]], label: str
    ) -> None:
        """Replace the match's hands by ``after`` in one transaction, logging ``before``.

        Refused with StaleMatch when the stored hands are no longer ``before``."""
        try:
            with self.engine.begin() as conn:
                if self._current(conn, match_id) != before:
                    raise StaleMatch(match_id)
                conn.execute(insert(actions).values(
                    match_id=match_id, created=_now(), label=label[:200],
                    before=json.dumps(before),
                ))
                self._write(conn, match_id, before, after)
        except IntegrityError as error:
            raise StaleMatch(match_id) from error

    @staticmethod
    def _current(conn: Any, match_id: str) -> list[dict[str, Any]]:
        return [
            json.loads(f) for f in conn.execute(
                select(hands.c.facts).where(hands.c.match_id == match_id)
                .order_by(hands.c.position)
            ).scalars()
        ]

    def undo(self, match_id: str) -> str | None:
        with self.engine.begin() as conn:
            row = conn.execute(
                select(actions).where(actions.c.match_id == match_id)
                .order_by(actions.c.id.desc()).limit(1)
            ).first()
            if row is None:
                return None
            current = self._current(conn, match_id)
            self._write(conn, match_id, current, json.loads(row.before))
            conn.execute(delete(actions).where(actions.c.id == row.id))
            return str(row.label)

    @staticmethod
    def _write(
        conn: Any, match_id: str, before: list[dict[str, Any]], after: list[dict[str, Any]]
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
        conn.execute(update(matches).where(matches.c.id == match_id).values(updated=_now()))


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.close()
