"""Who dealt: a fact the table records and the app only proposes (every game's 6.1), and the
rotation it proposes: the next seat in the order the game numbers its seats, after every hand
(Tartli and Marjolet 2.1: the deal alternates; Stovkahra 2.5: it passes to the left; Troggu
2.4: to the right, the seats being numbered anticlockwise). One rotation for every game.

The app proposes the match's first dealer for hand 1, then the seat after the previous hand's
recorded dealer. A hand stored without its dealer (written before the dealer was recorded) is
read with that proposal, so its score never moves; a recorded dealer out of turn is the table's
record, scored as recorded and marked in the hand's lines, citing the rotation rule that made
another player due (Tartli and Marjolet 2.1; Stovkahra and Troggu say it in their own words).
"""

from __future__ import annotations

from typing import Any

from ..words import T
from .base import Line


def proposed_after(dealer: int, seats: int = 2) -> int:
    """The dealer the app proposes for the hand after one dealt by ``dealer``."""
    return (dealer + 1) % seats


def complete_dealers(
    hands: list[dict[str, Any]], first_dealer: int, seats: int = 2
) -> list[dict[str, Any]]:
    """Canonical ``hands`` with a missing (or null) ``dealer`` filled in with the proposal,
    the key written first as the canonical form does; the hands are not changed in place."""
    done = []
    due = first_dealer
    for hand in hands:
        dealer = hand.get("dealer")
        if dealer is None:
            dealer = due
            hand = {"dealer": dealer, **{k: v for k, v in hand.items() if k != "dealer"}}
        done.append(hand)
        due = proposed_after(dealer, seats)
    return done


ROTATION = "2.1"
"""Tartli's and Marjolet's rule of the alternation (2.1: the deal alternates after every hand)."""


def out_of_turn(dealer: int, due: int, names: list[str]) -> Line:
    """The line of a two-player hand whose recorded dealer breaks the alternation (2.1): not
    an error."""
    return Line(dealer, T("%(dealer)s dealt, out of turn: %(due)s was due",
                          dealer=names[dealer], due=names[due]), None, ROTATION)
