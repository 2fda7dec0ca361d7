"""Table-driven tests of the Troggu rules (shared/rules/troggu.md): every row is data copied
from or derived from the rules file, with an id naming what it checks."""

from __future__ import annotations

import pytest
from troggu_helpers import (
    SIZES,
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
    codes,
    forced,
    misere,
    model_misere,
    model_side,
    normal,
    one,
    play,
    settings,
    solo,
    value,
)

from referee.engine.cards import SWISS_TAROT, TRUMP, Card
from referee.engine.errors import RuleViolation
from referee.engine.games import GAMES, get
from referee.engine.games.troggu import (
    GAME,
    bidding,
    discard_allowed,
    discard_points,
    forced_game,
    points_range,
)
from referee.engine.games.troggu.facts import hand_to_json, parse_hand
from referee.engine.games.troggu.values import (
    DEAL,
    GRAECHEN_DEAL,
    THRESHOLDS,
    card_points,
    deal_sizes,
    discard_values,
    hi,
    lo,
    tapp_values,
)
from referee.engine.points import sums_by_count


def refused(n: int, hand: dict, code: str, rule: str | None = None, **extra) -> RuleViolation:
    with pytest.raises(RuleViolation) as err:
        play(n, hand, **extra)
    assert err.value.code == code, err.value
    if rule is not None:
        assert err.value.rule == rule, err.value
    assert err.value.message and err.value.hand == 1
    return err.value


def test_registered():
    assert GAMES["troggu"] is GAME is get("troggu")
    assert GAME.players == (3, 8)
    assert GAME.deck is SWISS_TAROT
    assert GAME.victory_unit == "Rappen"


# =============================================================================================
# 1, 3: the pack and its card points


def test_the_swiss_tarot_has_62_cards_as_section_1_lists():
    cards = [str(c) for c in SWISS_TAROT.cards]
    assert len(cards) == len(set(cards)) == 62
    assert cards[:22] == ["F"] + [f"T{n}" for n in range(21, 0, -1)]
    assert [c for c in cards if c.endswith("c")] == [
        "Kc", "Qc", "Nc", "Jc", "1c", "2c", "3c", "4c", "5c", "6c"]
    assert [c for c in cards if c.endswith("s")] == [
        "Ks", "Qs", "Ns", "Js", "10s", "9s", "8s", "7s", "6s", "5s"]
    assert SWISS_TAROT.ranks_of("d") == SWISS_TAROT.ranks_of("c")
    assert SWISS_TAROT.ranks_of("b") == SWISS_TAROT.ranks_of("s")


@pytest.mark.parametrize("card", SWISS_TAROT.cards, ids=str)
def test_every_tarot_card_round_trips_its_notation(card):
    assert SWISS_TAROT.parse(str(card)) == card
    assert SWISS_TAROT.parse(f" {card} ") == card
    assert SWISS_TAROT.long_name(card)
    assert SWISS_TAROT.short_name(card)


@pytest.mark.parametrize(
    ("code", "long", "short"),
    [
        ("F", "Fool (Bättler)", "F"), ("T21", "Trump XXI (Mund)", "XXI"),
        ("T1", "Trump I (Bagatt)", "I"), ("T14", "Trump XIV", "XIV"),
        ("Kc", "King of cups", "K♥"), ("Nc", "Cavalier of cups", "N♥"),
        ("1d", "I of coins", "1♦"), ("10s", "X of swords", "10♠"), ("5b", "V of batons", "5♣"),
    ],
)
def test_tarot_card_names(code, long, short):
    card = SWISS_TAROT.parse(code)
    assert SWISS_TAROT.long_name(card) == long
    assert SWISS_TAROT.short_name(card) == short
    assert SWISS_TAROT.is_trump(card) == (card.suit == TRUMP)


@pytest.mark.parametrize(
    "junk",
    ["", "T0", "T22", "t21", "f", "FF", "10c", "7d", "1s", "4b", "Kx", "K", "Tc", "T 21", None, 21,
     ["F"], "Fool"],
)
def test_tarot_parse_refuses_junk(junk):
    with pytest.raises(RuleViolation) as err:
        SWISS_TAROT.parse(junk)
    assert err.value.code == "card.unknown" and "Swiss tarot" in err.value.message


def test_card_points_are_the_table_of_section_3():
    values = [card_points(c) for c in SWISS_TAROT.cards]
    assert sum(values) == 114
    assert sorted(values, reverse=True) == [5] * 7 + [4] * 4 + [3] * 4 + [2] * 4 + [1] * 43
    assert all(card_points(c) == value(c) for c in SWISS_TAROT.cards)
    trumps = sum(card_points(c) for c in SWISS_TAROT.cards if c.suit == TRUMP)
    assert trumps == 34


def formula_hi(c: int) -> int:
    """6.3, as printed."""
    if c <= 7:
        return 5 * c
    if c <= 11:
        return 35 + 4 * (c - 7)
    if c <= 15:
        return 51 + 3 * (c - 11)
    if c <= 19:
        return 63 + 2 * (c - 15)
    return 71 + (c - 19)


@pytest.mark.parametrize("c", range(63))
def test_hi_and_lo_are_the_formulas_of_6_3_and_every_total_between_is_possible(c):
    assert hi(c) == formula_hi(c)
    assert lo(c) == 114 - formula_hi(62 - c)
    sums = sums_by_count(card_points(card) for card in SWISS_TAROT.cards)[c]
    assert sums == frozenset(range(lo(c), hi(c) + 1))
    assert points_range(c) == (lo(c), hi(c))


# =============================================================================================
# 2.1 and 8: sizes


@pytest.mark.parametrize("n", range(3, 9))
def test_deal_sizes_are_the_table_of_2_1(n):
    sizes = deal_sizes(n)
    assert (sizes.hand, sizes.tapp) == SIZES[n]
    assert n * sizes.hand + sizes.tapp == 62
    assert DEAL[n] is sizes
    assert sum(int(p) for p in sizes.packets.split("+")) == sizes.hand


@pytest.mark.parametrize(("n", "hand", "tapp"), [(4, 14, 6), (5, 11, 7), (3, 18, 8), (7, 8, 6)])
def test_the_graechen_deal_changes_only_four_players_8(n, hand, tapp):
    sizes = deal_sizes(n, graechen_deal=True)
    assert (sizes.hand, sizes.tapp) == (hand, tapp)
    assert set(GRAECHEN_DEAL) == {4, 5}


@pytest.mark.parametrize("n", [0, 1, 2, 9, 10, True, "4", None])
def test_deal_sizes_refuse_other_player_counts(n):
    with pytest.raises(RuleViolation) as err:
        deal_sizes(n)
    assert err.value.code == "settings.players" and err.value.rule == "1"


# =============================================================================================
# 7: payments (7.2, 7.3, 7.4 and the thresholds of 8)

PAYMENTS = [
    # (players, hand, settings, {player: amount}), amounts as the tables of 7.2/7.3 give them
    pytest.param(4, normal(A, 70), {}, {"A": 30, "B": -10}, id="normal-win-x1"),
    pytest.param(4, normal(A, 56), {}, {"A": -30, "B": 10}, id="normal-lose-x1"),
    pytest.param(4, solo(A, 70), {}, {"A": 60, "B": -20}, id="solo-win-x1"),
    pytest.param(4, solo(A, 56), {}, {"A": -60, "B": 20}, id="solo-lose-x1"),
    pytest.param(4, normal(A, 85), {}, {"A": 60, "B": -20}, id="normal-win-loser-29-x2"),
    pytest.param(4, normal(A, 29), {}, {"A": -60, "B": 20}, id="normal-lose-with-29-x2"),
    pytest.param(4, normal(A, 30), {}, {"A": -30, "B": 10}, id="normal-lose-with-30-x1"),
    pytest.param(4, solo(A, 85), {}, {"A": 120, "B": -40}, id="solo-win-x2"),
    pytest.param(4, normal(A, 114, tricks=13), {}, {"A": 90, "B": -30}, id="normal-slam-x3"),
    pytest.param(4, solo(A, 114, tricks=13), {}, {"A": 180, "B": -60}, id="solo-slam-x3"),
    pytest.param(4, normal(A, 12, tricks=0), {}, {"A": -90, "B": 30}, id="tappist-no-trick-x3"),
    pytest.param(4, solo(A, 14, tricks=0), {}, {"A": -180, "B": 60}, id="soloist-no-trick-x3"),
    pytest.param(4, normal(A, 57), {}, {"A": 0, "B": 0}, id="normal-57-57"),
    pytest.param(4, solo(A, 57), {}, {"A": 0, "B": 0}, id="solo-57-57"),
    pytest.param(4, normal(A, 58), {}, {"A": 30, "B": -10}, id="normal-58-wins"),
    pytest.param(4, normal(A, 70), {"stake": 5}, {"A": 15, "B": -5}, id="stake-5"),
    # each preset at its threshold edge: the loser at D doubles, at D + 1 does not
    *[
        pytest.param(4, normal(A, 114 - d - bump), {"threshold": key},
                     {"A": 30 * (2 - bump), "B": -10 * (2 - bump)}, id=f"{key}-loser-{d + bump}")
        for key, (_, d) in THRESHOLDS.items() for bump in (0, 1)
    ],
    *[
        pytest.param(4, normal(A, d + bump), {"threshold": key},
                     {"A": -30 * (2 - bump), "B": 10 * (2 - bump)},
                     id=f"{key}-tappist-{d + bump}")
        for key, (_, d) in THRESHOLDS.items() for bump in (0, 1)
    ],
    # 7 and 8 players: a partner, alone, Solo, forced
    pytest.param(7, normal(A, 62, call=call("T20", D)), {},
                 {"A": 30, "D": 20, "B": -10, "G": -10}, id="7-partner-win"),
    pytest.param(7, normal(A, 40, call=call("T20", D)), {},
                 {"A": -30, "D": -20, "B": 10, "G": 10}, id="7-partner-lose"),
    pytest.param(8, normal(A, 62, call=call("T20", D)), {},
                 {"A": 40, "D": 20, "B": -10, "H": -10}, id="8-partner-win"),
    pytest.param(8, normal(A, 20, call=call("T20", H)), {},
                 {"A": -80, "H": -40, "B": 20, "G": 20}, id="8-partner-lose-x2"),
    pytest.param(7, normal(A, 62, call=call("T19", "alone")), {},
                 {"A": 60, "B": -10, "G": -10}, id="7-alone-win"),
    pytest.param(8, normal(A, 50, call=call("T20", "alone")), {},
                 {"A": -70, "B": 10, "H": 10}, id="8-alone-lose"),
    pytest.param(7, solo(C, 60), {}, {"C": 120, "A": -20, "G": -20}, id="7-solo"),
    pytest.param(8, solo(C, 20), {}, {"C": -280, "A": 40, "H": 40}, id="8-solo-lose-x2"),
    pytest.param(7, forced(C, 45, forced_by="F", call=call("T20", F)), {},
                 {"C": -30, "F": -20, "A": 10}, id="7-forced-partner"),
    pytest.param(8, forced(E, 70, forced_by="T1", call=call("T20", "alone")), {},
                 {"E": 70, "A": -10}, id="8-forced-alone"),
    # 7.4: Misère
    pytest.param(4, misere([40, 25, 20, 15], tapp_points=14), {},
                 {"A": -30, "B": 10, "C": 10, "D": 10}, id="misere-most-pays"),
    pytest.param(5, misere([30, 30, 20, 15, 10], tapp_points=9), {},
                 {"A": -30, "B": -30, "C": 20, "E": 20}, id="misere-tie"),
    pytest.param(3, misere([34, 34, 34], tapp_points=12), {}, {"A": 0, "B": 0, "C": 0},
                 id="misere-all-tie"),
    pytest.param(4, misere([10, 10, 40, 40], tapp_points=14), {},
                 {"A": 20, "B": 20, "C": -20, "D": -20}, id="misere-two-two"),
    pytest.param(4, misere([40, 25, 15, 20], tapp_points=14), {"misere_least_wins": True},
                 {"A": -10, "B": -10, "C": 30, "D": -10}, id="misere-least-wins"),
    pytest.param(4, misere([40, 15, 15, 30], tapp_points=14), {"misere_least_wins": True},
                 {"A": -20, "B": 20, "C": 20, "D": -20}, id="misere-least-wins-tie"),
    pytest.param(6, misere([20, 20, 20, 20, 15, 10], tapp_points=9), {"stake": 5},
                 {"A": -10, "E": 20, "F": 20}, id="misere-four-tie-stake-5"),
]


@pytest.mark.parametrize(("n", "hand", "extra", "expected"), PAYMENTS)
def test_payments_7(n, hand, extra, expected):
    out = one(n, hand, **extra)
    got = by_letter(out.scores)
    assert {k: got[k] for k in expected} == expected
    assert sum(out.scores) == 0
    # the players left out of ``expected`` are held against the independent model
    stake = extra.get("stake", 10)
    if hand["game"] == "misere":
        model = model_misere(hand["end"]["points"], stake, extra.get("misere_least_wins", False))
    else:
        end = hand["end"]
        partner = None
        if hand.get("call") and hand["call"]["partner"] != "alone":
            partner = hand["call"]["partner"]
        h = SIZES[n][0]
        took = end["loser_took_trick"] if end["tricks"] is None else (
            end["tricks"] not in (0, h))
        model = model_side(n, hand["declarer"], partner, end["points"], took,
                           hand["game"] == "solo", stake,
                           THRESHOLDS[extra.get("threshold", "standard")][1])
    assert list(out.scores) == model


def test_every_payment_has_a_line_with_its_amount_and_rule():
    out = one(7, normal(A, 62, call=call("T20", D)))
    paid = {line.player: line.points for line in out.lines if line.points is not None}
    assert paid == dict(enumerate(out.scores))
    assert {line.rule for line in out.lines if line.points is not None} == {"7.3"}
    texts = [line.text for line in out.lines]
    assert "A receives 30 (Tappist: 5 defenders × 10 = 50, less the partner's 20)" in texts
    assert "D receives 20 (partner: 2 × 10)" in texts
    assert "A calls trump XX; D holds it and is the partner" in texts


def test_misere_lines_name_who_pays_whom():
    out = one(5, misere([30, 30, 20, 15, 10], tapp_points=9))
    texts = [line.text for line in out.lines]
    assert "A and B tie for the most points (30) (house rule): each pays 10 to C, D and E" in texts
    assert "C receives 20 (10 from each of A and B)" in texts
    assert "A pays 30 (10 to C, D and E)" in texts
    assert out.summary == "Misère: A and B pay"


# =============================================================================================
# 4.2, 6.3.6 and 8: the discard

DISCARDS = [
    # (players, cards, settings, all_kings_held, code or None for a legal discard)
    pytest.param(4, "2c 3c 4c 5c 6c 2d 3d 4d 5d 6d", {}, False, None, id="ten-pips"),
    pytest.param(4, "Qc Qd Qs Qb Nc Nd T20 T2 5s 6b", {}, False, None, id="queens-and-trumps"),
    pytest.param(4, "Kc Kd Ks Kb 2c 3c 4c 5c 6c 2d", {}, False, None, id="all-four-kings"),
    pytest.param(4, "2c 3c 4c 5c 6c 2d 3d 4d 5d", {}, False, "discard.size", id="nine-cards"),
    pytest.param(4, "2c 3c 4c 5c 6c 2d 3d 4d 5d 6d 1c", {}, False, "discard.size",
                 id="eleven-cards"),
    pytest.param(7, "2c 3c 4c 5c 6c", {}, False, "discard.size", id="seven-players-five"),
    pytest.param(7, "2c 3c 4c 5c 6c 2d", {}, False, None, id="seven-players-six"),
    pytest.param(4, "F 3c 4c 5c 6c 2d 3d 4d 5d 6d", {}, False, "discard.never", id="fool"),
    pytest.param(4, "T21 3c 4c 5c 6c 2d 3d 4d 5d 6d", {}, False, "discard.never", id="xxi"),
    pytest.param(4, "T1 3c 4c 5c 6c 2d 3d 4d 5d 6d", {}, False, "discard.never", id="trump-i"),
    pytest.param(4, "Kc 3c 4c 5c 6c 2d 3d 4d 5d 6d", {}, False, "discard.kings", id="one-king"),
    pytest.param(4, "Kc Kd Ks 4c 5c 6c 2d 3d 4d 5d", {}, False, "discard.kings",
                 id="three-kings"),
    pytest.param(4, "Kc 3c 4c 5c 6c 2d 3d 4d 5d 6d", {"kings_any_number": True}, False,
                 "discard.kings-held", id="any-number-unconfirmed"),
    pytest.param(4, "Kc 3c 4c 5c 6c 2d 3d 4d 5d 6d", {"kings_any_number": True}, True, None,
                 id="any-number-confirmed"),
    pytest.param(4, "T21 3c 4c 5c 6c 2d 3d 4d 5d 6d", {"kings_any_number": True}, True,
                 "discard.never", id="any-number-still-no-xxi"),
    pytest.param(4, "Kc Kd Ks Kb 2c 3c 4c 5c 6c 2d", {"seven_fives": True}, False,
                 "discard.seven", id="seven-fives-no-kings-only"),
    pytest.param(4, "F T21 T1 Kc Kd Ks Kb 2c 3c 4c", {"seven_fives": True}, False, None,
                 id="seven-fives-all-seven"),
    pytest.param(4, "F 3c 4c 5c 6c 2d 3d 4d 5d 6d", {"seven_fives": True}, False,
                 "discard.seven", id="seven-fives-fool-alone"),
    pytest.param(7, "2c 3c 4c 5c 6c 2d", {"seven_fives": True}, False, None,
                 id="seven-fives-plain"),
]


@pytest.mark.parametrize(("n", "cards", "extra", "held", "code"), DISCARDS)
def test_discard_rules_4_2(n, cards, extra, held, code):
    s = settings(n, **extra)
    if code is None:
        assert discard_points(s, cards, held) == sum(value(c) for c in cards.split())
        assert discard_allowed(s, cards, held)
    else:
        with pytest.raises(RuleViolation) as err:
            discard_points(s, cards, held)
        assert err.value.code == code
        assert not discard_allowed(s, cards, held)
    # the same discard inside a hand is judged alike
    hand = normal(A, 70, discard=cards.split(), all_kings_held=held)
    if n >= 7:
        hand["call"] = call("T20", "alone")
    if code is None:
        one(n, hand, **extra)
    else:
        refused(n, hand, code, **extra)


@pytest.mark.parametrize(
    ("tapp", "kings", "low", "high"),
    [
        (10, "all four", 10, 20 + 16 + 2 * 3),     # four kings, four queens, two cavaliers
        (6, "all four", 6, 28),                    # 4 kings + 2 queens
        (6, "seven", 6, 4 * 4 + 2 * 3),            # no 5-point card
        (8, "seven", 8, 35 + 4),                   # all seven + a queen
        (7, "any", 7, 20 + 3 * 4),
    ],
)
def test_what_a_legal_discard_can_be_worth(tapp, kings, low, high):
    values = discard_values(tapp, kings)
    assert min(values) == low and max(values) == high


def test_a_discard_value_that_no_legal_discard_has_is_refused():
    error = refused(4, normal(A, 70, discard_points=43), "discard.value", "4.2")
    assert "10–42" in error.message
    refused(4, normal(A, 70, discard_points=9), "discard.value")


def test_discard_cards_and_points_must_agree():
    cards = codes("2c 3c 4c 5c 6c 2d 3d 4d 5d Qd")
    one(4, normal(A, 70, discard=cards, discard_points=13))
    refused(4, normal(A, 70, discard=cards, discard_points=12), "discard.points")


def test_the_discard_counts_for_the_declarer_side_6_3_6():
    refused(4, normal(A, 40, discard_points=42, tricks=3), "points.below-discard", "6.3.6")


def test_a_called_trump_in_the_discard_means_alone_4_5_3():
    cards = codes("T20 3c 4c 5c 6c 2d")
    one(7, normal(A, 70, discard=cards, call=call("T20", "alone")))
    refused(7, normal(A, 70, discard=cards, call=call("T20", D)), "call.in-discard", "4.5.3")


def test_tapp_checks_in_a_solo_and_a_misere():
    one(4, solo(A, 70, tapp=codes("F T21 T1 Kc Kd Ks Kb Qc Qd Qs")))
    refused(4, solo(A, 40, tapp=codes("F T21 T1 Kc Kd Ks Kb Qc Qd Qs")), "points.below-tapp")
    refused(4, solo(A, 70, tapp=codes("F T21")), "tapp.size", "2.1")
    refused(4, solo(A, 70, tapp_points=9), "tapp.value")
    refused(4, solo(A, 70, tapp=codes("2c 3c 4c 5c 6c 2d 3d 4d 5d 6d"), tapp_points=11),
            "tapp.points")
    assert min(tapp_values(6, True)) == 14
    seven = misere([15, 15, 15, 15, 10, 20, 10], tricks=[1, 1, 1, 1, 1, 2, 1],
                   tapp=codes("F T1 2c 3c 4c 5c"))
    one(7, seven)
    seven["tapp"] = codes("T21 T1 2c 3c 4c 5c")
    refused(7, seven, "misere.tapp", "4.5.1")


# =============================================================================================
# Bad input: each refused with a stable code, a message and the rule

BAD = [
    pytest.param(4, normal(A, 115), "fact.range", "6.3.2", id="115-points"),
    pytest.param(4, normal(A, -1), "fact.range", "6.3.2", id="negative-points"),
    pytest.param(4, normal(A, 70, defenders=45), "points.sum", "6.3.1", id="sum-not-114"),
    pytest.param(4, normal(A, 70, took=False), "points.no-trick", "6.3.5",
                 id="took-no-trick-with-points"),
    pytest.param(4, normal(A, 40, took=False, discard_points=12), "points.no-trick", "6.3.5",
                 id="tappist-no-trick-not-the-discard"),
    pytest.param(4, normal(A, 109, took=False), "points.no-trick", "6.3.5",
                 id="defenders-5-without-a-kept-fool"),
    pytest.param(4, normal(A, 70, tricks=14), "tricks.range", "6.3.3", id="14-tricks-of-13"),
    pytest.param(4, normal(A, 100, tricks=7), "points.impossible", "6.3.4",
                 id="too-many-points-for-7-tricks"),
    pytest.param(4, normal(A, 70, tricks=13, took=True), "tricks.conflict", "6.3.3",
                 id="tricks-and-took-disagree"),
    pytest.param(4, normal(A, 57, took=False), "tricks.no-loser", "7.1.1",
                 id="57-57-has-no-loser"),
    pytest.param(4, {"game": "normal", "declarer": 0, "end": {"points": 70}}, "tricks.missing",
                 "6.1", id="no-trick-fact"),
    pytest.param(7, normal(A, 70, call=call("T20", A)), "call.partner-tappist", "6.3.9",
                 id="partner-is-the-tappist"),
    pytest.param(7, normal(A, 70), "call.missing", "4.5.2", id="seven-without-a-call"),
    pytest.param(7, normal(A, 70, call=call("T21", D)), "call.trump", "4.5.2", id="call-xxi"),
    pytest.param(7, normal(A, 70, call=call("F", D)), "call.trump", "4.5.2", id="call-fool"),
    pytest.param(7, normal(A, 70, call={"trump": "T20"}), "call.partner", "4.5.3",
                 id="call-without-partner"),
    pytest.param(5, normal(A, 70, call=call("T20", D)), "call.players", "4.5.2",
                 id="call-with-five"),
    pytest.param(7, solo(A, 70, call=call("T20", D)), "call.solo", "6.3.9", id="solo-calls"),
    pytest.param(7, normal(A, 70, call=call("T20", 7)), "fact.player", None,
                 id="partner-seat-8-of-7"),
    pytest.param(4, solo(A, 70, discard_points=12), "discard.solo", "4.2.5",
                 id="soloist-discards"),
    pytest.param(4, normal(A, 70, tapp_points=12), "tapp.game", "4.3", id="tapp-in-normal"),
    pytest.param(4, misere([40, 25, 20, 15], discard_points=14), "discard.misere", "4.4",
                 id="misere-discard"),
    pytest.param(5, forced(A, 70, forced_by="F"), "forced.players", "6.3.8",
                 id="forced-with-five"),
    pytest.param(7, forced(A, 70, forced_by="F", call=call("T20", D), fool_kept=B, tricks=8),
                 "fool.forced", "4.5.1", id="forced-fool-kept-by-another"),
    pytest.param(4, misere([40, 25, 20, 16], tapp_points=14), "misere.sum", "6.3.7",
                 id="misere-sum"),
    pytest.param(4, misere([110, 2, 1, 1]), "misere.sum", "6.3.7", id="misere-sum-no-tapp"),
    pytest.param(4, misere([40, 25, 20]), "misere.points", "6.1", id="misere-three-of-four"),
    pytest.param(4, misere([40, 25, 20, 15], tricks=[5, 4, 3, 2]), "misere.tricks", "6.3.3",
                 id="misere-tricks-sum"),
    pytest.param(4, misere([40, 25, 20, 15], tricks=[4, 4, 5, 0]), "points.no-trick", "6.3.5",
                 id="misere-no-trick-with-points"),
    pytest.param(4, misere([45, 25, 20, 10], tricks=[1, 4, 4, 4]), "points.impossible",
                 "6.3.4", id="misere-points-for-one-trick"),
    pytest.param(4, {"game": "misere", "declarer": 0, "end": None}, "declarer.misere", "4.4",
                 id="misere-with-declarer"),
    pytest.param(4, {"game": "misere", "end": {"points": 70, "tricks": 5}}, "misere.points",
                 "6.1", id="misere-one-number"),
    pytest.param(4, {"game": "normal", "declarer": 0, "end": {"points": [30, 30, 30, 10]}},
                 "end.points", "6.1", id="normal-with-a-list"),
    pytest.param(4, {"game": "normal", "end": {"points": 70, "tricks": 7}}, "declarer.missing",
                 "6.1", id="normal-without-declarer"),
    pytest.param(4, {"game": "thrown-in"}, "thrown-in.off", "8", id="thrown-in-without-variant"),
    pytest.param(4, {"game": "bridge"}, "fact.game", "6.1", id="unknown-game"),
    pytest.param(4, {"game": "normal", "declarer": 0, "tricks": 3}, "fact.unknown", None,
                 id="unknown-key"),
    pytest.param(4, normal(A, 70, bids=["pass", "normal", "normal", "pass"]),
                 "bids.normal-twice", "4.1.3", id="normal-after-normal"),
    pytest.param(4, solo(C, 70, bids=["pass", "solo", "pass"]), "bids.after-solo", "4.1.4",
                 id="call-after-solo"),
    pytest.param(4, normal(A, 70, bids=["pass", "pass", "pass", "pass"]), "bids.game", "6.3.8",
                 id="normal-after-all-pass"),
    pytest.param(4, normal(A, 70, bids=["pass", "normal", "pass", "pass"]), "bids.declarer",
                 "4.1.5", id="bids-name-another-tappist"),
    pytest.param(4, normal(C, 70, bids=["pass", "normal", "pass", "solo"]), "bids.game",
                 "6.3.8", id="solo-beats-normal"),
    pytest.param(4, normal(A, 70, bids=["pass", "pass", "pass", "pass", "pass"]),
                 "bids.too-many", "4.1.1", id="five-calls-of-four"),
    pytest.param(4, normal(C, 70, bids=["pass", "normal"]), "bids.unfinished", "4.1",
                 id="bids-unfinished"),
    pytest.param(4, normal(A, 70, bids=["pass", "ich gehe"]), "bids.call", "4.1",
                 id="bid-not-a-call"),
    pytest.param(4, normal(A, 70, tricks=5, fool_kept=B), "fool.kept-trick", "2.5.3",
                 id="fool-kept-while-side-won-tricks"),
    pytest.param(7, misere([20, 20, 20, 20, 10, 10, 0], fool_kept=G), "fool.misere", "4.5.1",
                 id="seven-misere-fool-kept"),
    pytest.param(4, normal(A, 70, dealer=4), "fact.player", None, id="dealer-seat-5-of-4"),
    pytest.param(3, solo(A, 10, tricks=0, fool_kept=A,
                         tapp=codes("F 2c 3c 4c 5c 6c 2d 3d")), "fool.in-tapp", "2.5.3",
                 id="fool-kept-but-in-the-tapp"),
]


@pytest.mark.parametrize(("n", "hand", "code", "rule"), BAD)
def test_bad_input_is_refused_with_a_reason(n, hand, code, rule):
    refused(n, hand, code, rule)


def test_refusals_name_the_players_and_the_numbers():
    msg = refused(4, normal(A, 70, took=False), "points.no-trick").message
    assert "defenders won no trick" in msg and "not 44" in msg
    msg = refused(7, normal(B, 70, call=call("T20", B)), "call.partner-tappist").message
    assert msg.startswith("B is the Tappist")
    msg = refused(4, normal(A, 100, tricks=7), "points.impossible").message
    assert "38 cards" in msg and "38–90" in msg
    error = refused(4, normal(A, 115), "fact.range")
    assert "115" in error.message and error.explain().startswith("Hand 1: ")


def test_a_kept_fool_gives_a_side_without_tricks_its_5_points_2_5_3():
    out = one(4, normal(A, 109, tricks=13, fool_kept=B))
    assert out.detail["multiplier"] == 3 and out.scores[A] == 90
    out = one(4, normal(A, 17, tricks=0, fool_kept=A, discard_points=12))
    assert out.scores[A] == -90
    one(4, misere([5, 40, 30, 25], tricks=[0, 5, 4, 4], fool_kept=A, tapp_points=14))
    refused(4, misere([6, 40, 30, 24], tricks=[0, 5, 4, 4], fool_kept=A, tapp_points=14),
            "fool.kept-trick")


# =============================================================================================
# 4.1 and 4.5.1: the bidding and the forced game


@pytest.mark.parametrize(
    ("bids", "complete", "game", "declarer"),
    [
        (["pass", "pass", "pass", "pass"], True, None, None),
        (["pass", "normal", "pass", "pass"], True, "normal", 2),
        (["normal", "pass", "pass", "solo"], True, "solo", 0),        # Solo beats normal
        (["pass", "solo"], True, "solo", 2),                          # ends at once
        (["pass", "normal"], False, None, None),
        ([], False, None, None),
    ],
)
def test_bidding_4_1(bids, complete, game, declarer):
    b = bidding(bids, 0, 4)                    # A deals, B speaks first
    assert (b.complete, b.game, b.declarer) == (complete, game, declarer)
    assert b.all_passed == (complete and game is None)


@pytest.mark.parametrize(
    ("fool", "bagatt", "expected"),
    [(3, 5, ("F", 3)), (3, None, ("F", 3)), (None, 5, ("T1", 5)), (None, None, None)],
)
def test_forced_game_holder_4_5_1(fool, bagatt, expected):
    assert forced_game(fool, bagatt) == expected


def test_all_passes_give_a_misere_with_3_to_6_players():
    out = one(4, {"bids": ["pass"] * 4, "end": {"points": [40, 25, 20, 15]},
                  "tapp_points": 14})
    assert out.detail["game"] == "misere" and out.scores == (-30, 10, 10, 10)


def test_complete_bids_decide_game_and_declarer():
    hand = {"bids": ["pass", "normal", "pass", "pass"],
            "end": {"points": 70, "tricks": 7}}
    out = one(4, hand)
    assert out.detail["game"] == "normal" and out.detail["declarer"] == C
    assert out.scores[C] == 30


def test_seven_players_all_passing_must_say_forced_or_misere():
    refused(7, {"bids": ["pass"] * 7, "end": {"points": 70, "tricks": 4}}, "game.missing",
            "4.5.1")


def test_no_misere_throws_the_hand_in_8():
    out = one(4, {"bids": ["pass"] * 4}, no_misere=True)
    assert out.detail["game"] == "thrown-in" and out.complete and out.scores == (0,) * 4
    refused(4, misere([40, 25, 20, 15]), "misere.off", "8", no_misere=True)
    refused(4, {"game": "thrown-in", "end": {"points": [40, 25, 20, 15]}},
            "thrown-in.played", "8", no_misere=True)
    result = play(4, {"game": "thrown-in"}, normal(A, 70), no_misere=True)
    assert [h.dealer for h in result.hands] == [0, 1]         # the deal passes on (2.4)


# =============================================================================================
# 2.4 and 6.1: the dealer, hands in progress


def test_the_deal_passes_to_the_right_and_the_app_proposes_the_next_dealer():
    result = play(3, normal(A, 70), normal(A, 70), normal(A, 70), first_dealer=2)
    assert [h.dealer for h in result.hands] == [2, 0, 1]
    assert result.standing.dealer == 2


def test_a_dealer_out_of_turn_is_recorded_and_the_rotation_follows_him():
    result = play(4, normal(A, 70, dealer=2), normal(A, 70))
    assert [h.dealer for h in result.hands] == [2, 3]
    assert result.hands[0].lines[0].rule == "2.4"
    assert "A was due" in result.hands[0].lines[0].text


def test_only_the_last_hand_may_be_in_progress():
    result = play(4, normal(A, 70), {"bids": ["pass", "normal"]})
    assert result.draft is not None and not result.draft.complete
    assert result.draft.scores == (0, 0, 0, 0)
    assert result.standing.dealer == 1
    with pytest.raises(RuleViolation) as err:
        play(4, {"game": "normal", "declarer": 0}, normal(A, 70))
    assert err.value.code == "hand.unfinished" and err.value.hand == 1


# =============================================================================================
# Settings


def test_settings_defaults_and_canonical_form():
    s = GAME.settings({"players": [" Anna ", "Beat", "Carla"], "first_dealer": 2})
    assert s == {
        "players": ["Anna", "Beat", "Carla"], "first_dealer": 2, "stake": 10,
        "threshold": "standard", "kings_any_number": False, "seven_fives": False,
        "no_misere": False, "misere_least_wins": False, "graechen_deal": False,
    }
    assert GAME.settings(s) == s
    assert GAME.sides(s) == ["Anna", "Beat", "Carla"]


BAD_SETTINGS = [
    pytest.param({"players": list("ABCDEFGHI"), "first_dealer": 0}, "settings.players",
                 id="nine-players"),
    pytest.param({"players": ["A", "B"], "first_dealer": 0}, "settings.players",
                 id="two-players"),
    pytest.param({"players": ["A", "B", "a"], "first_dealer": 0}, "settings.players",
                 id="same-name"),
    pytest.param({"players": ["A", "B", "C"], "first_dealer": 3}, "fact.player",
                 id="dealer-not-a-player"),
    pytest.param({"players": ["A", "B", "C"], "first_dealer": 0, "stake": 0}, "settings.stake",
                 id="stake-0"),
    pytest.param({"players": ["A", "B", "C"], "first_dealer": 0, "stake": 2.5},
                 "settings.stake", id="stake-fraction"),
    pytest.param({"players": ["A", "B", "C"], "first_dealer": 0, "threshold": 29},
                 "settings.threshold", id="threshold-number"),
    pytest.param({"players": ["A", "B", "C"], "first_dealer": 0, "threshold": "Zermatt"},
                 "settings.threshold", id="threshold-unknown"),
    pytest.param({"players": ["A", "B", "C"], "first_dealer": 0, "no_misere": "yes"},
                 "settings.no_misere", id="switch-not-bool"),
    pytest.param({"players": ["A", "B", "C"], "first_dealer": 0, "kings_any_number": True,
                  "seven_fives": True}, "settings.variants", id="kings-conflict"),
    pytest.param({"players": ["A", "B", "C"], "first_dealer": 0, "no_misere": True,
                  "misere_least_wins": True}, "settings.variants", id="misere-conflict"),
    pytest.param({"players": ["A", "B", "C"], "first_dealer": 0, "target": 10},
                 "fact.unknown", id="unknown-setting"),
]


@pytest.mark.parametrize(("raw", "code"), BAD_SETTINGS)
def test_bad_settings_are_refused(raw, code):
    with pytest.raises(RuleViolation) as err:
        GAME.settings(raw)
    assert err.value.code == code and err.value.message


def test_a_ninth_player_is_refused_with_rule_1():
    with pytest.raises(RuleViolation) as err:
        GAME.settings({"players": list("ABCDEFGHI"), "first_dealer": 0})
    assert err.value.rule == "1" and "3 to 8 players" in err.value.message


def test_rules_in_force_print_sizes_stake_preset_and_variants():
    rules = GAME.rules_in_force(settings(7, stake=5, threshold="graechen", no_misere=True))
    text = "\n".join(rules)
    assert "7 players: 8 cards each (4+4), a Tapp of 6" in text
    assert "Stake 5 Rappen" in text and "Grächen" in text and "20 or fewer" in text
    assert "calls a trump I–XX" in text and "thrown in" in text
    assert "Visp is usually" in "\n".join(GAME.rules_in_force(settings(3, threshold="visp")))


# =============================================================================================
# Canonical JSON


EXAMPLES = [
    pytest.param(4, {
        "dealer": 0, "bids": ["pass", "normal", "pass", "pass"], "game": "normal",
        "declarer": 2,
        "discard": ["Qs", "Qb", "9s", "8s", "7s", "6s", "5s", "9b", "8b", "7b"],
        "end": {"points": 71, "defenders": 43, "tricks": 7},
    }, id="normal-with-exchange"),
    pytest.param(3, {
        "game": "solo", "declarer": 0, "tapp_points": 12,
        "end": {"points": 90, "loser_took_trick": True},
    }, id="solo"),
    pytest.param(5, {
        "bids": ["pass"] * 5, "game": "misere", "tapp_points": 9,
        "end": {"points": [30, 30, 20, 15, 10], "tricks": [3, 3, 2, 2, 1]},
    }, id="misere"),
    pytest.param(7, {
        "game": "normal", "declarer": 0, "call": {"trump": "T20", "partner": 3},
        "discard_points": 8, "end": {"points": 62, "tricks": 5},
    }, id="seven-with-partner"),
]


@pytest.mark.parametrize(("n", "raw"), EXAMPLES)
def test_canonical_json_round_trips_and_scores_alike(n, raw):
    canonical = GAME.canonical_hand(raw)
    assert set(canonical) == {
        "dealer", "bids", "game", "declarer", "forced_by", "call", "discard", "discard_points",
        "discard_by", "all_kings_held", "tapp", "tapp_points", "end",
    }
    assert GAME.canonical_hand(canonical) == canonical
    assert parse_hand(canonical) == parse_hand(raw)
    assert hand_to_json(parse_hand(canonical)) == canonical
    assert one(n, raw).scores == one(n, canonical).scores


def test_the_discard_is_written_in_pack_order():
    canonical = GAME.canonical_hand({"discard": "5b Qs 2c T20"})
    assert canonical["discard"] == ["T20", "2c", "Qs", "5b"]
    with pytest.raises(RuleViolation) as err:
        parse_hand({"discard": ["F", "F"]})
    assert err.value.code == "card.twice"


def test_more_facts_never_change_the_score():
    few = normal(C, 71, tricks=7)
    many = normal(C, 71, tricks=7, took=True, defenders=43, dealer=0,
                  bids=["pass", "normal", "pass", "pass"],
                  discard=codes("Qs Qb 9s 8s 7s 6s 5s 9b 8b 7b"), discard_points=16)
    assert one(4, few).scores == one(4, many).scores


def test_card_type_is_the_shared_card():
    assert isinstance(SWISS_TAROT.parse("T21"), Card)
    assert str(Card("T21", TRUMP)) == "T21" and str(Card("F", TRUMP)) == "F"



def test_a_troggu_match_file_round_trips_and_scores():
    from referee.engine.matchfile import MatchFile, dumps, load, standings

    hands = [GAME.canonical_hand(h) for h in (
        normal(B, 70, took=True), solo(C, 64, took=True),
        misere([40, 25, 20, 15], tapp_points=14),
    )]
    match = MatchFile("troggu", settings(4), hands, "2026-11-30")
    loaded = load(dumps(match))
    # the dealers the file leaves out are filled in as the app proposes them (6.1, 2.4)
    assert [h["dealer"] for h in loaded.hands] == [A, B, C]
    assert [{**h, "dealer": None} for h in loaded.hands] == hands
    assert load(dumps(loaded)) == loaded
    out = standings(match)
    assert out["standing"]["totals"] == {"A": -60, "B": 20, "C": 60, "D": -20}
    assert out["standing"]["dealer"] == "D"
    assert "settle-up: A pays C 60 Rappen; D pays B 20 Rappen" in out["standing"]["phase"]
