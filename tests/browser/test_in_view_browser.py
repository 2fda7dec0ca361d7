"""The result is in view (issue 11, items 2, 7 and 11), on a 390×844 phone in Debian's chromium:
after every action the table takes on a match page (a hand scored, an edit, a delete, an undo,
a restore, a claim of 501, a dost, the winners' matchstick choice) what it did and every "what
changed" notice are on the screen without scrolling, with JavaScript and without (the page
lands on #outcome); the end of a game or of the match is announced at the top, before the next
hand's editor; a delete asks first, with and without JavaScript; and a hand the user opened in
the history stays open when another phone's change arrives through the live scoreboard.

Each action is taken where the table takes it: the phone is scrolled to the form (or button)
first, as a finger would be, so a page that answered at that place would fail."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from phone import in_view, touch_phone

sys.path.insert(0, str(Path(__file__).parent.parent / "web"))
from webtools import (  # noqa: E402
    EXAMPLE_1,
    HAND_440_71,
    PLAIN_40_38,
    deal,
    hand,
)

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.browser

DATA = Path(__file__).parents[1] / "data"
TARTLI = {"players": ["Ágnes", "Tamás"], "target": 5, "first_dealer": 0}
JS = pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
# Hand 2, in progress: Ágnes (440 after hand 1) won trick 1 with Four Aces (100).
CLAIMABLE = hand("8h", "0", {1: (["set:A"], [])})
STARTED = hand("8h")                 # hand 2 with its trump indicator only


def match_file(tmp_path: Path, game: str, settings: dict[str, Any],
               hands: list[dict[str, Any]]) -> Path:
    file = tmp_path / f"{game}.json"
    file.write_text(json.dumps({"format": "referee-match", "version": 1, "game": game,
                                "created": "2026-03-14", "settings": settings,
                                "hands": hands}))
    return file


def data_file(tmp_path: Path, name: str, keep: int, unfinished: bool) -> Path:
    """A match file of tests/data with its first ``keep`` hands, the last of them without its
    end when ``unfinished`` (in progress: the table finishes it)."""
    body = json.loads((DATA / name).read_text())
    hands = body["hands"][:keep]
    if unfinished:
        hands[-1] = {**hands[-1], "end": None}
    return match_file(tmp_path, body["game"], body["settings"], hands)


def opened(chromium: Any, server: str, file: Path, *, javascript: bool = True) -> Any:
    """A phone that imported the match ``file`` and shows its page."""
    page = touch_phone(chromium, javascript=javascript)
    page.goto(server)
    page.set_input_files("form[action='/import'] input[type=file]", str(file))
    page.click("button:text-is('Import')")
    playwright_api.expect(page.locator(".notice")).to_contain_text("Match imported")
    page.goto(re.sub(r"[?#].*", "", page.url))
    return page


def settled(page: Any) -> None:
    """The answer is shown: a new page loaded, or htmx's swap done and scrolled."""
    page.wait_for_load_state("load")
    page.wait_for_function(
        "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")
    page.wait_for_timeout(150)


FILL = """(form, values) => {
    for (let d = form.closest('details'); d; d = d.parentElement.closest('details')) {
        d.open = true;
    }
    for (const [name, value] of Object.entries(values)) {
        const wanted = Array.isArray(value) ? value : [value];
        const fields = Array.from(form.elements).filter(f => f.name === name);
        if (!fields.length) { throw new Error('no field ' + name); }
        for (const f of fields) {
            if (f.type === 'radio' || f.type === 'checkbox') {
                f.checked = wanted.includes(f.value);
            } else {
                f.value = wanted[0];
            }
        }
    }
}"""

OPEN = """(button) => {
    for (let d = button.closest('details'); d; d = d.parentElement.closest('details')) {
        d.open = true;
    }
}"""


def send(page: Any, action: str, values: dict[str, Any], button: str = "") -> None:
    """Fill the page's form that posts ``action`` (e.g. "/hands/2/claim") and tap its submit
    button (the one whose value is ``button``, if given), scrolled to as a finger would. A
    section of a form of several (Stovkahra's dost) posts by its button's formaction."""
    own = page.locator(f"button[type=submit][formaction*='{action}']:not([hidden])")
    if own.count() and not button:
        submit = own.first
        form = submit.locator("xpath=ancestor::form")
    else:
        form = page.locator(f"form[action*='{action}']").first
        submit = form.locator(f"button[type=submit][value='{button}']" if button else
                              "button[type=submit]:not([hidden]):not([formaction])").first
    form.evaluate(FILL, values)
    submit.evaluate(OPEN)
    submit.scroll_into_view_if_needed()
    submit.tap()
    settled(page)


def tap(page: Any, locator: Any) -> None:
    locator.scroll_into_view_if_needed()
    locator.tap()
    settled(page)


def outcome_in_view(page: Any, *texts: str) -> None:
    """The top of the page (#outcome) says ``texts`` and all of it is on the screen, every
    notice included."""
    outcome = page.locator("#outcome")
    for text in texts:
        playwright_api.expect(outcome).to_contain_text(text)
    told = outcome.locator(".announce, .scored, .notice")
    assert told.count() > 0
    assert in_view(outcome), (outcome.bounding_box(), page.evaluate("() => window.scrollY"))
    for n in range(told.count()):
        assert in_view(told.nth(n)), told.nth(n).inner_text()


def before_editor(page: Any, selector: str) -> bool:
    """``selector`` comes before the next hand's editor in the page (or there is none)."""
    return bool(page.evaluate("""(selector) => {
        const first = document.querySelector(selector);
        const editor = document.querySelector('#editor');
        return first !== null && (editor === null
            || Boolean(first.compareDocumentPosition(editor) & Node.DOCUMENT_POSITION_FOLLOWING));
    }""", selector))


# ---------------------------------------------------------------------------------------------
# Tartli: a hand scored, a claim of 501 (with its arithmetic), the end of a game and of the match


@JS
def test_a_hand_scored_is_in_view(chromium: Any, server: str, tmp_path: Path,
                                  javascript: bool) -> None:
    page = opened(chromium, server, match_file(tmp_path, "tartli", TARTLI,
                                               [HAND_440_71, STARTED]), javascript=javascript)
    send(page, "/hands/2/finish", {"finish-pile_player": "0", "finish-pile": "20",
                                   "finish-last": "1", "finish-stichmatsch": ""})
    outcome_in_view(page, "Hand 2: no one reached 501")
    if not javascript:
        assert page.url.endswith("#outcome")


@JS
def test_a_claim_shows_its_arithmetic_at_the_top_and_announces_the_game(
        chromium: Any, server: str, tmp_path: Path, javascript: bool) -> None:
    page = opened(chromium, server, match_file(tmp_path, "tartli", TARTLI,
                                               [HAND_440_71, CLAIMABLE]), javascript=javascript)
    send(page, "/hands/2/claim", {"claim-claimant": "0", "claim-completed": "1",
                                  "claim-pile_0": "21", "claim-pile_1": "0"})
    # the verdict's arithmetic where it lands, not only inside the folded hand
    outcome_in_view(page, "Hand 2: Ágnes wins", "Ágnes's count: total 440 + melds 100 + piles 21",
                    "Game over after hand 2", "Buli")
    assert before_editor(page, "#outcome .announce")


def test_the_end_of_the_match_is_announced_at_the_top(chromium: Any, server: str,
                                                      tmp_path: Path) -> None:
    page = opened(chromium, server, data_file(tmp_path, "tartli-complete.json", 3, True))
    send(page, "/hands/3/claim", {"claim-claimant": "0", "claim-completed": "3",
                                  "claim-pile_0": "21", "claim-pile_1": "14"})
    outcome_in_view(page, "Match over: Zsófi wins 5–0", "Hand 3: Zsófi wins 2 buli")
    assert page.locator("#editor").count() == 0          # no next hand: the match is over
    page.reload()                                        # and it stays announced
    outcome_in_view(page, "Match over: Zsófi wins 5–0")



@JS
def test_a_refusal_is_in_view(chromium: Any, server: str, tmp_path: Path,
                              javascript: bool) -> None:
    """Rule 6.3.3: no trick after a claim. The refusal is at the top, where the page opens."""
    page = opened(chromium, server, match_file(tmp_path, "tartli", TARTLI,
                                               [HAND_440_71, CLAIMABLE]), javascript=javascript)
    send(page, "/hands/2/claim", {"claim-claimant": "0", "claim-completed": "0",
                                  "claim-pile_0": "21", "claim-pile_1": "0"})
    error = page.locator("#rule-error")
    playwright_api.expect(error).to_contain_text("no trick is played after a claim")
    assert in_view(error)

# ---------------------------------------------------------------------------------------------
# The other games: a hand scored, a dost, the winners' choice, the end of a game


def test_a_dost_shows_its_arithmetic_and_the_choice_is_asked_first(
        chromium: Any, server: str, tmp_path: Path) -> None:
    settings = json.loads((DATA / "stovkahra-series.json").read_text())["settings"]
    page = opened(chromium, server, match_file(tmp_path, "stovkahra", settings,
                                               [EXAMPLE_1, deal()]))
    send(page, "/hands/2/dost", {"dost-caller": "0", "dost-after": "2",
                                 "dost-trick_winner": "0", "dost-points_0": "12",
                                 "dost-points_1": "11", "dost-tricks_0": "1",
                                 "dost-tricks_1": "1"})
    outcome_in_view(page, "Deal 2:", "count: game score 90", "calls dost", "Game over after deal 2")
    # the winners' choice is asked at the top, before the next deal's editor
    assert before_editor(page, "#decisions")
    send(page, "/hands/2/sticks", {}, button="add")
    outcome_in_view(page, "Deal 2: Jana & Eva win the game: 1 matchstick, added")


def test_a_deal_that_ends_a_marjolet_game_is_in_view(chromium: Any, server: str,
                                                     tmp_path: Path) -> None:
    page = opened(chromium, server, data_file(tmp_path, "marjolet-game.json", 7, True))
    send(page, "/hands/7/finish", {"finish-brisques_player": "0", "finish-brisques": "60",
                                   "finish-trick10": "0", "finish-last": "0",
                                   "finish-sweep": "0"})
    outcome_in_view(page, "Game over: Anne wins", "Deal 7: Anne wins the game")


@JS
def test_a_troggu_hand_scored_is_in_view(chromium: Any, server: str, tmp_path: Path,
                                         javascript: bool) -> None:
    page = opened(chromium, server, data_file(tmp_path, "troggu-evening.json", 6, False),
                  javascript=javascript)
    send(page, "/hands/6/finish", {"finish-points": "50", "finish-took": "yes"})
    outcome_in_view(page, "Hand 6:")


# ---------------------------------------------------------------------------------------------
# Edit, delete (asked first), undo, restore


@JS
def test_an_edit_and_what_it_changed_are_in_view(chromium: Any, server: str, tmp_path: Path,
                                                 javascript: bool) -> None:
    page = opened(chromium, server, data_file(tmp_path, "tartli-short.json", 4, False),
                  javascript=javascript)
    page.goto(re.sub(r"[?#].*", "", page.url) + "/hands/1")
    send(page, "/hands/1/finish", {"finish-pile_player": "0", "finish-pile": "40",
                                   "finish-last": "1", "finish-stichmatsch": ""})
    outcome_in_view(page, "Hand 1:", "now")
    assert "Editing hand 1" in page.locator("#editor").inner_text()



@JS
def test_an_edited_deal_lands_on_its_outcome_not_on_its_finish(
        chromium: Any, server: str, tmp_path: Path, javascript: bool) -> None:
    """The Edit link opens a deal at its end (the finish takes the focus); once the edit is
    saved the page shows the outcome at its top, also when nothing further down changed."""
    settings = json.loads((DATA / "stovkahra-series.json").read_text())["settings"]
    page = opened(chromium, server, match_file(tmp_path, "stovkahra", settings,
                                               [PLAIN_40_38, PLAIN_40_38]), javascript=javascript)
    page.goto(re.sub(r"[?#].*", "", page.url) + "/hands/2")
    send(page, "/hands/2/finish", {"finish-points_team": "0", "finish-points": "40",
                                   "finish-tricks": "5", "finish-last": "1"})
    outcome_in_view(page, "Deal 2: Jana & Eva 80, Petr & Karel 76")

def open_hand(page: Any, number: int) -> Any:
    summary = page.locator(f"#hand-{number}-record > summary")
    if not page.locator(f"#hand-{number}-record").evaluate("d => d.open"):
        summary.scroll_into_view_if_needed()
        summary.tap()
    return page.locator(f"#hand-{number}")


def hand_count(page: Any) -> int:
    return int(page.locator("#history li.hand").count())


@JS
def test_a_delete_asks_first_and_its_notice_is_in_view(chromium: Any, server: str,
                                                       tmp_path: Path, javascript: bool) -> None:
    page = opened(chromium, server, data_file(tmp_path, "tartli-short.json", 4, False),
                  javascript=javascript)
    assert hand_count(page) == 4
    answers = iter(["dismiss", "accept"])
    asked: list[str] = []

    def dialog(d: Any) -> None:
        asked.append(d.message)
        if next(answers) == "accept":
            d.accept()
        else:
            d.dismiss()

    page.on("dialog", dialog)
    # First the table changes its mind: nothing is deleted, and it is back at the hand.
    tap(page, open_hand(page, 3).locator("button:has-text('Delete')"))
    if javascript:
        assert asked == ["Delete hand 3? Everything after it is recomputed."]
    else:
        playwright_api.expect(page.locator("h1")).to_have_text("Delete hand 3?")
        tap(page, page.locator("a:has-text('Keep it')"))
        assert page.url.endswith("#hand-3")
        assert in_view(page.locator("#hand-3"))
    assert hand_count(page) == 4
    # Then it deletes.
    tap(page, open_hand(page, 3).locator("button:has-text('Delete')"))
    if not javascript:
        playwright_api.expect(page.locator("#confirm")).to_contain_text("Hand 3")
        tap(page, page.locator("button:has-text('Delete hand 3')"))
    outcome_in_view(page, "Hand 3 deleted.")
    assert hand_count(page) == 3


@JS
def test_an_undo_and_a_restore_are_in_view(chromium: Any, server: str, tmp_path: Path,
                                           javascript: bool) -> None:
    page = opened(chromium, server, data_file(tmp_path, "tartli-short.json", 4, False),
                  javascript=javascript)
    page.on("dialog", lambda d: d.accept())
    tap(page, open_hand(page, 2).locator("button:has-text('Delete')"))
    if not javascript:
        tap(page, page.locator("button:has-text('Delete hand 2')"))
    outcome_in_view(page, "Hand 2 deleted.")
    tap(page, page.locator("#undo button"))                  # at the foot of the page
    outcome_in_view(page, "Undone: Hand 2 deleted.")
    assert hand_count(page) == 4
    tap(page, open_hand(page, 1).locator("button:has-text('Delete')"))
    if not javascript:
        tap(page, page.locator("button:has-text('Delete hand 1')"))
    summary = page.locator("#changes-record > summary")
    summary.scroll_into_view_if_needed()
    summary.tap()
    tap(page, page.locator("#changes li", has_text="Hand 1 deleted").locator(
        "button:has-text('Restore')"))
    outcome_in_view(page, "Hand 1 restored.", "Hand 1:")
    assert hand_count(page) == 4


# ---------------------------------------------------------------------------------------------
# The live scoreboard keeps what the user opened


def test_a_hand_opened_in_the_history_stays_open_across_a_live_update(
        chromium: Any, server: str, tmp_path: Path) -> None:
    page = opened(chromium, server, data_file(tmp_path, "tartli-short.json", 4, False))
    open_hand(page, 1)
    changes = page.locator("#changes-record > summary")
    changes.scroll_into_view_if_needed()
    changes.tap()
    other = touch_phone(chromium)
    other.goto(page.url)
    other.on("dialog", lambda d: d.accept())
    tap(other, open_hand(other, 4).locator("button:has-text('Delete')"))
    outcome_in_view(other, "Hand 4 deleted.")
    # the first phone's poll brings the change (its history re-rendered) within two seconds
    playwright_api.expect(page.locator("#history li.hand")).to_have_count(3, timeout=4000)
    playwright_api.expect(page.locator("#changes")).to_contain_text("Hand 4 deleted")
    assert page.locator("#hand-1-record").evaluate("d => d.open")
    # with its explanation, loaded again into the new copy (issue 12: loaded on demand)
    playwright_api.expect(page.locator("#hand-1 ul.lines")).to_contain_text("§")
    assert page.locator("#changes-record").evaluate("d => d.open")
    assert not page.locator("#hand-2-record").evaluate("d => d.open")
