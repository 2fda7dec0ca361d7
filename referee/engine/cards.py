"""Cards and decks as small immutable values with a text form that round-trips.

Notation (shared/rules/README.md): rank, then a lower-case suit letter: ``Oa``, ``10h``, ``7b``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import FACTS, PACK, RuleViolation, shown
from .words import P, T, Text


@dataclass(frozen=True, order=True)
class Card:
    rank: str
    suit: str

    def __post_init__(self) -> None:
        # the hash of (rank, suit), computed once: cards are hashed in sets and dicts at every
        # check of a hand
        object.__setattr__(self, "_hash", hash((self.rank, self.suit)))

    def __hash__(self) -> int:
        return self._hash    # type: ignore[no-any-return,attr-defined]

    def __eq__(self, other: object) -> bool:
        # most cards compared are the very same objects (a deck's, ``Deck.parse``); a
        # dataclass keeps an ``__eq__`` of its own
        if self is other:
            return True
        if type(other) is not Card:
            return NotImplemented
        return self.rank == other.rank and self.suit == other.suit

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
    # every card by its text, for the fast path of ``parse``
    known: dict[str, Card] = field(default_factory=dict, hash=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        self.known.update((str(card), card) for card in self.cards)

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(Card(r, s) for s in self.suits for r in self.ranks)

    def parse(self, text: object) -> Card:
        """Read one card in the shared notation; anything else is a RuleViolation."""
        if type(text) is str and (known := self.known.get(text)) is not None:
            return known
        if not isinstance(text, str) or not 2 <= len(text.strip()) <= 3:
            raise RuleViolation("card.unknown", self.not_a_card(text), PACK)
        text = text.strip()
        card = Card(text[:-1], text[-1])
        if card.rank not in self.ranks or card.suit not in self.suits:
            raise RuleViolation("card.unknown", self.not_a_card(text), PACK)
        return card

    def not_a_card(self, text: object) -> Text:
        """The refusal of ``text``, which is no card of this pack (a sentence per pack)."""
        if self.name == "Hungarian":
            return T("%(text)s is not a card of the Hungarian pack", text=shown(text))
        if self.name == "French":
            return T("%(text)s is not a card of the French pack", text=shown(text))
        return T("%(text)s is not a card of the Swiss tarot pack", text=shown(text))

    def parse_many(self, texts: object, rule: str = PACK) -> list[Card]:
        """Cards in the shared notation, each at most once: naming one twice breaks ``rule``
        (default: the pack holds every card once)."""
        if isinstance(texts, str):
            texts = texts.replace(",", " ").split()
        if not isinstance(texts, (list, tuple)):
            raise RuleViolation("card.list", T("Expected a list of cards"), FACTS)
        cards = [self.parse(t) for t in texts]
        if len(set(cards)) != len(cards):
            raise RuleViolation("card.twice", T("The same card was picked twice"), rule)
        return cards

    def long_name(self, card: Card) -> str:
        """"Ace of hearts": one sentence, so that a language can put the suit first."""
        return T("%(rank)s of %(suit)s", rank=self.rank_names[card.rank],
                 suit=self.suit_names[card.suit])

    def short_name(self, card: Card) -> str:
        return f"{card.rank}{self.suit_symbols[card.suit]}"

    def ranks_of(self, suit: str) -> tuple[str, ...]:
        """The ranks of one suit, highest first (the same in every suit of these packs)."""
        return self.ranks




HUNGARIAN = Deck(
    name="Hungarian",
    ranks=("A", "K", "O", "U", "10", "9", "8", "7"),
    suits=("a", "l", "h", "b"),
    suit_names={"a": P("hungarian pack", "acorns"), "l": P("hungarian pack", "leaves"),
                "h": P("hungarian pack", "hearts"), "b": P("hungarian pack", "bells")},
    suit_symbols={"a": "♣", "l": "♠", "h": "♥", "b": "♦"},
    rank_names={
        "A": P("hungarian pack", "Ace"), "K": P("hungarian pack", "King"),
        "O": P("hungarian pack", "Over"), "U": P("hungarian pack", "Under"),
        "10": P("hungarian pack", "Ten"), "9": P("hungarian pack", "Nine"),
        "8": P("hungarian pack", "Eight"), "7": P("hungarian pack", "Seven"),
    },
    red_suits=frozenset({"h", "b"}),
)

FRENCH = Deck(
    name="French",
    ranks=("A", "K", "Q", "J", "10", "9", "8", "7"),
    suits=("c", "d", "h", "s"),
    suit_names={"c": P("french pack", "clubs"), "d": P("french pack", "diamonds"),
                "h": P("french pack", "hearts"), "s": P("french pack", "spades")},
    suit_symbols={"c": "♣", "d": "♦", "h": "♥", "s": "♠"},
    rank_names={
        "A": P("french pack", "Ace"), "K": P("french pack", "King"),
        "Q": P("french pack", "Queen"), "J": P("french pack", "Jack"),
        "10": P("french pack", "Ten"), "9": P("french pack", "Nine"),
        "8": P("french pack", "Eight"), "7": P("french pack", "Seven"),
    },
    red_suits=frozenset({"d", "h"}),
)

DECKS = {deck.name: deck for deck in (HUNGARIAN, FRENCH)}


# -- tarot packs ------------------------------------------------------------------------------

TRUMP = ""
"""The suit of a tarot trump or the fool: they print as their code alone (``T21``, ``F``)."""


def roman(number: int) -> str:
    """1 → I, 4 → IV, 21 → XXI (trumps and pips may be shown in Roman numerals)."""
    out = ""
    for value, letters in ((10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):
        while number >= value:
            out += letters
            number -= value
    return out


@dataclass(frozen=True)
class TarotDeck(Deck):
    """A tarot pack: suit cards whose ranks may differ by suit (``suit_ranks``), plus the
    suitless trumps and the fool, ``Card("T21", TRUMP)`` … ``Card("F", TRUMP)``, which print as
    ``T21`` and ``F`` and parse back. ``ranks`` lists every suit rank once, for names only."""

    suit_ranks: dict[str, tuple[str, ...]] = field(default_factory=dict, hash=False)
    trumps: tuple[str, ...] = ()                       # highest first
    trump_names: dict[str, str] = field(default_factory=dict, hash=False)

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(Card(t, TRUMP) for t in self.trumps) + tuple(
            Card(r, s) for s in self.suits for r in self.suit_ranks[s]
        )

    def ranks_of(self, suit: str) -> tuple[str, ...]:
        return self.trumps if suit == TRUMP else self.suit_ranks[suit]

    def is_trump(self, card: Card) -> bool:
        """A trump or the fool (which of them counts as a trump in play is the game's rule)."""
        return card.suit == TRUMP

    def parse(self, text: object) -> Card:
        if type(text) is str and (known := self.known.get(text)) is not None:
            return known
        if isinstance(text, str) and text.strip() in self.trumps:
            return Card(text.strip(), TRUMP)
        if isinstance(text, str) and 2 <= len(text.strip()) <= 3:
            code = text.strip()
            suit = code[-1]
            if suit in self.suits and code[:-1] in self.suit_ranks[suit]:
                return Card(code[:-1], suit)
        raise RuleViolation("card.unknown", self.not_a_card(text), PACK)

    def long_name(self, card: Card) -> str:
        if card.suit == TRUMP:
            return self.trump_names[card.rank]
        return super().long_name(card)

    def short_name(self, card: Card) -> str:
        if card.suit == TRUMP:
            return card.rank if card.rank == "F" else roman(int(card.rank[1:]))
        return f"{card.rank}{self.suit_symbols[card.suit]}"


_ROUND = ("K", "Q", "N", "J", "1", "2", "3", "4", "5", "6")      # pips rank upside down
_LONG = ("K", "Q", "N", "J", "10", "9", "8", "7", "6", "5")
_TRUMPS = ("F",) + tuple(f"T{n}" for n in range(21, 0, -1))

SWISS_TAROT = TarotDeck(
    name="Swiss tarot",
    ranks=("K", "Q", "N", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2", "1"),
    suits=("c", "d", "s", "b"),
    suit_names={"c": P("tarot pack", "cups"), "d": P("tarot pack", "coins"),
                "s": P("tarot pack", "swords"), "b": P("tarot pack", "batons")},
    suit_symbols={"c": "♥", "d": "♦", "s": "♠", "b": "♣"},      # the French equivalents
    rank_names={
        "K": P("tarot pack", "King"), "Q": P("tarot pack", "Queen"),
        "N": P("tarot pack", "Cavalier"), "J": P("tarot pack", "Jack"),
        # the pips are Roman numerals, the same in every language
        "10": "X", "9": "IX", "8": "VIII", "7": "VII", "6": "VI", "5": "V", "4": "IIII",
        "3": "III", "2": "II", "1": "I",
    },
    red_suits=frozenset({"c", "d"}),
    suit_ranks={"c": _ROUND, "d": _ROUND, "s": _LONG, "b": _LONG},
    trumps=_TRUMPS,
    trump_names={
        "F": P("tarot pack", "Fool (Bättler)"), "T21": P("tarot pack", "Trump XXI (Mund)"),
        "T1": P("tarot pack", "Trump I (Bagatt)"),
        **{f"T{n}": P("tarot pack", "Trump %(numeral)s", numeral=roman(n))
           for n in range(2, 21)},
    },
)
"""The 62-card Swiss 1JJ tarot of Troggu (troggu.md 1): the fool, trumps XXI to I, and four
suits of ten: cups and coins K Q N J I–VI (pips upside down), swords and batons K Q N J X–V."""
