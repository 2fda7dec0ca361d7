"""Small things seen at the table (issue 21, item 9), in Debian's chromium on a phone
(390×844): what the page says as it is filled in, where the focus goes, what is scrolled into
view, and how the bidding's legend and the charts are drawn."""

from __future__ import annotations

from typing import Any

import pytest
from phone import new_troggu as start_troggu
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


def new_troggu(page: Any, server: str, names: list[str]) -> None:
    """A Troggu match for ``names``, its first hand's bidding recorded: Carla takes."""
    start_troggu(page, server, names)
    page.locator(".call-row").filter(has_text="Carla").locator("label.call").filter(
        has_text="normal").click()
    page.click("text=Record the bidding")
    playwright_api.expect(page.locator("#editor .verdict")).to_contain_text("Carla is Tappist")


def test_troggu_points_out_of_range_are_said_at_the_field(phone: Any, server: str) -> None:
    """121 card points: refused on the page, beside the field, with its rule, what was typed
    kept (not only by the browser's tooltip, which goes away)."""
    new_troggu(phone, server, ["Anna", "Beat", "Carla", "Dario"])
    points = phone.locator("#finish-points")
    points.fill("121")
    phone.locator("#editor button:text-is('Score the hand')").click()
    said = phone.locator("#finish-points-error-1")
    playwright_api.expect(said).to_contain_text("Card points are 0 to 114 (rule 6.3.2)")
    playwright_api.expect(points).to_have_value("121")
    assert points.get_attribute("aria-describedby") == "finish-points-error-1"


# The boxes of the time axis's texts as drawn: its title ("Hands") and its ticks.
AXIS_TEXTS = r"""
() => [...document.querySelectorAll('svg.chart')].map((svg) => {
  const bottom = Math.max(...[...svg.querySelectorAll('text.tick')].map((t) => t.getBBox().y));
  return [...svg.querySelectorAll('text.tick')]
    .filter((t) => Math.abs(t.getBBox().y - bottom) < 1)
    .map((t) => { const b = t.getBBox(); return [t.textContent, b.x, b.x + b.width]; });
})
"""


def test_the_time_axis_title_overlaps_no_tick(phone: Any) -> None:
    """Charts of 1 to 60 hands, as a phone and a scoresheet draw them: "Hands" and every
    number under the time axis stand apart (measured in chromium)."""
    from referee.charts import PAPER, PHONE, Series, line_chart
    charts = [
        line_chart([Series("Anna", tuple((x, x * 37 % 50) for x in range(n + 1)))],
                   title="t", x_label="Hands", x_range=(0, n), layout=layout)
        for layout in (PHONE, PAPER) for n in range(1, 61)]
    phone.set_content("".join(f'<div style="width:358px">{svg}</div>' for svg in charts))
    for index, axis in enumerate(phone.evaluate(AXIS_TEXTS)):
        gap = (PHONE if index < 60 else PAPER).font / 2          # half a letter at least
        title = next(box for box in axis if box[0] == "Hands")
        for text, left, right in axis:
            if text != "Hands":
                assert left >= title[2] + gap or right <= title[1], (index, title, text, left)


# Each shown fieldset's legend against its box: a legend drawn on the border has its top at the
# fieldset's top (the border drawn through its middle: through a legend of two lines).
LEGENDS = r"""
(root) => [...document.querySelectorAll(root + ' fieldset')].filter((f) => f.offsetParent)
  .map((f) => {
    const legend = f.querySelector(':scope > legend');
    const box = f.getBoundingClientRect(), l = legend.getBoundingClientRect();
    return [legend.textContent.trim(), l.top - box.top, l.height, l.left - box.left,
            box.right - l.right];
  })
"""


def test_the_biddings_legends_stay_inside_their_boxes(phone: Any, server: str) -> None:
    """At 390 px the bidding's legends take two lines ("Only if everybody passes (forced
    game, rule 4.5.1)"): each stays within its fieldset, none across its border."""
    start_troggu(phone, server)
    legends = phone.evaluate(LEGENDS, "details.bids")
    assert any(height > 30 for _, _, height, _, _ in legends), legends   # some take two lines
    for text, top, height, left, right in legends:
        assert left >= 0 and right >= 0, (text, left, right)
        if height > 30:                    # two lines: inside the box, under its top border
            assert top >= 1, (text, top)


def focus(page: Any) -> dict[str, Any]:
    """The focused element after the answer settled: what it is, and whether it is on the
    screen."""
    page.wait_for_load_state("networkidle")
    # the focus is placed once every part settled (later on a loaded machine): wait up to 5 s
    # for it to leave <body>; where it never does, the caller's assertion says so
    for _ in range(50):                         # (not wait_for_function: the CSP forbids eval)
        page.wait_for_timeout(100)
        if page.evaluate("() => document.activeElement !== document.body"):
            break
    return dict(page.evaluate("""() => {
        const el = document.activeElement, box = el.getBoundingClientRect();
        return {tag: el.tagName, id: el.id, text: (el.innerText || '').trim().slice(0, 60),
                seen: box.bottom > 0 && box.top < innerHeight && box.height > 0};
    }"""))


def test_the_focus_goes_to_what_is_next_on_the_screen(phone: Any, server: str) -> None:
    """Start deal, Declare (Stovkahra), Record the bidding (Troggu) and a refusal: the focus
    never goes back to <body>, and lands on something on the screen."""
    phone.goto(f"{server}/new/stovkahra")
    for field, name in zip(["north", "east", "south", "west"], ["Jana", "Petr", "Eva", "Karel"]):
        phone.fill(f"#{field}", name)
    phone.click("text=Start the series")
    phone.click("text=Start deal 1")
    now = focus(phone)
    assert now["tag"] != "BODY" and now["seen"], now

    def declare(seat: str) -> None:
        phone.locator("details.combination > summary").click()
        phone.check(f"input[name='combination-seat'][value='{seat}']")
        phone.select_option("#combination-count", "3")
        phone.select_option("#combination-rank", "A")
        phone.click("button:has-text('Declare')")

    declare("0")
    now = focus(phone)
    assert now["tag"] != "BODY" and now["seen"], now
    assert now["text"].startswith("So far: Jana & Eva 30"), now
    declare("1")                                 # six aces: refused (rule 4.5)
    now = focus(phone)
    assert now["id"] == "rule-error" and now["seen"], now
    start_troggu(phone, server)
    phone.click("text=Record the bidding")
    now = focus(phone)
    assert now["tag"] != "BODY" and now["seen"], now


@pytest.mark.parametrize(("name", "button"), [("tartli-short", "Score the hand"),
                                               ("tartli-complete", "Give the verdict"),
                                               ("marjolet-game", "Score the deal")])
def test_an_earlier_hands_editor_opens_with_its_score_button_in_view(
        phone: Any, server: str, name: str, button: str) -> None:
    import re
    from pathlib import Path

    from phone import in_view
    phone.goto(server)
    form = phone.locator("form[action='/import']")
    form.locator("input[type=file]").set_input_files(
        str(Path(__file__).parents[1] / "data" / f"{name}.json"))
    form.locator("button:text-is('Import')").click()
    playwright_api.expect(phone.locator(".notice")).to_contain_text("Match imported")
    match = re.sub(r"[?#].*", "", phone.url)
    phone.goto(f"{match}/hands/1")
    score = phone.locator(f"#editor button:text-is('{button}')")
    playwright_api.expect(score).to_be_focused()
    assert in_view(score), (score.bounding_box(), phone.evaluate("() => scrollY"))
