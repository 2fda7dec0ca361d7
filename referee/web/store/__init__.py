"""The database: matches and their hands, the history of every change, and circles (with
the history of their changes)."""

from .circlechanges import Change, Clash, NotInCircle
from .circlestore import (
    IN_ANOTHER,
    IN_THIS,
    NOT_HERE,
    TAKEN,
    Circle,
    CircleMatch,
    Circles,
    CircleVersion,
    Person,
    Player,
    Size,
    Stamp,
)
from .circletables import (
    CHANGED,
    CircleRefused,
    circle_changes,
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
    "Change", "CircleMatch", "CircleRefused", "CircleVersion", "Circles", "Clash", "Deleted",
    "Event", "NotInCircle", "Person", "Player", "Size", "Stamp", "StaleMatch", "Store",
    "StoredMatch", "actions", "circle_changes", "circle_matches", "circle_players",
    "circle_seats", "circles", "hand_base", "hands", "insert_match", "is_new_base", "matches",
    "metadata", "touch",
]
