"""The facts a table reports about one Troggu hand (rules 6.1), read strictly from JSON.

A hand in JSON (every key optional except as said; the canonical form writes them all)::

    {"dealer": 1,
     "bids": ["pass", "normal", "pass", "pass"],
     "game": "normal",
     "declarer": 2,
     "forced_by": null,
     "call": null,
     "discard": ["Qs", "Qb", "9s", "8s", "7s", "6s", "5s", "9b", "8b", "7b"],
     "discard_points": null,
     "discard_by": 2,
     "all_kings_held": false,
     "tapp": null,
     "tapp_points": null,
     "end": {"points": 71, "defenders": 43, "tricks": 7, "loser_took_trick": null,
             "fool_kept": null}}

Seats are 0 … N−1 in playing order (anticlockwise; seat s + 1 is on the right of seat s).

``dealer``
    Who dealt. Default (null): the player to the right of the last dealer, or the match's
    first dealer (2.4, 6.1). The dealer never changes a payment.
``bids``
    The calls in order, from the dealer's right (optional, 4.1): ``"pass"``, ``"normal"``
    ("ich nehm's" / "ich gehe") or ``"solo"``. Complete when every player has spoken or a Solo
    ended the bidding; while the hand is in progress the list may be unfinished.
``game``
    ``"normal"``, ``"solo"``, ``"forced"`` (7–8 players, all passed), ``"misere"`` or
    ``"thrown-in"`` (all passed under the "No Misère" variant). Null only while the hand is
    in progress (the bidding is not over). ``referee.engine.games.troggu.bidding`` derives it
    from complete bids, where they decide it.
``declarer``
    The Tappist or Soloist (normal, forced, Solo).
``forced_by``
    Forced game only: ``"F"`` when the declarer held the fool, ``"T1"`` when the fool lay in
    the Tapp and he held trump I (4.5.1).
``call``
    7–8 players, normal or forced game: ``{"trump": "T20", "partner": 3, "by": 2}``, or
    ``"partner": "alone"`` when the called card was the Tappist's own or in the Tapp (4.5.3).
    ``trump`` (T1–T20) may be null when not recorded; ``partner`` is required. ``by`` is the
    Tappist who called (4.5.2).
``discard`` / ``discard_points`` / ``discard_by``
    Normal or forced game (optional): the Tappist's discard as cards, or its card points; when
    both are given they must agree. ``all_kings_held`` confirms, under the "Kings: any number"
    variant, that a Tappist discarding 1–3 kings held all four. ``discard_by`` is the Tappist
    who discarded (4.2.1).

    The call and the discard are the Tappist's choices. When an edit of the bidding makes
    another player Tappist, a call or discard ``by`` the former one is void: the hand reads as
    if it were not recorded, and a finished hand whose call is void waits, paying nothing, for
    the new Tappist's call. A null ``by`` (a file written before it was recorded) is read as
    the Tappist's of the hand; ``Game.complete`` writes him in.
``tapp`` / ``tapp_points``
    Solo or Misère (optional): the Tapp's cards, or its card points.
``end``
    Null while the hand is being played (or for a thrown-in hand); else

    normal, forced, Solo: ``{"points": P, "defenders": Q | null, "tricks": k | null,
    "loser_took_trick": bool | null, "fool_kept": seat | null}``
        P is the declarer side's card points, the discard (normal, forced) or the Tapp (Solo)
        included; Q the defenders' (optional: 114 − P); k the declarer side's tricks. Give k
        or ``loser_took_trick`` (whether the losing side won a trick), or both.
    Misère: ``{"points": [p0, p1, ...], "tricks": [k0, k1, ...] | null, "fool_kept": seat |
    null}``
        One entry per seat.

    ``fool_kept`` is the rare case of 2.5.3: the seat that withheld the fool when its side
    (in a Misère: that player) won no trick, so it kept the fool's 5 points.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...cards import SWISS_TAROT, Card
from ...errors import PACK, RuleViolation, shown
from ...words import T, Text
from ..base import (
    require_bool,
    require_dict,
    require_int,
    require_known_keys,
    require_list,
    require_player,
)
from .values import (
    CALLABLE,
    CALLS,
    DEAL,
    FORCED,
    FORCED_BY,
    GAMES,
    MAX_PLAYERS,
    TOTAL_POINTS,
)

MAX_TRICKS = max(s.hand for s in DEAL.values())      # 18, with 3 players
ALONE = "alone"
DISTINCT_DISCARD = "6.3.6"     # a discard is exactly t distinct cards


@dataclass(frozen=True)
class Call:
    trump: Card | None           # T1–T20, or None when not recorded
    partner: int | None          # None: the Tappist plays alone
    by: int | None = None        # the Tappist who called; None: not recorded (the Tappist)


@dataclass(frozen=True)
class SideEnd:
    """How a normal, forced or Solo game ended."""

    points: int                  # the declarer side's, discard or Tapp included
    defenders: int | None = None
    tricks: int | None = None    # the declarer side's
    loser_took_trick: bool | None = None
    fool_kept: int | None = None


@dataclass(frozen=True)
class MisereEnd:
    points: tuple[int, ...]
    tricks: tuple[int, ...] | None = None
    fool_kept: int | None = None


End = SideEnd | MisereEnd


@dataclass(frozen=True)
class HandFacts:
    dealer: int | None = None
    bids: tuple[str, ...] | None = None
    game: str | None = None
    declarer: int | None = None
    forced_by: str | None = None
    call: Call | None = None
    discard: tuple[Card, ...] | None = None
    discard_points: int | None = None
    discard_by: int | None = None        # the Tappist who discarded; None: not recorded
    all_kings_held: bool = False
    tapp: tuple[Card, ...] | None = None
    tapp_points: int | None = None
    end: End | None = None


KEYS = frozenset({
    "dealer", "bids", "game", "declarer", "forced_by", "call", "discard", "discard_points",
    "discard_by", "all_kings_held", "tapp", "tapp_points", "end",
})
CALL_KEYS = frozenset({"trump", "partner", "by"})
SIDE_KEYS = frozenset({"points", "defenders", "tricks", "loser_took_trick", "fool_kept"})
MISERE_KEYS = frozenset({"points", "tricks", "fool_kept"})
CARD_ORDER = {card: i for i, card in enumerate(SWISS_TAROT.cards)}


# what the facts are called in the messages of the shared readers (base.py): a Text each,
# made once
_DEALER = T("The dealer")
_DECLARER = T("The declarer")
_DISCARD = T("The discard")
_DISCARD_POINTS = T("The discard's card points")
_DISCARD_BY = T("The Tappist who discarded")
_ALL_KINGS = T("“Held all four kings”")
_TAPP = T("The Tapp")
_TAPP_POINTS = T("The Tapp's card points")
_BIDS = T("The bids")
_CALL = T("The partner call")
_PARTNER = T("The partner")
_CALL_BY = T("The Tappist who called")
_END = T("The end of the hand")
_FOOL_KEPT = T("The player who kept the fool")
_A_PLAYERS_POINTS = T("A player's card points")
_PLAYERS_POINTS = T("The players' card points")
_A_PLAYERS_TRICKS = T("A player's tricks")
_PLAYERS_TRICKS = T("The players' tricks")
_SIDE_POINTS = T("The declarer side's card points")
_DEFENDERS_POINTS = T("The defenders' card points")
_SIDE_TRICKS = T("The declarer side's tricks")
_LOSER_TOOK = T("“The losing side won a trick”")
_A_HAND = T("A hand")
_IN_A_HAND = T("a hand")
_IN_THE_CALL = T("the partner call")
_IN_A_MISERE_END = T("a Misère's end")
_IN_THE_END = T("the end of the hand")


def _seat(value: object, what: Text) -> int | None:
    return None if value is None else require_player(value, what, MAX_PLAYERS)


def _points(value: object, what: Text) -> int:
    return require_int(value, what, 0, TOTAL_POINTS, "6.3.2")


def _cards(value: object, what: Text, distinct: str) -> tuple[Card, ...] | None:
    """Cards of the 62-card pack (rule 1), each named once (``distinct``: the rule a card
    named twice breaks)."""
    if value is None:
        return None
    if not isinstance(value, (str, list)):
        raise RuleViolation("card.list", T("%(what)s: expected a list of cards", what=what),
                            "6.1")
    if isinstance(value, list):
        require_list(value, what, len(CARD_ORDER))
    cards = SWISS_TAROT.parse_many(value, distinct)
    return tuple(sorted(cards, key=CARD_ORDER.__getitem__))


def parse_hand(data: object) -> HandFacts:
    raw = require_dict(data, _A_HAND)
    require_known_keys(raw, KEYS, _IN_A_HAND)
    game = raw.get("game")
    if game is not None and game not in GAMES:
        raise RuleViolation(
            "fact.game",
            T("The game is normal, Solo, forced, Misère or thrown in, not %(given)s",
              given=shown(game)), "6.1",
        )
    forced_by = raw.get("forced_by")
    if forced_by is not None:
        if forced_by not in FORCED_BY:
            raise RuleViolation(
                "forced.by",
                T("A forced game is forced by the fool (F) or trump I (T1), not %(given)s",
                  given=shown(forced_by)),
                "4.5.1",
            )
        if game not in (FORCED, None):
            raise RuleViolation(
                "forced.by", T("Only a forced game is forced by the fool or trump I"), "4.5.1"
            )
    discard_points = raw.get("discard_points")
    tapp_points = raw.get("tapp_points")
    return HandFacts(
        dealer=_seat(raw.get("dealer"), _DEALER),
        bids=_bids(raw.get("bids")),
        game=game,
        declarer=_seat(raw.get("declarer"), _DECLARER),
        forced_by=forced_by,
        call=_call(raw.get("call")),
        discard=_cards(raw.get("discard"), _DISCARD, DISTINCT_DISCARD),
        discard_points=None if discard_points is None else _points(
            discard_points, _DISCARD_POINTS),
        discard_by=_seat(raw.get("discard_by"), _DISCARD_BY),
        all_kings_held=require_bool(raw.get("all_kings_held", False), _ALL_KINGS),
        tapp=_cards(raw.get("tapp"), _TAPP, PACK),
        tapp_points=None if tapp_points is None else _points(
            tapp_points, _TAPP_POINTS),
        end=_end(raw.get("end")),
    )


def _bids(value: object) -> tuple[str, ...] | None:
    if value is None:
        return None
    bids = require_list(value, _BIDS, MAX_PLAYERS)
    for number, bid in enumerate(bids, 1):
        if bid not in CALLS:
            raise RuleViolation(
                "bids.call", T("Call %(number)s is pass, normal or Solo, not %(given)s",
                               number=number, given=shown(bid)), "4.1"
            )
    return tuple(bids)


def _call(value: object) -> Call | None:
    if value is None:
        return None
    raw = require_dict(value, _CALL)
    require_known_keys(raw, CALL_KEYS, _IN_THE_CALL)
    trump = None
    if raw.get("trump") is not None:
        trump = SWISS_TAROT.parse(raw["trump"])
        if str(trump) not in CALLABLE:
            raise RuleViolation(
                "call.trump",
                T("The Tappist calls a trump from I to XX, never %(card)s",
                  card=SWISS_TAROT.long_name(trump)),
                "4.5.2",
            )
    partner = raw.get("partner")
    if partner is None:
        raise RuleViolation(
            "call.partner",
            T("Say who held the called trump, or that the Tappist plays alone"), "4.5.3",
        )
    return Call(
        trump, None if partner == ALONE else require_player(partner, _PARTNER, MAX_PLAYERS),
        _seat(raw.get("by"), _CALL_BY),
    )


def _end(value: object) -> End | None:
    if value is None:
        return None
    raw = require_dict(value, _END)
    fool_kept = _seat(raw.get("fool_kept"), _FOOL_KEPT)
    if isinstance(raw.get("points"), list):
        require_known_keys(raw, MISERE_KEYS, _IN_A_MISERE_END)
        points = tuple(
            _points(p, _A_PLAYERS_POINTS)
            for p in require_list(raw["points"], _PLAYERS_POINTS, MAX_PLAYERS)
        )
        tricks = None
        if raw.get("tricks") is not None:
            tricks = tuple(
                require_int(k, _A_PLAYERS_TRICKS, 0, MAX_TRICKS, "6.3.3")
                for k in require_list(raw["tricks"], _PLAYERS_TRICKS, MAX_PLAYERS)
            )
        return MisereEnd(points, tricks, fool_kept)
    require_known_keys(raw, SIDE_KEYS, _IN_THE_END)
    defenders = raw.get("defenders")
    tricks = raw.get("tricks")
    took = raw.get("loser_took_trick")
    return SideEnd(
        _points(raw.get("points"), _SIDE_POINTS),
        None if defenders is None else _points(defenders, _DEFENDERS_POINTS),
        None if tricks is None else require_int(
            tricks, _SIDE_TRICKS, 0, MAX_TRICKS, "6.3.3"),
        None if took is None else require_bool(took, _LOSER_TOOK),
        fool_kept,
    )


def _cards_json(cards: tuple[Card, ...] | None) -> list[str] | None:
    return None if cards is None else [str(c) for c in cards]


def hand_to_json(facts: HandFacts) -> dict[str, Any]:
    """The canonical JSON of a hand: parse_hand(hand_to_json(f)) == f."""
    call = None if facts.call is None else {
        "trump": None if facts.call.trump is None else str(facts.call.trump),
        "partner": ALONE if facts.call.partner is None else facts.call.partner,
        "by": facts.call.by,
    }
    end: dict[str, Any] | None
    if isinstance(facts.end, SideEnd):
        end = {
            "points": facts.end.points, "defenders": facts.end.defenders,
            "tricks": facts.end.tricks, "loser_took_trick": facts.end.loser_took_trick,
            "fool_kept": facts.end.fool_kept,
        }
    elif isinstance(facts.end, MisereEnd):
        end = {
            "points": list(facts.end.points),
            "tricks": None if facts.end.tricks is None else list(facts.end.tricks),
            "fool_kept": facts.end.fool_kept,
        }
    else:
        end = None
    return {
        "dealer": facts.dealer,
        "bids": None if facts.bids is None else list(facts.bids),
        "game": facts.game,
        "declarer": facts.declarer,
        "forced_by": facts.forced_by,
        "call": call,
        "discard": _cards_json(facts.discard),
        "discard_points": facts.discard_points,
        "discard_by": facts.discard_by,
        "all_kings_held": facts.all_kings_held,
        "tapp": _cards_json(facts.tapp),
        "tapp_points": facts.tapp_points,
        "end": end,
    }


__all__ = ["ALONE", "Call", "End", "HandFacts", "MisereEnd", "SideEnd", "hand_to_json",
           "parse_hand"]


def read_canonical(raw: dict[str, Any]) -> HandFacts:
    """A hand as ``hand_to_json`` writes it, read as it stands (``tricks.read_trusted``): the
    facts ``parse_hand`` gives, without checking them again."""
    bids, call, end = raw["bids"], raw["call"], raw["end"]
    return HandFacts(
        dealer=raw["dealer"],
        bids=None if bids is None else tuple(bids),
        game=raw["game"],
        declarer=raw["declarer"],
        forced_by=raw["forced_by"],
        call=None if call is None else Call(
            None if call["trump"] is None else SWISS_TAROT.known[call["trump"]],
            None if call["partner"] == ALONE else call["partner"], call["by"],
        ),
        discard=_read_cards(raw["discard"]),
        discard_points=raw["discard_points"],
        discard_by=raw["discard_by"],
        all_kings_held=raw["all_kings_held"],
        tapp=_read_cards(raw["tapp"]),
        tapp_points=raw["tapp_points"],
        end=None if end is None else _read_end(end),
    )


def _read_cards(cards: list[str] | None) -> tuple[Card, ...] | None:
    """Cards as ``_cards_json`` writes them: known cards, in the pack's order already."""
    return None if cards is None else tuple(SWISS_TAROT.known[card] for card in cards)


def _read_end(end: dict[str, Any]) -> End:
    points, tricks = end["points"], end["tricks"]
    if isinstance(points, list):
        return MisereEnd(tuple(points), None if tricks is None else tuple(tricks),
                         end["fool_kept"])
    return SideEnd(points, end["defenders"], tricks, end["loser_took_trick"], end["fool_kept"])
