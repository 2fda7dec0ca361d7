"""Ratings (referee.stats.ratings): a hand-worked example per game against openskill's own
numbers, the order the records come in, and the provisional flag."""

from __future__ import annotations

import datetime
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce, PlackettLuceRating

from referee.engine.games import get
from referee.stats import Played
from referee.stats.ratings import (
    PROVISIONAL,
    RatedMatch,
    Rater,
    as_json,
    places,
    rated_match,
    rated_matches,
    ratings,
)

DATA = Path(__file__).resolve().parent.parent / "data"
DAY = datetime.datetime(2026, 11, 30, 20, 0)
LATER = datetime.datetime(2026, 12, 7, 20, 0)


def file(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / name).read_text(encoding="utf-8"))
    return data


def played(data: dict[str, Any], people: tuple[str, ...], when: datetime.datetime,
           hands: int | None = None, **changed: Any) -> Played:
    settings = {**data["settings"], **changed}
    return Played(data["game"], when, settings, data["hands"][:hands], people)


def record(match: Played) -> RatedMatch:
    result = get(match.game).score(match.settings, match.hands)
    found = rated_match(match, result)
    assert found is not None
    return found


def shown(rating: PlackettLuceRating) -> float:
    """The scale of the module's text, by hand."""
    return 1000 + 40 * (rating.mu - 3 * rating.sigma)


def check(game: str, answer: dict[str, Any], expected: dict[str, PlackettLuceRating],
          matches: int) -> None:
    players = {p.person: p for p in answer[game].players}
    assert set(players) == set(expected)
    for person, rating in expected.items():
        mine = players[person]
        assert mine.mu == pytest.approx(rating.mu, abs=1e-9)
        assert mine.sigma == pytest.approx(rating.sigma, abs=1e-9)
        assert mine.shown == pytest.approx(shown(rating), abs=1e-6)
        assert mine.matches == matches and mine.provisional
        assert mine.history[-1][1] == pytest.approx(shown(rating), abs=1e-6)
    # best first
    assert [p.shown for p in answer[game].players] == sorted(
        (p.shown for p in answer[game].players), reverse=True)


def test_tartli_two_matches_are_openskills_plackett_luce_in_order() -> None:
    data = file("tartli-complete.json")                 # seat 0 wins 5 buli to 0
    first = played(data, ("Anna", "Béla"), DAY)
    second = played(data, ("Béla", "Anna"), LATER)      # now Béla wins
    one, two = record(first), record(second)
    assert (one.sides, one.ranks, one.figures) == ((("Anna",), ("Béla",)), (1, 2), (5, 0))
    answer = ratings([two, one])                        # by time, not as given
    model = PlackettLuce()
    [[anna], [bela]] = model.rate([[model.rating()], [model.rating()]], ranks=[1, 2])
    # the first match by hand: a win between newcomers, on the Elo-like scale
    assert shown(anna) == pytest.approx(1137.5, abs=0.05)
    assert shown(bela) == pytest.approx(926.7, abs=0.05)
    [[bela], [anna]] = model.rate([[bela], [anna]], ranks=[1, 2])
    check("tartli", answer, {"Anna": anna, "Béla": bela}, 2)
    changes = answer["tartli"].matches[1].changes
    assert [c.person for c in changes] == ["Béla", "Anna"]
    assert changes[0].before == pytest.approx(926.7, abs=0.05)
    assert changes[0].after == pytest.approx(shown(bela), abs=1e-6)
    assert answer["tartli"].matches[0].match == one


def test_marjolet_two_matches() -> None:
    data = file("marjolet-game.json")                   # seat 0 wins the game
    answer = ratings([record(played(data, ("Anna", "Béla"), DAY)),
                      record(played(data, ("Anna", "Carla"), LATER))])
    model = PlackettLuce()
    [[anna], [bela]] = model.rate([[model.rating()], [model.rating()]], ranks=[1, 2])
    [[anna], [carla]] = model.rate([[anna], [model.rating()]], ranks=[1, 2])
    players = {p.person: p for p in answer["marjolet"].players}
    assert players["Anna"].matches == 2 and players["Béla"].matches == 1
    for person, rating in {"Anna": anna, "Béla": bela, "Carla": carla}.items():
        assert players[person].mu == pytest.approx(rating.mu, abs=1e-9)
        assert players[person].sigma == pytest.approx(rating.sigma, abs=1e-9)
        assert players[person].shown == pytest.approx(shown(rating), abs=1e-6)
    # Carla lost to an Anna already rated higher: she loses less than Béla did
    assert [p.person for p in answer["marjolet"].players] == ["Anna", "Carla", "Béla"]


def test_stovkahra_two_matches_rate_the_two_teams() -> None:
    data = file("stovkahra-series.json")
    # a series to 1 matchstick: North–South (seats 0 and 2) win it on the second deal
    first = played(data, ("Anna", "Béla", "Carla", "Dario"), DAY, hands=2, target=1)
    second = played(data, ("Béla", "Carla", "Dario", "Anna"), LATER, hands=2, target=1)
    one = record(first)
    assert (one.sides, one.ranks, one.figures) == (
        (("Anna", "Carla"), ("Béla", "Dario")), (1, 2), (1, 0))
    answer = ratings([one, record(second)])
    model = PlackettLuce()
    new = model.rating
    [[anna, carla], [bela, dario]] = model.rate([[new(), new()], [new(), new()]],
                                                ranks=[1, 2])
    [[bela, dario], [carla, anna]] = model.rate([[bela, dario], [carla, anna]], ranks=[1, 2])
    check("stovkahra", answer, {"Anna": anna, "Béla": bela, "Carla": carla, "Dario": dario}, 2)


def test_troggu_two_evenings_rank_by_balance_with_ties() -> None:
    data = file("troggu-evening.json")      # five hands scored and one being played
    first = played(data, ("Anna", "Beat", "Carla", "Dario"), DAY)
    second = played(data, ("Dario", "Carla", "Beat", "Anna"), LATER, hands=2)
    one, two = record(first), record(second)
    assert one.figures == (-110, 50, 90, -30) and one.ranks == (4, 2, 1, 3)
    assert two.figures == (-30, 10, 50, -30) and two.ranks == (3, 2, 1, 3)   # a tie
    answer = ratings([one, two])
    model = PlackettLuce()
    new = model.rating
    [[anna], [beat], [carla], [dario]] = model.rate([[new()], [new()], [new()], [new()]],
                                                    ranks=[4, 2, 1, 3])
    [[dario], [carla], [beat], [anna]] = model.rate([[dario], [carla], [beat], [anna]],
                                                    ranks=[3, 2, 1, 3])
    check("troggu", answer, {"Anna": anna, "Beat": beat, "Carla": carla, "Dario": dario}, 2)


def test_a_match_not_finished_is_not_rated() -> None:
    short = file("tartli-short.json")              # 3 buli to 0: not over
    match = played(short, ("Anna", "Béla"), DAY)
    assert rated_match(match, get("tartli").score(match.settings, match.hands)) is None
    troggu = played(file("troggu-evening.json"), ("A", "B", "C", "D"), DAY, hands=0)
    assert rated_match(troggu, get("troggu").score(troggu.settings, troggu.hands)) is None
    assert rated_matches([match, troggu]) == []
    unfinished = RatedMatch("tartli", DAY, (("A",), ("B",)), (1, 2), (5, 0), finished=False)
    twice = RatedMatch("tartli", DAY, (("A",), ("A",)), (1, 2), (5, 0))
    assert ratings([unfinished, twice]) == {}


def test_a_player_is_provisional_under_five_matches() -> None:
    def win(n: int) -> RatedMatch:
        return RatedMatch("tartli", DAY + datetime.timedelta(days=n), (("Anna",), ("Béla",)),
                          (1, 2), (5, 0))

    four = ratings([win(n) for n in range(PROVISIONAL - 1)])["tartli"]
    assert [(p.person, p.matches, p.provisional) for p in four.players] == [
        ("Anna", 4, True), ("Béla", 4, True)]
    five = ratings([win(n) for n in range(PROVISIONAL)])["tartli"]
    assert [(p.person, p.matches, p.provisional) for p in five.players] == [
        ("Anna", 5, False), ("Béla", 5, False)]
    assert len(five.players[0].history) == 5
    assert as_json({"tartli": five})["games"]["tartli"]["players"][0]["provisional"] is False


def test_places_share_the_better_place() -> None:
    assert places((-10, 30, -10, -10)) == (2, 1, 2, 2)
    assert places((5, 5)) == (1, 1)


# -- the order the records come in ---------------------------------------------------------

PEOPLE = ("Anna", "Béla", "Carla", "Dario", "Eszter", "Feri")
TIMES = [datetime.datetime(2026, 11, day, 20) for day in (1, 2, 3)]


@st.composite
def records(draw: st.DrawFn) -> RatedMatch:
    game = draw(st.sampled_from(("tartli", "stovkahra", "troggu")))
    size = {"tartli": 2, "stovkahra": 4}.get(game) or draw(st.integers(3, 4))
    people = draw(st.permutations(PEOPLE))[:size]
    when = draw(st.sampled_from(TIMES))
    if game == "troggu":
        figures = tuple(draw(st.lists(st.integers(-3, 3).map(lambda n: n * 10),
                                      min_size=size, max_size=size)))
        return RatedMatch(game, when, tuple((p,) for p in people), places(figures), figures)
    sides = ((people[0],), (people[1],)) if size == 2 else (
        (people[0], people[2]), (people[1], people[3]))
    winner = draw(st.integers(0, 1))
    return RatedMatch(game, when, sides, (1, 2) if winner == 0 else (2, 1),
                      (1, 0) if winner == 0 else (0, 1))


@settings(max_examples=60, deadline=None)
@given(st.lists(records(), max_size=14), st.lists(st.integers(1, 4), max_size=14))
def test_the_same_matches_at_once_or_in_pieces_give_the_same_ratings(
        given_records: list[RatedMatch], cuts: list[int]) -> None:
    at_once = ratings(given_records)
    rater, start = Rater(), 0
    for size in [*cuts, len(given_records)]:
        for each in given_records[start:start + size]:
            rater.add(each)
        rater.answer()                   # looked at between the pieces: changes nothing
        start += size
    assert rater.answer() == at_once


@settings(max_examples=60, deadline=None)
@given(st.lists(records(), max_size=14), st.randoms(use_true_random=False))
def test_shuffled_matches_of_distinct_times_give_the_same_ratings(
        given_records: list[RatedMatch], shuffler: random.Random) -> None:
    timed = [RatedMatch(r.game, datetime.datetime(2026, 1, 1) + datetime.timedelta(hours=n),
                        r.sides, r.ranks, r.figures) for n, r in enumerate(given_records)]
    in_order = ratings(timed)
    shuffled = list(timed)
    shuffler.shuffle(shuffled)
    assert ratings(shuffled) == in_order
    one_by_one = Rater()
    for each in shuffled:                # a match added later that was played earlier
        one_by_one.add(each)
    assert one_by_one.answer() == in_order
