"""Review of the Tartli engine against shared/rules/tartli.md: rules that had no test of their
own (2.5 trick winner, 3 card values) and the optional card-by-card record (6.1.6) with its
checks of play (2.6, 2.7), piles and shown cards. Players: 0 = A, 1 = B."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from tartli_helpers import (
    A,
    B,
    SimHand,
    hand,
    played,
    score,
    simulate_hand,
)
from tartli_helpers import points as model_points

from referee.engine.cards import HUNGARIAN, Card
from referee.engine.errors import RuleViolation
from referee.engine.games.tartli.facts import hand_to_json, parse_hand
from referee.engine.games.tartli.record import legal_plays
from referee.engine.games.tartli.values import card_points, trick_winner

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def c(text: str) -> Card:
    return HUNGARIAN.parse(text)


def raises(code: str, raw: dict[str, Any], dealer: int = B) -> RuleViolation:
    with pytest.raises(RuleViolation) as err:
        score(raw, dealer)
    assert err.value.code == code, err.value
    return err.value


# =============================================================================================
# 2.5 Trick winner (trumps hearts)


@pytest.mark.parametrize(
    ("led", "second", "winner"),
    [
        pytest.param("7h", "Aa", 0, id="2.5-only-the-led-card-is-trump"),
        pytest.param("Aa", "7h", 1, id="2.5-only-the-second-card-is-trump"),
        pytest.param("Ah", "9h", 1, id="2.5-both-trumps-9-above-ace"),
        pytest.param("9h", "Oh", 1, id="2.5-both-trumps-over-highest"),
        pytest.param("10h", "Kh", 0, id="2.5-both-trumps-10-above-king"),
        pytest.param("Ka", "Oa", 0, id="2.5-plain-king-above-over"),
        pytest.param("Oa", "Ka", 1, id="2.5-plain-king-beats-over"),
        pytest.param("Ka", "10a", 1, id="2.5-plain-10-above-king"),
        pytest.param("9a", "Ua", 1, id="2.5-plain-under-above-9"),
        pytest.param("7a", "Al", 0, id="2.5-other-plain-suit-loses"),
        pytest.param("10a", "Aa", 1, id="2.5-plain-ace-highest"),
    ],
)
def test_trick_winner_2_5(led: str, second: str, winner: int) -> None:
    assert trick_winner(c(led), c(second), "h") == winner


# =============================================================================================
# 3 Card values


def test_card_values_3() -> None:
    trumps = sum(card_points(Card(r, "h"), "h") for r in HUNGARIAN.ranks)
    plain = [sum(card_points(Card(r, s), "h") for r in HUNGARIAN.ranks) for s in "alb"]
    assert trumps == 61 and plain == [30, 30, 30]
    assert card_points(c("Oh"), "h") == 20 and card_points(c("Oa"), "h") == 3
    assert card_points(c("9h"), "h") == 14 and card_points(c("9a"), "h") == 0
    zero = [card for card in HUNGARIAN.cards if card_points(card, "h") == 0]
    assert len(zero) == 11


# =============================================================================================
# 2.7 Legal play


@pytest.mark.parametrize(
    ("held", "led", "trick", "allowed"),
    [
        pytest.param("Aa 7h Kl", "10a", 3, "Aa 7h Kl", id="2.7-tricks-1-7-any-card"),
        pytest.param("Aa 7h Kl", "10a", 7, "Aa 7h Kl", id="2.7-trick-7-any-card"),
        pytest.param("Aa 7a 7h Kl", "10a", 8, "Aa 7a", id="2.7-follow-no-duty-to-beat"),
        pytest.param("7h Oh Kl", "10a", 9, "7h Oh", id="2.7-no-led-suit-any-trump"),
        pytest.param("Kl 8b", "10a", 12, "Kl 8b", id="2.7-neither-any-card"),
        pytest.param("9h Ka", "Oh", 16, "9h", id="2.7-trump-led-follow-trumps"),
    ],
)
def test_legal_plays_2_7(held: str, led: str, trick: int, allowed: str) -> None:
    cards = HUNGARIAN.parse_many(held)
    assert legal_plays(cards, c(led), "h", trick) == HUNGARIAN.parse_many(allowed)


# =============================================================================================
# 6.1.6 The optional card-by-card record


def _leader_first(sim: SimHand, pairs: list[tuple[Card, Card]]) -> list[tuple[list[str], int]]:
    """(A's card, B's card) pairs -> (leader's card first, winner), leaders derived (2.4, 2.5)."""
    leader = 1 - sim.dealer
    out = []
    for pair in pairs:
        cards = (pair[leader], pair[1 - leader])
        winner = leader if trick_winner(cards[0], cards[1], sim.trumps) == 0 else 1 - leader
        out.append(([str(cards[0]), str(cards[1])], winner))
        leader = winner
    return out


def with_cards(sim: SimHand, pairs: list[tuple[Card, Card]] | None = None) -> dict[str, Any]:
    """The simulated hand's facts with the cards of every completed trick recorded; with other
    ``pairs``, the winners, piles, last trick and stichmatsch follow those cards."""
    facts = copy.deepcopy(sim.facts)
    pairs = sim.cards_played if pairs is None else pairs
    piles = [0, 0]
    for number, (cards, winner) in enumerate(_leader_first(sim, pairs), 1):
        facts["tricks"][number - 1]["cards"] = cards
        facts["tricks"][number - 1]["winner"] = winner
        piles[winner] += sum(model_points(c(x), sim.trumps) for x in cards)
    if facts["end"]["kind"] == "played":
        winners = [t["winner"] for t in facts["tricks"]]
        late = set(winners[7:])
        facts["end"] = played(
            (piles[0], piles[1]), winners[-1], late.pop() if len(late) == 1 else None
        )
    return facts


def _sim(seed: int, dealer: int, **kw: Any) -> SimHand:
    return simulate_hand(random.Random(seed), dealer, **kw)


@FAST
@given(seed=st.integers(0, 2**32 - 1), dealer=st.sampled_from([0, 1]))
def test_6_1_6_recorded_cards_of_a_legal_hand_are_accepted_and_score_the_same(seed, dealer):
    sim = _sim(seed, dealer, claim_chance=0.3)
    facts = with_cards(sim)
    assert score(facts, dealer).scores == score(sim.facts, dealer).scores
    parsed = parse_hand(facts)
    assert parse_hand(hand_to_json(parsed)) == parsed
    assert all(t.cards is not None for t in parsed.tricks if t.winner is not None)


@FAST
@given(seed=st.integers(0, 2**32 - 1), dealer=st.sampled_from([0, 1]))
def test_6_1_6_winners_may_be_left_to_the_cards(seed, dealer):
    sim = _sim(seed, dealer)
    facts = with_cards(sim)
    for trick in facts["tricks"]:
        trick["winner"] = None
    assert score(facts, dealer).scores == sim.scores


@FAST
@given(seed=st.integers(0, 2**32 - 1), dealer=st.sampled_from([0, 1]))
def test_6_1_6_the_app_computes_the_piles(seed, dealer):
    sim = _sim(seed, dealer)
    facts = with_cards(sim)
    a, b = facts["end"]["piles"]
    # move 11 points between the piles, where both stay possible
    for delta in (11, -11, 10, -10, 4, -4):
        facts["end"]["piles"] = [a + delta, b - delta]
        try:
            score({**facts, "tricks": [{**t, "cards": None} for t in facts["tricks"]]}, dealer)
        except RuleViolation:
            continue
        raises("record.piles", facts, dealer)
        return


@FAST
@given(seed=st.integers(0, 2**32 - 1), dealer=st.sampled_from([0, 1]))
def test_6_1_6_a_recorded_winner_must_agree_with_the_cards_2_5(seed, dealer):
    sim = _sim(seed, dealer)
    facts = with_cards(sim)
    facts["tricks"][0]["winner"] = 1 - facts["tricks"][0]["winner"]
    raises("record.winner", facts, dealer)


@FAST
@given(seed=st.integers(0, 2**32 - 1), dealer=st.sampled_from([0, 1]))
def test_6_1_6_every_card_once(seed, dealer):
    sim = _sim(seed, dealer)
    pairs = list(sim.cards_played)
    # Play trick 1's first card again in a later trick, in place of a card worth at least as
    # much, so the piles stay possible and only the repeated card is wrong.
    again = pairs[0][0]
    later = [t for t in range(1, len(pairs))
             if model_points(again, sim.trumps) <= model_points(pairs[t][0], sim.trumps)]
    assume(later)
    pairs[later[0]] = (again, pairs[later[0]][1])
    facts = with_cards(sim, pairs)
    raises("record.twice", facts, dealer)


def _find_illegal_swap(sim: SimHand) -> list[tuple[Card, Card]] | None:
    """Swap a second player's card of trick t ≥ 9, where he followed suit, with an off-suit
    non-trump card he plays later: he then kept a card of the led suit (2.7)."""
    rows = _leader_first(sim, sim.cards_played)
    leaders = [1 - sim.dealer] + [w for _, w in rows[:-1]]
    for t in range(9, 16):
        leader = leaders[t - 1]
        second = 1 - leader
        led = sim.cards_played[t - 1][leader]
        mine = sim.cards_played[t - 1][second]
        if mine.suit != led.suit:
            continue
        for later in range(t + 1, 17):
            other = sim.cards_played[later - 1][second]
            if other.suit not in (led.suit, sim.trumps):
                pairs = [list(p) for p in sim.cards_played]
                pairs[t - 1][second], pairs[later - 1][second] = other, mine
                return [(p[0], p[1]) for p in pairs]
    return None


def test_6_1_6_an_illegal_play_in_tricks_8_to_16_is_refused_2_7() -> None:
    found = 0
    for seed in range(200):
        sim = _sim(seed, seed % 2)
        pairs = _find_illegal_swap(sim)
        if pairs is None:
            continue
        raises("play.illegal", with_cards(sim, pairs), sim.dealer)
        found += 1
    assert found >= 20


def test_6_1_6_any_card_in_tricks_1_to_7_and_the_indicator_only_after_trick_7_2_6() -> None:
    checked = 0
    for seed in range(300):
        sim = _sim(seed, seed % 2, exchange_chance=0.0)
        indicator = c(sim.facts["indicator"])
        rows = [list(p) for p in sim.cards_played]
        where = next(
            (t, p) for t, pair in enumerate(rows, 1) for p in (0, 1) if pair[p] == indicator
        )
        # the indicator swapped into trick 1..7 for the same player: it was under the talon
        for early in range(1, 8):
            if sim.facts["tricks"][early - 1]["melds"] != [[], []]:
                continue
            t, p = where
            swapped = [list(r) for r in rows]
            swapped[t - 1][p], swapped[early - 1][p] = swapped[early - 1][p], indicator
            facts = with_cards(sim, [(r[0], r[1]) for r in swapped])
            try:
                score(facts, sim.dealer)
            except RuleViolation as err:
                if err.code == "record.talon":
                    checked += 1
            break
    assert checked >= 20


def test_6_1_6_a_shown_card_cannot_have_been_played_before_4_3_3() -> None:
    # A shows the acorn terc in trick 2 after playing the Ace of acorns to trick 1
    raw = hand("AB", {2: (["seq:a/A/3"], [])}, end=None)
    raw["tricks"][0]["cards"] = ["Aa", "7a"]
    raise_ = raises("record.shown", raw)
    assert raise_.rule == "4.3.3"
    raw["tricks"][0]["cards"] = ["Ab", "7a"]
    assert score(raw).melds == [20, 0]


def test_6_1_6_a_shown_card_played_by_the_other_player_6_3_6() -> None:
    raw = hand("AA", {1: (["seq:a/A/3"], [])}, end=None)
    raw["tricks"][0]["cards"] = ["8b", "7b"]
    raw["tricks"][1]["cards"] = ["7l", "Ka"]         # B plays A's shown Ka to trick 2
    raises("record.shown", raw)
    raw["tricks"][1]["cards"] = ["Ka", "7l"]         # A plays it himself
    assert score(raw).melds == [20, 0]


def test_6_1_6_bela_cards_must_still_be_held() -> None:
    raw = hand("AB", bela=(A, 3), end=None)
    raw["tricks"][0]["cards"] = ["Kh", "7a"]
    raises("record.shown", raw)
    raw = hand("AB", bela=(A, 1), end=None)
    raw["tricks"][0]["cards"] = ["Kh", "7a"]
    assert score(raw).bela == [40, 0]


def test_6_1_6_cards_need_two_per_trick() -> None:
    raw = hand("A", end=None)
    raw["tricks"][0]["cards"] = ["Kh"]
    raises("fact.shape", raw)


def test_6_1_6_after_an_exchange_the_trump_7_is_played_only_after_trick_7_2_6_2_8() -> None:
    checked = 0
    for seed in range(400):
        sim = _sim(seed, seed % 2, exchange_chance=1.0)
        if sim.facts["exchange"] is None:
            continue
        seven = Card("7", sim.trumps)
        rows = [list(p) for p in sim.cards_played]
        t, p = next(
            (t, p) for t, pair in enumerate(rows, 1) for p in (0, 1) if pair[p] == seven
        )
        assert t >= 8
        early = next(
            (n for n in range(1, 8) if sim.facts["tricks"][n - 1]["melds"] == [[], []]), None
        )
        if early is None:
            continue
        rows[t - 1][p], rows[early - 1][p] = rows[early - 1][p], seven
        try:
            score(with_cards(sim, [(r[0], r[1]) for r in rows]), sim.dealer)
        except RuleViolation as err:
            checked += err.code == "record.talon"
    assert checked >= 20
