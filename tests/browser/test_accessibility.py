"""For every player (issue 11, item 12): axe-core (bundled with axe-playwright-python, nothing
downloaded) run over every page of every game on a 390×844 phone, in light and dark colours:
home, new match, the match page, a hand in progress with a picker open, a refusal, the view
link and the history of changes; and a circle's pages. Any serious or critical violation
fails.

And what axe cannot see: where keyboard focus lands after an htmx swap (static/js/table.js).
The control that was used keeps it when it is still there; else the error, else the outcome
notice, else the editor's first control; never ``<body>``, which sends a keyboard user back to
the top of the page."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from phone import new_troggu, touch_phone

playwright_api = pytest.importorskip("playwright.sync_api")
axe_playwright = pytest.importorskip("axe_playwright_python.sync_playwright")
pytestmark = pytest.mark.browser

GRAVE = ("serious", "critical")
# every rule axe runs by default, and the target size of WCAG 2.2 (off by default): stacked
# <summary> rows 22 px tall were found by it
OPTIONS = {"resultTypes": ["violations"], "rules": {"target-size": {"enabled": True}}}
SCHEMES = ("light", "dark")


def violations(page: Any) -> list[str]:
    """axe-core's serious and critical findings on the page as it stands, one line each."""
    results = axe_playwright.Axe().run(page, options=OPTIONS).response
    found = []
    for v in results["violations"]:
        if v["impact"] not in GRAVE:
            continue
        for node in v["nodes"]:
            found.append(f"{v['id']} ({v['impact']}): {', '.join(map(str, node['target']))} "
                         f"{node['html'][:120]} — {node.get('failureSummary', '')[:200]}")
    return found


def duplicate_ids(page: Any) -> list[str]:
    """Ids given to more than one element (axe no longer checks them all: a label, an
    aria-describedby or the focus kept after a swap would find the wrong one)."""
    return list(page.evaluate("""() => {
        const seen = new Map();
        for (const el of document.querySelectorAll('[id]')) {
            seen.set(el.id, (seen.get(el.id) || 0) + 1);
        }
        return [...seen].filter(([, n]) => n > 1).map(([id, n]) => `duplicate id "${id}" (${n}×)`);
    }"""))


def audit(page: Any, stops: list[tuple[str, Callable[[], None]]]) -> None:
    """Take each step, then run axe in light and dark colours; fail with all the findings."""
    found: list[str] = []
    for name, step in stops:
        step()
        settled(page)
        for scheme in SCHEMES:
            page.emulate_media(color_scheme=scheme)
            found += [f"{name} ({scheme}): {x}" for x in violations(page)]
        page.emulate_media(color_scheme="light")
        found += [f"{name}: {x}" for x in duplicate_ids(page)]
    assert not found, "\n".join(found)


def settled(page: Any) -> None:
    page.wait_for_load_state("networkidle")
    page.wait_for_function(
        "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")


def steps(page: Any, *actions: Callable[[Any], object]) -> Callable[[], None]:
    def run() -> None:
        for action in actions:
            action(page)
    return run


def submit(page: Any, selector: str) -> None:
    """Tap ``selector`` and wait until htmx has put the answer in place: every answer replaces
    the top of the live part (#live-top; the whole #live for some)."""
    live = page.locator("#live-top").element_handle()
    page.locator(selector).first.click()
    page.wait_for_function("live => !live.isConnected", arg=live)
    settled(page)


def open_pickers(page: Any) -> None:
    """Open every collapsed section of the editor: its card pickers are shown."""
    settled(page)
    page.evaluate(
        "() => document.querySelectorAll('#editor details').forEach(d => { d.open = true; })")


def open_first_hand(page: Any) -> None:
    page.evaluate(
        "() => { const d = document.querySelector('li.hand details'); if (d) d.open = true; }")


def changes_page(page: Any) -> None:
    page.goto(page.url.split("/hands/")[0].split("?")[0] + "/changes")


def view_link(page: Any) -> None:
    page.goto(page.url.split("/changes")[0])
    page.goto(page.locator("figure.link-view a").get_attribute("href"))
    open_first_hand(page)


def pages_of(page: Any, server: str, game: str, start: Callable[[Any], None],
             in_progress: Callable[[Any], None], refused: Callable[[Any], None],
             ) -> list[tuple[str, Callable[[], None]]]:
    return [
        ("home", lambda: page.goto(server)),
        ("home, a code refused", lambda: page.goto(f"{server}/join?code=nothing")),
        (f"new {game}", lambda: page.goto(f"{server}/new/{game}")),
        ("the match page", steps(page, start)),
        ("in progress, pickers open", steps(page, in_progress, open_pickers)),
        ("a refusal", steps(page, refused, open_pickers, open_first_hand)),
        ("the history of changes", steps(page, changes_page)),
        ("the view link", steps(page, view_link)),
    ]


@pytest.fixture
def phone(chromium: Any) -> Any:
    return touch_phone(chromium)


def start_tartli(server: str) -> Callable[[Any], None]:
    def start(p: Any) -> None:
        p.goto(f"{server}/new/tartli")
        p.fill("#player_a", "Anna")
        p.fill("#player_b", "Béla")
        p.click("text=Start the match")
        p.wait_for_selector("#editor")
    return start


def tartli_hand(p: Any) -> None:
    p.click("#indicator-indicator label[title='Eight of hearts']")
    submit(p, "text=Start hand 1")


def test_tartli(phone: Any, server: str) -> None:
    def refused(p: Any) -> None:       # a set of two cards is no set (rule 4.3)
        p.locator("#trick-cards_0 label[title='King of acorns']").click()
        p.locator("#trick-cards_0 label[title='King of leaves']").click()
        submit(p, "button:has-text('Check declarations')")
        playwright_api.expect(p.locator("#rule-error")).to_be_visible()

    audit(phone, pages_of(phone, server, "tartli", start_tartli(server), tartli_hand, refused))


def test_stovkahra(phone: Any, server: str) -> None:
    def start(p: Any) -> None:
        p.goto(f"{server}/new/stovkahra")
        for field, name in (("north", "Anna"), ("east", "Boris"), ("south", "Cilka"),
                            ("west", "David")):
            p.fill(f"#{field}", name)
        p.click("text=Start the series")
        p.wait_for_selector("#editor")

    def deal(p: Any) -> None:
        p.check("input[name='start-trumps'][value='h']")
        submit(p, "text=Start deal 1")

    def refused(p: Any) -> None:       # four nines: no combination (rule 4.2)
        p.check("input[name='combination-seat'][value='0']")
        p.select_option("#combination-count", "4")
        p.select_option("#combination-rank", "9")
        submit(p, "button:has-text('Declare')")
        playwright_api.expect(p.locator("#rule-error")).to_be_visible()

    audit(phone, pages_of(phone, server, "stovkahra", start, deal, refused))


def test_marjolet(phone: Any, server: str) -> None:
    def start(p: Any) -> None:
        p.goto(f"{server}/new/marjolet")
        p.fill("#player_a", "Anne")
        p.fill("#player_b", "Bruno")
        p.click("text=Start the game")
        p.wait_for_selector("#editor")

    def deal(p: Any) -> None:
        p.locator("#turnup-turnup label[title='Nine of clubs']").click()
        submit(p, "text=Start deal 1")

    def refused(p: Any) -> None:       # two kings of different suits: no meld (rule 4.3)
        open_pickers(p)
        p.fill("#turn-trick", "3")
        p.check("#turn-winner-0")
        p.locator("#turn-cards label[title='King of spades']").click()
        p.locator("#turn-cards label[title='Queen of hearts']").click()
        submit(p, "button:has-text('Record the turn')")
        playwright_api.expect(p.locator("#rule-error")).to_be_visible()

    audit(phone, pages_of(phone, server, "marjolet", start, deal, refused))


def test_troggu(phone: Any, server: str) -> None:
    def start(p: Any) -> None:
        new_troggu(p, server)
        p.wait_for_selector("#editor")

    def bidding(p: Any) -> None:
        row = p.locator(".call-row").filter(has_text="Carla")
        row.locator("label.call").filter(has_text="normal").click()
        submit(p, "text=Record the bidding")

    def refused(p: Any) -> None:       # a second normal call (rule 4.1.3)
        open_pickers(p)
        row = p.locator(".call-row").filter(has_text="Dario")
        row.locator("label.call").filter(has_text="normal").click()
        submit(p, "text=Save the bidding")
        playwright_api.expect(p.locator("#rule-error")).to_be_visible()

    audit(phone, pages_of(phone, server, "troggu", start, bidding, refused))


def test_circle(phone: Any, server: str) -> None:
    """A circle's pages (issue 13): the home page with the circle, the circle's page with a
    match and a Troggu evening, a match started from it with a refused seat, and the page
    that asks who is who for a match added by its edit link."""
    circle: list[str] = []

    def create(p: Any) -> None:
        p.goto(server)
        p.fill("#circle_name", "Family")
        p.click("text=New circle")
        p.wait_for_selector("#matches")
        circle.append(p.url)

    def troggu(p: Any) -> None:
        p.click("#start a:has-text('Troggu')")
        for seat, name in enumerate(["Anna", "Beat", "Carla"]):
            p.fill(f"#name-{seat}", name)
        p.click("text=Start the match")
        p.wait_for_selector("#editor")
        p.goto(circle[0])

    def refused(p: Any) -> None:        # a typed name of a player of the circle
        p.goto(circle[0])
        p.click("#start a:has-text('Tartli')")
        p.fill("#name-0", "anna")
        p.click("text=Start the match")
        p.wait_for_selector(".field-error")

    def add(p: Any) -> None:
        start_tartli(server)(p)
        edit = p.url
        p.goto(circle[0])
        p.fill("#code", edit)
        p.click("text=Next: who is who")
        p.wait_for_selector("#who-0")

    audit(phone, [
        ("the circle's page", steps(phone, create, troggu)),
        ("home with a circle", lambda: phone.goto(server)),
        ("a circle's match refused", steps(phone, refused)),
        ("who is who", steps(phone, add)),
    ])


# -- Focus after a swap ----------------------------------------------------------------------

def focused(page: Any) -> str:
    """The focused element, described: its tag, id and text (``<body>`` when focus is lost)."""
    return str(page.evaluate("""() => {
        const el = document.activeElement;
        if (!el || el === document.body) return '<body>';
        return `<${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}> ${
            (el.innerText || el.value || '').trim().replace(/\\s+/g, ' ').slice(0, 80)}`;
    }"""))


def press(page: Any, selector: str) -> None:
    """Focus ``selector`` and press Enter, as a keyboard does; wait for the swap (of #live-top,
    which every answer replaces)."""
    live = page.locator("#live-top").element_handle()
    page.locator(selector).first.focus()
    page.keyboard.press("Enter")
    page.wait_for_function("live => !live.isConnected", arg=live)
    settled(page)
    page.wait_for_timeout(50)           # the focus is placed once the answer has settled


def test_focus_stays_on_the_control_used_or_goes_to_the_error(phone: Any, server: str) -> None:
    start_tartli(server)(phone)
    tartli_hand(phone)
    # an action: the control used is still there, and keeps the focus
    press(phone, "button:has-text('Check declarations')")
    assert focused(phone) == "<button> Check declarations", focused(phone)
    # who won the trick is a few keys away (it took about 70 Tabs from the top of the page)
    for _ in range(6):
        phone.keyboard.press("Shift+Tab")
        if focused(phone) == "<button> Anna won trick 1":
            break
    assert focused(phone) == "<button> Anna won trick 1", focused(phone)
    # an action whose control comes back for the next trick: "Anna won trick 2" after 1
    press(phone, "button:has-text('Anna won trick 1')")
    assert focused(phone) == "<button> Anna won trick 2", focused(phone)
    # a refusal by the control used (a meld that is no meld): the control keeps the focus
    # where the answer shows it on the screen, else (the answer scrolled to its error) the
    # error takes it: never a control off the screen (issue 21, item 9); the error is
    # announced (role=alert) and marks the cards
    phone.locator("details.declare:has(#trick-cards_0) > summary").click()
    phone.locator("#trick-cards_0 label[title='King of acorns']").click()
    phone.locator("#trick-cards_0 label[title='King of leaves']").click()
    press(phone, "button:has-text('Check declarations')")
    assert focused(phone) == "<button> Check declarations" or focused(phone).startswith(
        "<p#rule-error>"), focused(phone)
    assert phone.evaluate("""() => { const box = document.activeElement.getBoundingClientRect();
        return box.bottom > 0 && box.top < innerHeight; }"""), focused(phone)
    playwright_api.expect(phone.locator("#rule-error")).to_have_attribute("role", "alert")
    playwright_api.expect(
        phone.locator("#trick-cards_0 input:checked").first).to_have_attribute(
        "aria-invalid", "true")
    # a refusal whose control is not in the answer: the error takes the focus
    open_pickers(phone)
    phone.fill("#finish-pile", "1")       # no cards make a pile of 1 (rule 6.3.2)
    phone.check("#finish-last-0")
    press(phone, "#editor .finish button[type=submit]")
    assert focused(phone).startswith("<p#rule-error>"), focused(phone)
    playwright_api.expect(phone.locator("#finish-pile")).to_have_attribute("aria-invalid", "true")
    playwright_api.expect(phone.locator("#finish-pile")).to_have_value("1")
    beside = phone.evaluate("""() => document.getElementById(
        document.getElementById('finish-pile').getAttribute('aria-describedby')).textContent""")
    assert "No cards can make a pile count of 1" in beside and "(rule 6.3.2)" in beside, beside


def test_a_change_from_another_phone_leaves_the_focus_where_it_was(
        phone: Any, new_page: Callable[[], Any], server: str) -> None:
    """The live scoreboard swaps the list of hands when another phone changes the match: a
    keyboard user reading a hand (its summary focused) stays on it."""
    start_tartli(server)(phone)
    tartli_hand(phone)
    phone.locator("li.hand summary").first.focus()
    phone.evaluate("() => { window.oldHistory = document.getElementById('history'); }")
    other = new_page()
    other.goto(phone.url)
    submit(other, "button:has-text('Anna won trick 1')")
    phone.wait_for_function("() => document.getElementById('history') !== window.oldHistory")
    phone.wait_for_timeout(50)
    assert phone.evaluate(
        "() => document.activeElement === document.querySelector('li.hand summary')"), \
        focused(phone)
