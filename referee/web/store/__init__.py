"""The database: matches and their hands, the history of every change, and circles."""

from .circlestore import (
    CHANGED,
    IN_ANOTHER,
    IN_THIS,
    NOT_HERE,
    TAKEN,
    Circle,
    CircleMatch,
    CircleRefused,
    Circles,
    CircleVersion,
    Person,
    Player,
    Size,
    Stamp,
    circle_matches,
    circle_players,
    circle_seats,
    circles,
    touch,
)
from .events import Deleted, Event
from .kept import hand_base, is_new_base
from .matchstore import StaleMatch, Store, StoredMatch, insert_match
from .schema import TOKEN_BYTES, actions, hands, matches, metadata

__all__ = [
    "CHANGED", "IN_ANOTHER", "IN_THIS", "NOT_HERE", "TAKEN", "TOKEN_BYTES", "Circle",
    "CircleMatch", "CircleRefused", "CircleVersion", "Circles", "Deleted", "Event", "Person",
    "Player", "Size", "Stamp", "StaleMatch", "Store", "StoredMatch", "actions", "circle_matches",
    "circle_players", "circle_seats", "circles", "hand_base", "hands", "insert_match",
    "is_new_base", "matches", "metadata", "touch",
]
