"""Statistics of played matches, always folded from their stored facts (never stored numbers).

Pure Python over the engine: no Flask, no database. The command line
(``python -m referee stats MATCH.json…``) and a circle's page call the one function::

    statistics(matches: Iterable[Played], *, since: date | None = None,
               until: date | None = None) -> dict[str, Any]

``Played`` (``referee.stats.played``) is one match: its game, the day it was created, its
canonical settings and hands, and ``people``, a key per seat in ``settings["players"]`` order
(the command line passes the names as written, a circle its player ids). The same key in two
matches is the same person. ``since`` and ``until`` keep only the matches created on those days
or between them (both included).

Every match is scored by folding the engine over its facts (``Game.score``, every rule checked:
facts that no longer pass are listed under ``skipped``, never counted), so a corrected hand
changes the statistics at once. The folds do not go through the cache of
``referee.engine.scoring``: a circle's matches often share their settings, and would push the
live matches' folds out of it. Only finished hands count (a hand in progress
has no score yet); a match in progress counts as played, not won.

The statistics of many matches are the sum of each match's part (``contribution``: its one
fold, counted): ``statistics`` sums them as it goes; a circle's page keeps every match's part
and their running ``Sums`` (``referee.stats.sums``), takes out the part of a match that
changed and adds its new one, and gives the same answer (``answer``) without folding the
others again.

The answer, ready for JSON (every key below is always present; figures are whole numbers
unless said)::

    {
      "matches": 12,                         # matches counted (after the date filter)
      "since": "2026-11-01" | null, "until": "2026-11-30" | null,
      "players": {
        "<key>": {
          "matches": n,                      # matches played, finished or not
          "won": n,                          # matches won (a team's win is each partner's)
          "win_rate": 0.5 | null,            # won / matches of games that have a winner
                                             # (null: only Troggu, which has none, 7.5.2)
          "hands": n,                        # finished hands played
          "points": n,                       # the sum of his (his team's) hand scores
          "average_hand_score": 61.5 | null, # points / hands (null: no hand)
          "games": {                         # the same figures per game, and the game's own:
            "tartli": {..., "sets": n, "sequences": n, "contests_won": n, "belas": n,
                       "claims_right": n, "claims_wrong": n, "buli": n, "maccs": n},
            "stovkahra": {..., "combinations": n, "combination_points": n, "sevens": n,
                          "dosts_right": n, "dosts_wrong": n, "games_won": n,
                          "matchsticks": n},
            "marjolet": {..., "melds": {"four_aces": n, "four_tens": n, "four_kings": n,
                                        "four_queens": n, "four_jacks": n,
                                        "trump_marriage": n, "plain_marriage": n,
                                        "trump_marjolet": n, "plain_marjolet": n},
                         "trump_sevens": {"turned_up": n, "exchanged": n, "played": n},
                         "sweeps": n},
            "troggu": {..., "played": {"normal": n, "solo": n, "forced": n, "misere": n,
                                       "thrown_in": n},
                       "declared": {"normal": n, "solo": n, "forced": n},
                       "won_as_declarer": {"normal": n, "solo": n, "forced": n},
                       "evenings": {"2026-11-30": balance, ...},
                       "rappen": {"won": n, "lost": n, "balance": n}}
          }
        }
      },
      "games": {
        "<game>": {"matches": n, "finished": n, "hands": n, ...the game's own totals}
          # tartli: buli, maccs, claims_right, claims_wrong, deciders
          # stovkahra: combinations, sevens, dosts_right, dosts_wrong, games, matchsticks,
          #            teams: {"<team name>": {"sevens", "games_won", "matchsticks"}}
          # marjolet: melds, sweeps;  troggu: by_kind {"normal": n, ...}, evenings (days)
      },
      "head_to_head": [                      # two-player games, one entry per pair and game
        {"game": "tartli", "players": ["<a>", "<b>"], "matches": n, "won": [n, n],
         "hands": n, "points": [n, n]}
      ],
      "partners": [                          # team games, one entry per pair of partners
        {"game": "stovkahra", "players": ["<a>", "<b>"], "matches": n, "won": n,
         "games_won": n, "matchsticks": n, "hands": n, "points": n}
      ],
      "skipped": [                           # matches whose facts no longer score
        {"game": "tartli", "created": "2026-11-30", "people": [...], "problem": "..."}
      ]
    }

Hand scores are in each game's own unit (card points; Rappen in Troggu): ``points`` and
``average_hand_score`` at the top of a player mix them when he plays several games; the
per-game figures do not. Keys are sorted (players by key, pairs by game then players), so a
page can show them as they come. Each game's own figures are counted in
``referee.stats.<game>``, which says where each is found in the facts.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from ..engine import scoring
from ..engine.errors import RuleViolation
from ..engine.games import get
from ..engine.games.base import Game, MatchResult
from . import marjolet, stovkahra, tartli, troggu
from .played import Figures, Played
from .sums import Sums
from .tally import Tally, add, ratio

__all__ = ["Contribution", "Played", "Sums", "answer", "contribution", "statistics",
           "within"]

WINNABLE = "_winnable"       # internal: matches of games that have a winner


def _own(seat: int) -> int:
    return seat


@dataclass(frozen=True)
class GameFigures:
    """What the statistics know of one game beyond the generic figures."""

    figures: Callable[[Played, MatchResult], Figures]
    side: Callable[[int], int] = _own           # the scoring side of a seat
    finish_player: Callable[[Tally], None] | None = None
    finish_table: Callable[[Tally], None] | None = None


FIGURES: dict[str, GameFigures] = {
    "tartli": GameFigures(tartli.figures),
    "stovkahra": GameFigures(stovkahra.figures, stovkahra.side),
    "marjolet": GameFigures(marjolet.figures),
    "troggu": GameFigures(troggu.figures, finish_player=troggu.finish_player,
                          finish_table=troggu.finish_table),
}


def _nothing(match: Played, result: MatchResult) -> Figures:
    return [{} for _ in match.settings["players"]], {}


GENERIC = GameFigures(_nothing)


def _day(value: datetime.date) -> datetime.date:
    return value.date() if isinstance(value, datetime.datetime) else value


@dataclass
class _Totals:
    players: dict[str, Tally]
    games: dict[str, Tally]
    pairs: dict[tuple[str, str, str], Tally]
    partners: dict[tuple[str, ...], Tally]


@dataclass(frozen=True)
class Contribution:
    """One match's part of the statistics, folded once (issue 24): the statistics of many
    matches are the sum of their parts (``total``, then ``answer``), so a circle keeps its
    parts and the running ``Sums``, and a changed match changes them by its own difference.

    ``counted``: the match's tallies (``{"matches": 1, "players": …, "games": …, "pairs": …,
    "partners": …}``, keyed as the answer is before its rates and sorting), or None when its
    facts no longer score; then ``skipped`` is its line under ``skipped``."""

    created: datetime.date
    counted: dict[str, Any] | None
    skipped: dict[str, Any] | None = None


def contribution(match: Played, result: MatchResult | None = None) -> Contribution:
    """The part of ``match`` in the statistics: its fold, every rule checked (``result``:
    that fold, when the caller made it already)."""
    created = _day(match.created)
    if len(match.people) != len(match.settings.get("players", ())):
        raise ValueError("Played.people needs one key per player of the match")
    try:
        game = get(match.game)
        if result is None:
            result = game.score(match.settings, match.hands)
    except RuleViolation as problem:
        return Contribution(created, None, {
            "game": match.game, "created": created.isoformat(),
            "people": list(match.people), "problem": problem.explain(),
        })
    totals = _Totals({}, {}, {}, {})
    _count(totals, match, game, result)
    return Contribution(created, {
        "matches": 1, "players": totals.players, "games": totals.games,
        "pairs": totals.pairs, "partners": totals.partners,
    })


def within(day: datetime.date, since: datetime.date | None,
           until: datetime.date | None) -> bool:
    """Whether ``day`` is from ``since`` to ``until`` (both included; None: no bound)."""
    return (since is None or day >= since) and (until is None or day <= until)


def statistics(
    matches: Iterable[Played], *, since: datetime.date | None = None,
    until: datetime.date | None = None,
) -> dict[str, Any]:
    """The statistics of ``matches`` created from ``since`` to ``until`` (both included):
    see the module's text for the answer's shape. Each match is folded, counted and let go
    (the sum of their ``contribution``)."""
    sums = Sums()
    skipped: list[dict[str, Any]] = []
    with scoring.gc_paused():
        for match in matches:
            if not within(_day(match.created), since, until):
                continue
            part = contribution(match)
            if part.counted is not None:
                sums.add(part.counted)
            elif part.skipped is not None:
                skipped.append(part.skipped)
        return answer(sums, skipped, since, until)


def answer(sums: Sums, skipped: list[dict[str, Any]], since: datetime.date | None = None,
           until: datetime.date | None = None) -> dict[str, Any]:
    """The statistics (the module's shape) of the parts summed in ``sums`` (each part's
    ``counted``), with ``skipped``, the lines of the matches that no longer score, in order."""
    total = sums.tally()
    players, games = total.get("players", {}), total.get("games", {})
    pairs, partners = total.get("pairs", {}), total.get("partners", {})
    return {
        "matches": total.get("matches", 0),
        "since": None if since is None else since.isoformat(),
        "until": None if until is None else until.isoformat(),
        "players": {key: _player(players[key]) for key in sorted(players)},
        "games": {name: _table(name, games[name]) for name in sorted(games)},
        "head_to_head": [_pair(key, pairs[key]) for key in sorted(pairs)],
        "partners": [_partners(key, partners[key]) for key in sorted(partners)],
        "skipped": list(skipped),
    }


@dataclass(frozen=True)
class _Sides:
    """One match's result by scoring side: who sits on it, its points, whether it won."""

    of_seat: list[int]
    points: list[int]
    won: list[bool]
    hands: int


def _sides(match: Played, game: Game, own: GameFigures, result: MatchResult) -> _Sides:
    count = len(game.sides(match.settings))
    points = [0] * count
    for outcome in result.hands:
        for side, score in enumerate(outcome.scores):
            points[side] += score
    standing = result.standing
    return _Sides(
        [own.side(seat) for seat in range(len(match.people))], points,
        [standing.over and standing.winner == side for side in range(count)],
        len(result.hands),
    )


def _count(totals: _Totals, match: Played, game: Game, result: MatchResult) -> None:
    own = FIGURES.get(game.name, GENERIC)
    per_seat, table = own.figures(match, result)
    sides = _sides(match, game, own, result)
    for seat, person in enumerate(match.people):
        side = sides.of_seat[seat]
        generic: Tally = {
            "matches": 1, "won": int(sides.won[side]), WINNABLE: int(game.race),
            "hands": sides.hands, "points": sides.points[side],
        }
        player = totals.players.setdefault(person, {"games": {}})
        add(player, generic)
        by_game = player["games"]
        assert isinstance(by_game, dict)
        mine = by_game.setdefault(game.name, {})
        assert isinstance(mine, dict)
        add(mine, {**generic, **per_seat[seat]})
    add(totals.games.setdefault(game.name, {}), {
        "matches": 1, "finished": int(result.standing.over), "hands": sides.hands, **table,
    })
    if len(match.people) == 2 and len(sides.points) == 2:
        _head_to_head(totals, match, game, sides)
    elif len(sides.points) < len(match.people):
        _partners_of(totals, match, game, sides, result)


def _head_to_head(totals: _Totals, match: Played, game: Game, sides: _Sides) -> None:
    """Two players, each his own side: their pair, in the order of their keys."""
    if match.people[0] == match.people[1]:
        return
    order = sorted((0, 1), key=lambda seat: match.people[seat])
    key = (game.name, match.people[order[0]], match.people[order[1]])
    add(totals.pairs.setdefault(key, {}), {
        "matches": 1, "hands": sides.hands,
        "won": {str(n): int(sides.won[sides.of_seat[seat]]) for n, seat in enumerate(order)},
        "points": {str(n): sides.points[sides.of_seat[seat]] for n, seat in enumerate(order)},
    })


def _partners_of(
    totals: _Totals, match: Played, game: Game, sides: _Sides, result: MatchResult
) -> None:
    """Teams: each team's partners, with the games and the victory units (matchsticks) that
    the team won."""
    for side, points in enumerate(sides.points):
        team = sorted(person for seat, person in enumerate(match.people)
                      if sides.of_seat[seat] == side)
        if len(team) < 2 or len(set(team)) < len(team):
            continue
        awards = [o.award.amount for o in result.hands
                  if o.award is not None and o.award.winner == side]
        add(totals.partners.setdefault((game.name, *team), {}), {
            "matches": 1, "won": int(sides.won[side]), "games_won": len(awards),
            game.victory_unit: sum(awards), "hands": sides.hands, "points": points,
        })


def _rates(tally: Tally) -> dict[str, Any]:
    """The generic figures of a tally with its rates, in the documented order."""
    winnable = tally.pop(WINNABLE, 0)
    assert isinstance(winnable, int)
    out: dict[str, Any] = {key: tally.get(key, 0) for key in ("matches", "won")}
    out["win_rate"] = ratio(out["won"], winnable)
    out["hands"] = tally.get("hands", 0)
    out["points"] = tally.get("points", 0)
    out["average_hand_score"] = ratio(out["points"], out["hands"])
    return out


def _player(tally: Tally) -> dict[str, Any]:
    games = tally.pop("games")
    assert isinstance(games, dict)
    out = _rates(tally)
    out["games"] = {}
    for name in sorted(games):
        figures = games[name]
        assert isinstance(figures, dict)
        finish = FIGURES.get(name, GENERIC).finish_player
        if finish is not None:
            finish(figures)
        rates = _rates(figures)
        out["games"][name] = {**rates, **{k: v for k, v in figures.items() if k not in rates}}
    return out


def _table(name: str, tally: Tally) -> dict[str, Any]:
    finish = FIGURES.get(name, GENERIC).finish_table
    if finish is not None:
        finish(tally)
    return dict(tally)


def _pair(key: tuple[str, str, str], tally: Tally) -> dict[str, Any]:
    won, points = tally["won"], tally["points"]
    assert isinstance(won, dict) and isinstance(points, dict)
    return {
        "game": key[0], "players": [key[1], key[2]], "matches": tally["matches"],
        "won": [won["0"], won["1"]], "hands": tally["hands"],
        "points": [points["0"], points["1"]],
    }


def _partners(key: tuple[str, ...], tally: Tally) -> dict[str, Any]:
    return {"game": key[0], "players": list(key[1:]), **tally}
