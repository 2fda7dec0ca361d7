"""Helpers for the Marjolet engine tests: deal builders, an independent model of the rules and a
table simulator that deals and plays real deals.

The model is written from shared/rules/marjolet.md, not from the engine, so that the engine's
answers can be held against it. Players: 0 = A, 1 = B.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from referee.engine.cards import FRENCH, Card
from referee.engine.games.marjolet import GAME
from referee.engine.games.marjolet.facts import parse_hand
from referee.engine.games.marjolet.hand import HandScore, score_hand
from referee.engine.games.marjolet.match import MatchFold, rules_of

A, B = 0, 1
NAMES = ["A", "B"]
SWITCHES = ("traditional_melds", "turn_up_seven_10", "no_trick_10_bonus", "sweep_40")

# ---------------------------------------------------------------------------------------------
# Builders


def settings(first_dealer: int = B, target: int = 500, rules: str = "default",
             **switches: bool) -> dict[str, Any]:
    raw: dict[str, Any] = {
        "players": list(NAMES), "target": target, "first_dealer": first_dealer, "rules": rules,
        **switches,
    }
    return GAME.settings(raw)


def winners(text: str) -> list[int]:
    """"BA AB" -> [1, 0, 0, 1]; spaces are ignored."""
    return [{"A": A, "B": B}[c] for c in text if not c.isspace()]


def tricks(
    won: str | list[int | None] | None = None,
    melds: dict[int, tuple[list[Any], list[Any]]] | None = None,
    exchange: tuple[int, int] | None = None,
    count: int | None = None,
) -> list[dict[str, Any]]:
    """Trick records: the winners given (trick 1 first; None = not recorded), ``melds`` by trick
    number as (A's, B's), ``exchange`` as (trick, player). Without winners, as many tricks as
    the last meld or exchange needs (or ``count``)."""
    if isinstance(won, str):
        won_list: list[int | None] = list(winners(won))
    else:
        won_list = list(won or [])
    melds = melds or {}
    needed = max([*melds, exchange[0] if exchange else 0, count or 0, len(won_list)])
    won_list += [None] * (needed - len(won_list))
    out: list[dict[str, Any]] = []
    for number, winner in enumerate(won_list, 1):
        a, b = melds.get(number, ([], []))
        out.append({
            "winner": winner,
            "exchange": exchange[1] if exchange and exchange[0] == number else None,
            "melds": [list(a), list(b)],
        })
    return out


def end(
    brisques: tuple[int | None, int | None], trick10: int, last: int, sweep: int | None = None
) -> dict[str, Any]:
    return {"brisques": list(brisques), "trick10": trick10, "last": last, "sweep": sweep}


def hand(
    turnup: str, trick_list: list[dict[str, Any]] | None = None,
    seven: tuple[int, int | None] | None = None, finish: dict[str, Any] | None = None,
) -> dict[str, Any]:
    return {
        "turnup": turnup, "tricks": trick_list or [],
        "seven_played": None if seven is None else {"player": seven[0], "trick": seven[1]},
        "end": finish,
    }


def score(raw: dict[str, Any], dealer: int = B, **rules: Any) -> HandScore:
    """Score one deal alone (B deals by default, so A leads trick 1)."""
    return score_hand(parse_hand(raw), dealer, NAMES, rules_of(settings(**rules)))


def fold(start: tuple[int, int] = (0, 0), first_dealer: int = B, target: int = 500,
         rules: str = "default") -> MatchFold:
    return MatchFold(settings(first_dealer, target, rules), start_totals=start)


# ---------------------------------------------------------------------------------------------
# An independent model of the rules

ORDER = ("A", "10", "K", "Q", "J", "9", "8", "7")          # 1
FOURS = {                                                   # 4.1: default, traditional
    False: {"A": 100, "K": 80, "Q": 60, "J": 40},
    True: {"A": 100, "10": 80, "K": 60, "Q": 40},
}


def higher(card: Card, than: Card) -> bool:
    return ORDER.index(card.rank) < ORDER.index(than.rank)


def model_second_wins(led: Card, second: Card, trumps: str) -> bool:
    """2.5, read afresh."""
    if led.suit == trumps and second.suit != trumps:
        return False
    if second.suit == trumps and led.suit != trumps:
        return True
    return second.suit == led.suit and higher(second, led)


def model_legal(hand: list[Card], led: Card, trumps: str, trick: int) -> list[Card]:
    """2.7, read afresh."""
    if trick <= 10:
        return list(hand)
    same = [c for c in hand if c.suit == led.suit]
    if same:
        return [c for c in same if higher(c, led)] or same
    return [c for c in hand if c.suit == trumps] or list(hand)


def model_melds(
    held: list[Card], trumps: str, traditional: bool
) -> list[tuple[str, frozenset[Card], int]]:
    """Every meld the cards held make (4.1): (notation, cards, points)."""
    out = []
    for rank, points in FOURS[traditional].items():
        cards = frozenset(Card(rank, s) for s in "cdhs")
        if cards <= set(held):
            out.append((f"four:{rank}", cards, points))
    for suit in "cdhs":
        trump = 40 if suit == trumps else 20
        marriage = frozenset({Card("K", suit), Card("Q", suit)})
        if marriage <= set(held):
            out.append((f"marriage:{suit}", marriage, trump))
        marjolet = frozenset({Card("J", trumps), Card("Q", suit)})
        if marjolet <= set(held):
            out.append((f"marjolet:{suit}", marjolet, trump))
    return out


@dataclass
class SimHand:
    """One simulated deal: its JSON facts and what the rules say it scores."""

    facts: dict[str, Any]
    dealer: int
    switches: dict[str, bool]
    brisques: list[int] = field(default_factory=lambda: [0, 0])
    melds: list[int] = field(default_factory=lambda: [0, 0])
    bonuses: list[int] = field(default_factory=lambda: [0, 0])
    won: list[int] = field(default_factory=list)              # the winner of each trick played
    melded: list[tuple[int, int, str]] = field(default_factory=list)   # (trick, player, meld)
    sweeper: int | None = None
    turned_up_seven: bool = False

    @property
    def scores(self) -> tuple[int, int]:
        return (
            self.brisques[0] + self.melds[0] + self.bonuses[0],
            self.brisques[1] + self.melds[1] + self.bonuses[1],
        )


def random_switches(rng: random.Random) -> dict[str, bool]:
    kind = rng.random()
    if kind < 0.35:
        return dict.fromkeys(SWITCHES, False)
    if kind < 0.7:
        return dict.fromkeys(SWITCHES, True)
    return {key: rng.random() < 0.5 for key in SWITCHES}


def simulate_hand(
    rng: random.Random, dealer: int, switches: dict[str, bool] | None = None, *,
    stop_after: int | None = None, eagerness: float = 0.7, exchange_eagerness: float = 0.7,
    winners_known: float | None = None, cards_known: bool | None = None,
) -> SimHand:
    """Shuffle, deal 6 each and turn up the next card (2.2), and play a deal by the rules with
    random legal cards: after tricks 1–10 the winner may exchange the trump 7 and meld what
    he holds (4.2–4.4), then both draw (2.6). Records what the table reports (6.1), with
    winners and cards recorded at random (more facts, same score)."""
    switches = switches if switches is not None else dict.fromkeys(SWITCHES, False)
    traditional = switches["traditional_melds"]
    deck = list(FRENCH.cards)
    rng.shuffle(deck)
    hands = [deck[0:6], deck[6:12]]
    turnup, stock = deck[12], deck[13:]
    trumps = turnup.suit
    seven = Card("7", trumps)
    sim = SimHand({"turnup": str(turnup), "tricks": [], "seven_played": None, "end": None},
                  dealer, dict(switches))
    if winners_known is None:
        winners_known = rng.choice([0.0, 0.5, 1.0])
    if cards_known is None:
        cards_known = rng.random() < 0.4
    if turnup == seven:
        sim.turned_up_seven = True
        sim.bonuses[dealer] += 10 if switches["turn_up_seven_10"] else 7
    face_up, exchanged = turnup, False
    done: set[str] = set()
    leader = 1 - dealer
    for number in range(1, 17):
        second = 1 - leader
        lead = rng.choice(hands[leader])
        hands[leader].remove(lead)
        follow = rng.choice(model_legal(hands[second], lead, trumps, number))
        hands[second].remove(follow)
        winner = second if model_second_wins(lead, follow, trumps) else leader
        sim.won.append(winner)
        sim.brisques[winner] += sum(10 for c in (lead, follow) if c.rank in ("A", "10"))
        for player, card in ((leader, lead), (second, follow)):
            if card == seven and not exchanged and turnup != seven:          # 4.4.3
                sim.bonuses[player] += 10
                sim.facts["seven_played"] = {
                    "player": player, "trick": number if rng.random() < 0.7 else None,
                }
        entry: dict[str, Any] = {
            "winner": winner if rng.random() < winners_known else None,
            "exchange": None, "melds": [[], []],
        }
        if cards_known:
            entry["cards"] = [str(lead), str(follow)]
        if number <= 10:                                                      # his turn
            held = hands[winner]
            if seven in held and turnup != seven and not exchanged \
                    and rng.random() < exchange_eagerness:                   # 4.4.1
                held.remove(seven)
                held.append(turnup)
                face_up, exchanged = seven, True
                sim.bonuses[winner] += 10
                entry["exchange"] = winner
            for notation, cards, points in model_melds(held, trumps, traditional):
                if notation in done or rng.random() > eagerness:
                    continue
                done.add(notation)
                sim.melds[winner] += points
                sim.melded.append((number, winner, notation))
                shown = notation if rng.random() < 0.5 else [str(c) for c in sorted(cards)]
                entry["melds"][winner].append(shown)
            if number < 10:                                                   # 2.6
                hands[winner].append(stock.pop(0))
                hands[1 - winner].append(stock.pop(0))
            else:
                hands[winner].append(stock.pop(0))
                hands[1 - winner].append(face_up)
                assert not stock
                if not switches["no_trick_10_bonus"]:
                    sim.bonuses[winner] += 10
                sim.bonuses[1 - winner] += 10
        sim.facts["tricks"].append(entry)
        leader = winner
        if stop_after is not None and number == stop_after:
            return sim
    assert not hands[0] and not hands[1]
    assert sum(sim.brisques) == 80
    last = leader
    sim.bonuses[last] += 10
    if len(set(sim.won[10:])) == 1:
        sim.sweeper = last
        sim.bonuses[last] += 40 if switches["sweep_40"] else 50
    given: list[int | None] = list(sim.brisques)
    if rng.random() < 0.6:
        given[rng.randrange(2)] = None
    sim.facts["end"] = {
        "brisques": given, "trick10": sim.won[9], "last": last, "sweep": sim.sweeper,
    }
    return sim


def with_fewer_facts(facts: dict[str, Any]) -> dict[str, Any]:
    """The same deal with only the facts the score needs: no trick winners, no cards."""
    out = dict(facts)
    out["tricks"] = [
        {"winner": None, "exchange": t.get("exchange"), "melds": t.get("melds", [[], []])}
        for t in facts["tricks"]
    ]
    return out


# ---------------------------------------------------------------------------------------------
# An independent model of the game's end (7)


@dataclass
class GameModel:
    target: int
    totals: list[int] = field(default_factory=lambda: [0, 0])
    winner: int | None = None
    tie: bool = False

    def apply(self, scores: tuple[int, int]) -> None:
        self.totals = [self.totals[0] + scores[0], self.totals[1] + scores[1]]
        a, b = self.totals
        if a >= self.target and b >= self.target:
            self.tie = a == b
            self.winner = None if a == b else (0 if a > b else 1)
        elif a >= self.target or b >= self.target:
            self.winner = 0 if a >= self.target else 1
            self.tie = False
