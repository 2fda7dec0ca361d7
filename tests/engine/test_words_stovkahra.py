"""Issue 22: every sentence the Stovkahra engine writes for a player is translatable.

The deals below (and the refusal tables of ``test_stovkahra_tables``) are folded through the
engine; every explanation line, summary, award reason, standing, rule in force and refusal is
collected and said through a fake catalogue that upper-cases every message id: what is left in
lower case, once the players' and teams' names are taken out, is English that escaped
translation.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
import test_stovkahra_tables as tables
from stovkahra_helpers import (
    EW,
    NS,
    PLAYERS,
    TEAMS,
    E,
    N,
    S,
    W,
    combo,
    deal,
    dost,
    fold,
    played,
    settings,
    sevens,
)

from referee.engine.errors import RuleViolation
from referee.engine.games.stovkahra import GAME
from referee.engine.words import Text, say
from tests.shouting import Upper

NAMES = (*PLAYERS, *TEAMS)


def plain_values(text: Text) -> list[object]:
    """The values of ``text`` and of the Texts in it that are not Texts themselves."""
    found: list[object] = []
    for value in text.values.values():
        if isinstance(value, Text):
            found += plain_values(value)
        else:
            found.append(value)
    return found


def assert_translatable(text: object) -> None:
    assert isinstance(text, Text), f"not a Text: {text!r}"
    assert say(text, None) == str(text)
    for value in plain_values(text):
        # a value is a number, a name, a user's entry as shown (quoted), or figures
        assert (isinstance(value, int) or value in NAMES
                or (isinstance(value, str) and (value.startswith("“")
                                               or not re.search("[a-z]", value)))), \
            f"{value!r} in {text!r} is glued English"
    said = re.sub("“[^”]*”", "", say(text, Upper()))      # what the user typed, quoted
    for name in sorted(NAMES, key=len, reverse=True):
        said = said.replace(name, "")
    assert not re.search("[a-z]", said), f"English escaped translation: {said!r}"


def fold_texts(start=(0, 0), piles=(0, 0), deals=(), **extra: Any) -> list[object]:
    """Fold ``deals`` (facts, or (facts, last)) and collect every sentence a player reads."""
    f = fold(start=start, piles=piles, **extra)
    for number, raw in enumerate(deals, 1):
        f.add(number, raw, number == len(deals))
    result = f.result()
    hands = [*result.hands, *([result.draft] if result.draft is not None else [])]
    texts: list[object] = [result.standing.phase]
    for hand in hands:
        texts.append(hand.summary)
        texts += [line.text for line in hand.lines]
        if hand.award is not None:
            texts.append(hand.award.reason)
        if "sticks_void" in hand.detail:
            texts.append(hand.detail["sticks_void"])
    return texts


NS_WINS = played((40, 32), EW, (5, 3))           # NS 40, EW 32 + the last trick: 38
SCENARIOS = {
    "combinations-sevens-and-an-unexpected-dealer": dict(deals=[
        {**deal(combo(N, "A", 3), combo(E, "K", 3, ["Kc", "Kd", "Kh"]), combo(S, "7", 3),
                end=played((40, 32), EW, (5, 3), sevens((4, NS), (8, EW)))), "dealer": N},
        deal(combo(W, "10", 4), end=played((60, 12), NS, (7, 1), sevens((1, NS))))]),
    "in-progress": dict(deals=[deal(end=NS_WINS), deal(combo(N, "A", 4))]),
    "game-won-opponents-under-50-add-and-the-series": dict(
        start=(90, 0), piles=(9, 3), deals=[deal(end=NS_WINS, sticks="add")]),
    "game-won-1-matchstick-take-with-a-loss": dict(
        start=(90, 44), piles=(0, 0), deals=[deal(end=NS_WINS, sticks="take")]),
    "game-won-2-take-some-lost": dict(
        start=(90, 0), piles=(0, 1), deals=[deal(end=NS_WINS, sticks="take")]),
    "both-over-100": dict(start=(92, 90), deals=[deal(end=NS_WINS, sticks="add")]),
    "both-equal-over-100": dict(start=(92, 90), deals=[deal(end=played((38, 34), EW))]),
    "dost-right-after-declaring-right": dict(
        start=(0, 70), deals=[deal(combo(E, "A", 4), end=dost(E, 0))]),
    "dost-right-after-declaring-wrong": dict(
        deals=[deal(combo(E, "A", 4), end=dost(E, 0), sticks="add")]),
    "dost-on-winning-a-trick-right-1": dict(
        start=(90, 44), deals=[deal(end=dost(N, 2, (12, 11), (1, 1)))]),
    "dost-on-winning-a-trick-right-2-without-tricks": dict(
        start=(90, 30), deals=[deal(end=dost(N, 2, (12, 11)))]),
    "pending-then-the-series-waits": dict(
        start=(90, 44), piles=(9, 0),
        deals=[deal(end=NS_WINS), deal(end=played((40, 32), EW)),
               deal(end=played((40, 32), EW)), deal(end=played((40, 32), EW)),
               deal(end=played((60, 12), NS), sticks="add")]),
    "void-choice-of-the-other-team": dict(
        start=(90, 44), deals=[{**deal(end=NS_WINS, sticks="add"), "sticks_by": EW}]),
    "void-take-against-another-pile": dict(
        start=(90, 0), deals=[{**deal(end=NS_WINS, sticks="take"), "sticks_by": NS,
                               "sticks_against": 5}]),
    "continue-to-20-first-to-target": dict(
        start=(90, 44), piles=(1, 0), target=2, continue_to_20=True,
        deals=[deal(end=NS_WINS, sticks="add")]),
    "continue-to-20-two-series": dict(
        start=(90, 0), piles=(3, 0), target=2, continue_to_20=True,
        deals=[deal(end=NS_WINS, sticks="add")]),
    "continue-to-20-drawn": dict(
        start=(90, 0), piles=(1, 3), target=2, continue_to_20=True,
        deals=[deal(end=NS_WINS, sticks="add"), deal(end=played((30, 42), EW)),
               deal(end=played((30, 42), EW)), deal(end=played((30, 42), EW), sticks="add")]),
}


@pytest.mark.parametrize("scenario", SCENARIOS, ids=list(SCENARIOS))
def test_every_stovkahra_line_summary_and_standing_is_translatable(scenario):
    texts = fold_texts(**SCENARIOS[scenario])
    assert len(texts) > 2
    for text in texts:
        assert_translatable(text)


@pytest.mark.parametrize("extra", [{}, {"target": 1, "continue_to_20": True,
                                        "german_letters": True,
                                        "shuffle_reminder": "first deal"}])
def test_every_stovkahra_rule_in_force_is_translatable(extra):
    for rule in GAME.rules_in_force(settings(**extra)):
        assert_translatable(rule)


def test_stovkahra_counts_one_matchstick_and_one_trick_in_the_singular():
    rules = GAME.rules_in_force(settings(target=1))
    assert "Series to 1 matchstick" in rules
    texts = fold_texts(start=(90, 44), deals=[deal(end=played((60, 12), EW, (7, 1)),
                                                   sticks="add")])
    assert "NS win the game: 1 matchstick, added" in texts
    assert "EW: card points (1 trick)" in texts


def test_stovkahra_names_the_player_never_a_pronoun():
    reason = fold_texts(deals=[deal(combo(E, "A", 4), end=dost(E, 0))])
    assert any(t.startswith("East calls dost right after declaring — 40 < 100: wrong")
               for t in map(str, reason))
    with pytest.raises(RuleViolation) as err:
        fold().add(1, deal(combo(E, "A", 4), combo(S, "K", 3), end=dost(E, 0)), True)
    assert err.value.message == ("East called dost right after declaring, so South, who "
                                 "declares after East, could not declare three kings")
    with pytest.raises(RuleViolation) as err:
        fold().add(1, deal(end=dost(S, 3, (20, 10), (2, 1), trick_winner=N)), True)
    assert err.value.message.endswith("(a partner cannot call for North)")
    with pytest.raises(RuleViolation) as err:
        fold().add(1, deal(combo(E, "A", 4), end=dost(S, 0)), True)
    assert err.value.message.startswith("South declared no combination, so South cannot call")
    done = fold(start=(90, 0), piles=(8, 0))
    done.add(1, deal(end=NS_WINS, sticks="add"), True)
    assert done.result().standing.phase == "Series over: NS win 10–0"


# -- refusals: the refusal tables of test_stovkahra_tables, and the rest ----------------------

# refused by the shared readers (base.require_*, cards), not by Stovkahra's own sentences
SHARED = {"fact.player", "fact.range", "fact.unknown", "card.twice"}
SHARED_ROWS = {"one-points"}            # a pair of card points that is not a pair

DEAL_REFUSALS = [
    *[deal(*combos, end=tables.PLAIN)
      for combos, code, _ in tables.LEGALITY if code and code not in SHARED],
    *[deal(end=played(points, NS, tricks))
      for points, tricks, code, _ in tables.POINTS_BY_TRICKS if code],
    *[deal(end=end) for end, code, _ in tables.SEVEN_CHECKS if code],
    *[deal(declared, end=played((40, 32), NS, (4, 4), seven))
      for declared, seven, code, _ in tables.SEVENS_AND_COMBINATIONS if code],
    *[deal(*combos, end=end) for combos, end, code, _ in tables.DOST_TIMING if code],
    *[raw for raw, code, row in tables.BAD_FACTS
      if code not in SHARED and row not in SHARED_ROWS],
    deal(end=played((1, 71), NS)),                                    # never 1 alone
    deal(end=played((30, 42), NS, None, sevens((2, NS), (3, NS), (4, NS), (5, NS), (6, NS)))),
    deal(end=dost(N, 2, (25, 3), None)),                     # each alone, not both
    deal(end=dost(N, 1, (25, 0), None)),                     # 25 points in one trick
    deal(end=dost(N, 3, (70, 0), None, seven=sevens((1, NS), (2, EW), (3, NS)))),
    deal(end=dost(N, 0, (0, 0), None, seven=sevens((1, NS)))),
    deal(end=played((40, 32), NS, (0, 8), sevens((1, NS), (2, NS), (8, NS)))),
    deal(end=dost(N, 3, (20, 10), (0, 3), seven=sevens((1, NS), (3, NS)))),
    deal(end=dost(N, 3, (20, 10), (2, 1), seven=sevens((3, NS), (1, NS), (2, NS)))),
    deal(end=played((40, 32), NS, (4, 4), [{"trick": 2, "team": 0, "bonus": 52}])),
    deal(combo(N, "A", 3), combo(E, "A", 2)),
    deal(combo(N, "9", 3)),
    deal(combo(N, "A", 3, trick=2)),
    deal(combo(N, "A", 3, ["Ah", "Ad", "Kc"])),
    {"end": {"kind": "dost", "caller": 0, "after": 2}},
    {"sticks_by": 0},
    {"sticks": "add", "sticks_against": 3, "sticks_by": 0},
    {"sticks": "take", "sticks_against": 3},
    {"sticks": "take", "sticks_by": 2},
]


def refusal(raw: dict[str, Any]) -> RuleViolation:
    with pytest.raises(RuleViolation) as err:
        fold().add(1, raw, True)
    return err.value


@pytest.mark.parametrize("raw", DEAL_REFUSALS,
                         ids=[f"deal-refusal-{i}" for i in range(len(DEAL_REFUSALS))])
def test_every_stovkahra_refusal_is_translatable(raw):
    error = refusal(raw)
    assert error.code not in SHARED, error
    assert error.rule
    assert_translatable(error.message)


def test_a_stovkahra_refusal_of_the_facts_names_the_player_not_the_seat():
    error = refusal(deal(combo(S, "A", 5)))
    assert error.message == "South: a combination is three or four aces, not 5"
    assert_translatable(error.message)


def test_stovkahra_refuses_deals_after_the_series_and_unfinished_deals_translatably():
    over = fold(start=(90, 0), piles=(9, 0))
    over.add(1, deal(end=NS_WINS, sticks="add"))
    with pytest.raises(RuleViolation) as err:
        over.add(2, deal(end=NS_WINS))
    assert err.value.code == "match.over"
    assert_translatable(err.value.message)
    with pytest.raises(RuleViolation) as err:
        fold().add(1, deal(), False)
    assert err.value.code == "deal.unfinished"
    assert_translatable(err.value.message)


SETTINGS_REFUSALS = [
    {"players": ["a", "b", "c"]}, {"players": ["a", "b", "c", "A"]}, {"teams": ["x"]},
    {"teams": ["x", "X"]}, {"target": 0}, {"target": "ten"}, {"shuffle_reminder": "never"},
]


@pytest.mark.parametrize("change", SETTINGS_REFUSALS,
                         ids=[f"settings-{i}" for i in range(len(SETTINGS_REFUSALS))])
def test_every_stovkahra_settings_refusal_is_translatable(change):
    raw = {"players": ["a", "b", "c", "d"], "teams": ["x", "y"], "first_dealer": 0, **change}
    with pytest.raises(RuleViolation) as err:
        GAME.settings(raw)
    assert_translatable(err.value.message)
