"""A short Tartli match played through the real pages in Debian's chromium."""

from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.browser



def tap_cards(page: object, picker: str, titles: list[str]) -> None:
    declares = page.locator(f"details.declare:has({picker})")  # type: ignore[attr-defined]
    if declares.get_attribute("open") is None:
        declares.locator("summary").click()     # a player's card picker opens on demand
    for title in titles:
        page.locator(picker).locator(f"label[title='{title}']").click()  # type: ignore[attr-defined]


def test_a_short_match_to_a_buli_and_its_scoresheet(page: object, server: str,
                                                      tmp_path: Path) -> None:
    expect = playwright_api.expect
    page.goto(f"{server}/new/tartli")  # type: ignore[attr-defined]
    page.fill("#player_a", "Anna")  # type: ignore[attr-defined]
    page.fill("#player_b", "Béla")  # type: ignore[attr-defined]
    page.click("text=Start the match")  # type: ignore[attr-defined]

    # Hand 1: Anna deals, Béla leads. Trumps hearts.
    page.click("label[title='Eight of hearts']")  # type: ignore[attr-defined]
    page.click("text=Start hand 1")  # type: ignore[attr-defined]
    page.click("button:has-text('Anna won trick 1')")  # type: ignore[attr-defined]
    expect(page.locator("h3")).to_contain_text("Trick 2 · Anna leads")  # type: ignore[attr-defined]

    # Trick 2: Anna declares a kvart, Béla answers with a higher one: decided at once.
    url_before = page.url  # type: ignore[attr-defined]
    tap_cards(page, "#trick-cards_0",
              ["Over of acorns", "Under of acorns", "Ten of acorns", "Nine of acorns"])
    tap_cards(page, "#trick-cards_1",
              ["King of leaves", "Over of leaves", "Under of leaves", "Ten of leaves"])
    page.click("text=Check declarations")  # type: ignore[attr-defined]
    verdict = page.locator("form.trick .verdict")  # type: ignore[attr-defined]
    expect(verdict).to_contain_text("Béla scores 50")
    expect(verdict).to_contain_text("the higher top card wins")
    assert page.url == url_before  # type: ignore[attr-defined]  # htmx: no page load

    # A rejected declaration keeps what was tapped and says why.
    page.click("button:has-text('Béla won trick 2')")  # type: ignore[attr-defined]
    expect(page.locator("h3")).to_contain_text("Trick 3 · Béla leads")  # type: ignore[attr-defined]
    tap_cards(page, "#trick-cards_1", ["Ace of bells", "King of bells", "Over of bells",
                                       "Under of bells"])
    tap_cards(page, "#trick-cards_0", ["Ace of hearts", "King of hearts", "Over of hearts"])
    page.click("text=Check declarations")  # type: ignore[attr-defined]
    expect(page.locator(".error")).to_contain_text("4.5")  # type: ignore[attr-defined]
    expect(page.locator("#trick-cards_0 input[value='Ah']")).to_be_checked()  # type: ignore[attr-defined]

    # Finish the hand: Anna's pile 100 (Béla's 51 derived), Anna took the last trick.
    page.click("text=Finish the hand")  # type: ignore[attr-defined]
    page.check("#finish-last-0")  # type: ignore[attr-defined]
    page.fill("#finish-pile", "100")  # type: ignore[attr-defined]
    page.click("text=Score the hand")  # type: ignore[attr-defined]
    totals = page.locator("#standings")  # type: ignore[attr-defined]
    expect(totals).to_contain_text("110")
    expect(totals).to_contain_text("101")

    # Hand 2: Béla deals; Anna claims 501 at once with 110 points: wrong, Béla takes 1 buli.
    page.click("label[title='Nine of leaves']")  # type: ignore[attr-defined]
    page.click("text=Start hand 2")  # type: ignore[attr-defined]
    page.click("text=Claim 501")  # type: ignore[attr-defined]
    page.check("#claim-claimant-0")  # type: ignore[attr-defined]
    page.fill("#claim-pile_0", "0")  # type: ignore[attr-defined]
    page.fill("#claim-pile_1", "0")  # type: ignore[attr-defined]
    page.click("text=Give the verdict")  # type: ignore[attr-defined]
    expect(page.locator(".hands")).to_contain_text("Béla wins 1 buli")  # type: ignore[attr-defined]
    buli = page.locator("#standings tr:nth-child(2) td")  # type: ignore[attr-defined]
    expect(buli.nth(0)).to_have_text("0")
    expect(buli.nth(1)).to_have_text("1")

    page.click("summary:has-text('Downloads')")  # type: ignore[attr-defined]  # folded
    with page.expect_download() as download_info:  # type: ignore[attr-defined]
        page.click("text=Scoresheet (PDF)")  # type: ignore[attr-defined]
    target = tmp_path / "sheet.pdf"
    download_info.value.save_as(target)
    # whitespace squashed: a meld's name may wrap in its cell
    text = " ".join(" ".join(p.extract_text() for p in PdfReader(target).pages).split())
    assert "Anna – Béla" in text
    assert "Kvart to the King of leaves" in text
    assert "110 < 501: wrong" in text
    assert "Béla +1" in text
