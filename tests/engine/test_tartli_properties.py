"""Property tests (Hypothesis): hands dealt and played by the rules with random legal choices
(tartli_helpers.simulate_hand) must be accepted and scored as the rules say; matches of such
hands fold without error; junk never makes the engine raise anything but RuleViolation."""

from __future__ import annotations

import contextlib
import copy
import random
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from tartli_helpers import (
    NAMES,
    MatchModel,
    SimHand,
    points,
    score,
    simulate_hand,
)
from tartli_helpers import settings as match_settings

from referee.engine.errors import RuleViolation
from referee.engine.games import get
from referee.engine.games.tartli.facts import hand_to_json, parse_hand
from referee.engine.games.tartli.hand import score_hand
from referee.engine.games.tartli.match import MatchFold, score_match
from referee.engine.games.tartli.values import possible_pile

FAST = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

seeds = st.integers(min_value=0, max_value=2**32 - 1)
dealers = st.sampled_from([0, 1])


def _sim(seed: int, dealer: int, **kw: Any) -> SimHand:
    return simulate_hand(random.Random(seed), dealer, **kw)


# ---------------------------------------------------------------------------------------------
# Played-out hands


@FAST
@given(seed=seeds, dealer=dealers)
def test_played_out_hand_trick_points_sum_to_161_and_the_engine_agrees(seed, dealer):
    sim = _sim(seed, dealer)
    # the simulation itself: 32 cards played, piles 151, trick points 161 (3, 6.2)
    assert len(sim.cards_played) == 16
    assert sum(points(c, sim.trumps) for pair in sim.cards_played for c in pair) == 151
    assert sum(sim.piles) == 151
    assert sum(sim.trick_points) == 161
    if sim.stichmatsch is not None:
        assert sorted(sim.trick_points) == [0, 161]
    else:
        assert sim.trick_points[sim.last] == sim.piles[sim.last] + 10
    for p in (0, 1):
        assert possible_pile(sim.piles[p], sim.tricks_won[p])
    # the engine accepts the facts and scores them as the rules say
    result = score(sim.facts, dealer)
    assert sum(result.tricks) == 161
    assert result.tricks == sim.trick_points
    assert result.melds == sim.melds
    assert result.bela == sim.bela
    assert result.scores == sim.scores
    assert sum(result.scores) == 161 + sum(sim.melds) + sum(sim.bela)


@settings(max_examples=15, deadline=None)
@given(seed=seeds, dealer=dealers)
def test_stichmatsch_hands_score_161_and_0(seed, dealer):
    """A sweep of tricks 8–16 is rare in random play: deal again until one happens."""
    rng = random.Random(seed)
    for _ in range(600):
        sim = simulate_hand(rng, dealer)
        if sim.stichmatsch is not None:
            break
    assume(sim.stichmatsch is not None)
    result = score(sim.facts, dealer)
    assert result.tricks[sim.stichmatsch] == 161
    assert result.tricks[1 - sim.stichmatsch] == 0
    assert result.scores == sim.scores


@FAST
@given(seed=seeds, dealer=dealers)
def test_played_out_hand_facts_round_trip_through_the_canonical_json(seed, dealer):
    facts = parse_hand(_sim(seed, dealer).facts)
    assert parse_hand(hand_to_json(facts)) == facts
    assert get("tartli").canonical_hand(hand_to_json(facts)) == hand_to_json(facts)


@FAST
@given(seed=seeds, dealer=dealers)
def test_claims_at_random_moments_are_accepted_and_counted(seed, dealer):
    sim = _sim(seed, dealer, claim_chance=1.0)
    assert sim.claim is not None
    result = score(sim.facts, dealer)
    assert result.tricks == sim.piles            # no last trick, no stichmatsch (7.3.2)
    assert sum(result.tricks) <= 151
    assert result.scores == sim.scores
    fold = MatchFold(match_settings(first_dealer=dealer), start_totals=(300, 200))
    fold.add(1, sim.facts)
    out = fold.hands[0]
    model = MatchModel(5, totals=[300, 200])
    award = model.apply(sim)
    assert out.award is not None and (out.award.winner, out.award.amount) == award
    if not out.detail["claim_right"]:
        assert out.award.amount == 1                     # 6.3.7: never 2 for a wrong claim
    assert fold.result().standing.totals == (0, 0)


# ---------------------------------------------------------------------------------------------
# Matches


@st.composite
def matches(draw: st.DrawFn) -> tuple[dict[str, Any], list[dict[str, Any]], list[Any]]:
    """A match of valid hands: simulated hands, deciders when a tie calls for one."""
    first = draw(dealers)
    target = draw(st.sampled_from([5, 10]))
    count = draw(st.integers(min_value=1, max_value=14))
    rng = random.Random(draw(seeds))
    claim_chance = draw(st.sampled_from([0.0, 0.2, 0.5]))
    model = MatchModel(target)
    hands: list[dict[str, Any]] = []
    expected: list[Any] = []
    for number in range(1, count + 1):
        if model.over:
            break
        dealer = (first + number - 1) % 2
        if model.decider:
            first_scorer = rng.randint(0, 1)
            hands.append({"indicator": None, "tricks": [], "end": {
                "kind": "decider", "first": first_scorer}})
            expected.append((model.apply(None, first_scorer), tuple(model.totals)))
            continue
        sim = simulate_hand(rng, dealer, claim_chance=claim_chance)
        hands.append(sim.facts)
        expected.append((model.apply(sim), tuple(model.totals)))
    return match_settings(first, target), hands, [expected, model]


@SLOW
@given(matches())
def test_a_match_of_valid_hands_folds_as_rules_7_say(match):
    settings_, hands, (expected, model) = match
    result = score_match(settings_, hands)
    assert len(result.hands) == len(hands)
    for number, (out, (award, totals)) in enumerate(zip(result.hands, expected), 1):
        assert out.number == number
        assert out.dealer == (settings_["first_dealer"] + number - 1) % 2
        got = None if out.award is None else (out.award.winner, out.award.amount)
        assert got == award
        if award is None:
            assert out.totals_after == totals
        assert out.reset == (award is not None)
        assert all(t >= 0 for t in out.totals_after)
        assert all(s >= 0 for s in out.scores)
        # 6.3.7, asserted where derived: no maccs against 251 or more, never 2 buli for a
        # wrong claim, no buli unless someone reached 501 or claimed
        claimed = "claim_right" in out.detail
        if got is not None and got[1] == 2:
            assert out.totals_after[1 - got[0]] <= 250
            assert not claimed or out.detail["claim_right"]
        if got is not None and not claimed:
            assert max(out.totals_after) >= 501
        if got is None:
            assert not claimed and max(out.totals_after) < 501 or len(set(out.totals_after)) == 1
    st_ = result.standing
    assert st_.totals == tuple(model.totals)
    assert all(t >= 0 for t in st_.totals)
    assert st_.victory == tuple(model.buli)
    assert st_.over == model.over
    assert st_.dealer == (settings_["first_dealer"] + len(hands)) % 2
    assert sum(st_.victory) == sum(a[1] for a, _ in expected if a)


@SLOW
@given(st.lists(seeds, min_size=1, max_size=10), st.integers(0, 16))
def test_the_last_hand_may_be_in_progress(hand_seeds, keep):
    """Any valid match prefix plus a hand cut off mid-play scores without error."""
    hands = []
    for i, seed in enumerate(hand_seeds):
        sim = _sim(seed, (1 + i) % 2)
        hands.append(sim.facts)
    cut = copy.deepcopy(hands[-1])
    cut["tricks"] = cut["tricks"][:keep]
    cut["end"] = None
    hands[-1] = cut
    try:
        result = score_match(match_settings(1), hands)
    except RuleViolation as err:
        # only a hand after the end of the match, or a béla/exchange recorded for a later
        # trick than the cut, may be refused
        assert err.code in {"match.over", "decider.due"}, err
        return
    assert result.draft is not None and not result.draft.complete
    assert all(t >= 0 for t in result.standing.totals)


# ---------------------------------------------------------------------------------------------
# Junk never crashes the engine

json_scalars = st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | st.text(
    max_size=12
)
json_like = st.recursive(
    json_scalars,
    lambda children: st.lists(children, max_size=5)
    | st.dictionaries(st.text(max_size=10), children, max_size=5),
    max_leaves=25,
)
hand_like = st.fixed_dictionaries(
    {},
    optional={
        "indicator": json_like | st.sampled_from(["8h", "7a", "Ob", "9l", "10h"]),
        "exchange": json_like | st.integers(0, 9),
        "tricks": json_like | st.lists(
            st.fixed_dictionaries({}, optional={
                "winner": json_like | st.sampled_from([0, 1, None]),
                "melds": json_like | st.lists(st.lists(st.sampled_from(
                    ["set:A", "set:O", "seq:h/A/3", "seq:a/O/5", "set:?", "seq:?/4", "bela"]
                ), max_size=3), max_size=3),
            }),
            max_size=17,
        ),
        "bela": json_like | st.fixed_dictionaries({"player": json_like, "trick": json_like}),
        "end": json_like | st.fixed_dictionaries({
            "kind": st.sampled_from(["played", "claim", "decider", "other"]),
            "piles": json_like | st.lists(st.integers(-5, 160), max_size=3),
            "last": json_like, "stichmatsch": json_like, "claimant": json_like,
            "completed": json_like | st.integers(-1, 17), "step7": json_like,
            "first": json_like,
        }),
    },
)


def _only_rule_violations(hands: list[Any], first_dealer: int = 1) -> None:
    try:
        score_match(match_settings(first_dealer), hands)
    except RuleViolation as err:
        assert isinstance(err.code, str) and err.code
        assert isinstance(err.message, str) and err.message
        assert err.hand is not None and 1 <= err.hand <= len(hands)


@settings(max_examples=300, deadline=None)
@given(json_like)
def test_junk_json_as_a_hand_raises_only_rule_violation(junk):
    _only_rule_violations([junk])


@settings(max_examples=300, deadline=None)
@given(hand_like)
def test_hand_shaped_junk_raises_only_rule_violation(junk):
    _only_rule_violations([junk])


def _paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(value, dict):
        for key, child in value.items():
            out.extend(_paths(child, prefix + (key,)))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            out.extend(_paths(child, prefix + (index,)))
    return out


@settings(max_examples=200, deadline=None)
@given(seed=seeds, dealer=dealers, data=st.data())
def test_mutated_valid_hands_raise_only_rule_violation(seed, dealer, data):
    sim = _sim(seed, dealer, claim_chance=0.3)
    raw = copy.deepcopy(sim.facts)
    for _ in range(data.draw(st.integers(1, 3))):
        paths = _paths(raw)
        path = data.draw(st.sampled_from(paths[1:]))
        parent = raw
        for step in path[:-1]:
            parent = parent[step]
        action = data.draw(st.sampled_from(["replace", "delete", "duplicate"]))
        if action == "replace":
            parent[path[-1]] = data.draw(json_like | st.integers(-3, 20) | st.sampled_from(
                ["set:9", "seq:h/K/4", "set:?", "Kh", "7h", "played", "claim", "decider"]
            ))
        elif action == "delete":
            if isinstance(parent, dict):
                del parent[path[-1]]
            else:
                parent.pop(path[-1])
        elif isinstance(parent, list):
            parent.insert(path[-1], copy.deepcopy(parent[path[-1]]))
    _only_rule_violations([raw], first_dealer=dealer)
    with contextlib.suppress(RuleViolation):
        score_hand(parse_hand(raw), dealer, NAMES)


@settings(max_examples=100, deadline=None)
@given(json_like)
def test_junk_settings_or_game_names_raise_only_rule_violation(junk):
    game = get("tartli")
    for call in (lambda: game.settings(junk if isinstance(junk, dict) else {"players": junk}),
                 lambda: get(junk),
                 lambda: game.canonical_hand(junk)):
        with contextlib.suppress(RuleViolation):
            call()
