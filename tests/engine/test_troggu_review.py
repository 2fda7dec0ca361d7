"""A section-by-section review of shared/rules/troggu.md against the engine: the rules that had
no test (the play checker of 2.2–2.5, the settle-up of 7.5.3 as written) and edges of the
others. Ids name the rule."""

from __future__ import annotations

import pytest
from troggu_helpers import (
    A,
    B,
    C,
    D,
    E,
    F,
    G,
    H,
    by_letter,
    call,
    forced,
    misere,
    normal,
    one,
    play,
    settings,
    solo,
)

from referee.engine.cards import SWISS_TAROT
from referee.engine.errors import RuleViolation
from referee.engine.games.troggu import (
    GAME,
    card_points,
    deal_sizes,
    discard_allowed,
    discard_points,
    legal_plays,
    points_range,
    settle_text,
    settle_up,
    trick_winner,
)


def cards(text: str) -> list:
    return [SWISS_TAROT.parse(c) for c in text.split()]


def codes(found: list) -> list[str]:
    return [str(c) for c in found]


# -- 2.1 deal, 3 card points ------------------------------------------------------------------

@pytest.mark.parametrize(("n", "t", "h"), [(3, 8, 18), (4, 10, 13), (5, 7, 11), (6, 8, 9),
                                           (7, 6, 8), (8, 6, 7)], ids=lambda v: str(v))
def test_2_1_deal_sizes(n, t, h):
    sizes = deal_sizes(n)
    assert (sizes.tapp, sizes.hand) == (t, h) and n * h + t == 62


def test_3_card_points_total_114_and_multiset():
    values = sorted(card_points(c) for c in SWISS_TAROT.cards)
    assert len(values) == 62 and sum(values) == 114
    assert [values.count(v) for v in (5, 4, 3, 2, 1)] == [7, 4, 4, 4, 43]


# -- 2.2, 2.3, 2.5: the play checker ----------------------------------------------------------

@pytest.mark.parametrize(("trick", "hand", "withheld", "legal"), [
    pytest.param("Ks", "9s 5s T3 F", False, "9s 5s", id="2.3-follow-suit-need-not-beat"),
    pytest.param("1c", "T5 T12 Kd", False, "T5 T12", id="2.3-void-must-trump"),
    pytest.param("T14", "F Kc 2d", False, "F Kc 2d", id="2.5-only-trump-fool-may-withhold"),
    pytest.param("4d", "T7 F 9b", False, "T7 F", id="2.5-fool-not-only-trump"),
    pytest.param("T2", "F Qs 6c", True, "Qs 6c", id="2.5-withheld-fool-never-before-last"),
    pytest.param("Kc", "2c F", False, "2c", id="2.3-follow-suit-fool-stays"),
    pytest.param("Kc", "2d 5s", False, "2d 5s", id="2.3-no-suit-no-trump-anything"),
    pytest.param("T3", "T1 T21", False, "T1 T21", id="2.3-no-duty-to-overtrump"),
    pytest.param("F", "T1 Kc", False, "T1", id="2.3-fool-led-leads-trumps"),
    pytest.param("", "F Kc T4", False, "F Kc T4", id="2.3.5-leader-any-card"),
    pytest.param("", "F Kc T4", True, "Kc T4", id="2.3.5-leader-not-withheld-fool"),
])
def test_2_3_legal_plays(trick, hand, withheld, legal):
    assert codes(legal_plays(cards(hand), cards(trick), withheld)) == legal.split()


def test_2_3_5_last_trick_plays_the_one_remaining_card():
    assert codes(legal_plays(cards("F"), cards("T5"), withheld=True, last_trick=True)) == ["F"]


@pytest.mark.parametrize(("trick", "withheld", "winner"), [
    pytest.param("T14 F Kc", False, 1, id="2.2-live-fool-highest"),
    pytest.param("T1 T21 T20", False, 1, id="2.2-t21-over-t20"),
    pytest.param("Ks 9s Qs", False, 0, id="2.2-highest-of-suit-led"),
    pytest.param("2c 1c Kd", False, 1, id="1-round-suit-pips-upside-down"),
    pytest.param("5b 10b 6b", False, 1, id="1-long-suit-pips"),
    pytest.param("Kc T1 Qc", False, 1, id="2.2-any-trump-beats-suit"),
    pytest.param("F 2d Kd", True, 2, id="2.5.4-withheld-fool-led-next-sets-suit"),
    pytest.param("2d F 5d", True, 0, id="2.5.3-withheld-fool-never-wins"),
])
def test_2_2_trick_winner(trick, withheld, winner):
    assert trick_winner(cards(trick), withheld) == winner


# -- 4.1 bidding, 4.4 Misère, 4.5 seven and eight players ---------------------------------------

def test_4_1_4_solo_beats_an_earlier_normal_bid():
    out = one(4, {"dealer": A, "bids": ["normal", "pass", "solo"],
                  "end": {"points": 70, "loser_took_trick": True}})
    assert out.detail["game"] == "solo" and out.detail["declarer"] == D
    assert out.scores[D] == 60


def test_4_1_2_normal_bidder_is_tappist():
    out = one(5, {"dealer": B, "bids": ["pass", "normal", "pass", "pass", "pass"],
                  "end": {"points": 70, "loser_took_trick": True}})
    assert out.detail["game"] == "normal" and out.detail["declarer"] == D   # C speaks first


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_4_1_6_all_pass_is_misere_3_to_6(n):
    t = deal_sizes(n).tapp
    out = one(n, {"dealer": A, "bids": ["pass"] * n, "end": {"points": [114 - t] + [0] * (n - 1)}})
    assert out.detail["game"] == "misere"
    assert out.scores[A] == -(n - 1) * 10


def test_4_5_1_forced_game_needs_7_or_8_players():
    with pytest.raises(RuleViolation) as err:
        one(6, forced(A, 70, forced_by="F"))
    assert err.value.code == "forced.players"


def test_4_5_1_forced_by_t1_pays_like_a_normal_game():
    out = one(8, forced(B, 70, took=True, forced_by="T1", call=call("T20", "alone"),
                        bids=["pass"] * 8))
    assert out.scores[B] == 70


def test_4_5_3_called_trump_in_discard_means_alone():
    hand = normal(A, 70, call=call("T20", D), discard="T20 2c 3c 4c 5c 6c")
    with pytest.raises(RuleViolation) as err:
        one(7, hand)
    assert err.value.code == "call.in-discard"


# -- 4.2 and 8: the discard ---------------------------------------------------------------------

@pytest.mark.parametrize(("n", "discard", "extra", "ok"), [
    pytest.param(4, "Kc Kd Ks Kb 2c 3c 4c 5c T2 T3", {}, True, id="4.2.3-four-kings"),
    pytest.param(4, "Kc Kd Ks 2c 3c 4c 5c 6c T2 T3", {}, False, id="4.2.3-three-kings"),
    pytest.param(4, "T20 T19 T18 T17 T16 T15 T14 T13 T12 T2", {}, True,
                 id="4.2.4-one-point-trumps"),
    pytest.param(4, "T21 2c 3c 4c 5c 6c 2d 3d 4d 5d", {}, False, id="4.2.2-no-t21"),
    pytest.param(4, "Kc 2c 3c 4c 5c 6c 2d 3d 4d 5d", {"kings_any_number": True}, False,
                 id="8-kings-any-needs-confirmation"),
    pytest.param(4, "Kc Kd Ks Kb 2c 3c 4c 5c 6c 2d", {"seven_fives": True}, False,
                 id="8-seven-fives-no-four-kings"),
    pytest.param(4, "F T21 T1 Kc Kd Ks Kb 2c 3c 4c", {"seven_fives": True}, True,
                 id="8-seven-fives-all-seven"),
])
def test_4_2_discard(n, discard, extra, ok):
    assert discard_allowed(settings(n, **extra), discard) is ok


def test_8_seven_fives_impossible_when_t_below_7():
    assert not discard_allowed(settings(7, seven_fives=True), "F T21 T1 Kc Kd Ks Kb")


def test_8_kings_any_number_confirmed():
    assert discard_allowed(settings(4, kings_any_number=True),
                           "Kc 2c 3c 4c 5c 6c 2d 3d 4d 5d", all_kings_held=True)


# -- refusals name their rule: 6.3.6 a discard of t distinct cards, 1 the 62-card pack ----------

@pytest.mark.parametrize(("hand", "code", "rule"), [
    pytest.param(normal(B, 71, 7, discard="Qs Qs 9s 8s 7s 6s 5s 9b 8b 7b"), "card.twice",
                 "6.3.6", id="discard-one-card-twice"),
    pytest.param(normal(B, 71, 7, discard="Qs 4s 9s 8s 7s 6s 5s 9b 8b 7b"), "card.unknown",
                 "1", id="discard-card-not-in-the-pack"),
    pytest.param(solo(A, 71, 7, tapp="Qs Qs 9s 8s 7s 6s 5s 9b 8b 7b"), "card.twice", "1",
                 id="solo-tapp-one-card-twice"),
    pytest.param(solo(A, 71, 7, tapp="Qs 10c 9s 8s 7s 6s 5s 9b 8b 7b"), "card.unknown", "1",
                 id="solo-tapp-card-not-in-the-pack"),
    pytest.param(normal(B, 71, 7, discard=["Qs", 9]), "card.unknown", "1",
                 id="discard-not-a-card"),
    pytest.param(normal(B, 71, 7, discard=7), "card.list", "6.1", id="discard-not-a-list"),
])
def test_card_refusals_cite_their_rule(hand, code, rule):
    with pytest.raises(RuleViolation) as err:
        one(4, hand)
    assert (err.value.code, err.value.rule) == (code, rule)
    assert f"(rule {rule})" in str(err.value)


@pytest.mark.parametrize(("discard", "code", "rule"), [
    ("Qs Qs 9s 8s 7s 6s 5s 9b 8b 7b", "card.twice", "6.3.6"),
    (["Qs", "Qs", "9s", "8s", "7s", "6s", "5s", "9b", "8b", "7b"], "card.twice", "6.3.6"),
    ("Qs 4s 9s 8s 7s 6s 5s 9b 8b 7b", "card.unknown", "1"),
], ids=["text", "list", "unknown"])
def test_a_discard_picked_as_cards_cites_its_rule(discard, code, rule):
    with pytest.raises(RuleViolation) as err:
        discard_points(settings(4), discard)
    assert (err.value.code, err.value.rule) == (code, rule)


# -- 6.3 checks ---------------------------------------------------------------------------------

def test_6_3_4_range_example_4_players_7_tricks():
    assert points_range(38) == (38, 90)
    with pytest.raises(RuleViolation):
        one(4, normal(A, 91, tricks=7))
    with pytest.raises(RuleViolation):
        one(4, normal(A, 37, tricks=7))


def test_6_3_5_defenders_with_kept_fool_have_5():
    out = one(4, normal(A, 109, tricks=13, fool_kept=B))
    assert out.scores[A] == 90


# -- 7: payments -------------------------------------------------------------------------------

@pytest.mark.parametrize(("preset", "d"), [("standard", 29), ("visp", 30), ("st-niklaus", 31),
                                           ("graechen", 20)])
def test_7_1_3_threshold_edge_each_preset(preset, d):
    at = one(4, normal(A, 114 - d, took=True), threshold=preset)
    above = one(4, normal(A, 113 - d, took=True), threshold=preset)
    assert at.scores[A] == 60 and above.scores[A] == 30
    lose_at = one(4, normal(A, d, took=True), threshold=preset)
    lose_above = one(4, normal(A, d + 1, took=True), threshold=preset)
    assert lose_at.scores[A] == -60 and lose_above.scores[A] == -30


def test_7_1_3_no_trick_beats_the_threshold_x3():
    assert one(4, normal(A, 114, tricks=13)).detail["multiplier"] == 3


def test_7_1_1_57_57_pays_nothing_in_a_solo_and_with_a_partner():
    assert one(3, solo(A, 57)).scores == (0, 0, 0)
    assert set(one(8, normal(A, 57, call=call("T20", D))).scores) == {0}


@pytest.mark.parametrize(("n", "points", "expected"), [
    pytest.param(7, 62, {"A": 30, "D": 20, "B": -10}, id="7.3-seven-partner-win"),
    pytest.param(8, 62, {"A": 40, "D": 20, "B": -10}, id="7.3-eight-partner-win"),
    pytest.param(8, 90, {"A": 80, "D": 40, "B": -20}, id="7.3-eight-partner-win-x2"),
    pytest.param(7, 45, {"A": -30, "D": -20, "B": 10}, id="7.3-seven-partner-lose"),
])
def test_7_3_seven_eight_with_partner(n, points, expected):
    out = by_letter(one(n, normal(A, points, took=True, call=call("T20", D))).scores)
    assert {k: out[k] for k in expected} == expected and sum(out.values()) == 0


def test_7_3_seven_solo():
    out = one(7, solo(G, 86, took=True))
    assert out.scores[G] == 6 * 40 and out.scores[A] == -40


@pytest.mark.parametrize(("points", "least", "expected"), [
    pytest.param([40, 25, 20, 15], False, [-30, 10, 10, 10], id="7.4.1-most-pays"),
    pytest.param([40, 40, 10, 10], False, [-20, -20, 20, 20], id="7.4.2-tie-for-most"),
    pytest.param([25, 25, 25, 25], False, [0, 0, 0, 0], id="7.4.3-all-tie"),
    pytest.param([40, 25, 20, 15], True, [-10, -10, -10, 30], id="8-least-wins"),
    pytest.param([40, 25, 15, 20], True, [-10, -10, 30, -10], id="8-least-wins-other-seat"),
])
def test_7_4_misere(points, least, expected):
    out = one(4, misere(points, tapp_points=14), misere_least_wins=least)
    assert list(out.scores) == expected


def test_8_no_misere_thrown_in_7_players():
    result = play(7, {"dealer": A, "bids": ["pass"] * 7, "game": "thrown-in"}, no_misere=True)
    assert set(result.hands[0].scores) == {0} and result.standing.dealer == B


def test_8_stake_5():
    assert one(5, normal(C, 52, took=True), stake=5).scores[C] == -20


def test_8_graechen_deal_four_players():
    assert (deal_sizes(4, True).tapp, deal_sizes(4, True).hand) == (6, 14)
    out = one(4, normal(A, 114, tricks=14), graechen_deal=True)
    assert out.scores[A] == 90


# -- 7.5 settle-up, as written ----------------------------------------------------------------

def test_7_5_3_settle_up_follows_the_rule_even_when_fewer_payments_exist():
    # the rule: F (−60) pays B (50) 50; C (−50) pays A 20, D 20 (ties to the earlier seat),
    # then C and F (−10 each: C first) pay E 10 each. Five payments, where four would do.
    balances = [20, 50, -50, 20, 20, -60]
    assert settle_up(balances) == [(5, 1, 50), (2, 0, 20), (2, 3, 20), (2, 4, 10), (5, 4, 10)]


def test_9_12_ledger_and_settle_up():
    hands = [
        normal(B, 70, took=True),
        solo(C, 70, took=True),
        misere([40, 25, 20, 15], tapp_points=14),
        normal(D, 50, took=True),
        normal(A, 25, took=True),
    ]
    result = GAME.score(settings(4), hands)
    assert [list(h.scores) for h in result.hands] == [
        [-10, 30, -10, -10], [-20, -20, 60, -20], [-30, 10, 10, 10], [10, 10, 10, -30],
        [-60, 20, 20, 20]]
    assert result.standing.totals == (-110, 50, 90, -30)
    assert settle_text(result.standing.totals, ("A", "B", "C", "D")) == (
        "A pays C 90 Rappen; D pays B 30 Rappen; A pays B 20 Rappen")


def test_9_10_forced_game_example():
    out = one(7, forced(C, 45, took=True, forced_by="F", call=call("T20", F),
                        bids=["pass"] * 7))
    assert by_letter(out.scores) == {"A": 10, "B": 10, "C": -30, "D": 10, "E": 10, "F": -20,
                                     "G": 10}


def test_9_9_eight_alone_lose_x2():
    out = one(8, normal(A, 28, tricks=1, call=call("T20", "alone")))
    assert out.scores[A] == -140 and out.scores[H] == 20 and out.scores[E] == 20
