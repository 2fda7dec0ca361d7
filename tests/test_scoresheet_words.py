"""Every word of the scoresheet and its chart goes through the catalogues (issue 22): under a
catalogue that upper-cases each message (its placeholders kept), each game's sheet, with every
hand's explanation, and its chart have no lower-case English word of the app's own left,
outside the players' and teams' names; and a Swiss German sheet writes its francs with the
Swiss group separator."""

from __future__ import annotations

import dataclasses
import io
import json
import re
from pathlib import Path

import pytest

from referee.catalogues import catalogue
from referee.charts import PAPER, running_totals
from referee.engine import matchfile, scoring
from referee.engine.errors import RuleViolation
from referee.engine.games import get
from referee.engine.words import say
from referee.scoresheet import in_language, render_html
from tests.shouting import Upper

DATA = Path(__file__).resolve().parent / "data"
# proper names the sheet shows as they are: the app's, the games', the currency's
NAMES = {"Referee", "Tartli", "Troggu", "Stovkahra", "Marjolet", "CHF"}




def matches() -> list[matchfile.MatchFile]:
    """The test data's matches that score (one is a refused hand on purpose)."""
    found = []
    for path in sorted(DATA.glob("*.json")):
        try:
            m = matchfile.load(path.read_bytes())
        except RuleViolation:
            continue
        found.append(m)
    return found


def english_words(text: str, m: matchfile.MatchFile) -> list[str]:
    """The lower-case words of ``text`` (HTML: its tags and entities out), outside the
    match's names."""
    body = re.sub(r"<style\b.*?</style>", " ", text, flags=re.S)
    body = re.sub(r"<[^>]+>", " ", body)
    body = re.sub(r"&[a-z]+;|&#\d+;", " ", body)
    names = " ".join([*m.settings["players"], *m.settings.get("teams", [])])
    own = NAMES | set(re.findall(r"[^\W\d_]+", names))
    return [w for w in re.findall(r"[^\W\d_]+", body) if w not in own and w != w.upper()]


@pytest.mark.parametrize("m", matches(), ids=lambda m: f"{m.game}-{len(m.hands)}")
@pytest.mark.parametrize("explained", [False, True])
def test_every_word_of_a_sheet_goes_through_the_catalogue(m: matchfile.MatchFile,
                                                          explained: bool) -> None:
    with in_language("hu", Upper()):
        html = render_html(m, explained=explained)
    sheet = re.sub(r"<svg\b.*?</svg>", " ", html, flags=re.S)          # the chart: below
    assert english_words(sheet, m) == []


@pytest.mark.parametrize("m", matches(), ids=lambda m: f"{m.game}-{len(m.hands)}")
def test_every_word_of_a_chart_goes_through_the_catalogue(m: matchfile.MatchFile) -> None:
    game = get(m.game)
    result = scoring.score(m.game, m.settings, m.hands)
    shouted = Upper()
    svg = running_totals(game, m.settings, result, layout=PAPER, standalone=True,
                         say=lambda text: say(text, shouted))
    with in_language("hu", shouted):
        sheet = render_html(m)
    for chart in (svg, re.search(r"<svg\b.*?</svg>", sheet, flags=re.S).group()):  # type: ignore[union-attr]
        words = re.sub(r"<style>.*?</style>", " ", chart, flags=re.S)
        titles = " ".join(re.findall(r'(?:aria-label|data-label)="([^"]*)"', words))
        assert english_words(f"{words} {titles}", m) == []


def test_a_swiss_german_sheet_writes_large_amounts_with_the_swiss_separator() -> None:
    """The largest stake (rule 8: 100,000 Rappen) and the evening's settle-up, in francs with
    the Swiss apostrophe (a stake of 1,234,567 Rappen is refused: no sheet shows one)."""
    pytest.importorskip("weasyprint")
    from pypdf import PdfReader

    from referee.numbers import format_chf
    from referee.scoresheet import render_pdf
    from referee.scoresheet.troggu import settle

    raw = json.loads((DATA / "troggu-evening.json").read_text(encoding="utf-8"))
    raw["settings"]["stake"] = 100_000
    m = dataclasses.replace(matchfile.load(raw), language="de_CH")
    with in_language("de_CH", catalogue("de_CH")):
        pdf = render_pdf(m)
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    assert format_chf(100_000, "de_CH") == "CHF\u00a01'000.00"
    assert format_chf(100_000, "de_CH") in text                       # the stake
    balances = scoring.score(m.game, m.settings, m.hands).standing.totals
    payments = settle(list(m.settings["players"]), balances)
    large = [p["amount"] for p in payments if p["amount"] >= 100_000]
    assert large
    for amount in large:
        assert "'" in format_chf(amount, "de_CH")
        assert format_chf(amount, "de_CH") in text
        assert f"{amount // 1000}'{amount % 1000:03d} Rappen" in text    # and in Rappen
