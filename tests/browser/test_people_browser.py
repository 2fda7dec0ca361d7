"""Two people of a circle merged on a phone (issue 24): from the circle's list of players to the
person's page, the other player picked, the confirmation naming both and their matches, the
merge, and its Undo from the circle's history; taps counted, every target at least 44 px,
nothing wider than the screen; with htmx and without JavaScript."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from phone import WIDTH, Hand, served, touch_phone
from test_circles_browser import small_targets

from referee import create_app

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.browser
expect = playwright_api.expect
TARTLI = {"players": ["Anna", "Béla"], "target": 5, "first_dealer": 0}


@pytest.fixture
def club(tmp_path: Path) -> Iterator[str]:
    """A server whose circle has Anna and Béla in two matches, "Anna B." and Béla in one: the
    circle's address."""
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'people.sqlite3'}"})
    store = app.extensions["referee.circles"]
    token = store.create("Club")
    store.start_match(token, "tartli", TARTLI, ["Anna", "Béla"], created=datetime(2026, 11, 1))
    ids = {p.name: p.id for p in store.load(token).players}
    store.start_match(token, "tartli", TARTLI, [ids["Anna"], ids["Béla"]],
                      created=datetime(2026, 11, 8))
    store.start_match(token, "tartli", dict(TARTLI, players=["Anna B.", "Béla"]),
                      ["Anna B.", ids["Béla"]], created=datetime(2026, 11, 15))
    with served(app) as address:
        yield f"{address}/c/{token}"


def _fits(phone: Any) -> None:
    assert not small_targets(phone), small_targets(phone)
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= WIDTH


@pytest.mark.parametrize("javascript", [True, False], ids=["htmx", "no-javascript"])
def test_a_merge_confirmed_and_undone_on_a_phone(chromium: Any, club: str,
                                                 javascript: bool) -> None:
    phone = touch_phone(chromium, javascript=javascript)
    phone.goto(club)
    _fits(phone)
    hand = Hand(phone)
    hand.tap(phone.locator(".circle-players a", has_text="Anna B."))
    expect(phone.locator("h1")).to_have_text("Anna B.")
    _fits(phone)
    phone.select_option("#into", label="Anna (2 matches)")
    hand.taps += 1                                             # the pick counts as a tap
    hand.tap(phone.locator("button", has_text="Next: check the merge"))
    expect(phone.locator(".merge-line")).to_have_text("Anna B. (1 match) becomes Anna "
                                                      "(2 matches)")
    _fits(phone)
    hand.tap(phone.locator("button", has_text="Merge Anna B. into Anna"))
    expect(phone.locator(".notice")).to_contain_text("Anna B. and Anna are one person now")
    expect(phone.locator(".circle-players")).not_to_contain_text("Anna B.")
    expect(phone.locator(".circle-players")).to_contain_text("Anna 3 matches")
    latest = phone.locator("#changes li").first
    expect(latest).to_contain_text("Anna B. merged into Anna (1 match)")
    _fits(phone)
    hand.tap(latest.locator("button", has_text="Undo"))
    expect(phone.locator(".notice")).to_contain_text("Undone: Anna B. merged into Anna")
    expect(phone.locator(".circle-players")).to_contain_text("Anna B. 1 match")
    expect(phone.locator("#changes li").nth(1)).to_contain_text("(undone)")
    assert phone.url.split("#")[0] == club
    assert hand.count == (5, 0)          # person, pick, next, merge, undo
