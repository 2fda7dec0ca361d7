"""Stovkahra in words, for its scoresheet and its pages: the combinations."""

from __future__ import annotations

from functools import partial
from typing import Any

from ..engine.games.base import MatchResult
from ..engine.games.stovkahra.values import combination_name
from ..engine.words import P, Text

# with German letters O and U (rules 1): each combination a whole phrase
GERMAN_NAMES = {
    ("Q", 3): P("stovkahra", "three obers"), ("Q", 4): P("stovkahra", "four obers"),
    ("J", 3): P("stovkahra", "three unters"), ("J", 4): P("stovkahra", "four unters"),
}


def combination_words(german: object, rank: str, count: int) -> Text:
    """A combination in words: "three aces"; "three obers" when the table uses German
    letters."""
    if german and (rank, count) in GERMAN_NAMES:
        return GERMAN_NAMES[(rank, count)]
    return combination_name(rank, count)


def context(settings: dict[str, Any], result: MatchResult) -> dict[str, Any]:
    """What templates/pdf/stovkahra.html needs beyond the match and its result."""
    return {"combination_name": partial(combination_words, settings.get("german_letters"))}
