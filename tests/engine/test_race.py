"""The race shared by Tartli-like games (referee.engine.race): first to a target, a bigger award
when the loser is far behind, a call-out that is right or wrong (Tartli rules 7.1–7.3)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine.games.tartli.match import RACE, UNIT
from referee.engine.race import RaceRules, award_reason, finish, game_award, judge_call
from referee.engine.words import N

OTHER = RaceRules(target=1000, award=2, big_award=5, far_behind_at_most=400, wrong_call_award=3)


def test_tartli_race_constants_are_the_rules():
    assert (RACE.target, RACE.award, RACE.big_award) == (501, 1, 2)
    assert RACE.far_behind_at_most == 250
    assert RACE.wrong_call_award == 1


@pytest.mark.parametrize(
    ("rules", "loser", "award"),
    [
        pytest.param(RACE, 0, 2, id="tartli-0-maccs"),
        pytest.param(RACE, 250, 2, id="tartli-250-maccs"),
        pytest.param(RACE, 251, 1, id="tartli-251-one"),
        pytest.param(RACE, 500, 1, id="tartli-500-one"),
        pytest.param(RACE, 700, 1, id="tartli-over-too-one"),
        pytest.param(OTHER, 400, 5, id="other-400-big"),
        pytest.param(OTHER, 401, 2, id="other-401-normal"),
    ],
)
def test_game_award_by_the_losers_total(rules, loser, award):
    assert game_award(rules, loser) == award
    reason = award_reason(rules, loser, UNIT)
    assert str(loser) in reason and f"{award} buli" in reason


@pytest.mark.parametrize(
    ("claimant", "counts", "winner", "award", "right"),
    [
        pytest.param(0, (501, 251), 0, 1, True, id="right-exactly-501"),
        pytest.param(0, (501, 250), 0, 2, True, id="right-with-maccs"),
        pytest.param(1, (0, 535), 1, 2, True, id="right-by-b"),
        pytest.param(0, (500, 0), 1, 1, False, id="wrong-at-500-one-only"),
        pytest.param(1, (480, 100), 0, 1, False, id="wrong-by-b"),
        pytest.param(0, (510, 555), 0, 1, True, id="both-over-claimant-wins"),
        pytest.param(1, (700, 501), 1, 1, True, id="both-over-claimant-b-with-fewer"),
    ],
)
def test_judge_call_tartli_7_3(claimant, counts, winner, award, right):
    verdict = judge_call(RACE, claimant, counts, UNIT)
    assert (verdict.winner, verdict.award, verdict.right) == (winner, award, right)
    assert ("right" if right else "wrong") in verdict.reason


@settings(max_examples=200, deadline=None)
@given(
    claimant=st.sampled_from([0, 1]),
    a=st.integers(0, 2000),
    b=st.integers(0, 2000),
    rules=st.sampled_from([RACE, OTHER]),
)
def test_judge_call_properties(claimant, a, b, rules):
    counts = (a, b)
    verdict = judge_call(rules, claimant, counts,
                         lambda n: N("%(num)s point", "%(num)s points", n, num=n))
    if counts[claimant] >= rules.target:
        assert verdict.right and verdict.winner == claimant
        assert verdict.award == game_award(rules, counts[1 - claimant])
    else:
        assert not verdict.right and verdict.winner == 1 - claimant
        assert verdict.award == rules.wrong_call_award


@pytest.mark.parametrize(("totals", "reached", "winner", "tie"), [
    ((300, 499), (), None, False),
    ((535, 380), (0,), 0, False),
    ((380, 500), (1,), 1, False),
    ((550, 545), (0, 1), 0, False),
    ((590, 610), (0, 1), 1, False),
    ((540, 540), (0, 1), None, True),
], ids=["nobody", "one", "exactly-the-target", "both-higher-first", "both-higher-second",
        "both-equal"])
def test_finish_first_to_the_target_then_the_higher_total_then_another_hand(
    totals, reached, winner, tie
):
    done = finish(totals, 500)
    assert (done.reached, done.winner, done.tie) == (reached, winner, tie)
