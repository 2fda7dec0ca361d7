"""The table in Debian's chromium (issue 11, items 8 and 9): a phone's own submission never
warns "changed on another phone", even with a slow network while its poll runs, and another
phone's change still warns within two seconds; the page in dark colours at night; the screen
kept awake while a match page is shown (with a switch), released when hidden; no polling while
hidden. All of it from files: the CSP (no inline script, no eval) reports nothing."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from test_live import LIVE_WITHIN, new_match

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.browser

SLOW = 0.4                  # seconds the network takes to bring back the phone's own answer
WARNING = "just changed on another phone"


def csp_reports(page: Any) -> list[str]:
    """What chromium says about the Content-Security-Policy (a refused inline script, eval)."""
    reports: list[str] = []
    page.on("console", lambda message: reports.append(message.text)
            if "Content Security Policy" in message.text else None)
    return reports


def slow_network(page: Any) -> None:
    """Every hand the phone sends reaches the server at once; its answer comes back SLOW
    seconds later (meanwhile the poll runs)."""
    def late(route: Any) -> None:
        answer = route.fetch()
        time.sleep(SLOW)
        route.fulfill(response=answer)

    page.route(lambda url: "/hands/" in url, late)


def watch_warnings(page: Any) -> None:
    """Every text the editor's warning ever shows, however briefly."""
    page.evaluate("""() => {
        window.warnings = [];
        performance.setResourceTimingBufferSize(5000);
        new MutationObserver(() => {
            const box = document.querySelector('#editor-stale');
            const text = box ? box.textContent.trim() : '';
            if (text && window.warnings[window.warnings.length - 1] !== text)
                window.warnings.push(text);
        }).observe(document.body, {childList: true, subtree: true, characterData: true});
    }""")


def raced_polls(page: Any) -> int:
    """Polls answered with a new scoreboard that left while one of the phone's own
    submissions was on its way: each would have said the phone's own change was another's."""
    return int(page.evaluate("""() => {
        const all = performance.getEntriesByType('resource');
        const posts = all.filter(e => e.name.includes('/hands/'));
        const polls = all.filter(e => e.name.includes('/live') && e.responseStatus === 200);
        return polls.filter(p => posts.some(
            s => p.startTime > s.startTime && p.startTime < s.responseEnd)).length;
    }"""))


def test_a_phones_own_submissions_never_warn_and_another_phones_change_does(
        page: Any, new_page: Callable[[], Any], server: str) -> None:
    expect = playwright_api.expect
    reports = csp_reports(page)
    edit_url = new_match(page, server)
    slow_network(page)
    watch_warnings(page)
    submissions = 0

    def send(button: str, then: str) -> None:
        nonlocal submissions
        page.click(button)
        submissions += 1
        expect(page.locator("#editor")).to_contain_text(then)
        page.wait_for_timeout(300)          # a little more time for a poll to race the next

    send("#editor label[title='Eight of hearts']", "Hand 1")
    send("text=Start hand 1", "Trick 1")
    submissions -= 1                        # tapping a card is not a submission
    for trick in range(1, 17):
        winner = "Anna" if trick % 2 else "Béla"
        after = f"Trick {trick + 1}" if trick < 16 else "Score the hand"
        send(f"button:has-text('{winner} won trick {trick}')", after)
    page.fill("#finish-pile", "100")
    send("text=Score the hand", "Hand 2")
    page.click("#editor label[title='Nine of leaves']")
    send("text=Start hand 2", "Trick 1")
    send("button:has-text('Béla won trick 1')", "Trick 2")
    assert submissions == 20
    page.wait_for_timeout(1_500)
    assert page.evaluate("window.warnings") == []
    # The race did happen: polls answered with a new version left while an answer was late.
    assert raced_polls(page) >= 1

    # Another phone's change warns within two seconds, slow network or not, an editor with
    # something typed into it (an untouched one follows the match: test_phones.py).
    page.click("text=Finish the hand")
    page.fill("#finish-pile", "70")
    other = new_page()
    other.goto(edit_url)
    other.click("button:has-text('Anna won trick 2')")
    expect(other.locator("#editor")).to_contain_text("Trick 3")
    started = time.monotonic()
    expect(page.locator("#editor-stale")).to_contain_text(
        f"Hand 2 was {WARNING}", timeout=LIVE_WITHIN * 1000)
    assert time.monotonic() - started < LIVE_WITHIN
    assert reports == []


def luminance(rgb: list[float]) -> float:
    def channel(value: float) -> float:
        value /= 255
        return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4
    red, green, blue = (channel(v) for v in rgb[:3])
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast(one: list[float], two: list[float]) -> float:
    light, dark = sorted((luminance(one), luminance(two)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


TEXTS = """() => {
    const rgb = s => (s.match(/[\\d.]+/g) || []).map(Number);
    const backdrop = el => {
        for (; el; el = el.parentElement) {
            const c = rgb(getComputedStyle(el).backgroundColor);
            if (c.length === 3 || (c.length === 4 && c[3] > 0)) return c;
        }
        return [255, 255, 255];
    };
    const out = [];
    for (const el of document.querySelectorAll('body *')) {
        const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
        const box = el.getBoundingClientRect();
        const style = getComputedStyle(el);
        if (!own || box.width === 0 || box.right < 0 || style.visibility === 'hidden'
            || el.closest('[hidden], details:not([open]) > :not(summary)')) continue;
        out.push([el.tagName + '.' + el.className + ' ' + el.textContent.trim().slice(0, 30),
                  rgb(style.color), backdrop(el)]);
    }
    return out;
}"""


def match_at_night(chromium: Any, server: str, scheme: str) -> Any:
    page = chromium.new_context(color_scheme=scheme, viewport={"width": 390, "height": 844}) \
        .new_page()
    page.set_default_timeout(15_000)
    new_match(page, server)
    page.click("#editor label[title='Eight of hearts']")
    page.click("text=Start hand 1")
    page.click("button:has-text('Anna won trick 1')")
    # the answer swapped in before the next tap (else the tap may land on the old trick)
    playwright_api.expect(page.locator("#editor")).to_contain_text("Trick 2")
    page.locator(".declare").first.locator("summary").click()  # the picker opens on demand
    page.locator(".declare").first.locator("label[title='Seven of leaves']").click()
    page.click("text=Check declarations")        # no such meld: the refusal is shown
    playwright_api.expect(page.locator("#rule-error")).to_be_visible()
    page.click("text=Finish the hand")
    return page


def test_the_page_is_dark_at_night_with_readable_text(chromium: Any, server: str) -> None:
    day = match_at_night(chromium, server, "light")
    paper = day.evaluate("getComputedStyle(document.documentElement).backgroundColor")
    assert luminance([float(v) for v in paper[4:-1].split(",")]) > 0.8
    page = match_at_night(chromium, server, "dark")
    reports = csp_reports(page)
    paper = page.evaluate("getComputedStyle(document.documentElement).backgroundColor")
    ink = page.evaluate("getComputedStyle(document.body).color")
    assert luminance([float(v) for v in paper[4:-1].split(",")]) < 0.02, paper
    assert luminance([float(v) for v in ink[4:-1].split(",")]) > 0.7, ink
    texts = page.evaluate(TEXTS)
    assert len(texts) > 30
    poor = [(what, round(contrast(fg, bg), 2)) for what, fg, bg in texts
            if contrast(fg, bg) < 4.5]
    assert poor == [], poor                      # WCAG AA for every text on the page
    for selector in ("#rule-error", "#standings", "#editor", ".top"):
        assert page.locator(selector).first.is_visible()
    # ... and every other page a table opens at night.
    for path in ("/", "/new/tartli", "/new/stovkahra", "/new/marjolet", "/new/troggu"):
        page.goto(server + path)
        texts = page.evaluate(TEXTS)
        assert texts, path
        poor = [(what, round(contrast(fg, bg), 2)) for what, fg, bg in texts
                if contrast(fg, bg) < 4.5]
        assert poor == [], (path, poor)
    assert reports == []


FAKE_WAKE_LOCK = """
    window.wakeCalls = [];
    const wakeLock = {request(type) {
        window.wakeCalls.push('request:' + type);
        const sentinel = new EventTarget();
        sentinel.type = type; sentinel.released = false;
        sentinel.release = () => {
            window.wakeCalls.push('release');
            sentinel.released = true;
            sentinel.dispatchEvent(new Event('release'));
            return Promise.resolve();
        };
        return Promise.resolve(sentinel);
    }};
    Object.defineProperty(Navigator.prototype, 'wakeLock',
                          {configurable: true, get: () => wakeLock});
    window.setHidden = hidden => {
        Object.defineProperty(document, 'hidden', {configurable: true, get: () => hidden});
        Object.defineProperty(document, 'visibilityState', {configurable: true,
            get: () => hidden ? 'hidden' : 'visible'});
        document.dispatchEvent(new Event('visibilitychange'));
    };
"""


def test_the_screen_stays_on_while_a_match_page_is_shown(page: Any, server: str) -> None:
    expect = playwright_api.expect
    reports = csp_reports(page)
    page.add_init_script(FAKE_WAKE_LOCK)
    page.goto(server)
    page.wait_for_timeout(300)
    assert page.evaluate("window.wakeCalls") == []          # only a match page keeps it on
    new_match(page, server)
    switch = page.locator("#keep-awake")
    expect(switch).to_be_visible()
    expect(switch).to_be_checked()
    expect(page.locator("label:has(#keep-awake)")).to_contain_text("Keep the screen on")
    page.wait_for_function("window.wakeCalls.length === 1")
    assert page.evaluate("window.wakeCalls") == ["request:screen"]
    polls: list[float] = []
    page.on("request", lambda r: polls.append(time.monotonic()) if "/live" in r.url else None)

    # Hidden (the phone in a pocket): the lock is released and the polls stop.
    page.evaluate("setHidden(true)")
    assert page.evaluate("window.wakeCalls") == ["request:screen", "release"]
    page.wait_for_timeout(300)
    quiet = len(polls)
    page.wait_for_timeout(2_500)
    assert len(polls) == quiet
    # Shown again: asked for again, and the scoreboard is polled again.
    page.evaluate("setHidden(false)")
    page.wait_for_function("window.wakeCalls.length === 3")
    assert page.evaluate("window.wakeCalls")[2] == "request:screen"
    page.wait_for_timeout(2_200)
    assert len(polls) > quiet

    # The switch: off releases at once and is remembered on this phone.
    switch.uncheck()
    page.wait_for_function("window.wakeCalls.length === 4")
    assert page.evaluate("window.wakeCalls")[3] == "release"
    page.reload()
    expect(page.locator("#keep-awake")).not_to_be_checked()
    page.wait_for_timeout(500)
    page.evaluate("setHidden(true)")
    page.evaluate("setHidden(false)")
    page.wait_for_timeout(300)
    assert page.evaluate("window.wakeCalls") == []           # the new page asked nothing
    page.locator("#keep-awake").check()
    page.wait_for_function("window.wakeCalls.length === 1")
    assert page.evaluate("window.wakeCalls") == ["request:screen"]
    assert reports == []


def test_without_the_wake_lock_api_there_is_no_switch(page: Any, server: str) -> None:
    page.add_init_script("delete Navigator.prototype.wakeLock;")
    new_match(page, server)
    page.wait_for_timeout(300)
    assert page.evaluate("'wakeLock' in navigator") is False
    assert page.locator("#keep-awake").count() == 1
    assert not page.locator("#keep-awake").is_visible()
