"""Marjolet at the table on a phone (issue 11, items 1 and 3): an ordinary deal (no melds)
entered by taps from the match page back to it, scored, in at most 6 taps and 1 number — the
turn-up card, the start, Anne's aces and tens, the winners of tricks 10 and 16 and who played
the trump 7, asked in the Finish form itself (rule 6.1.5); values typed in one section kept
when another is saved, with and without JavaScript; a deal in progress at most two screens
tall; an old deal opened for editing at its finish facts."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.phone import HEIGHT, Hand, in_view, page_height, touch_phone

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.browser


def new_match(page: Any, server: str) -> None:
    """Anne and Bruno, Bruno dealing first: the match page (not counted: the match is made
    once, before the first deal)."""
    page.goto(f"{server}/new/marjolet")
    page.fill("#player_a", "Anne")
    page.fill("#player_b", "Bruno")
    page.check("#first_dealer-1")
    page.click("text=Start the game")
    playwright_api.expect(page.locator("#editor h2")).to_contain_text("Deal 1")


def choice(page: Any, field_id: str) -> Any:
    """The row a finger taps to choose a radio button: its label."""
    return page.locator("label", has=page.locator(f"#{field_id}"))


def start_deal(hand: Hand, number: int, turnup: str = "Nine of clubs") -> None:
    page = hand.page
    playwright_api.expect(page.locator("#editor h2")).to_contain_text(f"Deal {number}")
    hand.tap(page.locator(f"#turnup-turnup label[title='{turnup}']"))
    hand.tap(page.locator(f"text=Start deal {number}"))
    playwright_api.expect(page.locator(".trumps")).to_be_visible()


def record_turn(hand: Hand, trick: int, winner: int, cards: tuple[str, ...] = (),
                exchange: bool = False) -> None:
    """A meld or the exchange after a won trick: the section opened on demand."""
    page = hand.page
    hand.tap(page.locator("summary:has-text('Meld or exchange')"))
    hand.type(page.locator("#turn-trick"), trick)
    hand.tap(choice(page, f"turn-winner-{winner}"))
    for title in cards:
        hand.tap(page.locator(f"#turn-cards label[title='{title}']"))
    if exchange:
        hand.tap(choice(page, "turn-exchange"))
    hand.tap(page.locator("button:has-text('Record the turn')"))


def test_an_ordinary_deal_by_taps(chromium: Any, server: str) -> None:
    """Clubs trumps, no melds, no exchange. Anne has 50 in aces and tens, wins trick 10 and
    plays the trump 7; Bruno takes the turn-up and wins the last trick.
    Anne 50 + 10 + 10 = 70, Bruno 30 + 10 + 10 = 50 (section 5)."""
    page = touch_phone(chromium)
    new_match(page, server)
    hand = Hand(page)
    start_deal(hand, 1)
    hand.type(page.locator("#finish-brisques"), 50)
    hand.tap(choice(page, "finish-trick10-0"))
    hand.tap(choice(page, "finish-last-1"))
    hand.tap(choice(page, "finish-seven-0"))
    hand.tap(page.locator("button:has-text('Score the deal')"))
    totals = page.locator("#standings tr:nth-child(1) td")
    playwright_api.expect(totals.nth(0)).to_have_text("70")
    playwright_api.expect(totals.nth(1)).to_have_text("50")
    playwright_api.expect(page.locator("#editor h2")).to_contain_text("Deal 2 Anne deals")
    taps, numbers = hand.count
    assert taps <= 6 and numbers <= 1, f"{taps} taps + {numbers} numbers"
    # The next deal proposes the next dealer (rule 2.1): Anne, without a tap.
    playwright_api.expect(page.locator("#turnup-dealer-0")).to_be_checked()


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_typed_values_survive_saving_another_section(chromium: Any, server: str,
                                                     javascript: bool) -> None:
    """Half the Finish typed, then a forgotten meld recorded: the Finish keeps what was
    typed; then the exchange recorded: still kept, and the trump 7's answer is "exchanged"."""
    page = touch_phone(chromium, javascript=javascript)
    new_match(page, server)
    hand = Hand(page)
    start_deal(hand, 1)
    hand.type(page.locator("#finish-brisques"), 60)
    hand.tap(choice(page, "finish-trick10-1"))
    hand.tap(choice(page, "finish-last-0"))
    # After trick 3 Anne melds the marriage in hearts (+20).
    record_turn(hand, 3, 0, ("King of hearts", "Queen of hearts"))
    playwright_api.expect(page.locator("#editor .verdict")).to_have_text(
        "So far: Anne 20 · Bruno 0")
    playwright_api.expect(page.locator("#finish-brisques")).to_have_value("60")
    playwright_api.expect(page.locator("#finish-trick10-1")).to_be_checked()
    playwright_api.expect(page.locator("#finish-last-0")).to_be_checked()
    # A meld removed and recorded again: the remove button is a button of the deal's form,
    # so the values typed travel along, with JavaScript or without (issue 11).
    hand.tap(page.locator("ol.tricks button:has-text('remove')"))
    playwright_api.expect(page.locator("#editor .verdict")).to_have_text(
        "So far: Anne 0 · Bruno 0")
    playwright_api.expect(page.locator("#finish-brisques")).to_have_value("60")
    playwright_api.expect(page.locator("#finish-last-0")).to_be_checked()
    record_turn(hand, 3, 0, ("King of hearts", "Queen of hearts"))
    playwright_api.expect(page.locator("#finish-brisques")).to_have_value("60")
    # The turn itself starts afresh, folded, on the trick after the last one recorded.
    playwright_api.expect(page.locator("#turn-trick")).to_have_value("4")
    assert not page.locator("#turn-cards").is_visible()
    # After trick 5 Bruno exchanges the trump 7: the Finish's answer on the trump 7 says so.
    record_turn(hand, 5, 1, exchange=True)
    playwright_api.expect(page.locator("#finish-brisques")).to_have_value("60")
    playwright_api.expect(page.locator("#finish-trick10-1")).to_be_checked()
    playwright_api.expect(page.locator("#finish .seven")).to_contain_text(
        "nobody: Bruno exchanged it after trick 5")
    playwright_api.expect(page.locator("#finish-seven-2")).to_be_checked()
    hand.tap(page.locator("button:has-text('Score the deal')"))
    # Anne 60 + 20 + 10 (turn-up) + 10 (last) = 100; Bruno 20 + 10 (trick 10) + 10 (exchange).
    totals = page.locator("#standings tr:nth-child(1) td")
    playwright_api.expect(totals.nth(0)).to_have_text("100")
    playwright_api.expect(totals.nth(1)).to_have_text("40")


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_the_enter_key_scores_the_deal_with_a_meld_recorded(chromium: Any, server: str,
                                                            javascript: bool) -> None:
    """The remove buttons belong to the deal's form, after the Finish: the Enter key in the
    Finish still presses "Score the deal", never a meld's "remove". Anne: 60 in aces and
    tens, her marriage 20, the trump 7 played 10, the turn-up as loser of trick 10 10 and the
    last trick 10 = 110; Bruno: 20 in aces and tens and trick 10 10 = 30 (section 5)."""
    page = touch_phone(chromium, javascript=javascript)
    new_match(page, server)
    hand = Hand(page)
    start_deal(hand, 1)
    record_turn(hand, 3, 0, ("King of hearts", "Queen of hearts"))
    playwright_api.expect(page.locator("#editor .verdict")).to_have_text(
        "So far: Anne 20 · Bruno 0")
    hand.tap(choice(page, "finish-trick10-1"))
    hand.tap(choice(page, "finish-last-0"))
    hand.tap(choice(page, "finish-seven-0"))
    hand.type(page.locator("#finish-brisques"), 60)
    page.locator("#finish-brisques").press("Enter")
    playwright_api.expect(page.locator("#editor h2")).to_contain_text("Deal 2")
    totals = page.locator("#standings tr:nth-child(1) td")
    playwright_api.expect(totals.nth(0)).to_have_text("110")
    playwright_api.expect(totals.nth(1)).to_have_text("30")


def test_a_deal_in_progress_fits_two_screens(chromium: Any, server: str) -> None:
    """The second deal in progress, one meld recorded: the controls needed next first (the
    turn and the Finish), the card picker closed until asked for."""
    page = touch_phone(chromium)
    new_match(page, server)
    hand = Hand(page)
    start_deal(hand, 1)
    hand.type(page.locator("#finish-brisques"), 40)
    hand.tap(choice(page, "finish-trick10-0"))
    hand.tap(choice(page, "finish-last-0"))
    hand.tap(choice(page, "finish-seven-1"))
    hand.tap(page.locator("button:has-text('Score the deal')"))
    start_deal(hand, 2, "Eight of hearts")
    record_turn(hand, 2, 1, ("King of spades", "Queen of spades"))
    playwright_api.expect(page.locator("#editor .verdict")).to_have_text(
        "So far: Anne 0 · Bruno 20")
    assert not page.locator("#turn-cards").is_visible()       # the picker opens on demand
    # As the page loads for a deal in progress (the links for more phones, open on the first
    # load of a new match and left open by htmx since, folded: the match page's frame).
    page.reload()
    height = page_height(page)
    assert height <= 2 * HEIGHT, f"a deal in progress is {height} px tall"
    assert page.locator("#finish-brisques").is_visible()


def test_editing_an_old_deal_opens_at_its_finish_facts(chromium: Any, server: str) -> None:
    page = touch_phone(chromium)
    new_match(page, server)
    hand = Hand(page)
    for number, trick10 in ((1, "0"), (2, "1")):
        start_deal(hand, number)
        hand.type(page.locator("#finish-brisques"), 30)
        hand.tap(choice(page, f"finish-trick10-{trick10}"))
        hand.tap(choice(page, "finish-last-1"))
        hand.tap(choice(page, "finish-seven-0"))
        hand.tap(page.locator("button:has-text('Score the deal')"))
    page.goto(page.url.split("#")[0].rstrip("/") + "/hands/1")
    playwright_api.expect(page.locator("#editor h2")).to_contain_text("Editing deal 1")
    for field in ("#finish-brisques", "#finish-trick10-0", "#finish-seven-0"):
        assert in_view(page.locator(field).locator("xpath=ancestor::label[1]")), field
    playwright_api.expect(page.locator("#finish-brisques")).to_have_value("30")
    playwright_api.expect(page.locator("#finish-trick10-0")).to_be_checked()
