"""Troggu's tables as data: hand and Tapp sizes, card points, the payment multipliers and
shares, the regional thresholds, and the card points that c cards can hold
(shared/rules/troggu.md sections 2.1, 3, 4, 6.3, 7 and 8)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate

from ...cards import SWISS_TAROT, TRUMP, Card
from ...errors import RuleViolation
from ...points import sums_by_count
from ...words import P, T

MIN_PLAYERS, MAX_PLAYERS = 3, 8                     # 1
PARTNER_PLAYERS = (7, 8)                            # 4.5: forced game and partner call


@dataclass(frozen=True)
class Sizes:
    """How a hand is dealt for N players: h cards each (= tricks per hand), a Tapp of t."""

    players: int
    hand: int
    tapp: int
    packets: str

    def __post_init__(self) -> None:
        assert self.players * self.hand + self.tapp == len(SWISS_TAROT.cards)


DEAL: dict[int, Sizes] = {                          # 2.1
    3: Sizes(3, 18, 8, "6+6+6"),
    4: Sizes(4, 13, 10, "4+4+5"),
    5: Sizes(5, 11, 7, "4+4+3"),
    6: Sizes(6, 9, 8, "4+5"),
    7: Sizes(7, 8, 6, "4+4"),
    8: Sizes(8, 7, 6, "4+3"),
}
GRAECHEN_DEAL: dict[int, Sizes] = {                 # 8, Grächen deal: the Tapp after a round
    4: Sizes(4, 14, 6, P("troggu", "7 + Tapp + 7")),
    5: Sizes(5, 11, 7, P("troggu", "5 + Tapp + 6 or 6 + Tapp + 5")),
}


def deal_sizes(players: int, graechen_deal: bool = False) -> Sizes:
    """Hand and Tapp sizes for 3–8 players (2.1; the Grächen deal of 8 changes 4 players)."""
    if isinstance(players, bool) or not isinstance(players, int) \
            or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise RuleViolation(
            "settings.players", T("Troggu is for %(least)s to %(most)s players",
                                  least=MIN_PLAYERS, most=MAX_PLAYERS), "1"
        )
    if graechen_deal and players in GRAECHEN_DEAL:
        return GRAECHEN_DEAL[players]
    return DEAL[players]


# -- 3: card points ---------------------------------------------------------------------------

FOOL, MUND, BAGATT = SWISS_TAROT.parse("F"), SWISS_TAROT.parse("T21"), SWISS_TAROT.parse("T1")
FIVE_POINT_TRUMPS = (FOOL, MUND, BAGATT)             # 5 each; the other trumps 1
RANK_POINTS = {"K": 5, "Q": 4, "N": 3, "J": 2}       # pips 1
TRUMP_POINTS = 1
PIP_POINTS = 1
TOTAL_POINTS = 114
WIN_AT = 58                                          # 3: more than half
HALF = TOTAL_POINTS // 2                             # 57–57: nobody wins (7.1.1)


_FIVE_POINT_TRUMPS = frozenset(FIVE_POINT_TRUMPS)     # looked up by hash


def card_points(card: Card) -> int:
    if card.suit == TRUMP:
        return 5 if card in _FIVE_POINT_TRUMPS else TRUMP_POINTS
    return RANK_POINTS.get(card.rank, PIP_POINTS)


def points_of(cards: tuple[Card, ...] | list[Card]) -> int:
    return sum(map(card_points, cards))


def is_king(card: Card) -> bool:
    return card.suit != TRUMP and card.rank == "K"


KINGS = tuple(c for c in SWISS_TAROT.cards if is_king(c))
FIVE_POINT_CARDS = FIVE_POINT_TRUMPS + KINGS         # 8, Seven 5-point cards
CALLABLE = tuple(f"T{n}" for n in range(1, 21))      # 4.5.2: T1–T20, never T21 or the fool

VALUES = tuple(sorted((card_points(c) for c in SWISS_TAROT.cards), reverse=True))


# the sums of the largest values, by how many: _LARGEST[c] = sum(VALUES[:c])
_LARGEST = tuple(accumulate(VALUES, initial=0))


def hi(cards: int) -> int:
    """The sum of the ``cards`` largest card values (6.3)."""
    return _LARGEST[min(max(cards, 0), len(VALUES))]


def lo(cards: int) -> int:
    """The sum of the ``cards`` smallest card values: 114 − hi(62 − c) (6.3)."""
    return TOTAL_POINTS - hi(len(VALUES) - cards)


# -- 4.2 and 8: what a discard or a Tapp can be worth -----------------------------------------

@lru_cache(maxsize=4)
def _sums(without: frozenset[Card]) -> tuple[frozenset[int], ...]:
    return sums_by_count(card_points(c) for c in SWISS_TAROT.cards if c not in without)


def tapp_values(tapp: int, fool_and_bagatt: bool = False) -> frozenset[int]:
    """What a Tapp of ``tapp`` cards can be worth; with ``fool_and_bagatt`` it holds both
    (a Misère with 7 or 8 players, 4.4)."""
    if not fool_and_bagatt:
        return _sums(frozenset())[tapp]
    return frozenset(10 + s for s in _sums(frozenset({FOOL, BAGATT}))[tapp - 2])


def discard_values(tapp: int, kings: str) -> frozenset[int]:
    """What a legal discard of ``tapp`` cards can be worth (4.2): never F, T21 or T1, and
    kings by ``kings``: ``"all four"`` (0 or 4), ``"any"`` (0–4, variant) or ``"seven"`` (no
    kings, or all seven 5-point cards together, variant)."""
    plain = _sums(frozenset(FIVE_POINT_CARDS))
    sums = set(plain[tapp])
    if kings == "all four" and tapp >= 4:
        sums |= {20 + s for s in plain[tapp - 4]}
    elif kings == "any":
        for k in range(1, min(4, tapp) + 1):
            sums |= {5 * k + s for s in plain[tapp - k]}
    elif kings == "seven" and tapp >= 7:
        sums |= {35 + s for s in plain[tapp - 7]}
    return frozenset(sums)


# -- 7: result, multiplier, payments ----------------------------------------------------------

DEFAULT_STAKE = 10                                   # Rappen (7.1.4)
MAX_STAKE = 100_000
# 8, Double threshold: name, D (a preset is named after its place, said as it is)
THRESHOLDS: dict[str, tuple[str, int]] = {
    "standard": (P("troggu", "Standard"), 29),       # "fewer than 30" (default)
    "visp": ("Visp", 30),
    "st-niklaus": ("St Niklaus", 31),
    "graechen": ("Grächen", 20),
}
DEFAULT_THRESHOLD = "standard"
PRESET_PLAYERS: dict[str, tuple[int, int]] = {       # 8, Player limits: informational only
    "visp": (4, 8),
    "st-niklaus": (3, 7),
}

NO_TRICK = 3           # 7.1.3: the losing side won no trick
LOW = 2                # ... else it has D points or fewer
PLAIN = 1
SOLO_FACTOR = 2        # 7.1.4: u is doubled in a Solo

# 7.3: what each seat pays or receives, in units u; the declarer's share balances the rest.
DEFENDER_SHARE = 1
PARTNER_SHARE = 2      # 7–8 players, normal or forced game, with a partner


def multiplier(loser_points: int, loser_took_trick: bool, threshold: int) -> int:
    """7.1.3: 3 if the losing side won no trick, else 2 at D points or fewer, else 1."""
    if not loser_took_trick:
        return NO_TRICK
    return LOW if loser_points <= threshold else PLAIN


def shares(players: int, partner: bool) -> tuple[int, int, int]:
    """7.3: (each defender, the partner, the declarer) in units u."""
    defenders = players - (2 if partner else 1)
    partner_share = PARTNER_SHARE if partner else 0
    return DEFENDER_SHARE, partner_share, defenders * DEFENDER_SHARE - partner_share


# -- 4.1: calls and games ---------------------------------------------------------------------

PASS, NORMAL, SOLO = "pass", "normal", "solo"
CALLS = (PASS, NORMAL, SOLO)
FORCED, MISERE, THROWN_IN = "forced", "misere", "thrown-in"
GAMES = (NORMAL, SOLO, FORCED, MISERE, THROWN_IN)
GAME_NAMES = {
    NORMAL: P("troggu", "normal game"), SOLO: P("troggu", "Solo"),
    FORCED: P("troggu", "forced game"), MISERE: P("troggu", "Misère"),
    THROWN_IN: P("troggu", "thrown-in hand"),
}
A_GAME = {                                           # the game named inside a sentence
    NORMAL: P("troggu", "a normal game"), SOLO: P("troggu", "a Solo"),
    FORCED: P("troggu", "a forced game"), MISERE: P("troggu", "a Misère"),
    THROWN_IN: P("troggu", "a thrown-in hand"),
}
FORCED_BY = ("F", "T1")                              # 4.5.1: the fool's holder, else T1's
