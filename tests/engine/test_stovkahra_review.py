"""A second reading of shared/rules/stovkahra.md: cases of rules 2.5, 4.5, 6.3, 7 and 8 that the
other Stovkahra tests do not pin down (other dealers, boundaries, combined checks). Each id
names the rule it checks. Seats 0–3 = N, E, S, W; teams 0 = NS, 1 = EW."""

from __future__ import annotations

import pytest
from stovkahra_helpers import (
    EW,
    NS,
    PLAIN,
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

# (combinations, end, dealer, refusal code or None)
CASES = [
    # 4.5: eight declared cards are allowed; one more is not
    ([combo(N, "10", 4), combo(N, "7", 4)], PLAIN, W, None, "4.5-four-tens-and-four-sevens"),
    ([combo(N, "A", 3), combo(N, "K", 3), combo(N, "Q", 3)], PLAIN, W,
     "combination.too-many-cards", "4.5-nine-cards"),
    ([combo(N, "A", 4), combo(E, "A", 3)], PLAIN, W, "combination.more-than-four",
     "4.5-nobody-after-four-aces"),
    # 6.3.3: the winner of trick 8 has at least one trick
    ([], played((72, 0), EW, (8, 0)), W, "bonus.no-trick", "6.3.3-last-trick-needs-a-trick"),
    ([], played((72, 0), EW), W, None, "6.3.3-last-trick-of-nothing-without-counts"),
    # 6.3.4: the 26 goes to the team that won trick 8, with or without trick counts
    ([], played((40, 32), NS, None, sevens((8, EW))), W, "sevens.last",
     "6.3.4-26-needs-the-last-trick-team"),
    # 6.3.4: no more seven-won tricks than tricks, after a dost too
    ([], dost(N, 2, (0, 0), (1, 1), seven=sevens((1, NS), (2, NS))), W, "sevens.tricks",
     "6.3.4-dost-two-sevens-one-trick"),
    ([], dost(N, 2, (0, 0), None, seven=sevens((1, NS), (2, NS))), W, None,
     "6.3.4-dost-two-sevens-both-tricks"),
    ([combo(E, "A", 4)], dost(E, 0, seven=sevens((1, EW))), W, "sevens.after-dost",
     "6.3.4-no-seven-before-trick-1"),
    # 6.3.5: a seven on the last trick counts against the combination too
    ([combo(N, "7", 3)], played((40, 32), EW, None, sevens((3, EW), (8, EW))), W,
     "sevens.combination", "6.3.5-three-sevens-other-team-two-with-the-last"),
    ([combo(N, "7", 3)], played((40, 32), EW, None, sevens((8, EW))), W, None,
     "6.3.5-three-sevens-other-team-one-last"),
    ([combo(N, "7", 4)], played((40, 32), EW, None, sevens((8, EW))), W,
     "sevens.combination", "6.3.5-four-sevens-other-team-last"),
    ([combo(N, "7", 3)], dost(E, 2, (5, 10), (1, 1), seven=sevens((1, EW), (2, EW))), W,
     "sevens.combination", "6.3.5-applies-after-a-dost"),
    # 6.3.7 / 7.2.1: dost timing with other dealers (declaring starts at the dealer's left)
    ([combo(W, "A", 3), combo(N, "K", 3)], dost(N, 0), N, None,
     "7.2.1-dealer-N-declares-last-and-calls"),
    ([combo(E, "A", 3), combo(N, "K", 3)], dost(E, 0), N, "dost.declared-after",
     "7.2.1-dealer-N-E-first-then-N-declared"),
    ([combo(S, "A", 3), combo(N, "K", 3)], dost(S, 0), E, "dost.declared-after",
     "7.2.1-dealer-E-S-first-then-N-declared"),
    ([combo(N, "A", 3)], dost(N, 0), N, None, "7.2.1-the-dealer-declares-last"),
    ([], dost(N, 7, (60, 0), (7, 0)), W, None, "7.2.1-dost-after-trick-7"),
    ([], dost(N, 8, (72, 0), (8, 0)), W, "dost.after-8", "6.3.7-no-dost-after-trick-8"),
    ([], dost(E, 1, (0, 20), (0, 1), trick_winner=W), W, "dost.not-winner",
     "7.2.1-partner-of-the-winner-of-trick-1"),
    # 6.3.2: a dost after t tricks — the row of t for both teams together
    ([], dost(N, 1, (1, 0)), W, "points.impossible", "6.3.2-dost-1-point-in-1-trick"),
    ([], dost(N, 2, (24, 21)), W, "points.impossible", "6.3.2-dost-45-in-2-tricks"),
    ([], dost(N, 2, (24, 20)), W, None, "6.3.2-dost-44-in-2-tricks"),
    ([], dost(N, 2, (0, 3)), W, None, "6.3.3-dost-the-others-may-hold-trick-1"),
    ([], dost(N, 1, (0, 3)), W, "points.no-trick", "6.3.3-dost-after-1-the-others-have-none"),
    ([], dost(N, 3, (0, 3)), W, None, "6.3.2-dost-3-in-3-tricks"),
]


@pytest.mark.parametrize(("combos", "end", "dealer", "code"), [c[:4] for c in CASES],
                         ids=[c[4] for c in CASES])
def test_review_checks(combos, end, dealer, code):
    raw = deal(*combos, end=end)
    if code is None:
        score(raw, dealer)
        return
    with pytest.raises(RuleViolation) as err:
        score(raw, dealer)
    assert err.value.code == code, err.value
    assert err.value.message


def test_7_2_4_right_dost_though_the_opponents_reached_100_earlier_without_calling():
    # NS 95, EW 95. W deals: E declares three aces (EW count 125) and does not call; N wins
    # trick 1 with 5 card points (NS count 100) and calls: right, EW count 125 ≥ 50 → 1.
    f = fold(start=(95, 95))
    f.add(1, deal(combo(E, "A", 3), end=dost(N, 1, (5, 0), (1, 0), trick_winner=N)))
    out = f.hands[0]
    assert out.award is not None
    assert (out.award.winner, out.award.amount) == (NS, 1)
    assert out.detail["dost_right"] is True


def test_7_2_5_wrong_dost_gives_2_even_when_the_opponents_count_100():
    f = fold(start=(60, 95))
    f.add(1, deal(combo(E, "A", 3), end=dost(N, 1, (5, 0), (1, 0))))
    out = f.hands[0]
    assert out.award is not None
    assert (out.award.winner, out.award.amount) == (EW, 2)
    assert out.detail["dost_right"] is False


def test_7_1_2_two_ties_in_a_row_then_the_higher_wins_1_and_the_deal_keeps_passing_left():
    f = fold(start=(92, 90))
    f.add(1, deal(end=played((38, 34), EW)))            # 130–130
    f.add(2, deal(end=played((36, 36), NS)))            # NS 130 + 36 + 6, EW 130 + 36
    assert f.hands[1].totals_after == (172, 166)
    assert f.hands[1].award is not None
    assert (f.hands[1].award.winner, f.hands[1].award.amount) == (NS, 1)
    f = fold(start=(92, 90))
    f.add(1, deal(end=played((38, 34), EW)))            # 130–130
    f.add(2, deal(end=played((33, 39), NS)))            # 169–169
    assert f.hands[1].award is None and f.hands[1].detail["tie"] is True
    f.add(3, deal(end=played((40, 32), EW)))            # 209–207
    assert [h.dealer for h in f.hands] == [W, N, E]
    assert f.hands[2].award is not None
    assert (f.hands[2].award.winner, f.hands[2].award.amount) == (NS, 1)
    assert f.result().standing.totals == (0, 0) and f.result().standing.dealer == S


def test_7_1_3_exactly_100_wins_and_a_loser_at_exactly_50_gives_1():
    f = fold(start=(60, 12))
    f.add(1, deal(end=played((40, 32), EW)))            # NS 100, EW 50
    out = f.hands[0]
    assert out.totals_after == (100, 50)
    assert out.award is not None and (out.award.winner, out.award.amount) == (NS, 1)


def test_8_continue_to_20_the_first_to_10_keeps_that_even_when_taken_below_10():
    wrong_by_ns = deal(end=dost(N, 2, (8, 11), (1, 1), trick_winner=N))    # EW win 2
    wrong_by_ew = deal(end=dost(E, 1, (0, 3), (0, 1), trick_winner=E))     # NS win 2
    f = fold(start=(90, 44), piles=(8, 8), continue_to_20=True)
    f.add(1, {**wrong_by_ns, "sticks": "add"})                              # EW 10 first
    assert f.first_to_target == EW and not f.over
    f.add(2, {**wrong_by_ew, "sticks": "take"})                             # EW back to 8
    assert f.result().standing.victory == (8, 8)
    f.piles = [19, 18]
    f.add(3, {**wrong_by_ns, "sticks": "add"})                              # EW 20 first
    standing = f.result().standing
    assert standing.over and standing.winner == EW
    assert standing.victory == (19, 20)


def test_8_without_continue_to_20_the_series_ends_at_10():
    f = fold(start=(0, 0), piles=(9, 0))
    f.add(1, deal(end=dost(E, 1, (0, 3), (0, 1)), sticks="add"))             # NS win 2
    standing = f.result().standing
    assert standing.over and standing.winner == NS and standing.victory == (11, 0)
