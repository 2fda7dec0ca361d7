"""The largest match of each game and the largest circle the limits allow (issue 24), made for
the round-trip tests (tests/web/circles/test_largest_files.py) and the bench's peak memory.

- Marjolet: 1,000 deals (``matchfile.MAX_HANDS``), each the largest found of the deals played
  by the rules that score the same for both players, recorded card by card: the game goes on
  (rule 7.2), the largest match the app holds.
- Troggu: 1,000 hands of eight players played by the rules at random (a money game has no
  end).
- Stovkahra: 1,000 deals played by the rules at random, every award of matchsticks taken off
  the other team's pile (rule 7.3.1), so that no pile ever grows and the series goes on.
- Tartli: a match to 10 buli as long as the rules let one last without a decider: 19 games
  (9–9, then the last) of 7 hands each, every hand shared 86 to 75 (and the last trick's 10)
  so that both totals stay under 501 for six hands (6 × 161 < 1,000 < 7 × 161).
- The circle: 1,000 matches (``circlefile.MAX_MATCHES``) of 50 Troggu hands each, 50,000 in
  all (``circlefile.MAX_HANDS``), among 500 players (``circlefile.MAX_PLAYERS``): about
  15 MB, within ``circlefile.MAX_BYTES``.
- The heaviest circle: 15 of the largest Marjolet matches, 18.9 MB, the most the pages let
  a circle take (each match joins with room for a full one: ``MATCH_ROOM``)."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

from referee.engine import circlefile, matchfile, scoring
from referee.engine.games import get
from referee.engine.games.marjolet import GAME as MARJOLET

ENGINE = Path(__file__).resolve().parents[1] / "engine"
if str(ENGINE) not in sys.path:
    sys.path.insert(0, str(ENGINE))

import marjolet_helpers as mj  # noqa: E402
import stovkahra_helpers as sk  # noqa: E402
import tartli_helpers as ta  # noqa: E402
import troggu_helpers as tg  # noqa: E402

GAMES = ("tartli", "troggu", "stovkahra", "marjolet")


def largest_even_deals(rng: random.Random) -> dict[int, dict[str, Any]]:
    """For each dealer, the largest deal (in bytes) among those played by the rules that score
    the same for both players, recorded card by card."""
    found: dict[int, dict[str, Any]] = {}
    tries = 0
    while len(found) < 2 or tries < 1_500:
        tries += 1
        dealer = tries % 2
        sim = mj.simulate_hand(rng, dealer)
        if sim.scores[0] != sim.scores[1]:
            continue
        facts = MARJOLET.canonical_hand({**sim.facts, "dealer": dealer})
        if dealer not in found or len(json.dumps(facts)) > len(json.dumps(found[dealer])):
            found[dealer] = facts
    return found


def _grown(game: str, settings: dict[str, Any], make: Any, count: int) -> list[dict[str, Any]]:
    """``count`` hands, each dealt by the dealer the rules propose after the last, each checked
    as it is added (the fold goes on from the last: ``scoring.score``)."""
    rules = get(game)
    hands: list[dict[str, Any]] = []
    for _ in range(count):
        dealer = scoring.score(game, settings, hands, match="largest").standing.dealer
        hands = [*hands, rules.canonical_hand({**make(dealer), "dealer": dealer})]
    complete = rules.complete(settings, hands)
    scoring.score(game, settings, complete, match="largest")
    return complete


def tartli() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    settings = get("tartli").settings(ta.settings(first_dealer=0, target=10))
    hands = []
    for n in range(19):
        winner = n % 2               # the games won in turn: 9–9 after 18, then the last
        shares = [((76, 75), ta.A), ((75, 76), ta.B)]
        for k in range(6):               # 483 each after six hands
            piles, last = shares[k % 2]
            hands.append(ta.hand(end=ta.played(piles, last)))
        piles, last = shares[winner]
        hands.append(ta.hand(end=ta.played(piles, last)))
    given = iter(hands)
    return settings, _grown("tartli", settings, lambda dealer: next(given), len(hands))


def troggu(rng: random.Random, hands: int = matchfile.MAX_HANDS, players: int = 8,
           ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    settings = tg.settings(players)
    return settings, _grown("troggu", settings,
                            lambda d: tg.simulate_hand(rng, players, d).facts, hands)


def stovkahra(rng: random.Random) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    settings = sk.settings(first_dealer=sk.W, target=10)
    return settings, _grown("stovkahra", settings, lambda d: {
        **sk.simulate_deal(rng, d, eagerness=1.0).facts, "sticks": "take"},
        matchfile.MAX_HANDS)


def marjolet(rng: random.Random) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    deals = largest_even_deals(rng)
    settings = mj.settings(1, 500)
    return settings, [deals[(1 + n) % 2] for n in range(matchfile.MAX_HANDS)]


def largest_match(game: str, rng: random.Random) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    if game == "tartli":
        return tartli()
    if game == "troggu":
        return troggu(rng)
    return stovkahra(rng) if game == "stovkahra" else marjolet(rng)


def largest_circle(rng: random.Random) -> circlefile.CircleFile:
    """1,000 Troggu matches of 50 hands (one match of each four players' seats, the hands of
    one match played again with the dealers in turn), 500 players."""
    per_match = circlefile.MAX_HANDS // circlefile.MAX_MATCHES
    settings, hands = troggu(rng, per_match, 4)
    players = [f"Player {n + 1}" for n in range(circlefile.MAX_PLAYERS)]
    matches = []
    for n in range(circlefile.MAX_MATCHES):
        people = [(4 * n + k) % len(players) for k in range(4)]
        named = {**settings, "players": [players[p] for p in people]}
        m = matchfile.MatchFile("troggu", named, hands,
                                f"2026-{1 + n // 100 % 12:02d}-{1 + n % 28:02d}")
        matches.append((m, people))
    matches.sort(key=lambda entry: entry[0].created)
    return circlefile.CircleFile("The club", "2026-01-01", players, matches)


def heaviest_circle(rng: random.Random) -> circlefile.CircleFile:
    """15 Marjolet matches of 1,000 deals recorded card by card, between two players."""
    settings, hands = marjolet(rng)
    m = matchfile.MatchFile("marjolet", settings, hands, "2026-12-01")
    return circlefile.CircleFile("The heavy club", "2026-12-01", list(settings["players"]),
                                 [(m, [0, 1])] * 15)
