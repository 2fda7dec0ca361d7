"""A Troggu evening for five played through the real pages in Debian's chromium: a normal game
with the discard tapped in the tarot picker (115 points refused in the field), a Solo, and a
Misère; the payments with their reasons, the balances and the settle-up, all without a page
load."""

from __future__ import annotations

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.browser
NAMES = ["Anna", "Beat", "Carla", "Dario", "Elsa"]



def call(page: object, name: str, bid: str) -> None:
    """Tap ``bid`` (pass, normal, Solo) in ``name``'s row of the bidding."""
    row = page.locator(".call-row").filter(has_text=name)  # type: ignore[attr-defined]
    row.locator("label.call").filter(has_text=bid).click()


def expect_balances(page: object, balances: list[int]) -> None:
    cells = page.locator("#standings .big")  # type: ignore[attr-defined]
    for seat, balance in enumerate(balances):
        playwright_api.expect(cells.nth(seat)).to_have_text(str(balance).replace("-", "−"))


def payment(page: object, name: str) -> object:
    return page.locator("#payments tbody tr").filter(  # type: ignore[attr-defined]
        has=page.locator(f"th:text-is('{name}')"))  # type: ignore[attr-defined]


def test_three_hands_for_five_players(page: object, server: str) -> None:
    expect = playwright_api.expect
    page.goto(f"{server}/new/troggu")  # type: ignore[attr-defined]
    seats = page.locator("input[name='players']")  # type: ignore[attr-defined]
    for seat, name in enumerate(NAMES):
        seats.nth(seat).fill(name)
    page.click("text=Start the match")  # type: ignore[attr-defined]
    expect(page.locator("#standings")).to_contain_text("Balance (Rappen)")  # type: ignore[attr-defined]
    editor = page.locator("#editor")  # type: ignore[attr-defined]
    expect(editor.locator("h2")).to_contain_text("Anna deals · Beat speaks first")
    expect(editor).to_contain_text("5 players: 11 cards each (4+4+3), a Tapp of 7")
    url = page.url  # type: ignore[attr-defined]

    # Hand 1: Carla takes ("ich nehm's"); the others pass (the pre-set call).
    call(page, "Carla", "normal")
    page.click("text=Record the bidding")  # type: ignore[attr-defined]
    expect(editor.locator(".verdict")).to_contain_text(
        "Beat passes, Carla normal, Dario passes, Elsa passes, Anna passes → Carla is Tappist")
    # her discard, tapped in the picker: Qc Nd Jb II III VIc Vd = 13 card points
    page.click("summary:has-text('The exchange')")  # type: ignore[attr-defined]  # on demand
    picker = page.locator("#discard-cards")  # type: ignore[attr-defined]
    for title in ("Queen of cups", "Cavalier of coins", "Jack of batons", "Trump II",
                  "Trump III", "VI of cups", "V of coins"):
        picker.locator(f"label[title='{title}']").click()
    page.click("text=Save the discard")  # type: ignore[attr-defined]
    expect(editor).to_contain_text("13 card points, counted for Carla's side")
    # 115 is refused where it was typed (the browser checks the field's range), then corrected
    points = page.locator("#finish-points")  # type: ignore[attr-defined]
    points.fill("115")
    page.click("text=Score the hand")  # type: ignore[attr-defined]
    assert points.evaluate("e => e.validity.rangeOverflow")
    expect(points).to_have_value("115")
    expect_balances(page, [0, 0, 0, 0, 0])
    page.fill("#finish-points", "71")  # type: ignore[attr-defined]
    page.click("text=Score the hand")  # type: ignore[attr-defined]
    expect_balances(page, [-10, -10, 40, -10, -10])
    expect(payment(page, "Carla")).to_contain_text(
        "Carla receives 40 (Tappist: 10 from each of 4 opponents)")
    expect(payment(page, "Anna")).to_contain_text("Anna pays 10 (defender: 1 × 10)")
    expect(page.locator("#payments tfoot td.num")).to_have_text("0")  # type: ignore[attr-defined]

    # Hand 2 (Beat deals): Carla passes, Dario goes Solo and loses 52–62: ×1, doubled.
    expect(editor.locator("h2")).to_contain_text("Hand 2 Beat deals · Carla speaks first")
    call(page, "Dario", "Solo")
    page.click("text=Record the bidding")  # type: ignore[attr-defined]
    expect(editor.locator(".game")).to_contain_text("Game: Solo · Soloist Dario")
    expect(editor).not_to_contain_text("The exchange")
    page.fill("#finish-points", "52")  # type: ignore[attr-defined]
    page.click("text=Score the hand")  # type: ignore[attr-defined]
    expect_balances(page, [10, 10, 60, -90, 10])
    expect(payment(page, "Dario")).to_contain_text(
        "Dario pays 80 (Soloist: 20 to each of 4 opponents)")

    # Hand 3 (Carla deals): everybody passes: a Misère; Anna and Beat tie for the most.
    expect(editor.locator("h2")).to_contain_text("Hand 3 Carla deals · Dario speaks first")
    page.click("text=Record the bidding")  # type: ignore[attr-defined]
    expect(editor.locator(".game")).to_contain_text("Game: Misère")
    for seat, points in enumerate((30, 30, 20, 15, 10)):
        page.fill(f"#misere-points_{seat}", str(points))  # type: ignore[attr-defined]
    page.click("text=Score the Misère")  # type: ignore[attr-defined]
    expect_balances(page, [-20, -20, 80, -70, 30])
    expect(payment(page, "Elsa")).to_contain_text("Elsa receives 20 (10 from each of Anna and "
                                                  "Beat)")
    settle = page.locator("#settle li")  # type: ignore[attr-defined]
    expect(settle).to_have_count(4)
    expect(settle.nth(0)).to_contain_text("Dario pays Carla 70 Rappen")
    expect(page.locator("#undo")).to_contain_text(  # type: ignore[attr-defined]
        "Undo: Misère scored (hand 3)")
    assert page.url == url  # type: ignore[attr-defined]  # htmx: no page load

    # A fresh load shows the same balances.
    page.reload()  # type: ignore[attr-defined]
    expect_balances(page, [-20, -20, 80, -70, 30])
