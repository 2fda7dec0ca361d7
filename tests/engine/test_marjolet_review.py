"""Review of the Marjolet engine against shared/rules/marjolet.md, rule by rule: cases the other
test files did not cover. Players A = 0 and B = 1; B deals, so A leads trick 1."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from marjolet_helpers import A, B, end, hand, score, tricks

from referee.engine.errors import RuleViolation


def refused(raw: dict[str, Any], code: str, **rules: Any) -> RuleViolation:
    with pytest.raises(RuleViolation) as err:
        score(raw, **rules)
    assert err.value.code == code, err.value
    return err.value


# -- 4.2.3: every card of a meld is held at that moment, among the 5 cards of the turn ----------

def test_an_exchange_and_five_other_meld_cards_in_one_turn_are_refused_4_2_3():
    # the 5 meld cards and the turn-up taken (or the trump 7 given for it) make 6 cards
    raw = hand("9c", tricks(melds={3: (["four:K", "marriage:h"], [])}, exchange=(3, A)))
    error = refused(raw, "meld.too-many-cards")
    assert error.rule == "4.2.3"
    assert "turn-up 9♣" in error.message


# Across turns a melded card stays in its owner's hand until he plays it, one card a trick
# (4.2.3, 4.2.4): these deals are impossible.
CROSS_TURN = {
    "4.2.3-four-kings-then-four-aces-next-turn": (
        hand("9c", tricks("AAA", melds={2: (["four:K"], []), 3: (["four:A"], [])}))),
    "4.2.3-four-kings-then-four-queens-two-tricks-later": (
        hand("9c", tricks("AAB", melds={2: (["four:K"], []), 4: (["four:Q"], [])}))),
}


@pytest.mark.parametrize("raw", CROSS_TURN.values(), ids=CROSS_TURN.keys())
def test_melded_cards_stay_held_across_turns_4_2_3(raw):
    error = refused(raw, "meld.too-many-cards")
    assert error.rule == "4.2.3" and "not yet played" in error.message


# 4.2.3 counts everything together: cards melded earlier and still held, the turn-up taken in
# this turn's exchange (or the trump 7 given for it) and this turn's melds, no more than five.
# Trumps clubs (turn-up 9c), so the marjolet is the Jc.
KINGS_THEN_HEARTS = {2: (["four:K"], []), 3: (["marriage:h", "marjolet:h"], [])}


def test_melds_held_from_earlier_turns_and_an_exchange_together_are_refused_4_2_3():
    # after trick 3: Kh Qh Jc for the melds, at least 2 of Ks Kd Kc still held (one may have
    # gone to trick 3), and the turn-up taken: 6 cards
    raw = hand("9c", tricks("AAA", melds=KINGS_THEN_HEARTS, exchange=(3, A)))
    error = refused(raw, "meld.too-many-cards")
    assert error.rule == "4.2.3"
    assert "not yet played" in error.message and "turn-up 9♣" in error.message
    assert "6 cards" in error.message


def test_the_same_melds_without_the_exchange_fit_five_cards_4_2_3():
    raw = hand("9c", tricks("AAA", melds=KINGS_THEN_HEARTS, exchange=(5, A)))
    assert score(raw).melds == [80 + 20 + 20, 0]


HELD_ALLOWED = {
    # three tricks later: 1 K + 4 Q = 5
    "4.2.3-four-kings-then-four-queens-three-tricks-later": (
        hand("9c", tricks(melds={2: (["four:K"], []), 5: (["four:Q"], [])})), 140),
    # E2's four turns re-use cards and always fit five
    "4.3.1-E2-sequence": (
        hand("9d", tricks(melds={
            2: (["marriage:h"], []), 4: (["four:Q"], []),
            6: (["marjolet:h", "marjolet:d"], []), 8: (["marriage:d"], []),
        })), 180),
    # the turn-up taken (Kd) is one of the five cards of the melds (E6 style)
    "4.4.2-exchange-and-meld-the-turn-up-in-five-cards": (
        hand("Kd", tricks(melds={3: (["four:K", "marriage:h"], [])}, exchange=(3, A))), 100),
    # the turn-up taken after trick 2 may have been played to trick 3
    "4.2.3-turn-up-taken-earlier-may-be-played": (
        hand("9c", tricks("AA", melds={3: (["four:K", "marriage:h"], [])}, exchange=(2, A))),
        100),
    # E1: four kings and the marriage (5 cards) after trick 3, the exchange after trick 5
    "4.2.3-E1-five-cards-then-exchange-later": (
        hand("9c", tricks(melds={3: (["four:K", "marriage:h"], [])}, exchange=(5, A))), 100),
}


@pytest.mark.parametrize(("raw", "melds"), HELD_ALLOWED.values(), ids=HELD_ALLOWED.keys())
def test_melds_that_fit_the_cards_held_are_allowed_4_2_3(raw, melds):
    assert score(raw).melds == [melds, 0]


# -- 2.7 and 6.1.7: the checker refuses an illegal card as soon as the record shows it -----------

# Trumps hearts (turn-up 9h). A leads and wins tricks 1-10 with the higher card of a plain suit;
# then A holds Jc 8c + 4 hearts and B holds 9c 7c + hearts (B took the turn-up 9h).
FIRST_TEN = [
    ("As", "Ks"), ("10s", "Qs"), ("Js", "9s"), ("8s", "7s"),
    ("Ad", "Kd"), ("10d", "Qd"), ("Jd", "9d"), ("8d", "7d"),
    ("Ac", "Kc"), ("10c", "Qc"),
]


def recorded(later: list[tuple[str, str]]) -> dict[str, Any]:
    trick_list = tricks(count=len(FIRST_TEN) + len(later))
    for entry, cards in zip(trick_list, FIRST_TEN + later, strict=True):
        entry["cards"] = list(cards)
    return hand("9h", trick_list)


def test_a_partial_record_already_shows_an_illegal_ruff_2_7():
    # trick 11: A leads Jc, B trumps with Ah; trick 12: B leads 9c, so he held a club in
    # trick 11 and had to follow
    error = refused(recorded([("Jc", "Ah"), ("9c", "8c")]), "play.illegal")
    assert error.rule == "2.7"
    assert "Trick 11" in error.message


def test_a_partial_record_already_shows_a_failure_to_win_2_7():
    # trick 11: A leads 8c, B plays 7c although he plays 9c (higher, same suit) in trick 12
    error = refused(recorded([("8c", "7c"), ("Jc", "9c")]), "play.illegal")
    assert "Trick 11" in error.message and "follow suit and win" in error.message


def test_a_legal_partial_record_is_accepted_2_7():
    raw = recorded([("Jc", "9c"), ("Ah", "7c")])
    assert score(raw).winners[:12] == [A] * 12


# -- 3, 5, 8: what a deal distributes, under every combination of the four switches ---------------

COMBOS = list(itertools.product((False, True), repeat=4))


def expected_total(
    switches: tuple[bool, bool, bool, bool], turned_up_seven: bool, swept: bool, melds: int
) -> int:
    """Section 3 from the tables of 4.1, 5 and 8, read independently of the engine."""
    _, seven_10, no_trick_10, sweep_40 = switches
    seven = (10 if seven_10 else 7) if turned_up_seven else 10
    total = 80 + (0 if no_trick_10 else 10) + 10 + 10 + seven + melds
    if swept:
        total += 40 if sweep_40 else 50
    return total


@pytest.mark.parametrize("switches", COMBOS, ids=[
    "custom-" + "".join("1" if s else "0" for s in combo) for combo in COMBOS
])
@pytest.mark.parametrize(("turned_up_seven", "swept"), [
    (False, False), (True, False), (False, True), (True, True),
], ids=["played-7", "turn-up-7", "played-7-sweep", "turn-up-7-sweep"])
def test_deal_scores_sum_to_the_section_3_arithmetic_under_every_switch_set_3_8(
    switches, turned_up_seven, swept
):
    traditional, seven_10, no_trick_10, sweep_40 = switches
    finish = end((60, 20), B, A, sweep=A) if swept else end((40, 40), B, A)
    melds = {3: (["four:K", "marriage:h"], []), 6: ([], ["marjolet:s"])}
    if turned_up_seven:
        raw = hand("7s", tricks(melds=melds), finish=finish)
    else:
        raw = hand("9s", tricks(melds=melds), seven=(B, 12), finish=finish)
    s = score(raw, rules="custom", traditional_melds=traditional, turn_up_seven_10=seven_10,
              no_trick_10_bonus=no_trick_10, sweep_40=sweep_40)
    meld_points = (60 if traditional else 80) + 20 + 40
    assert s.melds == [(60 if traditional else 80) + 20, 40]
    assert sum(s.scores) == expected_total(switches, turned_up_seven, swept, meld_points)
    # who gets what (5): B deals and wins trick 10, A takes the turn-up and the last trick
    seven = (10 if seven_10 else 7) if turned_up_seven else 10
    a_bonus = 10 + 10 + ((40 if sweep_40 else 50) if swept else 0)
    b_bonus = (0 if no_trick_10 else 10) + seven
    assert s.bonuses == [a_bonus, b_bonus]


# -- 6.3.7: the examples of the rule, each alone ------------------------------------------------

CARD_HOLDING = {
    "6.3.7-both-meld-four-aces": hand("9c", tricks(melds={2: (["four:A"], []),
                                                          5: ([], ["four:A"])})),
    "6.3.7-A-four-kings-B-any-marriage": hand("9c", tricks(melds={2: (["four:K"], []),
                                                                   5: ([], ["marriage:c"])})),
    "6.3.7-B-marriage-before-A-four-kings": hand("9c", tricks(melds={2: ([], ["marriage:h"]),
                                                                      5: (["four:K"], [])})),
    "6.3.7-A-four-queens-B-marjolet": hand("9c", tricks(melds={2: (["four:Q"], []),
                                                                5: ([], ["marjolet:s"])})),
    "6.3.7-both-meld-a-marjolet": hand("9c", tricks(melds={2: (["marjolet:c"], []),
                                                            5: ([], ["marjolet:h"])})),
    "6.3.7-A-four-jacks-B-marjolet": hand("9c", tricks(melds={2: (["four:J"], []),
                                                               5: ([], ["marjolet:h"])})),
    "6.3.7-Kd-turned-up-no-exchange": hand("Kd", tricks(melds={2: (["marriage:d"], [])})),
    "6.3.7-Jc-turned-up-marjolet-no-exchange": hand("Jc", tricks(melds={2: (["marjolet:h"],
                                                                            [])})),
    "6.3.7-turn-up-melded-by-the-non-exchanger": hand(
        "Qh", tricks(melds={6: ([], ["four:Q"])}, exchange=(2, A))),
}


@pytest.mark.parametrize("raw", CARD_HOLDING.values(), ids=CARD_HOLDING.keys())
def test_cards_never_pass_between_the_players_6_3_7(raw):
    with pytest.raises(RuleViolation) as err:
        score(raw)
    assert err.value.code in ("cards.both", "cards.turnup", "meld.twice")
    assert err.value.rule in ("6.3.7", "4.3.2")


def test_the_exchanger_melds_the_turn_up_jack_as_marjolet_4_4_2():
    s = score(hand("Jc", tricks(melds={3: (["marjolet:c", "marjolet:h"], [])},
                                exchange=(3, A))))
    assert s.melds == [40 + 20, 0]
    assert s.bonuses == [10, 0]
