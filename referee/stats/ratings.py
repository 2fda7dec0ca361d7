"""Ratings: one number per person and game in a circle, from the finished matches in order.

Pure Python over the engine and openskill: no Flask, no database, nothing stored. Every rating
is derived from the matches, like every score: a corrected hand, a match added or taken away,
and the next view rates the matches again.

Two steps:

``rated_match(played, result) -> RatedMatch | None``
    What a rating reads of one match (its game, when, its scoring sides with the people on
    each and their finishing rank, each side's score figure), or None for a match that has
    not finished. Tartli and Marjolet: the winner ranks first. Stovkahra: the two teams,
    the winning team first. Troggu has no winner and no end (7.5.2): a match with at least one
    scored hand is ranked by its balances so far (equal balances tie; a hand being played adds
    nothing until it is scored), so an evening's match moves its players' ratings as it goes.

``ratings(records) -> dict[str, GameRatings]``
    Each game rated on its own, person by person, the matches in the order of ``when``
    (matches of one time in the order given). A record whose sides name one person twice is
    not rated (nobody plays against themselves). ``Rater`` does the same a match at a time
    (``add``): the answer is the same however the records came, at once or in pieces.

The model is openskill's Plackett–Luce (``openskill.models.PlackettLuce``, its defaults:
mu 25, sigma 25/3, beta 25/6, tau 25/300). Plackett–Luce ranks any number of sides in one
update, with ties, at a cost linear in the sides, so Troggu's three to six players ranked by
balance are one match, like a two-player Tartli match or Stovkahra's two teams; Weng–Lin's
Bradley–Terry compares every pair of sides instead, for the same answers in two-sided games
and no better ones here; trueskill needs a factor graph for what Plackett–Luce does in closed
form, and is not maintained as openskill is.

The number shown (``SHOWN``) is the ordinal on an Elo-like scale:
``1000 + 40 × (mu − 3 × sigma)`` (openskill's own ``ordinal(3, 40, 1000)``). Everyone starts
at 1000; the ordinal is a cautious estimate (the skill the player is very likely above), so
it climbs as a player's matches make the estimate surer, and a win against an equal moves it
by some tens of points, as a chess rating moves. A player with fewer than ``PROVISIONAL``
matches of the game rated is shown as provisional.
"""

from __future__ import annotations

import bisect
import datetime
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from openskill.models import PlackettLuce, PlackettLuceRating

from ..engine.errors import RuleViolation
from ..engine.games import get
from ..engine.games.base import MatchResult
from . import FIGURES
from .played import Played

PROVISIONAL = 5                     # rated matches under this: provisional
Z, ALPHA, TARGET = 3.0, 40.0, 1000.0
SHOWN = "1000 + 40 × (mu − 3 × sigma)"
MODEL = PlackettLuce()
START = TARGET                      # everyone's shown number before any match


def side_of(game: str) -> Callable[[int], int]:
    """The scoring side of a seat: Stovkahra's teams, else each player alone."""
    own = FIGURES.get(game)
    return own.side if own is not None else int


@dataclass(frozen=True)
class RatedMatch:
    """One match as a rating reads it."""

    game: str
    when: datetime.datetime         # naive, UTC for an aware time; a day: its midnight
    sides: tuple[tuple[str, ...], ...]   # the people of each scoring side, in the game's order
    ranks: tuple[int, ...]          # each side's finishing place: 1 first, ties share one
    figures: tuple[int, ...]        # each side's score as the circle's page shows it: its
                                    # victory units (buli, games, matchsticks) or Troggu's
                                    # balance in Rappen
    finished: bool = True


def moment(when: datetime.date) -> datetime.datetime:
    """A day or a time as a naive datetime (aware: in UTC; a day: its midnight)."""
    if isinstance(when, datetime.datetime):
        if when.tzinfo is not None:
            return when.astimezone(datetime.UTC).replace(tzinfo=None)
        return when
    return datetime.datetime(when.year, when.month, when.day)


def places(figures: tuple[int, ...]) -> tuple[int, ...]:
    """Each figure's place, highest first, equal figures sharing the better place (1, 2, 2, 4)."""
    return tuple(1 + sum(other > mine for other in figures) for mine in figures)


def rated_match(played: Played, result: MatchResult) -> RatedMatch | None:
    """What the ratings read of ``played`` scored as ``result`` (None: not finished)."""
    game = get(played.game)
    standing = result.standing
    side = side_of(game.name)
    count = len(standing.totals)
    people: list[list[str]] = [[] for _ in range(count)]
    for seat, person in enumerate(played.people):
        people[side(seat)].append(person)
    if game.race:
        if not standing.over or standing.winner is None:
            return None
        figures = tuple(standing.victory)
        ranks = tuple(1 if s == standing.winner else 2 for s in range(count))
    else:
        if not result.hands:
            return None
        figures = tuple(standing.totals)
        ranks = places(figures)
    return RatedMatch(game.name, moment(played.created), tuple(tuple(p) for p in people),
                      ranks, figures)


def rated_matches(matches: Iterable[Played]) -> list[RatedMatch]:
    """``rated_match`` of each match that scores (one whose facts no longer pass the rules
    is left out, as the statistics skip it) and has finished."""
    out = []
    for played in matches:
        try:
            result = get(played.game).score(played.settings, played.hands)
        except RuleViolation:
            continue
        record = rated_match(played, result)
        if record is not None:
            out.append(record)
    return out


# -- the ratings ---------------------------------------------------------------------------

def shown(rating: PlackettLuceRating) -> float:
    return float(rating.ordinal(Z, ALPHA, TARGET))


@dataclass(frozen=True)
class Rating:
    """A person's rating in one game after every match rated."""

    person: str
    mu: float
    sigma: float
    shown: float                    # on the scale ``SHOWN``
    matches: int                    # matches rated
    provisional: bool               # fewer than ``PROVISIONAL``
    history: tuple[tuple[datetime.datetime, float], ...]   # (when, shown) after each match


@dataclass(frozen=True)
class Change:
    person: str
    before: float                   # shown before the match
    after: float                    # and after it


@dataclass(frozen=True)
class Rated:
    """One match rated: its record and each of its people's change, in the sides' order."""

    match: RatedMatch
    changes: tuple[Change, ...]


@dataclass(frozen=True)
class GameRatings:
    game: str
    players: tuple[Rating, ...]     # best first (shown, then matches, then key)
    matches: tuple[Rated, ...]      # oldest first, in the order rated


@dataclass
class _Game:
    current: dict[str, PlackettLuceRating] = field(default_factory=dict)
    history: dict[str, list[tuple[datetime.datetime, float]]] = field(default_factory=dict)
    rated: list[Rated] = field(default_factory=list)


def _playable(record: RatedMatch) -> bool:
    people = [p for side in record.sides for p in side]
    return (record.finished and len(record.sides) >= 2 and all(record.sides)
            and len(set(people)) == len(people) and len(record.ranks) == len(record.sides))


class Rater:
    """The ratings of records given a match at a time (``add``). A record as late as every
    one before it (the usual case: the match just finished) is rated on top of what is there;
    an earlier one (a match added to the circle afterwards) rates its game again from the
    start, so the answer never depends on the order the records came in, only on ``when``
    and, for one time, on the order given."""

    def __init__(self, records: Iterable[RatedMatch] = ()) -> None:
        self._records: dict[str, list[RatedMatch]] = {}
        self._games: dict[str, _Game] = {}
        for record in records:
            self.add(record)

    def add(self, record: RatedMatch) -> None:
        if not _playable(record):
            return
        mine = self._records.setdefault(record.game, [])
        if not mine or mine[-1].when <= record.when:
            mine.append(record)
            self._rate(self._games.setdefault(record.game, _Game()), record)
            return
        # after every record of its time or earlier: the order given, for one time
        mine.insert(bisect.bisect_right(mine, record.when, key=lambda r: r.when), record)
        again = self._games[record.game] = _Game()
        for each in mine:
            self._rate(again, each)

    @staticmethod
    def _rate(state: _Game, record: RatedMatch) -> None:
        teams = [[state.current.get(p) or MODEL.rating(name=p) for p in side]
                 for side in record.sides]
        after = MODEL.rate(teams, ranks=list(record.ranks))
        changes = []
        for side, before_team, after_team in zip(record.sides, teams, after):
            for person, before, new in zip(side, before_team, after_team):
                state.current[person] = new
                state.history.setdefault(person, []).append((record.when, shown(new)))
                changes.append(Change(person, shown(before), shown(new)))
        state.rated.append(Rated(record, tuple(changes)))

    def answer(self) -> dict[str, GameRatings]:
        """Per game (by name, sorted): each person's rating and each match's changes."""
        out = {}
        for game in sorted(self._games):
            state = self._games[game]
            players = [Rating(person, r.mu, r.sigma, shown(r), len(state.history[person]),
                              len(state.history[person]) < PROVISIONAL,
                              tuple(state.history[person]))
                       for person, r in state.current.items()]
            players.sort(key=lambda p: (-p.shown, -p.matches, p.person))
            out[game] = GameRatings(game, tuple(players), tuple(state.rated))
        return out


def ratings(records: Iterable[RatedMatch]) -> dict[str, GameRatings]:
    """Every game's ratings from ``records`` (see the module's text): sorted once (a stable
    sort: one time's records in the order given), then each rated on top of the last."""
    return Rater(sorted(records, key=lambda r: r.when)).answer()


def as_json(answer: dict[str, GameRatings],
            name: Callable[[str], str] = str) -> dict[str, Any]:
    """The ratings ready for JSON, each person by ``name(key)``: per game, the players best
    first and the matches oldest first with each person's change (figures rounded: mu and
    sigma to 4 places, shown numbers to 1)::

        {"scale": "1000 + 40 × (mu − 3 × sigma)", "provisional_under": 5,
         "games": {"tartli": {
            "players": [{"person": "Anna", "rating": 1137.5, "mu": 27.6354, "sigma": 8.0659,
                         "matches": 1, "provisional": true, "history": [1137.5]}, ...],
            "matches": [{"day": "2026-11-30", "sides": [["Anna"], ["Béla"]],
                         "ranks": [1, 2], "figures": [5, 0],
                         "changes": [{"person": "Anna", "before": 1000.0, "after": 1137.5},
                                     ...]}]}}}
    """
    games = {}
    for game, rated in answer.items():
        games[game] = {
            "players": [{"person": name(p.person), "rating": round(p.shown, 1),
                         "mu": round(p.mu, 4), "sigma": round(p.sigma, 4),
                         "matches": p.matches, "provisional": p.provisional,
                         "history": [round(value, 1) for _, value in p.history]}
                        for p in rated.players],
            "matches": [{"day": r.match.when.date().isoformat(),
                         "sides": [[name(p) for p in side] for side in r.match.sides],
                         "ranks": list(r.match.ranks), "figures": list(r.match.figures),
                         "changes": [{"person": name(c.person), "before": round(c.before, 1),
                                      "after": round(c.after, 1)} for c in r.changes]}
                        for r in rated.matches],
        }
    return {"scale": SHOWN, "provisional_under": PROVISIONAL, "games": games}
