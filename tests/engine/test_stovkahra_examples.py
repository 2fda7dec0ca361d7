"""The worked examples 1–9 of shared/rules/stovkahra.md, section 9, one test each.

Seats N, E, S, W clockwise; W deals the first deal, so N declares first and leads. Hearts are
trumps. Teams: NS = 0, EW = 1.
"""

from __future__ import annotations

import pytest
from stovkahra_helpers import (
    EW,
    NS,
    E,
    N,
    S,
    W,
    combo,
    deal,
    dost,
    fold,
    played,
    score,
    sevens,
)

from referee.engine.errors import RuleViolation

EXAMPLE_1 = deal(
    combo(N, "A", 3), combo(E, "K", 3), combo(S, "7", 3),
    end=played((40, 32), EW, (5, 3), sevens((4, NS))),
)


def _award(outcome):
    assert outcome.award is not None
    return outcome.award.winner, outcome.award.amount


# --- 1 ------------------------------------------------------------------------------------------


def test_1_combinations_and_a_middle_seven_make_the_deal_score_6_2():
    f = fold()
    f.add(1, EXAMPLE_1)
    out = f.hands[0]
    assert out.dealer == W
    s = out.detail["score"]
    assert s.combinations == [30 + 10, 6]
    assert s.points == [40, 32]
    assert s.sevens == [10, 0]
    assert s.last == [0, 6]
    assert out.scores == (30 + 10 + 40 + 10, 6 + 32 + 6) == (90, 44)
    assert out.totals_after == (90, 44)
    assert out.award is None and not out.reset
    texts = [(line.player, line.text, line.points) for line in out.lines]
    assert (NS, "North: three aces", 30) in texts
    assert (EW, "East: three kings", 6) in texts
    assert (NS, "South: three sevens", 10) in texts
    assert (NS, "NS: trick 4 won with a seven", 10) in texts
    assert (EW, "EW: last trick", 6) in texts
    standing = f.result().standing
    assert standing.totals == (90, 44) and standing.victory == (0, 0)
    assert standing.dealer == N           # the deal passes to the left (2.5)
    assert standing.phase == "Game in progress"


# --- 2 ------------------------------------------------------------------------------------------


def test_2_sevens_on_the_first_and_last_tricks_score_52_and_26_not_32_rule_5():
    s = score(deal(end=played((27, 45), NS, (3, 5), sevens((1, EW), (8, NS)))))
    assert s.sevens == [26, 52]
    assert s.last == [0, 0]                     # the 26 includes the 6 (never 32)
    assert s.scores == (27 + 26, 45 + 52) == (53, 97)
    assert sum(s.scores) == 72 + 52 + 26 == 150
    lines = [(line.text, line.points) for line in s.lines]
    assert ("NS: last trick won with a seven (26, including the 6)", 26) in lines
    assert ("EW: trick 1 won with a seven", 52) in lines


# --- 3 ------------------------------------------------------------------------------------------


def test_3_right_dost_after_winning_trick_2_wins_1_matchstick_7_2_4():
    f = fold()
    f.add(1, EXAMPLE_1)
    f.add(2, deal(end=dost(N, 2, (12, 11), (1, 1), trick_winner=N), sticks="add"))
    out = f.hands[1]
    assert out.dealer == N
    assert out.scores == (12, 11)
    assert out.totals_after == (102, 55)
    assert _award(out) == (NS, 1)
    assert out.detail["dost_right"] is True
    assert out.reset
    counts = [line.text for line in out.lines if line.rule == "7.2.3"]
    assert counts == [
        "NS's count: game score 90 + combinations 0 + card points 12 + sevens 0 = 102",
        "EW's count: game score 44 + combinations 0 + card points 11 + sevens 0 = 55",
    ]
    standing = f.result().standing
    assert standing.totals == (0, 0)            # both scores return to 0
    assert standing.victory == (1, 0)
    assert standing.dealer == E                 # the next deal (E deals) is shuffled


# --- 4 ------------------------------------------------------------------------------------------


def test_4_wrong_dost_gives_the_opponents_2_matchsticks_whatever_they_count_7_2_5():
    f = fold()
    f.add(1, EXAMPLE_1)
    f.add(2, deal(end=dost(N, 2, (8, 11), (1, 1), trick_winner=N), sticks="add"))
    out = f.hands[1]
    assert out.totals_after == (98, 55)
    assert _award(out) == (EW, 2)
    assert out.detail["dost_right"] is False
    standing = f.result().standing
    assert standing.totals == (0, 0)
    assert standing.victory == (0, 2)


# --- 5 ------------------------------------------------------------------------------------------


def test_5_dost_right_after_a_combination_counts_the_declarations_so_far_7_2_1():
    f = fold(start=(48, 75))
    f.add(1, deal(combo(E, "A", 4), end=dost(E, 0)))
    out = f.hands[0]
    assert out.totals_after == (48, 115)
    assert _award(out) == (EW, 2)               # NS count 48 < 50
    # Had N declared three kings first, NS would count 54 and EW would win only 1.
    f = fold(start=(48, 75))
    f.add(1, deal(combo(N, "K", 3), combo(E, "A", 4), end=dost(E, 0)))
    assert f.hands[0].totals_after == (54, 115)
    assert _award(f.hands[0]) == (EW, 1)


# --- 6 ------------------------------------------------------------------------------------------

PLAIN_6 = played((40, 32), EW)             # NS 40, EW 32 and the last trick (+6)



def test_6_both_teams_over_100_the_higher_score_wins_1_matchstick_7_1_2():
    f = fold(start=(92, 90))
    f.add(1, deal(end=PLAIN_6))
    out = f.hands[0]
    assert out.totals_after == (132, 128)
    assert _award(out) == (NS, 1)
    assert f.result().standing.totals == (0, 0)


def test_6_both_teams_equal_over_100_play_another_deal_with_the_scores_kept_7_1_2():
    f = fold(start=(92, 90))
    f.add(1, deal(end=played((38, 34), EW)))
    out = f.hands[0]
    assert out.totals_after == (130, 130)
    assert out.award is None and not out.reset
    assert out.detail["tie"] is True
    standing = f.result().standing
    assert standing.totals == (130, 130)
    assert standing.phase.startswith("Both teams at 130: another deal")
    # In that deal both teams already count 100, so the first eligible dost is right, even by
    # the team behind: E wins trick 1 with no card points and calls.
    f.add(2, deal(end=dost(E, 1, (0, 0), (0, 1), trick_winner=E)))
    assert _award(f.hands[1]) == (EW, 1)
    assert f.hands[1].detail["dost_right"] is True


# --- 7 ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("choice", "piles"), [("add", (5, 1)), ("take", (3, 0))],
                         ids=["add", "take-only-1-could-be-removed"])
def test_7_taking_matchsticks_away_never_below_0_7_3_1(choice, piles):
    f = fold(start=(80, 10), piles=(3, 1))
    f.add(1, deal(end=played((40, 32), EW, (5, 3)), sticks=choice))
    out = f.hands[0]
    assert out.totals_after == (120, 48)
    assert _award(out) == (NS, 2)
    assert f.result().standing.victory == piles
    if choice == "take":
        assert any("only 1 could be taken; 1 lost" in line.text for line in out.lines)


# --- 8 ------------------------------------------------------------------------------------------

EW_WIN_2 = deal(end=dost(N, 2, (8, 11), (1, 1), trick_winner=N))   # a wrong dost: EW win 2


def test_8_adding_to_10_wins_the_series_7_3_2():
    f = fold(start=(90, 44), piles=(7, 8))
    f.add(1, {**EW_WIN_2, "sticks": "add"})
    standing = f.result().standing
    assert standing.victory == (7, 10)
    assert standing.over and standing.winner == EW
    assert standing.phase == "Series over: EW win 10–7"
    with pytest.raises(RuleViolation) as err:
        f.add(2, deal(end=PLAIN_6))
    assert err.value.code == "match.over"


def test_8_taking_away_instead_plays_on_7_3_2():
    f = fold(start=(90, 44), piles=(7, 8))
    f.add(1, {**EW_WIN_2, "sticks": "take"})
    standing = f.result().standing
    assert standing.victory == (5, 8)
    assert not standing.over and standing.winner is None


def test_8_continue_to_20_goes_on_and_the_other_team_to_20_first_draws_the_series_8():
    f = fold(start=(90, 44), piles=(7, 8), continue_to_20=True)
    f.add(1, {**EW_WIN_2, "sticks": "add"})
    standing = f.result().standing
    assert standing.victory == (7, 10) and not standing.over
    assert "EW reached 10 first: the series goes on to 20" in standing.phase
    f.piles = [18, 12]                                  # later in the series
    f.totals = [90, 44]
    f.add(2, deal(end=dost(E, 1, (0, 3), (0, 1), trick_winner=E), sticks="add"))  # wrong: NS 2
    standing = f.result().standing
    assert standing.victory == (20, 12)
    assert standing.over and standing.winner is None
    assert standing.phase.startswith("Series drawn 20–12")


def test_8_continue_to_20_the_first_team_to_10_reaching_20_first_wins_two_series_8():
    f = fold(start=(90, 44), piles=(7, 8), continue_to_20=True)
    f.add(1, {**EW_WIN_2, "sticks": "add"})
    f.piles = [15, 19]
    f.totals = [90, 44]
    f.add(2, {**EW_WIN_2, "sticks": "add"})
    standing = f.result().standing
    assert standing.over and standing.winner == EW
    assert standing.phase == "Series over: EW win two series 21–15"


# --- 9: entries the app refuses -------------------------------------------------------------


def refused(raw, code: str, rule: str, dealer: int = W) -> RuleViolation:
    with pytest.raises(RuleViolation) as err:
        score(raw, dealer)
    assert err.value.code == code, err.value
    assert err.value.rule == rule
    assert err.value.message
    return err.value


def test_9_two_players_cannot_both_declare_three_aces_4_5():
    error = refused(deal(combo(N, "A", 3), combo(S, "A", 3)), "combination.more-than-four", "4.5")
    assert "6" in error.message and "only four" in error.message


def test_9_four_nines_are_not_a_combination_4_5():
    error = refused(deal(combo(W, "9", 4)), "combination.rank", "4.5")
    assert "nines" in error.message


def test_9_card_points_71_and_1_are_impossible_6_3_2():
    error = refused(deal(end=played((71, 1), NS)), "points.impossible", "6.3.2")
    assert "never 1, 2, 70 or 71" in error.message


def test_9_five_tricks_won_with_a_seven_is_impossible_6_3_4():
    raw = deal(end=played(
        (40, 32), NS, seven=sevens((1, NS), (3, EW), (5, NS), (6, EW), (8, NS))
    ))
    error = refused(raw, "sevens.too-many", "6.3.4")
    assert "only four sevens" in error.message


def test_9_a_52_bonus_on_trick_2_is_refused_6_3_4():
    raw = deal(end=played((40, 32), NS, seven=[{"trick": 2, "team": NS, "bonus": 52}]))
    error = refused(raw, "sevens.bonus", "6.3.4")
    assert "52 needs trick 1" in error.message


def test_9_after_four_sevens_by_s_ew_cannot_win_a_trick_with_a_seven_6_3_5():
    raw = deal(combo(S, "7", 4), end=played((40, 32), NS, seven=sevens((5, EW))))
    refused(raw, "sevens.combination", "6.3.5")


def test_9_only_the_winner_of_the_trick_may_call_dost_7_2_1():
    raw = deal(end=dost(S, 3, (20, 10), (2, 1), trick_winner=N))
    error = refused(raw, "dost.not-winner", "7.2.1")
    assert "partner" in error.message


def test_9_no_declaration_after_trick_1_was_led_4_5():
    raw = deal(combo(N, "A", 3, trick=1), end=played((40, 32), NS))
    refused(raw, "combination.late", "4.5")
