"""Who wins a Troggu trick (2.2) and which cards a player may play to it (2.3, the checker),
with the fool exception (2.5).

A trick is the cards played so far, lead first. ``withheld`` says that the fool has been
withheld (2.5.2): it is then no trump, wins nothing, may not be played before the last trick
and, led to the last trick, sets no suit (2.5.4).
"""

from __future__ import annotations

from collections.abc import Sequence

from ...cards import SWISS_TAROT, TRUMP, Card
from ...errors import RuleViolation
from .values import FOOL


def is_trump(card: Card, withheld: bool = False) -> bool:
    """2.2: T1–T21, and the fool while it is live."""
    return card.suit == TRUMP and not (card == FOOL and withheld)


def _strength(card: Card) -> int:
    """Higher is stronger within its suit (trumps: live fool > T21 > … > T1)."""
    ranks = SWISS_TAROT.ranks_of(card.suit)
    return len(ranks) - ranks.index(card.rank)


def led_suit(trick: Sequence[Card], withheld: bool = False) -> str | None:
    """The suit of the first card (``TRUMP`` for a trump or the live fool); a withheld fool led
    to the last trick sets no suit: the next card does (2.3, 2.5.4). None: no suit yet."""
    for card in trick:
        if card == FOOL and withheld:
            continue
        return card.suit
    return None


def trick_winner(trick: Sequence[Card], withheld: bool = False) -> int:
    """The position (0 = the lead) of the card that wins the complete ``trick`` (2.2): the
    highest trump (live fool > T21 > … > T1), else the highest card of the suit led. A
    withheld fool never wins."""
    candidates = [i for i, c in enumerate(trick) if not (c == FOOL and withheld)]
    if not candidates:
        raise RuleViolation("trick.empty", "A trick needs a card that can win it", "2.2")
    trumps = [i for i in candidates if is_trump(trick[i], withheld)]
    if trumps:
        return max(trumps, key=lambda i: _strength(trick[i]))
    suit = led_suit(trick, withheld)
    return max((i for i in candidates if trick[i].suit == suit),
               key=lambda i: _strength(trick[i]))


def legal_plays(
    hand: Sequence[Card], trick: Sequence[Card], withheld: bool = False,
    last_trick: bool = False,
) -> list[Card]:
    """The cards of ``hand`` that may be played to ``trick`` (2.3), in the order of ``hand``.

    Follow a plain suit led; else play a trump if you have one (no duty to beat or over-trump),
    except that a player whose only trump is the live fool may play the fool or any other card
    (withholding it, 2.5.2); else anything. A withheld fool (``withheld``) stays in the hand
    until the last trick, where every player plays his one remaining card (2.3.5)."""
    if last_trick:
        return list(hand)
    playable = [c for c in hand if not (c == FOOL and withheld)]
    suit = led_suit(trick, withheld)
    if suit is None:                                         # 2.3.5: the leader
        return playable
    if suit != TRUMP:
        follow = [c for c in playable if c.suit == suit]
        if follow:                                           # 2.3.1
            return follow
    trumps = [c for c in playable if is_trump(c, withheld)]
    if trumps:                                               # 2.3.2
        if trumps == [FOOL]:
            return playable                                  # 2.5.2: the fool or any other
        return trumps
    return playable                                          # 2.3.3


__all__ = ["is_trump", "led_suit", "legal_plays", "trick_winner"]
