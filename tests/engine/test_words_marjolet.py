"""Every sentence Marjolet's engine writes for a player is a translatable ``Text`` (issue 22):
the worked examples, a fixture match, simulated deals under every rule set, the rules in force
and every refusal of the Marjolet tables, said through a catalogue that upper-cases its
message ids: nothing English may escape it except the players' names."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from marjolet_helpers import SWITCHES, A, B, end, hand, simulate_hand, tricks
from test_marjolet_examples import E10
from test_marjolet_review import CARD_HOLDING, CROSS_TURN, KINGS_THEN_HEARTS, recorded
from test_marjolet_tables import IMPOSSIBLE

from referee.engine.cards import FRENCH
from referee.engine.errors import RuleViolation
from referee.engine.games.marjolet import GAME, recognize, rules_of
from referee.engine.games.marjolet.facts import parse_hand
from referee.engine.games.marjolet.hand import score_hand
from referee.engine.games.marjolet.match import MatchFold, score_match
from referee.engine.games.marjolet.melds import all_melds, parse_meld
from referee.engine.games.marjolet.values import SWITCH_TITLES
from referee.engine.words import Text, say
from tests.shouting import Upper

NAMES = ["Anne", "Bruno"]
MARJOLET = Path(__file__).parents[1].parent / "referee" / "engine" / "games" / "marjolet"
# the suit names come from cards.py, whose words are made translatable elsewhere (issue 22)
CARD_WORDS = tuple(FRENCH.suit_names.values())








def assert_translatable(text: object, names: list[str] = NAMES) -> None:
    assert isinstance(text, Text), repr(text)
    assert say(text, None) == str(text)
    shouted = say(text, Upper())
    for word in (*names, *CARD_WORDS):
        shouted = shouted.replace(word, "")
    assert not any(c.islower() for c in shouted), (str(text), shouted)


def assert_outcomes_translatable(result: Any, names: list[str] = NAMES) -> None:
    outcomes = [*result.hands, *([result.draft] if result.draft else [])]
    assert outcomes
    for outcome in outcomes:
        assert_translatable(outcome.summary, names)
        if outcome.award is not None:
            assert_translatable(outcome.award.reason, names)
        for line in outcome.lines:
            assert_translatable(line.text, names)
    assert_translatable(result.standing.phase, names)


def settings(**raw: Any) -> dict[str, Any]:
    return GAME.settings({"players": list(NAMES), "first_dealer": B, **raw})


# -- explanations, summaries, verdicts, phases ---------------------------------------------------

def test_the_fixture_match_and_its_deal_in_progress_are_translatable():
    match = json.loads((Path(__file__).parents[1] / "data" / "marjolet-game.json").read_text())
    names = match["settings"]["players"]
    result = GAME.score(GAME.settings(match["settings"]), match["hands"])
    assert_outcomes_translatable(result, names)
    unfinished = [*match["hands"][:1], {**match["hands"][1], "end": None}]
    assert_outcomes_translatable(GAME.score(GAME.settings(match["settings"]), unfinished), names)


def _deal(a: int, b: int) -> dict[str, Any]:
    """A deal of a for Anne and b for Bruno (a + b = 120; a, b ≥ 20)."""
    return hand("9c", [], seven=(B, None), finish=end((a - 20, b - 20), A, A))


@pytest.mark.parametrize(("start", "deals"), [
    ((400, 380), [(100, 20)]),                # Anne reaches 500
    ((450, 440), [(60, 60)]),                 # both over 500, Anne higher
    ((450, 450), [(60, 60)]),                 # both at 510: another deal (7.2)
    ((450, 450), [(60, 60), (20, 100)]),      # ... which Bruno wins
], ids=["one reaches", "both over", "tie", "after the tie"])
def test_the_end_of_the_game_is_translatable(start, deals):
    fold = MatchFold(settings(), start_totals=start)
    for number, (a, b) in enumerate(deals, 1):
        fold.add(number, _deal(a, b))
    assert_outcomes_translatable(fold.result())


def test_worked_deals_and_every_rule_set_are_translatable():
    deals = [
        hand("7s", [], finish=end((40, 40), trick10=A, last=A)),                     # turned-up 7
        hand("As", tricks(exchange=(4, A)), finish=end((40, 40), trick10=B, last=A)),
        hand("8h", [], seven=(B, None), finish=end((60, 20), trick10=B, last=A, sweep=A)),
        hand("8h", [], seven=(B, 12), finish=end((None, 20), trick10=B, last=A)),
        hand("9c", tricks("BAA", melds={3: (["four:K", "marriage:h"], [])}), seven=(A, None),
             finish=end((50, None), A, B)),
        hand("Kd", tricks([None] * 9 + [A], melds={10: (["marriage:d"], [])}, exchange=(10, A))),
        hand("9s", tricks("AB", melds={1: (["marjolet:s"], []), 2: ([], [["Kd", "Qd"]])})),
    ]
    four_jacks = hand("9s", tricks("A", melds={1: ([["Jh", "Js", "Jd", "Jc"]], [])}))
    for switches in ({}, dict.fromkeys(SWITCHES, True)):
        rules = rules_of(settings(**switches))
        for raw in deals + ([] if switches else [four_jacks]):
            score = score_hand(parse_hand(raw), B, NAMES, rules)
            assert score.lines
            for line in score.lines:
                assert_translatable(line.text)


@pytest.mark.parametrize("seed", range(12))
def test_simulated_matches_under_random_rule_sets_are_translatable(seed):
    rng = random.Random(seed)
    switches = {key: rng.random() < 0.5 for key in SWITCHES}
    deals, dealer = [], B
    for _ in range(4):
        deals.append(simulate_hand(rng, dealer, switches).facts | {"dealer": dealer})
        dealer = 1 - dealer
    deals.append(simulate_hand(rng, dealer, switches, stop_after=rng.randint(1, 12)).facts)
    assert_outcomes_translatable(score_match(settings(**switches), deals))


@pytest.mark.parametrize("raw", [
    {}, {"target": 1000}, {"rules": "traditional"},
    {"rules": "custom", "sweep_40": True, "turn_up_seven_10": True},
    {"rules": "custom", "traditional_melds": True, "no_trick_10_bonus": True},
], ids=["default", "1000", "traditional", "custom a", "custom b"])
def test_the_rules_in_force_are_translatable(raw):
    for line in GAME.rules_in_force(settings(**raw)):
        assert_translatable(line)


def test_meld_names_and_switch_titles_are_translatable():
    for trumps in FRENCH.suits:
        for meld in all_melds(trumps):
            assert_translatable(meld.name)
    for title in SWITCH_TITLES.values():
        assert_translatable(title)


# -- every refusal ---------------------------------------------------------------------------------

def _trick_cards(count: int, cards: dict[int, list[str]], **kw: Any) -> list[dict[str, Any]]:
    trick_list = tricks(count=count, **kw)
    for number, pair in cards.items():
        trick_list[number - 1]["cards"] = pair
    return trick_list


OWN = {
    "four jacks, traditional": (hand("9c", tricks(melds={2: (["four:J"], [])})), True),
    "a meld again, later": (
        hand("9c", tricks("AAAA", melds={2: (["marriage:h"], []), 4: (["marriage:h"], [])})),
        False),
    "the trump 7 played, recorded for the other": (
        hand("9c", _trick_cards(1, {1: ["7c", "8d"]}), seven=(B, 1)), False),
    "the trump 7 played, recorded for the other, no trick": (
        hand("9c", _trick_cards(1, {1: ["7c", "8d"]}), seven=(B, None)), False),
    "the trump 7 recorded in a trick without it": (
        hand("9c", _trick_cards(1, {1: ["8c", "8d"]}), seven=(A, 1)), False),
    "a melded card played by the other": (
        hand("9c", _trick_cards(3, {1: ["Ac", "7d"], 2: ["As", "7s"], 3: ["8d", "Kh"]},
                                melds={2: (["marriage:h"], [])})), False),
    "a melded card played before": (
        hand("9c", _trick_cards(2, {1: ["Kh", "8h"], 2: ["Ac", "7d"]},
                                melds={2: (["marriage:h"], [])})), False),
    "the exchanged seven played before trick 11": (
        hand("9c", _trick_cards(3, {1: ["8h", "9h"], 2: ["Ah", "10h"], 3: ["7c", "8s"]},
                                exchange=(1, B))), False),
    "the turn-up played before trick 11": (hand("9c", _trick_cards(1, {1: ["9c", "8d"]})), False),
    "the turn-up played by the winner of trick 10": (recorded([("9h", "Jc")]), False),
    "a card played twice": (
        hand("9c", _trick_cards(2, {1: ["As", "Ks"], 2: ["Ks", "Qh"]})), False),
    "the trump 7 played, not recorded": (hand("9c", _trick_cards(1, {1: ["7c", "8d"]})), False),
    "more aces and tens in the recorded tricks": (
        hand("9c", _trick_cards(1, {1: ["As", "10s"]}), seven=(A, None),
             finish=end((10, 70), A, B)), False),
    "a meld after an exchange by the other": (
        hand("9c", tricks(melds={3: ([], ["marriage:h"])}, exchange=(3, A))), False),
    "an exchange by the loser of a recorded trick": (
        hand("9c", _trick_cards(1, {1: ["8h", "9h"]}, exchange=(1, A))), False),
    "the last trick entered for the other": (
        hand("9c", tricks("A" * 16), seven=(A, None), finish=end((40, 40), A, B)), False),
    "sweep claimed by the loser of a trick": (
        hand("9c", tricks("A" * 11 + "B"), seven=(A, None),
             finish=end((60, 20), A, A, sweep=A)), False),
    "a winner recorded, the sweep disagrees at trick 16": (
        hand("9c", tricks("A" * 10), seven=(A, None), finish=end((40, 40), A, B, sweep=A)),
        False),
    "brisques impossible for the tricks known": (
        hand("9c", tricks("A" * 16), seven=(A, None), finish=end((70, 10), A, A, sweep=A)),
        False),
    "brisques impossible for some unknown tricks": (
        hand("9c", tricks("B" * 14), seven=(A, None), finish=end((70, 10), B, A)), False),
    "an illegal ruff in a partial record": (recorded([("Jc", "Ah"), ("9c", "8c")]), False),
    "a failure to win": (recorded([("8c", "7c"), ("Jc", "9c")]), False),
    "held earlier and exchanged": (
        hand("9c", tricks("AAA", melds=KINGS_THEN_HEARTS, exchange=(3, A))), False),
    "exchanged with five other cards": (
        hand("9c", tricks(melds={3: (["four:K", "marriage:h"], [])}, exchange=(3, A))), False),
    "melds of the ninth trick shaped wrong": (
        hand("9c", tricks(count=9) + [{"winner": A, "melds": [[]]}]), False),
    "two cards expected": (hand("9c", _trick_cards(1, {1: ["As", "Ks", "Qs"]})), False),
    "aces and tens of one player": (
        {**hand("9c", [], seven=(A, None)), "end": {**end((40, 40), A, B), "brisques": [40]}},
        False),
    "no turn-up": ({"tricks": []}, False),
}
DEALS = {
    # (all but the shared require_int's refusal of 90 in aces and tens)
    **{f"tables: {k}": (raw, False) for k, (raw, code) in IMPOSSIBLE.items()
       if code != "fact.range"},
    **{f"E10: {k}": (raw, False) for k, (raw, _) in E10.items()},
    **{f"review: {k}": (raw, False) for k, raw in {**CROSS_TURN, **CARD_HOLDING}.items()},
    **OWN,
}


def refusal(call: Any) -> RuleViolation:
    with pytest.raises(RuleViolation) as err:
        call()
    return err.value


def raised_in_marjolet(error: RuleViolation) -> bool:
    """Was ``error`` raised by Marjolet's own code (not by a shared helper such as
    ``require_player``, whose words are made translatable with the shared modules)?"""
    trace = error.__traceback__
    assert trace is not None
    while trace.tb_next is not None:
        trace = trace.tb_next
    return Path(trace.tb_frame.f_code.co_filename).parent == MARJOLET


@pytest.mark.parametrize(("raw", "traditional"), DEALS.values(), ids=DEALS.keys())
def test_every_refusal_of_a_deal_is_translatable(raw, traditional):
    rules = rules_of(settings(rules="traditional" if traditional else "default"))
    error = refusal(lambda: score_hand(parse_hand(raw), B, NAMES, rules))
    assert error.rule
    assert raised_in_marjolet(error), error
    assert_translatable(error.message)


def test_aces_and_tens_against_a_complete_card_record_are_translatable():
    deal = simulate_hand(random.Random(7), B, cards_known=True, winners_known=1.0).facts
    assert all(trick.get("cards") for trick in deal["tricks"]) and len(deal["tricks"]) == 16
    anne = parse_hand(deal).end.brisque_points[A]
    shifted = (anne + 10, None) if anne < 80 else (anne - 10, None)     # off by one card
    error = refusal(lambda: score_hand(
        parse_hand({**deal, "end": {**deal["end"], "brisques": list(shifted)}}), B, NAMES,
        rules_of(settings())))
    assert error.code == "brisques.cards"
    assert_translatable(error.message)


@pytest.mark.parametrize("call", [
    lambda: recognize([], "h"),
    lambda: recognize(FRENCH.parse_many("Kh Qs"), "h"),
    lambda: recognize(FRENCH.parse_many("Js Qh"), "h"),
    lambda: recognize(FRENCH.parse_many("10s 10h 10d 10c"), "h", rules_of(settings())),
    lambda: recognize(FRENCH.parse_many("Js Jh Jd Jc"), "h",
                      rules_of(settings(rules="traditional"))),
    lambda: parse_meld("four:9", "h"), lambda: parse_meld("four:8", "h"),
    lambda: parse_meld("four:7", "h"), lambda: parse_meld("TRIO:K", "h"),
    lambda: parse_meld(7, "h"),
    lambda: GAME.settings({"players": ["Anne"]}),
    lambda: GAME.settings({"players": ["Anne", "Anne"], "first_dealer": 0}),
    lambda: GAME.settings({"players": NAMES, "first_dealer": 0, "target": 750}),
    lambda: GAME.settings({"players": NAMES, "first_dealer": 0, "rules": 3}),
    lambda: GAME.settings({"players": NAMES, "first_dealer": 0, "sweep_40": 1}),
    lambda: GAME.settings({"players": NAMES, "first_dealer": 0, "rules": "default",
                           "sweep_40": True}),
    lambda: GAME.settings({"players": NAMES, "first_dealer": 0, "rules": "traditional",
                           "sweep_40": False}),
    lambda: score_match(settings(), [hand("9c", [])] * 2),
    lambda: score_match(settings(), [hand("9c", tricks(melds={2: (["marriage:c"], [])}),
                                          seven=(B, None), finish=end((80, 0), A, A, A))] * 5),
], ids=["nothing", "no pair", "plain jack", "four tens", "four jacks", "four nines",
        "four eights", "four sevens", "notation", "a number", "one player", "one name",
        "target", "preset", "switch", "default with a switch", "traditional without",
        "unfinished", "game over"])
def test_every_other_refusal_is_translatable(call):
    error = refusal(call)
    assert error.rule
    assert raised_in_marjolet(error), error
    assert_translatable(error.message)
