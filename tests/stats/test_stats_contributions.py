"""The statistics as a sum of each match's part (issue 24): running sums that a circle keeps,
with the matches added in any order, parts taken out again and one match changed, give the
statistics folded from scratch."""

from __future__ import annotations

import copy
import datetime
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from test_stats_properties import DAY, GAMES, PEOPLE, random_match

from referee.stats import Played, Sums, answer, contribution, statistics
from referee.stats.tally import add


def _circle(rng: random.Random, games: list[str]) -> list[Played]:
    """Matches of a few people on a few days (so that pairs, partners and evenings repeat)."""
    people = tuple(rng.sample(PEOPLE, 8))
    return [random_match(rng, game, rng.randint(0, 6),
                         DAY + datetime.timedelta(days=rng.randrange(3)),
                         tuple(rng.sample(people, 8)))
            for game in games]


def _kept(parts: list[Any]) -> tuple[Sums, list[dict[str, Any]]]:
    sums = Sums()
    for part in parts:
        if part.counted is not None:
            sums.add(part.counted)
    return sums, [p.skipped for p in parts if p.skipped is not None]


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), games=st.lists(GAMES, min_size=1, max_size=6),
       more=st.lists(GAMES, min_size=1, max_size=3))
def test_running_sums_changed_by_one_match_are_the_statistics_from_scratch(
        seed: int, games: list[str], more: list[str]) -> None:
    rng = random.Random(seed)
    matches = _circle(rng, games)
    others = _circle(rng, more)
    parts = [contribution(m) for m in matches]
    sums, skipped = _kept(parts)
    assert answer(sums, skipped) == statistics(matches)

    # other matches come and go again, in any order: the sums are as they were
    extra = [contribution(m) for m in others]
    for part in extra:
        if part.counted is not None:
            sums.add(part.counted)
    rng.shuffle(extra)
    for part in extra:
        if part.counted is not None:
            sums.remove(part.counted)
    assert answer(sums, skipped) == statistics(matches)

    # one match changes (another match put in its place): its old part out, its new one in
    k = rng.randrange(len(matches))
    changed = [*matches[:k], others[0], *matches[k + 1:]]
    kept = sums.copy()
    if parts[k].counted is not None:
        sums.remove(parts[k].counted)
    new = contribution(others[0])
    if new.counted is not None:
        sums.add(new.counted)
    now = [*parts[:k], new, *parts[k + 1:]]
    assert answer(sums, [p.skipped for p in now if p.skipped is not None]) == (
        statistics(changed))
    assert answer(kept, skipped) == statistics(matches)      # the copy kept the old sums


NUMBER = st.integers(-5, 5)
# "a" and "b" are numbers, "x" and "y" nested tallies, in every tally (as the statistics' keys)
TALLY = st.recursive(
    st.fixed_dictionaries({}, optional={"a": NUMBER, "b": NUMBER}),
    lambda inner: st.fixed_dictionaries(
        {}, optional={"a": NUMBER, "b": NUMBER, "x": inner, "y": inner}),
    max_leaves=10)


@settings(max_examples=100, deadline=None)
@given(tallies=st.lists(TALLY, max_size=6), gone=st.lists(TALLY, max_size=4),
       seed=st.integers(0, 2**32 - 1))
def test_sums_with_tallies_taken_out_are_the_plain_sum_of_those_left(
        tallies: list[dict[str, Any]], gone: list[dict[str, Any]], seed: int) -> None:
    sums = Sums()
    both = [*tallies, *gone]
    random.Random(seed).shuffle(both)
    for tally in both:
        sums.add(tally)
    for tally in gone:
        sums.remove(tally)
    expected: dict[str, Any] = {}
    for tally in tallies:
        add(expected, copy.deepcopy(tally))
    assert sums.tally() == expected
