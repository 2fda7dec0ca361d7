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

"Cold" is a fresh cache: ``load`` reads the match file, checks it and scores it, then
``standings`` gives every hand's outcome, as the CLI and a first page view do. "Append" is
what a hand posted to a match already scored costs: the new hand checked in full and folded
on the cached fold.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from referee.engine import matchfile

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
    from referee.engine.games.stovkahra.match import MatchFold
    from tests.engine import stovkahra_helpers as h

    settings = h.settings(3, 10)
    fold = MatchFold(settings)
    hands: list[dict[str, Any]] = []
    while len(hands) < size:
        dealer = fold.next_dealer
        deal = h.simulate_deal(rng, dealer, dost_chance=0.05).facts
        deal["dealer"] = dealer
        fold.add(len(hands) + 1, deal)
        outcome = fold.hands[-1]
        if outcome.award is not None:
            # undo the pending award and choose: add, or take when adding would end it
            winner, amount = outcome.award.winner, outcome.award.amount
            piles = outcome.detail["piles_before"]
            choice = "add" if piles[winner] + amount < settings["target"] else "take"
            deal.update(sticks=choice, sticks_by=winner,
                        sticks_against=piles[1 - winner] if choice == "take" else None)
            fold = _refold(MatchFold(settings), [*hands, deal])
        hands.append(deal)
    return Bench("stovkahra", settings, [hands])


def _refold(fold: Any, hands: list[dict[str, Any]]) -> Any:
    for number, hand in enumerate(hands, 1):
        fold.add(number, hand)
    return fold


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
