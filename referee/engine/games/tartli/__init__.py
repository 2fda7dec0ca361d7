"""Tartli (Hungarian rules) for two players: shared/rules/tartli.md."""

from __future__ import annotations

from typing import Any

from ...cards import HUNGARIAN
from ...errors import RuleViolation
from ...words import N, T
from ..base import Game, Repair, different_names, require_name, require_player
from ..dealer import complete_dealers
from .facts import hand_to_json, parse_hand
from .match import RACE, MatchFold
from .repair import repair_decider

TARGETS = (5, 10)


class Tartli(Game):
    name = "tartli"
    title = "Tartli"
    deck = HUNGARIAN
    players = (2, 2)
    victory_unit = "buli"

    def settings(self, raw: dict[str, Any]) -> dict[str, Any]:
        players = raw.get("players")
        if not isinstance(players, list) or len(players) != 2:
            raise RuleViolation("settings.players", T("Tartli is for exactly two players"), "1")
        names = [require_name(p) for p in players]
        if not different_names(names):
            raise RuleViolation("settings.players", T("Give the two players different names"),
                                "1")
        target = raw.get("target")
        if type(target) is not int or target not in TARGETS:
            raise RuleViolation("settings.target", T("The match goes to 5 or 10 buli"), "8")
        return {
            "players": names,
            "target": target,
            "first_dealer": require_player(raw.get("first_dealer"), T("The first dealer"),
                                           rule="2.1"),
        }

    def sides(self, settings: dict[str, Any]) -> list[str]:
        return list(settings["players"])

    def points_target(self, settings: dict[str, Any]) -> int | None:
        return RACE.target                  # a game is won at 501 (7.1)

    def victory_label(self, settings: dict[str, Any]) -> str:
        return T("Buli (to %(target)s)", target=settings["target"])

    def rules_in_force(self, settings: dict[str, Any]) -> list[str]:
        return [
            N("Tartli (Hungarian rules), target %(num)s buli",
              "Tartli (Hungarian rules), target %(num)s buli", settings["target"],
              num=settings["target"]),
            T("Game to 501 card points; 2 buli (maccs) when the loser has 250 or less"),
            T("No variants: the sources agree on every explicit rule (rules section 8)"),
        ]

    def fold(self, settings: dict[str, Any]) -> MatchFold:
        return MatchFold(settings)

    def canonical_hand(self, raw: object) -> dict[str, Any]:
        return hand_to_json(parse_hand(raw))

    def repair(
        self, settings: dict[str, Any], hands: list[dict[str, Any]], problem: RuleViolation
    ) -> list[Repair]:
        """A decider hand that no longer follows a tie is removed alone; an ordinary hand
        that now follows one can become the decider hand (7.4); else the default."""
        own = repair_decider(settings["players"], hands, problem)
        return own + super().repair(settings, hands, problem)

    def complete(
        self, settings: dict[str, Any], hands: list[dict[str, Any]], start: int = 0
    ) -> list[dict[str, Any]]:
        """Every hand with its dealer: where one lacks it, the proposal (2.1, 6.1.1)."""
        return complete_dealers(hands, settings["first_dealer"])


GAME = Tartli()
