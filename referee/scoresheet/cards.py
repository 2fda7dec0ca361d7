"""Cards on the scoresheet: each by its pack's own mark, as on the pages.

The engine writes a card as rank and symbol (``K♣``), the French symbols standing in for a
Hungarian or tarot suit; the sheet's ``marked`` filter prints the rank followed by the suit's
mark: a character of the sheet's font of marks (referee.scoresheet.marks_font, drawn from the
SVG files under static/img/suits/), laid out and drawn as text, not as an image (issue 12)."""

from __future__ import annotations

from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup

from ..engine.cards import Deck
from ..marks import Face, deck_of, mark_cards
from .language import finalize


def card_html(deck: Deck, found: Face) -> Markup:
    """A card in running text: what is printed on it, then the suit's mark."""
    if found.suit is None:                          # a tarot trump or the fool: its numeral
        return Markup("{}").format(found.rank)
    # imported here: ``python -m referee.scoresheet.marks_font`` runs that module as a script
    from .marks_font import character

    return Markup("{}{}").format(found.rank, character(found.suit))


@pass_context
def marked(context: Context, text: object, deck: Deck | None = None) -> Markup:
    """``text`` (an engine message) with every card written as rank and stand-in symbol printed
    with its pack's own mark, said in the sheet's language; the pack is ``deck``, else the
    sheet's game's."""

    return mark_cards(finalize(text), deck if isinstance(deck, Deck) else deck_of(context),
                      card_html)
