"""Table-driven tests of the Marjolet rules (shared/rules/marjolet.md): every row is data copied
from or derived from the rules file, with an id naming what it checks."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from marjolet_helpers import NAMES, A, B, end, fold, hand, score, settings, tricks

from referee.engine.cards import FRENCH
from referee.engine.errors import RuleViolation
from referee.engine.games import GAMES, get
from referee.engine.games.base import Line
from referee.engine.games.marjolet import GAME, is_meld, recognize, rules_of
from referee.engine.games.marjolet.facts import hand_to_json, parse_hand
from referee.engine.games.marjolet.melds import parse_meld
from referee.engine.games.marjolet.play import trick_winner
from referee.engine.games.marjolet.values import (
    PRESETS,
    Rules,
    base_total,
    brisque_range,
    possible_brisques,
)
from referee.engine.matchfile import dumps, load, standings

DEFAULT, TRADITIONAL = PRESETS["default"], PRESETS["traditional"]


def cards(text: str) -> list:
    return [FRENCH.parse(t) for t in text.split()]


def refused(raw: dict[str, Any], code: str, **rules: Any) -> RuleViolation:
    with pytest.raises(RuleViolation) as err:
        score(raw, **rules)
    assert err.value.code == code, err.value
    assert err.value.rule
    return err.value


def test_marjolet_is_registered():
    assert GAMES["marjolet"] is GAME is get("marjolet")
    assert GAME.deck is FRENCH and GAME.players == (2, 2)


# -- 4.1: recognising melds from cards, and their values under both rule sets --------------------

MELDS = [
    # cards, trumps, notation, default points, traditional points
    ("As Ah Ad Ac", "c", "four:A", 100, 100),
    ("10s 10h 10d 10c", "c", "four:10", None, 80),
    ("Ks Kh Kd Kc", "h", "four:K", 80, 60),
    ("Qs Qh Qd Qc", "h", "four:Q", 60, 40),
    ("Js Jh Jd Jc", "h", "four:J", 40, None),
    ("Kh Qh", "h", "marriage:h", 40, 40),
    ("Qs Ks", "h", "marriage:s", 20, 20),
    ("Jh Qh", "h", "marjolet:h", 40, 40),
    ("Qd Jh", "h", "marjolet:d", 20, 20),
    ("Jc Qc", "c", "marjolet:c", 40, 40),
]


@pytest.mark.parametrize(("shown", "trumps", "notation", "default", "traditional"), MELDS,
                         ids=[f"{row[2]}-trumps-{row[1]}" for row in MELDS])
def test_meld_recognised_from_cards_and_valued_under_both_rule_sets_4_1(
    shown, trumps, notation, default, traditional
):
    meld = recognize(cards(shown), trumps)
    assert str(meld) == notation
    assert parse_meld(notation, trumps) == meld == parse_meld(shown.split(), trumps)
    assert meld.cards == frozenset(cards(shown))
    for rules, points in ((DEFAULT, default), (TRADITIONAL, traditional)):
        if points is None:
            with pytest.raises(RuleViolation) as err:
                recognize(cards(shown), trumps, rules)
            assert err.value.code == "meld.not-in-rules"
            assert err.value.rule == "6.3.4"
        else:
            assert recognize(cards(shown), trumps, rules).points(rules) == points


@pytest.mark.parametrize(("shown", "trumps", "code"), [
    ("9s 9h 9d 9c", "h", "meld.not-a-meld"),
    ("7s 7h 7d 7c", "h", "meld.not-a-meld"),
    ("As Ah Ad", "h", "meld.not-a-meld"),
    ("Kh Qd", "h", "meld.not-a-meld"),
    ("Kh Qh Jh", "h", "meld.not-a-meld"),
    ("Kh", "h", "meld.not-a-meld"),
    ("", "h", "meld.not-a-meld"),
    ("Jc Qh", "h", "meld.marjolet-jack"),
    ("Kh Jh", "h", "meld.not-a-meld"),
    ("As Ah Ad Ac Kh", "h", "meld.not-a-meld"),
], ids=["four-nines", "four-sevens", "three-aces", "mixed-marriage", "three-cards", "one-card",
        "nothing", "plain-jack-marjolet", "king-and-jack", "five-cards"])
def test_cards_that_are_no_meld_are_refused_with_a_reason_4_1(shown, trumps, code):
    with pytest.raises(RuleViolation) as err:
        recognize(cards(shown), trumps)
    assert err.value.code == code
    assert "not a meld" in err.value.message


@pytest.mark.parametrize(("text", "code"), [
    ("four:9", "meld.not-a-meld"), ("four:X", "meld.unknown"), ("marriage:x", "meld.unknown"),
    ("sequence:h", "meld.unknown"), ("Kh Kh", "card.twice"), (["Zz"], "card.unknown"),
    (42, "meld.unknown"),
])
def test_meld_notation_is_read_strictly_1(text, code):
    with pytest.raises(RuleViolation) as err:
        parse_meld(text, "h")
    assert err.value.code == code


def test_is_meld_is_the_yes_no_form_of_recognize():
    assert is_meld(cards("Kh Qh"), "c")
    assert not is_meld(cards("Kh Qd"), "c")
    assert is_meld(cards("Js Jh Jd Jc"), "c", DEFAULT)
    assert not is_meld(cards("Js Jh Jd Jc"), "c", TRADITIONAL)


def test_meld_names_say_trump_or_plain_4_1():
    assert recognize(cards("Kh Qh"), "h").name == "the trump marriage (hearts)"
    assert recognize(cards("Kh Qh"), "s").name == "the marriage in hearts"
    assert recognize(cards("Js Qs"), "s").name == "the marjolet with the trump queen"
    assert recognize(cards("Js Qh"), "s").name == "the marjolet with the queen of hearts"


@pytest.mark.parametrize(("meld", "code", "rules"), [
    ("four:10", "meld.not-in-rules", "default"),
    ("four:J", "meld.not-in-rules", "traditional"),
])
def test_melds_of_the_other_rule_set_are_refused_in_a_deal_6_3_4(meld, code, rules):
    refused(hand("9c", tricks(melds={2: ([meld], [])})), code, rules=rules)


@pytest.mark.parametrize(("meld", "rules", "points"), [
    ("four:10", "traditional", 80), ("four:J", "default", 40),
])
def test_melds_of_the_rule_set_in_force_score_4_1(meld, rules, points):
    assert score(hand("9c", tricks(melds={2: ([meld], [])})), rules=rules).melds == [points, 0]


# -- 5: every bonus under both rule sets ----------------------------------------------------------

PLAIN_END = end((40, 40), trick10=A, last=B)
BONUSES = [
    # facts, player, text in the line, default, traditional
    (hand("7c", [], finish=PLAIN_END), B, "The turn-up is the 7♣", 7, 10),
    (hand("9c", tricks(exchange=(4, A)), finish=PLAIN_END), A, "exchanges the 7♣", 10, 10),
    (hand("9c", [], seven=(A, 12), finish=PLAIN_END), A, "plays the 7♣ to trick 12", 10, 10),
    (hand("9c", [], seven=(A, 12), finish=PLAIN_END), A, "wins trick 10", 10, None),
    (hand("9c", [], seven=(A, 12), finish=PLAIN_END), B, "takes the turn-up (9♣)", 10, 10),
    (hand("9c", [], seven=(A, 12), finish=PLAIN_END), B, "wins the last trick", 10, 10),
    (hand("9c", [], seven=(A, 12), finish=end((60, 20), A, A, sweep=A)), A, "sweep", 50, 40),
]


@pytest.mark.parametrize(("raw", "player", "text", "default", "traditional"), BONUSES,
                         ids=["turn-up-7", "exchange", "seven-played", "trick-10",
                              "turn-up-taken", "last-trick", "sweep"])
def test_every_bonus_under_both_rule_sets_5(raw, player, text, default, traditional):
    for rules, points in (("default", default), ("traditional", traditional)):
        s = score(raw, rules=rules)
        lines = [line for line in s.lines if text in line.text]
        if points is None:
            assert not lines
        else:
            assert [(line.player, line.points) for line in lines] == [(player, points)]
            assert lines[0].rule in ("5", "4.4.1", "4.4.3")


@pytest.mark.parametrize(("switch", "raw", "default", "on"), [
    ("turn_up_seven_10", hand("7c", [], finish=PLAIN_END), (50, 67), (50, 70)),
    ("no_trick_10_bonus", hand("9c", [], seven=(A, 12), finish=PLAIN_END), (60, 60), (50, 60)),
    ("sweep_40", hand("9c", [], seven=(B, 12), finish=end((60, 20), B, A, sweep=A)),
     (130, 40), (120, 40)),
    ("traditional_melds", hand("9c", tricks(melds={2: (["four:K"], [])}), seven=(A, 12),
                               finish=PLAIN_END), (140, 60), (120, 60)),
])
def test_each_switch_alone_changes_only_its_own_value_8(switch, raw, default, on):
    assert score(raw, rules="custom").scores == default
    assert score(raw, rules="custom", **{switch: True}).scores == on


@pytest.mark.parametrize(("rules", "turned_up", "total"), [
    (DEFAULT, False, 120), (DEFAULT, True, 117), (TRADITIONAL, False, 110),
    (TRADITIONAL, True, 110),
])
def test_what_a_deal_distributes_before_melds_3(rules, turned_up, total):
    assert base_total(rules, turned_up) == total


# -- 6.3.1: aces and tens -------------------------------------------------------------------------

@pytest.mark.parametrize(("won", "low", "high"), [
    (0, 0, 0), (1, 0, 20), (4, 0, 80), (12, 0, 80), (13, 20, 80), (14, 40, 80), (15, 60, 80),
    (16, 80, 80),
])
def test_aces_and_tens_that_w_tricks_can_hold_6_3_1(won, low, high):
    assert brisque_range(won) == (low, high)
    assert all(possible_brisques(p, won) == (low <= p <= high) for p in range(0, 90, 10))
    assert not possible_brisques(low + 5, won)


def test_a_player_who_won_every_trick_has_all_80_6_3_1():
    raw = hand("9c", tricks("A" * 16), seven=(A, None), finish=end((70, 10), A, A, sweep=A))
    error = refused(raw, "brisques.impossible")
    assert "16 tricks hold 80 to 80" in error.message


def test_a_player_who_won_13_tricks_has_at_least_20_6_3_1():
    raw = hand("9c", tricks("BBB" + "A" * 13), seven=(A, None),
               finish=end((10, 70), A, A, sweep=A))
    refused(raw, "brisques.impossible")


# -- 2.5: who wins a trick ----------------------------------------------------------------------

@pytest.mark.parametrize(("led", "second", "winner"), [
    ("9s", "As", 1), ("As", "10s", 0), ("10s", "Ks", 0), ("Ks", "10s", 1), ("As", "7h", 1),
    ("7h", "As", 0), ("8h", "9h", 1), ("Ad", "Ac", 0), ("7d", "Ac", 0),
], ids=["higher-same-suit", "ace-over-ten", "ten-over-king", "ten-beats-king", "trump-wins",
        "trump-led", "higher-trump", "other-suit", "other-suit-low"])
def test_trick_winner_2_5(led, second, winner):
    leader = B
    assert trick_winner(leader, (FRENCH.parse(led), FRENCH.parse(second)), "h") == (
        leader if winner == 0 else 1 - leader
    )


# -- the impossible combinations (6.3.7–6.3.9), also in an imported match file -----------------

IMPOSSIBLE: dict[str, tuple[dict[str, Any], str]] = {
    "trump 7 exchanged and played unexchanged": (
        hand("9c", tricks(exchange=(3, A)), seven=(B, 12), finish=PLAIN_END), "seven.exchanged"),
    "exchange when the turn-up is the 7": (
        hand("7c", tricks(exchange=(3, A)), finish=PLAIN_END), "exchange.turnup-seven"),
    "sweep for one, last trick for the other": (
        hand("9c", [], seven=(A, None), finish=end((60, 20), A, B, sweep=A)), "end.sweep-last"),
    "both players meld four aces": (
        hand("9c", tricks("BA", melds={1: ([], ["four:A"]), 2: (["four:A"], [])})),
        "meld.twice"),
    "four aces by A, then the same aces picked as cards by B": (
        hand("9c", tricks(melds={2: (["four:A"], []), 5: ([], ["As Ah Ad Ac"])})),
        "meld.twice"),
    "90 in aces and tens": (
        hand("9c", [], seven=(A, None), finish=end((90, None), A, B)), "fact.range"),
    "50 and 40 in aces and tens": (
        hand("9c", [], seven=(A, None), finish=end((50, 40), A, B)), "brisques.sum"),
    "A four kings, B a marriage": (
        hand("9c", tricks(melds={2: (["four:K"], []), 3: ([], ["marriage:d"])})), "cards.both"),
    "A four queens, B a marjolet": (
        hand("9c", tricks(melds={2: (["four:Q"], []), 3: ([], ["marjolet:c"])})), "cards.both"),
    "both players meld a marjolet": (
        hand("9c", tricks(melds={2: (["marjolet:h"], []), 3: ([], ["marjolet:d"])})),
        "cards.both"),
    "Kd turned up, marriage:d without exchange": (
        hand("Kd", tricks(melds={4: ([], ["marriage:d"])})), "cards.turnup"),
    "the turn-up melded by the other player after an exchange": (
        hand("Kd", tricks(melds={4: ([], ["marriage:d"])}, exchange=(2, A))), "cards.turnup"),
    "the turn-up melded before the exchange": (
        hand("Kd", tricks("AAAA", melds={2: (["marriage:d"], [])}, exchange=(4, A))),
        "cards.turnup"),
    "two exchanges": (
        hand("9c", tricks("AAAB", exchange=(2, A)) + [{"winner": A, "exchange": A}]),
        "exchange.twice"),
    "seven played with a turned-up seven": (
        hand("7c", [], seven=(A, 12), finish=PLAIN_END), "seven.turnup"),
    "no trump-7 event in a complete deal": (hand("9c", [], finish=PLAIN_END), "seven.missing"),
    "sweep with a trick of 11-16 recorded for the other": (
        hand("9c", tricks("A" * 12 + "B"), seven=(A, None), finish=end((60, 20), A, A, sweep=A)),
        "end.sweep"),
    "all of 11-16 recorded for one player, no sweep": (
        hand("9c", tricks("B" * 10 + "A" * 6), seven=(A, None), finish=end((40, 40), B, A)),
        "end.sweep-missing"),
    "meld after trick 10 by the loser of trick 10": (
        hand("9c", tricks(melds={10: ([], ["marriage:h"])}), seven=(A, None),
             finish=end((40, 40), A, A)), "meld.loser"),
    "both players meld after one trick": (
        hand("9c", tricks(melds={3: (["marriage:h"], ["marriage:s"])})), "meld.loser"),
    "exchange by the loser of the trick": (
        hand("9c", tricks("AAB", exchange=(3, A))), "exchange.loser"),
    "recorded winners disagree with the end": (
        hand("9c", tricks("A" * 10), seven=(A, None), finish=end((40, 40), B, A)),
        "trick.conflict"),
    "more than five cards in a turn": (
        hand("9c", tricks(melds={2: (["four:K", "marriage:h", "marriage:s"], [])})),
        "meld.too-many-cards"),
    "the same meld twice in one turn": (
        hand("9c", tricks(melds={2: (["marriage:h", ["Kh", "Qh"]], [])})), "meld.twice"),
    "melds after trick 11": (
        hand("9c", tricks(melds={12: (["marriage:h"], [])})), "meld.window"),
    "exchange after trick 11": (
        hand("9c", tricks(exchange=(11, A))), "exchange.window"),
    "no aces and tens given": (
        hand("9c", [], seven=(A, None), finish=end((None, None), A, B)), "fact.brisques"),
    "45 in aces and tens": (
        hand("9c", [], seven=(A, None), finish=end((45, None), A, B)), "brisques.tens"),
}


@pytest.mark.parametrize(("raw", "code"), IMPOSSIBLE.values(), ids=IMPOSSIBLE.keys())
def test_impossible_combinations_are_refused_with_a_reason_6_3(raw, code):
    refused(raw, code)


@pytest.mark.parametrize(("raw", "code"), IMPOSSIBLE.values(), ids=IMPOSSIBLE.keys())
def test_impossible_combinations_are_refused_in_an_imported_match_file_6_3(raw, code):
    good = hand("9c", [], seven=(A, None), finish=end((40, 40), A, B))
    data = {
        "format": "referee-match", "version": 1, "game": "marjolet", "created": "2026-01-02",
        "settings": {"players": ["Anne", "Bruno"], "first_dealer": 1},
        "hands": [good, raw],
    }
    with pytest.raises(RuleViolation) as err:
        load(json.dumps(data))
    assert err.value.code == code
    assert err.value.hand == 2
    assert str(err.value).startswith(("Hand 2: ", "Deal 2: "))


def test_the_messages_name_the_players_and_the_cards_6_3_7():
    raw = hand("9c", tricks(melds={3: (["four:K"], []), 7: ([], ["marriage:s"])}))
    message = refused(raw, "cards.both").message
    assert "K♠ is shown by both players" in message
    assert "A: four kings after trick 3" in message
    assert "B: the marriage in spades after trick 7" in message


# -- the card-by-card record (6.1.7) ------------------------------------------------------------

def test_cards_recorded_from_trick_1_without_a_gap_6_1_7():
    trick_list = tricks(count=2)
    trick_list[1]["cards"] = ["As", "Ks"]
    refused(hand("9c", trick_list), "record.gap")


def test_a_card_played_twice_is_refused_3():
    trick_list = tricks(count=2)
    trick_list[0]["cards"] = ["As", "Ks"]
    trick_list[1]["cards"] = ["Ks", "Qh"]
    refused(hand("9c", trick_list), "record.twice")


def test_the_cards_decide_the_winner_2_5():
    trick_list = tricks("A")        # B deals, A leads As; B's 7c trumps it
    trick_list[0]["cards"] = ["As", "7c"]
    error = refused(hand("9c", trick_list, seven=(B, 1)), "trick.conflict")
    assert "give it to B" in error.message


def test_a_melded_card_already_played_is_refused_4_2_3():
    trick_list = tricks("AA", melds={2: (["marriage:h"], [])})
    trick_list[0]["cards"] = ["Kh", "8h"]
    trick_list[1]["cards"] = ["Ac", "7d"]
    refused(hand("9c", trick_list), "record.meld")


def test_the_turn_up_cannot_be_played_before_trick_11_2_6():
    trick_list = tricks(count=1)
    trick_list[0]["cards"] = ["9c", "8d"]
    refused(hand("9c", trick_list), "record.turnup")


def test_a_recorded_seven_must_be_recorded_as_played_4_4_3():
    trick_list = tricks(count=1)
    trick_list[0]["cards"] = ["7c", "8d"]
    refused(hand("9c", trick_list), "seven.record")
    refused(hand("9c", trick_list, seven=(B, None)), "seven.record")
    assert score(hand("9c", trick_list, seven=(A, 1))).bonuses == [10, 0]


# -- settings (1, 8) -----------------------------------------------------------------------------

def test_settings_default_and_canonical():
    raw = {"players": [" Anne ", "Bruno"], "first_dealer": 0}
    out = GAME.settings(raw)
    assert out == {
        "players": ["Anne", "Bruno"], "target": 500, "first_dealer": 0, "rules": "default",
        "traditional_melds": False, "turn_up_seven_10": False, "no_trick_10_bonus": False,
        "sweep_40": False,
    }
    assert GAME.settings(out) == out


@pytest.mark.parametrize(("extra", "preset", "switches"), [
    ({"rules": "traditional"}, "traditional", (True, True, True, True)),
    ({"rules": "traditional", "sweep_40": True}, "traditional", (True, True, True, True)),
    ({"rules": "default", "sweep_40": False}, "default", (False, False, False, False)),
    ({"rules": "custom", "sweep_40": True}, "custom", (False, False, False, True)),
    ({"sweep_40": True, "traditional_melds": True}, "custom", (True, False, False, True)),
    ({"rules": "custom"}, "default", (False, False, False, False)),
    ({"rules": "custom", "traditional_melds": True, "turn_up_seven_10": True,
      "no_trick_10_bonus": True, "sweep_40": True}, "traditional", (True, True, True, True)),
])
def test_presets_and_switches_8(extra, preset, switches):
    out = settings(**{"rules": extra.pop("rules", None), **extra})
    assert out["rules"] == preset
    assert tuple(out[k] for k in ("traditional_melds", "turn_up_seven_10", "no_trick_10_bonus",
                                  "sweep_40")) == switches
    assert GAME.settings(out) == out
    assert rules_of(out) == Rules(*switches)


@pytest.mark.parametrize(("raw", "code"), [
    ({"players": ["A"], "first_dealer": 0}, "settings.players"),
    ({"players": ["A", "a"], "first_dealer": 0}, "settings.players"),
    ({"players": ["A", "B"], "first_dealer": 2}, "fact.player"),
    ({"players": ["A", "B"], "first_dealer": 0, "target": 700}, "settings.target"),
    ({"players": ["A", "B"], "first_dealer": 0, "target": True}, "settings.target"),
    ({"players": ["A", "B"], "first_dealer": 0, "rules": "modern"}, "settings.rules"),
    ({"players": ["A", "B"], "first_dealer": 0, "rules": "traditional", "sweep_40": False},
     "settings.rules"),
    ({"players": ["A", "B"], "first_dealer": 0, "rules": "default", "sweep_40": True},
     "settings.rules"),
    ({"players": ["A", "B"], "first_dealer": 0, "sweep_40": "yes"}, "settings.sweep_40"),
])
def test_impossible_settings_are_refused(raw, code):
    with pytest.raises(RuleViolation) as err:
        GAME.settings(raw)
    assert err.value.code == code


def test_rules_in_force_show_the_rule_set_and_every_switch_8():
    lines = GAME.rules_in_force(settings(target=1000, rules="custom", sweep_40=True))
    text = "\n".join(lines)
    assert "one game to 1000 points (Target 1000)" in lines[0]
    assert "Rule set: custom" in text
    for title, state in (("Traditional melds", "off"), ("Turn-up seven 10", "off"),
                         ("No trick-10 bonus", "off"), ("Sweep 40", "on")):
        assert f"{title}: {state}" in text
    assert "four jacks 40" in text and "four tens are not a meld" in text
    traditional = "\n".join(GAME.rules_in_force(settings(rules="traditional")))
    assert "four tens 80" in traditional and "four jacks are not a meld" in traditional
    assert GAME.sides(settings()) == NAMES


# -- facts read strictly, written canonically (6.1) ----------------------------------------------

def test_canonical_hand_writes_melds_as_notation_and_round_trips():
    raw = hand("9c", tricks("BAA", melds={3: ([["Kh", "Qh"], "Kc Kd Ks Kh"], [])}),
               seven=(A, None), finish=end((None, 30), A, B))
    raw["tricks"][0]["cards"] = ["As", "10s"]
    out = GAME.canonical_hand(raw)
    assert out["tricks"][2]["melds"] == [["marriage:h", "four:K"], []]
    assert out["tricks"][0]["cards"] == ["As", "10s"]
    assert "cards" not in out["tricks"][1]
    assert out["end"] == {"brisques": [None, 30], "trick10": A, "last": B, "sweep": None}
    assert parse_hand(out) == parse_hand(raw)
    assert GAME.canonical_hand(out) == out
    assert hand_to_json(parse_hand(out)) == out


@pytest.mark.parametrize(("raw", "code"), [
    ({}, "fact.turnup"),
    ({"turnup": "1x"}, "card.unknown"),
    ({"turnup": "9c", "extra": 1}, "fact.unknown"),
    ({"turnup": "9c", "tricks": [{"winner": 2}]}, "fact.player"),
    ({"turnup": "9c", "tricks": [{"winner": 0, "melds": [[]]}]}, "fact.shape"),
    ({"turnup": "9c", "tricks": [{"winner": 0, "cards": ["As"]}]}, "fact.shape"),
    ({"turnup": "9c", "tricks": [{"winner": 0, "what": 1}]}, "fact.unknown"),
    ({"turnup": "9c", "tricks": [{}] * 17}, "fact.range"),
    ({"turnup": "9c", "seven_played": {"player": 0, "trick": 17}}, "fact.range"),
    ({"turnup": "9c", "end": {"brisques": [40], "trick10": 0, "last": 0}}, "fact.shape"),
    ({"turnup": "9c", "end": {"brisques": [40, 40], "trick10": None, "last": 0}},
     "fact.player"),
    ({"turnup": "9c", "end": [1]}, "fact.shape"),
])
def test_facts_are_read_strictly_6_1(raw, code):
    with pytest.raises(RuleViolation) as err:
        GAME.canonical_hand(raw)
    assert err.value.code == code


# -- the match (7) -------------------------------------------------------------------------------

def test_the_deal_alternates_and_a_finished_game_takes_no_more_deals_7():
    deal = hand("9c", [], seven=(A, None), finish=end((40, 40), A, B))
    f = fold()
    f.add(1, deal)
    f.add(2, deal)
    assert [h.dealer for h in f.hands] == [B, A] and f.result().standing.dealer == B
    f = fold(start=(495, 0))
    f.add(1, deal)
    assert f.result().standing.over
    with pytest.raises(RuleViolation) as err:
        f.add(2, deal)
    assert err.value.code == "match.over"


def test_only_the_last_deal_can_be_in_progress_6_1():
    with pytest.raises(RuleViolation) as err:
        GAME.score(settings(), [hand("9c"), hand("9c")])
    assert err.value.code == "hand.unfinished" and err.value.hand == 1


def test_a_match_file_round_trips_and_explains_itself():
    deal = hand("9c", tricks("BAA", melds={3: (["four:K"], [])}), seven=(A, 14),
                finish=end((50, None), A, B))
    data = {
        "format": "referee-match", "version": 1, "game": "marjolet", "created": "2026-01-02",
        "settings": settings(rules="traditional"), "hands": [deal, hand("7c")],
    }
    m = load(json.dumps(data))
    assert load(dumps(m)) == m
    s = standings(m)
    assert s["hands"][0]["scores"] == [50 + 60 + 10, 30 + 10 + 10]    # no trick-10 bonus
    assert s["in_progress"]["scores"] == [10, 0]      # A deals deal 2: the turned-up 7
    assert s["standing"]["dealer"] == "A"
    assert "Rule set: traditional" in s["rules"][1]
    json.dumps(s)


def test_the_example_game_file_round_trips_and_ends_by_rule_7_2():
    text = (Path(__file__).resolve().parent.parent / "data" / "marjolet-game.json").read_text(
        encoding="utf-8"
    )
    m = load(text)
    written = json.loads(dumps(m))       # a version 1 file is written back with its dealers
    assert [d["dealer"] for d in written["hands"]] == [B, A, B, A, B, A, B]
    assert written["hands"] == [{**d, "dealer": w["dealer"]}
                                for d, w in zip(json.loads(text)["hands"], written["hands"])]
    assert dumps(load(dumps(m))) == dumps(m)
    s = standings(m)
    assert s["standing"]["over"] is True
    assert s["standing"]["winner"] == "Anne"
    assert s["standing"]["totals"] == {"Anne": 634, "Bruno": 520}
    assert s["hands"][-1]["summary"] == "Anne wins the game 634–520"
    assert all(sum(h["scores"]) >= 117 for h in s["hands"])


# -- who dealt: a recorded fact (6.1.1) -------------------------------------------------------

GAME_FILE = Path(__file__).resolve().parent.parent / "data" / "marjolet-game.json"
ANNE, BRUNO = 0, 1


def _seven_lines(outcome: Any) -> list[Any]:
    return [line for line in outcome.lines if line.text.startswith("The turn-up is the 7")]


def test_deleting_deal_1_keeps_deal_2s_turned_up_seven_with_anne_who_dealt_it_6_1_1():
    m = load(GAME_FILE.read_text(encoding="utf-8"))     # Bruno deals first: Anne deals deal 2
    deal_2 = GAME.score(m.settings, m.hands).hands[1]
    (seven,) = _seven_lines(deal_2)
    assert (deal_2.dealer, seven.player, seven.points) == (ANNE, ANNE, 7)
    after = GAME.score(m.settings, m.hands[1:])           # deal 1 deleted
    now_1 = after.hands[0]
    assert now_1.dealer == ANNE and now_1.scores == deal_2.scores
    assert [(line.player, line.points) for line in _seven_lines(now_1)] == [(ANNE, 7)]
    assert now_1.lines[0] == Line(ANNE, "Anne dealt, out of turn: Bruno was due", None,
                                  "2.1")
    assert [h.dealer for h in after.hands] == [ANNE, BRUNO, ANNE, BRUNO, ANNE, BRUNO]


def test_a_dealer_out_of_turn_scores_the_turned_up_seven_and_is_said_6_1_1():
    seven_up = hand("7c", finish=end((40, 40), A, B))
    f = fold(first_dealer=B)
    f.add(1, {**seven_up, "dealer": A})             # B was due: the table's record wins
    f.add(2, seven_up)                               # not recorded: B, after A (2.1)
    first, second = f.hands
    assert first.dealer == A and _seven_lines(first)[0].player == A
    assert first.lines[0] == Line(A, "A dealt, out of turn: B was due", None, "2.1")
    assert second.dealer == B and _seven_lines(second)[0].player == B
    assert not any(line.text.endswith("was due") for line in second.lines)
    assert f.result().standing.dealer == A


def test_a_deal_without_its_dealer_scores_as_before_and_is_completed_6_1_1():
    raw = json.loads(GAME_FILE.read_text(encoding="utf-8"))
    s = GAME.settings(raw["settings"])
    old = [GAME.canonical_hand(h) for h in raw["hands"]]
    assert all("dealer" not in h for h in old)
    completed = GAME.complete(s, old)
    assert [h["dealer"] for h in completed] == [BRUNO, ANNE] * 3 + [BRUNO]     # 2.1
    assert all("dealer" not in h for h in old)              # a copy, never in place
    ours, theirs = GAME.score(s, old), GAME.score(s, completed)
    assert [(h.dealer, h.scores, h.lines) for h in ours.hands] == [
        (h.dealer, h.scores, h.lines) for h in theirs.hands
    ]


@pytest.mark.parametrize("dealer", [2, -1, "B", False])
def test_the_dealer_names_a_player_6_1_1(dealer):
    with pytest.raises(RuleViolation) as err:
        parse_hand({**hand("9c"), "dealer": dealer})
    assert err.value.code == "fact.player"


def test_the_dealer_is_written_first_and_read_back_6_1_1():
    raw = {**hand("9c"), "dealer": A}
    assert list(hand_to_json(parse_hand(raw)))[0] == "dealer"
    assert parse_hand(hand_to_json(parse_hand(raw))).dealer == A
    assert "dealer" not in hand_to_json(parse_hand(hand("9c")))
