"""What one Troggu hand needs from the match settings, and what scoring it produces."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from ...words import T, listing
from ..base import Line
from .values import THRESHOLDS, Sizes, deal_sizes

KINGS_ALL_FOUR, KINGS_ANY, KINGS_SEVEN = "all four", "any", "seven"     # 4.2.3 and 8


@dataclass(frozen=True)
class Table:
    """What a hand's checks and payments need from the match settings."""

    names: tuple[str, ...]
    sizes: Sizes
    stake: int
    threshold: int
    threshold_name: str
    kings: str = KINGS_ALL_FOUR
    no_misere: bool = False
    least_wins: bool = False

    @classmethod
    def from_settings(cls, settings: dict[str, Any]) -> Table:
        names = tuple(settings["players"])
        name, threshold = THRESHOLDS[settings["threshold"]]
        kings = (
            KINGS_ANY if settings.get("kings_any_number")
            else KINGS_SEVEN if settings.get("seven_fives") else KINGS_ALL_FOUR
        )
        return cls(
            names, deal_sizes(len(names), bool(settings.get("graechen_deal"))),
            settings["stake"], threshold, name, kings, bool(settings.get("no_misere")),
            bool(settings.get("misere_least_wins")),
        )

    # kept once read (``cached_property``: the instance's own attribute after the first
    # read): every check of every hand asks them
    @cached_property
    def n(self) -> int:
        return len(self.names)

    @cached_property
    def h(self) -> int:
        return self.sizes.hand

    @cached_property
    def t(self) -> int:
        return self.sizes.tapp

    def name(self, seat: int) -> str:
        return self.names[seat]


@dataclass
class HandScore:
    payments: list[int]
    lines: list[Line] = field(default_factory=list)
    summary: str = ""               # a Text once scored
    complete: bool = True
    detail: dict[str, Any] = field(default_factory=dict)
    # False: the lines are not written (the payments, summary and detail are): a trusted
    # hand's explanation is made only when asked for (``HandOutcome.explained_later``)
    explain: bool = True


def names_of_side(declarer: int, partner: int | None, table: Table) -> object:
    """``Anna``, or ``Anna and Dora`` (a ``Text``)."""
    if partner is None:
        return table.name(declarer)
    return listing([table.name(declarer), table.name(partner)])


def in_order(items: Sequence[object]) -> object:
    """``Anna passes, Beat normal, Carla passes``: in order, each after a comma (a list that
    is not "A, B and C")."""
    if len(items) == 1:
        return items[0]
    return T("%(first)s, %(rest)s", first=items[0], rest=in_order(items[1:]))
