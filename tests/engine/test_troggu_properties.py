"""Hypothesis properties of the Troggu engine, held against real hands dealt, bid, exchanged and
shared out by the rules (troggu_helpers.simulate_hand) and against an independent model of the
payments (7.1–7.4)."""

from __future__ import annotations

import contextlib
import random
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from troggu_helpers import LETTERS, SIZES, model_side, simulate_hand
from troggu_helpers import settings as make_settings

from referee.engine.errors import RuleViolation
from referee.engine.games.troggu import GAME
from referee.engine.games.troggu.facts import hand_to_json, parse_hand
from referee.engine.games.troggu.values import THRESHOLDS

seeds = st.integers(0, 2**32 - 1)
players = st.integers(3, 8)
FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(seed=seeds, n=players, stake=st.sampled_from([5, 10, 20]),
       preset=st.sampled_from(sorted(THRESHOLDS)))
def test_a_real_hand_is_accepted_and_paid_as_the_rules_say_and_sums_to_zero(
    seed: int, n: int, stake: int, preset: str,
) -> None:
    rng = random.Random(seed)
    dealer = rng.randrange(n)
    sim = simulate_hand(rng, n, dealer, stake, THRESHOLDS[preset][1])
    event(f"{n} players, {sim.game}")
    if sim.facts["end"]["fool_kept"] is not None:
        event("a withheld fool kept by a side without tricks")
    s = make_settings(n, first_dealer=dealer, stake=stake, threshold=preset)
    result = GAME.score(s, [sim.facts])
    (out,) = result.hands
    assert list(out.scores) == sim.payments
    assert sum(out.scores) == 0
    assert result.standing.totals == out.scores and sum(result.standing.totals) == 0
    if sim.side_points is not None:
        declared, defenders = out.detail["points"]
        assert declared == sim.side_points
        assert declared + defenders == 114
        assert defenders == sim.defender_points
    else:
        assert sum(sim.player_points) <= 114


@FAST
@given(seed=seeds, n=players, hands=st.integers(1, 12))
def test_an_evening_of_real_hands_keeps_balances_that_add_up_to_zero(
    seed: int, n: int, hands: int,
) -> None:
    rng = random.Random(seed)
    first = rng.randrange(n)
    sims = [simulate_hand(rng, n, (first + i) % n) for i in range(hands)]
    result = GAME.score(make_settings(n, first_dealer=first), [sim.facts for sim in sims])
    balances = [0] * n
    for out, sim in zip(result.hands, sims):
        assert list(out.scores) == sim.payments
        balances = [b + p for b, p in zip(balances, out.scores)]
        assert list(out.totals_after) == balances
    assert list(result.standing.totals) == balances and sum(balances) == 0
    assert result.standing.dealer == (first + hands) % n


@FAST
@given(
    n=players, declarer=st.integers(0, 7), partner=st.one_of(st.none(), st.integers(0, 7)),
    points=st.integers(0, 114), took=st.booleans(), solo=st.booleans(),
    stake=st.integers(1, 100), preset=st.sampled_from(sorted(THRESHOLDS)),
)
def test_the_payments_always_sum_to_zero_and_follow_the_winner(
    n: int, declarer: int, partner: int | None, points: int, took: bool, solo: bool,
    stake: int, preset: str,
) -> None:
    """Every point total, with every player count, alone or with a partner: the engine either
    refuses the facts or pays exactly the model's amounts, which add up to 0."""
    declarer %= n
    if partner is not None:
        partner %= n
    if n < 7 or solo or partner == declarer:
        partner = None
    hand: dict[str, Any] = {
        "game": "solo" if solo else "normal", "declarer": declarer,
        "end": {"points": points, "loser_took_trick": took},
    }
    if n >= 7 and not solo:
        hand["call"] = {"trump": "T20", "partner": "alone" if partner is None else partner}
    s = make_settings(n, stake=stake, threshold=preset)
    try:
        (out,) = GAME.score(s, [hand]).hands
    except RuleViolation as error:
        assert error.code in {"points.no-trick", "points.impossible", "tricks.no-loser"}
        return
    assert sum(out.scores) == 0
    expected = model_side(n, declarer, partner, points, took, solo, stake, THRESHOLDS[preset][1])
    assert list(out.scores) == expected
    if points >= 58:
        assert out.scores[declarer] > 0
    elif points <= 56:
        assert out.scores[declarer] < 0


@FAST
@given(n=players, points=st.lists(st.integers(0, 114), min_size=8, max_size=8),
       least=st.booleans(), stake=st.integers(1, 50))
def test_misere_payments_sum_to_zero(n: int, points: list[int], least: bool, stake: int) -> None:
    hand = {"game": "misere", "end": {"points": points[:n]}}
    s = make_settings(n, stake=stake, misere_least_wins=least)
    try:
        (out,) = GAME.score(s, [hand]).hands
    except RuleViolation as error:
        assert error.code == "misere.sum"
        return
    assert sum(out.scores) == 0
    mark = min(points[:n]) if least else max(points[:n])
    for seat in range(n):
        if points[seat] == mark and out.scores[seat]:
            assert (out.scores[seat] > 0) == least


@FAST
@given(seed=seeds, n=players)
def test_real_facts_round_trip_through_the_canonical_form(seed: int, n: int) -> None:
    sim = simulate_hand(random.Random(seed), n, 0)
    canonical = GAME.canonical_hand(sim.facts)
    assert GAME.canonical_hand(canonical) == canonical
    assert hand_to_json(parse_hand(canonical)) == canonical
    s = make_settings(n)
    assert GAME.score(s, [canonical]).hands[0].scores == GAME.score(s, [sim.facts]).hands[0].scores


# ---------------------------------------------------------------------------------------------
# Junk: only RuleViolation, never another exception

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 130) | st.floats(allow_nan=True)
    | st.sampled_from(["normal", "solo", "forced", "misere", "thrown-in", "pass", "alone", "F",
                       "T1", "T20", "T21", "Kc", "5b", "", "x"]),
    lambda inner: st.lists(inner, max_size=10) | st.dictionaries(
        st.sampled_from(["points", "tricks", "partner", "trump", "defenders",
                         "loser_took_trick", "fool_kept", "x"]), inner, max_size=4),
    max_leaves=20,
)
KEYS = ["dealer", "bids", "game", "declarer", "forced_by", "call", "discard", "discard_points",
        "all_kings_held", "tapp", "tapp_points", "end", "extra"]


@FAST
@given(n=players, raw=st.dictionaries(st.sampled_from(KEYS), json_values, max_size=8))
def test_junk_facts_raise_only_rule_violation(n: int, raw: dict[str, Any]) -> None:
    with contextlib.suppress(RuleViolation):
        GAME.canonical_hand(raw)
    with contextlib.suppress(RuleViolation):
        GAME.score(make_settings(n), [raw])


@FAST
@given(seed=seeds, n=players, key=st.sampled_from(KEYS), junk=json_values,
       inner=st.sampled_from(["points", "tricks", "defenders", "loser_took_trick", "fool_kept",
                              "partner", "trump"]))
def test_a_real_hand_with_one_fact_spoiled_raises_only_rule_violation(
    seed: int, n: int, key: str, junk: Any, inner: str,
) -> None:
    sim = simulate_hand(random.Random(seed), n, 0)
    facts = dict(sim.facts)
    if key in ("end", "call") and isinstance(facts.get(key), dict):
        facts[key] = {**facts[key], inner: junk}
    else:
        facts[key] = junk
    try:
        result = GAME.score(make_settings(n), [facts])
    except RuleViolation as error:
        assert error.message and error.hand == 1
        event(error.code)
        return
    for out in result.hands:
        assert sum(out.scores) == 0


@FAST
@given(raw=st.dictionaries(
    st.sampled_from(["players", "first_dealer", "stake", "threshold", "no_misere",
                     "kings_any_number", "seven_fives", "graechen_deal", "misere_least_wins"]),
    json_values | st.lists(st.sampled_from(list(LETTERS) + ["", "a", "A"]), max_size=10),
    max_size=9,
))
def test_junk_settings_raise_only_rule_violation(raw: dict[str, Any]) -> None:
    try:
        s = GAME.settings(raw)
    except RuleViolation:
        return
    assert 3 <= len(s["players"]) <= 8
    assert GAME.settings(s) == s
    assert GAME.rules_in_force(s)
    assert SIZES[len(s["players"])]
