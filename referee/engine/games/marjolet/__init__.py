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
from ...words import N, T, Text
from ..base import Game, different_names, require_name, require_player
from ..dealer import complete_dealers
from .facts import hand_to_json, parse_hand
from .match import MatchFold, rules_of
from .melds import Meld, is_meld, recognize
from .play import legal_plays, trick_winner
from .values import (
    EXCHANGE,
    FOUR_POINTS,
    LAST_TRICK,
    PAIR_POINTS,
    PRESETS,
    SWITCH_TITLES,
    SWITCHES,
    TARGETS,
    TURN_UP_TAKEN,
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
            raise RuleViolation("settings.players", T("Marjolet is for exactly two players"), "1")
        names = [require_name(p) for p in players]
        if not different_names(names):
            raise RuleViolation("settings.players", T("Give the two players different names"),
                                "1")
        target = raw.get("target", TARGETS[0])
        if type(target) is not int or target not in TARGETS:
            raise RuleViolation(
                "settings.target",
                T("The game goes to %(short)s or %(long)s points, not %(value)s",
                  short=TARGETS[0], long=TARGETS[1], value=shown(target)),
                "8",
            )
        return {
            "players": names,
            "target": target,
            "first_dealer": require_player(raw.get("first_dealer"), T("The first dealer"),
                                           rule="2.1"),
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
        if target == TARGETS[1]:
            game = N("Marjolet for two players, one game to %(num)s point (Target 1000)",
                     "Marjolet for two players, one game to %(num)s points (Target 1000)",
                     target, num=target)
        else:
            game = N("Marjolet for two players, one game to %(num)s point",
                     "Marjolet for two players, one game to %(num)s points", target, num=target)
        preset = {
            "default": T("Rule set: default (the seed's values)"),
            "traditional": T("Rule set: traditional (all four variants of section 8)"),
            "custom": T("Rule set: custom (some variants of section 8)"),
        }[rules.preset]
        pairs = {"trumps": PAIR_POINTS[("marriage", True)],
                 "plain": PAIR_POINTS[("marriage", False)]}
        if rules.traditional_melds:
            melds = T("%(switch)s: on — four aces %(aces)s, four tens %(tens)s, four kings "
                      "%(kings)s, four queens %(queens)s; four jacks are not a meld; marriages "
                      "and marjolets %(trumps)s in trumps, %(plain)s otherwise",
                      switch=SWITCH_TITLES["traditional_melds"], aces=four_points("A", rules),
                      tens=four_points("10", rules), kings=four_points("K", rules),
                      queens=four_points("Q", rules), **pairs)
        else:
            melds = T("%(switch)s: off — four aces %(aces)s, four kings %(kings)s, four queens "
                      "%(queens)s, four jacks %(jacks)s; four tens are not a meld; marriages "
                      "and marjolets %(trumps)s in trumps, %(plain)s otherwise",
                      switch=SWITCH_TITLES["traditional_melds"], aces=four_points("A", rules),
                      kings=four_points("K", rules), queens=four_points("Q", rules),
                      jacks=four_points("J", rules), **pairs)
        seven = {"switch": SWITCH_TITLES["turn_up_seven_10"], "points": turn_up_seven(rules)}
        if rules.turn_up_seven_10:
            turned_up = T("%(switch)s: on — a turned-up seven scores %(points)s for the dealer",
                          **seven)
        else:
            turned_up = T("%(switch)s: off — a turned-up seven scores %(points)s for the "
                          "dealer", **seven)
        ten = {"switch": SWITCH_TITLES["no_trick_10_bonus"], "points": trick_10(rules),
               "taken": TURN_UP_TAKEN}
        if rules.no_trick_10_bonus:
            trick10 = T("%(switch)s: on — the winner of trick 10 scores nothing for it; the "
                        "loser of trick 10 scores %(taken)s for taking the turn-up", **ten)
        else:
            trick10 = T("%(switch)s: off — the winner of trick 10 scores %(points)s; the loser "
                        "of trick 10 scores %(taken)s for taking the turn-up", **ten)
        swept = {"switch": SWITCH_TITLES["sweep_40"], "points": sweep(rules), "last": LAST_TRICK}
        if rules.sweep_40:
            sweeps = T("%(switch)s: on — winning all of tricks 11–16 adds %(points)s to the last "
                       "trick's %(last)s", **swept)
        else:
            sweeps = T("%(switch)s: off — winning all of tricks 11–16 adds %(points)s to the "
                       "last trick's %(last)s", **swept)
        return [
            game, preset, melds, turned_up, trick10, sweeps,
            T("The trump 7 scores %(points)s once: for its exchange, or for the player who plays "
              "it never exchanged", points=EXCHANGE),
            T("After a deal, both at %(target)s or more: the higher total wins; equal totals "
              "play another deal with the totals kept", target=target),
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
            T("The rule set is default, traditional or custom, not %(value)s",
              value=shown(preset)),
            "8",
        )
    switches: dict[str, bool] = {}
    for key in SWITCHES:
        value = raw.get(key)
        if value is not None and not isinstance(value, bool):
            raise RuleViolation(
                f"settings.{key}",
                T("%(switch)s is on or off, not %(value)s", switch=SWITCH_TITLES[key],
                  value=shown(value)),
                "8",
            )
        if preset in PRESETS:
            wanted = getattr(PRESETS[preset], key)
            if value is not None and value != wanted:
                raise RuleViolation("settings.rules", _preset_has(preset, key), "8")
            value = wanted
        switches[key] = bool(value)
    rules = Rules(**switches)
    return {"rules": rules.preset, **switches}


def _preset_has(preset: str, key: str) -> Text:
    """A switch set against the preset chosen (8): the default rule set has every switch off,
    the traditional one every switch on."""
    if preset == "traditional":
        return T("The traditional rule set has %(switch)s on; choose custom rules to switch it "
                 "off", switch=SWITCH_TITLES[key])
    return T("The default rule set has %(switch)s off; choose custom rules to switch it on",
             switch=SWITCH_TITLES[key])


GAME = Marjolet()

__all__ = [
    "FOUR_POINTS", "GAME", "Marjolet", "Meld", "Rules", "is_meld", "legal_plays", "recognize",
    "rules_of", "trick_winner",
]
