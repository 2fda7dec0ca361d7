"""Several phones at one table, in Debian's chromium: a hand entered on one phone shows on
another (the view link) within two seconds without a reload; while nothing changes the polls
get 304 and nothing is swapped; the QR codes render; two phones entering the same hand: the
second is told, sees the stored hand and keeps its entry."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.browser

LIVE_WITHIN = 2.0           # the issue: another phone shows the hand within two seconds


def new_match(page: Any, server: str) -> str:
    """Start a Tartli match (Anna – Béla) on this phone; its edit link."""
    page.goto(f"{server}/new/tartli")
    page.fill("#player_a", "Anna")
    page.fill("#player_b", "Béla")
    page.click("text=Start the match")
    page.wait_for_selector("#scoreboard")
    return str(page.url)


def listen(page: Any) -> list[tuple[float, int, str | None]]:
    """Every answer to the scoreboard's polls: (time, status, If-None-Match sent)."""
    polls: list[tuple[float, int, str | None]] = []

    def seen(response: Any) -> None:
        if response.url.endswith("/live"):
            polls.append((time.monotonic(), response.status,
                          response.request.headers.get("if-none-match")))

    page.on("response", seen)
    # What htmx itself makes of them: the status it got, and every swap it did.
    page.evaluate("""() => {
        window.liveStatuses = []; window.swaps = 0;
        document.body.addEventListener('htmx:afterRequest', e => {
            if (e.detail.pathInfo.requestPath.endsWith('/live'))
                window.liveStatuses.push(e.detail.xhr.status);
        });
        document.body.addEventListener('htmx:afterSwap', () => { window.swaps += 1; });
    }""")
    return polls


def mark_scoreboard(page: Any) -> None:
    page.evaluate("""() => {
        window.board = document.querySelector('#scoreboard');
        window.board.dataset.marker = 'kept';
        window.historyBox = document.querySelector('#history');
    }""")


def same_scoreboard(page: Any) -> bool:
    return bool(page.evaluate("""() => window.board === document.querySelector('#scoreboard')
        && document.querySelector('#scoreboard').dataset.marker === 'kept'
        && window.historyBox === document.querySelector('#history')"""))


def start_hand(page: Any, card: str) -> None:
    page.click(f"#editor label[title='{card}']")
    page.click("text=Start hand 1")


def test_a_hand_on_one_phone_shows_on_another_within_two_seconds(
        page: Any, new_page: Callable[[], Any], server: str) -> None:
    expect = playwright_api.expect
    edit_url = new_match(page, server)
    view_link = page.locator("#share figure.link-view a")
    view_url = view_link.get_attribute("href")
    assert view_url and view_url != edit_url
    edit_token = edit_url.rsplit("/", 1)[1]

    viewer = new_page()
    viewer.goto(view_url)
    expect(viewer.locator("#standings")).to_contain_text("Anna")
    assert viewer.locator("form[method='post']").count() == 0
    assert viewer.locator("#editor").count() == 0
    assert edit_token not in viewer.content()
    polls = listen(viewer)
    mark_scoreboard(viewer)

    # Nothing changes: every poll is a 304 that htmx sees and does not swap.
    viewer.wait_for_timeout(2_600)
    etag = viewer.locator("#scoreboard").get_attribute("data-version")
    assert len(polls) >= 2, polls
    assert {status for _, status, _ in polls} == {304}, polls
    assert {sent for _, _, sent in polls} == {f'"{etag}"'}, (polls, etag)
    statuses = viewer.evaluate("window.liveStatuses")
    assert statuses and set(statuses) == {304}, statuses
    assert viewer.evaluate("window.swaps") == 0
    assert same_scoreboard(viewer)

    # The first phone enters a hand.
    start_hand(page, "Eight of hearts")
    expect(page.locator("#editor h3")).to_contain_text("Trick 1")
    page.click("text=Finish the hand")
    page.check("#finish-last-0")
    page.fill("#finish-pile", "100")
    started = time.monotonic()
    page.click("text=Score the hand")
    totals = viewer.locator("#standings tr:nth-child(1) td")
    budget = LIVE_WITHIN * 1000 - (time.monotonic() - started) * 1000
    expect(totals.nth(0)).to_have_text("110", timeout=max(budget, 1))
    expect(totals.nth(1)).to_have_text("51", timeout=max(
        LIVE_WITHIN * 1000 - (time.monotonic() - started) * 1000, 1))
    assert time.monotonic() - started < LIVE_WITHIN
    # Swapped without a reload: a new scoreboard, the hand history and the history of
    # changes came along out of band.
    assert viewer.url == view_url
    assert not same_scoreboard(viewer)
    expect(viewer.locator("#history")).to_contain_text("#1")
    expect(viewer.locator("#changes")).to_contain_text("Hand finished (hand 1)")
    expect(viewer.locator("#changes")).to_contain_text("Chrome on Linux")
    assert viewer.locator("form[method='post']").count() == 0
    assert edit_token not in viewer.content()

    # Quiet again: the new version is asked for, and answered 304.
    # (Two changes were made, the start and the end of the hand: at most one 200 each, each
    # asked with the version shown before it.)
    changed = [p for p in polls if p[1] == 200]
    assert 1 <= len(changed) <= 2 and len({sent for _, _, sent in changed}) == len(changed), \
        polls
    mark_scoreboard(viewer)
    swaps = viewer.evaluate("window.swaps")
    count = len(polls)
    viewer.wait_for_timeout(2_200)
    later = polls[count:]
    new_etag = viewer.locator("#scoreboard").get_attribute("data-version")
    assert new_etag != etag
    assert later and {status for _, status, _ in later} == {304}, later
    assert {sent for _, _, sent in later} == {f'"{new_etag}"'}
    assert viewer.evaluate("window.swaps") == swaps
    assert same_scoreboard(viewer)

    # The phone that made the change got its new scoreboard with the answer: no 200 poll.
    assert totals.nth(0).inner_text() == "110"
    own = page.locator("#scoreboard").get_attribute("data-version")
    assert own and own.rstrip("e") == new_etag.rstrip("v")


def test_the_qr_codes_render(page: Any, new_page: Callable[[], Any], server: str) -> None:
    new_match(page, server)
    share = page.locator("#share")
    playwright_api.expect(share.locator("details")).to_have_attribute("open", "")
    images = share.locator("img")
    assert images.count() == 2
    sizes = images.evaluate_all("imgs => imgs.map(i => [i.complete, i.naturalWidth])")
    assert all(done and width > 0 for done, width in sizes), sizes
    view_url = page.locator("#share figure.link-view a").get_attribute("href")

    viewer = new_page()
    viewer.goto(view_url)
    viewer.click("#share summary")
    images = viewer.locator("#share img")
    assert images.count() == 1
    assert viewer.locator("#share figure.link-view").count() == 1
    viewer.wait_for_function(
        "() => { const i = document.querySelector('#share img'); "
        "return i.complete && i.naturalWidth > 0; }")
    assert images.first.is_visible()


def test_two_phones_enter_the_same_hand(page: Any, new_page: Callable[[], Any],
                                        server: str) -> None:
    expect = playwright_api.expect
    edit_url = new_match(page, server)
    other = new_page()
    other.goto(edit_url)
    expect(other.locator("#editor")).to_contain_text("Hand 1")

    # Both tap an indicator for hand 1; the first to send it wins.
    other.click("#editor label[title='Nine of leaves']")      # typed, not sent yet
    start_hand(page, "Eight of hearts")
    expect(page.locator(".trumps")).to_contain_text("hearts")
    # The other phone's poll warns its editor at once; the form stays as it is.
    expect(other.locator("#editor-stale")).to_contain_text(
        "Hand 1 was just changed on another phone", timeout=LIVE_WITHIN * 1000)
    other.click("text=Start hand 1")
    conflict = other.locator("#conflict")
    expect(conflict).to_be_visible()
    expect(conflict).to_contain_text("Stored meanwhile: hand 1")
    expect(other.locator("#rule-error")).to_contain_text("changed on another device meanwhile")
    expect(other.locator("#editor input[name='indicator-indicator'][value='9l']")).to_be_checked()
    # offered as hand 2 (issue 21), never as a change of the hand the first phone started
    expect(other.locator("#editor h2")).to_contain_text("Hand 2")
    expect(other.locator("#rule-error")).to_contain_text("once hand 1 is finished")
    assert other.url == edit_url
    other.click("#conflict a:has-text('leave it')")           # back to the match as it is
    expect(other.locator(".trumps")).to_contain_text("hearts")      # the stored hand's editor

    # Both finish hand 1 with different pile counts: the second keeps what it typed.
    for phone in (page, other):
        phone.click("text=Finish the hand")
        phone.check("#finish-last-0")
    page.fill("#finish-pile", "100")
    other.fill("#finish-pile", "90")
    page.click("text=Score the hand")
    expect(page.locator("#standings tr:nth-child(1) td").nth(0)).to_have_text("110")
    expect(other.locator("#editor-stale")).to_contain_text(
        "Hand 1 was just changed on another phone", timeout=LIVE_WITHIN * 1000)
    other.click("text=Score the hand")
    # both versions, by name and score (issue 21: not "110 : 51")
    expect(other.locator("#conflict")).to_contain_text("Anna 110, Béla 51")
    expect(other.locator("#conflict")).to_contain_text("Yours, not saved: Anna 100, Béla 61")
    expect(other.locator("#finish-pile")).to_have_value("90")
    expect(other.locator("#finish-last-0")).to_be_checked()
    # Sent again on purpose, it replaces the stored hand.
    other.click("text=Score the hand")
    expect(other.locator("#standings tr:nth-child(1) td").nth(0)).to_have_text("100")
    expect(other.locator("#conflict")).to_have_count(0)
    # ... and the first phone sees that within its next polls.
    expect(page.locator("#standings tr:nth-child(1) td").nth(0)).to_have_text(
        "100", timeout=LIVE_WITHIN * 1000)
