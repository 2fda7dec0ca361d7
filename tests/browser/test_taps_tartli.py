"""Tartli on a phone at the table (issue 11, items 1 and 3): an ordinary hand (no melds, no
call-out) takes at most 4 taps and 1 number typed, from the match page back to it with the hand
scored; a hand in progress is at most two screens tall, the controls needed next first; editing
an old hand opens at its finish facts."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.phone import HEIGHT, Hand, in_view, page_height, touch_phone

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.browser

ORDINARY_HAND = (4, 1)      # taps, numbers typed (issue 11, item 1)
SCREENS = 2                 # a hand in progress at most two screens tall (item 3)


def new_match(page: Any, server: str) -> None:
    page.goto(f"{server}/new/tartli")
    page.fill("#player_a", "Anna")
    page.fill("#player_b", "Béla")
    page.click("text=Start the match")
    playwright_api.expect(page.locator("#editor")).to_be_visible()


def card(page: Any, field: str, code: str) -> Any:
    """The toggle of card ``code`` in the picker of form field ``field``."""
    return page.locator(f"label:has(> input[name='{field}'][value='{code}'])")


@pytest.mark.parametrize("javascript", [True, False], ids=["htmx", "no-js"])
def test_an_ordinary_hand_in_four_taps_and_one_number(chromium: Any, server: str,
                                                      javascript: bool) -> None:
    page = touch_phone(chromium, javascript=javascript)
    new_match(page, server)
    hand = Hand(page)
    # Anna deals (proposed, shown); trumps hearts; Anna's pile 100, Béla's 51; Anna took the
    # last trick: Anna 100 + 10 = 110, Béla 51 (rules 5, 6.2).
    hand.tap(card(page, "indicator-indicator", "8h"))
    hand.type(page.get_by_label("Card points in the pile"), 100)
    hand.tap(page.locator("label:has(> input[name='indicator-last'][value='0'])"))
    hand.tap(page.get_by_role("button", name="Score the hand"))
    assert hand.count[0] <= ORDINARY_HAND[0] and hand.count[1] <= ORDINARY_HAND[1], hand.count
    points = page.locator("#standings tr:nth-child(1) td")
    playwright_api.expect(points.nth(0)).to_have_text("110")
    playwright_api.expect(points.nth(1)).to_have_text("51")
    playwright_api.expect(page.locator(".hands li.hand:not(.draft)")).to_have_count(1)
    # back on the match page, ready for hand 2 with Béla dealing (rule 6.1.1: alternation)
    playwright_api.expect(page.locator("#editor h2")).to_contain_text("Hand 2")
    playwright_api.expect(page.locator("#editor h2")).to_contain_text("Béla deals")


def test_a_hand_in_progress_fits_two_screens(chromium: Any, server: str) -> None:
    page = touch_phone(chromium)
    new_match(page, server)
    card(page, "indicator-indicator", "8h").tap()
    page.get_by_role("button", name="Start hand 1").tap()
    page.get_by_role("button", name="Anna won trick 1").tap()
    playwright_api.expect(page.locator("form.trick h3")).to_contain_text("Trick 2")
    # a new match's page opens "More phones at this table"; the first hand folds it away
    playwright_api.expect(page.locator("#share details")).not_to_have_attribute("open", "")
    height = page_height(page)
    assert height <= SCREENS * HEIGHT, height
    declares = page.locator("details.declare").first
    assert declares.get_attribute("open") is None          # the card pickers: on demand
    # the controls needed next come first, on the first screen: who won this trick, finish,
    # claim; a tap opens a player's card picker
    for control in (page.get_by_role("button", name="Anna won trick 2"),
                    page.get_by_role("button", name="Béla won trick 2"),
                    page.locator("details.finish summary"), page.locator("details.claim summary")):
        assert in_view(control), control
    declares.locator("summary").tap()
    assert card(page, "trick-cards_0", "Ah").is_visible()


def test_editing_an_old_hand_opens_at_its_finish_facts(chromium: Any, server: str) -> None:
    page = touch_phone(chromium)
    new_match(page, server)
    card(page, "indicator-indicator", "8h").tap()
    page.get_by_role("button", name="Start hand 1").tap()
    for trick in (1, 2):
        page.get_by_role("button", name=f"Anna won trick {trick}").tap()
        playwright_api.expect(page.locator("form.trick h3")).to_contain_text(
            f"Trick {trick + 1}")
    page.locator("details.finish summary").tap()
    page.get_by_label("Card points in the pile").fill("100")
    page.locator("label:has(> input[name='finish-last'][value='0'])").tap()
    page.get_by_role("button", name="Score the hand").tap()
    playwright_api.expect(page.locator("#editor h2")).to_contain_text("Hand 2")
    page.locator("li.hand summary").first.tap()
    page.locator("li.hand").first.get_by_role("link", name="Edit").tap()
    playwright_api.expect(page.locator("#editor h2")).to_contain_text("Editing hand 1")
    pile = page.locator("#finish-pile")
    playwright_api.expect(pile).to_have_value("100")
    assert in_view(pile)
    assert in_view(page.locator("#finish-last-0"))
