"""Tartli's trusted fold (issue 12): a stored hand, read and scored straight from its JSON
(``stored.py``), scores as the hand checked in full; and what the trusted fold skips depends
only on the hand's own facts and its recorded dealer, never on the hands before it: a stored
hand that an earlier change makes wrong (the match over before it, no tie before a decider
hand, another dealer due) is refused by the trusted fold as by the checked one. Players:
0 = A, 1 = B."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tartli_helpers import NAMES, A, B, claim, decider, hand, played, simulate_hand, tricks
from tartli_helpers import settings as match_settings
from test_tartli_review import with_cards

from referee.engine import scoring
from referee.engine.errors import RuleViolation
from referee.engine.games import get
from referee.engine.games.base import MatchResult
from referee.engine.games.tartli.facts import parse_hand
from referee.engine.games.tartli.hand import score_hand
from referee.engine.games.tartli.match import MatchFold
from referee.engine.games.tartli.stored import score_stored

GAME = get("tartli")


def stored(hands: list[dict[str, Any]], first_dealer: int) -> list[dict[str, Any]]:
    """The hands as the app stores them: canonical, every dealer recorded (a fresh copy)."""
    return json.loads(json.dumps(GAME.complete(
        match_settings(first_dealer), [GAME.canonical_hand(h) for h in hands])))


def refusal(match: dict[str, Any], hands: list[dict[str, Any]], trusted: bool) -> Any:
    """The RuleViolation (code and hand) the fold stops at: trusted (every hand stored), or
    checked in full; None when it accepts them."""
    scoring.forget()
    try:
        if trusted:
            scoring.score("tartli", match, hands, True)
        else:
            GAME.score(match, hands)
    except RuleViolation as error:
        return error.code, error.hand
    return None


def everything(result: MatchResult) -> list[Any]:
    """Each hand's outcome (lines included) with its details, the draft, the standing."""
    hands = [(hand.as_dict(), hand.detail) for hand in result.hands]
    draft = None if result.draft is None else (result.draft.as_dict(), result.draft.detail)
    return [hands, draft, result.standing]


# ---------------------------------------------------------------------------------------------
# Hands stored valid, made wrong by a change before them


def wrong_claim() -> dict[str, Any]:
    """B claims 501 before any trick with nothing counted: wrong, A wins 1 buli (7.3.3)."""
    return hand(end=claim(B, 0, (0, 0)))


def ordinary(last: int = A) -> dict[str, Any]:
    """Tricks won in turn, the last by ``last``, who scores 81, the other 80."""
    if last == A:
        return hand("BA" * 8, end=played((71, 80), A))
    return hand("AB" * 8, end=played((80, 71), B))


def test_a_stored_hand_after_the_match_is_over_is_refused_trusted() -> None:
    """A wins 5 buli with the sixth hand; the fourth, changed to a wrong claim of B's, ends
    the match a hand earlier: the sixth hand is after the end (7.5), trusted or not."""
    match = match_settings(B, 5)
    hands = stored([wrong_claim(), wrong_claim(), wrong_claim(), ordinary(), wrong_claim(),
                    wrong_claim()], B)
    assert refusal(match, hands, False) is None
    assert refusal(match, hands, True) is None
    hands[3] = stored([wrong_claim()], hands[3]["dealer"])[0]
    assert refusal(match, hands, False) == ("match.over", 6)
    assert refusal(match, hands, True) == ("match.over", 6)


def tie_then_decider() -> list[dict[str, Any]]:
    """Six hands ending in a tie at 503 (7.4), then the decider hand: A scores 81 and 80 in
    turn, B 80 and 81; in hand 6 B's béla makes it A 100, B 101."""
    hands = [ordinary(A if n % 2 == 0 else B) for n in range(5)]             # 403 – 402
    hands.append(hand("BA" * 8, end=played((90, 61), A), bela=(B, 2)))     # 503 – 503
    hands.append(hand(end=decider(A), indicator=None))
    return hands


def test_a_stored_decider_hand_no_longer_after_a_tie_is_refused_trusted() -> None:
    match = match_settings(B, 5)
    hands = stored(tie_then_decider(), B)
    assert refusal(match, hands, False) is None
    assert refusal(match, hands, True) is None
    assert scoring.score("tartli", match, hands, True).hands[5].summary == \
        "both at 503: a decider hand follows"
    hands[5]["bela"] = None                          # the sixth hand without B's béla
    assert refusal(match, hands, False) == ("decider.not-due", 7)
    assert refusal(match, hands, True) == ("decider.not-due", 7)


def test_a_stored_ordinary_hand_after_a_new_tie_is_refused_trusted() -> None:
    """The other way round: the hand after the sixth is an ordinary one, and a change to the
    sixth makes it a tie: a decider hand is due (7.4)."""
    match = match_settings(B, 5)
    hands = stored([*tie_then_decider()[:6], ordinary()], B)
    hands[5]["bela"] = None
    assert refusal(match, hands, False) is None
    assert refusal(match, hands, True) is None
    hands[5]["bela"] = {"player": B, "trick": 2}
    assert refusal(match, hands, False) == ("decider.due", 7)
    assert refusal(match, hands, True) == ("decider.due", 7)


def exchanged_by_a() -> dict[str, Any]:
    """A leads trick 1 (B dealt), exchanges the trump 7 for the indicator 8h before it and
    shows the 8h in his terc of trick 1 (2.8, 6.3.6); no dealer recorded."""
    return {**ordinary(B), "tricks": tricks("AB" * 8, {1: (["seq:h/10/3"], [])}), "exchange": 1}


def test_a_stored_hand_without_its_dealer_is_checked_with_the_dealer_due() -> None:
    """A hand stored without its dealer is read with the dealer due, which the hands before it
    decide: after a hand before it is deleted, A deals it, B leads trick 1 and exchanges, and
    A cannot show the indicator (6.3.6). The trusted fold checks it as the checked one does."""
    match = match_settings(B, 5)
    first_two = stored([ordinary(), ordinary()], B)                  # dealt by B, then A
    odd = GAME.canonical_hand(exchanged_by_a())
    assert "dealer" not in odd
    hands = [*first_two, odd]                                        # B deals the third
    assert refusal(match, hands, False) is None
    assert refusal(match, hands, True) is None
    hands = [first_two[0], odd]                                      # A deals the second
    assert refusal(match, hands, False) == ("cards.indicator", 2)
    assert refusal(match, hands, True) == ("cards.indicator", 2)


def test_a_stored_hand_with_its_dealer_is_scored_from_its_json() -> None:
    """The same hand with its dealer recorded is read straight from its JSON, its lines
    written only when read: those of the hand checked in full."""
    raw = stored([exchanged_by_a()], B)[0]
    read = score_stored(raw, NAMES)
    assert read is not None and read.dealer == B
    assert "lines" not in vars(read.score)
    expected = score_hand(parse_hand(raw), B, NAMES)
    assert read.facts == parse_hand(raw)
    assert read.score == expected and read.score.lines == expected.lines
    assert score_stored({**raw, "dealer": None}, NAMES) is None        # the dealer due decides


# ---------------------------------------------------------------------------------------------
# The trusted fold gives what the checked fold gives


def stored_hand(seed: int, dealer: int, claim: bool, in_progress: bool) -> dict[str, Any]:
    """A hand played by the rules (a claim likelier with ``claim``; with ``in_progress`` its
    tricks won so far only), as the app stores it."""
    rng = random.Random(seed)
    facts = simulate_hand(rng, dealer, claim_chance=0.5 if claim else 0.0).facts
    if in_progress:
        facts = {**facts, "end": None,
                 "tricks": [t for t in facts["tricks"] if t["winner"] is not None]}
    return {"dealer": dealer, **GAME.canonical_hand(facts)}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), dealer=st.sampled_from([A, B]), claim=st.booleans(),
       in_progress=st.booleans())
def test_a_stored_hand_scores_as_the_hand_checked_in_full(
    seed: int, dealer: int, claim: bool, in_progress: bool
) -> None:
    """Any hand played by the rules (claims, concessions, bélas, exchanges; a hand still in
    progress too): read from its JSON, the facts, verdicts, points and lines are those of the
    hand read and checked in full."""
    raw = stored_hand(seed, dealer, claim, in_progress)
    expected = score_hand(parse_hand(raw), dealer, NAMES)
    read = score_stored(raw, NAMES)
    assert read is not None
    assert read.facts == parse_hand(raw)
    assert read.score == expected
    assert read.score.scores == expected.scores and read.score.lines == expected.lines


def long_matches() -> list[list[dict[str, Any]]]:
    """Whole matches played by the rules to 10 buli, as the benchmark plays them."""
    from tests.bench.engine import bench

    return bench("tartli", 300).matches


@pytest.mark.parametrize("index", range(3))
def test_a_long_match_folded_trusted_gives_what_the_checked_fold_gives(index: int) -> None:
    matches = long_matches()
    if index >= len(matches):
        pytest.skip("fewer matches")
    match = match_settings(1, 10)
    hands = stored(matches[index], 1)
    checked = everything(GAME.score(match, hands))
    scoring.forget()
    result = scoring.score("tartli", match, hands, True)
    assert all("lines" not in vars(hand) for hand in result.hands)    # written when read
    assert everything(result) == checked
    assert [hand.detail["facts"] for hand in result.hands] == [parse_hand(h) for h in hands]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9))
def test_a_stored_hand_with_its_cards_scores_as_the_hand_checked_in_full(seed: int) -> None:
    """A hand recorded card by card (6.1.6: the winners come from the cards) is not read
    straight from its JSON; folded trusted, it gives what the checked fold gives."""
    rng = random.Random(seed)
    hands = [with_cards(simulate_hand(rng, dealer)) for dealer in (B, A)]
    match = match_settings(B, 5)
    hands = stored(hands, B)
    assert score_stored(hands[0], NAMES) is None
    try:
        checked = everything(GAME.score(match, hands))
    except RuleViolation:
        return          # the two hands end the match's game otherwise than in turn
    scoring.forget()
    assert everything(scoring.score("tartli", match, hands, True)) == checked


def test_the_folds_state_between_hands_holds_nothing_to_copy() -> None:
    """The scoring cache keeps the fold's state after every hand, copying each list, dict and
    set in it (scoring.py; issue 12): the Tartli fold keeps only values that need no copy,
    its players' names, totals and buli as tuples."""
    fold = MatchFold(match_settings(B, 5))
    for number, raw in enumerate(stored([ordinary(), ordinary(B), wrong_claim()], B), 1):
        fold.add(number, raw)
        copied = [key for key, value in vars(fold).items()
                  if key not in ("hands", "draft") and isinstance(value, (list, dict, set))]
        assert copied == [], number
    assert fold.names == ("A", "B") and fold.buli == (1, 0)


def test_a_hand_with_melds_after_trick_8_is_not_read_from_its_json() -> None:
    """Sets and sequences are declared only in tricks 1–8 (4.3.1): the app never writes one
    later, so a hand that has one is not read straight from its JSON (with melds in the
    first tricks or without)."""
    for early in ({}, {1: (["seq:l/U/3"], [])}):
        raw = stored([hand("AB" * 8, early, end=played((80, 71), B))], A)[0]
        assert score_stored(raw, NAMES) is not None
        raw["tricks"][8]["melds"][1] = ["seq:b/U/3"]
        assert score_stored(raw, NAMES) is None


def test_a_stored_hand_is_folded_from_its_scores_its_facts_read_when_first_asked_for() -> None:
    """A first view of a long match shows each hand's scores: a stored hand is folded from its
    dealer, its end and its scores alone; its facts (every trick's winner), the verdicts of its
    meld contests and its score in full are read from the same JSON when a page first asks
    for them, and are those of the hand checked in full. What the fold set meanwhile (a
    claim's verdict, 7.3) stays."""
    match = match_settings(B, 5)
    hands = stored([exchanged_by_a(), wrong_claim()], B)
    scoring.forget()
    result = scoring.score("tartli", match, hands, True)
    first, second = result.hands
    assert dict(dict.items(first.detail)) == {}                      # nothing read yet
    assert dict(dict.items(second.detail)) == {"claim_right": False}
    checked = GAME.score(match, hands).hands
    assert first.detail == checked[0].detail and second.detail == checked[1].detail
    assert first.detail["facts"] == parse_hand(hands[0])
    assert first.detail["verdicts"] == score_hand(parse_hand(hands[0]), B, NAMES).verdicts
    assert second.detail["claim_right"] is False


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), dealer=st.sampled_from([A, B]), claim=st.booleans(),
       in_progress=st.booleans())
def test_a_stored_hands_scores_read_at_once_are_those_of_the_hand_checked_in_full(
    seed: int, dealer: int, claim: bool, in_progress: bool
) -> None:
    """What the fold reads of a stored hand at once, before its facts (its dealer, its end and
    its two scores: the melds that score in tricks 1–8, the béla, the piles, the last trick or
    the stichmatsch; 6.2), is what the hand read and checked in full gives: any hand played
    by the rules, claims (7.3), concessions, bélas, exchanges, a hand in progress."""
    raw = stored_hand(seed, dealer, claim, in_progress)
    checked = parse_hand(raw)
    read = score_stored(raw, NAMES)
    assert read is not None
    assert (read.dealer, read.end, read.scores) == (
        dealer, checked.end, score_hand(checked, dealer, NAMES).scores)


def test_a_stored_claim_is_folded_from_its_scores_and_piles(monkeypatch: Any) -> None:
    """A claim's count (7.3.2: the total, the melds and béla, the piles of the completed
    tricks) comes from the hand's scores and its piles: a stored claim is folded without its
    facts being read, and its lines, made when read, are those of the hand checked in full."""
    import referee.engine.games.tartli.stored as read_from_json

    read_in_full = []
    in_full = read_from_json._in_full
    monkeypatch.setattr(read_from_json, "_in_full",
                        lambda *given: read_in_full.append(given) or in_full(*given))
    match = match_settings(B, 5)
    hands = stored([ordinary(), hand("BA" * 2, {1: ([], ["seq:l/U/3"])},
                                     end=claim(A, 4, (40, 31)), bela=(A, 2))], B)
    scoring.forget()
    result = scoring.score("tartli", match, hands, True)
    assert read_in_full == []
    checked = GAME.score(match, hands)
    assert [h.as_dict() for h in result.hands] == [h.as_dict() for h in checked.hands]
    assert len(read_in_full) == 2                                       # read for the lines


def test_a_stored_hand_that_could_not_be_read_in_full_later_is_not_read_from_its_json() -> None:
    """A stored hand is folded from its scores and its facts read later: one whose facts
    could not be read as they stand (here a trick's winner that is no player, after trick 8)
    is not read from its JSON at all, but read and checked in full at once, as before."""
    raw = stored([hand("AB" * 8, end=played((80, 71), B))], A)[0]
    assert score_stored(raw, NAMES) is not None
    raw["tricks"][11]["winner"] = 2
    assert score_stored(raw, NAMES) is None


def test_a_trusted_hands_melds_are_scored_without_their_checks_again() -> None:
    """A hand the app checked when it stored it is scored without the checks again (``score_hand``,
    trusted: its lines when a page asks for them, a stored hand with its cards recorded), those
    of the melds too: who may declare (4.5). Here A leads trick 1 with four Aces and B
    answers with a terc, which 4.5 refuses when the hand is checked."""
    raw = hand("AB" * 8, {1: (["set:A"], ["seq:l/U/3"])}, end=played((80, 71), B))
    facts = parse_hand(raw)
    with pytest.raises(RuleViolation) as refused:
        score_hand(facts, B, NAMES)
    assert refused.value.code == "meld.not-eligible"
    assert score_hand(facts, B, NAMES, True).melds == [100, 0]
