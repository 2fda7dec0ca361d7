"""The card pickers in Debian's chromium (issue 11, items 10 and 12): each pack's suit marks
are drawn, the card rows fit a 320 px phone without sideways scrolling, a tapped card differs
from an untapped one by more than colour and also in forced-colours mode, and the keyboard gets
past a picker with one link."""

from __future__ import annotations

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.browser

SIDEWAYS = """() => {
  const wide = [...document.querySelectorAll('.picker, .suit-row')]
    .filter((el) => el.scrollWidth > el.clientWidth + 1 || el.getBoundingClientRect().right
            > document.documentElement.clientWidth + 0.5)
    .map((el) => `${el.id || el.className} ${el.scrollWidth} in ${el.clientWidth}`);
  if (document.documentElement.scrollWidth > window.innerWidth) {
    wide.push(`the page is ${document.documentElement.scrollWidth} px wide`);
  }
  return wide;
}"""

# What a card shows: its box's border and outline, its background, its tick, its mark.
LOOK = """(label) => {
  const face = label.querySelector('.face'), s = getComputedStyle(face);
  const tick = getComputedStyle(face, '::after');
  const mark = face.querySelector('.suit');
  return {border: `${s.borderTopWidth} ${s.borderTopStyle}`, outline: s.outlineStyle,
          background: s.backgroundColor, tick: tick.content !== 'none' && tick.width !== 'auto',
          mark: mark ? getComputedStyle(mark).backgroundColor : null};
}"""


def open_editor(page: object) -> None:
    page.wait_for_function(  # type: ignore[attr-defined]
        "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")
    page.evaluate(  # type: ignore[attr-defined]
        "() => document.querySelectorAll('#editor details').forEach(d => { d.open = true; })")


def tartli_hand(page: object, server: str) -> None:
    """A Tartli match of Anna and Béla with hand 1 started (trumps hearts)."""
    page.goto(f"{server}/new/tartli")  # type: ignore[attr-defined]
    page.fill("#player_a", "Anna")  # type: ignore[attr-defined]
    page.fill("#player_b", "Béla")  # type: ignore[attr-defined]
    page.click("text=Start the match")  # type: ignore[attr-defined]
    page.click("label[title='Eight of hearts']")  # type: ignore[attr-defined]
    page.click("text=Start hand 1")  # type: ignore[attr-defined]
    playwright_api.expect(page.locator("p.trumps")).to_contain_text("hearts")  # type: ignore[attr-defined]
    open_editor(page)


def troggu_hand(page: object, server: str) -> None:
    """A Troggu match of five with Carla's discard to tap."""
    page.goto(f"{server}/new/troggu")  # type: ignore[attr-defined]
    seats = page.locator("input[name='players']")  # type: ignore[attr-defined]
    for seat, name in enumerate(["Anna", "Beat", "Carla", "Dario", "Elsa"]):
        seats.nth(seat).fill(name)
    page.click("text=Start the match")  # type: ignore[attr-defined]
    row = page.locator(".call-row").filter(has_text="Carla")  # type: ignore[attr-defined]
    row.locator("label.call").filter(has_text="normal").click()
    page.click("text=Record the bidding")  # type: ignore[attr-defined]
    page.locator("details.discard > summary").click()  # type: ignore[attr-defined]
    playwright_api.expect(page.locator("#discard-cards")).to_be_visible()  # type: ignore[attr-defined]
    open_editor(page)


@pytest.mark.parametrize("game", ["tartli", "troggu"])
def test_the_card_rows_fit_320_px(page: object, server: str, game: str) -> None:
    """A hand in progress with every picker open scrolls no card row sideways on a 320 px
    phone; every card keeps its 44 px."""
    (tartli_hand if game == "tartli" else troggu_hand)(page, server)
    page.set_viewport_size({"width": 320, "height": 700})  # type: ignore[attr-defined]
    assert page.evaluate(SIDEWAYS) == []  # type: ignore[attr-defined]
    sizes = page.evaluate(  # type: ignore[attr-defined]
        "() => [...document.querySelectorAll('#editor label.card')].map((l) => {"
        " const r = l.getBoundingClientRect(); return Math.min(r.width, r.height); })")
    assert sizes and min(sizes) >= 44


def test_each_suit_is_drawn_with_its_own_mark(page: object, server: str) -> None:
    """Every mark's image loads (a 200 from static/) and the mark is drawn, not blank."""
    loaded: dict[str, int] = {}
    page.on("response", lambda r: loaded.__setitem__(r.url.rsplit("/", 1)[-1], r.status)  # type: ignore[attr-defined]
            if "/img/suits/" in r.url else None)
    troggu_hand(page, server)
    page.wait_for_load_state("networkidle")  # type: ignore[attr-defined]
    for suit in ("cups", "coins", "swords", "batons"):
        assert loaded.get(f"{suit}.svg") == 200, loaded
        mark = page.locator(f"#discard-cards .suit-{suit}").first  # type: ignore[attr-defined]
        box = mark.bounding_box()
        assert box and box["width"] >= 14 and box["height"] >= 14
        assert suit in mark.evaluate("(m) => getComputedStyle(m).maskImage")
    tartli_hand(page, server)
    page.wait_for_load_state("networkidle")  # type: ignore[attr-defined]
    for suit in ("acorns", "leaves", "hearts", "bells"):
        assert loaded.get(f"{suit}.svg") == 200, loaded
    # the toggle is named in full
    toggle = page.get_by_role("checkbox", name="King of acorns")  # type: ignore[attr-defined]
    assert toggle.count() == 2                     # one in each player's picker
    assert page.get_by_role(  # type: ignore[attr-defined]
        "group", name="Anna’s melds").get_by_role("checkbox", name="Over of bells").count() == 1


@pytest.mark.parametrize("forced", [False, True], ids=["colours", "forced-colours"])
def test_a_tapped_card_looks_tapped_by_more_than_colour(page: object, server: str,
                                                        forced: bool) -> None:
    tartli_hand(page, server)
    if forced:
        page.emulate_media(forced_colors="active")  # type: ignore[attr-defined]
    picker = page.get_by_role("group", name="Anna’s melds")  # type: ignore[attr-defined]
    picker.locator("label[title='King of acorns']").click()
    tapped = picker.locator("label[title='King of acorns']").evaluate(LOOK)
    untapped = picker.locator("label[title='Over of acorns']").evaluate(LOOK)
    assert tapped["tick"] and not untapped["tick"]            # a tick, not only a colour
    if forced:
        assert tapped["border"] != untapped["border"]          # a thick border in system colours
        assert tapped["background"] != untapped["background"]  # the highlight
        assert tapped["mark"] != untapped["mark"]              # the mark stays legible on it


def test_the_keyboard_gets_past_a_picker(page: object, server: str) -> None:
    """Tab reaches the link before Anna's melds; following it, the next Tab lands after her
    32 cards (on the next control), not on the King of acorns."""
    tartli_hand(page, server)
    skip = page.locator("a.skip[href$='-after']").nth(1)  # type: ignore[attr-defined]
    skip.focus()
    playwright_api.expect(skip).to_be_in_viewport()
    page.keyboard.press("Enter")  # type: ignore[attr-defined]
    page.keyboard.press("Tab")  # type: ignore[attr-defined]
    focused = page.evaluate(  # type: ignore[attr-defined]
        "() => [document.activeElement.closest('.picker')?.id ?? null,"
        " document.activeElement.tagName, document.activeElement.getAttribute('aria-label')]")
    target = skip.get_attribute("href")[1:].removesuffix("-after")
    assert focused[0] != target, focused
