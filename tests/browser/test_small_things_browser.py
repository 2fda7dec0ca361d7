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
