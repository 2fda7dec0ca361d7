"""Facts that stay right when an earlier Troggu hand is deleted or edited: who dealt (6.1: the
app proposes the dealer, the table records it), and the choices of the Tappist (the partner
call of 4.5.2 and the discard of 4.2), which belong to the Tappist who made them.

Players are named by letters in seat order, as in the rules' examples: A = seat 0, B = seat 1...
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from troggu_helpers import A, B, C, D, settings

from referee.engine import matchfile
from referee.engine.errors import RuleViolation
from referee.engine.games.troggu import GAME


def bid(bids: list[str], points: int = 70, **extra: Any) -> dict[str, Any]:
    """A finished normal game whose Tappist the bids decide (no declarer written down)."""
    return GAME.canonical_hand({
        "bids": bids, "end": {"points": points, "loser_took_trick": True}, **extra,
    })


def declarers(hands: list[dict[str, Any]], n: int = 4) -> list[int]:
    return [h.detail["declarer"] for h in GAME.score(settings(n), hands).hands]


# -- 6.1 and 2.4: who dealt is recorded when the hand is stored ---------------------------------

def test_complete_fills_each_missing_dealer_as_the_app_proposes_it():
    # A deals hand 1; hand 2 is dealt out of turn by D; the deal then passes to the right.
    hands = [bid(["normal", "pass", "pass", "pass"]), bid(["normal", "pass", "pass", "pass"],
             dealer=D), bid(["normal", "pass", "pass", "pass"])]
    completed = GAME.complete(settings(4), hands)
    assert [h["dealer"] for h in completed] == [A, D, A]
    before = GAME.score(settings(4), hands)
    after = GAME.score(settings(4), completed)
    assert [h.scores for h in after.hands] == [h.scores for h in before.hands]
    assert [h.dealer for h in after.hands] == [h.dealer for h in before.hands]


def test_complete_starts_from_the_first_dealer():
    s = settings(4, first_dealer=C)
    completed = GAME.complete(s, [bid(["normal", "pass", "pass", "pass"])] * 3)
    assert [h["dealer"] for h in completed] == [C, D, A]


def test_complete_changes_nothing_else_and_keeps_the_hands_given():
    hands = [bid(["pass", "normal", "pass", "pass"])]
    original = copy.deepcopy(hands)
    completed = GAME.complete(settings(4), hands)
    assert hands == original
    assert {k: v for k, v in completed[0].items() if k != "dealer"} == \
        {k: v for k, v in original[0].items() if k != "dealer"}


def test_a_file_without_dealers_keeps_its_bids_on_the_right_seats_after_a_delete():
    """Hand 2 is dealt by B: C speaks first and his normal bid makes him Tappist. Deleting
    hand 1 must not move the deal (and with it every call) one seat back."""
    hands = [bid(["pass", "normal", "pass", "pass"]), bid(["normal", "pass", "pass", "pass"])]
    loaded = matchfile.load({
        "format": "referee-match", "version": 1, "game": "troggu", "created": "2026-12-01",
        "settings": settings(4), "hands": hands,
    })
    assert [h["dealer"] for h in loaded.hands] == [A, B]
    assert declarers(loaded.hands) == [C, C]
    assert declarers(loaded.hands[1:]) == [C]


# -- 4.2.1, 4.5.2: the call and the discard are the Tappist's, and void when he is no longer -----

E = 4
SEVEN = settings(7)
DISCARD_6 = ["2c", "3c", "4c", "5c", "6c", "2d"]          # 6 card points
C_TAPPIST = ["pass", "normal", "pass", "pass", "pass", "pass", "pass"]   # B speaks first
E_TAPPIST = ["pass", "pass", "pass", "normal", "pass", "pass", "pass"]


def seven(bids: list[str], by: int | None = C, discard_by: int | None = C) -> dict[str, Any]:
    return GAME.canonical_hand({
        "dealer": A, "bids": bids, "call": {"trump": "T20", "partner": D, "by": by},
        "discard": DISCARD_6, "discard_by": discard_by,
        "end": {"points": 62, "tricks": 5},
    })


def test_the_tappists_own_call_makes_the_partnership():
    hand = GAME.score(SEVEN, [seven(C_TAPPIST)]).hands[0]
    assert hand.detail["partner"] == D
    assert hand.scores == (-10, -10, 30, 20, -10, -10, -10)        # 7.3: 30 and 20 at 7


def test_a_call_by_a_former_tappist_is_void_and_the_hand_waits_for_the_new_call():
    """The bidding is corrected: E, not C, was Tappist. C's call (D as partner) is no call of
    E's; the hand pays nothing until E's call is recorded."""
    result = GAME.score(SEVEN, [seven(E_TAPPIST), seven(E_TAPPIST, by=E, discard_by=E)])
    hand = result.hands[0]
    assert hand.detail["declarer"] == E and hand.detail["partner"] is None
    assert hand.detail["pending"] == "call"
    assert hand.scores == (0,) * 7
    assert "waiting for E's partner call" in hand.summary
    void = [line for line in hand.lines if "void" in line.text]
    assert [line.rule for line in void] == ["4.5.2", "4.2.1"]
    assert void[0].text.startswith("C's partner call (trump XX, D as partner) is void: E is now")
    # the hands after it fold as before; the balances hold only what was paid
    assert result.hands[1].scores == (-10, -10, -10, 20, 30, -10, -10)
    assert result.standing.totals == result.hands[1].scores


def test_the_new_tappists_call_settles_the_hand():
    hand = GAME.score(SEVEN, [seven(E_TAPPIST, by=E)]).hands[0]
    assert "pending" not in hand.detail and hand.detail["partner"] == D
    assert hand.scores == (-10, -10, -10, 20, 30, -10, -10)
    assert "void_discard" in hand.detail                            # C's discard is still void


def test_a_void_discard_is_read_as_not_recorded_and_the_hand_still_scores():
    """4 players: B's discard, then the bidding corrected so that C was Tappist."""
    discard = ["Qs", "Qb", "9s", "8s", "7s", "6s", "5s", "9b", "8b", "7b"]
    hand = {"dealer": A, "bids": ["pass", "normal", "pass", "pass"], "discard": discard,
            "discard_by": B, "end": {"points": 71, "tricks": 7}}
    outcome = GAME.score(settings(4), [GAME.canonical_hand(hand)]).hands[0]
    assert outcome.detail["declarer"] == C
    assert "discard_points" not in outcome.detail
    assert outcome.detail["void_discard"].startswith(
        "B's discard (Q♠ 9♠ 8♠ 7♠ 6♠ 5♠ Q♣ 9♣ 8♣ 7♣) is void: C is now the Tappist")
    assert outcome.scores == (-10, -10, 30, -10)


def test_a_call_and_discard_that_do_not_say_who_made_them_are_the_tappists():
    """A file written before the maker was recorded: read, and completed, as the Tappist's."""
    old = seven(C_TAPPIST, by=None, discard_by=None)
    assert old["call"]["by"] is None and old["discard_by"] is None
    completed = GAME.complete(SEVEN, [old])
    assert completed[0]["call"]["by"] == C and completed[0]["discard_by"] == C
    assert GAME.score(SEVEN, completed).hands[0].scores == \
        GAME.score(SEVEN, [old]).hands[0].scores == (-10, -10, 30, 20, -10, -10, -10)


def test_the_maker_of_a_choice_is_one_of_the_players():
    with pytest.raises(RuleViolation) as err:
        GAME.score(SEVEN, [seven(C_TAPPIST, by=7)])
    assert (err.value.code, err.value.rule) == ("fact.player", "6.1")
