"""The facts a table reports about one Marjolet deal (rules 6.1), read strictly from JSON.

A deal in JSON::

    {"dealer": 1,
     "turnup": "9c",
     "tricks": [{"winner": 1, "exchange": null, "melds": [[], []]},
                {"winner": 0, "exchange": null, "melds": [[], []]},
                {"winner": 0, "exchange": null, "melds": [["four:K", "marriage:h"], []]},
                ...],
     "seven_played": null,
     "end": {"brisques": [50, null], "trick10": 0, "last": 1, "sweep": null}}

Players are 0 and 1 in the match's seating order.

``dealer``
    Who dealt (6.1.1): a recorded fact, which the app proposes (the other player than the
    previous deal's dealer, the match's first dealer for deal 1: the deal alternates, 2.1).
    The dealer scores a turned-up 7; the other player leads trick 1 (2.4). Optional on
    reading: a deal without it (written before the dealer was recorded) is read with the
    proposed dealer, and the canonical form writes it (``Marjolet.complete`` fills it in). A
    dealer out of turn is the table's record: the deal says so and is scored with it.

``turnup``
    The card turned up after the deal; it fixes trumps (2.2). Required.
``tricks``
    Tricks 1, 2, ... as far as the table recorded them (at most 16), each a record of:

    ``winner``: who won the trick, or ``null`` when not recorded. ``melds``: two lists, the
    melds each player declared in the turn after this trick (only its winner may, and only
    after tricks 1–10, 4.2.1), each as notation (``"four:K"``, ``"marriage:h"``,
    ``"marjolet:d"``) or as its cards (``["Jc", "Qd"]``). ``exchange``: the player who
    exchanged the trump 7 for the turn-up in this turn (4.4.1), else ``null``. ``cards``
    (optional, for the strictest checks): the two cards played, the leader's first; when
    given, it is given for every trick from trick 1 on (6.1.7).

    Only the facts of the score are needed: the melds, who made them and the exchange. A trick
    whose winner nobody recorded and in which nothing was declared can be ``{"winner": null}``;
    more facts (every winner, every card) are checked against the rest and never change the
    score.
``seven_played``
    ``{"player": p, "trick": t | null}`` when the trump 7, never exchanged and not the
    turn-up, was played to a trick by p (4.4.3), else ``null``.
``end``
    ``null`` while the deal is being played, else ``{"brisques": [a, b], "trick10": p,
    "last": p, "sweep": p | null}``: each player's points in aces and tens (10 each; one of
    them may be ``null``, it is then 80 minus the other), the winner of trick 10 (the other
    took the turn-up), the winner of the last trick, and who won all of tricks 11–16
    (``null``: nobody did).

Missing ``dealer``, ``tricks``, ``melds``, ``exchange``, ``seven_played`` and ``sweep`` read
as proposed, empty or null. The canonical form (``hand_to_json``) writes every key (the
``dealer`` once known), melds as notation, and ``cards`` only when recorded.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from ...cards import FRENCH, Card
from ...errors import RuleViolation
from ...words import T
from ..base import (
    require_dict,
    require_int,
    require_known_keys,
    require_list,
    require_player,
)
from .melds import Meld, parse_meld
from .values import BRISQUES_TOTAL, MELD_TRICKS, TRICKS

MAX_MELDS = 13          # every meld of the pack; a real turn has far fewer (4.2.3)


@dataclass(frozen=True)
class Trick:
    winner: int | None
    melds: tuple[tuple[Meld, ...], tuple[Meld, ...]] = ((), ())
    exchange: int | None = None
    cards: tuple[Card, Card] | None = None      # the leader's card, then the second's


@dataclass(frozen=True)
class SevenPlayed:
    player: int
    trick: int | None


@dataclass(frozen=True)
class End:
    brisques: tuple[int | None, int | None]
    trick10: int
    last: int
    sweep: int | None

    @property
    def brisque_points(self) -> tuple[int, int]:
        """Both players' points in aces and tens, one derived from 80 if not given."""
        a, b = self.brisques
        if a is None:
            assert b is not None
            return BRISQUES_TOTAL - b, b
        return a, BRISQUES_TOTAL - a if b is None else b


@dataclass(frozen=True)
class HandFacts:
    turnup: Card
    tricks: tuple[Trick, ...] = ()
    seven_played: SevenPlayed | None = None
    end: End | None = None
    dealer: int | None = None       # None: not recorded, read as the proposed dealer (2.1)

    @property
    def trumps(self) -> str:
        return self.turnup.suit

    @property
    def exchanges(self) -> list[tuple[int, int]]:
        """Every recorded exchange as (trick, player)."""
        return [
            (number, trick.exchange)
            for number, trick in enumerate(self.tricks, 1) if trick.exchange is not None
        ]


KEYS = frozenset({"dealer", "turnup", "tricks", "seven_played", "end"})
TRICK_KEYS = frozenset({"winner", "melds", "exchange", "cards"})
SEVEN_KEYS = frozenset({"player", "trick"})
END_KEYS = frozenset({"brisques", "trick10", "last", "sweep"})


def parse_hand(data: object) -> HandFacts:
    raw = require_dict(data, T("A deal"))
    require_known_keys(raw, KEYS, T("a deal"))
    if raw.get("turnup") is None:
        raise RuleViolation("fact.turnup", T("Pick the turn-up card: it fixes trumps"), "2.2")
    turnup = FRENCH.parse(raw["turnup"])
    tricks = tuple(
        _parse_trick(t, number, turnup.suit)
        for number, t in enumerate(require_list(raw.get("tricks", []), T("Tricks"), TRICKS), 1)
    )
    seven = None
    if raw.get("seven_played") is not None:
        s = require_dict(raw["seven_played"], T("The trump 7 played"))
        require_known_keys(s, SEVEN_KEYS, T("the trump 7 played"))
        trick = s.get("trick")
        seven = SevenPlayed(
            require_player(s.get("player"), T("The player who played the trump 7")),
            None if trick is None else require_int(
                trick, T("The trick the trump 7 was played to"), 1, TRICKS, "6.1.5"
            ),
        )
    dealer = raw.get("dealer")
    if dealer is not None:
        dealer = require_player(dealer, T("The dealer"))
    return HandFacts(turnup, tricks, seven, _parse_end(raw.get("end")), dealer)


def read_canonical(raw: dict[str, Any]) -> HandFacts:
    """A deal as ``hand_to_json`` writes it, read as it stands (``tricks.read_trusted``)."""
    turnup = FRENCH.parse(raw["turnup"])
    seven, end = raw.get("seven_played"), raw.get("end")
    return HandFacts(
        turnup,
        tuple(_read_trick(trick, turnup.suit) for trick in raw.get("tricks", [])),
        None if seven is None else SevenPlayed(seven["player"], seven.get("trick")),
        None if end is None else End(
            tuple(end["brisques"]), end["trick10"], end["last"], end.get("sweep"),
        ),
        raw.get("dealer"),
    )


def _read_trick(raw: dict[str, Any], trumps: str) -> Trick:
    melds = raw.get("melds", [[], []])
    cards = raw.get("cards")
    if not (melds[0] or melds[1]):           # most tricks: the same few values again
        return _bare(raw.get("winner"), raw.get("exchange"), *(cards or (None, None)))
    return Trick(
        raw.get("winner"),
        (tuple(read_meld(m, trumps) for m in melds[0]),
         tuple(read_meld(m, trumps) for m in melds[1])),
        raw.get("exchange"),
        None if cards is None else (FRENCH.parse(cards[0]), FRENCH.parse(cards[1])),
    )


@cache
def _bare(winner: int | None, exchange: int | None, lead: str | None, second: str | None) -> Trick:
    cards = None if lead is None or second is None else (FRENCH.parse(lead), FRENCH.parse(second))
    return Trick(winner, ((), ()), exchange, cards)


@cache
def read_meld(text: str, trumps: str) -> Meld:
    return parse_meld(text, trumps)


def _player_or_none(value: object) -> bool:
    return value is None or type(value) is int and value in (0, 1)


def _trick_shape_ok(data: object) -> bool:
    """Is ``data`` a trick record of the right shape? (Most are: ``_check_trick_shape`` and
    its words are then not needed.)"""
    if not isinstance(data, dict) or not data.keys() <= TRICK_KEYS:
        return False
    melds = data.get("melds", [[], []])
    return (
        _player_or_none(data.get("winner")) and _player_or_none(data.get("exchange"))
        and isinstance(melds, list) and len(melds) == 2
        and all(isinstance(side, list) and len(side) <= MAX_MELDS for side in melds)
    )


def _check_trick_shape(data: object, number: int) -> None:
    """Refuse a trick record of the wrong shape, saying what is wrong (6.1)."""
    raw = require_dict(data, T("Trick %(number)s", number=number))
    require_known_keys(raw, TRICK_KEYS, T("trick %(number)s", number=number))
    if raw.get("winner") is not None:
        require_player(raw["winner"], T("The winner of trick %(number)s", number=number))
    melds = require_list(raw.get("melds", [[], []]), T("Trick %(number)s's melds", number=number),
                         2)
    if len(melds) != 2:
        raise RuleViolation(
            "fact.shape", T("Trick %(number)s's melds need one list per player", number=number),
            "6.1",
        )
    for side in melds:
        require_list(side, T("Trick %(number)s's melds", number=number), MAX_MELDS)
    if raw.get("exchange") is not None:
        require_player(raw["exchange"], T("The player who exchanged after trick %(number)s",
                                          number=number))


def _parse_trick(data: object, number: int, trumps: str) -> Trick:
    if not _trick_shape_ok(data):
        _check_trick_shape(data, number)
    assert isinstance(data, dict)
    winner = data.get("winner")
    raw_melds = data.get("melds", [[], []])
    melds = (tuple(parse_meld(m, trumps) for m in raw_melds[0]),
             tuple(parse_meld(m, trumps) for m in raw_melds[1]))
    exchange = data.get("exchange")
    if number > MELD_TRICKS and (melds[0] or melds[1]):
        raise RuleViolation(
            "meld.window",
            T("Melds are declared only after tricks 1–10, not after trick %(number)s: the stock "
              "is empty", number=number),
            "4.2.1",
        )
    if number > MELD_TRICKS and exchange is not None:
        raise RuleViolation(
            "exchange.window",
            T("The trump 7 can be exchanged only after tricks 1–10, not after trick "
              "%(number)s: the turn-up has been taken", number=number),
            "4.4.1",
        )
    cards = None
    if data.get("cards") is not None:
        played = FRENCH.parse_many(data["cards"])
        if len(played) != 2:
            raise RuleViolation(
                "fact.shape",
                T("Trick %(number)s: give the two cards played, the leader's first",
                  number=number),
                "6.1.7",
            )
        cards = (played[0], played[1])
    return Trick(winner, melds, exchange, cards)


def _parse_end(data: object) -> End | None:
    if data is None:
        return None
    raw = require_dict(data, T("The end of the deal"))
    require_known_keys(raw, END_KEYS, T("the end of the deal"))
    pair = require_list(raw.get("brisques"), T("Aces and tens"), 2)
    if len(pair) != 2:
        raise RuleViolation(
            "fact.shape", T("Give the aces and tens of each player (one may be empty)"), "6.1"
        )
    brisques = tuple(
        None if value is None
        else require_int(value, T("Points in aces and tens"), 0, BRISQUES_TOTAL, "6.3.1")
        for value in pair
    )
    if brisques == (None, None):
        raise RuleViolation(
            "fact.brisques", T("Give the points in aces and tens of at least one player"),
            "6.1.6",
        )
    for value in brisques:
        if value is not None and value % 10:
            raise RuleViolation(
                "brisques.tens",
                T("Aces and tens count 10 each, so %(value)s is not possible: give a multiple "
                  "of 10", value=value),
                "6.3.1",
            )
    if None not in brisques and sum(b for b in brisques if b is not None) != BRISQUES_TOTAL:
        a, b = brisques
        raise RuleViolation(
            "brisques.sum",
            T("The four aces and four tens make %(total)s in all, not %(first)s + %(second)s = "
              "%(sum)s", total=BRISQUES_TOTAL, first=a, second=b, sum=(a or 0) + (b or 0)),
            "6.3.1",
        )
    sweep = raw.get("sweep")
    return End(
        (brisques[0], brisques[1]),
        require_player(raw.get("trick10"), T("The winner of trick 10")),
        require_player(raw.get("last"), T("The winner of the last trick")),
        None if sweep is None else require_player(sweep, T("The player who won tricks 11–16")),
    )


def hand_to_json(facts: HandFacts) -> dict[str, Any]:
    """The canonical JSON of a deal: parse_hand(hand_to_json(f)) == f."""
    tricks = []
    for trick in facts.tricks:
        entry: dict[str, Any] = {
            "winner": trick.winner,
            "exchange": trick.exchange,
            "melds": [[str(m) for m in side] for side in trick.melds],
        }
        if trick.cards is not None:
            entry["cards"] = [str(card) for card in trick.cards]
        tricks.append(entry)
    seven = facts.seven_played
    end = facts.end
    dealer: dict[str, Any] = {} if facts.dealer is None else {"dealer": facts.dealer}
    return {
        **dealer,
        "turnup": str(facts.turnup),
        "tricks": tricks,
        "seven_played": None if seven is None else {"player": seven.player, "trick": seven.trick},
        "end": None if end is None else {
            "brisques": list(end.brisques), "trick10": end.trick10, "last": end.last,
            "sweep": end.sweep,
        },
    }


__all__ = ["End", "HandFacts", "SevenPlayed", "Trick", "hand_to_json", "parse_hand"]
