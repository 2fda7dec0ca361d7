"""Stovkahra card values, combinations and the card points that w tricks can hold
(rules sections 3, 4 and 6.3.2)."""

from __future__ import annotations

from ...cards import FRENCH, Card
from ...points import ranges_text, sums_by_count
from ...words import P, Text

SEATS = ("N", "E", "S", "W")                 # clockwise (1)
TEAMS = ("NS", "EW")                         # side 0 = seats 0 and 2, side 1 = seats 1 and 3
RANK_ORDER = FRENCH.ranks                    # A K Q J 10 9 8 7 in every suit (1)

CARD_POINTS = {"A": 6, "K": 5, "Q": 4, "J": 3, "10": 0, "9": 0, "8": 0, "7": 0}    # 3
DEAL_POINTS = 72                             # 18 per suit × 4 (3)
TRICKS = 8                                   # 4 cards each (2.2)
CARDS_PER_TRICK = 4

# 4: (rank, number) → points. Nines and eights form no combination.
COMBINATIONS: dict[tuple[str, int], int] = {
    ("A", 4): 40, ("A", 3): 30,
    ("10", 4): 20, ("7", 4): 20,
    ("10", 3): 10, ("7", 3): 10,
    ("K", 4): 12, ("Q", 4): 12, ("J", 4): 12,
    ("K", 3): 6, ("Q", 3): 6, ("J", 3): 6,
}
COMBINATION_RANKS = ("A", "K", "Q", "J", "10", "7")
MAX_DECLARED_CARDS = 8                       # a player holds 8 cards (4.5)
PLURAL: dict[str, Text] = {
    "A": P("stovkahra", "aces"), "K": P("stovkahra", "kings"), "Q": P("stovkahra", "queens"),
    "J": P("stovkahra", "jacks"), "10": P("stovkahra", "tens"), "9": P("stovkahra", "nines"),
    "8": P("stovkahra", "eights"), "7": P("stovkahra", "sevens"),
}
"""A rank's cards, as a message names them ("declared aces twice")."""
CAPITALISED: dict[str, Text] = {
    "A": P("stovkahra", "Aces"), "K": P("stovkahra", "Kings"), "Q": P("stovkahra", "Queens"),
    "J": P("stovkahra", "Jacks"), "10": P("stovkahra", "Tens"), "7": P("stovkahra", "Sevens"),
}
"""The same at the start of a sentence, for the ranks that form combinations."""
COMBINATION_NAMES: dict[tuple[str, int], Text] = {
    ("A", 3): P("stovkahra", "three aces"), ("A", 4): P("stovkahra", "four aces"),
    ("K", 3): P("stovkahra", "three kings"), ("K", 4): P("stovkahra", "four kings"),
    ("Q", 3): P("stovkahra", "three queens"), ("Q", 4): P("stovkahra", "four queens"),
    ("J", 3): P("stovkahra", "three jacks"), ("J", 4): P("stovkahra", "four jacks"),
    ("10", 3): P("stovkahra", "three tens"), ("10", 4): P("stovkahra", "four tens"),
    ("7", 3): P("stovkahra", "three sevens"), ("7", 4): P("stovkahra", "four sevens"),
}
"""The name of each combination (4), made once: a deal's lines name them often."""

# 5: bonuses
LAST_TRICK = 6
LAST_TRICK_SEVEN = 26                        # in total, including the 6 (never 32)
FIRST_TRICK_SEVEN = 52
MIDDLE_SEVEN = 10
MAX_SEVENS = 4                               # each seven wins at most one trick


def team_of(seat: int) -> int:
    """The side of a seat: NS (0) or EW (1)."""
    return seat % 2


def combination_points(rank: str, count: int) -> int:
    return COMBINATIONS[(rank, count)]


def combination_name(rank: str, count: int) -> Text:
    """``three aces``, ``four sevens``."""
    return COMBINATION_NAMES[(rank, count)]


def seven_bonus(trick: int) -> int:
    """What winning trick ``trick`` with a seven is worth (5)."""
    if trick == 1:
        return FIRST_TRICK_SEVEN
    if trick == TRICKS:
        return LAST_TRICK_SEVEN
    return MIDDLE_SEVEN


def card_points(card: Card) -> int:
    return CARD_POINTS[card.rank]


POSSIBLE_POINTS: tuple[frozenset[int], ...] = tuple(
    sums
    for count, sums in enumerate(sums_by_count(card_points(c) for c in FRENCH.cards))
    if count % CARDS_PER_TRICK == 0
)
"""POSSIBLE_POINTS[w] = the card points the 4w cards of w tricks can hold (6.3.2)."""


def possible_points(points: int, tricks: int) -> bool:
    """Can w tricks hold exactly ``points`` card points? (6.3.2)"""
    return 0 <= tricks <= TRICKS and points in POSSIBLE_POINTS[tricks]


def possible_text(tricks: int) -> str:
    """The row of the table of 6.3.2: ``"0, 3–24"`` for one trick."""
    return ranges_text(POSSIBLE_POINTS[tricks])
