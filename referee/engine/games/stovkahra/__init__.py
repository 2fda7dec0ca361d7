"""Stovkahra for four players in two teams: shared/rules/stovkahra.md.

Settings in JSON (``Stovkahra.settings`` fills the optional ones)::

    {"players": ["Jana", "Petr", "Eva", "Karel"],  # N, E, S, W, clockwise; NS = 0, EW = 1
     "teams": ["Jana & Eva", "Petr & Karel"],      # the two sides' names: NS, then EW
     "first_dealer": 3,                            # seat 0–3
     "target": 10,                                 # series target, 1–50 (default 10)
     "continue_to_20": false,                      # variant (8): goes on to twice the target
     "german_letters": false,                      # display only: O/U for Q/J
     "shuffle_reminder": "each game"}              # or "first deal"; display only

A deal's facts: ``referee.engine.games.stovkahra.facts``.
"""

from __future__ import annotations

from typing import Any

from ...cards import FRENCH
from ...errors import RuleViolation, shown
from ...words import N, T
from ..base import (
    Game,
    different_names,
    require_name,
    require_player,
    require_switches,
)
from ..dealer import proposed_after
from .facts import deal_to_json, parse_deal
from .match import RACE, MatchFold
from .play import legal_plays

DEFAULT_TARGET = 10
MAX_TARGET = 50
SHUFFLE_REMINDERS = ("each game", "first deal")
SWITCHES = ("continue_to_20", "german_letters")


class Stovkahra(Game):
    name = "stovkahra"
    title = "Stovkahra"
    deck = FRENCH
    players = (4, 4)
    hand_word = "deal"
    victory_unit = "matchsticks"

    def settings(self, raw: dict[str, Any]) -> dict[str, Any]:
        players = raw.get("players")
        if not isinstance(players, list) or len(players) != 4:
            raise RuleViolation(
                "settings.players", T("Stovkahra is for four players: give N, E, S and W"), "1"
            )
        names = [require_name(p) for p in players]
        if not different_names(names):
            raise RuleViolation(
                "settings.players", T("Give the four players different names"), "1"
            )
        teams = raw.get("teams")
        if not isinstance(teams, list) or len(teams) != 2:
            raise RuleViolation(
                "settings.teams", T("Name the two teams: North–South, then East–West"), "1"
            )
        team_names = [require_name(t, "settings.teams", T("Every team")) for t in teams]
        if not different_names(team_names):
            raise RuleViolation("settings.teams", T("Give the two teams different names"), "1")
        target = raw.get("target", DEFAULT_TARGET)
        if isinstance(target, bool) or not isinstance(target, int) \
                or not 1 <= target <= MAX_TARGET:
            raise RuleViolation(
                "settings.target",
                T("The series goes to 1–%(most)s matchsticks, not %(value)s", most=MAX_TARGET,
                  value=shown(target)), "7.3.2",
            )
        switches = require_switches(raw, SWITCHES)
        reminder = raw.get("shuffle_reminder", SHUFFLE_REMINDERS[0])
        if reminder not in SHUFFLE_REMINDERS:
            raise RuleViolation(
                "settings.shuffle_reminder",
                T("The shuffle reminder comes before each game or only before the first deal"),
                "8",
            )
        return {
            "players": names,
            "teams": team_names,
            "target": target,
            "first_dealer": require_player(
                raw.get("first_dealer"), T("The first dealer"), 4, "1"
            ),
            **switches,
            "shuffle_reminder": reminder,
        }

    def sides(self, settings: dict[str, Any]) -> list[str]:
        return list(settings["teams"])

    def points_target(self, settings: dict[str, Any]) -> int | None:
        return RACE.target                  # a game to 100 points (7.1)

    def victory_label(self, settings: dict[str, Any]) -> str:
        return T("Matchsticks (to %(target)s)", target=settings["target"])

    def rules_in_force(self, settings: dict[str, Any]) -> list[str]:
        target = settings["target"]
        ns, ew = settings["teams"]
        rules: list[str] = [
            T("Stovkahra, two teams: %(ns)s (North–South) against %(ew)s (East–West)",
              ns=ns, ew=ew),
            N("Series to %(num)s matchstick", "Series to %(num)s matchsticks", target,
              num=target),
            T("Game to 100: 1 matchstick, 2 when the losers have under 50; a wrong dost gives "
              "the opponents 2"),
            T("Winners add their matchsticks to their own pile or take them off the "
              "opponents' (never below 0)"),
            T("Both teams at 100 or more after a deal: the higher score wins; equal scores "
              "play another deal (house rule)"),
            T("The deal passes to the left after every deal, also after a dost (house "
              "reading)"),
        ]
        if settings.get("continue_to_20"):
            rules.append(
                T("Continue to 20: when a team reaches %(target)s the series goes on to "
                  "%(final)s, piles kept; if that team also gets to %(final)s first it wins "
                  "two series, otherwise the series is drawn", target=target, final=2 * target)
            )
        else:
            rules.append(T("Continue to 20: off (the series ends at %(target)s)", target=target))
        rules.append(
            T("Card letters: German O and U for Q and J (display only)")
            if settings.get("german_letters") else T("Card letters: French Q and J")
        )
        rules.append(
            T("Shuffle reminder: before the first deal of each game")
            if settings.get("shuffle_reminder", "each game") == "each game"
            else T("Shuffle reminder: only before the first deal of the series (a reminder "
                   "only)")
        )
        return rules

    def fold(self, settings: dict[str, Any]) -> MatchFold:
        return MatchFold(settings)

    def canonical_hand(self, raw: object) -> dict[str, Any]:
        return deal_to_json(parse_deal(raw))

    def complete(
        self, settings: dict[str, Any], hands: list[dict[str, Any]], start: int = 0
    ) -> list[dict[str, Any]]:
        """Fill in each deal's dealer (the proposal: left of the previous deal's dealer) and,
        for a choice recorded without its team (a version 1 file), the winners at that time
        and the pile a take was made against: the fold reads them so, so no score changes."""
        if all(isinstance(deal, dict) and deal.get("dealer") is not None
               and (deal.get("sticks") is None or deal.get("sticks_by") is not None)
               for deal in hands):
            # nothing to fill in: no fold needed; the very deals, found unchanged by identity
            # after a change (issue 12)
            return list(hands)
        fold = MatchFold(settings)
        completed = []
        due = settings["first_dealer"]
        fits = True
        for number, raw in enumerate(hands, 1):
            deal = raw
            outcome = None
            try:
                if fits:
                    fold.add(number, raw, number == len(hands))
                    outcome = fold.draft if fold.draft is not None else fold.hands[-1]
            except RuleViolation:
                # a deal that no longer fits (a correction is pending): from here on the
                # dealers follow the rotation, and nothing else is filled in
                fits = False
            if deal.get("dealer") is None:
                deal = {**deal, "dealer": outcome.dealer if outcome is not None else due}
            due = proposed_after(deal["dealer"], 4)         # passes to the left (2.5)
            made = None if outcome is None else outcome.detail.get("sticks_made")
            if made is not None:
                deal = {**deal, "sticks_by": made[0], "sticks_against": made[1]}
            completed.append(deal)
        return completed


GAME = Stovkahra()

__all__ = ["GAME", "Stovkahra", "legal_plays"]
