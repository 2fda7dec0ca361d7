"""The engine's figures (issue 12): a cold load + standings of a match of 10, 100 and 1,000
hands, and appending one hand to a match of 10 and 1,000 hands, for every game.

The matches are played by the rules with the tests' table simulators (random legal cards,
every fact a table records), so that every check of the engine runs as it does on a real
match. A match of 1,000 hands needs a game that goes on that long:

- Troggu has no target: any number of hands.
- Stovkahra: the winners of each game add their matchsticks, or take them off the opponents'
  pile when adding would end the series (7.3.1): the series goes on.
- Marjolet is one game to 500, with another deal while both totals are equal at 500 or more
  (7.2): the match is played with deals that score the same for both players (drawn from the
  simulator), so the totals stay equal and the deals go on.
- Tartli ends at the target (10 buli) after at most about 150 hands (every played-out hand
  scores 161 card points, so a game lasts at most 7 hands and a decider; a match at most 19
  games): "1,000 hands" is then a run of whole matches, one after another, each restarting
  where the last ended, loaded and scored one by one; the longest match stands for the
  append figure.

The figures are this process's CPU time (``time.process_time``), not wall time: the engine is
pure Python in one thread, so on an idle machine the two are the same, and on a machine shared
with other work (the benchmark's own, or seven engineers' tests) CPU time still measures the
engine rather than the wait for a core.

"Cold" is a fresh cache: ``load`` reads the match file (as ``dumps`` writes it), checks it and
scores it, then the standings: the standing and every hand's scoresheet row (number, dealer,
scores, totals, summary), as a first view of the match shows them, the explanations shown on
demand; a second figure adds every hand's explanation (``matchfile.standings``, as the CLI's
``score`` gives it). The cache is dropped before the clock starts. "Append" is
what a hand posted to a match already scored costs: the new hand checked in full and folded
on the cached fold.
"""

from __future__ import annotations

import gc
import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from referee.engine import matchfile, scoring
from referee.engine.games import get
from tests.bench.common import Figure, median

LOAD_GOAL = 40.0        # ms: a cold load + standings of 1,000 hands
APPEND_GOAL = 2.0       # ms: appending one hand to a match of 1,000 hands
SIZES = (10, 100, 1_000)
SEED = 12
BASELINE = "flask 1 kB route (ms)"


@dataclass
class Bench:
    """The matches of one game for one size: ``matches`` are whole match files (settings,
    hands), together ``size`` hands."""

    game: str
    settings: dict[str, Any]
    matches: list[list[dict[str, Any]]]


def _file(game: str, settings: dict[str, Any], hands: list[dict[str, Any]]) -> dict[str, Any]:
    return {"format": matchfile.FORMAT, "version": matchfile.VERSION, "game": game,
            "created": "2026-12-01", "settings": settings, "hands": hands}


# --------------------------------------------------------------------------------------------
# Long matches, played by the rules


def _troggu(rng: random.Random, size: int) -> Bench:
    from tests.engine import troggu_helpers as h

    settings = h.settings(5, 0)
    hands = [h.simulate_hand(rng, 5, n % 5).facts for n in range(size)]
    for n, hand in enumerate(hands):
        hand["dealer"] = n % 5
    return Bench("troggu", settings, [hands])


def _stovkahra(rng: random.Random, size: int) -> Bench:
    from tests.engine import stovkahra_helpers as h

    settings = h.settings(3, 10)
    hands: list[dict[str, Any]] = []
    dealer = settings["first_dealer"]
    while len(hands) < size:
        deal = h.simulate_deal(rng, dealer, dost_chance=0.05).facts
        deal["dealer"] = dealer
        outcome = scoring.score("stovkahra", settings, [*hands, deal]).hands[-1]
        if outcome.award is not None:
            # the winners choose: add, or take when adding would end the series (7.3.1)
            winner, amount = outcome.award.winner, outcome.award.amount
            piles = outcome.detail["piles_before"]
            choice = "add" if piles[winner] + amount < settings["target"] else "take"
            deal = {**deal, "sticks": choice, "sticks_by": winner,
                    "sticks_against": piles[1 - winner] if choice == "take" else None}
            scoring.score("stovkahra", settings, [*hands, deal])
        hands.append(deal)
        dealer = (dealer + 1) % 4
    return Bench("stovkahra", settings, [hands])


def _marjolet(rng: random.Random, size: int) -> Bench:
    from tests.engine import marjolet_helpers as h

    settings = h.settings(1, 500)
    even: dict[int, list[dict[str, Any]]] = {0: [], 1: []}
    while min(len(v) for v in even.values()) < 20:
        dealer = rng.randrange(2)
        sim = h.simulate_hand(rng, dealer)
        if sim.scores[0] == sim.scores[1]:
            sim.facts["dealer"] = dealer
            even[dealer].append(sim.facts)
    dealers = [(1 + n) % 2 for n in range(size)]        # the alternation from dealer 1
    return Bench("marjolet", settings, [[rng.choice(even[d]) for d in dealers]])


def _tartli(rng: random.Random, size: int) -> Bench:
    from referee.engine.games.tartli.match import MatchFold
    from tests.engine import tartli_helpers as h

    settings = h.settings(1, 10)
    matches: list[list[dict[str, Any]]] = []
    left = size
    while left > 0:
        fold = MatchFold(settings)
        hands: list[dict[str, Any]] = []
        while fold.winner is None and len(hands) < left:
            dealer = fold.next_dealer
            if fold.decider:
                hand = {"dealer": dealer, "indicator": None, "exchange": None, "tricks": [],
                        "bela": None, "end": h.decider(rng.randrange(2))}
            else:
                # the most even of a few hands: games last as long as the rules allow
                options = [h.simulate_hand(rng, dealer).facts for _ in range(4)]
                hand = min(options, key=lambda facts: _spread(fold.totals, h.score(facts, dealer)
                                                              .scores))
                hand["dealer"] = dealer
            fold.add(len(hands) + 1, hand)
            hands.append(hand)
        matches.append(hands)
        left -= len(hands)
    return Bench("tartli", settings, matches)


def _spread(totals: list[int], scores: tuple[int, int]) -> int:
    """How far a hand takes the leader towards 501 and away from the other player."""
    new = (totals[0] + scores[0], totals[1] + scores[1])
    return max(new) + abs(new[0] - new[1])


BUILDERS: dict[str, Callable[[random.Random, int], Bench]] = {
    "tartli": _tartli, "stovkahra": _stovkahra, "marjolet": _marjolet, "troggu": _troggu,
}


@cache
def bench(game: str, size: int) -> Bench:
    return BUILDERS[game](random.Random(f"{SEED}-{game}-{size}"), size)


# --------------------------------------------------------------------------------------------
# The figures


@cache
def _texts_of(game: str, size: int) -> tuple[str, ...]:
    """The match files as the app writes them (``dumps`` of a checked match)."""
    b = bench(game, size)
    return tuple(matchfile.dumps(matchfile.load(_file(b.game, b.settings, hands)))
                 for hands in b.matches)


def _texts(b: Bench) -> list[str]:
    return list(_texts_of(b.game, sum(len(hands) for hands in b.matches)))


def _sheet(m: matchfile.MatchFile) -> list[Any]:
    """What a first view of the match shows: the standing and, for every hand, its scoresheet
    row (number, dealer, scores, totals, summary); the explanations are shown on demand."""
    game = get(m.game)
    result = scoring.score(game.name, m.settings, m.hands, trusted=True)
    rows: list[Any] = [(h.number, h.dealer, h.scores, h.totals_after, h.summary)
                       for h in result.hands]
    rows.append(result.standing.as_dict(game.sides(m.settings), list(m.settings["players"])))
    return rows


def _cold_runs(texts: list[str], trusted: bool, explained: bool, repeat: int) -> list[float]:
    """Each run's CPU time (ms) of reading every match file afresh (a fresh cache, dropped
    before the clock starts, and so is the last run's match) and giving its standings: the
    scoresheet rows (``_sheet``), or with ``explained`` every hand's explanation too
    (``matchfile.standings``, as the CLI's ``score``)."""
    runs = []
    for _ in range(repeat + 1):
        m = None                  # the last run's match freed before the clock, as the cache
        scoring.forget()
        gc.collect()
        start = time.process_time()
        for text in texts:
            m = matchfile.load(text, trusted=trusted)
            matchfile.standings(m) if explained else _sheet(m)
        runs.append((time.process_time() - start) * 1000)
    return runs[1:]


def _append_runs(b: Bench, repeat: int) -> list[float]:
    """Appending the last hand of the longest match to the others, as a hand posted to a page
    is scored: the request has read the stored hands and scored them (the cached fold, found
    equal), the new list is the stored hands themselves with the new hand after them
    (``ActionContext.hands``: only the hand changed and those after it are copies), the stored
    hands trusted, the new hand checked in full. Timed: that last scoring."""
    hands = json.loads(max(_texts(b), key=len))["hands"]
    scoring.forget()
    scoring.score(b.game, b.settings, hands[:-1], True)
    runs = []
    for _ in range(repeat + 1):
        stored = json.loads(json.dumps(hands[:-1]))          # as the store reads them
        scoring.score(b.game, b.settings, stored, True)      # the request's load
        posted = [*stored, json.loads(json.dumps(hands[-1]))]
        start = time.process_time()
        result = scoring.score(b.game, b.settings, posted, stored)
        runs.append((time.process_time() - start) * 1000)
        assert len(result.hands) + (result.draft is not None) == len(hands)
    return runs[1:]


def _size(b: Bench, size: int) -> str:
    if len(b.matches) == 1:
        return f"{size:,} hands"
    return f"{size:,} hands in {len(b.matches)} matches"


def figures(baselines: dict[str, float]) -> list[Figure]:
    out: list[Figure] = []
    for game in BUILDERS:
        for size in SIZES:
            b = bench(game, size)
            texts = _texts(b)
            repeat = 15 if size == 1_000 else 10      # the median of 15: a noisy machine
            value = median(_cold_runs(texts, True, False, repeat))
            goal = size == 1_000
            out.append(Figure(
                f"{game}: cold load + standings, {_size(b, size)}", value, "ms", BASELINE,
                f"≤ {LOAD_GOAL:g} ms" if goal else "", value <= LOAD_GOAL if goal else None,
            ))
        b = bench(game, 1_000)
        value = median(_cold_runs(_texts(b), True, True, 3))
        out.append(Figure(f"{game}: the same with every hand's explanation, {_size(b, 1_000)}",
                          value, "ms", BASELINE))
        value = median(_cold_runs(_texts(b), False, True, 1))
        out.append(Figure(f"{game}: import (every fact checked), {_size(b, 1_000)}", value, "ms",
                          BASELINE))
        for size in (10, 1_000):
            b = bench(game, size)
            length = max(len(hands) for hands in b.matches)
            value = median(_append_runs(b, 20))
            goal = size == 1_000
            out.append(Figure(
                f"{game}: append a hand to {length:,} hands"
                + (" (the longest match)" if len(b.matches) > 1 else ""), value, "ms", BASELINE,
                f"≤ {APPEND_GOAL:g} ms" if goal else "", value <= APPEND_GOAL if goal else None,
            ))
    scoring.forget()
    return out
