"""Cards and decks as small immutable values with a text form that round-trips.

Notation (shared/rules/README.md): rank, then a lower-case suit letter: ``Oa``, ``10h``, ``7b``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import RuleViolation, shown


@dataclass(frozen=True, order=True)
class Card:
    rank: str
    suit: str

    def __str__(self) -> str:
        return f"{self.rank}{self.suit}"


@dataclass(frozen=True)
class Deck:
    """A named pack: its ranks (in sequence order, highest first), suits and their names."""

    name: str
    ranks: tuple[str, ...]
    suits: tuple[str, ...]
    suit_names: dict[str, str] = field(hash=False)
    suit_symbols: dict[str, str] = field(hash=False)
    rank_names: dict[str, str] = field(hash=False)
    red_suits: frozenset[str] = frozenset()

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(Card(r, s) for s in self.suits for r in self.ranks)

    def parse(self, text: object) -> Card:
        """Read one card in the shared notation; anything else is a RuleViolation."""
        if not isinstance(text, str) or not 2 <= len(text.strip()) <= 3:
            raise RuleViolation(
                "card.unknown", f"{shown(text)} is not a card of the {self.name} pack"
            )
        text = text.strip()
        card = Card(text[:-1], text[-1])
        if card.rank not in self.ranks or card.suit not in self.suits:
            raise RuleViolation(
                "card.unknown", f"{shown(text)} is not a card of the {self.name} pack"
            )
        return card

    def parse_many(self, texts: object) -> list[Card]:
        if isinstance(texts, str):
            texts = texts.replace(",", " ").split()
        if not isinstance(texts, (list, tuple)):
            raise RuleViolation("card.list", "Expected a list of cards")
        cards = [self.parse(t) for t in texts]
        if len(set(cards)) != len(cards):
            raise RuleViolation("card.twice", "The same card was picked twice")
        return cards

    def long_name(self, card: Card) -> str:
        return f"{self.rank_names[card.rank]} of {self.suit_names[card.suit]}"

    def short_name(self, card: Card) -> str:
        return f"{card.rank}{self.suit_symbols[card.suit]}"




HUNGARIAN = Deck(
    name="Hungarian",
    ranks=("A", "K", "O", "U", "10", "9", "8", "7"),
    suits=("a", "l", "h", "b"),
    suit_names={"a": "acorns", "l": "leaves", "h": "hearts", "b": "bells"},
    suit_symbols={"a": "♣", "l": "♠", "h": "♥", "b": "♦"},
    rank_names={
        "A": "Ace", "K": "King", "O": "Over", "U": "Under",
        "10": "Ten", "9": "Nine", "8": "Eight", "7": "Seven",
    },
    red_suits=frozenset({"h", "b"}),
)

FRENCH = Deck(
    name="French",
    ranks=("A", "K", "Q", "J", "10", "9", "8", "7"),
    suits=("c", "d", "h", "s"),
    suit_names={"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"},
    suit_symbols={"c": "♣", "d": "♦", "h": "♥", "s": "♠"},
    rank_names={
        "A": "Ace", "K": "King", "Q": "Queen", "J": "Jack",
        "10": "Ten", "9": "Nine", "8": "Eight", "7": "Seven",
    },
    red_suits=frozenset({"d", "h"}),
)

DECKS = {deck.name: deck for deck in (HUNGARIAN, FRENCH)}
