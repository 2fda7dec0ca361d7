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
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import (
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
from .circletables import (
    CHANGED,
    CircleRefused,
    changed,
    circle_matches,
    circle_players,
    circle_seats,
    circles,
    hold,
    joined,
)
from .events import MATCH_STARTED
from .matchstore import Store, insert_match
from .schema import TOKEN_BYTES, hands, matches, now

Person = int | str
"""Who sits in a seat: a player of the circle (their id), or a new player's name."""


TAKEN = ("{name} is already a player of this circle: pick them from the list (or give the new "
         "player a name that tells them apart, such as {name} B.)")

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
    version: int = 0          # the match's version (matches.version) these hands are of
    language: str = "en"      # the language it is recorded in


@dataclass(frozen=True)
class Stamp:
    """A match of a circle as its cache checks it: which version, who sits where."""

    id: str
    version: int
    game: str
    created: datetime
    added: datetime
    people: tuple[int, ...]


CircleVersion = tuple[int, int, int, int]
"""A circle's version as ``Circles.version`` reads it: its own (``touch``), and its matches'
count, sum and largest version. A match's version only goes up, so any change of the circle or
of one of its matches gives another."""


@dataclass(frozen=True)
class Size:
    """How much a circle holds, to weigh against its file's limits (``circlefile``)."""

    players: int
    matches: int
    hands: int                # in all its matches
    stored: int               # the characters of its matches' stored settings and hands


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
            return _circle(conn, token)

    def size(self, token: str) -> Size:
        with self.store.reading() as conn:
            players = conn.execute(select(func.count()).select_from(circle_players)
                                   .where(circle_players.c.circle_id == token)).scalar_one()
            joined = circle_matches.c.circle_id == token
            matches_, settings = conn.execute(
                select(func.count(), func.coalesce(func.sum(func.length(matches.c.settings)), 0))
                .select_from(matches.join(circle_matches,
                                          circle_matches.c.match_id == matches.c.id))
                .where(joined)).one()
            hands_, facts = conn.execute(
                select(func.count(), func.coalesce(func.sum(func.length(hands.c.facts)), 0))
                .select_from(hands.join(circle_matches,
                                        circle_matches.c.match_id == hands.c.match_id))
                .where(joined)).one()
        return Size(int(players), int(matches_), int(hands_), int(settings) + int(facts))

    def played(self, token: str) -> Iterator[Circle | CircleMatch]:
        """The circle, then its matches oldest first (in the order they joined), each with its
        hands, as they are at one moment (one read of the database): a match's hands are read
        only when it comes, so that whoever goes through them holds one match at a time,
        whatever the circle's size. Nothing if there is no such circle."""
        with self.store.reading() as conn:
            circle = _circle(conn, token)
            if circle is None:
                return
            yield circle
            rows = conn.execute(
                select(matches.c.id, matches.c.game, matches.c.settings, matches.c.created,
                       circle_matches.c.added, matches.c.version, matches.c.language)
                .join(circle_matches, circle_matches.c.match_id == matches.c.id)
                .where(circle_matches.c.circle_id == token)
                .order_by(matches.c.created, circle_matches.c.added)).all()
            seats: dict[str, dict[int, int]] = {r.id: {} for r in rows}
            for s in conn.execute(select(circle_seats).where(circle_seats.c.circle_id == token)):
                seats.setdefault(s.match_id, {})[s.seat] = s.player_id
            for r in rows:
                facts = [json.loads(f) for f in conn.execute(
                    select(hands.c.facts).where(hands.c.match_id == r.id)
                    .order_by(hands.c.position)).scalars()]
                yield CircleMatch(r.id, r.game, json.loads(r.settings), facts, r.created,
                                  tuple(seats[r.id][k] for k in sorted(seats[r.id])), r.added,
                                  r.version, r.language or "en")

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

    def version(self, token: str) -> CircleVersion | None:
        """The circle's version (one query; None: no such circle)."""
        with self.store.engine.connect() as conn:
            return _version(conn, token)

    def stamps(
        self, token: str, wanted: Callable[[Stamp], bool],
    ) -> tuple[CircleVersion, list[Stamp], dict[str, CircleMatch]] | None:
        """In one snapshot of the database: the circle's version, its matches' stamps (newest
        first, as ``matches``), and the settings and hands of those ``wanted`` (by id); None:
        no such circle."""
        with self.store.reading() as conn:
            version = _version(conn, token)
            if version is None:
                return None
            rows = conn.execute(
                select(matches.c.id, matches.c.version, matches.c.game, matches.c.created,
                       circle_matches.c.added)
                .join(circle_matches, circle_matches.c.match_id == matches.c.id)
                .where(circle_matches.c.circle_id == token)
                .order_by(matches.c.created.desc(), circle_matches.c.added.desc())).all()
            seats: dict[str, dict[int, int]] = {r.id: {} for r in rows}
            for s in conn.execute(select(circle_seats.c.match_id, circle_seats.c.seat,
                                         circle_seats.c.player_id)
                                  .where(circle_seats.c.circle_id == token)):
                seats[s.match_id][s.seat] = s.player_id
            found = [Stamp(r.id, r.version, r.game, r.created, r.added,
                           tuple(seats[r.id][k] for k in sorted(seats[r.id]))) for r in rows]
            loaded = _by_id(conn, [s.id for s in found if wanted(s)])
        return version, found, {m.id: m for m in loaded}

    def versions(
        self, token: str, wanted: Callable[[str, int], bool],
    ) -> tuple[CircleVersion, dict[str, int], list[CircleMatch]] | None:
        """In one snapshot of the database: the circle's version, its matches' versions (by
        id), and those ``wanted`` (id, version) with their settings and hands; None: no such
        circle. (What a cache of the circle reads when only its matches changed.)"""
        with self.store.reading() as conn:
            version = _version(conn, token)
            if version is None:
                return None
            found = {r.match_id: r.version for r in conn.execute(
                select(circle_matches.c.match_id, matches.c.version)
                .join(matches, matches.c.id == circle_matches.c.match_id)
                .where(circle_matches.c.circle_id == token))}
            return version, found, _by_id(conn, [i for i, v in found.items() if wanted(i, v)])

    def matches_by_id(self, ids: Sequence[str]) -> list[CircleMatch]:
        """The matches of circles with these ids (their hands and seats), in that order (a
        match no longer in a circle is left out)."""
        with self.store.reading() as conn:
            return _by_id(conn, ids)

    def matches(self, token: str, game: str | None = None) -> list[CircleMatch]:
        """The circle's matches (of ``game``, or all), newest first, with their hands."""
        with self.store.reading() as conn:
            query = (select(*_LISTED)
                     .join(circle_matches, circle_matches.c.match_id == matches.c.id)
                     .where(circle_matches.c.circle_id == token))
            if game is not None:
                query = query.where(matches.c.game == game)
            return _loaded(conn, query.order_by(matches.c.created.desc(),
                                                circle_matches.c.added.desc()))

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
        languages: Sequence[str] = (),
    ) -> str:
        """A new circle (new tokens) with its players and matches: ``played`` is (game,
        settings, hands, created, player index per seat) per match, ``languages`` the
        language each is recorded in (English where not given).

        Written so as never to hold other tables' writes for more than a moment (issue 21):
        each match in a transaction of its own, other writes let in between two (``make_way``;
        ``progress`` is told how many are written), the circle, its players and seats last,
        in one short transaction: the circle is seen only once complete. The matches written
        before a failure are taken out again (until the circle is written, nobody holds their
        links). The matches join the circle in their order, a microsecond apart (a match file
        keeps only the day a match was created: the matches of one day keep their order)."""
        written: list[str] = []
        try:
            for n, (game, settings, hand_list, when, _) in enumerate(played):
                began = time.monotonic()
                with self.store.writing(None) as conn:
                    written.append(insert_match(
                        conn, game, settings, hand_list, when, device,
                        "Match imported with its circle",
                        languages[n] if n < len(languages) else "en"))
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


def _circle(conn: Connection, token: str) -> Circle | None:
    row = conn.execute(select(circles).where(circles.c.id == token)).first()
    if row is None:
        return None
    players = conn.execute(
        select(circle_players.c.id, circle_players.c.name)
        .where(circle_players.c.circle_id == token).order_by(circle_players.c.id)).all()
    return Circle(row.id, row.name, row.created, [Player(p.id, p.name) for p in players])


IN_THIS = "This match is in this circle already."
IN_ANOTHER = ("This match belongs to another circle already (a match is in one circle at "
              "most). Nothing was changed.")
NOT_HERE = "That player is not in this circle. Pick a player from the list."


LOADED_AT_ONCE = 200       # matches whose hands one query reads

_LISTED = (matches.c.id, matches.c.game, matches.c.settings, matches.c.created,
           circle_matches.c.added, matches.c.version)


def _version(conn: Connection, token: str) -> CircleVersion | None:
    row = conn.execute(
        select(circles.c.version, func.count(matches.c.id),
               func.coalesce(func.sum(matches.c.version), 0),
               func.coalesce(func.max(matches.c.version), 0))
        .select_from(circles.outerjoin(circle_matches, circle_matches.c.circle_id == circles.c.id)
                     .outerjoin(matches, matches.c.id == circle_matches.c.match_id))
        .where(circles.c.id == token).group_by(circles.c.id, circles.c.version)).first()
    return None if row is None else (int(row[0]), int(row[1]), int(row[2]), int(row[3]))


def _by_id(conn: Connection, ids: Sequence[str]) -> list[CircleMatch]:
    found: dict[str, CircleMatch] = {}
    for start in range(0, len(ids), LOADED_AT_ONCE):
        for m in _loaded(conn, select(*_LISTED).join(
                circle_matches, circle_matches.c.match_id == matches.c.id).where(
                matches.c.id.in_(ids[start:start + LOADED_AT_ONCE]))):
            found[m.id] = m
    return [found[i] for i in ids if i in found]


def _loaded(conn: Connection, query: Any) -> list[CircleMatch]:
    """The matches ``query`` lists (its columns: ``_LISTED``), in its order, with their hands
    and seats."""
    rows = conn.execute(query).all()
    ids = [r.id for r in rows]
    facts: dict[str, list[dict[str, Any]]] = {i: [] for i in ids}
    seats: dict[str, dict[int, int]] = {i: {} for i in ids}
    if ids:
        for h in conn.execute(select(hands.c.match_id, hands.c.facts)
                              .where(hands.c.match_id.in_(ids))
                              .order_by(hands.c.match_id, hands.c.position)):
            facts[h.match_id].append(json.loads(h.facts))
        for s in conn.execute(select(circle_seats).where(circle_seats.c.match_id.in_(ids))):
            seats[s.match_id][s.seat] = s.player_id
    return [CircleMatch(r.id, r.game, json.loads(r.settings), facts[r.id], r.created,
                        tuple(seats[r.id][k] for k in sorted(seats[r.id])), r.added, r.version)
            for r in rows]


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
