"""Issue 21, item 2, in Debian's chromium on a phone, with JavaScript and without: cards
tapped for a Marjolet meld and not recorded, a Stovkahra combination picked and not declared,
then "Score the deal": refused at the meld's field, nothing scored, everything typed still
there; recorded (declared), the same finish scores it (90–50, not 70–50; 70–38, not 40–38)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.phone import new_series, touch_phone
from tests.browser.test_taps_marjolet import choice, new_match

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.browser
JS = pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])


def totals(page: Any) -> list[str]:
    cells = page.locator("#standings tr:nth-child(1) td")
    return [cells.nth(i).inner_text() for i in range(2)]


@JS
def test_marjolet_meld_tapped_but_not_recorded(chromium: Any, server: str,
                                               javascript: bool) -> None:
    expect = playwright_api.expect
    page = touch_phone(chromium, javascript=javascript)
    new_match(page, server)
    page.locator("#turnup-turnup label[title='Nine of clubs']").tap()
    page.locator("text=Start deal 1").tap()
    # after trick 3 won by Anne, K♠ Q♠ tapped; "Record the turn" not tapped
    page.locator("summary:has-text('Meld or exchange')").tap()
    page.fill("#turn-trick", "3")
    choice(page, "turn-winner-0").tap()
    for title in ("King of spades", "Queen of spades"):
        page.locator(f"#turn-cards label[title='{title}']").tap()
    page.fill("#finish-brisques", "50")
    for field in ("finish-trick10-0", "finish-last-1", "finish-seven-0"):
        choice(page, field).tap()
    page.locator("button:has-text('Score the deal')").tap()
    error = page.locator("#turn-cards .field-error")
    expect(error).to_contain_text("picked but not recorded: tap Record the turn, or clear them")
    expect(page.locator("#editor h2")).to_contain_text("Deal 1")        # nothing scored
    expect(page.locator("#turn-cards input[value='Ks']")).to_be_checked()
    expect(page.locator("#turn-cards input[value='Qs']")).to_be_checked()
    expect(page.locator("#finish-brisques")).to_have_value("50")
    expect(page.locator("#finish-last-1")).to_be_checked()
    # recorded, then scored: the marriage counts
    page.locator("button:has-text('Record the turn')").tap()
    expect(page.locator("#editor .verdict")).to_contain_text("Anne 20")
    expect(page.locator("#finish-brisques")).to_have_value("50")      # still typed
    page.locator("button:has-text('Score the deal')").tap()
    expect(page.locator("#editor h2")).to_contain_text("Deal 2")
    assert totals(page) == ["90", "50"]


@JS
def test_stovkahra_combination_picked_but_not_declared(chromium: Any, server: str,
                                                       javascript: bool) -> None:
    expect = playwright_api.expect
    page = touch_phone(chromium, javascript=javascript)
    new_series(page, server)
    page.locator("text=Start deal 1").tap()
    expect(page.locator("#editor h2")).to_contain_text("Deal 1")
    page.locator("summary:has-text('Add a combination')").tap()
    page.select_option("#combination-count", "3")
    page.select_option("#combination-rank", "A")
    page.fill("#finish-points", "40")
    page.locator("label", has=page.locator("#finish-last-1")).tap()
    page.locator("button:has-text('Score the deal')").tap()
    expect(page.locator(".field-error").filter(has_text="Three aces")).to_contain_text(
        "Three aces picked but not declared: tap Declare, or clear them")
    expect(page.locator("#combination-rank")).to_have_value("A")
    expect(page.locator("#combination-count")).to_have_value("3")
    expect(page.locator("#finish-points")).to_have_value("40")
    expect(page.locator("#finish-last-1")).to_be_checked()
    assert "Deal 1" in page.locator("#editor h2").inner_text()          # nothing scored
    page.locator("button:has-text('Declare')").tap()
    expect(page.locator("#editor .verdict")).to_contain_text("30")
    if not javascript:        # the page the redirect loads: the finish typed again
        page.fill("#finish-points", "40")
        page.locator("label", has=page.locator("#finish-last-1")).tap()
    page.locator("button:has-text('Score the deal')").tap()
    expect(page.locator("#editor h2")).to_contain_text("Deal 2")
    assert totals(page) == ["70", "38"]
