"""Who wins a trick (2.3.3) and which cards a player may play to it (2.4, the checker)."""

from __future__ import annotations

from collections.abc import Sequence

from ...cards import Card
from .values import RANK_ORDER


def beats(card: Card, best: Card, trumps: str | None) -> bool:
    """Does ``card``, played later, beat ``best``, the card winning the trick so far?"""
    if card.suit == best.suit:
        return RANK_ORDER.index(card.rank) < RANK_ORDER.index(best.rank)
    return card.suit == trumps


def winning_index(trick: Sequence[Card], trumps: str | None) -> int:
    """The position (0 = the lead) of the card that wins ``trick`` so far (2.3.3): the highest
    trump or, with no trump, the highest card of the suit led."""
    best = 0
    for i, card in enumerate(trick[1:], 1):
        if beats(card, trick[best], trumps):
            best = i
    return best


def legal_plays(hand: Sequence[Card], trick: Sequence[Card], trumps: str | None) -> list[Card]:
    """The cards of ``hand`` that may be played to ``trick`` (the cards played so far, lead
    first), in the order of ``hand`` (2.4): follow suit and beat the winning card if it is of
    the suit led and you can; else trump, over-trumping a trump if you can; else anything."""
    if not trick:
        return list(hand)                                   # 2.4.1
    led = trick[0].suit
    best = trick[winning_index(trick, trumps)]
    follow = [card for card in hand if card.suit == led]
    if follow:                                              # 2.4.2
        if best.suit == led:
            higher = [card for card in follow if beats(card, best, trumps)]
            if higher:
                return higher
        return follow
    ruff = [card for card in hand if card.suit == trumps]
    if ruff:                                                # 2.4.3
        if best.suit == trumps:
            higher = [card for card in ruff if beats(card, best, trumps)]
            if higher:
                return higher
        return ruff
    return list(hand)                                       # 2.4.4
