"""The fast path of scoring (issue 12): the fold resumed from cached states
(``referee.engine.scoring``) gives what the fold from scratch gives, after any appends, edits
and deletes; trusted stored facts score as the checked ones do; an import and a posted hand are
still checked in full.

Hands are played by the rules with the tests' table simulators; the matches built from them at
random may break the rules anywhere (a hand after the end, an in-progress hand before the last,
a decider hand out of place), and then both ways must refuse them with the same error."""

from __future__ import annotations

import json
import random
from functools import cache
from typing import Any

import marjolet_helpers
import pytest
import stovkahra_helpers
import tartli_helpers
import troggu_helpers
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.engine import matchfile, scoring
from referee.engine.errors import RuleViolation
from referee.engine.games import get
from referee.engine.games.base import MatchResult

GAMES = ("tartli", "stovkahra", "marjolet", "troggu")
POOL = 14


def match_settings(game: str) -> dict[str, Any]:
    return {
        "tartli": lambda: tartli_helpers.settings(1, 5),
        "stovkahra": lambda: stovkahra_helpers.settings(3, 2),
        "marjolet": lambda: marjolet_helpers.settings(1, 500),
        "troggu": lambda: troggu_helpers.settings(4, 0),
    }[game]()


@cache
def pool(game: str) -> tuple[str, ...]:
    """Hands of ``game`` played by the rules (JSON text: each use is a fresh dict), some with
    their dealer recorded and some without, a few still in progress or ending a game."""
    rng = random.Random(f"scoring-{game}")
    hands: list[dict[str, Any]] = []
    for n in range(POOL):
        if game == "tartli":
            facts = tartli_helpers.simulate_hand(rng, n % 2, claim_chance=0.2).facts
        elif game == "stovkahra":
            facts = stovkahra_helpers.simulate_deal(rng, n % 4, dost_chance=0.3).facts
            facts["sticks"] = rng.choice([None, "add", "take"])
        elif game == "marjolet":
            facts = marjolet_helpers.simulate_hand(rng, n % 2).facts
        else:
            facts = troggu_helpers.simulate_hand(rng, 4, n % 4).facts
        if rng.random() < 0.5:
            facts["dealer"] = n % (4 if game in ("stovkahra", "troggu") else 2)
        if n == POOL - 1:
            facts["end"] = None                   # in progress
        hands.append(facts)
    if game == "tartli":
        hands.append(tartli_helpers.hand(end=tartli_helpers.decider(0)))
    return tuple(json.dumps(hand) for hand in hands)


def fresh(game: str, index: int) -> dict[str, Any]:
    hand: dict[str, Any] = json.loads(pool(game)[index])
    return hand


def outcome(result: MatchResult) -> list[Any]:
    """Everything a result says: each hand's outcome with its details, the draft, the
    standing."""
    hands = [(hand.as_dict(), hand.detail) for hand in result.hands]
    draft = None if result.draft is None else (result.draft.as_dict(), result.draft.detail)
    return [hands, draft, result.standing]


def scratch(game: str, settings: dict[str, Any], hands: list[dict[str, Any]]) -> Any:
    """The fold from the first hand, or the error it stops at."""
    try:
        return outcome(get(game).score(settings, hands))
    except RuleViolation as error:
        return (error.code, error.hand, error.explain())


def cached(
    game: str, settings: dict[str, Any], hands: list[dict[str, Any]], trusted: Any = False,
    match: Any = None,
) -> Any:
    try:
        return outcome(scoring.score(game, settings, hands, trusted, match=match))
    except RuleViolation as error:
        return (error.code, error.hand, error.explain())


def changes(game: str) -> st.SearchStrategy[list[tuple[str, int, int]]]:
    index = st.integers(0, len(pool(game)) - 1)
    where = st.integers(0, 1_000)
    change = st.tuples(st.sampled_from(["append", "append", "edit", "delete", "insert"]),
                       where, index)
    return st.lists(change, min_size=1, max_size=25)


def apply(hands: list[dict[str, Any]], change: tuple[str, int, int], game: str) -> None:
    kind, where, index = change
    at = where % (len(hands) + 1)
    if kind == "append" or not hands:
        hands.append(fresh(game, index))
    elif kind == "insert":
        hands.insert(at, fresh(game, index))
    elif kind == "edit":
        hands[at % len(hands)] = fresh(game, index)
    else:
        del hands[at % len(hands)]


@pytest.mark.parametrize("game", GAMES)
def test_the_fold_from_cache_equals_the_fold_from_scratch(game: str) -> None:
    """Two matches of the same settings changed in turns, each scored under its own key
    (issue 24) or both under the settings' key alone (as the command line scores): always
    what the fold from scratch gives."""
    @settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(steps=changes(game), trust=st.booleans(), turns=st.lists(st.booleans()),
           keyed=st.booleans())
    def check(steps: list[tuple[str, int, int]], trust: bool, turns: list[bool],
              keyed: bool) -> None:
        scoring.forget()
        match = match_settings(game)
        hands: list[list[dict[str, Any]]] = [[], []]
        # the hands of each match last scored without error
        stored: list[list[dict[str, Any]] | None] = [None, None]
        for at, step in enumerate(steps):
            which = int(turns[at]) if at < len(turns) else 0
            key = which if keyed else None
            apply(hands[which], step, game)
            # as the web reads them: a fresh copy of the match at every request
            hands[which] = new = json.loads(json.dumps(hands[which]))
            before = stored[which]
            trusted: Any = before if trust and before is not None else False
            expected = scratch(game, match, new)
            if trusted and step[1] % 3 == 0:
                scoring.forget()            # the trusted hands folded afresh, unchecked
            assert cached(game, match, new, trusted, key) == expected
            assert cached(game, match, new, match=key) == expected     # once more, all cached
            ok = not isinstance(expected, tuple)
            stored[which] = json.loads(json.dumps(new)) if ok else None

    check()


def long_match(game: str, length: int = 30) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A match of ``game`` that the fold accepts: pool hands appended while they fit."""
    match = match_settings(game)
    hands: list[dict[str, Any]] = []
    rng = random.Random(f"long-{game}")
    for _ in range(length * 20):
        if len(hands) == length:
            break
        hand = fresh(game, rng.randrange(len(pool(game)) - 1))        # never in progress
        try:
            get(game).score(match, [*hands, hand])
        except RuleViolation:
            continue
        hands.append(hand)
    assert len(hands) >= 5
    return match, hands


def as_file(game: str, match: dict[str, Any], hands: list[dict[str, Any]]) -> str:
    return json.dumps({"format": "referee-match", "version": 1, "game": game,
                       "created": "2026-12-01", "settings": match, "hands": hands})


@pytest.mark.parametrize("game", GAMES)
def test_trusted_stored_facts_score_as_checked_ones(game: str) -> None:
    match, hands = long_match(game)
    text = matchfile.dumps(matchfile.load(as_file(game, match, hands)))
    scoring.forget()
    checked = matchfile.standings(matchfile.load(text))
    scoring.forget()
    trusted = matchfile.standings(matchfile.load(text, trusted=True))
    assert trusted == checked
    scoring.forget()
    stored = json.loads(text)["hands"]
    assert outcome(scoring.score(game, match, stored, True)) == scratch(game, match, stored)


@pytest.mark.parametrize("game", GAMES)
def test_an_import_is_checked_though_its_hands_were_scored_trusted(
    game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An import reuses no hand the cache folded without its checks: each is folded again
    with every check, and one the rules refuse is refused."""
    match, hands = long_match(game)
    text = matchfile.dumps(matchfile.load(as_file(game, match, hands)))
    scoring.forget()
    matchfile.load(text, trusted=True)
    fold = type(get(game).fold(match))
    seen: list[bool | None] = []
    add = fold.add

    def spy(self: Any, number: int, raw: object, last: bool = False) -> object:
        # set on a fold of the scoring cache (None: another fold, e.g. ``complete``'s)
        seen.append(vars(self).get("trusted"))
        return add(self, number, raw, last)

    monkeypatch.setattr(fold, "add", spy)
    matchfile.load(text)
    assert True not in seen
    assert seen.count(False) == len(hands)


BROKEN = {
    # a fact the rules refuse, in a hand otherwise played by the rules
    "tartli": lambda hand: hand["tricks"][0].update(winner=7),
    "stovkahra": lambda hand: hand.update(trumps="x"),
    "marjolet": lambda hand: hand.update(turnup="1z"),
    "troggu": lambda hand: hand.update(dealer=9),
}


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("where", ["first", "last"])
def test_an_invalid_fact_in_a_match_file_is_refused_after_a_trusted_load(
    game: str, where: str
) -> None:
    match, hands = long_match(game)
    text = matchfile.dumps(matchfile.load(as_file(game, match, hands)))
    scoring.forget()
    matchfile.standings(matchfile.load(text, trusted=True))
    data = json.loads(text)
    number = 1 if where == "first" else len(hands)
    BROKEN[game](data["hands"][number - 1])
    with pytest.raises(RuleViolation) as refused:
        matchfile.load(json.dumps(data))
    assert refused.value.hand == number


@pytest.mark.parametrize("game", GAMES)
def test_a_posted_hand_is_checked_in_full(game: str) -> None:
    """The stored hands are trusted, the new one is not: one the rules refuse is refused,
    naming its hand, as the fold from scratch does."""
    match, hands = long_match(game)
    stored = json.loads(json.dumps(hands[:-1]))
    scoring.forget()
    scoring.score(game, match, stored, True)
    posted = json.loads(json.dumps(hands[-1]))
    BROKEN[game](posted)
    new = [*json.loads(json.dumps(stored)), posted]
    expected = scratch(game, match, new)
    assert isinstance(expected, tuple)
    assert cached(game, match, new, stored) == expected


def test_a_posted_tartli_hand_breaking_a_check_of_6_3_is_refused() -> None:
    """A pile count no cards can make (6.3.2: 1 is never possible) is a check the trusted fold
    skips: a posted hand goes through it all the same."""
    match, hands = long_match("tartli")
    played = [n for n, hand in enumerate(hands) if (hand["end"] or {}).get("kind") == "played"]
    last = played[-1]
    stored = json.loads(json.dumps(hands[:last]))
    scoring.forget()
    scoring.score("tartli", match, stored, True)
    posted = json.loads(json.dumps(hands[last]))
    posted["end"]["piles"] = [150, 1]
    posted["end"]["stichmatsch"] = None
    new = [*json.loads(json.dumps(stored)), posted]
    with pytest.raises(RuleViolation) as refused:
        scoring.score("tartli", match, new, stored)
    assert (refused.value.code, refused.value.hand) == ("piles.impossible", last + 1)


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10**9), players=st.integers(4, 8))
def test_a_stored_troggu_hand_reads_as_the_checked_one(seed: int, players: int) -> None:
    """Troggu's trusted read of a hand the app wrote (``read_canonical``) gives the facts
    ``parse_hand`` gives, every check passed: a hand played by the rules, in any game."""
    from referee.engine.games.troggu.facts import parse_hand, read_canonical

    rng = random.Random(seed)
    facts = troggu_helpers.simulate_hand(rng, players, rng.randrange(players)).facts
    canonical = get("troggu").canonical_hand(facts)
    assert read_canonical(canonical) == parse_hand(canonical) == parse_hand(facts)


def test_a_trusted_troggu_hands_lines_are_written_when_read() -> None:
    """A trusted hand is scored without its explanation; its lines, written when first read,
    are those of the hand checked in full (out-of-turn dealers included)."""
    match, hands = long_match("troggu")
    text = matchfile.dumps(matchfile.load(as_file("troggu", match, hands)))
    stored = json.loads(text)["hands"]                  # as the app wrote them
    scoring.forget()
    result = scoring.score("troggu", match, stored, True)
    assert all("lines" not in vars(hand) for hand in result.hands)
    expected = get("troggu").score(match, stored)
    assert [hand.lines for hand in result.hands] == [hand.lines for hand in expected.hands]
    assert result.hands == expected.hands


def test_a_changed_stored_hand_is_never_trusted() -> None:
    """Trusted are only the hands equal to the stored ones: a hand that differs from the
    stored hand at its place (forged, or changed in a copy) is checked in full, wherever it
    is, though the stored hands around it are the very objects scored before."""
    for game in GAMES:
        match, hands = long_match(game)
        text = matchfile.dumps(matchfile.load(as_file(game, match, hands)))
        stored = json.loads(text)["hands"]              # as the app wrote them
        scoring.forget()
        scoring.score(game, match, stored, True)
        forged = json.loads(json.dumps(stored[2]))
        BROKEN[game](forged)
        new = [*stored[:2], forged, *stored[3:]]
        with pytest.raises(RuleViolation) as refused:
            scoring.score(game, match, new, stored)
        assert refused.value.hand == 3


def _spy_on_adds(game: str, match: dict[str, Any], monkeypatch: pytest.MonkeyPatch,
                 ) -> list[tuple[int, bool | None, bool]]:
    """Each hand the scoring cache's fold adds: (number, trusted, offered its outcome)."""
    fold = type(get(game).fold(match))
    seen: list[tuple[int, bool | None, bool]] = []
    add = fold.add

    def spy(self: Any, number: int, raw: object, last: bool = False) -> object:
        seen.append((number, vars(self).get("trusted"), vars(self).get("prior") is not None))
        return add(self, number, raw, last)

    monkeypatch.setattr(fold, "add", spy)
    return seen


@pytest.mark.parametrize("game", GAMES)
def test_after_a_delete_the_later_stored_hands_are_trusted_where_they_name_their_dealer(
    game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A delete of hand 1 folds every later hand again, after other hands: a stored hand that
    names its dealer is trusted (what a trusted fold skips reads only the hand itself), one
    without is checked in full again (it is read with the dealer due, which the delete moved),
    though it was checked in full where it stood before; the result is the fold from
    scratch's, or its refusal."""
    match, hands = long_match(game)
    stored = json.loads(json.dumps(hands))
    for hand in stored[2::3]:
        hand.pop("dealer", None)
    assert any("dealer" in hand for hand in stored[1:])
    scoring.forget()
    cached(game, match, stored)           # every hand checked in full, where it stood then
    new = stored[1:]
    expected = scratch(game, match, new)
    seen = _spy_on_adds(game, match, monkeypatch)
    assert cached(game, match, new, stored) == expected
    for number, trusted, _ in seen:
        assert trusted == (new[number - 1].get("dealer") is not None), number


def test_an_edit_of_a_troggu_hand_folds_that_hand_alone(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    """An edit of hand 2 folds that hand alone: the state before each later hand is the one
    it had last time but for the balances, so its outcome is last time's with its balances
    shifted by the edit's difference (Troggu's balances only add up: scoring's ``shifts``).
    The result is the fold from scratch's, lines included, and the next read of the stored
    hands (checked in full once) folds nothing again."""
    from referee.engine.games.troggu import match as troggu_match

    match, hands = long_match("troggu")
    text = matchfile.dumps(matchfile.load(as_file("troggu", match, hands)))
    stored = json.loads(text)["hands"]                  # as the app wrote them: every dealer
    scoring.forget()
    first = scoring.score("troggu", match, stored)      # the first read: checked in full
    new = None
    for index in range(len(pool("troggu")) - 1):
        hand = get("troggu").canonical_hand(fresh("troggu", index))
        candidate = [stored[0], {**hand, "dealer": stored[1]["dealer"]}, *stored[2:]]
        found = scratch("troggu", match, candidate)
        if not isinstance(found, tuple) and found[0][1][0]["scores"] != list(
                first.hands[1].scores):               # other payments: other balances after
            new = candidate
            break
    assert new is not None
    scored = []
    score_hand = troggu_match.score_hand

    def counted(*args: Any, **kwargs: Any) -> Any:
        scored.append(args[0])
        return score_hand(*args, **kwargs)

    monkeypatch.setattr(troggu_match, "score_hand", counted)
    seen = _spy_on_adds("troggu", match, monkeypatch)
    result = scoring.score("troggu", match, new, stored)
    assert len(scored) == 1
    assert seen == [(2, False, False)]
    assert outcome(result) == scratch("troggu", match, new)
    assert all(result.hands[k].totals_after != first.hands[k].totals_after
               for k in range(2, len(new)))
    seen.clear()
    scoring.score("troggu", match, json.loads(json.dumps(new)))
    assert seen == []


@pytest.mark.parametrize("game", GAMES)
def test_after_an_edit_that_leaves_the_state_as_it_was_no_later_hand_is_folded(
    game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stored hand edited to say no dealer, where its dealer was the one due: it scores as
    before, so the fold's state after it is what it was, and every later hand's outcome is
    last time's, the very object, without folding it again (where it names its dealer)."""
    match, hands = long_match(game)
    text = matchfile.dumps(matchfile.load(as_file(game, match, hands)))
    stored = json.loads(text)["hands"]                  # as the app wrote them: every dealer
    scoring.forget()
    first = scoring.score(game, match, stored)          # the first read: checked in full
    for k in range(1, len(stored) - 1):
        new = [*stored[:k], {key: value for key, value in stored[k].items() if key != "dealer"},
               *stored[k + 1:]]
        if [hand.as_dict() for hand in get(game).score(match, new).hands] == [
                hand.as_dict() for hand in first.hands]:        # the dealer was the one due
            break
    else:
        pytest.skip("no hand dealt by the dealer due")
    seen = _spy_on_adds(game, match, monkeypatch)
    result = scoring.score(game, match, new, stored)
    # a later hand that names no dealer is read with the dealer due: checked in full again;
    # and a hand still in progress is folded again (only complete hands are kept)
    unnamed = [j for j in range(k + 2, len(new) + 1) if new[j - 1].get("dealer") is None
               or (j == len(new) and first.draft is not None)]
    assert [number for number, _, _ in seen] == [k + 1, *unnamed]
    assert all(result.hands[j - 1] is first.hands[j - 1]
               for j in range(k + 2, len(new) + 1) if j not in unnamed)
    assert outcome(result) == scratch(game, match, new)


@pytest.mark.parametrize("game", GAMES)
def test_hands_taken_as_they_were_after_random_changes_score_as_from_scratch(
    game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stored match (every dealer recorded, as the app writes it), changed again and again
    at random places (an edit, a delete, an insert), each change scored with the stored hands
    trusted as the web scores it: always what the fold from scratch gives. The later hands
    are taken as they were (Troggu: shifted, renumbered after a delete or an insert) wherever
    the fold's state before them is last time's, so this checks that path over many
    changes."""
    match, hands = long_match(game)
    stored = json.loads(matchfile.dumps(matchfile.load(as_file(game, match, hands))))["hands"]
    taken = []
    taken_as_they_were = scoring._taken

    def counted(outcomes: Any, afters: Any, number: int, difference: tuple[int, ...],
                shifts: str | None) -> Any:
        taken.append((outcomes[0].number != number, any(difference)))
        return taken_as_they_were(outcomes, afters, number, difference, shifts)

    monkeypatch.setattr(scoring, "_taken", counted)
    scoring.forget()
    scoring.score(game, match, stored)
    rng = random.Random(f"changes-{game}")
    for _ in range(40):
        new = json.loads(json.dumps(stored))
        at = rng.randrange(len(new))
        kind = rng.choice(["edit", "delete", "insert"])
        if kind == "delete" and len(new) > 5:
            del new[at]
        else:
            hand = {**stored[rng.randrange(len(stored))], "dealer": new[at]["dealer"]}
            if kind == "edit":
                new[at] = hand
            else:
                new.insert(at, hand)
        expected = scratch(game, match, new)
        assert cached(game, match, new, stored) == expected
        if not isinstance(expected, tuple):
            stored = new
    if game == "troggu":             # every change moves the balances after it: shifted
        assert (True, True) in taken and (False, True) in taken


@pytest.mark.parametrize("game", GAMES)
def test_matches_of_the_same_settings_scored_in_turns_each_keep_their_fold(
    game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two matches of one game with the same settings (a club's default matches), scored in
    turns: each keeps its own fold (issue 24), so scoring one again after the other folds no
    hand again; and each result is the fold from scratch's."""
    match, hands = long_match(game)
    other = [json.loads(json.dumps(hand)) for hand in hands[:3]]
    expected = scratch(game, match, hands)
    scoring.forget()
    first = scoring.score(game, match, hands, match="a")
    scoring.score(game, match, other, match="b")
    seen = _spy_on_adds(game, match, monkeypatch)
    again = scoring.score(game, match, json.loads(json.dumps(hands)), match="a")
    assert seen == []
    assert outcome(again) == outcome(first) == expected
    scoring.score(game, match, json.loads(json.dumps(other)), match="b")
    assert seen == []


def test_the_folds_kept_are_bounded_in_matches_and_in_hands(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    """At most ``MATCHES`` matches and ``HANDS`` hands in all are kept, the least recently
    scored match dropped first: scored again, it folds every hand again."""
    match, hands = long_match("troggu")
    monkeypatch.setattr(scoring, "HANDS", 2 * len(hands))
    scoring.forget()
    for name in ("a", "b", "c"):
        scoring.score("troggu", match, hands, match=name)
    assert scoring.held() == (2, 2 * len(hands))
    seen = _spy_on_adds("troggu", match, monkeypatch)
    scoring.score("troggu", match, hands, match="c")        # kept: nothing folded
    scoring.score("troggu", match, hands, match="b")
    assert seen == []
    scoring.score("troggu", match, hands, match="a")        # dropped: folded again
    assert len(seen) == len(hands)
    assert scoring.held() == (2, 2 * len(hands))
    monkeypatch.setattr(scoring, "MATCHES", 1)
    scoring.score("troggu", match, hands[:2], match="d")
    assert scoring.held() == (1, 2)
    monkeypatch.setattr(scoring, "HANDS", 1)
    scoring.score("troggu", match, hands, match="e")        # longer than the bound: kept alone
    assert scoring.held() == (1, len(hands))
