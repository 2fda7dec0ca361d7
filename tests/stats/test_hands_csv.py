"""The hands as CSV (referee/stats/csv.py), read back through Python's csv module."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from referee.engine.games import get
from referee.engine.matchfile import load
from referee.stats.csv import hands_csv, match_csv

DATA = Path(__file__).resolve().parent.parent / "data"
FILES = ["tartli-short", "tartli-complete", "stovkahra-series", "marjolet-game",
         "troggu-evening"]


def read(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline="")))


@pytest.mark.parametrize("name", FILES)
def test_a_match_file_round_trips_and_its_totals_end_at_the_standing(name: str) -> None:
    m = load((DATA / f"{name}.json").read_bytes())
    game = get(m.game)
    result = game.score(m.settings, m.hands)
    rows = read(match_csv(m))
    assert len(rows) == 1 + len(result.hands)
    for row, outcome in zip(rows[1:], result.hands):
        numbers = [int(cell) for cell in row[2:-1]]
        assert int(row[0]) == outcome.number
        assert row[1] == m.settings["players"][outcome.dealer]
        assert tuple(numbers[0::2]) == outcome.scores
        assert tuple(numbers[1::2]) == outcome.totals_after
        assert row[-1] == outcome.summary
    last = tuple(int(cell) for cell in rows[-1][3:-1:2])
    if result.hands[-1].reset:          # a game won: the totals start again from 0
        assert result.standing.totals == (0,) * len(last)
    else:
        assert result.standing.totals == last


def test_the_columns_name_the_hand_the_dealer_and_each_side() -> None:
    m = load((DATA / "stovkahra-series.json").read_bytes())
    header = read(match_csv(m))[0]
    assert header == ["Deal", "Dealer", "Jana & Eva score", "Jana & Eva total",
                      "Petr & Karel score", "Petr & Karel total", "Summary"]
    first = read(match_csv(m))[1]
    assert first == ["1", "Karel", "90", "90", "44", "44", "Jana & Eva 90, Petr & Karel 44"]


def test_tartli_rows_as_the_scoresheet_shows_them() -> None:
    m = load((DATA / "tartli-short.json").read_bytes())
    assert read(match_csv(m)) == [
        ["Hand", "Dealer", "Ágnes score", "Ágnes total", "Tamás score", "Tamás total",
         "Summary"],
        ["1", "Ágnes", "253", "253", "148", "148", "no one reached 501"],
        ["2", "Tamás", "271", "524", "0", "148", "Ágnes wins 2 buli (maccs)"],
        ["3", "Ágnes", "230", "230", "221", "221", "no one reached 501"],
        ["4", "Tamás", "14", "244", "270", "491", "Ágnes wins 1 buli"],
    ]


def test_a_hand_in_progress_has_no_row_yet() -> None:
    m = load((DATA / "tartli-short.json").read_bytes())
    more = [*m.hands, {"indicator": "8h", "exchange": None, "tricks": [], "bela": None,
                       "end": None}]
    result = get("tartli").score(m.settings, more)
    assert result.draft is not None
    assert len(read(hands_csv("tartli", m.settings, result))) == 1 + 4


def test_names_a_spreadsheet_would_run_as_formulas_are_written_as_text() -> None:
    settings = get("tartli").settings({"players": ["=HYPERLINK(1)", "@Tamás"], "target": 5,
                                      "first_dealer": 0})
    m = load((DATA / "tartli-short.json").read_bytes())
    rows = read(hands_csv("tartli", settings, get("tartli").score(settings, m.hands)))
    assert rows[0][2:6] == ["'=HYPERLINK(1) score", "'=HYPERLINK(1) total", "'@Tamás score",
                            "'@Tamás total"]
    assert rows[1][1] == "'=HYPERLINK(1)"
    assert rows[2][-1] == "'=HYPERLINK(1) wins 2 buli (maccs)"
    assert rows[1][2] == "253"                           # numbers stay numbers
