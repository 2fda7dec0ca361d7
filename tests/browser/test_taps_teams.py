"""Fewer taps, and a hand in progress that fits (issue 11, items 1 and 3), for Stovkahra and
Troggu on a 390×844 touch phone: an ordinary hand entered by taps from the match page back to
it with the hand scored (Stovkahra at most 5 taps + 1 number, an add-or-take choice at a
game's end counted apart; Troggu at most 4 + 1), the next dealer proposed by the rules
(Stovkahra 2.5, Troggu 2.4: the deal passes on), a hand in progress at most two screens tall,
and an old hand's editor opening at how it ended."""

from __future__ import annotations

from typing import Any

import pytest
from phone import HEIGHT, Hand, in_view, new_troggu, page_height, touch_phone
from phone import new_series as start_series

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.browser

TWO_SCREENS = 2 * HEIGHT


def edit_hand(page: Any, hand: Hand, number: int) -> None:
    """From the match page, open hand ``number`` in the history and tap its Edit link."""
    item = page.locator("li.hand").filter(
        has=page.locator(f"summary .num:text-is('#{number}')"))
    hand.tap(item.locator("summary"))
    hand.tap(item.locator("a:has-text('Edit')"))
    playwright_api.expect(page.locator("#editor h2")).to_contain_text("Editing ")


# ---------------------------------------------------------------------------------------------
# Stovkahra


def new_series(page: Any, server: str) -> None:
    start_series(page, server)
    playwright_api.expect(page.locator("#editor h2")).to_contain_text("Deal 1 David deals")


def played_deal(page: Any, hand: Hand, number: int, points: int, last: int) -> None:
    """Deal ``number`` started as proposed and finished: NS's card points, the last trick's
    team (NS 0, EW 1); its finish is open from the start of the deal."""
    hand.tap(page.locator(f"button:has-text('Start deal {number}')"))
    playwright_api.expect(page.locator("#finish-points")).to_be_visible()
    hand.type(page.locator("#finish-points"), points)
    hand.tap(page.locator(f"label:has(#finish-last-{last})"))
    hand.tap(page.locator("button:has-text('Score the deal')"))
    playwright_api.expect(page.locator("#history")).to_contain_text(f"#{number}")


def expect_row(page: Any, row: int, values: list[str]) -> None:
    cells = page.locator(f"#standings tbody tr:nth-child({row}) td")
    playwright_api.expect(cells).to_have_text(values)


def expect_balances(page: Any, values: list[str]) -> None:
    """Troggu's balances in seat order (with five players or more, three to a line: all in view,
    none hidden sideways)."""
    playwright_api.expect(page.locator("#standings .big")).to_have_text(values)
    assert page.evaluate("() => document.querySelector('#standings').scrollWidth") <= 390


def test_stovkahra_an_ordinary_deal_by_taps(chromium: Any, server: str) -> None:
    """Deal 1 (David deals, the first dealer chosen): started as proposed, then its finish,
    open from the start: NS 40 card points, EW the last trick: NS 40, EW 32 + 6 = 38
    (rules 6.2)."""
    page = touch_phone(chromium)
    new_series(page, server)
    hand = Hand(page)
    played_deal(page, hand, 1, 40, last=1)
    expect_row(page, 1, ["40", "38"])
    assert hand.count == (3, 1)
    taps, numbers = hand.count
    assert taps <= 5 and numbers <= 1
    # the next deal: Anna, on David's left, proposed (rule 2.5); nothing else guessed
    playwright_api.expect(page.locator("#editor h2")).to_contain_text("Deal 2 Anna deals")
    playwright_api.expect(page.locator("#start-dealer-0")).to_be_checked()


def test_stovkahra_a_deal_that_ends_the_game_and_its_choice(chromium: Any,
                                                             server: str) -> None:
    """NS 40 + 38 ... then NS take all 72 card points and the last trick: 40 + 78 = 118
    wins the game against EW's 38 < 50: 2 matchsticks (7.1.3), added to their pile at one
    more tap (7.3.1)."""
    page = touch_phone(chromium)
    new_series(page, server)
    played_deal(page, Hand(page), 1, 40, last=1)
    hand = Hand(page)
    played_deal(page, hand, 2, 72, last=0)
    assert hand.count == (3, 1)
    hand.tap(page.locator("#decisions button:has-text('Add to Anna & Cilka')"))
    expect_row(page, 2, ["2", "0"])
    taps, numbers = hand.count
    assert taps <= 5 + 1 and numbers <= 1          # the choice counted apart


def test_stovkahra_a_deal_in_progress_fits_two_screens(chromium: Any, server: str) -> None:
    page = touch_phone(chromium)
    new_series(page, server)
    hand = Hand(page)
    played_deal(page, hand, 1, 40, last=1)
    hand.tap(page.locator("button:has-text('Start deal 2')"))
    playwright_api.expect(page.locator("#finish-points")).to_be_visible()
    page.goto(page.url)                         # the match page as a phone opens it
    playwright_api.expect(page.locator("#finish-points")).to_be_visible()
    assert page_height(page) <= TWO_SCREENS
    # the card picker of a combination, the sevens and the dost open on demand
    for closed in ("#combination-cards", "#finish-seven_1", "#dost-caller"):
        assert not page.locator(closed).is_visible(), closed


def test_stovkahra_an_old_deal_opens_at_its_finish(chromium: Any, server: str) -> None:
    page = touch_phone(chromium)
    new_series(page, server)
    hand = Hand(page)
    played_deal(page, hand, 1, 40, last=1)
    hand.tap(page.locator("button:has-text('Start deal 2')"))
    playwright_api.expect(page.locator("#finish-points")).to_be_visible()
    edit_hand(page, hand, 1)
    points = page.locator("#finish-points")
    assert in_view(points)
    playwright_api.expect(points).to_have_value("40")
    assert in_view(page.locator("label:has(#finish-last-1)"))
    playwright_api.expect(page.locator("#finish-last-1")).to_be_checked()
    assert in_view(page.locator("button:has-text('Score the deal')"))


def test_stovkahra_the_next_declarer_is_proposed(chromium: Any, server: str) -> None:
    """Declarations go round from the dealer's left (4.1): after Anna's, Boris is proposed."""
    page = touch_phone(chromium)
    new_series(page, server)
    hand = Hand(page)
    hand.tap(page.locator("button:has-text('Start deal 1')"))
    playwright_api.expect(page.locator("#finish-points")).to_be_visible()
    hand.tap(page.locator("summary:has-text('Add a combination')"))
    playwright_api.expect(page.locator("input[name='combination-seat'][value='0']")).to_be_checked()
    page.select_option("#combination-count", "3")
    page.select_option("#combination-rank", "A")
    hand.tap(page.locator("button:has-text('Declare')"))
    playwright_api.expect(page.locator("ol.combinations")).to_contain_text("Anna: three aces")
    hand.tap(page.locator("summary:has-text('Add a combination')"))
    playwright_api.expect(page.locator("input[name='combination-seat'][value='1']")).to_be_checked()


# ---------------------------------------------------------------------------------------------
# Troggu

NAMES = ["Anna", "Beat", "Carla", "Dario", "Elsa"]
SEVEN = NAMES + ["Fabian", "Gina"]


def new_evening(page: Any, server: str, names: list[str] = NAMES) -> None:
    new_troggu(page, server, names)
    playwright_api.expect(page.locator("#editor h2")).to_contain_text("Hand 1 Anna deals")


def bid_normal(page: Any, hand: Hand, tappist: str) -> None:
    """``tappist`` takes ("normal"), everybody else passes (the pre-set call): two taps."""
    row = page.locator(".call-row").filter(has_text=tappist)
    hand.tap(row.locator("label.call").filter(has_text="normal"))
    hand.tap(page.locator("button:has-text('Record the bidding')"))
    playwright_api.expect(page.locator("#editor .game")).to_contain_text(f"Tappist {tappist}")


def normal_game(page: Any, hand: Hand, number: int, tappist: str, points: int) -> None:
    """``tappist`` takes ("normal"), everybody else passes (the pre-set call); the declarer
    side's card points."""
    bid_normal(page, hand, tappist)
    hand.type(page.locator("#finish-points"), points)
    hand.tap(page.locator("button:has-text('Score the hand')"))
    playwright_api.expect(page.locator("#payments h3")).to_contain_text(f"Hand {number}:")


def test_troggu_an_ordinary_hand_by_taps(chromium: Any, server: str) -> None:
    """Carla takes and wins 71–43 against four defenders who took a trick: 10 from each
    (rules 7): +40, the others −10."""
    page = touch_phone(chromium)
    new_evening(page, server)
    hand = Hand(page)
    normal_game(page, hand, 1, "Carla", 71)
    expect_balances(page, ["−10", "−10", "40", "−10", "−10"])
    assert hand.count == (3, 1)
    taps, numbers = hand.count
    assert taps <= 4 and numbers <= 1
    # the deal passes to the right (2.4): Beat deals hand 2, proposed
    playwright_api.expect(page.locator("#editor h2")).to_contain_text("Hand 2 Beat deals")
    playwright_api.expect(page.locator("#bids-dealer-1")).to_be_checked()


def test_troggu_a_hand_in_progress_fits_two_screens(chromium: Any, server: str) -> None:
    page = touch_phone(chromium)
    new_evening(page, server)
    hand = Hand(page)
    normal_game(page, hand, 1, "Carla", 71)
    bid_normal(page, hand, "Dario")
    page.goto(page.url)                         # the match page as a phone opens it
    playwright_api.expect(page.locator("#finish-points")).to_be_visible()
    assert page_height(page) <= TWO_SCREENS
    assert not page.locator("#discard-cards").is_visible()     # the picker, on demand
    hand.tap(page.locator("summary:has-text('The exchange')"))
    playwright_api.expect(page.locator("#discard-cards")).to_be_visible()


def test_troggu_an_old_hand_opens_at_its_finish(chromium: Any, server: str) -> None:
    page = touch_phone(chromium)
    new_evening(page, server)
    hand = Hand(page)
    normal_game(page, hand, 1, "Carla", 71)
    normal_game(page, hand, 2, "Dario", 52)
    edit_hand(page, hand, 1)
    points = page.locator("#finish-points")
    assert in_view(points)
    playwright_api.expect(points).to_have_value("71")
    assert in_view(page.locator("label:has(#finish-took-0)"))
    assert in_view(page.locator("button:has-text('Score the hand')"))


# Troggu with 7 players: the partner call (4.5.2) asked in the end of the hand


def partner_game(page: Any, hand: Hand, tappist: str, partner: str, points: int) -> None:
    """``tappist`` takes, everybody else passes; he calls XX (the usual call, proposed) and
    ``partner`` held it; the declarer side's card points."""
    bid_normal(page, hand, tappist)
    hand.type(page.locator("#finish-points"), points)
    held = page.locator(".partner-call label").filter(has_text=partner)
    hand.tap(held)
    hand.tap(page.locator("button:has-text('Score the hand')"))


def test_troggu_seven_players_an_ordinary_hand_by_taps(chromium: Any, server: str) -> None:
    """Example 8 (rules 7.3): Anna takes and calls XX, held by Dario; they win 62–52 against
    five defenders who took a trick: Anna +30, Dario +20, the others −10."""
    page = touch_phone(chromium)
    new_evening(page, server, SEVEN)
    hand = Hand(page)
    partner_game(page, hand, "Anna", "Dario", 62)
    playwright_api.expect(page.locator("#payments h3")).to_contain_text("Hand 1:")
    expect_balances(page, ["30", "−10", "−10", "20", "−10", "−10", "−10"])
    assert hand.count == (4, 1)
    taps, numbers = hand.count
    assert taps <= 4 and numbers <= 1


def test_troggu_seven_players_a_hand_in_progress_fits_two_screens(chromium: Any,
                                                                   server: str) -> None:
    """The first hand, its call not yet recorded: asked in the end of the hand, the whole hand
    at most two screens tall; the Tappist is not offered as his own partner, and nobody is
    proposed as partner (4.5.2: only the table knows who held the called trump)."""
    page = touch_phone(chromium)
    new_evening(page, server, SEVEN)
    hand = Hand(page)
    bid_normal(page, hand, "Carla")
    page.goto(page.url)                         # the match page as a phone opens it
    playwright_api.expect(page.locator("#finish-points")).to_be_visible()
    held = page.locator(".partner-call input[type=radio]")
    playwright_api.expect(held).to_have_count(7)        # six players and "alone"
    assert not any(held.nth(i).is_checked() for i in range(7))
    assert page_height(page) <= TWO_SCREENS
    assert not page.locator("#discard-cards").is_visible()     # the picker, on demand
    # the whole bidding, folded to one line, opens at a tap
    hand.tap(page.locator("details.bids > summary"))
    playwright_api.expect(page.locator("#bids-bid_2-1")).to_be_checked()
