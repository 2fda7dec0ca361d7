"""Marjolet's rules as data: the rule switches, card values, meld and bonus tables, the trick
winner and the brisques that w tricks can hold (shared/rules/marjolet.md, sections 1–5, 8)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ...cards import FRENCH, Card
from ...points import sums_by_count
from ...words import P, Text

RANK_ORDER = ("A", "10", "K", "Q", "J", "9", "8", "7")   # 1: every suit, trumps included
BRISQUE_POINTS = {"A": 10, "10": 10}                       # 3: every other card 0
BRISQUES_TOTAL = 80                                        # 3: 4 aces + 4 tens, × 10
TRICKS = 16                                                # 2.3
MELD_TRICKS = 10                                           # 2.3: phase 1, melds and exchange
LAST_SIX = range(MELD_TRICKS + 1, TRICKS + 1)              # tricks 11–16: the sweep (5)
TURN_CARDS = 5                                             # 4.2.3: 6 minus the card played
HAND_CARDS = 6                                             # 2.2
TARGETS = (500, 1000)                                      # 1, 7.4, 8


@dataclass(frozen=True)
class Rules:
    """The variant switches of section 8 (the target is a setting of its own)."""

    traditional_melds: bool = False      # 4A 100, 4×10 80, 4K 60, 4Q 40; four jacks no meld
    turn_up_seven_10: bool = False       # the dealer's turned-up 7 scores 10, not 7
    no_trick_10_bonus: bool = False      # the winner of trick 10 scores nothing for it
    sweep_40: bool = False               # the sweep adds 40, not 50

    @property
    def preset(self) -> str:
        """``default`` (all off), ``traditional`` (all on) or ``custom``."""
        values = {self.traditional_melds, self.turn_up_seven_10, self.no_trick_10_bonus,
                  self.sweep_40}
        if values == {False}:
            return "default"
        return "traditional" if values == {True} else "custom"


SWITCHES = ("traditional_melds", "turn_up_seven_10", "no_trick_10_bonus", "sweep_40")
PRESETS = {
    "default": Rules(),
    "traditional": Rules(True, True, True, True),     # 8: "switches on the first four"
}
SWITCH_TITLES: dict[str, Text] = {        # the variants' names, as a page and the rules say them
    "traditional_melds": P("marjolet", "Traditional melds"),
    "turn_up_seven_10": P("marjolet", "Turn-up seven 10"),
    "no_trick_10_bonus": P("marjolet", "No trick-10 bonus"),
    "sweep_40": P("marjolet", "Sweep 40"),
}

# 4.1: four of a kind, (default, traditional); None = not a meld under that rule set
FOUR_POINTS: dict[str, tuple[int | None, int | None]] = {
    "A": (100, 100),
    "10": (None, 80),
    "K": (80, 60),
    "Q": (60, 40),
    "J": (40, None),
}
# 4.1: (kind, in trumps) → points, the same under both rule sets
PAIR_POINTS = {
    ("marriage", True): 40, ("marriage", False): 20,
    ("marjolet", True): 40, ("marjolet", False): 20,
}

# 5: bonuses, (default, variant)
TURN_UP_SEVEN = (7, 10)        # the dealer, when the turn-up is a 7 (Turn-up seven 10)
EXCHANGE = 10                  # the exchanger of the trump 7 (4.4.1)
SEVEN_PLAYED = 10              # who plays the trump 7 never exchanged, not turned up (4.4.3)
TRICK_10 = (10, 0)             # the winner of trick 10 (No trick-10 bonus)
TURN_UP_TAKEN = 10             # the loser of trick 10, who takes the turn-up
LAST_TRICK = 10                # the winner of trick 16
SWEEP = (50, 40)               # on top of the last trick, for all of tricks 11–16 (Sweep 40)


def four_points(rank: str, rules: Rules) -> int | None:
    return FOUR_POINTS[rank][1 if rules.traditional_melds else 0]


def turn_up_seven(rules: Rules) -> int:
    return TURN_UP_SEVEN[1 if rules.turn_up_seven_10 else 0]


def trick_10(rules: Rules) -> int:
    return TRICK_10[1 if rules.no_trick_10_bonus else 0]


def sweep(rules: Rules) -> int:
    return SWEEP[1 if rules.sweep_40 else 0]


def base_total(rules: Rules, turned_up_seven: bool) -> int:
    """What a deal distributes before melds and the sweep (3): 120 or 117 by default."""
    seven = turn_up_seven(rules) if turned_up_seven else EXCHANGE
    return BRISQUES_TOTAL + trick_10(rules) + TURN_UP_TAKEN + LAST_TRICK + seven


def brisque_points(card: Card) -> int:
    return BRISQUE_POINTS.get(card.rank, 0)


def trump_seven(trumps: str) -> Card:
    return Card("7", trumps)


def beats(second: Card, led: Card, trumps: str) -> bool:
    """Does the second's card win the trick against the leader's? (2.5)"""
    if (second.suit == trumps) != (led.suit == trumps):
        return second.suit == trumps
    return second.suit == led.suit and RANK_ORDER.index(second.rank) < RANK_ORDER.index(led.rank)


@lru_cache(maxsize=1)
def _brisques_by_cards() -> tuple[frozenset[int], ...]:
    return sums_by_count(brisque_points(card) for card in FRENCH.cards)


def possible_brisques(points: int, tricks: int) -> bool:
    """Can the 2w cards of w tricks hold exactly ``points`` in aces and tens? (6.3.1)"""
    return 0 <= tricks <= TRICKS and points in _brisques_by_cards()[2 * tricks]


def brisque_range(tricks: int) -> tuple[int, int]:
    """10 × max(0, 2w − 24) to 10 × min(8, 2w) (6.3.1)."""
    sums = _brisques_by_cards()[2 * tricks]
    return min(sums), max(sums)
