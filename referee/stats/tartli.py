"""Tartli's own figures (shared/rules/tartli.md): sets and sequences declared (4.3), meld
contests won (4.2), bélas (4.7), 501 claims right and wrong (7.3), buli and maccs (7.1).

``sets`` and ``sequences`` count every declaration, scored or beaten (a conceded one as it was
announced, 6.1.4). A contest is a trick in which both players declared; its winner (4.2) wins
it (a trick in progress at a claim, before its step 7, decides none). ``buli`` are those won,
however (a game, a claim, a decider hand); ``maccs`` the awards of 2 buli (7.1.2, 7.3.3)."""

from __future__ import annotations

from ..engine.games.base import MatchResult
from .played import Figures, Played, seats
from .tally import Tally, bump


def figures(match: Played, result: MatchResult) -> Figures:
    players: list[Tally] = [
        {"sets": 0, "sequences": 0, "contests_won": 0, "belas": 0, "claims_right": 0,
         "claims_wrong": 0, "buli": 0, "maccs": 0}
        for _ in seats(match)
    ]
    table: Tally = {"buli": 0, "maccs": 0, "claims_right": 0, "claims_wrong": 0,
                    "deciders": 0}
    for outcome in result.hands:
        facts = match.hands[outcome.number - 1]
        for trick in facts.get("tricks", []):
            for seat, melds in enumerate(trick.get("melds", [[], []])):
                for meld in melds:
                    kind = "sets" if meld.startswith("set:") else "sequences"
                    bump(players[seat], kind)
        for verdict in outcome.detail.get("verdicts", []):
            both = verdict.melds[0] and verdict.melds[1]
            if both and verdict.counted and verdict.winner is not None:
                bump(players[verdict.winner], "contests_won")
        if facts.get("bela") is not None:
            bump(players[facts["bela"]["player"]], "belas")
        end = facts.get("end") or {}
        if end.get("kind") == "claim":
            right = "claims_right" if outcome.detail.get("claim_right") else "claims_wrong"
            bump(players[end["claimant"]], right)
            bump(table, right)
        elif end.get("kind") == "decider":
            bump(table, "deciders")
        if outcome.award is not None:
            award = outcome.award
            bump(players[award.winner], "buli", award.amount)
            bump(table, "buli", award.amount)
            if award.amount == 2:
                bump(players[award.winner], "maccs")
                bump(table, "maccs")
    return players, table

