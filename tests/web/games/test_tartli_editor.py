"""Tartli's editor at the table (issue 11, items 1 and 3): a hand played without recording its
tricks is started and scored in one go (indicator, dealer and the finish facts of rule 6.1 in
one form); a hand in progress shows who won the trick first and opens the card pickers on
demand; editing an old hand opens at its end."""

from __future__ import annotations

import re
from typing import Any

import pytest
from webtools import (
    TIE_HANDS,
    A,
    B,
    Page,
    Table,
    claim,
    csrf_is_checked,
    hand,
    played,
    refused,
    unchanged,
)

HTMX = pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])


def score_at_once(table: Table, mid: str, n: int, card: str, pile: int | str | None,
                  last: int | None, *, pile_player: int = 0, stichmatsch: int | None = None,
                  dealer: int | None = None, action: str = "played", htmx: bool = False,
                  editing: bool = False, **kw: Any) -> Page:
    """The start form's "Score the hand": indicator, dealer and finish facts in one post."""
    data: dict[str, Any] = {
        "indicator-indicator": card, "indicator-pile_player": str(pile_player),
        "indicator-pile": "" if pile is None else str(pile),
        "indicator-stichmatsch": "" if stichmatsch is None else str(stichmatsch)}
    if last is not None:
        data["indicator-last"] = str(last)
    if dealer is not None:
        data["indicator-dealer"] = str(dealer)
    query = "?editing=1" if editing else ""
    return table.post(f"/m/{mid}/hands/{n}/{action}{query}", data, htmx=htmx,
                      prefix="indicator", **kw)


@HTMX
def test_a_hand_played_without_its_tricks_is_started_and_scored_at_once(
        table: Table, htmx: bool) -> None:
    mid = table.new_match()
    page = table.get(f"/m/{mid}")
    # the start form carries the finish facts and its own "Score the hand"
    assert 'formaction="/m/' in page.html and "/hands/1/played" in page.html
    assert page.checked("indicator-pile_player") == ["0"]     # shown, changeable
    assert page.checked("indicator-last") == []               # never guessed
    # Ágnes deals (proposed); her pile 100, Tamás 51; Ágnes took the last trick (rule 5)
    page = table.done(score_at_once(table, mid, 1, "8h", 100, A, htmx=htmx), htmx)
    assert page.standings() == ((110, 51), (0, 0))
    assert "Undo: Hand scored (hand 1)" in page.text
    assert "Hand 2" in page.text and "Tamás deals" in page.text       # alternation (6.1.1)
    # the same facts as starting the hand and finishing it in two steps
    other = table.new_match()
    table.indicator(other, 1, "8h")
    table.finish(other, 1, 100, last=A)
    assert table.hands(mid) == table.hands(other)


@HTMX
def test_scored_at_once_with_the_other_pile_a_stichmatsch_and_the_dealer(
        table: Table, htmx: bool) -> None:
    mid = table.new_match()
    page = table.done(score_at_once(table, mid, 1, "Ob", 151, B, pile_player=B,
                                    stichmatsch=B, dealer=B, htmx=htmx), htmx)
    assert table.hands(mid)[0] == {
        "dealer": B, "indicator": "Ob", "exchange": None, "tricks": [], "bela": None,
        "end": {"kind": "played", "piles": [0, 151], "last": B, "stichmatsch": B}}
    assert page.standings() == ((0, 161), (0, 0))


@HTMX
def test_scoring_at_once_needs_the_pile_and_the_last_trick(table: Table, htmx: bool) -> None:
    mid = table.new_match()
    page = refused(table, mid, htmx, lambda: score_at_once(table, mid, 1, "8h", None, None,
                                                            htmx=htmx),
                   "Enter the card points of one player's pile")
    assert any("Who took the last trick? (rule 5)" in e for e in page.visible_errors)
    assert page.checked("indicator-indicator") == ["8h"]      # what was tapped is kept
    page = refused(table, mid, htmx, lambda: score_at_once(table, mid, 1, "8h", 70, None,
                                                            htmx=htmx),
                   "Who took the last trick? (rule 5)")
    assert page.value("indicator-pile") == "70"


@HTMX
@pytest.mark.parametrize("pile", ["152", "-1", "eighty"])
def test_scoring_at_once_refuses_a_pile_that_cannot_be(table: Table, htmx: bool,
                                                       pile: str) -> None:
    mid = table.new_match()
    page = refused(table, mid, htmx, lambda: score_at_once(table, mid, 1, "8h", pile, A,
                                                            htmx=htmx),
                   "Not a valid integer value" if pile == "eighty"
                   else "A pile holds 0 to 151 card points (rule 3)")
    assert page.value("indicator-pile") == pile
    assert page.checked("indicator-last") == ["0"]


@HTMX
def test_scoring_at_once_checks_the_rules_of_the_end(table: Table, htmx: bool) -> None:
    # a stichmatsch for one player and the last trick for the other cannot co-occur (6.3.7)
    mid = table.new_match()
    page = refused(table, mid, htmx, lambda: score_at_once(table, mid, 1, "8h", 100, A,
                                                            stichmatsch=B, htmx=htmx),
                   "6.3")
    assert page.value("indicator-pile") == "100"
    assert page.selected("indicator-stichmatsch") == ["1"]


@HTMX
def test_start_hand_with_finish_facts_typed_keeps_them_and_asks(table: Table,
                                                                htmx: bool) -> None:
    """"Start hand" (or the Enter key in the pile) with a pile typed: nothing is dropped
    unseen, nothing stored; the table is told which button scores."""
    mid = table.new_match()
    page = refused(table, mid, htmx, lambda: score_at_once(table, mid, 1, "8h", 100, A,
                                                            action="indicator", htmx=htmx),
                   "tap Score the hand")
    assert page.value("indicator-pile") == "100"
    assert page.checked("indicator-last") == ["0"]


@HTMX
def test_scored_at_once_while_another_phone_started_the_hand(table: Table, htmx: bool) -> None:
    mid = table.new_match()
    assert table.indicator(mid, 1, "9l").status == 302      # on another phone, meanwhile
    with unchanged(table, mid):
        page = score_at_once(table, mid, 1, "8h", 100, A, htmx=htmx,
                             query_string={"base": "new"})
    assert page.status == 409, page.status
    # beside the stored hand, what this phone sent, to send again as the next hand (issue
    # 21: never as a change of the hand another phone started)
    assert page.checked("indicator-indicator") == ["8h"]
    assert page.value("indicator-pile") == "100"
    assert page.checked("indicator-last") == ["0"]
    assert f'formaction="/m/{mid}/hands/2/played?base=' in page.html
    starts = re.findall(r'action="(/m/[^"]+/hands/\d+/(?:indicator|played|decider)\?[^"]*)"',
                        page.html)
    assert starts and all(f"/m/{mid}/hands/2/" in url for url in starts), starts


@HTMX
@pytest.mark.parametrize("kind", ["missing", "forged", "other-session"])
def test_scoring_at_once_checks_the_csrf_token(table: Table, htmx: bool, kind: str) -> None:
    mid = table.new_match()
    csrf_is_checked(table, mid, kind, lambda token: score_at_once(
        table, mid, 1, "8h", 100, A, htmx=htmx, token=token))


def test_a_decider_is_not_scored_as_a_played_hand(table: Table) -> None:
    mid = table.seed(TIE_HANDS)
    refused(table, mid, False, lambda: score_at_once(table, mid, 3, "8h", 100, A),
            "This is a decider hand: record who scored first", "7.4")


def test_a_hand_in_progress_shows_who_won_first_and_the_pickers_on_demand(
        table: Table) -> None:
    mid = table.new_match()
    table.indicator(mid, 1, "8h")
    table.trick(mid, 1, 1, winner=A)
    page = table.get(f"/m/{mid}")
    html = page.html
    assert html.index("Ágnes won trick 2") < html.index('id="trick-cards_0"')
    assert html.index("Ágnes won trick 2") < html.index("Finish the hand") \
        < html.index("Tricks recorded: Ágnes 1, Tamás 0")
    assert re.findall(r'<details class="declare"\s*>', html) and \
        not re.search(r'<details class="declare"\s+open', html)
    # a refused declaration keeps its picker open with the cards tapped
    page = table.trick(mid, 1, 2, (["7l"], []))
    assert page.status == 422
    assert re.search(r'<details class="declare"\s+open', page.html)
    assert page.checked("trick-cards_0") == ["7l"]


def test_the_trick_just_recorded_shows_with_its_verdict(table: Table) -> None:
    mid = table.new_match()
    table.indicator(mid, 1, "8h")
    # Tamás leads a kvart to the Under of acorns, Ágnes answers with one to the King of
    # leaves (4.2.4); Tamás takes the trick
    page = table.done(table.trick(mid, 1, 1, (["Kl", "Ol", "Ul", "10l"],
                                              ["Ua", "10a", "9a", "8a"]), B), False)
    assert "Trick 1: Tamás won" in page.text
    assert any("Ágnes scores 50" in v for v in page.shown("verdict")), page.shown("verdict")
    assert page.html.index("Trick 1: Tamás won") < page.html.index("Ágnes won trick 2")
    # after trick 16 the last one recorded is trick 16
    mid = table.seed([hand("8h", "0101010101010101")])
    page = table.get(f"/m/{mid}")
    assert "Trick 16: Tamás won" in page.text and "Trick 15: " not in page.text


@pytest.mark.parametrize("end", ["played", "claim"])
def test_editing_an_old_hand_opens_at_its_end(table: Table, end: str) -> None:
    finished = played((80, 71), A) if end == "played" else claim(A, 2, (0, 0))
    mid = table.seed([hand("8h", "01", None, finished)])
    html = table.get(f"/m/{mid}/hands/1").html
    form = "finish-pile" if end == "played" else "claim-pile_0"
    assert f'id="{form}"' in html
    assert html.index(f'id="{form}"') < html.index("won trick 3")   # before the next trick
    assert re.search(rf'<details class="{"finish" if end == "played" else "claim"}"\s+open',
                     html)
