"""Stovkahra in words, for its scoresheet and its pages: the combinations."""

from __future__ import annotations

from functools import partial
from typing import Any

from ..engine.games.base import MatchResult
from ..engine.games.stovkahra.values import combination_name

GERMAN_PLURAL = {"Q": "obers", "J": "unters"}     # with German letters O and U (rules 1)


def combination_words(german: object, rank: str, count: int) -> str:
    """A combination in words: "three aces"; "three obers" when the table uses German
    letters."""
    name = combination_name(rank, count)
    if german and rank in GERMAN_PLURAL:
        return f"{name.split()[0]} {GERMAN_PLURAL[rank]}"
    return name


def context(settings: dict[str, Any], result: MatchResult) -> dict[str, Any]:
    """What templates/pdf/stovkahra.html needs beyond the match and its result."""
    return {"combination_name": partial(combination_words, settings.get("german_letters"))}
