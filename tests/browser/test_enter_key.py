"""Issue 21, item 3, in Debian's chromium: Enter in a number field (a phone's Go key) presses
the main button of the form it is in, in every form of every game. A browser presses a form's
first button, which in a form of several parts is another part's (Tartli's "Score it now"
under "Start hand": "Nothing was saved").

For each game's editor in each state that has number fields, every number field on the page
(its folded parts opened) is listed with the action its form's main button posts; Enter in
each must post that action (the request is caught and dropped, so that the page stays as it
is for the next field). Then the issue's own steps end to end, with JavaScript and without."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.browser.phone import new_series, new_troggu, touch_phone
from tests.browser.test_live import new_match as new_tartli
from tests.browser.test_taps_marjolet import new_match as new_marjolet

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.browser

NUMBERS = "input[type=number], input[inputmode=numeric]"


def posted_on_enter(page: Any, field_id: str) -> str:
    """Type a number into field ``field_id`` and press Enter: the action the form posted (the
    address's last part: ``played`` for /m/<id>/hands/1/played), the request dropped."""
    field = page.locator(f"#{field_id}")
    field.fill("12")
    with page.expect_request(lambda r: r.method == "POST") as sent:
        field.press("Enter")
    return str(sent.value.url.split("?")[0].rstrip("/").rsplit("/", 1)[-1])


def every_number_field(page: Any, scope: str) -> list[str]:
    """The ids of the number fields in ``scope``, every folded part opened (and the browser's
    own checks of required fields off: they would stop the post before it is sent)."""
    page.evaluate(f"() => {{ document.querySelectorAll('{scope} details')"
                  ".forEach(d => { d.open = true; }); "
                  "document.querySelectorAll('form').forEach(f => { f.noValidate = true; }); }")
    fields = page.locator(f"{scope} :is({NUMBERS})")
    return [fields.nth(i).get_attribute("id") for i in range(fields.count())]


def check_enter(page: Any, scope: str, expected: dict[str, str]) -> None:
    """Every number field in ``scope`` is one of ``expected``'s, and Enter in each posts its
    form's main action."""
    page.route("**/*", lambda route: route.abort() if route.request.method == "POST"
               else route.continue_())
    assert every_number_field(page, scope) == list(expected)
    posted = {field: posted_on_enter(page, field) for field in expected}
    page.unroute("**/*")
    assert posted == expected


# ---------------------------------------------------------------------------------------------
# The games' states with number fields


def tartli(page: Any, server: str) -> None:
    new_tartli(page, server)


def tartli_started(page: Any, server: str) -> None:
    tartli(page, server)
    page.click("label[title='Eight of hearts']")
    page.click("text=Start hand 1")
    playwright_api.expect(page.locator(".trumps")).to_be_visible()


def marjolet_started(page: Any, server: str) -> None:
    new_marjolet(page, server)
    page.click("#turnup-turnup label[title='Nine of clubs']")
    page.click("text=Start deal 1")
    playwright_api.expect(page.locator(".trumps")).to_be_visible()


def stovkahra_started(page: Any, server: str) -> None:
    new_series(page, server)
    page.click("text=Start deal 1")
    playwright_api.expect(page.locator("#finish")).to_be_visible()


def troggu(page: Any, server: str) -> None:
    new_troggu(page, server, ["Anna", "Beat", "Carla"])


def troggu_bid(bid: str | None) -> Callable[[Any, str], None]:
    """A Troggu hand whose bidding is recorded: Beat calls ``bid``, or everybody passes."""

    def setup(page: Any, server: str) -> None:
        troggu(page, server)
        if bid is not None:
            row = page.locator(".call-row").filter(has_text="Beat")
            row.locator("label.call").filter(has_text=bid).click()
        page.click("text=Record the bidding")
        playwright_api.expect(page.locator("#editor p.game")).to_be_visible()

    return setup


def new_form(game: str) -> Callable[[Any, str], None]:
    return lambda page, server: page.goto(f"{server}/new/{game}")


MISERE = {f"misere-{kind}_{seat}": "misere" for seat in range(3)
          for kind in ("points", "tricks")}
STATES: dict[str, tuple[Callable[[Any, str], None], str, dict[str, str]]] = {
    # Tartli's new hand: the pile is Score it now's ("played"), not Start hand's
    "tartli new hand": (tartli, "#editor", {"indicator-pile": "played"}),
    "tartli hand started": (tartli_started, "#editor", {
        "finish-pile": "finish", "claim-completed": "claim", "claim-pile_0": "claim",
        "claim-pile_1": "claim"}),
    # Marjolet's one deal form: the Finish's fields score, the turn's records the turn
    "marjolet deal started": (marjolet_started, "#editor", {
        "finish-brisques": "finish", "finish-seven_trick": "finish", "turn-trick": "turn"}),
    # Stovkahra's one deal form: the finish scores, the dost gives the verdict
    "stovkahra deal started": (stovkahra_started, "#editor", {
        "finish-points": "finish", "finish-tricks": "finish", "dost-points_0": "dost",
        "dost-tricks_0": "dost", "dost-points_1": "dost", "dost-tricks_1": "dost"}),
    "troggu normal game": (troggu_bid("normal"), "#editor", {
        "discard-points": "discard", "finish-points": "finish", "finish-tricks": "finish"}),
    "troggu solo": (troggu_bid("Solo"), "#editor", {
        "finish-points": "finish", "finish-tricks": "finish", "finish-tapp_points": "finish"}),
    "troggu misere": (troggu_bid(None), "#editor", {
        **dict(sorted(MISERE.items(), key=lambda kv: (kv[0][-1], kv[0]))),
        "misere-tapp_points": "misere"}),
    "stovkahra new series": (new_form("stovkahra"), "main", {"target": "stovkahra"}),
    "troggu new match": (new_form("troggu"), "main", {"stake": "troggu"}),
}


@pytest.mark.parametrize("state", list(STATES))
def test_enter_presses_the_main_button_of_its_form(chromium: Any, server: str,
                                                   state: str) -> None:
    setup, scope, expected = STATES[state]
    page = touch_phone(chromium)
    setup(page, server)
    check_enter(page, scope, expected)


# ---------------------------------------------------------------------------------------------
# The steps, end to end


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_enter_in_the_pile_of_score_it_now_scores_the_hand(chromium: Any, server: str,
                                                           javascript: bool) -> None:
    """Tartli: the indicator tapped, Béla's pile typed, the last trick chosen, and Enter in the
    pile: hand 1 is scored (not "Nothing was saved")."""
    expect = playwright_api.expect
    page = touch_phone(chromium, javascript=javascript)
    tartli(page, server)
    page.locator("label[title='Eight of hearts']").tap()
    page.locator("label", has=page.locator("#indicator-pile_player-1")).tap()
    page.locator("label", has=page.locator("#indicator-last-1")).tap()
    page.fill("#indicator-pile", "100")
    page.locator("#indicator-pile").press("Enter")
    expect(page.locator("#editor h2")).to_contain_text("Hand 2")
    expect(page.locator("#history")).to_contain_text("Béla +110")
    assert "Nothing was saved" not in page.content()


def test_enter_in_a_marjolet_turn_records_the_turn(chromium: Any, server: str) -> None:
    """Marjolet: Enter in the turn's trick records the turn (the Finish, typed, stays)."""
    expect = playwright_api.expect
    page = touch_phone(chromium)
    marjolet_started(page, server)
    page.fill("#finish-brisques", "50")
    page.locator("summary:has-text('Meld or exchange')").tap()
    page.locator("label", has=page.locator("#turn-winner-0")).tap()
    for title in ("King of spades", "Queen of spades"):
        page.locator(f"#turn-cards label[title='{title}']").tap()
    page.fill("#turn-trick", "3")
    page.locator("#turn-trick").press("Enter")
    expect(page.locator("#editor .verdict")).to_contain_text("Anne 20")
    expect(page.locator("#finish-brisques")).to_have_value("50")
    expect(page.locator("#editor h2")).to_contain_text("Deal 1")


@pytest.mark.parametrize(("setup", "field", "action"), [
    (tartli, "indicator-pile", "played"),
    (stovkahra_started, "finish-points", "finish"),
    (marjolet_started, "finish-brisques", "finish"),
], ids=["tartli", "stovkahra", "marjolet"])
def test_enter_without_javascript(chromium: Any, server: str, setup: Callable[[Any, str], None],
                                  field: str, action: str) -> None:
    """Without JavaScript the browser presses the form's first button: the scoring one, a
    hidden default where the first button shown is another part's (Start hand, Declare)."""
    page = touch_phone(chromium, javascript=False)
    setup(page, server)
    with page.expect_request(lambda r: r.method == "POST") as sent:
        page.fill(f"#{field}", "12")
        page.locator(f"#{field}").press("Enter")
    assert sent.value.url.split("?")[0].rsplit("/", 1)[-1] == action
