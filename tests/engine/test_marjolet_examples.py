"""The worked examples E1–E10 of shared/rules/marjolet.md, section 9, one test each (and one per
rule set where the two differ). Players A = 0 and B = 1; B deals, so A leads trick 1."""

from __future__ import annotations

from typing import Any

import pytest
from marjolet_helpers import A, B, end, fold, hand, score, tricks

from referee.engine.cards import FRENCH
from referee.engine.errors import RuleViolation
from referee.engine.games.marjolet import GAME
from referee.engine.games.marjolet.play import legal_plays


def line_points(s: Any, player: int, text: str) -> list[int]:
    return [line.points for line in s.lines if line.player == player and text in line.text]


# --- E1 -------------------------------------------------------------------------------------------

E1_WINNERS = "BAABABBABA ABAABB"


def e1(won: str | None = E1_WINNERS) -> dict[str, Any]:
    return hand(
        "9c",
        tricks(
            won,
            melds={3: (["four:K", "marriage:h"], []), 6: ([], ["marjolet:c"])},
            exchange=(5, A),
        ),
        finish=end((50, 30), trick10=A, last=B),
    )


def test_e1_a_full_deal_scores_aces_and_tens_melds_and_bonuses_6_2():
    s = score(e1())
    assert s.brisques == [50, 30]
    assert s.melds == [80 + 20, 40]
    assert s.bonuses == [10 + 10, 10 + 10]      # exchange, trick 10 | turn-up, last trick
    assert s.scores == (170, 90)
    assert sum(s.scores) == 260 == 120 + 140
    texts = [(line.player, line.text, line.points) for line in s.lines]
    assert (A, "After trick 3: A melds four kings (K♣ K♦ K♥ K♠)", 80) in texts
    assert (A, "After trick 3: A melds the marriage in hearts (K♥ Q♥)", 20) in texts
    assert (A, "After trick 5: A exchanges the 7♣ for the turn-up 9♣", 10) in texts
    assert (B, "After trick 6: B melds the marjolet with the trump queen (Q♣ J♣)", 40) in texts
    assert (A, "A wins trick 10", 10) in texts
    assert (B, "B takes the turn-up (7♣) after trick 10", 10) in texts
    assert (B, "B wins the last trick", 10) in texts


def test_e1_traditional_four_kings_score_60_and_trick_10_nothing_8():
    s = score(e1(), rules="traditional")
    assert s.melds == [60 + 20, 40]
    assert s.scores == (140, 90)
    assert not line_points(s, A, "wins trick 10")


def test_e1_the_five_cards_of_four_kings_and_a_marriage_fit_one_turn_4_2_3():
    s = score(e1())
    cards = {card for d in s.declared if d.trick == 3 for card in d.meld.cards}
    assert len(cards) == 5


def test_e1_fewer_facts_give_the_same_score_rules_readme():
    assert score(e1(None)).scores == score(e1()).scores == (170, 90)


# --- E2 -------------------------------------------------------------------------------------------

def e2(turn8: list[str]) -> dict[str, Any]:
    return hand("9d", tricks("BABABABA", melds={
        2: (["marriage:h"], []),
        4: (["four:Q"], []),
        6: (["marjolet:h", "marjolet:d"], []),
        8: (turn8, []),
    }))


def test_e2_melded_cards_are_used_again_in_other_melds_4_3():
    s = score(e2(["marriage:d"]))
    assert s.melds == [20 + 60 + 20 + 40 + 40, 0] == [180, 0]
    turn6 = {card for d in s.declared if d.trick == 6 for card in d.meld.cards}
    assert {str(c) for c in turn6} == {"Jd", "Qh", "Qd"}


def test_e2_traditional_four_queens_score_40_4_1():
    assert score(e2(["marriage:d"]), rules="traditional").melds == [160, 0]


@pytest.mark.parametrize("again", ["marriage:h", "four:Q"])
def test_e2_the_same_cards_meld_only_once_per_deal_4_3_2(again):
    with pytest.raises(RuleViolation) as err:
        score(e2([again]))
    assert err.value.code == "meld.twice"
    assert err.value.message.startswith("After trick 8, A melds")
    assert err.value.rule == "4.3.2"


# --- E3 -------------------------------------------------------------------------------------------

E3 = hand("7s", tricks(count=0), finish=end((40, 40), trick10=A, last=A))


def test_e3_the_turned_up_seven_scores_7_for_the_dealer_5():
    s = score(E3)
    assert line_points(s, B, "The turn-up is the 7♠") == [7]
    assert line_points(s, B, "takes the turn-up (7♠)") == [10]
    assert s.scores == (60, 57)
    assert sum(s.scores) == 117


def test_e3_traditional_the_turned_up_seven_scores_10_8():
    s = score(E3, rules="traditional")
    assert s.scores == (50, 60)
    assert sum(s.scores) == 110


def test_e3_no_exchange_when_the_turn_up_is_the_seven_4_4_1():
    with pytest.raises(RuleViolation) as err:
        score(hand("7s", tricks(exchange=(2, A)), finish=end((40, 40), A, A)))
    assert err.value.code == "exchange.turnup-seven"


def test_e3_the_turned_up_seven_earns_nothing_when_played_4_4_3():
    with pytest.raises(RuleViolation) as err:
        score(hand("7s", [], seven=(B, 13), finish=end((40, 40), A, A)))
    assert err.value.code == "seven.turnup"


# --- E4 -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("trick", [12, 3, None])
def test_e4_the_trump_seven_kept_and_played_scores_10_once_4_4_3(trick):
    s = score(hand("Kc", [], seven=(A, trick), finish=end((40, 40), B, B)))
    assert line_points(s, A, "plays the 7♣") == [10]
    assert s.scores == (40 + 10 + 10, 40 + 10 + 10)


def test_e4_a_lone_trump_seven_must_follow_a_trump_lead_2_7():
    held = [FRENCH.parse(c) for c in ("7h", "As", "Kc")]
    assert legal_plays(held, FRENCH.parse("9h"), "h", 12) == [FRENCH.parse("7h")]


# --- E5 -------------------------------------------------------------------------------------------

E5 = hand("As", tricks(melds={}, exchange=(4, A)), finish=end((40, 40), trick10=B, last=A))


def test_e5_an_exchanged_seven_taken_back_scores_no_play_bonus_4_4_3():
    s = score(E5)
    assert line_points(s, A, "exchanges the 7♠ for the turn-up A♠") == [10]
    assert line_points(s, A, "takes the turn-up (7♠)") == [10]
    assert line_points(s, B, "wins trick 10") == [10]
    seven_related = [
        line for line in s.lines if "7♠" in line.text
    ]
    assert sum(line.points for line in seven_related if line.player == A) == 20
    assert not [line for line in seven_related if line.player == B]


def test_e5_recording_the_exchanged_seven_as_played_is_refused_6_3_9():
    raw = dict(E5, seven_played={"player": A, "trick": 15})
    with pytest.raises(RuleViolation) as err:
        score(raw)
    assert err.value.code == "seven.exchanged"


# --- E6 -------------------------------------------------------------------------------------------

E6 = hand("Kd", tricks([None] * 9 + [A], melds={10: (["marriage:d"], [])}, exchange=(10, A)))


def test_e6_exchange_and_meld_the_card_taken_in_the_turn_after_trick_10_4_4_2():
    s = score(E6)
    assert s.scores == (10 + 10 + 40, 10)
    texts = [line.text for line in s.lines]
    assert texts.index("After trick 10: A exchanges the 7♦ for the turn-up K♦") < texts.index(
        "After trick 10: A melds the trump marriage (diamonds) (K♦ Q♦)"
    )
    assert "B takes the turn-up (7♦) after trick 10" in texts


def test_e6_traditional_the_same_turn_scores_50_and_10_8():
    assert score(E6, rules="traditional").scores == (50, 10)


def test_e6_the_turn_up_cannot_be_melded_before_the_exchange_6_3_7():
    raw = hand("Kd", tricks(melds={10: (["marriage:d"], [])}, exchange=None))
    with pytest.raises(RuleViolation) as err:
        score(raw)
    assert err.value.code == "cards.turnup"


def test_e6_the_deal_in_progress_shows_the_turn_as_a_draft_6_1():
    f = fold()
    f.add(1, E6, last=True)
    assert f.draft is not None and not f.draft.complete
    assert f.draft.scores == (60, 10)
    assert f.draft.summary == "in progress"
    assert f.result().standing.totals == (0, 0)


# --- E7 -------------------------------------------------------------------------------------------

E7 = hand("8h", [], seven=(B, None), finish=end((60, 20), trick10=B, last=A, sweep=A))


def test_e7_the_sweep_adds_50_on_top_of_the_last_trick_5():
    s = score(E7)
    assert line_points(s, A, "sweep") == [50]
    assert line_points(s, A, "wins the last trick") == [10]
    assert s.scores == (130, 40)
    assert sum(s.scores) == 170 == 120 + 50


def test_e7_traditional_the_sweep_adds_40_8():
    s = score(E7, rules="traditional")
    assert s.scores == (120, 30)
    assert sum(s.scores) == 150 == 110 + 40


# --- E8 -------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("led", "held", "must"), [
    ("10s", "As 9s Kh 8d", "As"),
    ("10s", "9s Kh 8d", "9s"),
    ("10s", "Kh 8d", "Kh"),
    ("10s", "8d 9c", "8d 9c"),
    ("9h", "7h Kh As", "Kh"),
    ("9h", "7h As", "7h"),
], ids=["follow-and-win", "follow", "trump", "any", "higher-trump", "lower-trump"])
def test_e8_legal_plays_in_tricks_11_to_16_2_7(led, held, must):
    cards = [FRENCH.parse(c) for c in held.split()]
    allowed = legal_plays(cards, FRENCH.parse(led), "h", 13)
    assert {str(c) for c in allowed} == set(must.split())


def test_e8_any_card_may_be_played_in_tricks_1_to_10_2_7():
    cards = [FRENCH.parse(c) for c in ("As", "9s", "Kh", "8d")]
    assert legal_plays(cards, FRENCH.parse("10s"), "h", 10) == cards


# --- E9 -------------------------------------------------------------------------------------------

def deal_scoring(a: int, b: int) -> dict[str, Any]:
    """A deal of exactly ``a`` for A and ``b`` for B (a + b = 120, 160 or 170)."""
    if a + b == 120:      # A: trick 10 and last; B: turn-up and the trump 7
        return hand("9c", [], seven=(B, None), finish=end((a - 20, b - 20), A, A))
    if a + b == 160:      # and B's trump marriage
        return hand("9c", tricks(melds={2: ([], ["marriage:c"])}), seven=(B, None),
                    finish=end((a - 20, b - 60), A, A))
    assert a + b == 170   # and A's sweep
    return hand("9c", [], seven=(B, None), finish=end((a - 70, b - 20), A, A, sweep=A))


def test_e9a_the_first_to_reach_500_wins_7_2():
    f = fold(start=(495, 300))
    f.add(1, deal_scoring(40, 80))
    out = f.hands[0]
    assert out.scores == (40, 80) and out.totals_after == (535, 380)
    assert out.award is not None and out.award.winner == A
    standing = f.result().standing
    assert standing.over and standing.winner == A and standing.victory == (1, 0)
    assert standing.phase == "Game over: A wins 535–380"


def test_e9b_both_over_500_the_higher_total_wins_7_2():
    f = fold(start=(470, 455))
    f.add(1, deal_scoring(80, 90))
    assert f.hands[0].totals_after == (550, 545)
    standing = f.result().standing
    assert standing.over and standing.winner == A
    assert "550 beats 545" in f.hands[0].lines[-1].text


def test_e9c_equal_totals_over_500_play_another_deal_7_2():
    f = fold(start=(480, 440))
    f.add(1, deal_scoring(60, 100))
    first = f.hands[0]
    assert first.totals_after == (540, 540) and first.award is None
    assert first.summary == "both at 540: another deal, totals kept"
    standing = f.result().standing
    assert not standing.over and standing.totals == (540, 540)
    f.add(2, deal_scoring(50, 70))
    assert f.hands[1].totals_after == (590, 610)
    standing = f.result().standing
    assert standing.over and standing.winner == B


def test_e9_target_1000_reads_1000_for_500_7_4():
    f = fold(start=(495, 300), target=1000)
    f.add(1, deal_scoring(40, 80))
    assert not f.result().standing.over


# --- E10 ------------------------------------------------------------------------------------------

E10 = {
    "meld by the loser of trick 5": (
        hand("9c", tricks("BABAA", melds={5: ([], ["marriage:h"])})), "meld.loser"),
    "meld after trick 11": (
        hand("9c", tricks(melds={11: (["marriage:h"], [])})), "meld.window"),
    "four aces and four kings in one turn": (
        hand("9c", tricks(melds={4: (["four:A", "four:K"], [])})), "meld.too-many-cards"),
    "B melds a king A showed in four kings": (
        hand("9c", tricks(melds={3: (["four:K"], []), 7: ([], ["marriage:s"])})), "cards.both"),
    "four tens under the default rules": (
        hand("9c", tricks(melds={2: (["four:10"], [])})), "meld.not-in-rules"),
    "turn-up 7c and an exchange": (
        hand("7c", tricks(exchange=(3, A))), "exchange.turnup-seven"),
    "an exchange and the trump 7 played by A": (
        hand("9c", tricks(exchange=(3, A)), seven=(A, None)), "seven.exchanged"),
}


@pytest.mark.parametrize(("raw", "code"), E10.values(), ids=E10.keys())
def test_e10_refused_entries_name_the_broken_rule_6_3(raw, code):
    with pytest.raises(RuleViolation) as err:
        score(raw)
    assert err.value.code == code
    assert err.value.rule


@pytest.mark.parametrize(("brisques", "code"), [
    ((45, None), "brisques.tens"), ((50, 40), "brisques.sum"), ((90, None), "fact.range"),
], ids=["45", "50+40", "90"])
def test_e10_impossible_aces_and_tens_are_refused_6_3_1(brisques, code):
    raw = hand("9c", [], seven=(A, None), finish=end(brisques, A, B))
    with pytest.raises(RuleViolation) as err:
        GAME.score(GAME.settings({"players": ["A", "B"], "first_dealer": B}), [raw])
    assert err.value.code == code
    assert err.value.hand == 1
