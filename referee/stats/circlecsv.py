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
from typing import Any, Protocol

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


class Match(Protocol):
    """What the width of the file reads of a match (a ``Played``, a circle's kept summary)."""

    @property
    def game(self) -> str: ...

    @property
    def settings(self) -> dict[str, Any]: ...


def widest(matches: Iterable[Match]) -> int:
    """The most scoring sides a match of ``matches`` has (at least 1): the file's columns."""
    return max([1, *(len(get(m.game).sides(m.settings)) for m in matches)])


def rows(matches: Iterable[Played]) -> list[list[Any]]:
    """The header, then the hands of ``matches`` in the order given."""
    listed = list(matches)
    most = widest(listed)
    return [header(most), *(row for match in listed for row in match_rows(match, most))]


def match_rows(match: Played, widest: int) -> list[list[Any]]:
    """The rows of one match in a file of ``widest`` sides (its hands, or one row saying that
    it no longer scores)."""
    game = get(match.game)
    names = game.sides(match.settings)
    first = [match.created.isoformat(), game.title,
             match_csv.text(" – ".join(match.settings["players"]))]
    body: list[list[Any]] = []
    try:
        result = game.score(match.settings, match.hands)
    except RuleViolation as problem:
        body.append([*first, "", "", [],
                     T("Its stored hands no longer score: %(problem)s",
                       problem=problem.explain())])
    else:
        for row in match_csv.rows(match.game, match.settings, result)[1:]:
            number, dealer, *figures, summary = row
            sides = [[match_csv.text(name), *figures[2 * n:2 * n + 2]]
                     for n, name in enumerate(names)]
            body.append([*first, number, dealer, sides, summary])
    out: list[list[Any]] = []
    for *start, sides, summary in body:
        cells = [cell for side in sides for cell in side]
        out.append([*start, *cells, *[""] * (3 * widest - len(cells)), summary])
    return out


def circle_csv(matches: Iterable[Played], say: Callable[[Text], str] = str) -> str:
    """The CSV text of ``matches`` (lines end with CR LF, as RFC 4180 says), each sentence
    of the file (the headings, a match that no longer scores, a hand's summary) said by
    ``say`` (default: English, as written)."""
    return _csv(rows(matches), say)


def circle_csv_parts(matches: Iterable[Played], widest: int,
                     say: Callable[[Text], str] = str) -> Iterator[str]:
    """``circle_csv`` of ``matches`` a match at a time (its header first), for a file sent as
    it is made: ``widest`` is ``widest(matches)``, known beforehand (a circle's kept
    summaries), so that no match need be held."""
    yield _csv([header(widest)], say)
    for match in matches:
        yield _csv(match_rows(match, widest), say)


def _csv(rows: list[list[Any]], say: Callable[[Text], str]) -> str:
    buffer = io.StringIO()
    csv.writer(buffer).writerows(
        [match_csv.text(say(cell)) if isinstance(cell, Text) else cell for cell in row]
        for row in rows)
    return buffer.getvalue()
