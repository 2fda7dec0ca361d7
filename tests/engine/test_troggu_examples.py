"""The worked examples 1–12 of shared/rules/troggu.md, section 9, one test each (and one per
variant an example mentions). S = 10 and D = 29 unless stated; players are letters in seat
order."""

from __future__ import annotations

from troggu_helpers import (
    A,
    B,
    C,
    D,
    E,
    F,
    by_letter,
    call,
    forced,
    misere,
    normal,
    one,
    play,
    solo,
)

from referee.engine.games.troggu import points_range, settle_up
from referee.engine.games.troggu.values import deal_sizes


def test_9_1_normal_win_each_defender_pays_the_tappist_7_3():
    assert deal_sizes(4).tapp == 10 and deal_sizes(4).hand == 13
    assert points_range(7 * 4 + 10) == (38, 90)              # B holds 38 cards
    out = one(4, normal(B, 71, tricks=7, defenders=43))
    assert by_letter(out.scores) == {"A": -10, "B": 30, "C": -10, "D": -10}
    assert out.detail["points"] == (71, 43) and out.detail["multiplier"] == 1
    texts = [(line.player, line.text, line.points) for line in out.lines]
    assert (B, "B receives 30 (Tappist: 10 from each of 3 opponents)", 30) in texts
    assert (A, "A pays 10 (defender: 1 × 10)", -10) in texts


def test_9_2_losing_tappist_pays_every_opponent_7_3():
    out = one(5, normal(C, 52, took=True))
    assert by_letter(out.scores) == {"A": 10, "B": 10, "C": -40, "D": 10, "E": 10}
    assert out.detail["winner"] == "defenders"


def test_9_3a_threshold_edge_29_doubles_7_1_3():
    out = one(6, normal(E, 85, took=True))
    assert out.detail["multiplier"] == 2
    assert out.scores[E] == 100 and all(out.scores[s] == -20 for s in range(6) if s != E)


def test_9_3b_threshold_edge_30_is_single_7_1_3():
    out = one(6, normal(E, 84, took=True))
    assert out.detail["multiplier"] == 1 and out.scores[E] == 50


def test_9_3_visp_doubles_at_30_and_not_at_31_8():
    assert one(6, normal(E, 84, took=True), threshold="visp").scores[E] == 100
    assert one(6, normal(E, 83, took=True), threshold="visp").scores[E] == 50


def test_9_3_graechen_does_not_double_29_8():
    assert one(6, normal(E, 85, took=True), threshold="graechen").scores[E] == 50


def test_9_4_solo_doubles_the_unit_7_1_4():
    out = one(3, solo(A, 90, took=True, defenders=24))
    assert by_letter(out.scores) == {"A": 80, "B": -40, "C": -40}
    assert out.detail["multiplier"] == 2 and out.detail["unit"] == 40
    lost = one(3, solo(A, 50, took=True))
    assert by_letter(lost.scores) == {"A": -40, "B": 20, "C": 20}


def test_9_5_no_trick_trebles_7_1_3():
    out = one(4, normal(D, 114, tricks=13))
    assert out.detail["multiplier"] == 3 and out.scores[D] == 90
    assert one(4, solo(D, 114, tricks=13)).scores[D] == 180


def test_9_5_reverse_tappist_without_a_trick_has_only_the_discard_6_3_5():
    out = one(5, normal(B, 9, tricks=0, discard_points=9, defenders=105))
    assert by_letter(out.scores) == {"A": 30, "B": -120, "C": 30, "D": 30, "E": 30}


def test_9_6_57_57_nobody_pays_7_1_1():
    assert points_range(6 * 4 + 10) == (34, 86)
    out = one(4, normal(A, 57, tricks=6))
    assert out.scores == (0, 0, 0, 0)
    assert out.detail["winner"] is None
    assert any("nobody wins" in line.text and line.rule == "7.1.1" for line in out.lines)


def test_9_7_misere_tie_each_tied_player_pays_every_other_7_4_2():
    out = one(5, misere([30, 30, 20, 15, 10], tapp_points=9))
    assert by_letter(out.scores) == {"A": -30, "B": -30, "C": 20, "D": 20, "E": 20}


def test_9_7_misere_most_points_pays_each_other_player_7_4_1():
    out = one(4, misere([40, 25, 20, 15], tapp_points=14))
    assert by_letter(out.scores) == {"A": -30, "B": 10, "C": 10, "D": 10}


def test_9_7_misere_all_equal_nobody_pays_7_4_3():
    out = one(3, misere([34, 34, 34], tapp_points=12))
    assert out.scores == (0, 0, 0)


def test_9_8_seven_players_with_a_partner_7_3():
    hand = normal(A, 62, tricks=5, call=call("T20", D))
    assert points_range(7 * 5 + 6) == (41, 93)
    out = one(7, hand)
    assert by_letter(out.scores) == {
        "A": 30, "B": -10, "C": -10, "D": 20, "E": -10, "F": -10, "G": -10,
    }
    big = one(7, normal(A, 90, took=True, call=call("T20", D)))
    assert big.scores[A] == 60 and big.scores[D] == 40
    assert all(big.scores[s] == -20 for s in (B, C, E, F, 6))


def test_9_9_eight_players_tappist_alone_7_3():
    out = one(8, normal(A, 66, took=True, call=call("T20", "alone")))
    assert out.scores == (70, -10, -10, -10, -10, -10, -10, -10)
    lost = one(8, normal(A, 28, tricks=1, call=call("T20", "alone")))
    assert lost.scores == (-140, 20, 20, 20, 20, 20, 20, 20)


def test_9_10_forced_game_4_5_1():
    bids = ["pass"] * 7
    hand = forced(C, 45, took=True, forced_by="F", call=call("T20", F), bids=bids)
    out = one(7, hand)
    assert by_letter(out.scores) == {
        "A": 10, "B": 10, "C": -30, "D": 10, "E": 10, "F": -20, "G": 10,
    }
    assert any(line.rule == "4.5.1" and "must play" in line.text for line in out.lines)


def test_9_11_solo_with_eight_players_7_3():
    out = one(8, solo(B, 86, took=True))
    assert out.detail["multiplier"] == 2
    assert out.scores[B] == 280 and all(out.scores[s] == -40 for s in range(8) if s != B)


def test_9_12_ledger_and_settle_up_7_5():
    result = play(
        4,
        normal(B, 70, took=True),                                      # B wins, m = 1
        solo(C, 64, took=True),                                        # C wins a Solo, m = 1
        misere([40, 25, 20, 15], tapp_points=14),                      # A takes most
        normal(D, 50, took=True),                                      # D loses, m = 1
        normal(A, 20, took=True),                                      # A loses, m = 2
    )
    rows = [by_letter(hand.scores) for hand in result.hands]
    assert rows == [
        {"A": -10, "B": 30, "C": -10, "D": -10},
        {"A": -20, "B": -20, "C": 60, "D": -20},
        {"A": -30, "B": 10, "C": 10, "D": 10},
        {"A": 10, "B": 10, "C": 10, "D": -30},
        {"A": -60, "B": 20, "C": 20, "D": 20},
    ]
    assert result.standing.totals == (-110, 50, 90, -30)
    assert sum(result.standing.totals) == 0
    assert [hand.totals_after for hand in result.hands][-1] == (-110, 50, 90, -30)
    assert settle_up(result.standing.totals) == [(A, C, 90), (D, B, 30), (A, B, 20)]
    assert result.standing.phase.endswith(
        "settle-up: A pays C 90 Rappen; D pays B 30 Rappen; A pays B 20 Rappen"
    )
    assert [hand.dealer for hand in result.hands] == [0, 1, 2, 3, 0]
