"""Marjolet melds: what they are, which cards they use and what they score (rules section 4).

Notation (1): ``four:R`` for all four cards of rank R, ``marriage:X`` for the K and Q of suit X,
``marjolet:X`` for the jack of trumps and the Q of suit X. A meld is identified by its exact
cards (4.3.2); since the marjolet is the jack of trumps, a meld carries the trump suit.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from ...cards import FRENCH, Card
from ...errors import RuleViolation, shown
from ...words import P, T, Text
from .values import FOUR_POINTS, PAIR_POINTS, RANK_ORDER, Rules, four_points

KINDS = ("four", "marriage", "marjolet")
FOUR_NAMES = {          # four of a kind, as the table says it (4.1)
    "A": P("marjolet", "four aces"), "10": P("marjolet", "four tens"),
    "K": P("marjolet", "four kings"), "Q": P("marjolet", "four queens"),
    "J": P("marjolet", "four jacks"),
}

_FOUR = re.compile(r"^four:(A|10|K|Q|J|9|8|7)$")
_PAIR = re.compile(r"^(marriage|marjolet):([cdhs])$")


@dataclass(frozen=True, order=True)
class Meld:
    kind: str       # "four", "marriage" or "marjolet"
    key: str        # the rank of a four, the queen's suit of a marriage or marjolet
    trumps: str

    def __str__(self) -> str:
        return f"{self.kind}:{self.key}"

    @property
    def in_trumps(self) -> bool:
        return self.kind != "four" and self.key == self.trumps

    @property
    def cards(self) -> frozenset[Card]:
        if self.kind == "four":
            return frozenset(Card(self.key, suit) for suit in FRENCH.suits)
        if self.kind == "marriage":
            return frozenset({Card("K", self.key), Card("Q", self.key)})
        return frozenset({Card("J", self.trumps), Card("Q", self.key)})

    @property
    def name(self) -> Text:
        """``four kings``, ``the trump marriage``, ``the marjolet with the queen of hearts``."""
        if self.kind == "four":
            return FOUR_NAMES[self.key]
        suit = FRENCH.suit_names[self.key]
        if self.kind == "marriage":
            if self.in_trumps:
                return P("marjolet", "the trump marriage (%(suit)s)", suit=suit)
            return P("marjolet", "the marriage in %(suit)s", suit=suit)
        if self.in_trumps:
            return P("marjolet", "the marjolet with the trump queen")
        return P("marjolet", "the marjolet with the queen of %(suit)s", suit=suit)

    @property
    def shown_cards(self) -> str:
        """The meld's cards, as the table shows them: ``K♥ Q♥``."""
        return " ".join(FRENCH.short_name(card) for card in sorted(self.cards, key=card_order))

    def points(self, rules: Rules) -> int:
        """What the meld scores under ``rules`` (4.1); RuleViolation if it is not a meld there."""
        if self.kind != "four":
            return PAIR_POINTS[(self.kind, self.in_trumps)]
        points = four_points(self.key, rules)
        if points is None:
            raise RuleViolation("meld.not-in-rules", self.not_in_rules(), "6.3.4")
        return points

    def not_in_rules(self, trick: int | None = None, player: str = "") -> Text:
        """Why a four of a kind is not a meld under the rule set in force (6.3.4): four jacks
        under the traditional melds, four tens under the default ones; with ``trick``, as
        melded by ``player`` after it."""
        if trick is None:
            if self.key == "J":
                return T("Four jacks are not a meld under the traditional melds (four jacks "
                         "score only with the default melds)")
            return T("Four tens are not a meld under the default melds (four tens score 80 "
                     "only with the traditional melds)")
        if self.key == "J":
            return T("After trick %(number)s, %(player)s melds four jacks, which are not a meld "
                     "under the traditional melds (four jacks score only with the default "
                     "melds)", number=trick, player=player)
        return T("After trick %(number)s, %(player)s melds four tens, which are not a meld "
                 "under the default melds (four tens score 80 only with the traditional melds)",
                 number=trick, player=player)


def card_order(card: Card) -> tuple[int, int]:
    return FRENCH.suits.index(card.suit), RANK_ORDER.index(card.rank)


def _no_four(rank: str) -> RuleViolation:
    message = {
        "9": T("Four nines are not a meld: no meld contains a 9, 8 or 7"),
        "8": T("Four eights are not a meld: no meld contains a 9, 8 or 7"),
    }.get(rank) or T("Four sevens are not a meld: no meld contains a 9, 8 or 7")
    return RuleViolation("meld.not-a-meld", message, "4.1")


def make_meld(kind: str, key: str, trumps: str) -> Meld:
    """A meld from its notation's parts; four nines, eights or sevens are refused."""
    if kind == "four" and key not in FOUR_POINTS:
        raise _no_four(key)
    return Meld(kind, key, trumps)


def parse_meld(data: object, trumps: str) -> Meld:
    """Read a meld as notation (``four:K``, ``marriage:h``, ``marjolet:d``) or as the list of
    its cards (``["Kh", "Qh"]``, or one string ``"Kh Qh"``)."""
    if isinstance(data, str) and ":" in data:
        text = data.strip()
        if match := _FOUR.match(text):
            return make_meld("four", match.group(1), trumps)
        if match := _PAIR.match(text):
            return make_meld(match.group(1), match.group(2), trumps)
        raise RuleViolation(
            "meld.unknown",
            T("%(text)s is not a meld: write four:R, marriage:X or marjolet:X", text=shown(text)),
            "4.1",
        )
    if isinstance(data, (str, list)):
        return recognize(FRENCH.parse_many(data), trumps)
    raise RuleViolation("meld.unknown", T("%(value)s is not a meld", value=shown(data)), "4.1")


def recognize(cards: Iterable[Card], trumps: str, rules: Rules | None = None) -> Meld:
    """The meld a player shows as one group of cards (4.1), for a card picker.

    Four cards of one rank, a king and queen of one suit, or the jack of trumps and a queen;
    anything else is a RuleViolation that says why. With ``rules`` the meld must also be one
    of the rule set in force (6.3.4)."""
    group = frozenset(cards)
    meld = _recognize(group, trumps)
    if rules is not None:
        meld.points(rules)
    return meld


def is_meld(cards: Iterable[Card], trumps: str, rules: Rules | None = None) -> bool:
    """The yes/no form of ``recognize``, for enabling a button."""
    try:
        recognize(cards, trumps, rules)
    except RuleViolation:
        return False
    return True


def _recognize(group: frozenset[Card], trumps: str) -> Meld:
    names = " ".join(FRENCH.short_name(c) for c in sorted(group, key=card_order))
    ranks = {card.rank for card in group}
    suits = {card.suit for card in group}
    if len(group) == 4 and len(ranks) == 1:
        return make_meld("four", ranks.pop(), trumps)
    if len(group) == 2:
        by_rank = {card.rank: card for card in group}
        if set(by_rank) == {"K", "Q"} and len(suits) == 1:
            return Meld("marriage", suits.pop(), trumps)
        if set(by_rank) == {"J", "Q"}:
            if by_rank["J"].suit != trumps:
                raise RuleViolation(
                    "meld.marjolet-jack",
                    T("%(cards)s is not a meld: the marjolet is the jack of trumps (%(jack)s), "
                      "not %(card)s", cards=names, jack=FRENCH.short_name(Card("J", trumps)),
                      card=FRENCH.short_name(by_rank["J"])),
                    "6.3.4",
                )
            return Meld("marjolet", by_rank["Q"].suit, trumps)
    if not group:
        raise RuleViolation(
            "meld.not-a-meld",
            T("Nothing is not a meld: a meld is four aces, tens, kings, queens or jacks, a king "
              "and queen of one suit, or the jack of trumps with a queen"),
            "4.1",
        )
    raise RuleViolation(
        "meld.not-a-meld",
        T("%(cards)s is not a meld: a meld is four aces, tens, kings, queens or jacks, a king "
          "and queen of one suit, or the jack of trumps with a queen", cards=names),
        "4.1",
    )


def all_melds(trumps: str) -> list[Meld]:
    """Every meld of any rule set with these trumps (4.1): 5 fours, 4 marriages, 4 marjolets."""
    return (
        [Meld("four", rank, trumps) for rank in FOUR_POINTS]
        + [Meld(kind, suit, trumps) for kind in ("marriage", "marjolet") for suit in FRENCH.suits]
    )


def allowed(meld: Meld, rules: Rules) -> bool:
    """Is ``meld`` a meld of the rule set in force? (6.3.4)"""
    return meld.kind != "four" or four_points(meld.key, rules) is not None
