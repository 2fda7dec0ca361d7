"""How each pack looks on a page: every suit by its own mark, every card by its face and its
full name (faces and marks come from referee.marks, shared with the PDF
scoresheet).

Pages draw a mark in the colour of the text around it (a CSS mask, see referee.css), so it
reads in dark mode and in forced-colours mode; its text alternative is the suit's name, and a
card's is its full name ("King of acorns", "Trump 21 (Mund)"). ``marked`` puts the pack's own
mark and the card's full name in place of the engine's stand-in symbols on a page."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup

from ..engine.cards import FRENCH, HUNGARIAN, SWISS_TAROT, TRUMP, Card, Deck, TarotDeck
from ..marks import Face, deck_of, face, mark_cards, mark_file
from .languages import say

SUITS_DIR = Path(__file__).resolve().parents[2] / "static" / "img" / "suits"
DECKS: dict[str, Deck] = {deck.name: deck for deck in (HUNGARIAN, FRENCH, SWISS_TAROT)}


@dataclass(frozen=True)
class Row:
    """One row of a card picker: a suit (or the tarot's trumps) and its cards, highest first."""

    name: str
    suit: str | None
    red: bool
    faces: tuple[Face, ...]


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


def card_html(deck: Deck, found: Face) -> Markup:
    """A card in running text: what is printed on it, the suit's mark, named in full."""
    mark = Markup('<span class="suit suit-{}" aria-hidden="true"></span>').format(found.suit) \
        if found.suit else Markup("")
    return Markup('<span class="card-name of-{}{}" role="img" aria-label="{}">{}{}</span>').format(
        found.suit or "trumps", " red" if found.red else "", say(found.name), found.rank, mark)


@pass_context
def marked(context: Context, text: object, deck: Deck | None = None) -> Markup:
    """``text`` (an engine message) with every card written as rank and symbol (``K♣``) shown
    with its pack's own mark and named in full, where the symbol stands in for another pack's
    suit; unchanged (escaped) otherwise. The pack is ``deck``, else the page's game's."""
    return mark_cards(say(text), deck if isinstance(deck, Deck) else deck_of(context), card_html)


def register(app: Any) -> None:
    """The picker's rows, faces and the ``marked`` filter for every template."""
    app.jinja_env.globals.update(card_rows=rows, card_face=face, suit_mark_file=mark_file,
                                 decks=DECKS)
    app.jinja_env.filters["marked"] = marked
