"""Changing the past: editing an earlier hand, deleting a hand, undo."""

from __future__ import annotations

import pytest
from webtools import HAND_440_71, TIE_HANDS, A, B, Table, claim, decider, hand, posts_to, unchanged

HTMX = pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
CLAIM_HAND = hand("8h", "0", {1: (["set:A"], [])}, claim(A, 1, (21, 0)))


def test_edit_page_shows_the_stored_trick(table: Table) -> None:
    mid = table.seed([HAND_440_71, CLAIM_HAND])
    page = table.get(f"/m/{mid}/hands/1?trick=2")
    assert page.status == 200
    assert "Editing hand 1" in page.text
    assert "Trick 2 · Tamás leads" in page.text
    assert sorted(page.checked("trick-cards_0")) == ["9a", "9b", "9h", "9l"]
    assert page.checked("trick-cards_1") == []
    assert page.checked("indicator-indicator") == ["7h"]
    assert page.value("finish-pile") == "80"
    assert page.checked("finish-last") == ["0"]
    # the form posts back to the edited trick, staying in the editor
    assert posts_to(page, f"/m/{mid}/hands/1/trick/2", editing=True)
    part = table.get(f"/m/{mid}/hands/2", htmx=True)
    assert part.is_partial and "Editing hand 2" in part.text
    assert part.value("claim-pile_0") == "21" and part.value("claim-completed") == "1"


@HTMX
def test_editing_an_earlier_hand_turns_a_later_claim_wrong(table: Table, htmx: bool) -> None:
    """Hand 1 loses its Four Nines (150): Ágnes's claim in hand 2 counts 411, not 561."""
    mid = table.seed([HAND_440_71, CLAIM_HAND])
    assert table.get(f"/m/{mid}").standings() == ((0, 0), (2, 0))
    response = table.trick(mid, 1, 2, ([], []), B, htmx=htmx, editing=True)
    if not htmx:
        assert response.location == f"/m/{mid}/hands/1#outcome"      # the notices, in view
    page = table.done(response, htmx)
    assert "Editing hand 1" in page.text
    assert ("Hand 2 now: Tamás wins 1 buli (was: Ágnes wins 2 buli (maccs))."
            in page.notices), page.notices
    assert "Match score now Ágnes 0, Tamás 1 (was Ágnes 2, Tamás 0)." in page.notices
    assert page.standings() == ((0, 0), (0, 1))
    assert "411 < 501: wrong" in table.explained(page)
    hands = table.hands(mid)
    assert hands[0]["tricks"][1] == {"winner": 1, "melds": [[], []]}
    assert hands[0]["tricks"][0] == HAND_440_71["tricks"][0]
    assert hands[1] == {**CLAIM_HAND, "dealer": B}        # its dealer recorded on saving
    # the notices are shown once
    assert not table.get(f"/m/{mid}").notices


@HTMX
def test_edit_that_changes_only_totals_says_so(table: Table, htmx: bool) -> None:
    later = hand("8h", "", None, {"kind": "played", "piles": [80, 71], "last": 1,
                                  "stichmatsch": None})
    mid = table.seed([HAND_440_71, later, hand("9l")])
    page = table.done(table.finish(mid, 1, 90, last=A, htmx=htmx, editing=True), htmx)
    # hand 1 was 440–71, is 450–61; hand 2 scores 80–81, so its totals 520–152 become
    # 530–142: Ágnes still wins 2 buli there
    assert ("Hand 2: totals after it now Ágnes 530, Tamás 142 (were Ágnes 520, Tamás 152)."
            in page.notices), page.notices
    assert not any(n.startswith("Hand 2 now") or n.startswith("Match score") for n in
                   page.notices)
    assert table.hands(mid)[0]["end"]["piles"] == [90, 61]


@HTMX
def test_editing_a_hand_into_a_broken_match_is_refused(table: Table, htmx: bool) -> None:
    """Taking points from hand 2 of the tie would leave hand 3's decider undue."""
    mid = table.seed(TIE_HANDS + [decider(B)])
    with unchanged(table, mid):
        page = table.rejected(table.finish(mid, 2, 70, last=A, htmx=htmx, editing=True), htmx)
    assert any("Hand 3: A decider hand follows only a tie of 501 or more" in e
               for e in page.errors), page.errors
    assert page.value("finish-pile") == "70"               # the entry is kept to correct
    assert "Editing hand 2" in page.text


@HTMX
def test_delete_the_last_hand(table: Table, htmx: bool) -> None:
    mid = table.seed([HAND_440_71, CLAIM_HAND])
    page = table.done(table.delete(mid, 2, htmx=htmx), htmx)
    assert "Hand 2 deleted." in page.notices
    assert "Match score now Ágnes 0, Tamás 0 (was Ágnes 2, Tamás 0)." in page.notices
    assert page.standings() == ((440, 71), (0, 0))
    assert table.hands(mid) == [{**HAND_440_71, "dealer": A}]
    assert "Undo: Hand 2 deleted" in page.text


@HTMX
def test_delete_an_earlier_hand_recomputes_the_rest(table: Table, htmx: bool) -> None:
    """Without hand 1 the claim becomes hand 1, still dealt by Tamás (6.1.1): 121 < 501, a
    wrong claim."""
    mid = table.seed([HAND_440_71, CLAIM_HAND])
    page = table.done(table.delete(mid, 1, htmx=htmx), htmx)
    assert "Hand 1 deleted." in page.notices
    assert ("Hand 1 now: Tamás wins 1 buli (was: Ágnes wins 2 buli (maccs))."
            in page.notices), page.notices
    assert page.standings() == ((0, 0), (0, 1))
    assert table.hands(mid) == [{**CLAIM_HAND, "dealer": B}]


@HTMX
def test_delete_refused_when_the_rest_would_break(table: Table, htmx: bool) -> None:
    mid = table.seed(TIE_HANDS + [decider(B)])
    with unchanged(table, mid):
        page = table.rejected(table.delete(mid, 1, htmx=htmx), htmx)
    # named as the table sees it now: hand 3 (hand 2 once hand 1 is gone)
    assert any("Hand 1 cannot be deleted alone: once it is gone, a later hand no longer fits. "
               "Hand 3: A decider hand follows only a tie" in e for e in page.errors), page.errors


@HTMX
def test_undo_step_by_step(table: Table, htmx: bool) -> None:
    mid = table.new_match()
    table.done(table.indicator(mid, 1, "8h", htmx=htmx), htmx)
    table.done(table.trick(mid, 1, 1, ([], ["Al", "Kl", "Ol"]), B, htmx=htmx), htmx)
    page = table.done(table.finish(mid, 1, 80, last=B, htmx=htmx), htmx)
    assert "Undo: Hand finished (hand 1)" in page.text
    assert page.standings() == ((80, 101), (0, 0))

    page = table.done(table.undo(mid, htmx=htmx), htmx)
    assert "Undone: Hand finished (hand 1)." in page.notices
    assert table.hands(mid)[0]["end"] is None
    assert page.standings() == ((0, 0), (0, 0))
    assert "Undo: Trick 1 of hand 1" in page.text

    page = table.done(table.undo(mid, htmx=htmx), htmx)
    assert "Undone: Trick 1 of hand 1." in page.notices
    assert table.hands(mid)[0]["tricks"] == []

    page = table.done(table.undo(mid, htmx=htmx), htmx)
    assert "Undone: Trump indicator (hand 1)." in page.notices
    assert table.hands(mid) == []
    assert "Undo:" not in page.text

    page = table.done(table.undo(mid, htmx=htmx), htmx)
    assert "Nothing to undo." in page.notices
    assert table.hands(mid) == []


@HTMX
def test_undo_an_edit_and_a_delete(table: Table, htmx: bool) -> None:
    mid = table.seed([HAND_440_71, CLAIM_HAND])
    original = table.hands(mid)
    table.done(table.trick(mid, 1, 2, ([], []), B, htmx=htmx, editing=True), htmx)
    table.done(table.delete(mid, 2, htmx=htmx), htmx)
    assert len(table.hands(mid)) == 1
    page = table.done(table.undo(mid, htmx=htmx), htmx)
    assert "Undone: Hand 2 deleted." in page.notices
    assert page.standings() == ((0, 0), (0, 1))
    page = table.done(table.undo(mid, htmx=htmx), htmx)
    assert "Undone: Hand 1 edited (trick 2)." in page.notices      # an edit, said as one
    assert table.hands(mid) == original
    assert page.standings() == ((0, 0), (2, 0))
