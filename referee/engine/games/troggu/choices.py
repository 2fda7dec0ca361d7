"""The Tappist's choices, and who made them: the partner call (4.5.2) and the discard (4.2.1).

Only the Tappist calls and discards. A call or a discard recorded ``by`` another player (the
Tappist before an edit of the bidding made someone else Tappist) is void: the hand is read as if
it were not recorded, a line says so, and ``detail`` tells the page what to ask again. A
finished hand of 7–8 players whose call is void waits for the new Tappist's call: it pays
nothing until then (``detail["pending"]``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ...cards import SWISS_TAROT
from ...errors import RuleViolation
from ...words import N, T
from ..base import Line
from .bidding import bidding
from .exchange import cards_text
from .facts import HandFacts
from .table import HandScore, Table
from .values import FORCED, NORMAL, PARTNER_PLAYERS


def void_choices(
    facts: HandFacts, game: str | None, declarer: int | None, table: Table, score: HandScore
) -> HandFacts:
    """``facts`` without the choices made by someone who is not the Tappist, each with a line
    saying whose it was and that it is void."""
    if declarer is None or game not in (NORMAL, FORCED):
        return facts
    tappist = table.name(declarer)
    call = facts.call
    if call is not None and call.by is not None and call.by != declarer:
        trump = T("a trump") if call.trump is None else \
            T("trump %(card)s", card=SWISS_TAROT.short_name(call.trump))
        if call.partner is None:
            text = T("%(player)s's partner call (%(trump)s, alone) is void: %(tappist)s is now "
                     "the Tappist and calls again", player=table.name(call.by), trump=trump,
                     tappist=tappist)
        else:
            text = T("%(player)s's partner call (%(trump)s, %(partner)s as partner) is void: "
                     "%(tappist)s is now the Tappist and calls again",
                     player=table.name(call.by), trump=trump,
                     partner=table.name(call.partner), tappist=tappist)
        score.lines.append(Line(call.by, text, None, "4.5.2"))
        score.detail["void_call"] = text
        facts = replace(facts, call=None)
    by = facts.discard_by
    recorded = facts.discard is not None or facts.discard_points is not None
    if recorded and by is not None and by != declarer:
        if facts.discard is not None:
            text = T("%(player)s's discard (%(cards)s) is void: %(tappist)s is now the "
                     "Tappist, and the new Tappist's discard is not recorded",
                     player=table.name(by), cards=cards_text(facts.discard), tappist=tappist)
        else:
            text = N("%(player)s's discard (%(num)s card point) is void: %(tappist)s is now "
                     "the Tappist, and the new Tappist's discard is not recorded",
                     "%(player)s's discard (%(num)s card points) is void: %(tappist)s is now "
                     "the Tappist, and the new Tappist's discard is not recorded",
                     facts.discard_points or 0, player=table.name(by),
                     num=facts.discard_points or 0, tappist=tappist)
        score.lines.append(Line(by, text, None, "4.2.1"))
        score.detail["void_discard"] = text
        facts = replace(facts, discard=None, discard_points=None, all_kings_held=False,
                        discard_by=None)
    return facts


def awaits_call(game: str | None, table: Table, score: HandScore) -> bool:
    """A finished normal or forced game of 7–8 players whose call is void waits for the new
    Tappist's call (4.5.2)."""
    return "void_call" in score.detail and game in (NORMAL, FORCED) \
        and table.n in PARTNER_PLAYERS


def fillable(hand: dict[str, Any]) -> bool:
    """Does ``hand`` (canonical) lack a maker ``complete_choices`` may fill in: a normal or
    forced game's call or discard that does not say who made it?"""
    if hand.get("game") not in (NORMAL, FORCED, None):
        return False
    call = hand.get("call")
    if isinstance(call, dict) and call.get("by") is None:
        return True
    recorded = hand.get("discard") is not None or hand.get("discard_points") is not None
    return recorded and hand.get("discard_by") is None


def complete_choices(hand: dict[str, Any], dealer: int, n: int) -> dict[str, Any]:
    """``hand`` (canonical) with the Tappist written in as the maker of a call or discard that
    does not say who made it: read so by the fold, so completing changes no score."""
    if not fillable(hand):
        return hand
    declarer = hand.get("declarer")
    bids = hand.get("bids")
    if declarer is None and bids:
        try:
            declarer = bidding(bids, dealer, n).declarer
        except RuleViolation:
            declarer = None
    if declarer is None:
        return hand
    call = hand.get("call")
    if isinstance(call, dict) and call.get("by") is None:
        hand = {**hand, "call": {**call, "by": declarer}}
    recorded = hand.get("discard") is not None or hand.get("discard_points") is not None
    if recorded and hand.get("discard_by") is None:
        hand = {**hand, "discard_by": declarer}
    return hand
