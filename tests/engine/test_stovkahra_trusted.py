"""Stovkahra's trusted fold (issue 12): deals the app checked and stored are read as written,
scored without the checks that read only their own facts, and explained when the lines are
read; everything else is as the fold that checks every fact gives it.

The contract (``MatchFold``): what a trusted fold skips depends only on the deal's own facts,
its recorded dealer included, never on the deals before it. A stored deal that an edit of an
earlier deal makes wrong (the series now over before it, another dealer due, a dost now wrong)
is refused or scored by the trusted fold exactly as by the checked one."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from stovkahra_helpers import EW, NS, PLAIN, E, N, S, W, combo, deal, dost, simulate_deal
from stovkahra_helpers import settings as match_settings

from referee.engine import scoring
from referee.engine.errors import RuleViolation
from referee.engine.games.base import MatchResult
from referee.engine.games.stovkahra import GAME
from referee.engine.games.stovkahra.facts import parse_deal, read_canonical


def everything(result: MatchResult) -> list[Any]:
    """All a result says: each deal's outcome (lines included) with its details, the deal in
    progress, the standing."""
    hands = [(hand.as_dict(), hand.detail) for hand in result.hands]
    draft = None if result.draft is None else (result.draft.as_dict(), result.draft.detail)
    return [hands, draft, result.standing]


def checked(match: dict[str, Any], hands: list[dict[str, Any]]) -> Any:
    """The fold from the first deal with every check, or the refusal it stops at."""
    try:
        return everything(GAME.score(match, hands))
    except RuleViolation as error:
        return (error.code, error.hand, error.explain())


def trusted(match: dict[str, Any], hands: list[dict[str, Any]]) -> Any:
    """Every deal trusted, as stored deals after an edited one are (a fresh cache)."""
    scoring.forget()
    try:
        return everything(scoring.score("stovkahra", match, hands, True))
    except RuleViolation as error:
        return (error.code, error.hand, error.explain())


def stored(*hands: dict[str, Any]) -> list[dict[str, Any]]:
    """The deals as the app stores them: canonical, every dealer filled in."""
    return GAME.complete(match_settings(), [GAME.canonical_hand(hand) for hand in hands])


def random_deal(rng: random.Random) -> dict[str, Any]:
    """A deal played by the rules, dealt by anyone (out of turn too), most with their dealer
    recorded, some stored without it (an old file's), with any matchstick choice."""
    dealer = rng.randrange(4)
    facts = simulate_deal(rng, dealer, dost_chance=0.3).facts
    if rng.random() < 0.8:
        facts["dealer"] = dealer
    choice = rng.choice([None, None, "add", "take"])
    if choice is not None:
        facts.update(sticks=choice, sticks_by=rng.randrange(2),
                     sticks_against=rng.randrange(4) if choice == "take" else None)
    return GAME.canonical_hand(facts)


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_a_stored_deal_reads_as_the_checked_one(seed: int) -> None:
    """``read_canonical`` gives the facts ``parse_deal`` gives, for any deal played by the
    rules as the app writes it."""
    canonical = random_deal(random.Random(seed))
    assert read_canonical(canonical) == parse_deal(canonical)


def test_a_deal_in_another_form_is_read_by_the_checking_reader() -> None:
    """A deal that is not as the app writes it (a key missing) is left to ``parse_deal``."""
    with pytest.raises(KeyError):
        read_canonical(deal(end=PLAIN))


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 10**9), target=st.integers(2, 6), twenty=st.booleans(),
       length=st.integers(1, 30))
def test_the_trusted_fold_gives_what_the_checked_fold_gives(
    seed: int, target: int, twenty: bool, length: int
) -> None:
    """Any deals played by the rules, in any order, trusted: the same scores, totals,
    summaries, awards, lines and details, or the same refusal naming the same deal, as with
    every fact checked. Deals in an order the rules refuse (after the series is over, one
    stored without its dealer whose dost the dealer due then forbids) are refused alike."""
    rng = random.Random(seed)
    match = match_settings(rng.randrange(4), target, continue_to_20=twenty)
    hands = [random_deal(rng) for _ in range(length)]
    if rng.random() < 0.3:
        hands[-1]["end"] = None                 # the deal in progress
    assert trusted(match, hands) == checked(match, hands)
    # an earlier deal edited: the stored deals after it are trusted, offered their outcome
    # of the last fold (scoring.py)
    edited = list(hands)
    edited[rng.randrange(length)] = random_deal(rng)
    try:
        again = everything(scoring.score("stovkahra", match, edited, hands))
    except RuleViolation as error:
        again = (error.code, error.hand, error.explain())
    assert again == checked(match, edited)


def test_a_trusted_deals_lines_are_written_when_read() -> None:
    """A trusted deal is scored without its explanation; its lines, written when first read,
    are those of the deal checked in full, in the same order (out-of-turn dealers, dosts,
    matchstick choices and the series included)."""
    rng = random.Random("lines")
    match = match_settings(W, 4, continue_to_20=True)
    hands: list[dict[str, Any]] = []
    fold = GAME.fold(match)
    while not fold.over:
        hand = {**random_deal(rng), "sticks": None, "sticks_by": None, "sticks_against": None}
        if hand["dealer"] is None or isinstance(checked(match, [*hands, hand]), tuple):
            continue
        award = GAME.score(match, [*hands, hand]).hands[-1].award
        if award is not None:
            # the winners choose (7.3.1): to take when the opponents' pile is not empty
            piles = fold.piles
            take = piles[1 - award.winner] > 0 and rng.random() < 0.5
            hand.update(sticks="take" if take else "add", sticks_by=award.winner,
                        sticks_against=piles[1 - award.winner] if take else None)
        fold.add(len(hands) + 1, hand)
        hands.append(hand)
    scoring.forget()
    result = scoring.score("stovkahra", match, hands, True)
    assert all("lines" not in vars(hand) for hand in result.hands)
    expected = GAME.score(match, hands)
    assert [hand.lines for hand in result.hands] == [hand.lines for hand in expected.hands]
    assert result.hands == expected.hands
    assert any(hand.award is not None for hand in result.hands)


# -- The contract: a stored deal that an earlier edit makes wrong --------------------------

# W calls dost right after his own declaration; N declared too: allowed only where N declares
# before W (7.2.1), that is when W deals (N, E, S, W declare), not when S deals (W, N, E, S).
LATE_DOST = deal(combo(N, "K", 3), combo(W, "A", 3), end=dost(W, 0))


def test_a_stored_deal_without_its_dealer_is_checked_against_the_dealer_due_7_2_1() -> None:
    """A deal stored without its dealer (an old file's) is dealt by the one due after the
    deals before it: W's dost right after his declaration is allowed when S dealt deal 1
    (W deals deal 2, so N declares before W), and refused once deal 1's dealer is corrected
    to E (S deals deal 2: W declares first, and N could not declare after W's dost)."""
    first = {**deal(end=PLAIN), "dealer": S}
    second = {**GAME.canonical_hand(LATE_DOST), "dealer": None}
    before = [GAME.canonical_hand(first), second]
    assert not isinstance(checked(match_settings(S), before), tuple)
    assert not isinstance(trusted(match_settings(S), before), tuple)
    after = [GAME.canonical_hand({**first, "dealer": E}), second]
    refused = checked(match_settings(S), after)
    assert refused[:2] == ("dost.declared-after", 2)
    assert trusted(match_settings(S), after) == refused


def test_a_stored_deal_after_the_series_is_over_is_refused_trusted_7_3_2() -> None:
    """Deal 1 is corrected to a game won (a wrong dost: EW win 2 matchsticks, added): with a
    target of 2 the series is over, and deal 2, stored when it went on, is refused."""
    hands = stored(deal(end=PLAIN), deal(end=PLAIN))
    won = {**GAME.canonical_hand(deal(combo(N, "A", 3), end=dost(N, 0), sticks="add")),
           "dealer": hands[0]["dealer"], "sticks_by": EW}
    after = [won, hands[1]]
    refused = checked(match_settings(target=2), after)
    assert refused[:2] == ("match.over", 2)
    assert trusted(match_settings(target=2), after) == refused


def test_a_stored_dost_judged_on_the_new_totals_7_2_4() -> None:
    """NS call dost after trick 1 of deal 2 counting 90 + 12 card points = 102, right; deal 1
    corrected to NS 40 leaves them 52: the trusted fold judges the call wrong, as the checked
    fold does, and the 2 matchsticks go to EW."""
    call = deal(end=dost(N, 1, (12, 0), (1, 0)))
    strong = deal(combo(N, "A", 4), combo(S, "7", 3), end=PLAIN)      # NS 40 + 10 + 40
    hands = stored(strong, call)
    assert checked(match_settings(), hands)[0][1][1]["dost_right"] is True
    after = [stored(deal(end=PLAIN))[0], hands[1]]
    result = checked(match_settings(), after)
    assert result[0][1][1]["dost_right"] is False
    assert result[0][1][0]["award"]["winner"] == EW
    assert trusted(match_settings(), after) == result


def test_a_stored_take_made_void_by_an_earlier_edit_is_void_trusted_7_3_1() -> None:
    """NS took 2 matchsticks off EW's pile of 2; an edit leaves EW with 0 on their pile: the
    take no longer removes what it did, so the choice is void and the award pending, in the
    trusted fold as in the checked one."""
    ew_win = {**deal(combo(N, "A", 3), end=dost(N, 0)), "sticks": "add", "sticks_by": EW}
    ns_take = {**deal(combo(E, "A", 3), end=dost(E, 0)), "sticks": "take", "sticks_by": NS,
               "sticks_against": 2}
    hands = stored(ew_win, ns_take)
    assert checked(match_settings(), hands)[0][1][1]["sticks"] == "take"
    after = [stored({**ew_win, "sticks": None, "sticks_by": None})[0], hands[1]]
    result = checked(match_settings(), after)
    assert result[0][1][1]["sticks"] is None and "sticks_void" in result[0][1][1]
    assert trusted(match_settings(), after) == result
