"""The chart of the running totals on a 390 px phone, by day and at night (issue 13): it fits
the width, its text is drawn at 14 px or more, each line takes its colour from the site's CSS
(the dark ones at night), the names in the legend read with text contrast, and the CSP refuses
nothing."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

DATA = Path(__file__).resolve().parents[1] / "data"

COLOURS = """() => {
    const rgb = s => s.match(/[\\d.]+/g).slice(0, 3).map(Number);
    const chart = document.querySelector('#chart svg');
    let paper = null;
    for (let el = chart; el && !paper; el = el.parentElement) {
        const bg = getComputedStyle(el).backgroundColor;
        if (!/rgba\\(.*, 0\\)$/.test(bg) && bg !== 'transparent') paper = rgb(bg);
    }
    const lines = [...chart.querySelectorAll('g.series')].map(g => ({
        stroke: rgb(getComputedStyle(g.querySelector('polyline')).stroke),
        text: rgb(getComputedStyle(g.querySelector('text')).fill),
        variable: getComputedStyle(document.documentElement)
            .getPropertyValue('--chart-' + g.classList[1].split('-')[1]).trim(),
    }));
    const box = chart.getBoundingClientRect();
    const sizes = [...chart.querySelectorAll('text')].map(
        t => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a);
    return {paper, lines, left: box.left, right: box.right, width: innerWidth,
            scroll: document.documentElement.scrollWidth, smallest: Math.min(...sizes)};
}"""


def luminance(rgb: list[float]) -> float:
    def channel(value: float) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(one: list[float], two: list[float]) -> float:
    light, dark = sorted((luminance(one), luminance(two)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def hex_rgb(value: str) -> list[float]:
    return [float(int(value[i:i + 2], 16)) for i in (1, 3, 5)]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_chart_on_a_phone_by_day_and_at_night(
    chromium: Any, server: str, scheme: str
) -> None:
    page = chromium.new_context(color_scheme=scheme, viewport={"width": 390, "height": 844}) \
        .new_page()
    page.set_default_timeout(15_000)
    reports: list[str] = []
    page.on("console", lambda message: reports.append(message.text)
            if "Content Security Policy" in message.text else None)
    page.goto(server)
    form = page.locator("form[action='/import']")          # the match's (not a circle's)
    form.locator("input[type=file]").set_input_files(str(DATA / "troggu-evening.json"))
    form.locator("button:text-is('Import')").click()
    playwright_api.expect(page.locator(".notice")).to_contain_text("Match imported")
    page.goto(re.sub(r"[?#].*", "", page.url))
    chart = page.locator("#chart svg")
    assert not chart.is_visible()                       # folded: the first screen is the table's
    page.click("#chart summary")
    playwright_api.expect(chart).to_be_visible()
    assert chart.get_attribute("role") == "img"
    assert "Anna −110" in (chart.get_attribute("aria-label") or "")
    found = page.evaluate(COLOURS)
    assert found["left"] >= 0 and found["right"] <= found["width"]
    assert found["scroll"] <= found["width"]            # nothing wider than the phone
    assert found["smallest"] >= 14                      # every text as drawn, as on the page
    assert len(found["lines"]) == 4
    for line in found["lines"]:
        assert line["stroke"] == hex_rgb(line["variable"])      # the site's CSS, per scheme
        assert line["text"] == line["stroke"]
        assert contrast(line["text"], found["paper"]) >= 4.5, (line, found["paper"])
    assert (luminance(found["paper"]) < 0.05) == (scheme == "dark")
    assert reports == []
    axe = pytest.importorskip("axe_playwright_python.sync_playwright")
    results = axe.Axe().run(page, options={"resultTypes": ["violations"]}).response
    grave = [(v["id"], [n["html"][:80] for n in v["nodes"]]) for v in results["violations"]
             if v["impact"] in ("serious", "critical")]
    assert grave == []                                  # the open chart included


def imported_evening(chromium: Any, server: str) -> Any:
    """A phone's page of the Troggu evening of tests/data, imported."""
    page = chromium.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.set_default_timeout(15_000)
    page.goto(server)
    form = page.locator("form[action='/import']")
    form.locator("input[type=file]").set_input_files(str(DATA / "troggu-evening.json"))
    form.locator("button:text-is('Import')").click()
    playwright_api.expect(page.locator(".notice")).to_contain_text("Match imported")
    page.goto(re.sub(r"[?#].*", "", page.url))
    return page


def test_after_a_change_the_chart_loads_when_opened(chromium: Any, server: str) -> None:
    """Issue 12: the answer to a change carries the folded chart only; opened, it shows the
    chart of the match as it now stands (one hand fewer after a delete)."""
    page = imported_evening(chromium, server)
    page.on("dialog", lambda dialog: dialog.accept())
    page.click("#hand-6-record summary")
    page.locator("#hand-6-record button:text-is('Delete')").click()
    playwright_api.expect(page.locator("#hand-6")).to_have_count(0)
    chart = page.locator("#chart svg")
    playwright_api.expect(chart).to_have_count(0)              # not sent with the answer
    page.click("#chart summary")
    playwright_api.expect(chart).to_be_visible()
    assert "after hand 5," in (chart.get_attribute("aria-label") or "")


def test_an_open_chart_stays_open_after_a_change_and_shows_it(
        chromium: Any, server: str) -> None:
    """The chart opened, then a hand deleted: the answer brings the panel back, open, with
    the chart of the match as it now stands (it used to come back folded)."""
    page = imported_evening(chromium, server)
    chart = page.locator("#chart svg")
    page.click("#chart summary")
    playwright_api.expect(chart).to_be_visible()
    assert "after hand 5," in (chart.get_attribute("aria-label") or "")
    page.on("dialog", lambda dialog: dialog.accept())
    page.click("#hand-5-record summary")
    page.locator("#hand-5-record button:text-is('Delete')").click()
    playwright_api.expect(page.locator("#hand-6")).to_have_count(0)
    playwright_api.expect(chart).to_have_attribute("aria-label", re.compile("after hand 4,"))
    assert page.locator("#chart").evaluate("details => details.open")


def test_an_open_chart_follows_a_change_made_on_another_phone(
        chromium: Any, server: str) -> None:
    """The chart open on one phone, a hand deleted on another: the scoreboard's new version
    loads the chart again, as the match now stands. Loading the chart only adds to the page:
    a hand's row opened before stays open through the scoreboard's redraw, as it does
    without the chart."""
    page = imported_evening(chromium, server)
    chart = page.locator("#chart svg")
    page.click("#hand-3-record summary")
    page.click("#chart summary")
    playwright_api.expect(chart).to_have_attribute("aria-label", re.compile("after hand 5,"))
    other = chromium.new_context(viewport={"width": 390, "height": 844}).new_page()
    other.set_default_timeout(15_000)
    other.goto(page.url)
    other.on("dialog", lambda dialog: dialog.accept())
    other.click("#hand-5-record summary")
    other.locator("#hand-5-record button:text-is('Delete')").click()
    playwright_api.expect(other.locator("#hand-6")).to_have_count(0)
    playwright_api.expect(chart).to_have_attribute("aria-label", re.compile("after hand 4,"))
    playwright_api.expect(page.locator("#hand-6")).to_have_count(0)        # redrawn
    assert page.locator("#hand-3-record").evaluate("details => details.open")
