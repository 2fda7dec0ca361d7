"""How each pack looks in print and on a page, without Flask: every card by its face and its
full name, and the engine's text with each card shown by its pack's own mark.

A suit's mark is a small SVG under static/img/suits/, named after the suit (acorns.svg,
cups.svg): the Hungarian pack shows acorns, leaves, hearts and bells, the French pack its own
four, the Swiss tarot cups, coins, swords and batons, and the tarot's trumps the numerals
printed on them.

The engine's messages write a card as rank and symbol (``K♣``); a symbol stands in for the suit
of whichever pack the game uses, so ``mark_cards`` puts the pack's own mark in its place. How a
card is drawn is the caller's: the web pages draw the mark as a CSS mask (referee.web.cards),
the PDF scoresheet as a character of its font of marks (referee.scoresheet.cards)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup, escape

from .engine.cards import FRENCH, TRUMP, Card, Deck, TarotDeck, roman
from .engine.errors import RuleViolation
from .engine.words import P, T, Text

# Ranks shown with German letters (Stovkahra's option, rules 1): the name follows the letter.
LETTER_NAMES: dict[str, str] = {"O": P("hungarian pack", "Ober"), "U": P("hungarian pack", "Unter")}
# the two named trumps in digits, for a screen reader (the others: "Trump %(numeral)s")
NAMED_TRUMPS = {21: P("tarot pack", "Trump 21 (Mund)"), 1: P("tarot pack", "Trump 1 (Bagatt)")}
# Ranks the notation writes with another letter than a card shows: the tarot's cavalier is N
# in a match file (troggu.md 1), C ("Cavalier") on a page and a scoresheet.
SHOWN_RANKS = {"N": "C"}


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
    name: object              # a sentence (``Text``): said in the reader's language
    red: bool
    title: str


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
        # for a screen reader the number in digits ("Trump 21"), said in the page's language
        name: object = NAMED_TRUMPS.get(number, title)
        if isinstance(title, Text) and "numeral" in title.values:
            name = Text(title.msgid, {**title.values, "numeral": str(number)},
                        context=title.context)
        return Face(str(card), roman(number), None, name, False, title)
    suit = deck.suit_names[card.suit]
    shown = letters.get(card.rank, SHOWN_RANKS.get(card.rank, card.rank))
    rank_name: str
    if shown in LETTER_NAMES and shown != card.rank:
        rank_name = LETTER_NAMES[shown]
    elif isinstance(deck, TarotDeck) and card.rank.isdigit():
        rank_name = card.rank                      # pips: "4 of coins", not "IIII of coins"
    else:
        rank_name = deck.rank_names[card.rank]
    name = T("%(rank)s of %(suit)s", rank=rank_name, suit=suit)
    return Face(str(card), shown, suit, name, card.suit in deck.red_suits, deck.long_name(card))


def stand_ins(deck: Deck) -> bool:
    """Whether the engine's text symbols only stand in for this pack's suits (the French
    symbols for Hungarian or tarot suits); the French pack's symbols are its own marks."""
    return deck.name != FRENCH.name


_CARD_IN_TEXT = re.compile(r"(?<![\w♠♥♦♣])(10|[1-9AKQJOUN])([♠♥♦♣])")


def deck_of(context: Any) -> Deck | None:
    """The pack of a template's game (``game`` or ``editor``, a mapping or an object)."""
    for key in ("game", "editor"):
        value: Any = context.get(key)
        deck = value.get("deck") if isinstance(value, dict) else getattr(value, "deck", None)
        if isinstance(deck, Deck):
            return deck
    return None


def mark_cards(text: object, deck: Deck | None, card_html: Callable[[Deck, Face], Markup]
               ) -> Markup:
    """``text`` (an engine message) with every card written as rank and symbol (``K♣``) drawn
    by ``card_html``, where the symbol stands in for another pack's suit; unchanged (escaped)
    otherwise."""
    escaped = escape(text)
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
