"""Marjolet for two players: shared/rules/marjolet.md.

Settings in JSON (``Marjolet.settings`` fills the optional ones)::

    {"players": ["Anne", "Bruno"],
     "target": 500,                 # or 1000 (variant "Target 1000"); default 500
     "first_dealer": 1,             # 0 or 1, an index into players
     "rules": "default",            # "default", "traditional" or "custom"
     "traditional_melds": false,    # the four switches of section 8
     "turn_up_seven_10": false,
     "no_trick_10_bonus": false,
     "sweep_40": false}

``rules`` names a preset: ``default`` switches all four off, ``traditional`` all four on; a
switch given with a preset must agree with it. ``custom`` (or no ``rules``) takes the switches
as given (missing ones are off). The canonical settings write every switch and the preset that
they make (``custom`` when they are mixed).

A deal's facts: ``referee.engine.games.marjolet.facts``. The card picker calls
``recognize(FRENCH.parse_many(cards), trumps, rules_of(settings))``.
"""

from __future__ import annotations

from typing import Any

from ...cards import FRENCH
from ...errors import RuleViolation, shown
from ..base import Game, different_names, require_name, require_player
from ..dealer import complete_dealers
from .facts import hand_to_json, parse_hand
from .match import MatchFold, rules_of
from .melds import Meld, is_meld, recognize
from .play import legal_plays, trick_winner
from .values import (
    FOUR_POINTS,
    PRESETS,
    SWITCH_TITLES,
    SWITCHES,
    TARGETS,
    Rules,
    four_points,
    sweep,
    trick_10,
    turn_up_seven,
)

PRESET_NAMES = ("default", "traditional", "custom")


class Marjolet(Game):
    name = "marjolet"
    title = "Marjolet"
    deck = FRENCH
    players = (2, 2)
    victory_unit = "games"
    hand_word = "deal"

    def settings(self, raw: dict[str, Any]) -> dict[str, Any]:
        players = raw.get("players")
        if not isinstance(players, list) or len(players) != 2:
            raise RuleViolation("settings.players", "Marjolet is for exactly two players", "1")
        names = [require_name(p) for p in players]
        if not different_names(names):
            raise RuleViolation("settings.players", "Give the two players different names", "1")
        target = raw.get("target", TARGETS[0])
        if type(target) is not int or target not in TARGETS:
            raise RuleViolation(
                "settings.target", f"The game goes to 500 or 1000 points, not {shown(target)}",
                "8",
            )
        return {
            "players": names,
            "target": target,
            "first_dealer": require_player(raw.get("first_dealer"), "The first dealer", rule="2.1"),
            **_rule_settings(raw),
        }

    def victory_label(self, settings: dict[str, Any]) -> str:
        return ""          # one game: no count of games won; the phase says who won it

    def sides(self, settings: dict[str, Any]) -> list[str]:
        return list(settings["players"])

    def points_target(self, settings: dict[str, Any]) -> int | None:
        return int(settings["target"])      # 500, or 1000 with Target 1000 (7.2, 7.4)

    def rules_in_force(self, settings: dict[str, Any]) -> list[str]:
        rules = rules_of(settings)
        target = settings["target"]
        preset = {
            "default": "default (the seed's values)",
            "traditional": "traditional (all four variants of section 8)",
            "custom": "custom (some variants of section 8)",
        }[rules.preset]
        melds = ", ".join(
            f"four {name} {points}"
            for rank, name in (("A", "aces"), ("10", "tens"), ("K", "kings"), ("Q", "queens"),
                               ("J", "jacks"))
            if (points := four_points(rank, rules)) is not None
        )
        missing = "tens" if four_points("10", rules) is None else "jacks"
        on = {True: "on", False: "off"}
        return [
            f"Marjolet for two players, one game to {target} points"
            + (" (Target 1000)" if target == 1000 else ""),
            f"Rule set: {preset}",
            f"{SWITCH_TITLES['traditional_melds']}: {on[rules.traditional_melds]} — {melds}; "
            f"four {missing} are not a meld; marriages and marjolets 40 in trumps, 20 otherwise",
            f"{SWITCH_TITLES['turn_up_seven_10']}: {on[rules.turn_up_seven_10]} — a turned-up "
            f"seven scores {turn_up_seven(rules)} for the dealer",
            f"{SWITCH_TITLES['no_trick_10_bonus']}: {on[rules.no_trick_10_bonus]} — "
            + (f"the winner of trick 10 scores {trick_10(rules)}" if trick_10(rules)
               else "the winner of trick 10 scores nothing for it")
            + "; the loser of trick 10 scores 10 for taking the turn-up",
            f"{SWITCH_TITLES['sweep_40']}: {on[rules.sweep_40]} — winning all of tricks 11–16 "
            f"adds {sweep(rules)} to the last trick's 10",
            "The trump 7 scores 10 once: for its exchange, or for the player who plays it "
            "never exchanged",
            f"After a deal, both at {target} or more: the higher total wins; equal totals play "
            "another deal with the totals kept",
        ]

    def fold(self, settings: dict[str, Any]) -> MatchFold:
        return MatchFold(settings)

    def canonical_hand(self, raw: object) -> dict[str, Any]:
        return hand_to_json(parse_hand(raw))

    def complete(
        self, settings: dict[str, Any], hands: list[dict[str, Any]], start: int = 0
    ) -> list[dict[str, Any]]:
        """Every deal with its dealer: where one lacks it, the proposal (2.1, 6.1.1)."""
        return complete_dealers(hands, settings["first_dealer"])


def _rule_settings(raw: dict[str, Any]) -> dict[str, Any]:
    """The preset and the four switches of section 8, checked against each other."""
    preset = raw.get("rules")
    if preset is not None and preset not in PRESET_NAMES:
        raise RuleViolation(
            "settings.rules",
            f"The rule set is default, traditional or custom, not {shown(preset)}", "8",
        )
    switches: dict[str, bool] = {}
    for key in SWITCHES:
        value = raw.get(key)
        if value is not None and not isinstance(value, bool):
            raise RuleViolation(
                f"settings.{key}", f"{SWITCH_TITLES[key]} is on or off, not {shown(value)}", "8"
            )
        if preset in PRESETS:
            wanted = getattr(PRESETS[preset], key)
            if value is not None and value != wanted:
                raise RuleViolation(
                    "settings.rules",
                    f"The {preset} rule set has {SWITCH_TITLES[key]} "
                    f"{'on' if wanted else 'off'}; choose custom rules to switch it "
                    f"{'on' if value else 'off'}",
                    "8",
                )
            value = wanted
        switches[key] = bool(value)
    rules = Rules(**switches)
    return {"rules": rules.preset, **switches}


GAME = Marjolet()

__all__ = [
    "FOUR_POINTS", "GAME", "Marjolet", "Meld", "Rules", "is_meld", "legal_plays", "recognize",
    "rules_of", "trick_winner",
]
