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
from collections.abc import Iterable
from typing import Any

from ..engine.errors import RuleViolation
from ..engine.games import get
from . import csv as match_csv
from .played import Played

NO_SCORE = "Its stored hands no longer score: {problem}"


def header(sides: int) -> list[str]:
    row = ["Date", "Game", "Players", "Hand", "Dealer"]
    for n in range(1, sides + 1):
        row += [f"Side {n}", f"Side {n} score", f"Side {n} total"]
    return [*row, "Summary"]


def rows(matches: Iterable[Played]) -> list[list[Any]]:
    """The header, then the hands of ``matches`` in the order given."""
    body: list[list[Any]] = []
    widest = 1
    for match in matches:
        game = get(match.game)
        names = game.sides(match.settings)
        widest = max(widest, len(names))
        first = [match.created.isoformat(), game.title,
                 match_csv.text(" – ".join(match.settings["players"]))]
        try:
            result = game.score(match.settings, match.hands)
        except RuleViolation as problem:
            body.append([*first, "", "", [],
                         match_csv.text(NO_SCORE.format(problem=problem.explain()))])
            continue
        for row in match_csv.rows(match.game, match.settings, result)[1:]:
            number, dealer, *figures, summary = row
            sides = [[match_csv.text(name), *figures[2 * n:2 * n + 2]]
                     for n, name in enumerate(names)]
            body.append([*first, number, dealer, sides, summary])
    out: list[list[Any]] = [header(widest)]
    for *start, sides, summary in body:
        cells = [cell for side in sides for cell in side]
        out.append([*start, *cells, *[""] * (3 * widest - len(cells)), summary])
    return out


def circle_csv(matches: Iterable[Played]) -> str:
    """The CSV text of ``matches`` (lines end with CR LF, as RFC 4180 says)."""
    buffer = io.StringIO()
    csv.writer(buffer).writerows(rows(matches))
    return buffer.getvalue()
