"""How each pack looks on a page: every suit by its own mark, every card by its face and its
full name.

A suit's mark is a small SVG under static/img/suits/, named after the suit (acorns.svg,
cups.svg): the Hungarian pack shows acorns, leaves, hearts and bells, the French pack its own
four, the Swiss tarot cups, coins, swords and batons, and the tarot's trumps the numerals
printed on them. Pages draw a mark in the colour of the text around it (a CSS mask, see
referee.css), so it reads in dark mode and in forced-colours mode; its text alternative is the
suit's name, and a card's is its full name ("King of acorns", "Trump 21 (Mund)").

The engine's messages write a card as rank and symbol (``K♣``); a symbol stands in for the suit
of whichever pack the game uses, so ``marked`` puts the pack's own mark and the card's full
name in its place on a page."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup, escape

from ..engine.cards import FRENCH, HUNGARIAN, SWISS_TAROT, TRUMP, Card, Deck, TarotDeck, roman
from ..engine.errors import RuleViolation

SUITS_DIR = Path(__file__).resolve().parents[2] / "static" / "img" / "suits"
DECKS: dict[str, Deck] = {deck.name: deck for deck in (HUNGARIAN, FRENCH, SWISS_TAROT)}

# Ranks shown with German letters (Stovkahra's option, rules 1): the name follows the letter.
LETTER_NAMES = {"O": "Ober", "U": "Unter"}


def mark_file(suit_name: str) -> str:
    """The static path of a suit's mark: ``img/suits/acorns.svg``."""
    return f"img/suits/{suit_name}.svg"


@dataclass(frozen=True)
class Face:
    """A card as a page shows it: its code (the form's value), what is printed on it, its suit
    (None for a tarot trump or the fool), its name in full for assistive technology (numbers
    in digits: "Trump 21 (Mund)", "4 of coins") and as the engine writes it (its title)."""

    code: str
    rank: str
    suit: str | None
    name: str
    red: bool
    title: str


@dataclass(frozen=True)
class Row:
    """One row of a card picker: a suit (or the tarot's trumps) and its cards, highest first."""

    name: str
    suit: str | None
    red: bool
    faces: tuple[Face, ...]


def face(deck: Deck, card: Card | str, letters: dict[str, str] | None = None) -> Face:
    """The face of ``card`` (a Card or its code) in ``deck``; ``letters`` shows some ranks by
    other letters (Stovkahra's German letters: Q as O, J as U)."""
    if isinstance(card, str):
        card = deck.parse(card)
    letters = letters or {}
    if isinstance(deck, TarotDeck) and card.suit == TRUMP:
        title = deck.long_name(card)
        if card.rank == "F":
            return Face(str(card), "Fool", None, title, False, title)
        number = int(card.rank[1:])
        return Face(str(card), roman(number), None, title.replace(roman(number), str(number), 1),
                    False, title)
    suit = deck.suit_names[card.suit]
    shown = letters.get(card.rank, card.rank)
    if shown in LETTER_NAMES and shown != card.rank:
        rank_name = LETTER_NAMES[shown]
    elif isinstance(deck, TarotDeck) and card.rank.isdigit():
        rank_name = card.rank                      # pips: "4 of coins", not "IIII of coins"
    else:
        rank_name = deck.rank_names[card.rank]
    name = f"{rank_name} of {suit}"
    return Face(str(card), shown, suit, name, card.suit in deck.red_suits, deck.long_name(card))


def rows(deck: Deck, letters: dict[str, str] | None = None) -> list[Row]:
    """The whole pack for a picker, one row per suit; a tarot's trumps first, I to XXI and the
    fool (as the cards lie when sorted on the table)."""
    out = []
    if isinstance(deck, TarotDeck):
        trumps = tuple(face(deck, Card(t, TRUMP)) for t in reversed(deck.trumps))
        out.append(Row("trumps", None, False, trumps))
    for suit in deck.suits:
        out.append(Row(deck.suit_names[suit], deck.suit_names[suit], suit in deck.red_suits,
                       tuple(face(deck, Card(r, suit), letters) for r in deck.ranks_of(suit))))
    return out


def stand_ins(deck: Deck) -> bool:
    """Whether the engine's text symbols only stand in for this pack's suits (the French
    symbols for Hungarian or tarot suits); the French pack's symbols are its own marks."""
    return deck.name != FRENCH.name


_CARD_IN_TEXT = re.compile(r"(?<![\w♠♥♦♣])(10|[1-9AKQJOUN])([♠♥♦♣])")


def _deck_of(context: Context) -> Deck | None:
    for key in ("game", "editor"):
        value: Any = context.get(key)
        deck = value.get("deck") if isinstance(value, dict) else getattr(value, "deck", None)
        if isinstance(deck, Deck):
            return deck
    return None


def card_html(deck: Deck, found: Face) -> Markup:
    """A card in running text: what is printed on it, the suit's mark, named in full."""
    mark = Markup('<span class="suit suit-{}" aria-hidden="true"></span>').format(found.suit) \
        if found.suit else Markup("")
    return Markup('<span class="card-name of-{}{}" role="img" aria-label="{}">{}{}</span>').format(
        found.suit or "trumps", " red" if found.red else "", found.name, found.rank, mark)


@pass_context
def marked(context: Context, text: object, deck: Deck | None = None) -> Markup:
    """``text`` (an engine message) with every card written as rank and symbol (``K♣``) shown
    with its pack's own mark and named in full, where the symbol stands in for another pack's
    suit; unchanged (escaped) otherwise. The pack is ``deck``, else the page's game's."""
    escaped = escape(text)
    deck = deck if isinstance(deck, Deck) else _deck_of(context)
    if deck is None or not stand_ins(deck):
        return escaped
    by_symbol = {symbol: suit for suit, symbol in deck.suit_symbols.items()}

    def replace(m: re.Match[str]) -> str:
        suit = by_symbol.get(m.group(2))
        code = f"{m.group(1)}{suit}"
        if suit is None:
            return m.group(0)
        try:
            return card_html(deck, face(deck, code))
        except RuleViolation:                       # not a card of this pack: as written
            return m.group(0)

    return Markup(_CARD_IN_TEXT.sub(replace, str(escaped)))


def register(app: Any) -> None:
    """The picker's rows, faces and the ``marked`` filter for every template."""
    app.jinja_env.globals.update(card_rows=rows, card_face=face, suit_mark_file=mark_file,
                                 decks=DECKS)
    app.jinja_env.filters["marked"] = marked
