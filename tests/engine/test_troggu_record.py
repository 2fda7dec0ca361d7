"""Facts that stay right when an earlier Troggu hand is deleted or edited: who dealt (6.1: the
app proposes the dealer, the table records it), and the choices of the Tappist (the partner
call of 4.5.2 and the discard of 4.2), which belong to the Tappist who made them.

Players are named by letters in seat order, as in the rules' examples: A = seat 0, B = seat 1...
"""

from __future__ import annotations

import copy
from typing import Any

from troggu_helpers import A, B, C, D, settings

from referee.engine import matchfile
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
