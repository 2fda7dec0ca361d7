"""A circle's ratings in words and charts (the statistics page, the evening's PDF, the circle
file): ``referee.stats.ratings`` of the circle's matches, from the folds the page already made.

``circle_ratings(circle, matches, results)`` takes the circle's matches (newest first, as
``circles().matches`` gives them) and their results (None: no longer scores, left out), so that
whoever keeps the folds (today each page, later a cache per circle version) hands them over.
The matches of one time (a circle file keeps only the day) are rated in the order they joined
the circle, as the evenings are."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from typing import Any

from flask_babel import gettext

from ...charts import Rule, Series, line_chart
from ...engine.games import GAMES
from ...engine.games.base import Game, MatchResult
from ...numbers import number, signed
from ...stats import Played
from ...stats.ratings import START, GameRatings, Rated, RatedMatch, as_json, rated_match
from ...stats.ratings import ratings as rate
from ..readable import readable_json
from ..store import Circle, CircleMatch

LINES_SHOWN = 20            # the latest matches in words; then how many more


@dataclass(frozen=True)
class Leader:
    name: str
    rating: str              # the shown number, whole
    matches: int
    provisional: bool


@dataclass(frozen=True)
class RatingSection:
    game: Game
    leaders: list[Leader]
    svg: str
    title: str               # the chart's name, for its summary
    lines: list[str]         # the latest matches in words, latest first
    more: int                # matches rated beyond those lines


def records(matches: Iterable[CircleMatch],
            results: dict[str, MatchResult | None]) -> list[RatedMatch]:
    """The rated record of each finished match that scores, oldest first (``matches``:
    newest first, as the circle's page lists them)."""
    out = []
    for m in reversed(list(matches)):
        result = results.get(m.id)
        if result is None or m.game not in GAMES:
            continue
        played = Played(m.game, m.created, readable_json(m.settings), m.hands,
                        tuple(str(p) for p in m.people))
        found = rated_match(played, result)
        if found is not None:
            out.append(found)
    return out


def whole(value: float) -> int:
    return round(value)


def _change(before: float, after: float) -> str:
    return signed(whole(after) - whole(before))


def match_line(game: Game, rated: Rated, names: dict[str, str]) -> str:
    """One rated match in a sentence: "Anna +42 after beating Béla 5–2; Béla −38"."""
    record = rated.match
    change = {c.person: _change(c.before, c.after) for c in rated.changes}

    def name(key: str) -> str:
        return names.get(key, "?")

    def changes(people: Iterable[str]) -> str:
        return ", ".join(gettext("%(name)s %(change)s", name=name(p), change=change[p])
                         for p in people)

    day = record.when.date().isoformat()
    if game.race and len(record.sides) == 2 and sorted(record.ranks) == [1, 2]:
        won, lost = (0, 1) if record.ranks[0] == 1 else (1, 0)
        return gettext("%(day)s: %(winners)s after beating %(losers)s %(score)s; %(changes)s",
                       day=day, winners=changes(record.sides[won]),
                       losers=" & ".join(name(p) for p in record.sides[lost]),
                       score=f"{number(record.figures[won])}–{number(record.figures[lost])}",
                       changes=changes(record.sides[lost]))
    order = sorted(range(len(record.sides)), key=lambda s: record.ranks[s])
    ranking = "; ".join(
        gettext("%(name)s %(balance)s Rappen, rating %(change)s", name=name(person),
                balance=signed(record.figures[side]), change=change[person])
        if not game.race else changes([person])
        for side in order for person in record.sides[side])
    return gettext("%(day)s, ranked by balance: %(ranking)s", day=day, ranking=ranking)


def _chart(game: Game, rated: GameRatings, names: dict[str, str]) -> tuple[str, str]:
    """Each person's rating day by day, from 1000 the day before the person's first match."""
    days = sorted({r.match.when.date() for r in rated.matches})
    index = {day: n for n, day in enumerate(days, start=1)}
    series = []
    for player in sorted(rated.players, key=lambda p: names.get(p.person, "?").casefold()):
        by_day: dict[date, float] = {}
        for when, value in player.history:
            by_day[when.date()] = value                 # the last of each day
        start = index[min(by_day)]
        points = [(float(start - 1), START)]
        points += [(float(index[day]), value) for day, value in sorted(by_day.items())]
        series.append(Series(names.get(player.person, "?"), tuple(points),
                             note=number(whole(player.shown))))
    first, last = days[0].isoformat(), days[-1].isoformat()
    span = first if len(days) == 1 else gettext("%(first)s to %(last)s", first=first,
                                                 last=last)
    values = ", ".join(f"{s.label} {s.note}" for s in series)
    title = gettext("%(game)s: the rating of each player after each day, %(days)s: %(values)s",
                    game=game.title, days=span, values=values)
    ticks = [(1.0, first)]
    if len(days) > 1:
        ticks.append((float(len(days)), last))
    right = max(len(days) + 0.5, len(days) * 1.25)
    svg = line_chart(series, title=title, x_range=(0, right), x_ticks=ticks, zero=False,
                     rules=(Rule(START, "", "zero"),))
    return svg, gettext("%(game)s: ratings, day by day", game=game.title)


def circle_ratings(circle: Circle, matches: list[CircleMatch],
                   results: dict[str, MatchResult | None]) -> list[RatingSection]:
    """The circle's ratings, a section per game (in the order of ``GAMES``)."""
    names = {str(p.id): p.name for p in circle.players}
    answer = rate(records(matches, results))
    out = []
    for game_name, game in GAMES.items():
        rated = answer.get(game_name)
        if rated is None:
            continue
        leaders = [Leader(names.get(p.person, "?"), number(whole(p.shown)), p.matches,
                          p.provisional) for p in rated.players]
        svg, title = _chart(game, rated, names)
        latest = list(reversed(rated.matches))
        out.append(RatingSection(game, leaders, svg, title,
                                 [match_line(game, r, names) for r in latest[:LINES_SHOWN]],
                                 max(0, len(latest) - LINES_SHOWN)))
    return out


@dataclass(frozen=True)
class EveningRating:
    name: str
    rating: str              # the shown number after the evening, whole
    change: str              # over the evening, signed
    matches: int             # matches rated until the evening's end
    provisional: bool


def evening_ratings(circle: Circle, matches: list[CircleMatch],
                    results: dict[str, MatchResult | None], game: str,
                    day: date) -> list[EveningRating]:
    """The ratings in ``game`` of the people who played a rated match on ``day``, after that
    day's matches (later days' not counted), best first, with their change over the day."""
    names = {str(p.id): p.name for p in circle.players}
    rated = rate([r for r in records(matches, results)
                  if r.game == game and r.when.date() <= day]).get(game)
    if rated is None:
        return []
    tonight = {c.person for r in rated.matches if r.match.when.date() == day
               for c in r.changes}
    out = []
    for p in rated.players:
        if p.person in tonight:
            before = next((value for when, value in reversed(p.history) if when.date() < day),
                          START)
            out.append(EveningRating(names.get(p.person, "?"), number(whole(p.shown)),
                                     _change(before, p.shown), p.matches, p.provisional))
    return out


def ratings_file(circle: Circle, matches: list[CircleMatch],
                 results: dict[str, MatchResult | None]) -> dict[str, Any]:
    """The ratings as the circle file writes them (``ratings.as_json``, people by name)."""
    names = {str(p.id): p.name for p in circle.players}
    return as_json(rate(records(matches, results)), lambda key: names.get(key, "?"))
