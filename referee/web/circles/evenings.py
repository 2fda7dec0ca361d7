"""A circle's evenings: its matches of a money game (Troggu) of one day, by the day each match
was created (its match file's ``created``), add up to one balance per person and one settle-up
(rule 7.5.3: while a balance is not 0, the largest debt pays the largest credit the smaller of
the two amounts, ties to the earlier seat).

The evening's seats are its people in the order they first sat down: the seats of its first
match, then whoever joined in a later match, in that match's seat order. The matches stand in
the order they were created, and those of one time (a match file keeps only the day: the
matches of one day imported with their circle all start at midnight) in the order they joined
the circle. A person is a circle player, so the same person in two matches (whatever name each
match gave them) has one balance."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from typing import TYPE_CHECKING

from ...engine.errors import RuleViolation
from ...engine.games.base import Game
from ...engine.ledger import settle_up
from ...scoresheet.troggu import francs, rappen
from ..games import WEB_GAMES

if TYPE_CHECKING:
    from ..store import Circle
    from .derived import Summary


@dataclass
class EveningMatch:
    id: str                   # the match's edit token
    created: datetime
    hands: int
    amounts: list[tuple[str, int]]        # each person's balance in this match


@dataclass
class Transfer:
    payer: str
    payee: str
    amount: int


@dataclass
class Evening:
    game: Game
    day: date
    matches: list[EveningMatch] = field(default_factory=list)
    balances: list[tuple[str, int]] = field(default_factory=list)
    settle: list[Transfer] = field(default_factory=list)
    error: str | None = None          # the settle-up could not be made (why)

    @staticmethod
    def signed(amount: int) -> str:
        return rappen(amount)

    @staticmethod
    def francs(amount: int) -> str:
        return francs(amount)


def evenings(circle: Circle, played: list[Summary]) -> list[Evening]:
    """The circle's evenings, newest first, from its matches' summaries (matches that no
    longer score are left out)."""
    days: dict[tuple[str, date], list[Summary]] = {}
    for m in played:
        if WEB_GAMES[m.game].evening and m.standing is not None:
            days.setdefault((m.game, m.created.date()), []).append(m)
    found = []
    for (game, day), of_day in sorted(days.items(), key=lambda item: item[0][1], reverse=True):
        found.append(_evening(circle, WEB_GAMES[game].game, day,
                              sorted(of_day, key=lambda m: (m.created, m.added))))
    return found


def _evening(circle: Circle, game: Game, day: date, played: list[Summary]) -> Evening:
    evening = Evening(game, day)
    order: list[int] = []
    balance: dict[int, int] = {}
    names = {p.id: p.name for p in circle.players}
    for m in played:
        assert m.standing is not None
        totals = m.standing.totals
        for seat, person in enumerate(m.people):
            if person not in balance:
                order.append(person)
                balance[person] = 0
            balance[person] += totals[seat]
        evening.matches.append(EveningMatch(
            m.id, m.created, m.hands,
            [(names.get(p, "?"), totals[s]) for s, p in enumerate(m.people)]))
    evening.balances = [(names.get(p, "?"), balance[p]) for p in order]
    try:
        transfers = settle_up([balance[p] for p in order])
    except RuleViolation as violation:
        evening.error = violation.explain()
    else:
        evening.settle = [Transfer(evening.balances[a][0], evening.balances[b][0], amount)
                          for a, b, amount in transfers]
    return evening
