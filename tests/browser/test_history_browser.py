"""The hand history of a long match on a phone (issue 12): the match page shows the latest
hands; "Earlier hands" brings older ones (in place with JavaScript, a page without); a hand's
row opened shows how it was scored. Every tap counted, on the edit link and on the view link."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from phone import Hand, touch_phone
from test_accessibility import duplicate_ids, violations

from tests.bench.long_match import troggu_file

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.browser

HANDS = 45                   # the match page shows 26 to 45; earlier: 6 to 25, then 1 to 5


def imported(chromium: Any, server: str, tmp_path: Path, javascript: bool) -> Any:
    file = tmp_path / "troggu.json"
    file.write_text(json.dumps(troggu_file(HANDS)))
    page = touch_phone(chromium, javascript=javascript)
    page.goto(server)
    page.set_input_files("form[action='/import'] input[type=file]", str(file))
    page.click("button:text-is('Import')")
    playwright_api.expect(page.locator(".notice")).to_contain_text("Match imported")
    page.goto(re.sub(r"[?#].*", "", page.url))
    return page


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
@pytest.mark.parametrize("link", ["edit", "view"])
def test_the_first_hand_of_a_long_match_is_three_taps_away(
        chromium: Any, server: str, tmp_path: Path, javascript: bool, link: str) -> None:
    expect = playwright_api.expect
    page = imported(chromium, server, tmp_path, javascript)
    if link == "view":
        page.goto(page.locator("figure.link-view a").get_attribute("href"))
    history = page.locator("#history")
    expect(history.locator("li.hand")).to_have_count(20)
    expect(page.locator("#hand-1")).to_have_count(0)
    hand = Hand(page)
    hand.tap(page.locator("a:has-text('Earlier hands (6 to 25)')"))
    expect(page.locator("#hand-6")).to_have_count(1)
    hand.tap(page.locator("a:has-text('Earlier hands (1 to 5)')"))
    first = page.locator("#hand-1")
    expect(first.locator("summary")).to_contain_text("Anna deals")
    hand.tap(first.locator("summary"))
    if javascript:
        # in place: the rows of every page, and the lines loaded into the opened row
        expect(history.locator("li.hand")).to_have_count(HANDS)
        lines = first.locator("ul.lines")
    else:
        hand.tap(first.locator("a:has-text('How hand 1 was scored')"))
        lines = page.locator("#hand-1 ul.lines")
    expect(lines).to_contain_text("§")
    expect(page.locator("#hand-1").get_by_text("Edit", exact=True)).to_have_count(
        1 if link == "edit" else 0)
    assert hand.count == ((3, 0) if javascript else (4, 0))
    if javascript:          # (axe runs in the page) the rows loaded in place: no finding,
        assert violations(page) == [] and duplicate_ids(page) == []     # no id twice


def test_earlier_hands_brought_in_stay_when_another_phone_changes_the_match(
        chromium: Any, server: str, tmp_path: Path) -> None:
    """A phone reading earlier hands; another phone deletes the last hand. The first phone's
    scoreboard redraws the history (the latest hands, without hand 45) and brings the earlier
    hands back, as they now stand: the reader keeps their place (they used to vanish)."""
    expect = playwright_api.expect
    page = imported(chromium, server, tmp_path, javascript=True)
    page.click("a:has-text('Earlier hands (6 to 25)')")
    page.click("a:has-text('Earlier hands (1 to 5)')")
    expect(page.locator("#hand-1")).to_have_count(1)
    page.locator("#hand-3").scroll_into_view_if_needed()
    top = "document.getElementById('hand-3').getBoundingClientRect().top"
    before = page.evaluate(top)
    other = touch_phone(chromium)
    other.goto(page.url)
    other.on("dialog", lambda dialog: dialog.accept())
    other.click("#hand-45-record summary")
    other.locator("#hand-45-record button:text-is('Delete')").click()
    expect(other.locator("#hand-45")).to_have_count(0)
    expect(page.locator("#hand-45")).to_have_count(0)          # redrawn by the scoreboard
    expect(page.locator("#history li.hand")).to_have_count(HANDS - 1)
    expect(page.locator("#hand-1 summary")).to_contain_text("Anna deals")
    expect(page.locator("#history li.earlier")).to_have_count(0)
    assert abs(page.evaluate(top) - before) < 10          # where the reader was
