"""The facts a table reports about one Tartli hand (rules 6.1), read strictly from JSON.

A hand in JSON::

    {"dealer": 1, "indicator": "8h", "exchange": null,
     "tricks": [{"winner": 0, "melds": [["seq:a/K/4"], []]}, ...],
     "bela": {"player": 1, "trick": 5},
     "end": {"kind": "played", "piles": [88, 63], "last": 0, "stichmatsch": null}}

Players are 0 and 1 in the match's seating order. ``dealer`` is who dealt (6.1.1): a recorded
fact, which the app proposes (the other player than the previous hand's dealer, the match's
first dealer for hand 1: the deal alternates after every hand, a decider hand included, 2.1).
It is optional on reading: a hand without it (written before the dealer was recorded) is read
with the proposed dealer, and the canonical form writes it (``Tartli.complete`` fills it in).
A dealer out of turn is the table's record: the hand says so and is scored with it.

``tricks`` lists tricks 1, 2, ... as far as the table recorded them; only the last may lack a
winner (the trick in progress). A trick may also give ``"cards": ["7a", "8a"]``, the two cards
played, the leader's first: the optional card-by-card record (6.1.6), checked by
``record.py``. ``end`` is ``null`` while the hand is being played, else one of ``played``,
``claim`` (7.3) or ``decider`` (7.4).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from ...cards import HUNGARIAN, Card
from ...errors import RuleViolation
from ...words import P, T
from ..base import (
    require_bool,
    require_dict,
    require_int,
    require_known_keys,
    require_list,
    require_pair,
    require_player,
)
from .melds import Conceded, Meld, SeqMeld, SetMeld, parse_meld
from .values import EXCHANGE_TRICKS, MELD_TRICKS, PILES_TOTAL, TRICKS


@dataclass(frozen=True)
class Trick:
    winner: int | None
    melds: tuple[tuple[Meld, ...], tuple[Meld, ...]]
    cards: tuple[Card, Card] | None = None     # optional record (6.1.6): leader's card first


@dataclass(frozen=True)
class Bela:
    player: int
    trick: int            # declared after trick-1 was complete and before this trick was


@dataclass(frozen=True)
class Played:
    piles: tuple[int, int]
    last: int
    stichmatsch: int | None


@dataclass(frozen=True)
class Claim:
    claimant: int
    completed: int        # tricks completed (both cards played) when the claim was made
    step7: bool           # had the melds of the trick in progress already scored?
    piles: tuple[int, int]


@dataclass(frozen=True)
class Decider:
    first: int            # who scored first in the decider hand


End = Played | Claim | Decider


@dataclass(frozen=True)
class HandFacts:
    indicator: Card | None
    exchange: int | None
    tricks: tuple[Trick, ...]
    bela: Bela | None
    end: End | None
    dealer: int | None = None     # None: not recorded, read as the proposed dealer (2.1)

    @property
    def trumps(self) -> str | None:
        return self.indicator.suit if self.indicator else None


KEYS = {"dealer", "indicator", "exchange", "tricks", "bela", "end"}


def parse_hand(data: object) -> HandFacts:
    raw = require_dict(data, "A hand")
    require_known_keys(raw, KEYS, "a hand")
    end = _parse_end(raw.get("end"))
    indicator = None
    if raw.get("indicator") is not None or not isinstance(end, Decider):
        if raw.get("indicator") is None:
            raise RuleViolation("fact.indicator", T("Pick the trump indicator card"), "2.2")
        indicator = HUNGARIAN.parse(raw.get("indicator"))
    exchange = raw.get("exchange")
    if exchange is not None:
        exchange = require_int(exchange, T("The trump-7 exchange trick"), 1, EXCHANGE_TRICKS,
                               "2.8")
    tricks = tuple(
        _parse_trick(t, number)
        for number, t in enumerate(require_list(raw.get("tricks", []), T("Tricks"), TRICKS), 1)
    )
    bela = None
    if raw.get("bela") is not None:
        b = require_dict(raw["bela"], T("Béla"))
        bela = Bela(
            require_player(b.get("player"), T("Béla's player")),
            require_int(b.get("trick"), T("Béla's trick"), 1, MELD_TRICKS, "4.7"),
        )
    dealer = raw.get("dealer")
    if dealer is not None:
        dealer = require_player(dealer, T("The dealer"))
    return HandFacts(indicator, exchange, tricks, bela, end, dealer)


def read_canonical(raw: dict[str, Any]) -> HandFacts:
    """A hand as ``hand_to_json`` writes it, read as it stands (``tricks.read_trusted``)."""
    end = read_end(raw.get("end"))
    indicator = raw.get("indicator")
    bela = raw.get("bela")
    return HandFacts(
        None if indicator is None else HUNGARIAN.parse(indicator),
        raw.get("exchange"),
        tuple(_read_trick(trick) for trick in raw.get("tricks", [])),
        None if bela is None else Bela(bela["player"], bela["trick"]),
        end,
        raw.get("dealer"),
    )


def _read_trick(raw: dict[str, Any]) -> Trick:
    melds = raw.get("melds", [[], []])
    cards = raw.get("cards")
    if not (melds[0] or melds[1]):           # most tricks: the same few values again
        return _bare(raw.get("winner"), *(cards or (None, None)))
    return Trick(
        raw.get("winner"),
        (tuple(map(_meld, melds[0])), tuple(map(_meld, melds[1]))),
        None if cards is None else (HUNGARIAN.parse(cards[0]), HUNGARIAN.parse(cards[1])),
    )


@cache
def _bare(winner: int | None, lead: str | None, second: str | None) -> Trick:
    cards = None if lead is None or second is None else (
        HUNGARIAN.parse(lead), HUNGARIAN.parse(second))
    return Trick(winner, ((), ()), cards)


@cache
def _meld(text: str) -> Meld:
    return parse_meld(text)


def read_end(raw: dict[str, Any] | None) -> End | None:
    """The end of a hand as ``hand_to_json`` writes it, read as it stands."""
    if raw is None:
        return None
    kind = raw["kind"]
    if kind == "played":
        return _played(tuple(raw["piles"]), raw["last"], raw.get("stichmatsch"))
    if kind == "claim":
        return Claim(raw["claimant"], raw["completed"], raw.get("step7", False),
                     tuple(raw["piles"]))
    return Decider(raw["first"])


@lru_cache(maxsize=4096)
def _played(piles: tuple[int, int], last: int, stichmatsch: int | None) -> Played:
    """A played-out end, made once for the same facts (a few hundred ends come again)."""
    return Played(piles, last, stichmatsch)


def _parse_trick(data: object, number: int) -> Trick:
    raw = require_dict(data, T("Trick %(trick)s", trick=number))
    winner = raw.get("winner")
    if winner is not None:
        winner = require_player(winner, T("The winner of trick %(trick)s", trick=number))
    melds_raw = require_list(raw.get("melds", [[], []]), _melds_of(number), 2)
    if len(melds_raw) != 2:
        raise RuleViolation(
            "fact.shape", T("Trick %(trick)s's melds need one list per player", trick=number),
            "6.1"
        )
    melds = (_parse_items(melds_raw[0], number), _parse_items(melds_raw[1], number))
    if (melds[0] or melds[1]) and number > MELD_TRICKS:
        raise RuleViolation(
            "meld.window",
            T("Sets and sequences may be declared only in tricks 1–8, not in trick %(trick)s",
              trick=number),
            "4.3.1",
        )
    cards = None
    if raw.get("cards") is not None:
        played = HUNGARIAN.parse_many(raw["cards"])
        if len(played) != 2:
            raise RuleViolation(
                "fact.shape",
                T("Trick %(trick)s: give the two cards played, the leader's first", trick=number),
                "6.1.6",
            )
        cards = (played[0], played[1])
    return Trick(winner, melds, cards)


def _parse_items(data: object, number: int) -> tuple[Meld, ...]:
    items = tuple(parse_meld(m) for m in require_list(data, _melds_of(number), 4))
    sets = [m for m in items if str(m).startswith("set:")]
    seqs = [m for m in items if str(m).startswith("seq:")]
    if len(sets) > 1 or len(seqs) > 1:
        raise RuleViolation(
            "meld.too-many",
            T("In trick %(trick)s a player may declare at most one set and one sequence",
              trick=number),
            "4.3.2",
        )
    return tuple(sets + seqs)


def _parse_end(data: object) -> End | None:
    if data is None:
        return None
    raw = require_dict(data, T("The end of the hand"))
    kind = raw.get("kind")
    if kind == "played":
        stich = raw.get("stichmatsch")
        return Played(
            _piles(raw.get("piles")),
            require_player(raw.get("last"), T("The winner of the last trick")),
            None if stich is None else require_player(stich, T("The stichmatsch player")),
        )
    if kind == "claim":
        step7 = require_bool(raw.get("step7", False),
                             T("“Melds of this trick already scored”"))
        for bonus in ("last", "stichmatsch"):
            if raw.get(bonus) is not None:
                raise RuleViolation(
                    "end.conflict",
                    T("A hand ended by a claim has no last trick and no stichmatsch"),
                    "6.3.7",
                )
        return Claim(
            require_player(raw.get("claimant"), T("The claimant")),
            require_int(raw.get("completed"), T("Tricks completed"), 0, TRICKS - 1, "7.3.1"),
            step7,
            _piles(raw.get("piles")),
        )
    if kind == "decider":
        return Decider(require_player(raw.get("first"), T("The first to score")))
    raise RuleViolation(
        "fact.shape", T("A hand ends played out, by a claim, or as a decider"), "6.1"
    )


def _piles(data: object) -> tuple[int, int]:
    return require_pair(data, T("Pile counts"), P("tartli", "pile count"), 0, PILES_TOTAL, "3")


def _melds_of(number: int) -> str:
    return T("Trick %(trick)s's melds", trick=number)


def hand_to_json(facts: HandFacts) -> dict[str, Any]:
    """The canonical JSON of a hand: parse_hand(hand_to_json(f)) == f."""
    end: dict[str, Any] | None
    if isinstance(facts.end, Played):
        end = {
            "kind": "played", "piles": list(facts.end.piles), "last": facts.end.last,
            "stichmatsch": facts.end.stichmatsch,
        }
    elif isinstance(facts.end, Claim):
        end = {
            "kind": "claim", "claimant": facts.end.claimant, "completed": facts.end.completed,
            "step7": facts.end.step7, "piles": list(facts.end.piles),
        }
    elif isinstance(facts.end, Decider):
        end = {"kind": "decider", "first": facts.end.first}
    else:
        end = None
    dealer: dict[str, Any] = {} if facts.dealer is None else {"dealer": facts.dealer}
    return {
        **dealer,
        "indicator": None if facts.indicator is None else str(facts.indicator),
        "exchange": facts.exchange,
        "tricks": [_trick_to_json(t) for t in facts.tricks],
        "bela": None if facts.bela is None else {
            "player": facts.bela.player, "trick": facts.bela.trick,
        },
        "end": end,
    }


def _trick_to_json(trick: Trick) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "winner": trick.winner, "melds": [[str(m) for m in side] for side in trick.melds],
    }
    if trick.cards is not None:
        entry["cards"] = [str(card) for card in trick.cards]
    return entry


__all__ = [
    "Bela", "Claim", "Conceded", "Decider", "End", "HandFacts", "Played", "SeqMeld", "SetMeld",
    "Trick", "hand_to_json", "parse_hand",
]
