"""A match's hands as CSV: one row per finished hand, for a spreadsheet.

Columns: the hand's number (``Hand``, or ``Deal`` in the games that say deal), its dealer (by
name), then for each scoring side (player, or team in Stovkahra) its hand score and its running
total after the hand, as the scoreboard shows them (Troggu: the Rappen paid or received and the
balance), and the hand's summary in plain words. A hand still in progress has no row yet.

A running total is the total after the hand, before any reset the hand causes: a hand that wins
a game (a buli, a matchstick award) shows the total that won it, and the next hand counts from
0 again. Text that a spreadsheet would read as a formula (a name or summary starting with
``=``, ``+``, ``-`` or ``@``) is written with a leading apostrophe, so opening the file runs
nothing.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from typing import Any

from ..engine import scoring
from ..engine.games import get
from ..engine.games.base import MatchResult
from ..engine.matchfile import MatchFile
from ..engine.words import T, Text

FORMULA = ("=", "+", "-", "@", "\t", "\r")


def text(value: str) -> str:
    """A text cell that no spreadsheet runs as a formula."""
    return f"'{value}" if value.startswith(FORMULA) else value


def header(game_name: str, settings: dict[str, Any]) -> list[str]:
    """The headings as engine sentences (``Text``: English as written; the caller may say
    them in a language)."""
    game = get(game_name)
    row = [T("Deal") if game.hand_word == "deal" else T("Hand"), T("Dealer")]
    for side in game.sides(settings):
        row += [T("%(side)s score", side=text(side)), T("%(side)s total", side=text(side))]
    return [*row, T("Summary")]


def rows(game_name: str, settings: dict[str, Any], result: MatchResult) -> list[list[Any]]:
    """The header, then one row per finished hand of ``result``."""
    players = settings["players"]
    out: list[list[Any]] = [header(game_name, settings)]
    for outcome in result.hands:
        row: list[Any] = [outcome.number, text(players[outcome.dealer])]
        for score, total in zip(outcome.scores, outcome.totals_after):
            row += [score, total]
        out.append([*row, text(outcome.summary)])
    return out


def hands_csv(game_name: str, settings: dict[str, Any], result: MatchResult,
              say: Callable[[Any], Any] = str) -> str:
    """The CSV text (lines end with CR LF, as RFC 4180 says); ``say`` writes its headings
    and summaries (engine sentences) in a language (``str``: English)."""
    buffer = io.StringIO()
    csv.writer(buffer).writerows([[say(cell) if isinstance(cell, Text) else cell
                                   for cell in row] for row in rows(game_name, settings, result)])
    return buffer.getvalue()


def match_csv(m: MatchFile, say: Callable[[Any], Any] = str) -> str:
    """The CSV of a match file read by ``matchfile.load`` (its facts already checked)."""
    result = scoring.score(m.game, m.settings, m.hands, trusted=True)
    return hands_csv(m.game, m.settings, result, say)
