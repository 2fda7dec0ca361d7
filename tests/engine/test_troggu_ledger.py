"""The settle-up (troggu.md 7.5; referee.engine.ledger): the payments of rule 7.5.3 that bring
every balance to 0, and the true minimum (``fewest_transfers``) held against a brute force."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine.errors import RuleViolation
from referee.engine.games.troggu import settle_text, settle_up
from referee.engine.ledger import _greedy, fewest_transfers, zero_sum_groups


def apply(balances, transfers):
    left = list(balances)
    for payer, payee, amount in transfers:
        assert amount > 0 and payer != payee
        assert left[payer] < 0 < left[payee]            # debtors pay, creditors receive
        left[payer] += amount
        left[payee] -= amount
    return left


def brute_minimum(balances) -> int:
    """Players with a balance − the most groups adding up to 0, by trying every partition."""
    seats = [s for s, b in enumerate(balances) if b]

    def most(rest: tuple[int, ...]) -> int:
        if not rest:
            return 0
        first, others = rest[0], rest[1:]
        best = -1
        for size in range(len(others) + 1):
            for chosen in itertools.combinations(others, size):
                if balances[first] + sum(balances[s] for s in chosen) == 0:
                    left = tuple(s for s in others if s not in chosen)
                    best = max(best, 1 + most(left))
        return best

    return len(seats) - most(tuple(seats))


def test_9_12_settle_up_follows_7_5_3():
    balances = (-110, 50, 90, -30)
    assert settle_up(balances) == [(0, 2, 90), (3, 1, 30), (0, 1, 20)]
    names = ("A", "B", "C", "D")
    assert settle_text(balances, names) == (
        "A pays C 90 Rappen; D pays B 30 Rappen; A pays B 20 Rappen"
    )


def test_nobody_owes_anything():
    assert settle_up([0, 0, 0]) == []
    assert settle_text([0, 0, 0], ("A", "B", "C")) == "nobody owes anything"


@pytest.mark.parametrize(
    ("balances", "fewest"),
    [
        pytest.param([20, 50, -50, 20, 20, -60], 4, id="a-pair-and-a-four"),
        pytest.param([60, 30, -50, -40, 10, -10], 4, id="two-ways-to-split"),
        pytest.param([-30, 10, 10, 10], 3, id="one-payer"),
        pytest.param([-10, 10, -20, 20, -30, 30, -40, 40], 4, id="four-pairs"),
    ],
)
def test_settle_up_is_the_rule_of_7_5_3_even_when_fewer_payments_exist(balances, fewest):
    transfers = settle_up(balances)
    assert apply(balances, transfers) == [0] * len(balances)
    assert transfers == _greedy(balances)
    assert fewest == brute_minimum(balances) == fewest_transfers(balances)
    assert len(transfers) >= fewest


def test_a_case_where_7_5_3_needs_one_payment_more_than_the_minimum():
    balances = [20, 50, -50, 20, 20, -60]
    assert settle_up(balances) == [(5, 1, 50), (2, 0, 20), (2, 3, 20), (2, 4, 10), (5, 4, 10)]
    assert fewest_transfers(balances) == 4
    assert zero_sum_groups(balances) == [[0, 3, 4, 5], [1, 2]]


@pytest.mark.parametrize(
    ("balances", "code"),
    [([10, -5], "settle.sum"), ([10, "x", -10], "settle.number"), ([True, -1], "settle.number"),
     ([1] * 17 + [-17], "settle.players")],
)
def test_settle_up_refuses_what_cannot_be_settled(balances, code):
    with pytest.raises(RuleViolation) as err:
        settle_up(balances)
    assert err.value.code == code


balances_st = st.lists(
    st.integers(-30, 30).map(lambda x: 10 * x), min_size=1, max_size=7
).map(lambda xs: [*xs, -sum(xs)])


@settings(max_examples=400, deadline=None)
@given(balances=balances_st)
def test_settle_up_reproduces_the_balances_by_the_rule_of_7_5_3(balances):
    transfers = settle_up(balances)
    assert apply(balances, transfers) == [0] * len(balances)
    with_balance = sum(1 for b in balances if b)
    assert len(transfers) <= max(with_balance - 1, 0) <= len(balances) - 1   # 7.5.3's promise
    assert transfers == _greedy(balances)
    assert fewest_transfers(balances) == brute_minimum(balances) <= len(transfers)


@settings(max_examples=100, deadline=None)
@given(small=st.lists(st.integers(-3, 3), min_size=1, max_size=7))
def test_settle_up_with_many_equal_amounts(small):
    balances = [*small, -sum(small)]
    transfers = settle_up(balances)
    assert apply(balances, transfers) == [0] * len(balances)
    assert fewest_transfers(balances) == brute_minimum(balances) <= len(transfers)
