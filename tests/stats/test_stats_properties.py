"""Properties of the statistics and the CSV over random matches played by the engine tests'
table simulators: averages times hands give the points, the running totals are the sums of
the hand scores, an edited hand moves the statistics by its own difference, and the date range
keeps exactly the matches created inside it."""

from __future__ import annotations

import csv
import datetime
import io
import random
from collections.abc import Callable
from typing import Any

import marjolet_helpers as mj
import stovkahra_helpers as sk
import tartli_helpers as ta
import troggu_helpers as tg
from hypothesis import given, settings
from hypothesis import strategies as st
from stats_helpers import canonical

from referee.engine.errors import RuleViolation
from referee.engine.games import get
from referee.engine.games.base import HandOutcome, MatchResult
from referee.stats import Played, statistics
from referee.stats.csv import hands_csv

PEOPLE = ("Ilse", "Jon", "Kai", "Lea", "Mo", "Nia", "Ole", "Pia")
DAY = datetime.date(2026, 11, 30)


def _grow(game: str, settings: dict[str, Any], make: Callable[[int], dict[str, Any]],
          count: int) -> list[dict[str, Any]]:
    """Up to ``count`` hands, each dealt by the dealer the rules propose after the last (a
    hand the match no longer takes, after its end or where a decider is due, stops it)."""
    hands: list[dict[str, Any]] = []
    for _ in range(count):
        dealer = get(game).score(settings, hands).standing.dealer
        more = canonical(game, settings, [*hands, make(dealer)])
        try:
            get(game).score(settings, more)
        except RuleViolation:
            break
        hands = more
    return hands


def random_match(rng: random.Random, game: str, count: int, created: datetime.date = DAY,
                 people: tuple[str, ...] | None = None) -> Played:
    if game == "tartli":
        rules = ta.settings(first_dealer=rng.randrange(2))
        hands = _grow(game, rules, lambda d: ta.simulate_hand(rng, d, claim_chance=0.2).facts,
                      count)
    elif game == "stovkahra":
        rules = sk.settings(first_dealer=rng.randrange(4), target=3)
        hands = _grow(game, rules, lambda d: {
            **sk.simulate_deal(rng, d, dost_chance=0.3).facts,
            "sticks": rng.choice(["add", "take", None])}, count)
    elif game == "marjolet":
        rules = mj.settings(first_dealer=rng.randrange(2))
        hands = _grow(game, rules, lambda d: mj.simulate_hand(rng, d).facts, count)
    else:
        n = rng.randint(3, 8)
        rules = tg.settings(n, first_dealer=rng.randrange(n))
        hands = _grow(game, rules, lambda d: tg.simulate_hand(rng, n, d).facts, count)
    seats = len(rules["players"])
    who = people or tuple(rng.sample(PEOPLE, seats))
    return Played(game, created, rules, hands, who[:seats])


def _side(game: str, seat: int) -> int:
    return seat % 2 if game == "stovkahra" else seat


def _score(m: Played) -> MatchResult:
    return get(m.game).score(m.settings, m.hands)


GAMES = st.sampled_from(["tartli", "stovkahra", "marjolet", "troggu"])


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), games=st.lists(GAMES, min_size=1, max_size=4))
def test_average_times_hands_is_the_sum_of_the_hand_scores(seed: int, games: list[str]) -> None:
    rng = random.Random(seed)
    matches = [random_match(rng, game, rng.randint(0, 6)) for game in games]
    stats = statistics(matches)
    expected: dict[str, dict[str, list[int]]] = {}
    for m in matches:
        for seat, person in enumerate(m.people):
            scores = [o.scores[_side(m.game, seat)] for o in _score(m).hands]
            expected.setdefault(person, {}).setdefault(m.game, []).extend(scores)
    assert set(stats["players"]) == set(expected)
    for person, by_game in expected.items():
        player = stats["players"][person]
        for game, scores in by_game.items():
            figures = player["games"][game]
            assert figures["hands"] == len(scores)
            assert figures["points"] == sum(scores)
            if scores:
                assert abs(figures["average_hand_score"] * len(scores) - sum(scores)) < 1e-6
            else:
                assert figures["average_hand_score"] is None
        everything = [score for scores in by_game.values() for score in scores]
        assert player["hands"] == len(everything) and player["points"] == sum(everything)
        assert player["matches"] == sum(f["matches"] for f in player["games"].values())


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), game=GAMES)
def test_the_csv_totals_are_the_sums_of_its_hands_and_end_at_the_standing(
        seed: int, game: str) -> None:
    m = random_match(random.Random(seed), game, 8)
    result = _score(m)
    text = hands_csv(m.game, m.settings, result)
    rows = list(csv.reader(io.StringIO(text, newline="")))
    sides = get(game).sides(m.settings)
    assert rows[0] == [get(game).hand_word.capitalize(), "Dealer",
                       *[f"{side} {what}" for side in sides for what in ("score", "total")],
                       "Summary"]
    body = rows[1:]
    assert len(body) == len(result.hands)
    running = [0] * len(sides)
    for number, (row, outcome) in enumerate(zip(body, result.hands), 1):
        assert int(row[0]) == number
        assert row[1] == m.settings["players"][outcome.dealer]
        assert row[-1] == outcome.summary
        numbers = [int(cell) for cell in row[2:-1]]
        scores, totals = numbers[0::2], numbers[1::2]
        assert tuple(scores) == outcome.scores
        running = [total + score for total, score in zip(running, scores)]
        assert totals == running, (number, row)
        if outcome.reset:
            running = [0] * len(sides)
    if body:
        last = [int(cell) for cell in body[-1][3:-1:2]]
        expected = [0] * len(sides) if result.hands[-1].reset else last
        assert list(result.standing.totals) == expected


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), pick=st.integers(0, 100))
def test_an_edited_hand_moves_the_statistics_by_its_own_difference(seed: int, pick: int) -> None:
    rng = random.Random(seed)
    m = random_match(rng, "troggu", 6)
    if not m.hands:
        return
    k = pick % len(m.hands)
    old = _score(m).hands[k]
    n = len(m.people)
    while True:                      # another hand the same dealer could have dealt
        facts = {**tg.simulate_hand(rng, n, old.dealer).facts, "dealer": old.dealer}
        new_hands = [*m.hands[:k], *canonical("troggu", m.settings, [facts]), *m.hands[k + 1:]]
        if new_hands[k] != m.hands[k]:
            break
    edited = Played(m.game, m.created, m.settings, new_hands, m.people)
    new = _score(edited).hands[k]
    before, after = statistics([m])["players"], statistics([edited])["players"]
    for seat, person in enumerate(m.people):
        assert after[person]["points"] - before[person]["points"] == (
            new.scores[seat] - old.scores[seat])
        assert after[person]["hands"] == before[person]["hands"]
        assert _won(after[person]) - _won(before[person]) == (
            _declarer_won(new, seat) - _declarer_won(old, seat))


def _won(player: dict[str, Any]) -> int:
    return sum(player["games"]["troggu"]["won_as_declarer"].values())


def _declarer_won(outcome: HandOutcome, seat: int) -> int:
    return int(outcome.detail.get("declarer") == seat
               and outcome.detail.get("winner") == "declarer")


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), days=st.lists(st.integers(0, 9), min_size=1, max_size=5),
       since=st.none() | st.integers(0, 9), until=st.none() | st.integers(0, 9))
def test_the_date_range_keeps_exactly_the_matches_created_inside_it(
        seed: int, days: list[int], since: int | None, until: int | None) -> None:
    rng = random.Random(seed)

    def day(n: int) -> datetime.date:
        return DAY + datetime.timedelta(days=n)

    matches = [random_match(rng, rng.choice(["tartli", "troggu"]), 3, day(d)) for d in days]
    inside = [m for m in matches
              if (since is None or m.created >= day(since))
              and (until is None or m.created <= day(until))]
    stats = statistics(matches, since=None if since is None else day(since),
                       until=None if until is None else day(until))
    alone = statistics(inside)
    assert stats["matches"] == len(inside)
    assert {k: v for k, v in stats.items() if k not in ("since", "until")} == {
        k: v for k, v in alone.items() if k not in ("since", "until")}
