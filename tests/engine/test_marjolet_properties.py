"""Hypothesis properties of the Marjolet engine, held against real deals dealt and played by the
rules (marjolet_helpers.simulate_hand) and against an independent model of the game's end."""

from __future__ import annotations

import contextlib
import copy
import random
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from marjolet_helpers import (
    NAMES,
    SWITCHES,
    GameModel,
    model_legal,
    model_second_wins,
    random_switches,
    simulate_hand,
    with_fewer_facts,
)

from referee.engine.cards import FRENCH
from referee.engine.errors import RuleViolation
from referee.engine.games.marjolet import GAME
from referee.engine.games.marjolet.facts import hand_to_json, parse_hand
from referee.engine.games.marjolet.hand import score_hand
from referee.engine.games.marjolet.match import MatchFold, rules_of
from referee.engine.games.marjolet.play import legal_plays
from referee.engine.games.marjolet.values import base_total, sweep

seeds = st.integers(0, 2**32 - 1)
FAST = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def match_settings(switches: dict[str, bool], first_dealer: int = 1,
                   target: int = 500) -> dict[str, Any]:
    return GAME.settings({
        "players": list(NAMES), "first_dealer": first_dealer, "target": target,
        "rules": "custom", **switches,
    })


def engine_score(facts: dict[str, Any], dealer: int, switches: dict[str, bool]):
    return score_hand(parse_hand(facts), dealer, NAMES, rules_of(match_settings(switches)))


@FAST
@given(seed=seeds, dealer=st.integers(0, 1))
def test_the_aces_and_tens_of_a_real_deal_sum_to_80_and_it_scores_like_the_rules(
    seed: int, dealer: int
) -> None:
    rng = random.Random(seed)
    switches = random_switches(rng)
    sim = simulate_hand(rng, dealer, switches)
    assert sum(sim.brisques) == 80 and len(sim.won) == 16
    s = engine_score(sim.facts, dealer, switches)
    assert sum(s.brisques) == 80
    assert s.brisques == sim.brisques
    assert s.scores == sim.scores
    rules = rules_of(match_settings(switches))
    expected = base_total(rules, sim.turned_up_seven) + sum(s.melds) + (
        sweep(rules) if sim.sweeper is not None else 0
    )
    assert sum(s.scores) == expected                                    # 6.2 invariant
    event("cards recorded" if "cards" in sim.facts["tricks"][0] else "no cards")
    event("sweep" if sim.sweeper is not None else "no sweep")


@FAST
@given(seed=seeds, dealer=st.integers(0, 1))
def test_more_facts_never_change_the_score(seed: int, dealer: int) -> None:
    rng = random.Random(seed)
    switches = random_switches(rng)
    sim = simulate_hand(rng, dealer, switches, winners_known=1.0, cards_known=True)
    full = engine_score(sim.facts, dealer, switches)
    fewer = engine_score(with_fewer_facts(sim.facts), dealer, switches)
    assert full.scores == fewer.scores == sim.scores
    assert full.lines == fewer.lines


@FAST
@given(seed=seeds, dealer=st.integers(0, 1))
def test_bonuses_that_cannot_co_occur_never_do_6_3_9(seed: int, dealer: int) -> None:
    rng = random.Random(seed)
    sim = simulate_hand(rng, dealer, random_switches(rng))
    s = engine_score(sim.facts, dealer, sim.switches)
    owners: dict[str, set[int]] = {}
    for line in s.lines:
        for key in ("wins trick 10", "takes the turn-up", "wins the last trick", "sweep",
                    "exchanges the", "never exchanged", "The turn-up is the"):
            if key in line.text:
                assert line.player is not None
                owners.setdefault(key, set()).add(line.player)
    assert not owners.get("wins trick 10", set()) & owners.get("takes the turn-up", set())
    if "sweep" in owners:
        assert owners["sweep"] == owners["wins the last trick"]
    seven_events = [k for k in ("exchanges the", "never exchanged", "The turn-up is the")
                    if k in owners]
    assert len(seven_events) == 1                                       # 3, 6.3.8


@FAST
@given(seed=seeds, dealer=st.integers(0, 1))
def test_the_same_meld_never_scores_twice_in_a_deal_4_3_2(seed: int, dealer: int) -> None:
    rng = random.Random(seed)
    switches = random_switches(rng)
    sim = simulate_hand(rng, dealer, switches, eagerness=1.0)
    s = engine_score(sim.facts, dealer, switches)
    declared = [str(d.meld) for d in s.declared]
    assert len(declared) == len(set(declared))
    if not sim.melded:
        event("no meld to repeat")
        return
    trick, player, notation = rng.choice(sim.melded)
    later = [n for n in range(trick, 11) if sim.won[n - 1] == player]
    again = rng.choice(later)
    facts = copy.deepcopy(sim.facts)
    facts["tricks"][again - 1]["melds"][player].append(notation)
    try:
        engine_score(facts, dealer, switches)
    except RuleViolation as error:
        assert error.code == "meld.twice"
    else:
        raise AssertionError(f"{notation} scored twice")


@FAST
@given(seed=seeds, dealer=st.integers(0, 1), stop=st.integers(0, 16))
def test_a_deal_in_progress_scores_what_has_happened_so_far(
    seed: int, dealer: int, stop: int
) -> None:
    rng = random.Random(seed)
    switches = random_switches(rng)
    sim = simulate_hand(rng, dealer, switches, stop_after=stop or None, winners_known=1.0)
    if stop == 0:
        sim.facts["tricks"] = []
        sim.facts["seven_played"] = None
        sim.melds, sim.bonuses = [0, 0], [0, 0]
        if sim.turned_up_seven:
            sim.bonuses[dealer] = 10 if switches["turn_up_seven_10"] else 7
    sim.facts["end"] = None
    fold = MatchFold(match_settings(switches, first_dealer=dealer))
    fold.add(1, sim.facts, last=True)
    assert fold.draft is not None and not fold.draft.complete
    assert fold.draft.scores == (sim.melds[0] + sim.bonuses[0], sim.melds[1] + sim.bonuses[1])
    assert fold.result().standing.totals == (0, 0)


@FAST
@given(seed=seeds, first=st.integers(0, 1), target=st.sampled_from([500, 1000]))
def test_any_sequence_of_real_deals_gives_standings_like_the_rules_7(
    seed: int, first: int, target: int
) -> None:
    rng = random.Random(seed)
    switches = random_switches(rng)
    model = GameModel(target)
    hands: list[dict[str, Any]] = []
    while model.winner is None and len(hands) < 60:
        dealer = (first + len(hands)) % 2
        sim = simulate_hand(rng, dealer, switches)
        hands.append(sim.facts)
        model.apply(sim.scores)
    result = GAME.score(match_settings(switches, first, target), hands)
    standing = result.standing
    assert list(standing.totals) == model.totals
    assert standing.winner == model.winner
    assert standing.over == (model.winner is not None)
    assert [h.dealer for h in result.hands] == [(first + n) % 2 for n in range(len(hands))]
    assert all(h.award is None for h in result.hands[:-1])
    if standing.over:
        assert result.hands[-1].award is not None
        assert standing.victory[model.winner] == 1
        try:
            GAME.score(match_settings(switches, first, target), hands + [hands[0]])
        except RuleViolation as error:
            assert error.code == "match.over" and error.hand == len(hands) + 1
        else:
            raise AssertionError("a deal after the end was accepted")
    event(f"{len(hands)} deals")


@FAST
@given(seed=seeds, dealer=st.integers(0, 1))
def test_facts_round_trip_through_the_canonical_form(seed: int, dealer: int) -> None:
    rng = random.Random(seed)
    sim = simulate_hand(rng, dealer, random_switches(rng))
    facts = parse_hand(sim.facts)
    canonical = hand_to_json(facts)
    assert parse_hand(canonical) == facts
    assert GAME.canonical_hand(canonical) == canonical


@FAST
@given(seed=seeds, dealer=st.integers(0, 1))
def test_a_wrong_winner_against_the_recorded_cards_is_refused_2_5(seed: int, dealer: int) -> None:
    rng = random.Random(seed)
    sim = simulate_hand(rng, dealer, random_switches(rng), winners_known=0.0, cards_known=True)
    number = rng.randrange(16)
    sim.facts["tricks"][number]["winner"] = 1 - sim.won[number]
    try:
        engine_score(sim.facts, dealer, sim.switches)
    except RuleViolation as error:
        assert error.code in ("trick.conflict", "meld.loser", "exchange.loser", "end.sweep",
                              "end.sweep-last")
    else:
        raise AssertionError("a winner against the cards was accepted")


def model_illegal_play(cards: list[list[str]], first_leader: int, trumps: str) -> bool:
    """Does a full card record break 2.7 in tricks 11–16? (an independent reading)"""
    leader, plays = first_leader, []
    for pair in cards:
        led, second = FRENCH.parse(pair[0]), FRENCH.parse(pair[1])
        plays.append((leader, led, second))
        leader = 1 - leader if model_second_wins(led, second, trumps) else leader
    hands: list[list[Any]] = [[], []]
    for leader, led, second in plays[10:]:
        hands[leader].append(led)
        hands[1 - leader].append(second)
    for number, (leader, led, second) in enumerate(plays[10:], 11):
        if second not in model_legal(hands[1 - leader], led, trumps, number):
            return True
        hands[leader].remove(led)
        hands[1 - leader].remove(second)
    return False


@FAST
@given(seed=seeds, dealer=st.integers(0, 1), pick=st.integers(0, 100))
def test_an_illegal_card_in_tricks_11_to_16_is_refused_2_7(
    seed: int, dealer: int, pick: int
) -> None:
    """Swap two cards of one player in tricks 11–16: whenever the new record breaks 2.7 (read
    independently), the engine refuses it."""
    rng = random.Random(seed)
    sim = simulate_hand(rng, dealer, random_switches(rng), cards_known=True)
    tricks = sim.facts["tricks"]
    leaders = [1 - dealer] + sim.won[:15]
    seats = [(n, 0 if leaders[n - 1] == p else 1) for p in (0, 1) for n in range(11, 17)]
    player = pick % 2
    mine = [(n, seat) for n, seat in seats[6 * player: 6 * player + 6]]
    (n1, s1), (n2, s2) = rng.sample(mine, 2)
    tricks[n1 - 1]["cards"][s1], tricks[n2 - 1]["cards"][s2] = (
        tricks[n2 - 1]["cards"][s2], tricks[n1 - 1]["cards"][s1]
    )
    illegal = model_illegal_play([t["cards"] for t in tricks], 1 - dealer, sim.facts["turnup"][-1])
    try:
        engine_score(sim.facts, dealer, sim.switches)
    except RuleViolation as error:
        event(error.code)
    else:
        assert not illegal, "an illegal play in tricks 11–16 was accepted"
        event("still legal")


@FAST
@given(seed=seeds)
def test_legal_plays_agree_with_an_independent_reading_of_2_7(seed: int) -> None:
    rng = random.Random(seed)
    deck = list(FRENCH.cards)
    rng.shuffle(deck)
    held, led, trumps = deck[:6], deck[6], rng.choice(FRENCH.suits)
    number = rng.randint(1, 16)
    assert legal_plays(held, led, trumps, number) == model_legal(held, led, trumps, number)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 20) | st.sampled_from(
        ["9c", "7c", "Kd", "As", "four:K", "marriage:h", "marjolet:c", "Kh Qh", "x", ""]
    ),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.sampled_from(
        ["turnup", "tricks", "seven_played", "end", "winner", "melds", "exchange", "cards",
         "player", "trick", "brisques", "trick10", "last", "sweep"]), inner, max_size=5),
    max_leaves=25,
)


@FAST
@given(raw=json_values)
def test_junk_facts_raise_only_rule_violations(raw: object) -> None:
    with contextlib.suppress(RuleViolation):
        GAME.canonical_hand(raw)
    with contextlib.suppress(RuleViolation):
        GAME.score(match_settings(dict.fromkeys(SWITCHES, False)), [raw])  # type: ignore[list-item]


@FAST
@given(seed=seeds, path=st.lists(st.integers(0, 40), min_size=1, max_size=4), junk=json_values)
def test_a_real_deal_with_one_fact_spoiled_raises_only_rule_violations(
    seed: int, path: list[int], junk: object
) -> None:
    rng = random.Random(seed)
    sim = simulate_hand(rng, rng.randrange(2), random_switches(rng))
    facts = copy.deepcopy(sim.facts)
    node: Any = facts
    for step in path[:-1]:
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        if not keys or not isinstance(node[keys[step % len(keys)]], (dict, list)):
            break
        node = node[keys[step % len(keys)]]
    keys = list(node) if isinstance(node, dict) else list(range(len(node)))
    if keys:
        node[keys[path[-1] % len(keys)]] = junk
    with contextlib.suppress(RuleViolation):
        GAME.score(match_settings(sim.switches), [facts])
