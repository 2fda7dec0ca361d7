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
    Person,
    Player,
    circle_matches,
    circle_players,
    circle_seats,
    circles,
)
from .matchstore import (
    TOKEN_BYTES,
    Deleted,
    Event,
    StaleMatch,
    Store,
    StoredMatch,
    actions,
    hand_base,
    hands,
    insert_match,
    is_new_base,
    matches,
    metadata,
)

__all__ = [
    "CHANGED", "IN_ANOTHER", "IN_THIS", "NOT_HERE", "TAKEN", "TOKEN_BYTES", "Circle",
    "CircleMatch", "CircleRefused", "Circles", "Deleted", "Event", "Person", "Player",
    "StaleMatch", "Store", "StoredMatch", "actions", "circle_matches", "circle_players",
    "circle_seats", "circles", "hand_base", "hands", "insert_match", "is_new_base", "matches",
    "metadata",
]
