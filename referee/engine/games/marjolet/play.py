"""Who wins a trick (2.5) and which cards the second player may play to it (2.7, the checker)."""

from __future__ import annotations

from collections.abc import Sequence

from ...cards import Card
from .values import MELD_TRICKS, RANK_ORDER, beats


def trick_winner(leader: int, cards: tuple[Card, Card], trumps: str) -> int:
    """The player who wins a trick that ``leader`` led with ``cards[0]`` (2.5)."""
    return 1 - leader if beats(cards[1], cards[0], trumps) else leader


def legal_plays(hand: Sequence[Card], led: Card, trumps: str, trick: int) -> list[Card]:
    """The cards of ``hand`` the second player may play to ``led`` in trick ``trick``, in the
    order of ``hand`` (2.7): anything in tricks 1–10; in tricks 11–16 follow suit, with a
    higher card if he has one; with no card of the suit led, a trump; else anything."""
    if trick <= MELD_TRICKS:
        return list(hand)
    follow = [card for card in hand if card.suit == led.suit]
    if follow:
        higher = [c for c in follow if RANK_ORDER.index(c.rank) < RANK_ORDER.index(led.rank)]
        return higher or follow
    ruff = [card for card in hand if card.suit == trumps]
    return ruff or list(hand)


def why_illegal(hand: Sequence[Card], led: Card, trumps: str) -> str:
    """What the rules asked of the second player holding ``hand`` (a key: ``win``,
    ``follow``, ``trump`` or ``any``, for ``record``'s message)."""
    follow = [card for card in hand if card.suit == led.suit]
    if follow:
        higher = [c for c in follow if RANK_ORDER.index(c.rank) < RANK_ORDER.index(led.rank)]
        return "win" if higher else "follow"
    if any(card.suit == trumps for card in hand):
        return "trump"
    return "any"
