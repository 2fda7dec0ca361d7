"""Matches for the statistics tests: facts made canonical as the store and the match file keep
them, and the Played record the statistics read."""

from __future__ import annotations

import datetime
from typing import Any

from referee.engine.games import get
from referee.stats import Played

DAY = datetime.date(2026, 11, 30)


def canonical(game: str, settings: dict[str, Any], hands: list[dict[str, Any]]
              ) -> list[dict[str, Any]]:
    """The hands as stored: canonical, every proposed fact (the dealer) filled in."""
    rules = get(game)
    return rules.complete(settings, [rules.canonical_hand(hand) for hand in hands])


def match(game: str, settings: dict[str, Any], hands: list[dict[str, Any]],
          people: tuple[str, ...], created: datetime.date = DAY) -> Played:
    return Played(game, created, settings, canonical(game, settings, hands), people)
