"""Helpers for the Stovkahra engine tests: deal builders, an independent model of the rules
and a table simulator that deals and plays real deals.

The model is written from shared/rules/stovkahra.md, not from the engine, so that the engine's
answers can be held against it. Seats 0–3 = N, E, S, W; teams 0 = NS, 1 = EW.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from referee.engine.cards import FRENCH, Card
from referee.engine.games.stovkahra import GAME
from referee.engine.games.stovkahra.deal import DealScore, Names, score_deal
from referee.engine.games.stovkahra.facts import parse_deal
from referee.engine.games.stovkahra.match import MatchFold

N, E, S, W = 0, 1, 2, 3
NS, EW = 0, 1
PLAYERS = ["North", "East", "South", "West"]
TEAMS = ["NS", "EW"]
NAMES = Names(PLAYERS, TEAMS)

# ---------------------------------------------------------------------------------------------
# Builders


def settings(first_dealer: int = W, target: int = 10, **extra: Any) -> dict[str, Any]:
    return GAME.settings({
        "players": list(PLAYERS), "teams": list(TEAMS), "target": target,
        "first_dealer": first_dealer, **extra,
    })


def combo(seat: int, rank: str, count: int, cards: list[str] | None = None,
          **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"seat": seat, "rank": rank, "count": count, **extra}
    if cards is not None:
        out["cards"] = cards
    return out


def sevens(*pairs: tuple[int, int]) -> list[dict[str, int]]:
    """sevens((4, NS), (8, EW)) → [{"trick": 4, "team": 0}, {"trick": 8, "team": 1}]"""
    return [{"trick": t, "team": team} for t, team in pairs]


def played(
    points: tuple[int, int], last: int, tricks: tuple[int, int] | None = None,
    seven: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    return {
        "kind": "played", "points": list(points),
        "tricks": None if tricks is None else list(tricks), "last": last,
        "sevens": seven or [],
    }


def dost(
    caller: int, after: int, points: tuple[int, int] = (0, 0),
    tricks: tuple[int, int] | None = None, trick_winner: int | None = None,
    seven: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    return {
        "kind": "dost", "caller": caller, "after": after, "trick_winner": trick_winner,
        "points": list(points), "tricks": None if tricks is None else list(tricks),
        "sevens": seven or [],
    }


def deal(
    *combos: dict[str, Any], end: dict[str, Any] | None = None, trumps: str | None = "h",
    sticks: str | None = None,
) -> dict[str, Any]:
    return {"trumps": trumps, "combinations": list(combos), "end": end, "sticks": sticks}


# A plain played-out deal: NS 40 card points in 5 tricks, EW 32 in 3 and the last trick.
PLAIN = played((40, 32), EW, (5, 3))


def score(raw: dict[str, Any], dealer: int = W) -> DealScore:
    """Score one deal alone (W deals by default, so N declares first and leads)."""
    return score_deal(parse_deal(raw), dealer, NAMES)


def fold(
    start: tuple[int, int] = (0, 0), piles: tuple[int, int] = (0, 0), first_dealer: int = W,
    target: int = 10, **extra: Any,
) -> MatchFold:
    return MatchFold(settings(first_dealer, target, **extra), start_totals=start,
                     start_piles=piles)


# ---------------------------------------------------------------------------------------------
# An independent model of the rules

ORDER = ("A", "K", "Q", "J", "10", "9", "8", "7")                        # 1, every suit
VALUE = {"A": 6, "K": 5, "Q": 4, "J": 3, "10": 0, "9": 0, "8": 0, "7": 0}  # 3
COMBO = {                                                                # 4
    ("A", 4): 40, ("A", 3): 30, ("10", 4): 20, ("7", 4): 20, ("10", 3): 10, ("7", 3): 10,
    ("K", 4): 12, ("Q", 4): 12, ("J", 4): 12, ("K", 3): 6, ("Q", 3): 6, ("J", 3): 6,
}


def model_bonus(trick: int) -> int:
    return 52 if trick == 1 else 26 if trick == 8 else 10


def stronger(card: Card, than: Card, trumps: str | None) -> bool:
    if card.suit == than.suit:
        return ORDER.index(card.rank) < ORDER.index(than.rank)
    return card.suit == trumps


def model_winner(trick: list[Card], trumps: str | None) -> int:
    best = 0
    for i in range(1, len(trick)):
        if stronger(trick[i], trick[best], trumps):
            best = i
    return best


def model_legal(hand: list[Card], trick: list[Card], trumps: str | None) -> set[Card]:
    """2.4, read afresh: follow (and beat the suit-led winner) > trump (and over-trump) > any."""
    if not trick:
        return set(hand)
    win = trick[model_winner(trick, trumps)]
    led = trick[0].suit
    for suit, must_beat in ((led, win.suit == led), (trumps, win.suit == trumps)):
        same = [c for c in hand if c.suit == suit]
        if same:
            beating = [c for c in same if must_beat and stronger(c, win, trumps)]
            return set(beating or same)
    return set(hand)


def model_legal_combos(combos: list[tuple[int, str, int]]) -> bool:
    """4.5: valid rank and number, one per rank per player, ≤ 8 cards each, ≤ 4 of a rank."""
    seen: set[tuple[int, str]] = set()
    per_seat = [0, 0, 0, 0]
    per_rank: dict[str, int] = {}
    for seat, rank, count in combos:
        if (rank, count) not in COMBO or (seat, rank) in seen:
            return False
        seen.add((seat, rank))
        per_seat[seat] += count
        per_rank[rank] = per_rank.get(rank, 0) + count
    return max(per_seat) <= 8 and all(v <= 4 for v in per_rank.values())


@dataclass
class SimDeal:
    """One simulated deal: its JSON facts and what the rules say it scores."""

    facts: dict[str, Any]
    dealer: int
    combos: list[int] = field(default_factory=lambda: [0, 0])
    points: list[int] = field(default_factory=lambda: [0, 0])
    tricks: list[int] = field(default_factory=lambda: [0, 0])
    bonus: list[int] = field(default_factory=lambda: [0, 0])
    caller: int | None = None          # the dost caller's seat
    hands: list[list[Card]] = field(default_factory=list)

    @property
    def scores(self) -> tuple[int, int]:
        return (
            self.combos[0] + self.points[0] + self.bonus[0],
            self.combos[1] + self.points[1] + self.bonus[1],
        )


def simulate_deal(
    rng: random.Random, dealer: int, *, dost_chance: float = 0.0, eagerness: float = 0.7,
    tricks_known: float = 0.5,
) -> SimDeal:
    """Shuffle, cut, deal (3 + 2 + 3 from the dealer's left, 2.2) and play one deal by the
    rules with random legal cards, recording what the table reports (6.1). Players declare
    random combinations they hold; a dost may stop the deal at a moment when it is allowed."""
    deck = list(FRENCH.cards)
    rng.shuffle(deck)
    trumps = deck[-1].suit                      # the bottom card, the dealer's last (2.1)
    order = [(dealer + k) % 4 for k in range(1, 5)]
    hands: list[list[Card]] = [[], [], [], []]
    for packet in (3, 2, 3):
        for seat in order:
            hands[seat].extend(deck[:packet])
            deck = deck[packet:]
    assert not deck and hands[dealer][-1].suit == trumps
    sim = SimDeal({"trumps": trumps, "combinations": [], "end": None, "sticks": None}, dealer,
                  hands=[list(h) for h in hands])
    calling = rng.random() < dost_chance
    for seat in order:                                                    # 4.1
        for rank in ORDER:
            held = [c for c in hands[seat] if c.rank == rank]
            if (rank, len(held)) in COMBO and rng.random() < eagerness:
                count = len(held) if len(held) == 3 or rng.random() < 0.8 else 3
                entry: dict[str, Any] = {"seat": seat, "rank": rank, "count": count}
                if rng.random() < 0.5:
                    entry["cards"] = [str(c) for c in held[:count]]
                sim.facts["combinations"].append(entry)
                sim.combos[seat % 2] += COMBO[(rank, count)]
        mine = [c for c in sim.facts["combinations"] if c["seat"] == seat]
        if calling and mine and rng.random() < 0.3:                     # 7.2.1 (a)
            sim.caller = seat
            sim.facts["end"] = {
                "kind": "dost", "caller": seat, "after": 0, "trick_winner": None,
                "points": [0, 0], "tricks": rng.choice([None, [0, 0]]), "sevens": [],
            }
            return sim
    seven_list: list[dict[str, int]] = []
    leader = order[0]
    for number in range(1, 9):
        trick: list[Card] = []
        for k in range(4):
            seat = (leader + k) % 4
            card = rng.choice(sorted(model_legal(hands[seat], trick, trumps)))
            hands[seat].remove(card)
            trick.append(card)
        win_pos = model_winner(trick, trumps)
        winner = (leader + win_pos) % 4
        team = winner % 2
        sim.tricks[team] += 1
        sim.points[team] += sum(VALUE[c.rank] for c in trick)
        if trick[win_pos].rank == "7":
            seven_list.append({"trick": number, "team": team})
            sim.bonus[team] += model_bonus(number)
        leader = winner
        if number < 8 and calling and rng.random() < 0.2:                 # 7.2.1 (b)
            sim.caller = winner
            sim.facts["end"] = {
                "kind": "dost", "caller": winner, "after": number,
                "trick_winner": rng.choice([None, winner]), "points": list(sim.points),
                "tricks": list(sim.tricks) if rng.random() < tricks_known else None,
                "sevens": seven_list,
            }
            return sim
    last = leader % 2
    if not any(s["trick"] == 8 for s in seven_list):
        sim.bonus[last] += 6
    assert sum(sim.points) == 72 and not any(hands)
    sim.facts["end"] = {
        "kind": "played", "points": list(sim.points),
        "tricks": list(sim.tricks) if rng.random() < tricks_known else None, "last": last,
        "sevens": seven_list,
    }
    return sim


# ---------------------------------------------------------------------------------------------
# An independent model of series scoring (7 and 8)


@dataclass
class SeriesModel:
    target: int
    continue_to_20: bool = False
    totals: list[int] = field(default_factory=lambda: [0, 0])
    piles: list[int] = field(default_factory=lambda: [0, 0])
    first: int | None = None
    over: bool = False
    winner: int | None = None
    pending: bool = False       # an award not chosen yet: on no pile, the series undecided

    def apply(self, sim: SimDeal, choice: str | None) -> tuple[int, int] | None:
        """The matchsticks awarded by one deal (winners, amount), or None. No choice: the
        award is pending (7.3.1)."""
        new = [self.totals[t] + sim.scores[t] for t in (0, 1)]
        if sim.caller is not None:
            c = sim.caller % 2
            award = (c, 2 if new[1 - c] < 50 else 1) if new[c] >= 100 else (1 - c, 2)
        else:
            over = [t for t in (0, 1) if new[t] >= 100]
            if not over or (len(over) == 2 and new[0] == new[1]):
                self.totals = new
                return None
            w = over[0] if len(over) == 1 else (0 if new[0] > new[1] else 1)
            award = (w, 2 if new[1 - w] < 50 else 1)
        w, n = award
        self.totals = [0, 0]
        if choice is None:
            self.pending = True
            return award
        if choice == "add":
            self.piles[w] += n
        else:
            self.piles[1 - w] = max(0, self.piles[1 - w] - n)
        threshold = self.target if self.first is None else 2 * self.target
        if self.pending and self.piles[w] >= threshold:
            return award                 # the series waits for the open choice (7.3.2)
        if not self.continue_to_20:
            if self.piles[w] >= self.target:
                self.over, self.winner = True, w
        else:
            if self.first is None and self.piles[w] >= self.target:
                self.first = w
            if self.piles[w] >= 2 * self.target:
                self.over = True
                self.winner = w if w == self.first else None
        return award
