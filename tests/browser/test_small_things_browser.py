"""Small things seen at the table (issue 21, item 9), in Debian's chromium on a phone
(390×844): what the page says as it is filled in, where the focus goes, what is scrolled into
view, and how the bidding's legend and the charts are drawn."""

from __future__ import annotations

from typing import Any

import pytest
from phone import touch_phone

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.browser


@pytest.fixture
def phone(chromium: Any) -> Any:
    return touch_phone(chromium)


def test_the_first_dealer_is_named_as_the_names_are_typed(phone: Any, server: str) -> None:
    phone.goto(f"{server}/new/stovkahra")
    labels = phone.locator("fieldset:has(legend:text-is('First dealer')) label")
    expect = playwright_api.expect
    expect(labels).to_have_text(["North", "East", "South", "West"])
    phone.fill("#north", "Jana")
    phone.fill("#west", "Karel")
    expect(labels).to_have_text(["Jana", "East", "South", "Karel"])
    phone.fill("#west", "")
    expect(labels).to_have_text(["Jana", "East", "South", "West"])


def new_troggu(page: Any, server: str, names: list[str]) -> None:
    """A Troggu match for ``names``, its first hand's bidding recorded: Carla takes."""
    page.goto(f"{server}/new/troggu")
    seats = page.locator("input[name='players']")
    for seat, name in enumerate(names):
        seats.nth(seat).fill(name)
    page.click("text=Start the match")
    page.locator(".call-row").filter(has_text="Carla").locator("label.call").filter(
        has_text="normal").click()
    page.click("text=Record the bidding")
    playwright_api.expect(page.locator("#editor .verdict")).to_contain_text("Carla is Tappist")


def test_troggu_points_out_of_range_are_said_at_the_field(phone: Any, server: str) -> None:
    """121 card points: refused on the page, beside the field, with its rule, what was typed
    kept (not only by the browser's tooltip, which goes away)."""
    new_troggu(phone, server, ["Anna", "Beat", "Carla", "Dario"])
    points = phone.locator("#finish-points")
    points.fill("121")
    phone.locator("#editor button:text-is('Score the hand')").click()
    said = phone.locator("#finish-points-error-1")
    playwright_api.expect(said).to_contain_text("Card points are 0 to 114 (rule 6.3.2)")
    playwright_api.expect(points).to_have_value("121")
    assert points.get_attribute("aria-describedby") == "finish-points-error-1"
