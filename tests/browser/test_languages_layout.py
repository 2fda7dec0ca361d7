"""Every language on a phone (issue 22): German and Hungarian words are long. For each
language and each game, the match page and an earlier hand's editor (a match imported from
tests/data) keep every tap target at least 44×44 px and every text at least 14 px, scroll
nothing sideways at 390 and at 320 px, and have no serious or critical axe finding."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_accessibility import violations
from test_nothing_small import goto, walk

pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.browser

DATA = Path(__file__).resolve().parents[1] / "data"
FILES = {"tartli": "tartli-short.json", "troggu": "troggu-evening.json",
         "stovkahra": "stovkahra-series.json", "marjolet": "marjolet-game.json"}


@pytest.mark.parametrize("game", list(FILES))
@pytest.mark.parametrize("language", ["hu", "de_CH", "cs", "fr"])
def test_a_phone_in_each_language(page: object, server: str, language: str,
                                  game: str) -> None:
    page.goto(f"{server}/?lang={language}")  # type: ignore[attr-defined]
    page.set_input_files("form[action='/import'] input[type=file]",  # type: ignore[attr-defined]
                         str(DATA / FILES[game]))
    page.click("form[action='/import'] button[type=submit]")  # type: ignore[attr-defined]
    page.wait_for_url("**/m/*")  # type: ignore[attr-defined]
    match = page.url  # type: ignore[attr-defined]
    assert page.get_attribute("html", "lang") == language.replace("_", "-")  # type: ignore[attr-defined]
    walk(page, [("the match page", lambda: None),
                ("an earlier hand's editor", goto(page, f"{match}/hands/1"))])
    page.goto(match)  # type: ignore[attr-defined]
    assert violations(page) == []
