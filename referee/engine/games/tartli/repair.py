"""Making later hands fit again after a correction across a tie of 501 or more (rule 7.4)."""

from __future__ import annotations

from typing import Any

from ...errors import RuleViolation
from ...words import T
from ..base import HANDS, Repair


def repair_decider(
    names: list[str], hands: list[dict[str, Any]], problem: RuleViolation
) -> list[Repair]:
    """Tartli's own ways out, before the default removal of every later hand.

    * A decider hand that no longer follows a tie cannot become an ordinary hand: it records
      only who scored first (7.4.2), not the trump indicator, the piles and the last trick an
      ordinary hand needs (6.1); it can only be removed, alone.
    * An ordinary hand that now follows a tie becomes the decider hand. Who scored first is
      recorded by the scorekeeper (7.4.2), not read from the hand's record (its piles do not
      say in what order a béla, a meld and a trick with card points came), so the table
      chooses: one way per player. The hand keeps its trump indicator; its tricks, béla,
      exchange and end are dropped, since a decider hand stops at the first score (7.4.3).
    """
    number = problem.hand
    if number is None or not 1 <= number <= len(hands):
        return []
    rest = hands[number:]
    if problem.code == "decider.not-due":
        return [Repair(
            "drop-decider", hands[: number - 1] + rest, (number,), True,
            T("remove %(hands)s", hands=HANDS),
            T("a decider hand records only who scored first, not the trump indicator and the "
              "piles an ordinary hand needs (rules 6.1, 7.4)"),
        )]
    if problem.code == "decider.due":
        ways = []
        for player in (0, 1):
            decider = {**hands[number - 1], "exchange": None, "tricks": [], "bela": None,
                       "end": {"kind": "decider", "first": player}}
            ways.append(Repair(
                f"decider-{player}", hands[: number - 1] + [decider] + rest, (number,), False,
                T("make %(hands)s the decider hand, won by %(player)s, who scored first",
                  hands=HANDS, player=names[player]),
                T("its tricks, béla and piles are dropped: a decider hand stops at the first "
                  "score (rule 7.4)"),
            ))
        return ways
    return []
