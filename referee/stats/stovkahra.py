"""Stovkahra's own figures (shared/rules/stovkahra.md): combinations declared (4), tricks won
with a seven (5), dosts right and wrong (7.2), games won and matchsticks (7.1, 7.3).

The facts record a seven-won trick by team, not by player (6.1): a player's ``sevens`` are
his team's. Matchsticks are those awarded to the player's team, whether the winners added
them to their pile or took them off the opponents' (7.3.1)."""

from __future__ import annotations

from ..engine.games.base import MatchResult
from ..engine.games.stovkahra.values import combination_points, team_of
from .played import Figures, Played, seats
from .tally import Tally, bump


def side(seat: int) -> int:
    """The team of a seat: North–South 0, East–West 1 (1)."""
    return team_of(seat)


def figures(match: Played, result: MatchResult) -> Figures:
    players: list[Tally] = [
        {"combinations": 0, "combination_points": 0, "sevens": 0, "dosts_right": 0,
         "dosts_wrong": 0, "games_won": 0, "matchsticks": 0}
        for _ in seats(match)
    ]
    teams: list[Tally] = [{"sevens": 0, "games_won": 0, "matchsticks": 0} for _ in range(2)]
    table: Tally = {"combinations": 0, "sevens": 0, "dosts_right": 0, "dosts_wrong": 0,
                    "games": 0, "matchsticks": 0}
    for outcome in result.hands:
        facts = match.hands[outcome.number - 1]
        for combination in facts.get("combinations", []):
            seat = combination["seat"]
            bump(players[seat], "combinations")
            bump(players[seat], "combination_points",
                 combination_points(combination["rank"], combination["count"]))
            bump(table, "combinations")
        end = facts.get("end") or {}
        for seven in end.get("sevens", []):
            bump(teams[seven["team"]], "sevens")
            bump(table, "sevens")
        if end.get("kind") == "dost":
            right = "dosts_right" if outcome.detail.get("dost_right") else "dosts_wrong"
            bump(players[end["caller"]], right)
            bump(table, right)
        if outcome.award is not None:
            bump(teams[outcome.award.winner], "games_won")
            bump(teams[outcome.award.winner], "matchsticks", outcome.award.amount)
            bump(table, "games")
            bump(table, "matchsticks", outcome.award.amount)
    for seat, tally in enumerate(players):
        for key, value in teams[side(seat)].items():
            bump(tally, key, int(value) if isinstance(value, int) else 0)
    names = match.settings["teams"]
    table["teams"] = {names[team]: teams[team] for team in range(2)}
    return players, table
