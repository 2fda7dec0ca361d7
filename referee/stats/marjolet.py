"""Marjolet's own figures (shared/rules/marjolet.md): melds by kind (4.1), trump-seven bonuses
(4.4, 5: the turned-up 7 for the dealer, the exchange, the 7 played) and sweeps (5)."""

from __future__ import annotations

from ..engine.cards import FRENCH
from ..engine.games.base import MatchResult
from .played import Figures, Played, seats
from .tally import Tally, bump

FOURS = {"A": "four_aces", "10": "four_tens", "K": "four_kings", "Q": "four_queens",
         "J": "four_jacks"}
KINDS = (*FOURS.values(), "trump_marriage", "plain_marriage", "trump_marjolet",
         "plain_marjolet")


def meld_kind(notation: str, trumps: str) -> str:
    """``four:K`` → four_kings; ``marriage:h`` with hearts trumps → trump_marriage (4.1)."""
    kind, _, key = notation.partition(":")
    if kind == "four":
        return FOURS[key]
    return f"{'trump' if key == trumps else 'plain'}_{kind}"


def figures(match: Played, result: MatchResult) -> Figures:
    players: list[Tally] = [
        {"melds": dict.fromkeys(KINDS, 0), "trump_sevens": {
            "turned_up": 0, "exchanged": 0, "played": 0}, "sweeps": 0}
        for _ in seats(match)
    ]
    table: Tally = {"melds": 0, "sweeps": 0}
    for outcome in result.hands:
        facts = match.hands[outcome.number - 1]
        turnup = FRENCH.parse(facts["turnup"])
        if turnup.rank == "7":
            _seven(players[outcome.dealer], "turned_up")
        for trick in facts.get("tricks", []):
            for seat, melds in enumerate(trick.get("melds", [[], []])):
                for meld in melds:
                    melded = players[seat]["melds"]
                    assert isinstance(melded, dict)
                    bump(melded, meld_kind(meld, turnup.suit))
                    bump(table, "melds")
            if trick.get("exchange") is not None:
                _seven(players[trick["exchange"]], "exchanged")
        if facts.get("seven_played") is not None:
            _seven(players[facts["seven_played"]["player"]], "played")
        sweep = (facts.get("end") or {}).get("sweep")
        if sweep is not None:
            bump(players[sweep], "sweeps")
            bump(table, "sweeps")
    return players, table


def _seven(tally: Tally, how: str) -> None:
    sevens = tally["trump_sevens"]
    assert isinstance(sevens, dict)
    bump(sevens, how)
