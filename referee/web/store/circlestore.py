"""Circles in the store: a group that plays together, its players, and who sat where in each
of its matches.

A circle's id is its secret token (128 bits, like a match's edit token): whoever holds the
circle's link sees its matches, players and statistics. Its players are rows, not strings: two
seats are the same person only when the table picked the same player for both. Names are
unique in a circle as the app compares names (``name_key``: case and invisible characters
aside). A match belongs to at most one circle (``circle_matches``: the match is its key); each
of its seats is one player of that circle (``circle_seats``), one seat per player.

Every change of a circle's members and people goes through ``changed``: a line of the circle's
history (``circle_changes``: when, what in words, by which device, and what it takes to undo
it; ``circlechanges`` renames, merges, removes and undoes). Each write holds the circle's row
first (``hold``), so that two phones' changes of one circle take turns.

The tables share the store's metadata, so ``Store`` creates them on an existing database."""

from __future__ import annotations

import contextlib
import json
import secrets
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
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
    delete,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from ...engine.games import get
from ...engine.games.base import name_key
from ...engine.words import N, T
from .events import MATCH_STARTED, stored_label
from .matchstore import Store, insert_match
from .schema import TOKEN_BYTES, hands, matches, metadata, now

circles = Table(
    "circles", metadata,
    Column("id", String(32), primary_key=True),                 # the secret token: its link
    Column("name", String(100), nullable=False),
    Column("created", DateTime, nullable=False),
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

Person = int | str
"""Who sits in a seat: a player of the circle (their id), or a new player's name."""


class CircleRefused(Exception):
    """A change to a circle that cannot be made; its message says why (nothing was stored)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


TAKEN = ("{name} is already a player of this circle: pick them from the list (or give the new "
         "player a name that tells them apart, such as {name} B.)")
CHANGED = T("This circle was changed on another phone meanwhile, so nothing was saved: try "
            "again (the lists show the circle as it is now).")


@dataclass(frozen=True)
class Player:
    id: int
    name: str


@dataclass
class Circle:
    id: str                   # the secret token
    name: str
    created: datetime
    players: list[Player]

    def player(self, player_id: int) -> Player | None:
        return next((p for p in self.players if p.id == player_id), None)


@dataclass
class CircleMatch:
    """A match of a circle, with the circle's player in each of its seats."""

    id: str                   # the match's edit token
    game: str
    settings: dict[str, Any]
    hands: list[dict[str, Any]]
    created: datetime
    people: tuple[int, ...]   # a circle player's id per seat
    added: datetime           # when it joined the circle: in the order the matches joined


class Circles:
    """The circles of a store (the same database and transactions)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.importing = threading.Lock()       # held by the import of a circle file
        self._rekey()

    def _rekey(self) -> None:
        """Players stored by an earlier Referee keep up with how names are compared now
        (``name_key``: variation selectors, before issue 21, made another name): each gets its
        name's key, unless another player of the circle has it (those two stay apart, as they
        were: a circle's players are never merged behind its back)."""
        with self.store.writing(None) as conn:
            rows = conn.execute(select(circle_players)).all()
            taken = {(r.circle_id, r.name_key) for r in rows}
            for r in rows:
                key = name_key(r.name)
                if key != r.name_key and (r.circle_id, key) not in taken:
                    conn.execute(update(circle_players).where(circle_players.c.id == r.id)
                                 .values(name_key=key))
                    taken.add((r.circle_id, key))

    # -- reading ---------------------------------------------------------------------------

    def load(self, token: str) -> Circle | None:
        with self.store.engine.connect() as conn:
            row = conn.execute(select(circles).where(circles.c.id == token)).first()
            if row is None:
                return None
            players = conn.execute(
                select(circle_players.c.id, circle_players.c.name)
                .where(circle_players.c.circle_id == token).order_by(circle_players.c.id)
            ).all()
        return Circle(row.id, row.name, row.created, [Player(p.id, p.name) for p in players])

    def listed(self, tokens: Sequence[str]) -> list[tuple[str, str]]:
        """(token, name) of the circles these tokens open, in the order of ``tokens``."""
        if not tokens:
            return []
        with self.store.engine.connect() as conn:
            rows = dict(conn.execute(select(circles.c.id, circles.c.name)
                                     .where(circles.c.id.in_(list(tokens)))).all())
        return [(t, rows[t]) for t in tokens if t in rows]

    def circle_of(self, match_id: str) -> str | None:
        with self.store.engine.connect() as conn:
            found = conn.execute(select(circle_matches.c.circle_id)
                                 .where(circle_matches.c.match_id == match_id)).scalar()
        return None if found is None else str(found)

    def matches(self, token: str, game: str | None = None) -> list[CircleMatch]:
        """The circle's matches (of ``game``, or all), newest first, with their hands."""
        with self.store.reading() as conn:
            query = (select(matches.c.id, matches.c.game, matches.c.settings,
                            matches.c.created, circle_matches.c.added)
                     .join(circle_matches, circle_matches.c.match_id == matches.c.id)
                     .where(circle_matches.c.circle_id == token))
            if game is not None:
                query = query.where(matches.c.game == game)
            rows = conn.execute(query.order_by(matches.c.created.desc(),
                                               circle_matches.c.added.desc())).all()
            ids = [r.id for r in rows]
            facts: dict[str, list[dict[str, Any]]] = {i: [] for i in ids}
            seats: dict[str, dict[int, int]] = {i: {} for i in ids}
            if ids:
                for h in conn.execute(select(hands.c.match_id, hands.c.facts)
                                      .where(hands.c.match_id.in_(ids))
                                      .order_by(hands.c.match_id, hands.c.position)):
                    facts[h.match_id].append(json.loads(h.facts))
                for s in conn.execute(select(circle_seats).where(
                        circle_seats.c.match_id.in_(ids))):
                    seats[s.match_id][s.seat] = s.player_id
        return [CircleMatch(r.id, r.game, json.loads(r.settings), facts[r.id], r.created,
                            tuple(seats[r.id][k] for k in sorted(seats[r.id])), r.added)
                for r in rows]

    # -- writing ---------------------------------------------------------------------------

    def create(self, name: str, created: datetime | None = None) -> str:
        token = secrets.token_urlsafe(TOKEN_BYTES)
        with self.store.writing(None) as conn:
            conn.execute(insert(circles).values(id=token, name=name, created=created or now()))
        return token

    def add_player(self, token: str, name: str, device: str = "") -> int:
        """A new player of the circle (CircleRefused if the name is taken)."""
        try:
            with self.store.writing(None) as conn:
                hold(conn, token)
                player = _new_player(conn, token, name)
                joined(conn, token, player, name, device)
                return player
        except IntegrityError:
            raise CircleRefused(CHANGED) from None

    def start_match(
        self, token: str, game: str, settings: dict[str, Any], people: Sequence[Person],
        hand_list: Sequence[dict[str, Any]] = (), created: datetime | None = None,
        device: str = "", label: str = MATCH_STARTED, language: str = "en",
    ) -> str:
        """A new match of the circle, with its people (a player id, or a new player's name,
        per seat), in one transaction; its edit token."""
        try:
            with self.store.writing(None) as conn:
                hold(conn, token)
                match_id = insert_match(conn, game, settings, list(hand_list), created, device,
                                        label, language)
                names = _seat(conn, token, match_id, people, device=device)
                changed(conn, token, T("%(game)s match started: %(people)s",
                                       game=get(game).title, people=" – ".join(names)),
                        device, "start", {"match": match_id})
                return match_id
        except IntegrityError:
            raise CircleRefused(CHANGED) from None

    def add_match(self, token: str, match_id: str, people: Sequence[Person],
                  device: str = "") -> None:
        """Put an existing match into the circle, with its people (CircleRefused if it is in a
        circle already)."""
        try:
            with self.store.writing(match_id) as conn:
                hold(conn, token)
                found = conn.execute(select(circle_matches.c.circle_id)
                                     .where(circle_matches.c.match_id == match_id)).scalar()
                if found is not None:
                    raise CircleRefused(IN_THIS if found == token else IN_ANOTHER)
                names = _seat(conn, token, match_id, people, device=device)
                game = conn.execute(select(matches.c.game)
                                    .where(matches.c.id == match_id)).scalar_one()
                changed(conn, token, T("%(game)s match added to the circle: %(people)s",
                                       game=get(game).title, people=" – ".join(names)),
                        device, "add", {"match": match_id})
        except IntegrityError:
            raise CircleRefused(CHANGED) from None

    def import_circle(
        self, name: str, created: datetime, players: Sequence[str],
        played: Sequence[tuple[str, dict[str, Any], list[dict[str, Any]], datetime,
                               Sequence[int]]],
        device: str = "", progress: Callable[[int], None] | None = None,
    ) -> str:
        """A new circle (new tokens) with its players and matches: ``played`` is (game,
        settings, hands, created, player index per seat) per match.

        Written so as never to hold other tables' writes for more than a moment (issue 21):
        each match in a transaction of its own, other writes let in between two (``make_way``;
        ``progress`` is told how many are written), the circle, its players and seats last,
        in one short transaction: the circle is seen only once complete. The matches written
        before a failure are taken out again (until the circle is written, nobody holds their
        links). The matches join the circle in their order, a microsecond apart (a match file
        keeps only the day a match was created: the matches of one day keep their order)."""
        written: list[str] = []
        try:
            for game, settings, hand_list, when, _ in played:
                began = time.monotonic()
                with self.store.writing(None) as conn:
                    written.append(insert_match(conn, game, settings, hand_list, when, device,
                                                "Match imported with its circle"))
                if progress is not None:
                    progress(len(written))
                self.store.make_way(time.monotonic() - began)
            token = secrets.token_urlsafe(TOKEN_BYTES)
            with self.store.writing(None) as conn:
                conn.execute(insert(circles).values(id=token, name=name, created=created))
                ids = [_new_player(conn, token, p) for p in players]
                joined = now()
                for n, (match_id, (*_, people)) in enumerate(zip(written, played, strict=True)):
                    _seat(conn, token, match_id, [ids[i] for i in people],
                          joined + timedelta(microseconds=n))
                changed(conn, token, T("Circle imported: %(players)s, %(matches)s",
                                       players=N("%(num)s player", "%(num)s players",
                                                 len(players), num=len(players)),
                                       matches=N("%(num)s match", "%(num)s matches",
                                                 len(written), num=len(written))),
                        device, "import")
        except BaseException:
            with contextlib.suppress(SQLAlchemyError), self.store.writing(None) as conn:
                conn.execute(delete(matches).where(matches.c.id.in_(written)))
            raise
        return token


IN_THIS = "This match is in this circle already."
IN_ANOTHER = ("This match belongs to another circle already (a match is in one circle at "
              "most). Nothing was changed.")
NOT_HERE = "That player is not in this circle. Pick a player from the list."
NO_CIRCLE = T("This circle is not there any more.")


def _new_player(conn: Connection, token: str, name: str) -> int:
    key = name_key(name)
    taken = conn.execute(select(circle_players.c.name).where(
        circle_players.c.circle_id == token, circle_players.c.name_key == key)).scalar()
    if taken is not None:
        raise CircleRefused(TAKEN.format(name=taken))
    return int(conn.execute(insert(circle_players).values(
        circle_id=token, name=name, name_key=key).returning(circle_players.c.id)).scalar_one())


def _seat(conn: Connection, token: str, match_id: str, people: Sequence[Person],
          added: datetime | None = None, device: str | None = None) -> list[str]:
    """The match joins the circle (now, or at ``added``), with the person in each seat (new
    names join the circle: each a change of its own, told to ``changed`` unless ``device`` is
    None); the names in its seats."""
    known = dict(conn.execute(select(circle_players.c.id, circle_players.c.name)
                              .where(circle_players.c.circle_id == token)).all())
    ids = []
    for person in people:
        if isinstance(person, str):
            ids.append(_new_player(conn, token, person))
            known[ids[-1]] = person
            if device is not None:
                joined(conn, token, ids[-1], person, device)
        elif person in known:
            ids.append(person)
        else:
            raise CircleRefused(NOT_HERE)
    conn.execute(insert(circle_matches).values(match_id=match_id, circle_id=token,
                                               added=added or now()))
    for seat, player in enumerate(ids):
        conn.execute(insert(circle_seats).values(match_id=match_id, seat=seat,
                                                 circle_id=token, player_id=player))
    return [known[p] for p in ids]


# -- the circle's history ------------------------------------------------------------------

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
    ``undo``: what taking it back needs, or None); its id, the circle's new version."""
    return int(conn.execute(insert(circle_changes).values(
        circle_id=circle_id, at=now(), label=stored_label(label), device=device[:100],
        kind=kind, undo=None if undo is None else json.dumps(undo), undoes=undoes,
    ).returning(circle_changes.c.id)).scalar_one())


def joined(conn: Connection, token: str, player: int, name: str, device: str) -> None:
    changed(conn, token, T("%(name)s joined the circle", name=name), device, "player",
            {"player": player, "name": name})
