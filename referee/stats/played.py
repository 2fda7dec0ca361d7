"""One match as the statistics read it: its game, its day, its facts and who sat where."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from .tally import Tally


@dataclass(frozen=True)
class Played:
    """One match as the statistics read it.

    ``settings`` and ``hands`` are the canonical facts, as stored or in the match file
    (nothing derived: every figure is folded from them). ``people`` names each seat, in
    ``settings["players"]`` order, by the key the statistics are keyed by: the command line
    passes the names as written, a circle its player ids."""

    game: str                         # "tartli", "troggu", ...
    created: datetime.date
    settings: dict[str, Any]
    hands: list[dict[str, Any]]
    people: tuple[str, ...]


Figures = tuple[list[Tally], Tally]
"""What a game's module counts in one match: a tally per seat, and one for the whole match."""


def seats(match: Played) -> range:
    return range(len(match.settings["players"]))
