"""A circle on a phone (issue 13): made on the home page, a match started from its page with a
new player and one picked from its list, and the match listed on the circle's page; every tap
target at least 44 px, nothing wider than the screen."""

from __future__ import annotations

from typing import Any

import pytest
from phone import WIDTH, touch_phone

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.browser
expect = playwright_api.expect


def small_targets(page: Any) -> list[str]:
    """Visible buttons, button links, fields and selects under 44×44 px (a radio counts by its
    label row: tests/browser/test_nothing_small.py)."""
    return list(page.evaluate("""() => [...document.querySelectorAll(
            'main button, main a.button, main select, main summary, '
            + 'main input:not([type=hidden]):not([type=radio]):not([type=checkbox])')]
        .filter(el => el.getClientRects().length)
        .map(el => [el, el.getBoundingClientRect()])
        .filter(([, r]) => r.height < 43.99 || r.width < 43.99)
        .map(([el, r]) => `${el.tagName} ${el.name || el.textContent.trim().slice(0, 30)} `
                          + `${r.width.toFixed(0)}×${r.height.toFixed(0)}`)"""))


def test_a_circle_on_a_phone(chromium: Any, server: str) -> None:
    phone = touch_phone(chromium)
    phone.goto(server)
    phone.fill("#circle_name", "Family")
    phone.locator("button", has_text="New circle").tap()
    expect(phone.locator("h1")).to_have_text("Family")
    circle = phone.url
    assert not small_targets(phone), small_targets(phone)
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= WIDTH

    # a player of the circle, then a Tartli match: her picked from the list, a new name
    phone.fill("#player", "Anna")
    phone.locator("button", has_text="Add the player").tap()
    expect(phone.locator(".circle-players")).to_contain_text("Anna")
    phone.locator("#start a", has_text="Tartli").tap()
    phone.select_option("#who-0", label="Anna")
    phone.fill("#name-1", "Béla")
    assert not small_targets(phone), small_targets(phone)
    phone.locator("button", has_text="Start the match").tap()
    phone.wait_for_selector("#editor")
    expect(phone.locator("h1, .standings").first).to_contain_text("Anna")

    # the circle lists it (newest first), with both players, and links to its page
    phone.goto(circle)
    listed = phone.locator(".circle-matches li").first
    expect(listed).to_contain_text("Tartli: Anna – Béla")
    expect(phone.locator(".circle-players")).to_contain_text("Béla")
    listed.locator("a").tap()
    phone.wait_for_selector("#editor")
