"""Game.repair: the ways to make later hands fit again after a correction (issue 10)."""

from __future__ import annotations

from typing import Any

import pytest

from referee.engine.errors import RuleViolation
from referee.engine.games import GAMES
from referee.engine.games.tartli import GAME as TARTLI

SETTINGS = TARTLI.settings({"players": ["Ágnes", "Tamás"], "target": 5, "first_dealer": 0})
PLAYED = {"indicator": "8h", "exchange": None, "tricks": [{"winner": 0, "melds": [[], []]}],
          "bela": {"player": 0, "trick": 1},
          "end": {"kind": "played", "piles": [80, 71], "last": 0, "stichmatsch": None}}
DECIDER = {"indicator": None, "exchange": None, "tricks": [], "bela": None,
           "end": {"kind": "decider", "first": 1}}


def problem(code: str, hand: int | None) -> RuleViolation:
    violation = RuleViolation(code, "does not fit", "7")
    return violation if hand is None else violation.in_hand(hand)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_by_default_a_hand_that_no_longer_fits_goes_with_every_later_one(name: str) -> None:
    hands: list[dict[str, Any]] = [{"n": 1}, {"n": 2}, {"n": 3}, {"n": 4}]
    (way,) = GAMES[name].repair({"players": ["a", "b"]}, hands, problem("match.over", 2))
    assert (way.key, way.hands, way.touched, way.removes) == ("remove", [{"n": 1}], (2, 3, 4),
                                                              True)
    assert GAMES[name].repair({"players": ["a", "b"]}, hands, problem("match.over", None)) == []


def test_a_decider_hand_no_longer_due_goes_alone_first() -> None:
    """It records only who scored first: it cannot become an ordinary hand (6.1, 7.4)."""
    hands = [PLAYED, DECIDER, PLAYED]
    alone, every = TARTLI.repair(SETTINGS, hands, problem("decider.not-due", 2))
    assert (alone.hands, alone.touched, alone.removes) == ([PLAYED, PLAYED], (2,), True)
    assert "records only who scored first" in alone.why
    assert (every.hands, every.touched) == ([PLAYED], (2, 3))


def test_an_ordinary_hand_after_a_tie_becomes_the_decider_the_table_says_who_won() -> None:
    """Who scored first is recorded, not derived (7.4.2): one way per player; the hand keeps
    its indicator and any other fact (e.g. its dealer), its play is dropped."""
    hands = [PLAYED, {**PLAYED, "dealer": 1}]
    first, second, remove = TARTLI.repair(SETTINGS, hands, problem("decider.due", 2))
    for way, player in ((first, 0), (second, 1)):
        assert way.removes is False and way.touched == (2,)
        assert way.hands[1] == {"indicator": "8h", "exchange": None, "tricks": [], "bela": None,
                                "dealer": 1, "end": {"kind": "decider", "first": player}}
        assert way.hands[0] == PLAYED
    assert "won by Tamás" in second.action
    assert remove.key == "remove" and remove.hands == [PLAYED]
