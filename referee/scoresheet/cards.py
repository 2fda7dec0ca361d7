"""Cards on the scoresheet: each by its pack's own mark, as on the pages.

The engine writes a card as rank and symbol (``K♣``), the French symbols standing in for a
Hungarian or tarot suit; the sheet's ``marked`` filter prints the rank followed by the suit's
mark (its SVG under static/img/suits/, which WeasyPrint draws as an image). Where the mark
cannot be drawn, WeasyPrint prints its alternative text: the suit's name in words."""

from __future__ import annotations

from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup

from ..engine.cards import Deck
from ..marks import Face, deck_of, mark_cards, mark_file


def card_html(deck: Deck, found: Face) -> Markup:
    """A card in running text: what is printed on it, then the suit's mark."""
    if found.suit is None:                          # a tarot trump or the fool: its numeral
        return Markup("{}").format(found.rank)
    return Markup('{}<img class="suit" src="{}" alt=" {}">').format(
        found.rank, mark_file(found.suit), found.suit)


@pass_context
def marked(context: Context, text: object, deck: Deck | None = None) -> Markup:
    """``text`` (an engine message) with every card written as rank and stand-in symbol printed
    with its pack's own mark; the pack is ``deck``, else the sheet's game's."""
    return mark_cards(text, deck if isinstance(deck, Deck) else deck_of(context), card_html)
