"""A trusted complete deal scored from its stored JSON alone (issue 12).

The score needs only the turn-up, the melds and who made them, the exchange, the trump 7 played
and the end (``hand``'s docstring): ``quick_scores`` reads just these from a deal as
``hand_to_json`` wrote it, without reading the cards or working out the trick winners. What a
page reads later (the explanation lines, ``detail["facts"]`` and ``detail["score"]``) is made
when first read (``DealDetail``), by the same scoring as a trusted deal's.
"""

from __future__ import annotations

from functools import cache
from itertools import islice
from typing import Any

from ...cards import FRENCH
from ...words import T
from ..base import Line
from ..dealer import out_of_turn
from ..later import LaterDetail
from .facts import HandFacts, read_canonical, read_meld
from .hand import HandScore, score_hand
from .values import (
    BRISQUES_TOTAL,
    EXCHANGE,
    LAST_TRICK,
    MELD_TRICKS,
    SEVEN_PLAYED,
    TURN_UP_TAKEN,
    Rules,
    sweep,
    trick_10,
    turn_up_seven,
)


@cache
def _meld_points(text: str, trumps: str, traditional: bool) -> int:
    """What a meld scores: under either rule set, only the melds switch tells (4.1, 8)."""
    return read_meld(text, trumps).points(Rules(traditional_melds=traditional))


def quick_scores(raw: dict[str, Any], rules: Rules) -> tuple[int, int, int] | None:
    """(dealer, score of player 0, score of player 1) of a complete deal in the canonical form
    with its dealer recorded, as ``score_hand`` gives them (6.2); None for a deal in progress
    or without its dealer (those need more than these facts: the trick winners, the dealer
    due). A key the canonical form writes and this deal lacks is a KeyError (``read_trusted``:
    then ``read_canonical`` reads it). Melds and the exchange come after tricks 1–10 only
    (4.2.1, 4.4.1: checked when the deal was stored): later tricks are not read."""
    dealer, end = raw["dealer"], raw["end"]
    if dealer is None or end is None:
        return None
    turnup = FRENCH.parse(raw["turnup"])
    trumps = turnup.suit
    scores = [0, 0]
    if turnup.rank == "7":                                  # the turn-up is the trump 7 (5)
        scores[dealer] += turn_up_seven(rules)
    exchanged, traditional = False, rules.traditional_melds
    for trick in islice(raw["tricks"], MELD_TRICKS):
        melds = trick["melds"]
        if melds[0] or melds[1]:
            for player in (0, 1):
                for meld in melds[player]:
                    scores[player] += _meld_points(meld, trumps, traditional)   # 4.1
        exchanger = trick["exchange"]
        if exchanger is not None and not exchanged:          # 4.4.1: only the first counts
            scores[exchanger] += EXCHANGE
            exchanged = True
    seven = raw["seven_played"]
    if seven is not None:
        scores[seven["player"]] += SEVEN_PLAYED              # 4.4.3
    trick10 = end["trick10"]
    scores[trick10] += trick_10(rules)                       # 5
    scores[1 - trick10] += TURN_UP_TAKEN
    a, b = end["brisques"]
    if a is None:
        a = BRISQUES_TOTAL - b
    elif b is None:
        b = BRISQUES_TOTAL - a
    scores[0] += a                                           # 3, 6.3.1
    scores[1] += b
    scores[end["last"]] += LAST_TRICK
    sweeper = end["sweep"]
    if sweeper is not None:
        scores[sweeper] += sweep(rules)
    return dealer, scores[0], scores[1]


def deal_lines(
    score: HandScore, facts: HandFacts, names: list[str], dealer: int, due: int,
    end: Line | None,
) -> list[Line]:
    """A deal's explanation: the dealer out of turn (2.1), the score's lines, each player's
    deal score (6.2) and the end of the game, if the deal ends it (7.2)."""
    lines = [out_of_turn(dealer, due, names)] if dealer != due else []
    lines.extend(score.lines)
    for player in (0, 1):
        if facts.end is None:
            text = T("%(player)s: deal score so far", player=names[player])
        else:
            text = T("%(player)s: deal score", player=names[player])
        lines.append(Line(player, text, score.scores[player], "6.2"))
    if end is not None:
        lines.append(end)
    return lines


class DealDetail(LaterDetail):
    """A trusted deal's ``detail`` (its facts and score) and lines, made when first read (the
    detail as ``LaterDetail`` says; the lines by ``lines``, for
    ``HandOutcome.explained_later``) by the same scoring as a trusted deal's: the deal as
    stored, its dealer, the dealer due, the names, the rules and the line of the game's end.
    Entries given at once (``tie``) are there already."""

    __slots__ = ("_deal", "_read")

    def __init__(
        self, deal: tuple[dict[str, Any], int, int, tuple[str, ...], Rules, Line | None]
    ) -> None:
        # underscored: a template's ``detail.score`` finds no attribute, then the entry
        self._deal = deal
        self._read: tuple[HandFacts, HandScore] | None = None

    def made(self) -> tuple[HandFacts, HandScore]:
        """The deal's facts and score, read and scored once."""
        if self._read is None:
            raw, dealer, _, names, rules, _ = self._deal
            facts = read_canonical(raw)
            self._read = facts, score_hand(facts, dealer, list(names), rules, True)
            dict.setdefault(self, "facts", facts)
            dict.setdefault(self, "score", self._read[1])
        return self._read

    def lines(self) -> list[Line]:
        facts, score = self.made()
        _, dealer, due, names, _, end = self._deal
        return deal_lines(score, facts, list(names), dealer, due, end)

    def _made(self) -> bool:
        return self._read is not None

    def _make(self) -> None:
        self.made()
