"""Table-driven tests of the Stovkahra rules (shared/rules/stovkahra.md): every row is data
copied from or derived from the rules file, with an id naming what it checks."""

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
    settings,
    sevens,
)

from referee.engine.cards import FRENCH
from referee.engine.errors import RuleViolation
from referee.engine.games import GAMES, get
from referee.engine.games.stovkahra import GAME
from referee.engine.games.stovkahra.facts import deal_to_json, parse_deal
from referee.engine.games.stovkahra.match import take_sticks
from referee.engine.games.stovkahra.play import legal_plays, winning_index
from referee.engine.games.stovkahra.values import (
    CARD_POINTS,
    COMBINATIONS,
    POSSIBLE_POINTS,
    possible_points,
    seven_bonus,
)


def cards(text: str):
    return [FRENCH.parse(t) for t in text.split()]


def refused(raw, code: str, rule: str | None = None, dealer: int = W) -> RuleViolation:
    with pytest.raises(RuleViolation) as err:
        score(raw, dealer)
    assert err.value.code == code, err.value
    if rule is not None:
        assert err.value.rule == rule, err.value
    assert err.value.message
    return err.value


def test_registered():
    assert GAMES["stovkahra"] is GAME is get("stovkahra")
    assert GAME.players == (4, 4)


# =============================================================================================
# 2.4 Legal plays (hearts trumps)

LEGAL = [
    ("9s", "Ks 8s Ah 7d", "Ks", "must-beat-the-suit-led"),
    ("10s 7h", "Qs 8s Kh", "Qs 8s", "follow-even-when-trumped"),
    ("Ac", "9h Jh Kd", "9h Jh", "no-clubs-must-trump"),
    ("Ac Jh", "Qh 8h 10s", "Qh", "must-over-trump"),
    ("Ac Kh", "8h 10s", "8h", "must-trump-though-it-cannot-win"),
    ("8h", "7h 10h As", "10h", "trumps-led-must-beat"),
    ("Kd", "As 9c 10s", "As 9c 10s", "no-diamonds-no-trumps-any-card"),
    ("", "As 9c 7h", "As 9c 7h", "the-leader-may-lead-any-card"),
    ("Kd Ad", "Qd 7d 8h", "Qd 7d", "cannot-beat-still-follows"),
    ("Kd 7h Ad", "Qd Jh 9h", "Qd", "follow-comes-before-over-trumping"),
    ("Kd 9h", "Jh 7h Qs", "Jh", "over-trump-the-winning-trump"),
]


@pytest.mark.parametrize(("trick", "hand", "legal", "why"), LEGAL, ids=[r[3] for r in LEGAL])
def test_legal_plays_2_4(trick, hand, legal, why):
    assert legal_plays(cards(hand), cards(trick), "h") == cards(legal)


@pytest.mark.parametrize(("trick", "winner"), [
    ("9s Ks 8s 7s", 1), ("Ac 9h 10h Kd", 2), ("7s Ac Kd Qc", 0), ("8h Ah 7s As", 1),
], ids=["highest-of-suit-led", "highest-trump", "plain-seven-led-unfollowed-wins",
        "trump-ace"])
def test_trick_winner_2_3_3(trick, winner):
    assert winning_index(cards(trick), "h") == winner


# =============================================================================================
# 3. Card values

def test_card_values_3():
    assert CARD_POINTS == {"A": 6, "K": 5, "Q": 4, "J": 3, "10": 0, "9": 0, "8": 0, "7": 0}
    assert sum(CARD_POINTS[c.rank] for c in FRENCH.cards) == 72


# =============================================================================================
# 4. Combinations

COMBINATION_TABLE = [
    ("A", 4, 40, "four aces"), ("A", 3, 30, "three aces"),
    ("10", 4, 20, "four tens"), ("7", 4, 20, "four sevens"),
    ("10", 3, 10, "three tens"), ("7", 3, 10, "three sevens"),
    ("K", 4, 12, "four kings"), ("Q", 4, 12, "four queens"), ("J", 4, 12, "four jacks"),
    ("K", 3, 6, "three kings"), ("Q", 3, 6, "three queens"), ("J", 3, 6, "three jacks"),
]


@pytest.mark.parametrize(("rank", "count", "points", "name"), COMBINATION_TABLE,
                         ids=[r[3] for r in COMBINATION_TABLE])
def test_combination_values_4(rank, count, points, name):
    s = score(deal(combo(N, rank, count)))
    assert s.combinations == [points, 0]
    assert s.lines[0].text == f"North: {name}" and s.lines[0].points == points


def test_combination_table_is_exactly_the_rules_4():
    assert {(r, c): p for r, c, p, _ in COMBINATION_TABLE} == COMBINATIONS


def test_a_four_scores_only_its_own_value_and_several_ranks_add_up_4_4():
    assert score(deal(combo(N, "A", 4))).combinations == [40, 0]
    assert score(deal(combo(E, "A", 3), combo(E, "K", 3))).combinations == [0, 36]


LEGALITY = [
    ([combo(N, "A", 3), combo(S, "A", 3)], "combination.more-than-four", "six-aces"),
    ([combo(N, "K", 4), combo(E, "K", 3)], "combination.more-than-four", "nobody-after-a-four"),
    ([combo(N, "J", 3), combo(E, "J", 3)], "combination.more-than-four", "opponents-too"),
    ([combo(W, "9", 4)], "combination.rank", "four-nines"),
    ([combo(W, "8", 3)], "combination.rank", "three-eights"),
    ([combo(W, "B", 3)], "combination.rank", "no-such-rank"),
    ([combo(W, "A", 2)], "combination.count", "two-aces"),
    ([combo(W, "A", 5)], "combination.count", "five-aces"),
    ([combo(N, "A", 3), combo(N, "A", 4)], "combination.twice", "twice-one-rank"),
    ([combo(N, "A", 4), combo(N, "K", 4), combo(N, "Q", 3)], "combination.too-many-cards",
     "eleven-cards"),
    ([combo(N, "A", 3, ["Ah", "Ad"])], "combination.cards", "two-cards-for-three"),
    ([combo(N, "A", 3, ["Ah", "Ad", "Kc"])], "combination.cards", "a-king-among-aces"),
    ([combo(N, "A", 3, ["Ah", "Ah", "Ad"])], "card.twice", "a-card-twice"),
    ([combo(N, "A", 3, trick=2)], "combination.late", "after-trick-1-was-led"),
    ([combo(N, "A", 4), combo(N, "K", 4)], None, "eight-cards"),
    ([combo(N, "A", 3), combo(E, "K", 3), combo(S, "7", 3)], None, "example-1"),
    ([combo(N, "A", 3, ["Ah", "Ad", "Ac"]), combo(W, "10", 4)], None, "with-cards"),
    ([combo(N, "7", 4), combo(E, "Q", 3), combo(S, "J", 3), combo(W, "10", 3)], None,
     "one-each"),
]


@pytest.mark.parametrize(("combos", "code"), [r[:2] for r in LEGALITY],
                         ids=[r[2] for r in LEGALITY])
def test_combination_legality_4_5(combos, code):
    raw = deal(*combos, end=PLAIN)
    if code is None:
        score(raw)
    else:
        refused(raw, code)


# =============================================================================================
# 5. Bonuses

SEVEN_BONUS = [(1, 52), (2, 10), (3, 10), (4, 10), (5, 10), (6, 10), (7, 10), (8, 26)]


@pytest.mark.parametrize(("trick", "bonus"), SEVEN_BONUS,
                         ids=[f"trick-{t}" for t, _ in SEVEN_BONUS])
def test_seven_bonuses_5(trick, bonus):
    assert seven_bonus(trick) == bonus
    s = score(deal(end=played((40, 32), EW, (5, 3), sevens((trick, EW)))))
    assert s.sevens == [0, bonus]
    assert s.last == [0, 0 if trick == 8 else 6]
    assert s.scores == (40, 32 + bonus + (0 if trick == 8 else 6))


@pytest.mark.parametrize(("trick", "bonus", "ok"), [
    (1, 52, True), (2, 52, False), (8, 26, True), (8, 32, False), (3, 10, True), (1, 10, False),
], ids=["52-on-1", "52-on-2", "26-on-8", "32-on-8", "10-on-3", "10-on-1"])
def test_a_stated_bonus_must_be_the_bonus_of_its_trick_6_3_4(trick, bonus, ok):
    raw = deal(end=played((40, 32), EW, (5, 3), [{"trick": trick, "team": EW, "bonus": bonus}]))
    if ok:
        assert score(raw).sevens == [0, bonus]
        assert "bonus" not in GAME.canonical_hand(raw)["end"]["sevens"][0]
    else:
        refused(raw, "sevens.bonus", "6.3.4")


def test_last_trick_without_a_seven_is_6_5():
    assert score(deal(end=played((40, 32), NS))).last == [6, 0]


# =============================================================================================
# 6.3.2 Possible card points by tricks won — the table, copied from the rules file

POSSIBLE_TABLE = {
    0: "0",
    1: "0, 3–24",
    2: "0, 3–44",
    3: "0, 3–60",
    4: "0, 3–69, 72",
    5: "12–69, 72",
    6: "28–69, 72",
    7: "48–69, 72",
    8: "72",
}


def _expand(row: str) -> set[int]:
    out: set[int] = set()
    for part in row.split(", "):
        low, _, high = part.partition("–")
        out.update(range(int(low), int(high or low) + 1))
    return out


@pytest.mark.parametrize("tricks", range(9), ids=[f"{w}-tricks" for w in range(9)])
def test_possible_points_table_6_3_2(tricks):
    assert set(POSSIBLE_POINTS[tricks]) == _expand(POSSIBLE_TABLE[tricks])
    for points in range(-1, 74):
        assert possible_points(points, tricks) == (points in _expand(POSSIBLE_TABLE[tricks]))


def test_without_trick_counts_never_1_2_70_or_71_6_3_2():
    anywhere = set().union(*POSSIBLE_POINTS)
    assert set(range(73)) - anywhere == {1, 2, 70, 71}
    for ns in range(73):
        raw = deal(end=played((ns, 72 - ns), NS))
        if ns in (1, 2, 70, 71):
            refused(raw, "points.impossible", "6.3.2")
        else:
            score(raw)


POINTS_BY_TRICKS = [
    ((45, 27), (2, 6), "points.impossible", "45-in-2-tricks"),
    ((11, 61), (5, 3), "points.impossible", "11-in-5-tricks"),
    ((47, 25), (7, 1), "points.impossible", "47-in-7-tricks"),
    ((72, 0), (7, 1), None, "72-in-7-tricks-one-trick-of-nothing"),
    ((72, 0), (8, 0), None, "all-eight-tricks"),
    ((0, 72), (0, 8), "bonus.no-trick", "no-trick-no-last-trick"),
    ((44, 28), (5, 4), "tricks.sum", "nine-tricks"),
    ((40, 33), (5, 3), "points.sum", "73-points"),
    ((3, 69), (0, 8), "points.no-trick", "points-without-a-trick"),
    ((12, 60), (5, 3), None, "12-in-5-tricks"),
    ((69, 3), (7, 1), None, "69-in-7-tricks"),
]


@pytest.mark.parametrize(("points", "tricks", "code"), [r[:3] for r in POINTS_BY_TRICKS],
                         ids=[r[3] for r in POINTS_BY_TRICKS])
def test_points_and_tricks_checks_6_3_1_to_6_3_3(points, tricks, code):
    raw = deal(end=played(points, NS, tricks))
    if code is None:
        score(raw)
    else:
        refused(raw, code)


# =============================================================================================
# 6.3.3 to 6.3.5: tricks won with a seven

SEVEN_CHECKS = [
    (played((40, 32), NS, (5, 3), sevens((8, EW))), "sevens.last", "26-to-the-last-trick-team"),
    (played((40, 32), NS, (5, 3), sevens((2, NS), (2, EW))), "sevens.twice", "trick-twice"),
    (played((40, 32), EW, (5, 3), sevens((1, EW), (2, EW), (3, EW))), "sevens.tricks",
     "three-sevens-in-three-tricks-and-the-last"),
    (played((72, 0), NS, (8, 0), sevens((3, EW))), "bonus.no-trick", "no-trick-no-seven"),
    (played((72, 0), NS, None, sevens((3, EW))), None, "a-trick-of-nothing"),
    (played((72, 0), NS, None, sevens((3, EW), (4, EW), (5, EW), (8, NS))), None,
     "four-sevens"),
    (played((40, 32), NS, (5, 3), sevens((1, NS), (2, NS), (3, NS), (8, NS))), None,
     "four-to-one-team"),
    (dost(N, 3, (20, 10), (2, 1), seven=sevens((4, NS))), "sevens.after-dost",
     "only-completed-tricks"),
    (dost(N, 3, (20, 10), (2, 1), seven=sevens((3, EW))), "dost.not-winner",
     "the-callers-trick"),
]


@pytest.mark.parametrize(("end", "code"), [r[:2] for r in SEVEN_CHECKS],
                         ids=[r[2] for r in SEVEN_CHECKS])
def test_seven_checks_6_3_4(end, code):
    if code is None:
        score(deal(end=end))
    else:
        refused(deal(end=end), code)


SEVENS_AND_COMBINATIONS = [
    (combo(S, "7", 4), sevens((5, NS), (6, NS)), None, "four-sevens-own-team"),
    (combo(S, "7", 4), sevens((5, EW)), "sevens.combination", "four-sevens-other-team"),
    (combo(E, "7", 3), sevens((5, NS)), None, "three-sevens-one-to-the-others"),
    (combo(E, "7", 3), sevens((5, NS), (6, NS)), "sevens.combination", "three-sevens-two"),
    (combo(E, "7", 3), sevens((1, EW), (5, EW), (6, EW), (7, NS)), None,
     "three-sevens-and-the-partners-seven"),
]


@pytest.mark.parametrize(("declared", "seven", "code"),
                         [r[:3] for r in SEVENS_AND_COMBINATIONS],
                         ids=[r[3] for r in SEVENS_AND_COMBINATIONS])
def test_sevens_against_combinations_6_3_5(declared, seven, code):
    raw = deal(declared, end=played((40, 32), NS, (4, 4), seven))
    if code is None:
        score(raw)
    else:
        refused(raw, code, "6.3.5")


# =============================================================================================
# 7.2.1 and 6.3.7: dost timing (W deals: N, E, S, W declare in this order)

DOST_TIMING = [
    ([combo(E, "A", 4)], dost(E, 0), None, "right-after-his-declaration"),
    ([combo(E, "A", 4), combo(W, "K", 3)], dost(W, 0), None, "the-last-declarer"),
    ([combo(E, "A", 4), combo(S, "K", 3)], dost(E, 0), "dost.declared-after",
     "someone-declared-after-him"),
    ([combo(E, "A", 4)], dost(S, 0), "dost.no-combination", "no-combination-of-his-own"),
    ([combo(E, "A", 4)], dost(W, 0), "dost.no-combination", "partner-cannot-call"),
    ([combo(E, "A", 4)], dost(E, 0, (3, 0)), "dost.no-tricks", "no-points-before-trick-1"),
    ([combo(E, "A", 4)], dost(E, 0, trick_winner=E), "dost.trick-winner", "no-trick-winner"),
    ([], dost(N, 8, (40, 32), (5, 3)), "dost.after-8", "no-dost-after-trick-8"),
    ([], dost(N, 3, (20, 10), (2, 1), trick_winner=N), None, "winner-of-trick-3"),
    ([], dost(N, 3, (20, 10), (2, 1)), None, "winner-not-recorded"),
    ([], dost(S, 3, (20, 10), (2, 1), trick_winner=N), "dost.not-winner", "partner-of-winner"),
    ([], dost(E, 3, (20, 10), (2, 1), trick_winner=N), "dost.not-winner", "opponent"),
    ([], dost(E, 3, (30, 0), (3, 0)), "bonus.no-trick", "callers-team-won-no-trick"),
    ([], dost(N, 3, (61, 0), (3, 0)), "points.impossible", "61-in-3-tricks"),
    ([], dost(N, 2, (20, 10), (2, 1)), "tricks.sum", "tricks-add-up-to-t"),
    ([], dost(N, 1, (2, 0)), "points.impossible", "2-in-one-trick"),
    ([], dost(N, 1, (0, 5)), "points.no-trick", "the-callers-team-won-the-trick"),
    ([], dost(N, 2, (20, 10)), None, "two-tricks-without-counts"),
]


@pytest.mark.parametrize(("combos", "end", "code"), [r[:3] for r in DOST_TIMING],
                         ids=[r[3] for r in DOST_TIMING])
def test_dost_timing_7_2_1(combos, end, code):
    raw = deal(*combos, end=end)
    if code is None:
        score(raw)
    else:
        refused(raw, code)


# =============================================================================================
# 7.2.3–7.2.5 Dost verdicts: (game scores before, deal, caller) → winners, matchsticks

DOST_VERDICTS = [
    ((90, 44), dost(N, 2, (12, 11), (1, 1)), NS, 1, True, "right-opponents-50-or-more"),
    ((90, 30), dost(N, 2, (12, 11), (1, 1)), NS, 2, True, "right-opponents-under-50"),
    ((90, 38), dost(N, 2, (12, 11), (1, 1)), NS, 2, True, "right-opponents-49"),
    ((90, 39), dost(N, 2, (12, 11), (1, 1)), NS, 1, True, "right-opponents-exactly-50"),
    ((90, 44), dost(N, 2, (8, 11), (1, 1)), EW, 2, False, "wrong-98"),
    ((90, 95), dost(N, 2, (10, 11), (1, 1)), NS, 1, True, "right-though-opponents-106"),
    ((60, 95), dost(N, 2, (10, 11), (1, 1)), EW, 2, False, "wrong-though-opponents-106"),
    ((0, 0), dost(E, 1, (0, 24), (0, 1)), NS, 2, False, "wrong-early"),
    ((80, 20), dost(N, 1, (10, 0), (1, 0), seven=sevens((1, NS))), NS, 2, True,
     "sevens-so-far-count"),
]


@pytest.mark.parametrize(("start", "end", "winner", "amount", "right"),
                         [r[:5] for r in DOST_VERDICTS], ids=[r[5] for r in DOST_VERDICTS])
def test_dost_verdicts_7_2(start, end, winner, amount, right):
    f = fold(start=start)
    f.add(1, deal(end=end))
    out = f.hands[0]
    assert out.award is not None
    assert (out.award.winner, out.award.amount) == (winner, amount)
    assert out.detail["dost_right"] is right
    assert out.reset and f.result().standing.totals == (0, 0)
    assert out.totals_after == (start[0] + out.scores[0], start[1] + out.scores[1])
    assert out.detail["score"].last == [0, 0]            # no last-trick bonus (7.2.3)


def test_dost_count_line_shows_the_arithmetic_7_2_3():
    f = fold(start=(70, 40))
    f.add(1, deal(combo(N, "A", 3), combo(E, "K", 3),
                  end=dost(S, 1, (10, 0), (1, 0), seven=sevens((1, NS)))))
    lines = [line.text for line in f.hands[0].lines if line.rule == "7.2.3"]
    assert lines == [
        "NS's count: game score 70 + combinations 30 + card points 10 + sevens 52 = 162",
        "EW's count: game score 40 + combinations 6 + card points 0 + sevens 0 = 46",
    ]
    assert f.hands[0].award is not None and f.hands[0].award.amount == 2


# =============================================================================================
# 7.1 Games to 100: (game scores before, deal) → winners and matchsticks

GAME_AWARDS = [
    ((50, 40), played((40, 32), EW), None, None, "nobody-at-100"),
    ((60, 40), played((40, 32), EW), NS, 1, "ns-100-ew-78"),
    ((60, 5), played((40, 32), EW), NS, 2, "ns-100-ew-43"),
    ((60, 11), played((40, 32), EW), NS, 2, "ns-100-ew-49"),
    ((60, 12), played((40, 32), EW), NS, 1, "ns-100-ew-50"),
    ((92, 90), played((40, 32), EW), NS, 1, "both-over-100-higher-wins"),
    ((70, 90), played((40, 32), EW), EW, 1, "both-over-the-other-higher"),
    ((92, 90), played((38, 34), EW), None, None, "both-130-another-deal"),
]


@pytest.mark.parametrize(("start", "end", "winner", "amount"), [r[:4] for r in GAME_AWARDS],
                         ids=[r[4] for r in GAME_AWARDS])
def test_game_awards_7_1(start, end, winner, amount):
    f = fold(start=start)
    f.add(1, deal(end=end))
    out = f.hands[0]
    if winner is None:
        assert out.award is None and not out.reset
        assert f.result().standing.totals == out.totals_after
    else:
        assert out.award is not None
        assert (out.award.winner, out.award.amount) == (winner, amount)
        assert f.result().standing.totals == (0, 0)


def test_equal_scores_keep_going_until_one_is_higher_7_1_2():
    f = fold(start=(92, 90))
    f.add(1, deal(end=played((38, 34), EW)))            # 130–130
    f.add(2, deal(end=played((36, 36), EW)))            # 166–172
    assert f.hands[1].totals_after == (166, 172)
    assert f.hands[1].award is not None and f.hands[1].award.winner == EW


# =============================================================================================
# 7.3 Matchsticks: add or take

ADD_TAKE = [
    ((3, 1), NS, 2, "add", (5, 1), 0, "add-2"),
    ((3, 1), NS, 2, "take", (3, 0), 1, "take-2-only-1-there"),
    ((3, 4), NS, 2, "take", (3, 2), 0, "take-2"),
    ((0, 0), EW, 1, "take", (0, 0), 1, "take-from-nothing"),
    ((7, 8), EW, 2, "add", (7, 10), 0, "add-to-10"),
    ((7, 8), EW, 2, "take", (5, 8), 0, "take-instead"),
]


@pytest.mark.parametrize(("piles", "winner", "amount", "choice", "after", "lost"),
                         [r[:6] for r in ADD_TAKE], ids=[r[6] for r in ADD_TAKE])
def test_add_or_take_7_3_1(piles, winner, amount, choice, after, lost):
    result = list(piles)
    assert take_sticks(result, winner, amount, choice) == lost
    assert tuple(result) == after


def test_a_missing_choice_is_pending_never_a_choice_someone_made_7_3_1():
    # Changed by issue 10: a game end without a choice used to count as "add".
    f = fold(start=(90, 44), piles=(2, 2))
    f.add(1, deal(end=dost(N, 2, (12, 11), (1, 1))))
    out = f.hands[0]
    assert out.detail["sticks"] is None
    assert out.detail["sticks_pending"] is True
    assert out.summary == "NS win the game: 1 matchstick, not chosen yet"
    assert not any(line.text.startswith(("NS add", "NS take")) for line in out.lines)
    assert out.lines[-1].text.endswith("not chosen yet, so the matchsticks shown leave this "
                                       "award out (NS 2, EW 2)")
    standing = f.result().standing
    assert standing.victory == (2, 2)
    assert standing.phase == "Game in progress · matchsticks of deal 1 not chosen yet " \
        "(not counted)"


def test_a_choice_on_a_deal_that_ends_no_game_is_flagged_not_refused():
    f = fold()
    f.add(1, deal(end=PLAIN, sticks="take"))
    assert f.hands[0].detail["sticks_unused"] is True
    assert "sticks_pending" not in f.hands[0].detail and "sticks" not in f.hands[0].detail


def test_series_target_7_3_2():
    f = fold(start=(90, 44), target=1)
    f.add(1, deal(end=dost(N, 2, (12, 11), (1, 1)), sticks="add"))
    standing = f.result().standing
    assert standing.over and standing.winner == NS
    assert standing.phase == "Series over: NS win 1–0"


# =============================================================================================
# Dealer rotation (2.5) and the deal in progress

def test_dealer_passes_left_after_every_deal_including_a_dost_2_5():
    s = settings(first_dealer=S)
    deals = [deal(end=PLAIN), deal(end=dost(N, 2, (20, 10))), deal(end=PLAIN),
             deal(combo(N, "A", 3))]
    result = GAME.score(s, deals)
    assert [h.dealer for h in result.hands] == [S, W, N]
    assert result.draft is not None and result.draft.dealer == E
    assert not result.draft.complete
    assert result.draft.scores == (30, 0)
    assert result.standing.dealer == E            # the deal in progress is not yet counted


def test_only_the_last_deal_may_be_in_progress_6_1():
    with pytest.raises(RuleViolation) as err:
        GAME.score(settings(), [deal(), deal(end=PLAIN)])
    assert err.value.code == "deal.unfinished" and err.value.hand == 1


def test_a_deal_in_progress_is_checked_too():
    with pytest.raises(RuleViolation) as err:
        GAME.score(settings(), [deal(end=PLAIN), deal(combo(N, "A", 3), combo(S, "A", 3))])
    assert err.value.code == "combination.more-than-four" and err.value.hand == 2
    assert err.value.args[0].startswith("Deal 2: ")


# =============================================================================================
# Settings and facts

def test_settings_fill_defaults():
    s = GAME.settings({"players": [" Jana ", "Petr", "Eva", "Karel"],
                       "teams": ["Červení", "Zelení"], "first_dealer": 3})
    assert s == {
        "players": ["Jana", "Petr", "Eva", "Karel"], "teams": ["Červení", "Zelení"],
        "target": 10, "first_dealer": 3, "continue_to_20": False, "german_letters": False,
        "shuffle_reminder": "each game",
    }
    assert GAME.sides(s) == ["Červení", "Zelení"]
    assert GAME.settings(s) == s


BAD_SETTINGS = [
    ({"players": ["a", "b", "c"]}, "settings.players", "three-players"),
    ({"players": ["a", "b", "c", "A"]}, "settings.players", "same-name"),
    ({"players": ["a", "b", "c", ""]}, "settings.players", "empty-name"),
    ({"teams": ["x"]}, "settings.teams", "one-team"),
    ({"teams": ["x", " "]}, "settings.teams", "empty-team"),
    ({"teams": ["x", "X"]}, "settings.teams", "same-team"),
    ({"target": 0}, "settings.target", "target-0"),
    ({"target": 51}, "settings.target", "target-51"),
    ({"target": True}, "settings.target", "target-bool"),
    ({"first_dealer": 4}, "fact.player", "dealer-4"),
    ({"first_dealer": None}, "fact.player", "no-dealer"),
    ({"continue_to_20": "yes"}, "settings.continue_to_20", "switch-not-bool"),
    ({"german_letters": 1}, "settings.german_letters", "letters-not-bool"),
    ({"shuffle_reminder": "never"}, "settings.shuffle_reminder", "bad-reminder"),
]


@pytest.mark.parametrize(("change", "code"), [r[:2] for r in BAD_SETTINGS],
                         ids=[r[2] for r in BAD_SETTINGS])
def test_bad_settings(change, code):
    raw = {"players": ["a", "b", "c", "d"], "teams": ["x", "y"], "first_dealer": 0, **change}
    with pytest.raises(RuleViolation) as err:
        GAME.settings(raw)
    assert err.value.code == code


def test_rules_in_force_name_the_target_and_every_switch():
    s = settings(target=7, continue_to_20=True, german_letters=True,
                 shuffle_reminder="first deal")
    text = "\n".join(GAME.rules_in_force(s))
    assert "Series to 7 matchsticks" in text
    assert "Continue to 20: when a team reaches 7 the series goes on to 14" in text
    assert "German O and U" in text
    assert "only before the first deal of the series" in text
    plain = "\n".join(GAME.rules_in_force(settings()))
    assert "Continue to 20: off" in plain and "French Q and J" in plain
    assert "before the first deal of each game" in plain


ROUND_TRIP = [
    deal(),
    deal(combo(N, "A", 3, ["Ah", "Ad", "Ac"]), combo(E, "K", 4), end=PLAIN, sticks="take"),
    deal(end=played((45, 27), EW, None, sevens((8, EW), (1, NS)))),
    deal(combo(E, "A", 4), end=dost(E, 0), trumps=None),
    deal(end=dost(N, 3, (20, 10), (2, 1), trick_winner=N, seven=sevens((2, NS)))),
]


@pytest.mark.parametrize("raw", ROUND_TRIP, ids=[f"deal-{i}" for i in range(len(ROUND_TRIP))])
def test_canonical_round_trip(raw):
    canonical = GAME.canonical_hand(raw)
    assert GAME.canonical_hand(canonical) == canonical
    assert parse_deal(canonical) == parse_deal(raw)
    assert deal_to_json(parse_deal(canonical)) == canonical


def test_canonical_sorts_sevens_and_fills_missing_keys():
    raw = {"end": {"kind": "played", "points": [27, 45], "last": 0,
                   "sevens": [{"trick": 8, "team": 0}, {"trick": 1, "team": 1}]}}
    assert GAME.canonical_hand(raw) == {
        "dealer": None, "trumps": None, "combinations": [], "sticks": None,
        "sticks_by": None, "sticks_against": None,
        "end": {"kind": "played", "points": [27, 45], "tricks": None, "last": 0,
                "sevens": [{"trick": 1, "team": 1}, {"trick": 8, "team": 0}]},
    }


BAD_FACTS = [
    ({"trumps": "x"}, "fact.trumps", "bad-trumps"),
    ({"colour": "h"}, "fact.unknown", "unknown-key"),
    ({"sticks": "both"}, "fact.sticks", "bad-sticks"),
    ({"combinations": [{"seat": 4, "rank": "A", "count": 3}]}, "fact.player", "seat-4"),
    ({"combinations": [{"seat": 0, "rank": "A", "count": "3"}]}, "fact.number", "count-text"),
    ({"end": {"kind": "won"}}, "fact.shape", "bad-kind"),
    ({"end": {"kind": "played", "points": [72], "last": 0}}, "fact.shape", "one-points"),
    ({"end": {"kind": "played", "points": [73, 0], "last": 0}}, "fact.range", "73-points"),
    ({"end": {"kind": "played", "points": [40, 32], "last": 2}}, "fact.player", "last-2"),
    ({"end": {"kind": "played", "points": [40, 32], "last": 0, "sevens": [{"trick": 9,
                                                                           "team": 0}]}},
     "fact.range", "trick-9"),
    ({"end": {"kind": "dost", "caller": 0, "after": 9}}, "fact.range", "after-9"),
    ({"end": {"kind": "dost", "caller": 0, "after": 1, "last": 0}}, "dost.last",
     "dost-with-last-trick"),
]


@pytest.mark.parametrize(("raw", "code"), [r[:2] for r in BAD_FACTS],
                         ids=[r[2] for r in BAD_FACTS])
def test_bad_facts(raw, code):
    with pytest.raises(RuleViolation) as err:
        GAME.canonical_hand(raw)
    assert err.value.code == code


# =============================================================================================
# The match file

def test_a_stovkahra_match_file_loads_and_shows_standings_by_team():
    from referee.engine.matchfile import MatchFile, dumps, load, standings

    s = settings()
    deals = GAME.complete(s, [
        GAME.canonical_hand(deal(combo(N, "A", 3), combo(E, "K", 3), combo(S, "7", 3),
                                 end=played((40, 32), EW, (5, 3), sevens((4, NS))))),
        GAME.canonical_hand(deal(end=dost(N, 2, (12, 11), (1, 1), trick_winner=N),
                                 sticks="add"))])
    m = MatchFile(game="stovkahra", settings=s, hands=deals, created="2026-11-30")
    assert load(dumps(m)) == m
    out = standings(m)
    assert out["standing"] == {
        "totals": {"NS": 0, "EW": 0}, "victory": {"NS": 1, "EW": 0}, "dealer": "East",
        "phase": "Game in progress", "over": False, "winner": None,
    }
    assert [h["scores"] for h in out["hands"]] == [[90, 44], [12, 11]]
    assert out["hands"][1]["award"]["winner"] == NS
