"""Table-driven tests of the Tartli rules (shared/rules/tartli.md): every row is data copied from
or derived from the rules file, with an id naming what it checks."""

from __future__ import annotations

import pytest
from tartli_helpers import (
    E1_WINNERS,
    PLAIN_END,
    A,
    B,
    claim,
    fold,
    hand,
    played,
    score,
    settings,
)

from referee.engine.cards import HUNGARIAN, Card
from referee.engine.errors import RuleViolation
from referee.engine.games import get
from referee.engine.games.base import Line
from referee.engine.games.tartli.facts import parse_hand
from referee.engine.games.tartli.melds import (
    Conceded,
    SeqMeld,
    SetMeld,
    check_eligible,
    contest_reason,
    contest_winner,
    parse_meld,
    recognize,
    reuse_allowed,
)
from referee.engine.games.tartli.values import (
    card_points,
    pile_range,
    possible_pile,
    trick_winner,
)


def cards(text: str) -> list[Card]:
    return [HUNGARIAN.parse(t) for t in text.split()]


def melds(*texts: str) -> tuple:
    return tuple(parse_meld(t) for t in texts)


def raises(code: str, raw, dealer: int = B) -> RuleViolation:
    with pytest.raises(RuleViolation) as err:
        score(raw, dealer)
    assert err.value.code == code, err.value
    assert err.value.message
    return err.value


# =============================================================================================
# 3. Card values, totals and the trick winner

TRUMP_VALUES = {"O": 20, "9": 14, "A": 11, "10": 10, "K": 4, "U": 2, "8": 0, "7": 0}
PLAIN_VALUES = {"A": 11, "10": 10, "K": 4, "O": 3, "U": 2, "9": 0, "8": 0, "7": 0}


@pytest.mark.parametrize("trumps", "alhb")
@pytest.mark.parametrize("rank", list(TRUMP_VALUES))
def test_card_points_by_rank_trump_and_plain(rank, trumps):
    for suit in "alhb":
        expected = (TRUMP_VALUES if suit == trumps else PLAIN_VALUES)[rank]
        assert card_points(Card(rank, suit), trumps) == expected


@pytest.mark.parametrize("trumps", "alhb")
def test_trumps_61_each_plain_suit_30_whole_pack_151(trumps):
    by_suit = {
        suit: sum(card_points(c, trumps) for c in HUNGARIAN.cards if c.suit == suit)
        for suit in "alhb"
    }
    assert by_suit.pop(trumps) == 61
    assert sorted(by_suit.values()) == [30, 30, 30]
    assert sum(card_points(c, trumps) for c in HUNGARIAN.cards) == 151


@pytest.mark.parametrize("trumps", "alhb")
def test_21_cards_carry_points_and_11_are_worth_nothing(trumps):
    zero = [c for c in HUNGARIAN.cards if card_points(c, trumps) == 0]
    assert len(zero) == 11
    assert {str(c) for c in zero if c.suit == trumps} == {f"8{trumps}", f"7{trumps}"}


TRUMP_ORDER = ["O", "9", "A", "10", "K", "U", "8", "7"]
PLAIN_ORDER = ["A", "10", "K", "O", "U", "9", "8", "7"]


@pytest.mark.parametrize(
    ("led", "second", "winner"),
    [
        *[
            pytest.param(f"{lo}h", f"{hi}h", 1, id=f"trump-{hi}-over-trump-{lo}")
            for i, hi in enumerate(TRUMP_ORDER) for lo in TRUMP_ORDER[i + 1:]
        ],
        *[
            pytest.param(f"{hi}h", f"{lo}h", 0, id=f"led-trump-{hi}-holds-{lo}")
            for i, hi in enumerate(TRUMP_ORDER) for lo in TRUMP_ORDER[i + 1:]
        ],
        *[
            pytest.param(f"{lo}a", f"{hi}a", 1, id=f"plain-{hi}-over-{lo}")
            for i, hi in enumerate(PLAIN_ORDER) for lo in PLAIN_ORDER[i + 1:]
        ],
        *[
            pytest.param(f"{hi}a", f"{lo}a", 0, id=f"led-plain-{hi}-holds-{lo}")
            for i, hi in enumerate(PLAIN_ORDER) for lo in PLAIN_ORDER[i + 1:]
        ],
        pytest.param("Aa", "7h", 1, id="lowest-trump-beats-led-plain-ace"),
        pytest.param("7h", "Aa", 0, id="led-trump-beats-plain-ace"),
        pytest.param("7a", "Al", 0, id="other-plain-suit-never-wins"),
        pytest.param("7a", "Ab", 0, id="other-plain-suit-never-wins-bells"),
    ],
)
def test_trick_winner_rule_2_5(led, second, winner):
    assert trick_winner(HUNGARIAN.parse(led), HUNGARIAN.parse(second), "h") == winner


# =============================================================================================
# 6.3.2 Possible piles: the table of the rules file, copied as data

PILE_TABLE = {
    0: (0, 0, []),
    1: (0, 34, [1, 9, 19, 26, 27, 28, 29, 32, 33]),
    2: (0, 56, [1]),
    3: (0, 78, [1]),
    4: (0, 98, [1, 95]),
    5: (0, 118, [1, 113, 114, 115, 116, 117]),
    6: (2, 126, []),
    7: (6, 134, []),
    8: (11, 140, []),
    9: (17, 145, []),
    10: (25, 149, []),
    11: (33, 151, [34, 35, 36, 37, 38, 150]),
    12: (53, 151, [56, 150]),
    13: (73, 151, [150]),
    14: (95, 151, [150]),
    15: (117, 151, [118, 119, 122, 123, 124, 125, 132, 142, 150]),
    16: (151, 151, []),
}


@pytest.mark.parametrize("w", list(PILE_TABLE), ids=[f"w={w}" for w in PILE_TABLE])
def test_possible_piles_table_6_3_2(w):
    low, high, holes = PILE_TABLE[w]
    assert pile_range(w) == (low, high)
    for count in range(-2, 155):
        expected = low <= count <= high and count not in holes
        assert possible_pile(count, w) is expected, (w, count)


def test_1_and_150_are_never_possible_piles():
    assert not any(possible_pile(c, w) for w in range(17) for c in (1, 150))


@pytest.mark.parametrize(
    ("won", "piles", "ok"),
    [
        pytest.param("A" + "B" * 15, (9, 142), False, id="one-trick-pile-9"),
        pytest.param("A" + "B" * 15, (34, 117), True, id="one-trick-pile-34-max"),
        pytest.param("A" + "B" * 15, (35, 116), False, id="one-trick-pile-35-over-max"),
        pytest.param("A" + "B" * 15, (0, 151), True, id="fifteen-tricks-all-points"),
        pytest.param("AB" * 3 + "A" * 10, (126, 25), True, id="thirteen-and-three"),
        pytest.param("A" * 5 + "BBBBBAAAAAA", (38, 113), False, id="eleven-38-five-113"),
        pytest.param("A" * 5 + "BBBBBAAAAAA", (113, 38), True, id="eleven-113-five-38"),
        pytest.param("A" * 6 + "BBBBBBBBBB", (2, 149), True, id="six-tricks-min-2"),
        pytest.param("A" * 6 + "BBBBBBBBBB", (1, 150), False, id="six-tricks-pile-1"),
    ],
)
def test_possible_piles_checked_on_played_hands(won, piles, ok):
    last = A if won[-1] == "A" else B
    stich = A if set(won[7:]) == {"A"} else B if set(won[7:]) == {"B"} else None
    raw = hand(won, end=played(piles, last, stich))
    if ok:
        assert sum(score(raw).tricks) == 161
    else:
        raises("piles.impossible", raw)


# =============================================================================================
# 4.1 Meld recognition from the cards shown (recognize)


@pytest.mark.parametrize(
    ("shown", "expected"),
    [
        pytest.param("Oa Ol Oh Ob", ["set:O"], id="four-overs"),
        pytest.param("9a 9l 9h 9b", ["set:9"], id="four-nines"),
        pytest.param("Ab Aa Ah Al", ["set:A"], id="four-aces-any-order"),
        pytest.param("10a 10l 10h 10b", ["set:10"], id="four-tens"),
        pytest.param("Ka Kl Kh Kb", ["set:K"], id="four-kings"),
        pytest.param("Ua Ul Uh Ub", ["set:U"], id="four-unders"),
        pytest.param("Ah Kh Oh", ["seq:h/A/3"], id="terc-to-the-ace"),
        pytest.param("9l 8l 7l", ["seq:l/9/3"], id="lowest-terc"),
        pytest.param("Uh Kh Oh", ["seq:h/K/3"], id="terc-unordered"),
        pytest.param("Ob Ub 10b 9b", ["seq:b/O/4"], id="kvart"),
        pytest.param("Oa Ua 10a 9a 8a", ["seq:a/O/5"], id="over-kvint"),
        pytest.param("Kl Ol Ul 10l 9l 8l", ["seq:l/K/6"], id="szext"),
        pytest.param("Kh Oh Uh 10h 9h 8h 7h", ["seq:h/K/7"], id="szept"),
        pytest.param("Ah Kh Oh Uh 10h 9h 8h 7h", ["seq:h/A/8"], id="okt"),
        pytest.param("Ua Ul Uh Ub Oh 10h", ["set:U", "seq:h/O/3"], id="set-and-terc-sharing"),
        pytest.param("Ka Kl Kh Kb Aa Oa", ["set:K", "seq:a/A/3"], id="e3e-set-and-terc-sharing"),
        pytest.param(
            "Aa Al Ah Ab 10b 9b 8b", ["set:A", "seq:b/10/3"], id="e2-set-and-terc-apart",
        ),
        pytest.param(
            "9a 9l 9h 9b Kh Oh Uh 10h", ["set:9", "seq:h/K/5"], id="set-and-kvint-sharing",
        ),
    ],
)
def test_recognize_meld_from_cards(shown, expected):
    assert [str(m) for m in recognize(cards(shown))] == expected


@pytest.mark.parametrize(
    ("shown", "code"),
    [
        pytest.param("8a 8l 8h 8b", "meld.no-set", id="no-set-of-eights"),
        pytest.param("7a 7l 7h 7b", "meld.no-set", id="no-set-of-sevens"),
        pytest.param("Aa Al Ah", "meld.not-a-meld", id="three-aces"),
        pytest.param("Kh Oh", "meld.not-a-meld", id="two-cards"),
        pytest.param("Ah", "meld.not-a-meld", id="one-card"),
        pytest.param("Kh Oh 10h", "meld.not-a-meld", id="gap-in-sequence"),
        pytest.param("Ah Kh Oa", "meld.not-a-meld", id="mixed-suits"),
        pytest.param("Ah 7h 8h", "meld.not-a-meld", id="no-wrap-around"),
        pytest.param("Aa Al Ah Ab Ka Kl Kh Kb", "meld.not-a-meld", id="two-sets"),
        pytest.param("Aa Al Ah Ab Kh 10h", "meld.not-a-meld", id="set-and-non-sequence"),
        pytest.param("Ah Kh Oh 9a 8a 7a", "meld.not-a-meld", id="two-sequences"),
    ],
)
def test_recognize_refuses_what_is_not_one_declaration(shown, code):
    with pytest.raises(RuleViolation) as err:
        recognize(cards(shown))
    assert err.value.code == code


@pytest.mark.parametrize(
    ("text", "points"),
    [
        ("seq:h/A/3", 20), ("seq:h/9/3", 20), ("seq:a/K/4", 50), ("seq:b/10/4", 50),
        ("seq:l/A/5", 100), ("seq:l/U/5", 100), ("seq:h/A/6", 100), ("seq:h/O/6", 100),
        ("seq:a/A/7", 100), ("seq:a/K/7", 100), ("seq:b/A/8", 100),
        ("set:O", 200), ("set:9", 150), ("set:A", 100), ("set:10", 100), ("set:K", 100),
        ("set:U", 100),
    ],
)
def test_meld_points_table_4_1(text, points):
    assert parse_meld(text).points == points


@pytest.mark.parametrize(
    ("text", "code"),
    [
        pytest.param("set:8", "meld.no-set", id="set-of-8"),
        pytest.param("set:7", "meld.no-set", id="set-of-7"),
        pytest.param("seq:h/10/5", "meld.top", id="kvint-cannot-start-at-10"),
        pytest.param("seq:h/K/8", "meld.top", id="okt-only-from-ace"),
        pytest.param("seq:h/8/3", "meld.top", id="terc-cannot-start-at-8"),
        pytest.param("seq:h/7/3", "meld.top", id="terc-cannot-start-at-7"),
        pytest.param("seq:h/A/2", "meld.length", id="two-cards"),
        pytest.param("seq:h/A/9", "meld.length", id="nine-cards"),
        pytest.param("seq:x/A/3", "meld.unknown", id="no-such-suit"),
        pytest.param("seq:h/Q/3", "meld.unknown", id="no-such-rank"),
        pytest.param("bela", "meld.unknown", id="bela-is-not-a-trick-declaration"),
        pytest.param(3, "meld.unknown", id="not-text"),
    ],
)
def test_meld_composition_errors_6_3_4(text, code):
    with pytest.raises(RuleViolation) as err:
        parse_meld(text)
    assert err.value.code == code


@pytest.mark.parametrize(
    ("meld", "code"),
    [("set:8", "meld.no-set"), ("set:7", "meld.no-set"), ("seq:l/9/4", "meld.top")],
)
def test_composition_errors_in_a_hand_6_3_4(meld, code):
    raises(code, hand(E1_WINNERS, {2: ([meld], [])}, end=played((88, 63), A)))


def test_recognize_nothing_shown_is_no_declaration():
    assert recognize([]) == ()


@pytest.mark.parametrize("length", range(3, 9))
def test_sequence_tops_fit_their_length(length):
    order = HUNGARIAN.ranks
    for position, top in enumerate(order, 1):
        text = f"seq:a/{top}/{length}"
        if position <= 9 - length:
            assert parse_meld(text) == SeqMeld("a", top, length)
        else:
            with pytest.raises(RuleViolation):
                parse_meld(text)


# =============================================================================================
# 4.2 Ranking of declared melds (contest_winner, contest_reason); trumps are hearts

LEADER, SECOND = 0, 1
SET_ORDER = ["O", "9", "A", "10", "K", "U"]      # 4.2.2, strongest first

RANKING = [
    # 4.2.1 any set beats any sequence
    pytest.param(["set:U"], ["seq:h/A/8"], LEADER, "4.2.1", id="4.2.1-unders-beat-trump-okt"),
    pytest.param(["seq:h/A/8"], ["set:U"], SECOND, "4.2.1", id="4.2.1-second-set-beats-okt"),
    pytest.param(["set:U"], ["seq:a/K/7"], LEADER, "4.2.1", id="4.2.1-leader-set-holds"),
    pytest.param(
        ["seq:h/A/5"], ["set:U", "seq:b/K/3"], SECOND, "4.2.1",
        id="4.2.1-set-is-the-best-item-not-the-terc",
    ),
    # 4.2.2 set against set
    *[
        pytest.param([f"set:{lo}"], [f"set:{hi}"], SECOND, "4.2.2", id=f"4.2.2-{hi}-over-{lo}")
        for i, hi in enumerate(SET_ORDER) for lo in SET_ORDER[i + 1:]
    ],
    *[
        pytest.param([f"set:{hi}"], [f"set:{lo}"], LEADER, "4.2.2", id=f"4.2.2-{hi}-holds-{lo}")
        for i, hi in enumerate(SET_ORDER) for lo in SET_ORDER[i + 1:]
    ],
    pytest.param(
        ["set:K", "seq:a/A/7"], ["set:A"], SECOND, "4.2.2",
        id="4.2.2-best-item-is-the-set-whatever-the-sequence",
    ),
    # 4.2.3 longer sequence wins
    pytest.param(["seq:h/A/3"], ["seq:a/10/4"], SECOND, "4.2.3",
                 id="4.2.3-low-kvart-over-trump-terc"),
    pytest.param(["seq:a/U/5"], ["seq:h/A/4"], LEADER, "4.2.3", id="4.2.3-kvint-holds-kvart"),
    pytest.param(["seq:l/A/6"], ["seq:b/A/7"], SECOND, "4.2.3", id="4.2.3-szept-over-szext"),
    pytest.param(["seq:l/A/7"], ["seq:b/A/8"], SECOND, "4.2.3", id="4.2.3-okt-over-szept"),
    # 4.2.4 equal length: higher top
    pytest.param(["seq:h/O/4"], ["seq:a/K/4"], SECOND, "4.2.4", id="4.2.4-king-over-trump-over"),
    pytest.param(["seq:a/A/3"], ["seq:h/K/3"], LEADER, "4.2.4", id="4.2.4-ace-holds-trump-king"),
    pytest.param(["seq:a/U/4"], ["seq:l/K/4"], SECOND, "4.2.4", id="4.2.4-e3a"),
    pytest.param(["seq:b/10/3"], ["seq:a/U/3"], SECOND, "4.2.4", id="4.2.4-under-over-ten"),
    # 4.2.5 equal length and top: trumps
    pytest.param(["seq:a/O/4"], ["seq:h/O/4"], SECOND, "4.2.5", id="4.2.5-second-in-trumps"),
    pytest.param(["seq:h/9/3"], ["seq:a/9/3"], LEADER, "4.2.5", id="4.2.5-leader-in-trumps"),
    # 4.2.6 equal, neither in trumps: leader
    pytest.param(["seq:a/O/4"], ["seq:b/O/4"], LEADER, "4.2.6", id="4.2.6-e3d-leader"),
    pytest.param(["seq:l/A/8"], ["seq:b/A/8"], LEADER, "4.2.6", id="4.2.6-two-okts"),
]


@pytest.mark.parametrize(("leader", "second", "winner", "rule"), RANKING)
def test_meld_ranking_4_2(leader, second, winner, rule):
    lm, sm = melds(*leader), melds(*second)
    assert contest_winner(lm, sm, "h") == winner
    assert f"({rule})" in contest_reason(lm, sm, "h")


@pytest.mark.parametrize(
    ("leader", "second", "winner"),
    [
        pytest.param([], [], None, id="nobody"),
        pytest.param(["seq:h/A/3"], [], LEADER, id="leader-only"),
        pytest.param([], ["seq:a/9/3"], SECOND, id="second-only"),
    ],
)
def test_only_one_declaration_scores_without_a_contest(leader, second, winner):
    assert contest_winner(melds(*leader), melds(*second), "h") == winner


def test_meld_keys_follow_the_implementation_note_of_4_2():
    assert SetMeld("O").key("h") > SetMeld("9").key("h") > SetMeld("A").key("h")
    assert SetMeld("A").key("h") > SetMeld("10").key("h") > SetMeld("K").key("h")
    assert SetMeld("K").key("h") > SetMeld("U").key("h") > SeqMeld("h", "A", 8).key("h")
    assert SeqMeld("a", "K", 4).key("h") == (0, 4, 7, 0)
    assert SeqMeld("h", "K", 4).key("h") == (0, 4, 7, 1)


# Conceded announcements (6.1.4): accepted only if some matching full declaration would lose
CONCEDED = [
    pytest.param(["seq:?/4"], ["seq:l/K/4"], SECOND, id="e3a-announced-kvart-loses-to-king-kvart"),
    pytest.param(["set:O"], ["set:?"], LEADER, id="any-set-loses-to-overs"),
    pytest.param(["set:?"], ["set:O"], SECOND, id="leader-set-loses-to-overs"),
    pytest.param(["set:?", "seq:?/3"], ["set:O"], SECOND, id="e3b-vannak-and-terc"),
    pytest.param(["seq:a/9/3"], ["seq:?/3"], LEADER, id="equal-plain-terc-loses-to-leader"),
    pytest.param(["seq:?/3"], ["set:U"], SECOND, id="any-sequence-loses-to-a-set"),
    pytest.param(["seq:h/A/5"], ["seq:?/5"], LEADER, id="kvint-loses-to-trump-ace-kvint"),
]

CONCEDED_IMPOSSIBLE = [
    pytest.param(["set:?"], ["set:U"], "meld.conceded-cannot-lose", id="no-set-is-below-unders"),
    pytest.param(
        ["set:U"], ["set:?"], "meld.conceded-cannot-lose",
        id="no-other-set-loses-to-unders",
    ),
    pytest.param(["seq:?/3"], ["seq:a/9/3"], "meld.conceded-cannot-lose",
                 id="leader-terc-would-tie-and-win"),
    pytest.param(["seq:h/A/3"], ["seq:?/4"], "meld.conceded-cannot-lose",
                 id="any-kvart-beats-a-terc"),
    pytest.param(["seq:h/A/8"], ["set:?"], "meld.conceded-cannot-lose",
                 id="any-set-beats-an-okt"),
    pytest.param(["seq:?/4"], ["seq:?/4"], "meld.conceded-both", id="both-conceded"),
    pytest.param(["seq:?/4"], [], "meld.conceded-wins", id="conceded-alone-would-win"),
    pytest.param([], ["set:?"], "meld.conceded-wins", id="conceded-second-alone"),
]


@pytest.mark.parametrize(("leader", "second", "winner"), CONCEDED)
def test_conceded_announcement_accepted_when_it_can_lose_6_1_4(leader, second, winner):
    assert contest_winner(melds(*leader), melds(*second), "h") == winner


@pytest.mark.parametrize(("leader", "second", "code"), CONCEDED_IMPOSSIBLE)
def test_conceded_announcement_refused_when_it_cannot_lose_6_1_4(leader, second, code):
    with pytest.raises(RuleViolation) as err:
        contest_winner(melds(*leader), melds(*second), "h")
    assert err.value.code == code


def test_conceded_melds_score_nothing_and_show_no_cards():
    # B's conceded set shows no cards, so A's set of Aces cannot clash with it
    s = score(hand("A", {1: (["set:A"], ["set:?"])}, end=None))
    assert s.melds == [100, 0]
    assert Conceded("set").cards == frozenset()


# =============================================================================================
# 4.5 Eligibility of the second player

ELIGIBILITY = [
    # leader declared nothing: no restriction
    pytest.param([], ["seq:h/A/3"], True, id="nothing-then-terc"),
    pytest.param([], ["set:U"], True, id="nothing-then-set"),
    pytest.param([], ["set:A", "seq:b/10/3"], True, id="nothing-then-set-and-sequence"),
    # leader declared a set (with or without a sequence): the second needs a set
    pytest.param(["set:A"], ["set:O"], True, id="set-then-set"),
    pytest.param(["set:A"], ["set:U"], True, id="set-then-lower-set-eligible-but-loses"),
    pytest.param(["set:A"], ["set:O", "seq:b/K/3"], True, id="set-then-set-and-sequence"),
    pytest.param(["set:A"], ["seq:b/A/8"], False, id="set-then-okt-alone"),
    pytest.param(["set:A", "seq:h/10/3"], ["set:O"], True, id="set-and-terc-then-set"),
    pytest.param(["set:K", "seq:a/A/3"], ["seq:b/O/5"], False, id="e3b-set-and-terc-then-kvint"),
    pytest.param(["set:?"], ["seq:b/A/8"], False, id="announced-set-then-okt"),
    # leader declared only a sequence of length n: a set, or a sequence of length >= n
    pytest.param(["seq:a/U/4"], ["seq:l/K/4"], True, id="kvart-then-kvart"),
    pytest.param(["seq:a/U/4"], ["seq:l/K/5"], True, id="kvart-then-kvint"),
    pytest.param(["seq:a/U/4"], ["set:U", "seq:l/K/3"], True, id="kvart-then-set-with-terc"),
    pytest.param(["seq:a/U/4"], ["set:U"], True, id="kvart-then-set"),
    pytest.param(["seq:a/U/4"], ["seq:l/K/3"], False, id="e3a-kvart-then-terc-alone"),
    pytest.param(["seq:a/U/4"], ["seq:l/9/3"], False, id="kvart-then-low-terc"),
    pytest.param(["seq:?/4"], ["seq:l/K/3"], False, id="announced-kvart-then-terc"),
    pytest.param(["seq:h/A/3"], ["seq:a/9/3"], True, id="terc-then-terc-eligible-but-loses"),
    pytest.param(["seq:a/A/8"], ["seq:l/A/7"], False, id="okt-then-szept"),
    pytest.param(["seq:a/A/8"], ["seq:l/A/8"], True, id="okt-then-okt"),
    pytest.param(["seq:a/A/5"], ["seq:?/5"], True, id="kvint-then-announced-kvint"),
    pytest.param(["seq:a/A/5"], ["seq:?/4"], False, id="kvint-then-announced-kvart"),
    pytest.param(["seq:a/A/5"], ["set:?"], True, id="kvint-then-announced-set"),
]


@pytest.mark.parametrize(("leader", "second", "ok"), ELIGIBILITY)
def test_second_player_eligibility_4_5(leader, second, ok):
    lm, sm = melds(*leader), melds(*second)
    if ok:
        check_eligible(lm, sm)
    else:
        with pytest.raises(RuleViolation) as err:
            check_eligible(lm, sm)
        assert err.value.code == "meld.not-eligible"
        assert err.value.rule == "4.5"


@pytest.mark.parametrize(
    "b_melds",
    [
        pytest.param(["seq:l/9/3"], id="bela-only-leader-then-terc"),
        pytest.param(["set:U"], id="bela-only-leader-then-set"),
    ],
)
def test_leader_who_declared_only_bela_declared_nothing_4_5(b_melds):
    s = score(hand("A", {1: ([], b_melds)}, bela=(A, 1)))
    assert s.bela == [40, 0]
    assert s.melds[B] == parse_meld(b_melds[0]).points


def test_eligibility_checked_in_a_hand_with_the_second_named():
    err = raises("meld.not-eligible", hand("A", {1: (["seq:a/U/4"], ["seq:l/K/3"])}))
    assert "B may not declare" in err.message


def test_eligibility_uses_the_derived_leader():
    # B leads trick 2 (he won trick 1): B's kvart then A's terc is the refused order
    raises("meld.not-eligible", hand("BB", {2: (["seq:l/K/3"], ["seq:a/U/4"])}))
    # A leads trick 2 (he won trick 1): A's terc then B's kvart is fine
    s = score(hand("AB", {2: (["seq:l/K/3"], ["seq:a/U/4"])}))
    assert s.melds == [0, 50]


# =============================================================================================
# 4.6.3 The re-use rule: the reference cases, and the Over-kvint order of E5

REUSE = [
    pytest.param("seq:h/K/4", "seq:h/A/3", True, id="after-K4-A3-higher-top-a"),
    pytest.param("seq:h/K/4", "seq:h/K/5", True, id="after-K4-K5-same-top-longer-b"),
    pytest.param("seq:h/K/4", "seq:h/K/3", False, id="after-K4-K3-too-short"),
    pytest.param("seq:h/K/4", "seq:h/O/5", False, id="after-K4-O5-too-low"),
    pytest.param("seq:h/A/4", "seq:h/9/3", True, id="after-A4-93-gap-c"),
    pytest.param("seq:h/A/4", "seq:h/10/3", False, id="after-A4-103-adjacent"),
    pytest.param("seq:h/K/4", "seq:h/K/4", False, id="same-sequence-again"),
    pytest.param("seq:h/A/3", "seq:h/10/3", True, id="e4-A3-then-103-gap"),
    pytest.param("seq:h/10/3", "seq:h/10/4", True, id="e4-103-then-104-longer"),
    pytest.param("seq:h/A/3", "seq:h/10/4", True, id="e4-A3-then-104-gap"),
    pytest.param("seq:h/A/3", "seq:h/U/3", False, id="e4-A3-then-U3-adjacent"),
    pytest.param("seq:h/9/3", "seq:h/A/4", True, id="higher-top-overlapping-nothing"),
    pytest.param("seq:h/A/8", "seq:h/A/8", False, id="okt-twice"),
    pytest.param("seq:h/U/5", "seq:h/A/3", True, id="higher-top-adjacent-a"),
    pytest.param("seq:h/K/3", "seq:h/9/3", True, id="K3-then-93-gap-of-10"),
    pytest.param("seq:h/K/3", "seq:h/10/3", False, id="K3-then-103-adjacent"),
]


@pytest.mark.parametrize(("scored", "new", "ok"), REUSE)
def test_reuse_rule_4_6_3(scored, new, ok):
    assert reuse_allowed(parse_meld(new), parse_meld(scored)) is ok


OVER_KVINT = ["seq:a/10/3", "seq:a/U/3", "seq:a/U/4", "seq:a/O/3", "seq:a/O/4", "seq:a/O/5"]


@pytest.mark.parametrize("index", range(1, len(OVER_KVINT)), ids=OVER_KVINT[1:])
def test_over_kvint_order_each_step_passes_against_every_earlier(index):
    new = parse_meld(OVER_KVINT[index])
    assert all(reuse_allowed(new, parse_meld(old)) for old in OVER_KVINT[:index])


def test_over_kvint_order_is_the_only_workable_one():
    """Among the six sequences inside O U 10 9 8 (tops O, U, 10), E5's order is the only one in
    which each passes the test against all earlier ones (4.6.3)."""
    from itertools import permutations

    inside = [parse_meld(t) for t in OVER_KVINT]
    workable = [
        order for order in permutations(inside)
        if all(
            reuse_allowed(order[i], order[j]) for i in range(len(order)) for j in range(i)
        )
    ]
    assert [[str(m) for m in order] for order in workable] == [OVER_KVINT]


@pytest.mark.parametrize("later", OVER_KVINT[:-1])
def test_over_kvint_declared_first_blocks_the_rest(later):
    assert not reuse_allowed(parse_meld(later), parse_meld("seq:a/O/5"))


def test_reuse_is_checked_against_each_own_scored_sequence_only():
    # the opponent's sequences in the same suit do not matter: A's Ace-terc, B's Under-terc
    s = score(hand("AB", {1: (["seq:h/A/3"], []), 2: ([], ["seq:h/U/3"])}, indicator="8a"))
    assert s.melds == [20, 20]
    # an unscored (beaten) sequence does not restrict: A's kvart loses to B's set, then A
    # declares the terc inside it
    s = score(hand("AA", {1: (["seq:h/A/4"], ["set:9"]), 2: (["seq:h/K/3"], [])}, indicator="8a"))
    assert s.melds == [20, 150]
    # a scored sequence in another suit does not restrict
    s = score(hand("AA", {1: (["seq:l/A/4"], []), 2: (["seq:h/K/3"], [])}, indicator="8a"))
    assert s.melds == [70, 0]
    # but A's own scored kvart does
    raises("meld.reuse", hand("AA", {1: (["seq:h/A/4"], []), 2: (["seq:h/K/3"], [])},
                              indicator="8a"))


def test_unscored_meld_may_be_declared_again_and_then_score_4_6_1():
    s = score(hand("AAA", {1: (["seq:l/O/4"], ["set:A"]), 3: (["seq:l/O/4"], [])}))
    assert s.melds == [50, 100]


def test_set_scoring_twice_is_an_error_4_6_2():
    raises("meld.set-twice", hand("AA", {1: (["set:A"], []), 2: (["set:A"], [])}))
    # a set that lost may be declared again and score
    s = score(hand("AA", {1: (["set:A"], ["set:O"]), 2: (["set:A"], [])}))
    assert s.melds == [100, 200]


# =============================================================================================
# 4.3.2–4.3.3 At most one set and one sequence per trick; at most 9 cards shown at once


@pytest.mark.parametrize(
    ("a_melds", "bela", "code"),
    [
        pytest.param(["set:A", "set:K"], None, "meld.too-many", id="two-sets"),
        pytest.param(["seq:a/A/3", "seq:l/A/3"], None, "meld.too-many", id="two-sequences"),
        pytest.param(["set:A", "seq:b/A/7"], None, "meld.too-many-cards",
                     id="set-and-szept-sharing-is-10-cards"),
        pytest.param(["set:U", "seq:b/K/8"], None, "meld.top", id="okt-from-king-impossible"),
        pytest.param(["set:A", "seq:b/K/6"], None, "meld.too-many-cards",
                     id="set-and-szext-apart-is-10-cards"),
        pytest.param(["set:U", "seq:b/K/6"], (A, 1), "meld.too-many-cards",
                     id="set-szext-sharing-and-bela-is-11-cards"),
        pytest.param(["set:A", "seq:l/K/4"], (A, 1), "meld.too-many-cards",
                     id="set-kvart-and-bela-is-10-cards"),
    ],
)
def test_declaration_limits_4_3(a_melds, bela, code):
    raises(code, hand("A", {1: (a_melds, [])}, bela=bela))


@pytest.mark.parametrize(
    ("a_melds", "bela", "points"),
    [
        pytest.param(["set:U", "seq:b/K/6"], None, 200, id="set-and-szext-sharing-is-9-cards"),
        pytest.param(["set:A", "seq:l/K/4"], None, 150, id="set-and-kvart-is-8-cards"),
        pytest.param(["set:A", "seq:l/K/4"], (A, 2), 150, id="bela-in-another-trick"),
        pytest.param(["seq:a/A/5"], (A, 1), 100, id="trump-kvint-holding-bela-is-5-cards"),
        pytest.param(["set:9", "seq:a/K/5"], (A, 1), 250,
                     id="set-trump-kvint-and-bela-is-8-cards"),
    ],
)
def test_declaration_within_limits_4_3(a_melds, bela, points):
    # trumps are acorns here (indicator 7a): béla is Ka + Oa
    s = score(hand("AA", {1: (a_melds, [])}, bela=bela, indicator="7a"))
    assert s.melds == [points, 0]


# =============================================================================================
# 6.3.3 Windows


def test_meld_in_trick_8_is_allowed_and_in_trick_9_is_refused():
    s = score(hand(E1_WINNERS, {8: (["seq:l/A/3"], [])}, end=played((88, 63), A)))
    assert s.melds == [20, 0]
    for number in (9, 12, 16):
        raises("meld.window", hand(E1_WINNERS, {number: (["seq:l/A/3"], [])},
                                   end=played((88, 63), A)))


@pytest.mark.parametrize(
    ("bela_trick", "ok"),
    [(1, True), (8, True), (9, False), (16, False), (0, False)],
    ids=["trick-1", "trick-8", "trick-9", "trick-16", "trick-0"],
)
def test_bela_window_until_trick_8_is_complete_4_7(bela_trick, ok):
    raw = hand(E1_WINNERS, bela=(A, bela_trick), end=played((88, 63), A))
    if ok:
        s = score(raw)
        assert s.bela == [40, 0] and s.scores == (138, 63)
    else:
        err = raises("fact.range", raw)
        assert err.rule == "4.7"


@pytest.mark.parametrize(
    ("exchange", "code"),
    [(0, "fact.range"), (8, "fact.range"), (9, "fact.range"), (True, "fact.number")],
    ids=["before-trick-0", "before-trick-8", "before-trick-9", "boolean"],
)
def test_exchange_window_tricks_1_to_7_2_8(exchange, code):
    raises(code, hand(E1_WINNERS, exchange=exchange, end=played((88, 63), A)))


@pytest.mark.parametrize("k", range(1, 8))
def test_exchange_before_any_of_tricks_1_to_7_scores_nothing(k):
    s = score(hand(E1_WINNERS, exchange=k, end=played((88, 63), A)))
    assert s.scores == (98, 63)


@pytest.mark.parametrize("indicator", ["7h", "7a", "7l", "7b"])
def test_no_exchange_when_the_indicator_is_the_trump_7(indicator):
    raises("exchange.indicator-seven",
           hand(E1_WINNERS, exchange=3, indicator=indicator, end=played((88, 63), A)))
    assert score(hand(E1_WINNERS, indicator=indicator, end=played((88, 63), A))).scores == (
        98, 63)


def test_no_trick_after_a_claim_6_3_3():
    raises("claim.after", hand("ABAB", end=claim(A, 3, (20, 10))))
    raises("claim.after", hand("ABA", bela=(A, 5), end=claim(A, 3, (20, 10))))
    raises("claim.after", hand("ABA", exchange=5, end=claim(A, 3, (20, 10))))
    # the trick in progress at the claim is trick completed + 1, not later
    raises("claim.after", hand("AB", in_progress=(["seq:l/A/3"], []), end=claim(A, 3, (20, 10))))


@pytest.mark.parametrize(
    ("count", "ok"),
    [(0, True), (3, True), (8, True), (9, False), (12, False), (15, False), (16, True)],
)
def test_played_out_hand_records_16_tricks_6_3_3(count, ok):
    """6.3.3 asks for exactly 16 tricks. The engine also accepts a record that stops after the
    meld tricks (at most 8), piles and last trick giving the rest (commit f483f77)."""
    won = "ABBAABAABAABBABA"[:count]
    raw = hand(won, end=played((88, 63), A))
    if ok:
        assert sum(score(raw).tricks) == 161
    else:
        raises("trick.count", raw)


def test_unfinished_trick_in_a_played_out_hand_and_gaps_6_3_3():
    raw = hand(E1_WINNERS[:-1], end=played((88, 63), A))
    raw["tricks"].append({"winner": None, "melds": [[], []]})
    raises("trick.unfinished", raw)
    raw = hand(E1_WINNERS, end=played((88, 63), A))
    raw["tricks"][3]["winner"] = None
    raises("trick.order", raw)


# =============================================================================================
# 6.3.6 Card holding (indicator 8h unless stated; B deals, A leads trick 1)

CARD_HOLDING_ERRORS = [
    pytest.param({2: (["set:A"], []), 5: ([], ["set:A"])}, None, None, "cards.both",
                 id="both-show-set-of-aces"),
    *[
        pytest.param({2: ([f"seq:b/{top}/5"], []), 5: ([], ["set:U"])}, None, None,
                     "cards.both", id=f"kvint-to-the-{top}-and-set-of-unders")
        for top in "AKOU"
    ],
    pytest.param({2: (["seq:h/A/3"], [])}, (B, 5), None, "cards.both",
                 id="bela-by-b-after-a-showed-the-trump-king"),
    pytest.param({6: (["seq:h/O/3"], [])}, (B, 2), None, "cards.both",
                 id="trump-over-shown-after-b-declared-bela"),
    pytest.param({2: (["seq:a/K/3"], ["seq:a/O/3"])}, None, None, "cards.both",
                 id="same-trick-overlapping-sequences"),
    # the indicator (8h): nobody before it is taken; only the loser of trick 7, in trick 8
    pytest.param({3: (["seq:h/10/3"], [])}, None, None, "cards.indicator",
                 id="indicator-before-trick-8"),
    pytest.param({8: (["seq:h/10/3"], [])}, None, None, "cards.indicator",
                 id="indicator-in-trick-8-by-the-winner-of-trick-7"),
]


@pytest.mark.parametrize(("melds_", "bela", "exchange", "code"), CARD_HOLDING_ERRORS)
def test_card_holding_errors_6_3_6(melds_, bela, exchange, code):
    raises(code, hand(E1_WINNERS, melds_, bela=bela, exchange=exchange, end=played((88, 63), A)))


# E1_WINNERS: A wins trick 7, so B is the loser of trick 7 and takes the indicator.
# With an exchange before trick k the leader of trick k holds the indicator from then on:
# leaders (B deals): 1 A, 2 A, 3 B, 4 B, 5 A, 6 A, 7 B.


def _play(melds_, *, indicator="8h", exchange=None, bela=None):
    return hand(E1_WINNERS, melds_, indicator=indicator, exchange=exchange, bela=bela,
                end=played((88, 63), A))


def test_indicator_shown_in_trick_8_by_the_loser_of_trick_7():
    s = score(_play({8: ([], ["seq:h/10/3"])}))
    assert s.melds == [0, 20]


@pytest.mark.parametrize(
    ("bela", "ok"),
    [((B, 8), True), ((A, 8), False), ((B, 7), False), ((B, 1), False)],
    ids=["loser7-after-the-draw", "winner7", "loser7-before-trick-7-draw", "at-the-deal"],
)
def test_indicator_trump_king_in_a_bela(bela, ok):
    raw = _play({}, indicator="Kh", bela=bela)
    if ok:
        assert score(raw).bela == [0, 40]
    else:
        raises("cards.indicator", raw)


@pytest.mark.parametrize(
    ("melds_", "ok"),
    [
        pytest.param({3: ([], ["seq:h/K/3"])}, True, id="exchanger-in-the-exchange-trick"),
        pytest.param({4: ([], ["seq:h/K/3"])}, True, id="exchanger-later"),
        pytest.param({8: ([], ["seq:h/K/3"])}, True, id="exchanger-in-trick-8"),
        pytest.param({2: ([], ["seq:h/K/3"])}, False, id="exchanger-before-the-exchange"),
        pytest.param({5: (["seq:h/K/3"], [])}, False, id="other-player-after-the-exchange"),
        pytest.param({8: (["seq:h/K/3"], [])}, False, id="other-player-in-trick-8"),
    ],
)
def test_exchanged_indicator_belongs_to_the_leader_who_exchanged(melds_, ok):
    # exchange before trick 3, led by B: B gives the trump 7 for the indicator Oh
    raw = _play(melds_, indicator="Oh", exchange=3)
    if ok:
        assert score(raw).melds == [0, 20]
    else:
        raises("cards.indicator", raw)


def test_exchanged_indicator_in_a_bela_by_the_exchanger():
    assert score(_play({}, indicator="Oh", exchange=3, bela=(B, 3))).bela == [0, 40]
    raises("cards.indicator", _play({}, indicator="Oh", exchange=3, bela=(B, 2)))
    raises("cards.indicator", _play({}, indicator="Oh", exchange=3, bela=(A, 5)))


@pytest.mark.parametrize(
    ("melds_", "code"),
    [
        pytest.param({2: ([], ["seq:h/9/3"])}, None, id="exchanger-before-the-exchange"),
        pytest.param({8: ([], ["seq:h/9/3"])}, None, id="loser7-in-trick-8"),
        pytest.param({1: (["seq:h/9/3"], [])}, "cards.both",
                     id="other-player-before-the-exchange"),
        pytest.param({3: ([], ["seq:h/9/3"])}, "cards.seven",
                     id="exchanger-after-giving-it-in-the-same-trick"),
        pytest.param({5: (["seq:h/9/3"], [])}, "cards.seven", id="under-the-talon-trick-5"),
        pytest.param({6: ([], ["seq:h/9/3"])}, "cards.seven", id="exchanger-later"),
        pytest.param({8: (["seq:h/9/3"], [])}, "cards.seven", id="winner7-in-trick-8"),
    ],
)
def test_trump_7_after_an_exchange_6_3_6(melds_, code):
    # exchange before trick 3 (led by B), indicator Kh: the 7h lies under the talon until the
    # loser of trick 7 (B) takes it after trick 7
    raw = _play(melds_, indicator="Kh", exchange=3)
    if code is None:
        assert score(raw).melds == [0, 20]
    else:
        raises(code, raw)


def test_without_an_exchange_the_trump_7_is_an_ordinary_card():
    raw = _play({1: (["seq:h/9/3"], []), 5: (["seq:h/10/4"], [])}, indicator="Kh")
    assert score(raw).melds == [70, 0]


def test_indicator_is_the_trump_7_taken_by_the_loser_of_trick_7():
    assert score(_play({8: ([], ["seq:h/9/3"])}, indicator="7h")).melds == [0, 20]
    raises("cards.indicator", _play({8: (["seq:h/9/3"], [])}, indicator="7h"))


# =============================================================================================
# 5 and 6.3.7 Stichmatsch and the last trick

SWEEP_B = "AAABBBB BBBBBBBBB"


def test_stichmatsch_scores_161_and_0():
    s = score(hand(SWEEP_B, end=played((64, 87), B, stichmatsch=B)))
    assert s.tricks == [0, 161]
    s = score(hand("A" * 16, end=played((151, 0), A, stichmatsch=A)))
    assert s.tricks == [161, 0]


@pytest.mark.parametrize(
    ("won", "end", "code"),
    [
        pytest.param(SWEEP_B, played((64, 87), A, stichmatsch=B), "end.conflict",
                     id="stichmatsch-b-last-trick-a"),
        pytest.param(E1_WINNERS, played((88, 63), A, stichmatsch=A), "end.conflict",
                     id="stichmatsch-against-recorded-winners"),
        pytest.param(E1_WINNERS, played((88, 63), B), "end.conflict",
                     id="last-trick-against-trick-16-winner"),
        pytest.param(SWEEP_B, played((64, 87), B), "end.stichmatsch-missing",
                     id="sweep-not-marked-as-stichmatsch"),
        pytest.param("AAAB", played((64, 87), A, stichmatsch=B), "end.conflict",
                     id="stichmatsch-includes-the-last-trick"),
    ],
)
def test_stichmatsch_and_last_trick_cannot_co_occur_6_3_7(won, end, code):
    raises(code, hand(won, end=end))


@pytest.mark.parametrize(
    "extra",
    [{"last": A}, {"stichmatsch": B}, {"last": B, "stichmatsch": B}],
    ids=["last-trick", "stichmatsch", "both"],
)
def test_no_last_trick_or_stichmatsch_in_a_hand_ended_by_a_claim_6_3_7(extra):
    end = claim(A, 4, (20, 10))
    end.update(extra)
    err = raises("end.conflict", hand("ABAB", end=end))
    assert err.rule == "6.3.7"


def test_claim_end_with_empty_played_fields_is_accepted():
    end = claim(A, 4, (20, 10))
    end.update({"last": None, "stichmatsch": None})
    assert score(hand("ABAB", end=end)).scores == (20, 10)


# =============================================================================================
# 6.3.1 and 3: pile sums and ranges


@pytest.mark.parametrize(
    ("piles", "code"),
    [
        pytest.param((80, 70), "piles.sum", id="sum-150"),
        pytest.param((90, 62), "piles.sum", id="sum-152"),
        pytest.param((152, 0), "fact.range", id="pile-152"),
        pytest.param((-1, 152), "fact.range", id="negative-pile"),
        pytest.param((88.0, 63), "fact.number", id="not-whole"),
    ],
)
def test_pile_counts_of_a_played_hand(piles, code):
    raises(code, hand(E1_WINNERS, end=played(piles, A)))


def test_claim_piles_152_and_sums():
    raises("fact.range", hand("AB", end=claim(A, 2, (152, 0))))
    # each pile possible for one trick, but both together not for 4 cards (max 56)
    raises("piles.impossible", hand("AB", end=claim(A, 2, (34, 34))))
    assert score(hand("AB", end=claim(A, 2, (34, 22)))).scores == (34, 22)
    raises("piles.impossible", hand("AB", end=claim(A, 2, (9, 0))))
    raises("piles.sum", hand("A" * 15, end=claim(A, 15, (150, 2))))


# =============================================================================================
# 7.1–7.2 Buli and maccs at the end of a played-out hand


@pytest.mark.parametrize(
    ("start", "award", "totals"),
    [
        pytest.param((413, 188), (A, 1), (511, 251), id="loser-251-one-buli"),
        pytest.param((413, 187), (A, 2), (511, 250), id="loser-250-maccs"),
        pytest.param((403, 0), (A, 2), (501, 63), id="exactly-501-maccs"),
        pytest.param((402, 0), None, (500, 63), id="500-is-not-a-game"),
        pytest.param((0, 438), (B, 2), (98, 501), id="b-exactly-501-maccs"),
        pytest.param((0, 437), None, (98, 500), id="b-500-is-not-a-game"),
        pytest.param((153, 438), (B, 1), (251, 501), id="b-wins-a-has-251"),
        pytest.param((152, 438), (B, 2), (250, 501), id="b-wins-a-has-250-maccs"),
        pytest.param((420, 460), (B, 1), (518, 523), id="both-over-higher-wins-one"),
        pytest.param((420, 438), (A, 1), (518, 501), id="both-over-a-higher"),
        pytest.param((500, 500), (A, 1), (598, 563), id="both-over-far-apart-still-one"),
        pytest.param((460, 420), (A, 1), (558, 483), id="one-over-loser-483"),
    ],
)
def test_buli_and_maccs_7_1_7_2(start, award, totals):
    f = fold(start)
    f.add(1, hand(E1_WINNERS, end=played((88, 63), A)))
    out = f.hands[0]
    assert out.totals_after == totals
    st = f.result().standing
    if award is None:
        assert out.award is None and not out.reset
        assert st.totals == totals and st.victory == (0, 0)
    else:
        assert (out.award.winner, out.award.amount) == award
        assert out.reset and st.totals == (0, 0)
        expected = [0, 0]
        expected[award[0]] = award[1]
        assert st.victory == tuple(expected)


def test_both_over_and_equal_gives_a_decider_with_totals_kept_7_2():
    f = fold((448, 483))
    f.add(1, hand(E1_WINNERS, end=played((88, 63), A)))
    out = f.hands[0]
    assert out.totals_after == (546, 546)
    assert out.award is None and not out.reset
    st = f.result().standing
    assert st.totals == (546, 546) and st.victory == (0, 0)
    assert st.phase.startswith("Decider")


def test_games_accumulate_totals_until_501():
    f = fold()
    for number in range(1, 4):
        f.add(number, hand(E1_WINNERS, end=played((88, 63), A)))
    assert f.result().standing.totals == (294, 189)
    f.add(4, hand(E1_WINNERS, end=played((88, 63), A)))
    out = f.hands[-1]
    assert out.totals_after == (392, 252)
    f.add(5, hand(E1_WINNERS, end=played((88, 63), A)))
    out = f.hands[-1]
    assert out.totals_after == (490, 315)
    assert out.award is None
    f.add(6, hand(E1_WINNERS, end=played((88, 63), A)))
    assert (f.hands[-1].award.winner, f.hands[-1].award.amount) == (A, 1)   # 588 vs 378


# Four sets for A (200 + 150 + 100 + 100) and 98 trick points: 648 against 63 from 0–0.
BIG_HAND = hand(
    E1_WINNERS,
    {1: (["set:O"], []), 2: (["set:9"], []), 3: (["set:A"], []), 4: (["set:10"], [])},
    end=played((88, 63), A),
)


@pytest.mark.parametrize("target", [5, 10])
def test_match_ends_at_the_target_and_a_maccs_can_overshoot_7_5(target):
    f = fold(target=target)
    number = 0
    while not f.result().standing.over:
        number += 1
        f.add(number, BIG_HAND)
        out = f.hands[-1]
        assert out.scores == (648, 63)
        assert (out.award.winner, out.award.amount) == (A, 2)
        assert number <= target
    st = f.result().standing
    assert st.over and st.winner == A
    assert number == (target + 1) // 2
    assert st.victory == (2 * number, 0)         # 6 against a target of 5: a maccs overshoots
    with pytest.raises(RuleViolation) as err:
        f.add(number + 1, hand(E1_WINNERS, end=played((88, 63), A)))
    assert err.value.code == "match.over"


def test_dealer_alternates_after_every_hand_including_claims_and_deciders_2_1():
    f = fold((448, 483), first_dealer=B)
    f.add(1, hand(E1_WINNERS, end=played((88, 63), A)))          # tie at 546
    f.add(2, hand(indicator=None, end={"kind": "decider", "first": A}))
    f.add(3, hand("AB", end=claim(B, 2, (20, 10))))                # wrong claim
    f.add(4, hand(E1_WINNERS, end=played((88, 63), A)))
    assert [h.dealer for h in f.hands] == [B, A, B, A]
    assert f.result().standing.dealer == B
    assert f.result().standing.victory == (2, 0)
    assert f.result().standing.totals == (98, 63)


def test_score_match_names_the_hand_of_a_problem():
    from referee.engine.games import get

    game = get("tartli")
    good = hand(E1_WINNERS, end=played((88, 63), A))
    bad = hand(E1_WINNERS, end=played((80, 70), A))
    with pytest.raises(RuleViolation) as err:
        game.score(game.settings({"players": ["A", "B"], "target": 5, "first_dealer": 1}),
                   [good, good, bad])
    assert err.value.code == "piles.sum" and err.value.hand == 3
    assert str(err.value).startswith("Hand 3:")
    # only the last hand may be in progress
    with pytest.raises(RuleViolation) as err:
        game.score(game.settings({"players": ["A", "B"], "target": 5, "first_dealer": 1}),
                   [hand("AB"), good])
    assert err.value.code == "hand.unfinished" and err.value.hand == 1
    result = game.score(
        game.settings({"players": ["A", "B"], "target": 5, "first_dealer": 1}),
        [good, hand("AB", {1: (["seq:l/A/3"], [])})],
    )
    assert result.draft is not None and not result.draft.complete
    assert result.draft.totals_after == (98 + 20, 63)
    assert result.standing.totals == (98, 63)


# =============================================================================================
# 7.3 Going out


@pytest.mark.parametrize(
    ("start", "end", "extra", "counts", "award", "right"),
    [
        pytest.param((470, 300), claim(A, 4, (35, 28)), {}, (505, 328), (A, 1), True,
                     id="right-claim-one-buli"),
        pytest.param((470, 222), claim(A, 4, (35, 28)), {}, (505, 250), (A, 2), True,
                     id="right-claim-maccs-at-250"),
        pytest.param((470, 223), claim(A, 4, (35, 28)), {}, (505, 251), (A, 1), True,
                     id="right-claim-one-buli-at-251"),
        pytest.param((466, 0), claim(A, 4, (35, 28)), {}, (501, 28), (A, 2), True,
                     id="right-claim-exactly-501"),
        pytest.param((465, 0), claim(A, 4, (35, 28)), {}, (500, 28), (B, 1), False,
                     id="wrong-claim-at-500-one-buli-never-two"),
        pytest.param((0, 0), claim(B, 4, (35, 28)), {}, (35, 28), (A, 1), False,
                     id="wrong-claim-by-b-from-nothing"),
        pytest.param((470, 490), claim(A, 4, (35, 28)), {}, (505, 518), (A, 1), True,
                     id="both-over-claimant-wins-with-fewer"),
        pytest.param((470, 490), claim(B, 4, (35, 28)), {}, (505, 518), (B, 1), True,
                     id="both-over-claimant-b"),
        pytest.param((461, 0), claim(A, 0, (0, 0)), {"bela": {"player": A, "trick": 1}},
                     (501, 0), (A, 2), True, id="bela-right-after-the-deal"),
        pytest.param((440, 200), claim(A, 4, (35, 28)), {"bela": {"player": A, "trick": 5}},
                     (515, 228), (A, 2), True, id="bela-between-tricks"),
    ],
)
def test_going_out_7_3(start, end, extra, counts, award, right):
    raw = hand("BABA"[: end["completed"]], end=end)
    raw.update(extra)
    f = fold(start)
    f.add(1, raw)
    out = f.hands[0]
    assert out.totals_after == counts
    assert out.detail["claim_right"] is right
    assert (out.award.winner, out.award.amount) == award
    assert out.reset and f.result().standing.totals == (0, 0)
    assert out.detail["score"].tricks == list(end["piles"])     # no last trick, no stichmatsch


@pytest.mark.parametrize(
    ("step7", "in_progress", "counted"),
    [
        pytest.param(True, (["seq:l/K/4"], []), 50, id="step7-happened-melds-count"),
        pytest.param(False, (["seq:l/K/4"], []), 0, id="before-step7-melds-do-not-count"),
        pytest.param(True, (["seq:l/K/4"], ["set:A"]), 0, id="step7-the-loser-scores-nothing"),
        pytest.param(True, ([], []), 0, id="step7-nothing-declared"),
    ],
)
def test_claim_and_the_unfinished_trick_7_3_2(step7, in_progress, counted):
    raw = hand("BABA", in_progress=in_progress, end=claim(A, 4, (35, 28), step7=step7))
    f = fold((400, 300))
    f.add(1, raw)
    out = f.hands[0]
    b_set = 100 if in_progress[1] and step7 else 0
    assert out.scores == (35 + counted, 28 + b_set)


def test_claim_piles_count_only_completed_tricks():
    # the claim came after 15 completed tricks; trick 16 counts for nobody and there is no
    # last-trick bonus, even though the cards of trick 16 hold points
    raw = hand("AB" * 7 + "A", end=claim(A, 15, (80, 60)))
    s = score(raw)
    assert s.tricks == [80, 60]
    assert sum(s.tricks) == 140


def test_claim_window_trick_16():
    raises("fact.range", hand("AB", end=claim(A, 16, (88, 63))))
    raises("fact.range", hand("AB", end=claim(A, -1, (0, 0))))
    raises("fact.player", hand("AB", end=claim(2, 2, (0, 0))))


# -- who dealt: a recorded fact (6.1.1) -------------------------------------------------------

EQUAL_SEQUENCES = hand("AB", {1: (["seq:a/O/4"], ["seq:b/O/4"])})   # in progress, 4.2.6


def test_an_equal_sequence_contest_keeps_its_leader_when_hand_1_is_deleted_6_1_1():
    game = get("tartli")
    s = settings(first_dealer=B)
    hands = game.complete(s, [hand(E1_WINNERS, end=PLAIN_END), EQUAL_SEQUENCES])
    assert [h["dealer"] for h in hands] == [B, A]
    (before,) = game.score(s, hands).draft.detail["verdicts"]
    assert before.leader == B and before.winner == B and "4.2.6" in before.reason
    after = game.score(s, hands[1:])               # hand 1 deleted: A still dealt this hand
    (verdict,) = after.draft.detail["verdicts"]
    assert after.draft.dealer == A
    assert (verdict.leader, verdict.winner, verdict.points) == (B, B, (0, 50))
    assert after.draft.lines[0] == Line(A, "A dealt, out of turn: B was due", None, "2.1")


def test_a_dealer_out_of_turn_is_scored_as_recorded_and_said_6_1_1():
    f = fold(first_dealer=B)
    f.add(1, {**hand(E1_WINNERS, end=PLAIN_END), "dealer": A})     # B was due
    f.add(2, EQUAL_SEQUENCES, last=True)                            # not recorded: B, after A
    first, draft = f.hands[0], f.result().draft
    assert first.dealer == A
    assert first.lines[0] == Line(A, "A dealt, out of turn: B was due", None, "2.1")
    assert draft is not None and draft.dealer == B
    assert not any(line.text.endswith("was due") for line in draft.lines)
    assert draft.scores == (50, 0)                  # A leads trick 1: equal sequences, 4.2.6
    assert f.result().standing.dealer == B          # the hand in progress is B's deal


def test_the_proposal_follows_the_recorded_dealer_2_1():
    f = fold(first_dealer=B)
    f.add(1, {**hand(E1_WINNERS, end=PLAIN_END), "dealer": A})
    assert f.result().standing.dealer == B


def test_a_hand_without_its_dealer_scores_as_before_and_is_completed_6_1_1():
    game = get("tartli")
    s = settings(first_dealer=A)
    old = [hand(E1_WINNERS, end=PLAIN_END), hand(E1_WINNERS, end=PLAIN_END), EQUAL_SEQUENCES]
    completed = game.complete(s, [game.canonical_hand(h) for h in old])
    assert [h["dealer"] for h in completed] == [A, B, A]      # the alternation (2.1)
    assert all("dealer" not in h for h in old)               # a copy, never in place
    ours, theirs = game.score(s, old), game.score(s, completed)
    assert [(h.dealer, h.scores, h.lines) for h in ours.hands] == [
        (h.dealer, h.scores, h.lines) for h in theirs.hands
    ]
    assert ours.draft is not None and theirs.draft is not None
    assert ours.draft.scores == theirs.draft.scores == (0, 50)   # B leads: 4.2.6


@pytest.mark.parametrize("dealer", [2, -1, "A", True])
def test_the_dealer_names_a_player_6_1_1(dealer):
    with pytest.raises(RuleViolation) as err:
        parse_hand({**hand(E1_WINNERS, end=PLAIN_END), "dealer": dealer})
    assert err.value.code == "fact.player"
