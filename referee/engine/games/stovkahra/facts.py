"""The facts a table reports about one Stovkahra deal (rules 6.1), read strictly from JSON.

A deal in JSON::

    {"dealer": 3,
     "trumps": "h",
     "combinations": [{"seat": 0, "rank": "A", "count": 3},
                      {"seat": 1, "rank": "K", "count": 3, "cards": ["Kc", "Kd", "Kh"]}],
     "end": {"kind": "played", "points": [40, 32], "tricks": [5, 3], "last": 1,
             "sevens": [{"trick": 4, "team": 0}]},
     "sticks": "add", "sticks_by": 0, "sticks_against": null}

Seats are 0–3 = N, E, S, W, clockwise; teams (the scoring sides) are 0 = NS (seats 0 and 2)
and 1 = EW (seats 1 and 3). Declaring and the lead to trick 1 start at the dealer's left,
seat ``dealer + 1``.

``dealer``
    Who dealt, seat 0–3: a recorded fact that the app only proposes (6.1.1). The proposal is
    the seat to the left of the previous deal's recorded dealer (2.5), the match's
    ``first_dealer`` for deal 1. A dealer other than the proposal is kept and said in the
    deal's lines. Missing or null (a file written before the dealer was recorded) reads as
    the proposal, and ``Stovkahra.complete`` writes it in, so an old file scores as before and
    deleting a deal moves no later dealer.
``trumps``
    The trump suit, ``"c"``, ``"d"``, ``"h"``, ``"s"`` or ``null`` (not recorded; optional, 6.1).
``combinations``
    The declared combinations in the order declared (4.1): ``seat``, ``rank`` (``"A"``,
    ``"K"``, ``"Q"``, ``"J"``, ``"10"`` or ``"7"``), ``count`` (3 or 4) and, when the cards
    were picked, ``cards`` (card codes of that rank, as many as ``count``). An optional
    ``trick`` (1–8) says the declaration came once that trick had been led; it is always
    refused (4.5) and never written back.
``end``
    ``null`` while the deal is in progress, else one of

    ``{"kind": "played", "points": [ns, ew], "tricks": [ns, ew] | null, "last": team,
    "sevens": [...]}``
        A deal played out: each team's card points, tricks (optional), the team that won
        trick 8 and the tricks won with a seven.
    ``{"kind": "dost", "caller": seat, "after": t, "trick_winner": seat | null,
    "points": [ns, ew], "tricks": [ns, ew] | null, "sevens": [...]}``
        A deal stopped by dost (7.2): ``after`` 0 means right after the caller's own
        declaration (no trick played), 1–7 that the caller had just won trick t;
        ``trick_winner`` is who the table says won trick t (optional; only that player may
        call). Points, tricks and sevens
        are those of the completed tricks (tricks default null, sevens none). After trick t
        both teams' card points are required (6.1); right after a declaration no trick was
        played and they default to 0, 0.

    ``sevens`` lists the tricks won with a seven as ``{"trick": t, "team": team}`` (5); an
    optional ``"bonus"`` must be the bonus of that trick (52 for trick 1, 26 for trick 8,
    else 10) and is not written back, since it is derived.
``sticks``, ``sticks_by``, ``sticks_against``
    When the deal ends a game, the winners' choice (7.3.1): ``"add"`` the matchsticks to their
    own pile or ``"take"`` them off the opponents'; ``null`` until chosen. ``sticks_by`` is the
    team that made the choice (0 or 1) and ``sticks_against``, for a take, the opponents' pile
    it was made against (null for an add). A choice belongs to the team that made it: when an
    edit of an earlier deal gives the game to the other team, or changes the pile a take was
    made against so that the take no longer removes what it did (the pile differs and either
    pile was short of the award), the choice is void. A void or missing choice is never
    applied: the award is pending ("not chosen yet"), the matchsticks shown leave it out, and
    the series is not decided while a pending award could change it (see ``match.py``). A
    choice without ``sticks_by`` (a version 1 file written before the team was recorded) reads
    as made by the winners at that time, against the pile at that time, and
    ``Stovkahra.complete`` writes both in.

Missing ``dealer``, ``trumps``, ``combinations``, ``sticks``, ``sticks_by`` and
``sticks_against`` read as null, null, [], null, null and null. The canonical
form (``deal_to_json``) writes every key, sorts sevens by trick, and omits ``cards`` when the
cards were not picked.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...cards import FRENCH, Card
from ...errors import RuleViolation, shown
from ...words import T, Text
from ..base import (
    require_dict,
    require_int,
    require_known_keys,
    require_list,
    require_pair,
    require_player,
)
from .values import (
    COMBINATION_RANKS,
    DEAL_POINTS,
    PLURAL,
    SEATS,
    TRICKS,
    combination_name,
    seven_bonus,
)

MAX_COMBINATIONS = 4 * len(COMBINATION_RANKS)      # never reached by a legal deal (4.5)
STICKS = ("add", "take")
MAX_PILE = 1000                # far above any series (target at most 50, twice with the variant)


@dataclass(frozen=True)
class Combination:
    seat: int
    rank: str
    count: int
    cards: tuple[Card, ...] | None = None

    @property
    def name(self) -> Text:
        return combination_name(self.rank, self.count)


@dataclass(frozen=True, order=True)
class Seven:
    trick: int
    team: int


@dataclass(frozen=True)
class Played:
    points: tuple[int, int]
    tricks: tuple[int, int] | None
    last: int
    sevens: tuple[Seven, ...] = ()


@dataclass(frozen=True)
class Dost:
    caller: int
    after: int                     # 0: right after the caller's declaration; t: on winning t
    trick_winner: int | None
    points: tuple[int, int] = (0, 0)
    tricks: tuple[int, int] | None = None
    sevens: tuple[Seven, ...] = ()


End = Played | Dost


@dataclass(frozen=True)
class DealFacts:
    trumps: str | None = None
    combinations: tuple[Combination, ...] = ()
    end: End | None = None
    sticks: str | None = None
    dealer: int | None = None
    sticks_by: int | None = None           # the team that chose (7.3.1)
    sticks_against: int | None = None      # a take: the opponents' pile it was made against


KEYS = frozenset({
    "dealer", "trumps", "combinations", "end", "sticks", "sticks_by", "sticks_against",
})
COMBINATION_KEYS = frozenset({"seat", "rank", "count", "cards", "trick"})
PLAYED_KEYS = frozenset({"kind", "points", "tricks", "last", "sevens"})
DOST_KEYS = frozenset({"kind", "caller", "after", "trick_winner", "points", "tricks", "sevens"})
SEVEN_KEYS = frozenset({"trick", "team", "bonus"})


def parse_deal(data: object) -> DealFacts:
    raw = require_dict(data, T("A deal"))
    require_known_keys(raw, KEYS, T("a deal"))
    trumps = raw.get("trumps")
    if trumps is not None and trumps not in FRENCH.suits:
        raise RuleViolation(
            "fact.trumps",
            T("Trumps are c, d, h or s (or not recorded), not %(value)s", value=shown(trumps)),
            "2.1",
        )
    combinations = tuple(
        _parse_combination(c, i)
        for i, c in enumerate(
            require_list(raw.get("combinations", []), T("Combinations"), MAX_COMBINATIONS), 1
        )
    )
    sticks = raw.get("sticks")
    if sticks is not None and sticks not in STICKS:
        raise RuleViolation(
            "fact.sticks",
            T("The winners either add the matchsticks or take them away, not %(value)s",
              value=shown(sticks)),
            "7.3.1",
        )
    dealer = raw.get("dealer")
    return DealFacts(
        trumps, combinations, _parse_end(raw.get("end")), sticks,
        None if dealer is None else require_player(dealer, T("The dealer"), 4),
        *_parse_chooser(raw, sticks),
    )


def _parse_chooser(raw: dict[str, Any], sticks: object) -> tuple[int | None, int | None]:
    """``sticks_by`` and ``sticks_against``: who chose, and the pile a take was made against."""
    by, against = raw.get("sticks_by"), raw.get("sticks_against")
    if sticks is None and (by is not None or against is not None):
        raise RuleViolation(
            "fact.sticks", T("A team is named as having chosen, but no choice is recorded: "
                             "add or take the matchsticks"), "7.3.1",
        )
    if against is not None and sticks != "take":
        raise RuleViolation(
            "fact.sticks", T("Only a take is made against the opponents' pile"), "7.3.1"
        )
    if against is not None and by is None:
        raise RuleViolation(
            "fact.sticks", T("A take's pile is recorded without the team that took: name "
                             "North–South or East–West"), "7.3.1",
        )
    if by is not None and (type(by) is not int or by not in (0, 1)):
        raise RuleViolation(
            "fact.sticks",
            T("The team that chose is North–South or East–West, not %(value)s", value=shown(by)),
            "7.3.1",
        )
    return (
        None if by is None else int(by),
        None if against is None else require_int(
            against, T("The opponents' pile the take was made against"), 0, MAX_PILE, "7.3.1"
        ),
    )


def _parse_combination(data: object, number: int) -> Combination:
    raw = require_dict(data, T("Combination %(number)s", number=number))
    require_known_keys(raw, COMBINATION_KEYS, T("combination %(number)s", number=number))
    seat = require_player(
        raw.get("seat"), T("The declarer of combination %(number)s", number=number), 4
    )
    # the facts know seats, not names: the match fold says the player's name (match.py)
    who = SEATS[seat]
    rank, count = raw.get("rank"), raw.get("count")
    if isinstance(count, bool) or not isinstance(count, int):
        raise RuleViolation(
            "fact.number",
            T("Combination %(number)s (%(player)s): the number must be 3 or 4", number=number,
              player=who), "4.3",
        )
    if rank not in COMBINATION_RANKS:
        if isinstance(rank, str) and rank in PLURAL:
            message = T("%(player)s: %(ranks)s form no combination; only aces, kings, queens, "
                        "jacks, tens and sevens do", player=who, ranks=PLURAL[rank])
        else:
            message = T("%(player)s: %(value)s is no combination; only aces, kings, queens, "
                        "jacks, tens and sevens do", player=who, value=shown(rank))
        raise RuleViolation("combination.rank", message, "4.5")
    assert isinstance(rank, str)
    if count not in (3, 4):
        raise RuleViolation(
            "combination.count",
            T("%(player)s: a combination is three or four %(ranks)s, not %(value)s", player=who,
              ranks=PLURAL[rank], value=shown(count)),
            "4.5",
        )
    cards = None
    if raw.get("cards") is not None:
        cards = tuple(FRENCH.parse_many(raw["cards"]))
        if len(cards) != count or any(card.rank != rank for card in cards):
            raise RuleViolation(
                "combination.cards",
                T("%(player)s: the cards picked (%(cards)s) are not %(combination)s",
                  player=who, cards=" ".join(map(FRENCH.short_name, cards)),
                  combination=combination_name(rank, count)),
                "4.3",
            )
    if raw.get("trick") is not None:
        trick = require_int(
            raw["trick"], T("Combination %(number)s's trick", number=number), 1, TRICKS, "4.5"
        )
        raise RuleViolation(
            "combination.late",
            T("%(player)s: %(combination)s declared after trick %(trick)s was led — "
              "combinations are declared only before the lead to trick 1", player=who,
              combination=combination_name(rank, count), trick=trick),
            "4.5",
        )
    return Combination(seat, rank, count, cards)


def _parse_end(data: object) -> End | None:
    if data is None:
        return None
    raw = require_dict(data, T("The end of the deal"))
    kind = raw.get("kind")
    if kind == "played":
        require_known_keys(raw, PLAYED_KEYS, T("a played-out deal"))
        return Played(
            _points(raw.get("points")),
            _tricks(raw.get("tricks")),
            require_player(raw.get("last"), T("The team that won the last trick")),
            _sevens(raw.get("sevens", [])),
        )
    if kind == "dost":
        if raw.get("last") is not None:
            raise RuleViolation(
                "dost.last",
                T("A deal stopped by dost has no last trick and no last-trick bonus"),
                "7.2.3",
            )
        require_known_keys(raw, DOST_KEYS, T("a dost"))
        winner = raw.get("trick_winner")
        after = require_int(raw.get("after"), T("The trick after which dost was called"), 0,
                            TRICKS, "7.2.1")
        if after > 0 and raw.get("points") is None:
            raise RuleViolation(
                "dost.points",
                T("Dost was called after trick %(trick)s: give both teams' card points of the "
                  "completed tricks", trick=after),
                "6.1",
            )
        return Dost(
            require_player(raw.get("caller"), T("The player who called dost"), 4),
            after,
            None if winner is None else require_player(winner, T("The trick's winner"), 4),
            _points(raw.get("points", [0, 0])),
            _tricks(raw.get("tricks")),
            _sevens(raw.get("sevens", [])),
        )
    raise RuleViolation("fact.shape", T("A deal ends played out or stopped by dost"), "6.1")


def _points(data: object) -> tuple[int, int]:
    return require_pair(data, T("Card points"), T("card point count"), 0, DEAL_POINTS, "3",
                        T("team"))


def _tricks(data: object) -> tuple[int, int] | None:
    if data is None:
        return None
    return require_pair(data, T("Tricks"), T("trick count"), 0, TRICKS, "6.3.1", T("team"))


def _sevens(data: object) -> tuple[Seven, ...]:
    sevens = []
    for entry in require_list(data, T("Tricks won with a seven"), TRICKS):
        raw = require_dict(entry, T("A trick won with a seven"))
        require_known_keys(raw, SEVEN_KEYS, T("a trick won with a seven"))
        trick = require_int(raw.get("trick"), T("A trick won with a seven"), 1, TRICKS, "6.3.4")
        team = require_player(
            raw.get("team"), T("The team that won trick %(trick)s with a seven", trick=trick)
        )
        bonus = raw.get("bonus")
        if bonus is not None and bonus != seven_bonus(trick):
            raise RuleViolation(
                "sevens.bonus",
                T("Trick %(trick)s won with a seven is worth %(bonus)s, not %(value)s: 52 needs "
                  "trick 1 and 26 trick 8; tricks 2–7 score 10", trick=trick,
                  bonus=seven_bonus(trick), value=shown(bonus)),
                "6.3.4",
            )
        sevens.append(Seven(trick, team))
    return tuple(sorted(sevens))


def read_canonical(raw: dict[str, Any]) -> DealFacts:
    """A deal as ``deal_to_json`` writes it, read as it stands (``tricks.read_trusted``): the
    facts ``parse_deal`` gives, without checking them again. A deal in another form (a key
    missing) raises KeyError, and is then read by ``parse_deal``."""
    end, combinations = raw["end"], raw["combinations"]
    return DealFacts(
        raw["trumps"],
        tuple([_read_combination(c) for c in combinations]) if combinations else (),
        None if end is None else _read_end(end),
        raw["sticks"], raw["dealer"], raw["sticks_by"], raw["sticks_against"],
    )


def _read_combination(c: dict[str, Any]) -> Combination:
    cards = c.get("cards")
    return Combination(
        c["seat"], c["rank"], c["count"],
        None if cards is None else tuple([FRENCH.known[card] for card in cards]),
    )


def _read_end(end: dict[str, Any]) -> End:
    points, tricks, listed = end["points"], end["tricks"], end["sevens"]
    sevens = tuple([Seven(s["trick"], s["team"]) for s in listed]) if listed else ()
    kind = end["kind"]
    if kind == "played":
        return Played((points[0], points[1]), None if tricks is None else (tricks[0], tricks[1]),
                      end["last"], sevens)
    if kind == "dost":
        return Dost(end["caller"], end["after"], end["trick_winner"], (points[0], points[1]),
                    None if tricks is None else (tricks[0], tricks[1]), sevens)
    raise KeyError(kind)


def deal_to_json(facts: DealFacts) -> dict[str, Any]:
    """The canonical JSON of a deal: parse_deal(deal_to_json(f)) == f."""
    return {
        "dealer": facts.dealer,
        "trumps": facts.trumps,
        "combinations": [_combination_json(c) for c in facts.combinations],
        "end": _end_json(facts.end),
        "sticks": facts.sticks,
        "sticks_by": facts.sticks_by,
        "sticks_against": facts.sticks_against,
    }


def _combination_json(c: Combination) -> dict[str, Any]:
    out: dict[str, Any] = {"seat": c.seat, "rank": c.rank, "count": c.count}
    if c.cards is not None:
        out["cards"] = [str(card) for card in c.cards]
    return out


def _end_json(end: End | None) -> dict[str, Any] | None:
    if end is None:
        return None
    sevens = [{"trick": s.trick, "team": s.team} for s in end.sevens]
    tricks = None if end.tricks is None else list(end.tricks)
    if isinstance(end, Played):
        return {
            "kind": "played", "points": list(end.points), "tricks": tricks, "last": end.last,
            "sevens": sevens,
        }
    return {
        "kind": "dost", "caller": end.caller, "after": end.after,
        "trick_winner": end.trick_winner, "points": list(end.points), "tricks": tricks,
        "sevens": sevens,
    }


__all__ = [
    "Combination", "DealFacts", "Dost", "End", "Played", "Seven", "deal_to_json", "parse_deal",
    "read_canonical",
]
