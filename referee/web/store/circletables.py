"""A circle's tables, and the one door of every change to a circle's members and people:
``changed`` writes the change's line in the circle's history (what its undo needs) and
``touch``es the circle, whose version every process's cache of it is checked against.

The tables share the store's metadata, so ``Store`` creates them on an existing database."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import (
    Column,
    DateTime,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    UniqueConstraint,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection

from ...engine.words import T
from .events import stored_label
from .schema import metadata, now

circles = Table(
    "circles", metadata,
    Column("id", String(32), primary_key=True),                 # the secret token: its link
    Column("name", String(100), nullable=False),
    Column("created", DateTime, nullable=False),
    # +1 on every change of its players or of who is in its matches (``touch``); with its
    # matches' own versions, what a process's cache of the circle is checked against
    Column("version", Integer, nullable=False, default=0, server_default="0"),
)
circle_players = Table(
    "circle_players", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("circle_id", String(32), ForeignKey("circles.id", ondelete="CASCADE"),
           nullable=False),
    Column("name", String(100), nullable=False),
    Column("name_key", String(400), nullable=False),             # name_key(name)
    UniqueConstraint("circle_id", "name_key", name="uq_circle_players_name"),
    UniqueConstraint("circle_id", "id", name="uq_circle_players_circle_id"),
)
circle_matches = Table(
    "circle_matches", metadata,
    Column("match_id", String(32), ForeignKey("matches.id", ondelete="CASCADE"),
           primary_key=True),                                   # at most one circle a match
    Column("circle_id", String(32), ForeignKey("circles.id", ondelete="CASCADE"),
           nullable=False, index=True),
    Column("added", DateTime, nullable=False),
    UniqueConstraint("match_id", "circle_id", name="uq_circle_matches_pair"),
    # the circle's matches without reading its rows (``Circles.version``, every request)
    Index("ix_circle_matches_circle_match", "circle_id", "match_id"),
)
circle_seats = Table(
    "circle_seats", metadata,
    Column("match_id", String(32), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("circle_id", String(32), nullable=False),
    Column("player_id", Integer, nullable=False),
    PrimaryKeyConstraint("match_id", "seat"),
    UniqueConstraint("match_id", "player_id", name="uq_circle_seats_person"),
    # the seat's circle is its match's circle, and its player is a player of that circle
    ForeignKeyConstraint(["match_id", "circle_id"],
                         ["circle_matches.match_id", "circle_matches.circle_id"],
                         ondelete="CASCADE"),
    ForeignKeyConstraint(["circle_id", "player_id"],
                         ["circle_players.circle_id", "circle_players.id"], ondelete="CASCADE"),
)

circle_changes = Table(
    "circle_changes", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("circle_id", String(32), ForeignKey("circles.id", ondelete="CASCADE"),
           nullable=False),
    Column("at", DateTime, nullable=False),
    Column("label", Text, nullable=False),          # what it did: events.stored_label
    Column("device", String(100), nullable=False, default=""),
    # player, start, add, import, rename, merge, remove, undo
    Column("kind", String(10), nullable=False),
    Column("undo", Text, nullable=True),            # JSON: what its undo needs (None: none)
    Column("undoes", Integer, nullable=True),       # an undo: the change it took back
    Index("ix_circle_changes_circle", "circle_id", "id"),
)


class CircleRefused(Exception):
    """A change to a circle that cannot be made; its message says why (nothing was stored)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


CHANGED = T("This circle was changed on another phone meanwhile, so nothing was saved: try "
            "again (the lists show the circle as it is now).")
NO_CIRCLE = T("This circle is not there any more.")


def touch(conn: Connection, token: str) -> None:
    """The circle changed (its players, who is in its matches): its version goes up, in the
    transaction ``conn`` of the change, so that every process's cache of it sees the change
    at its next request."""
    conn.execute(update(circles).where(circles.c.id == token)
                 .values(version=circles.c.version + 1))


def hold(conn: Connection, token: str, seen: int | None = None) -> None:
    """Hold the circle's row until the transaction ``conn`` ends (PostgreSQL; SQLite's write
    holds the database): a change of the circle waits for another's. CircleRefused if the
    circle is not there, or (``seen``: its version when the phone's page was made) if it has
    been changed since."""
    found = conn.execute(select(circles.c.id).where(circles.c.id == token)
                         .with_for_update()).scalar()
    if found is None:
        raise CircleRefused(NO_CIRCLE)
    if seen is not None and version(conn, token) != seen:
        raise CircleRefused(CHANGED)


def version(conn: Connection, token: str) -> int:
    """The circle's version: its latest change (0 before the first). A page's forms carry it;
    a change made from a page of an older version is refused (``hold``)."""
    latest = conn.execute(select(func.max(circle_changes.c.id))
                          .where(circle_changes.c.circle_id == token)).scalar()
    return int(latest or 0)


def changed(conn: Connection, circle_id: str, label: str, device: str = "",
            kind: str = "change", undo: dict[str, Any] | None = None,
            undoes: int | None = None) -> int:
    """The one door of every change to a circle's members and people, in the transaction
    that makes it: a line of the circle's history (``label``: a sentence, ``engine.words``;
    ``undo``: what taking it back needs, or None); its id, the circle's new version. The
    circle is ``touch``ed too: every process's cache of it sees the change."""
    touch(conn, circle_id)
    return int(conn.execute(insert(circle_changes).values(
        circle_id=circle_id, at=now(), label=stored_label(label), device=device[:100],
        kind=kind, undo=None if undo is None else json.dumps(undo), undoes=undoes,
    ).returning(circle_changes.c.id)).scalar_one())


def joined(conn: Connection, token: str, player: int, name: str, device: str) -> None:
    changed(conn, token, T("%(name)s joined the circle", name=name), device, "player",
            {"player": player, "name": name})
