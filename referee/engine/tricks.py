"""What the two-player games (Tartli, Marjolet) share when a hand is recorded card by card:
the cards of every trick from trick 1 on, and the hands a closing phase is played from."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, Protocol, TypeVar

from .cards import Card
from .errors import RuleViolation
from .words import T

Plays = tuple[Card, Card]            # (the card led, the card played second)
Facts = TypeVar("Facts")


class Trick(Protocol):
    @property
    def cards(self) -> Plays | None: ...


def cards_of(tricks: Sequence[Trick], number: int) -> Plays:
    """The recorded cards of trick ``number`` (1-based), which must be there."""
    cards = tricks[number - 1].cards
    assert cards is not None
    return cards


def recorded_tricks(cards: Sequence[Plays | None], rule: str) -> int:
    """How many tricks have their cards recorded: from trick 1 on, without a gap."""
    recorded = [number for number, played in enumerate(cards, 1) if played is not None]
    if recorded != list(range(1, len(recorded) + 1)):
        gap = next(n for n in range(1, len(recorded) + 2) if n not in recorded)
        raise RuleViolation(
            "record.gap",
            T("The cards of trick %(trick)s are missing but a later trick's are recorded: "
              "record the cards of every trick from trick 1 on", trick=gap),
            rule,
        )
    return len(recorded)


def follower_hands(
    tricks: Sequence[tuple[int, int, Plays]],
) -> Iterator[tuple[int, int, list[Card], Plays]]:
    """For the tricks (number, leader, plays) of a closing phase in which each player plays
    out what he holds: before each trick, the cards the second player still holds, rebuilt
    from the cards he plays from then on. Yields (number, leader, held, plays)."""
    hands: list[list[Card]] = [[], []]
    for _, leader, (led, second) in tricks:
        hands[leader].append(led)
        hands[1 - leader].append(second)
    for number, leader, plays in tricks:
        held = hands[1 - leader]
        yield number, leader, held, plays
        hands[leader].remove(plays[0])
        held.remove(plays[1])


def read_trusted(reader: Callable[[dict[str, Any]], Facts], raw: object) -> Facts | None:
    """The facts of a hand the app checked and wrote itself (``hand_to_json``), read by
    ``reader`` without checking them again (the game's ``parse_hand`` gives the same facts, at
    several times the cost); None where it cannot (not in the canonical form): then
    ``parse_hand`` reads it."""
    try:
        return reader(raw)     # type: ignore[arg-type]
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        return None
