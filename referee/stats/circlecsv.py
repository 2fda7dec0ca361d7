"""The hands of many matches (a circle's) as one CSV file, for a spreadsheet.

One header, then one row per finished hand, oldest match first: the match's day, its game and
its players (as the match names them), then the hand's row as ``referee.stats.csv`` writes it
for one match (its number, dealer, each side's score and running total), every side as three
cells (its name, its hand score, its running total) so that matches of two, three or four
sides line up, and the summary last. A match whose stored facts no longer score has one row
that says so, in place of its hands."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from ..engine.errors import RuleViolation
from ..engine.games import get
from ..engine.words import T, Text
from . import csv as match_csv
from .played import Played


def header(sides: int) -> list[str]:
    """The headings as engine sentences (``Text``), as ``circle_csv`` says them."""
    row = [T("Date"), T("Game"), T("Players"), T("Hand"), T("Dealer")]
    for n in range(1, sides + 1):
        row += [T("Side %(number)s", number=n), T("Side %(number)s score", number=n),
                T("Side %(number)s total", number=n)]
    return [*row, T("Summary")]


def _match_rows(match: Played) -> tuple[int, list[list[Any]]]:
    """How many sides the match has, and its rows: (its day, game, players, a hand's number,
    dealer, each side's three cells as a list, the summary)."""
    game = get(match.game)
    names = game.sides(match.settings)
    first = [match.created.isoformat(), game.title,
             match_csv.text(" – ".join(match.settings["players"]))]
    try:
        result = game.score(match.settings, match.hands)
    except RuleViolation as problem:
        return len(names), [[*first, "", "", [],
                             T("Its stored hands no longer score: %(problem)s",
                               problem=problem.explain())]]
    body = []
    for row in match_csv.rows(match.game, match.settings, result)[1:]:
        number, dealer, *figures, summary = row
        sides = [[match_csv.text(name), *figures[2 * n:2 * n + 2]]
                 for n, name in enumerate(names)]
        body.append([*first, number, dealer, sides, summary])
    return len(names), body


def _laid(row: list[Any], widest: int) -> list[Any]:
    """A row with its sides' cells laid out for ``widest`` sides."""
    *start, sides, summary = row
    cells = [cell for side in sides for cell in side]
    return [*start, *cells, *[""] * (3 * widest - len(cells)), summary]


def rows(matches: Iterable[Played]) -> list[list[Any]]:
    """The header, then the hands of ``matches`` in the order given."""
    body: list[list[Any]] = []
    widest = 1
    for match in matches:
        sides, found = _match_rows(match)
        widest = max(widest, sides)
        body.extend(found)
    return [header(widest), *(_laid(row, widest) for row in body)]


def widest(games: Iterable[tuple[str, dict[str, Any]]]) -> int:
    """The most sides of the matches of these (game, settings): the header's width."""
    return max([1, *(len(get(game).sides(settings)) for game, settings in games)])


def _text(lines: Iterable[list[Any]], say: Callable[[Text], str]) -> str:
    buffer = io.StringIO()
    csv.writer(buffer).writerows(
        [match_csv.text(say(cell)) if isinstance(cell, Text) else cell for cell in row]
        for row in lines)
    return buffer.getvalue()


def circle_csv(matches: Iterable[Played], say: Callable[[Text], str] = str) -> str:
    """The CSV text of ``matches`` (lines end with CR LF, as RFC 4180 says), each sentence
    of the file (the headings, a match that no longer scores, a hand's summary) said by
    ``say`` (default: English, as written)."""
    return _text(rows(matches), say)


def pieces(matches: Iterable[Played], sides: int, say: Callable[[Text], str] = str,
           ) -> Iterator[str]:
    """``circle_csv``'s text piece by piece (the header, then one match at a time, as
    ``matches`` gives them), when the most sides of a match, ``sides``, is known ahead
    (``widest``): a circle's file in the memory of one match."""
    yield _text([header(sides)], say)
    for match in matches:
        yield _text([_laid(row, sides) for row in _match_rows(match)[1]], say)
