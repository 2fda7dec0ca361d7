"""Tartli card values and the pile counts that 2w cards can make (rules section 3 and 6.3.2)."""

from __future__ import annotations

from functools import lru_cache

from ...cards import HUNGARIAN, Card
from ...points import sums_by_count

SEQUENCE_ORDER = HUNGARIAN.ranks                       # A K O U 10 9 8 7 (melds only)
TRUMP_ORDER = ("O", "9", "A", "10", "K", "U", "8", "7")
PLAIN_ORDER = ("A", "10", "K", "O", "U", "9", "8", "7")
TRUMP_POINTS = {"O": 20, "9": 14, "A": 11, "10": 10, "K": 4, "U": 2, "8": 0, "7": 0}
PLAIN_POINTS = {"A": 11, "10": 10, "K": 4, "O": 3, "U": 2, "9": 0, "8": 0, "7": 0}

PILES_TOTAL = 151      # 61 in trumps + 3 × 30
LAST_TRICK = 10
STICHMATSCH = 161
TRICKS = 16
MELD_TRICKS = 8        # sets and sequences only in tricks 1–8 (4.3)
EXCHANGE_TRICKS = 7    # the trump-7 exchange only before tricks 1–7 (2.8)


def card_points(card: Card, trumps: str) -> int:
    return (TRUMP_POINTS if card.suit == trumps else PLAIN_POINTS)[card.rank]


def trick_winner(led: Card, second: Card, trumps: str) -> int:
    """0 if the leader's card wins, 1 if the second's (rule 2.5)."""
    if (led.suit == trumps) != (second.suit == trumps):
        return 0 if led.suit == trumps else 1
    order = TRUMP_ORDER if led.suit == trumps else PLAIN_ORDER
    if second.suit != led.suit:
        return 0
    return 1 if order.index(second.rank) < order.index(led.rank) else 0


@lru_cache(maxsize=1)
def _sums_by_count() -> tuple[frozenset[int], ...]:
    """sums[k] = every pile count that exactly k cards of the pack can make."""
    return sums_by_count(card_points(card, "h") for card in HUNGARIAN.cards)


def possible_pile(count: int, tricks_won: int) -> bool:
    """Can the 2w cards of w won tricks be worth exactly ``count``? (rule 6.3.2)"""
    cards = 2 * tricks_won
    return 0 <= cards <= 32 and count in _sums_by_count()[cards]


def pile_range(tricks_won: int) -> tuple[int, int]:
    sums = _sums_by_count()[2 * tricks_won]
    return min(sums), max(sums)
