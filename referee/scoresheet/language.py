"""The language a sheet is being written in (``in_language``, read by ``render_html``, the
sheet's filters and the games' parts of it): its code and catalogue; the templates' words,
the engine's sentences and the numbers said in it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from markupsafe import Markup

from .. import numbers
from ..engine.words import Catalogue, T, Text, say

# The language a sheet is being written in (``render_html``): its code and catalogue (None:
# English, as the templates and the engine write it).
current: ContextVar[tuple[str, Catalogue | None]] = ContextVar(
    "language", default=("en", None))


class _English:
    """The catalogue of a sheet in English: every message as written."""

    def gettext(self, message: str, /) -> str:
        return message

    def ngettext(self, singular: str, plural: str, n: int, /) -> str:
        return singular if n == 1 else plural

    def pgettext(self, context: str, message: str, /) -> str:
        return message

    def npgettext(self, context: str, singular: str, plural: str, n: int, /) -> str:
        return singular if n == 1 else plural


def catalogue() -> Catalogue:
    return current.get()[1] or _English()


def language() -> str:
    """The code of the language the sheet is being written in (``de_CH``; ``en``)."""
    return current.get()[0]


def number(value: float | str) -> str:
    return numbers.number(value, current.get()[0])


def signed(value: float) -> str:
    return numbers.signed(value, current.get()[0])


def finalize(value: object) -> object:
    """An engine sentence in the sheet's language; anything else as it is."""
    if not isinstance(value, Text):
        return value
    code, messages = current.get()
    if messages is None:
        return str.__str__(value)
    return say(value, messages, number=number)


def said_text(value: Text) -> str:
    """An engine sentence in the sheet's language (the chart's words)."""
    return str(finalize(value))


@contextmanager
def in_language(language: str, catalogue: Catalogue | None) -> Iterator[None]:
    """Sheets made meanwhile (in this thread) written in ``language`` (its code: ``de_CH``),
    ``catalogue`` its messages (None: English, as the templates and the engine write it)."""
    token = current.set((language, catalogue))
    try:
        yield
    finally:
        current.reset(token)


def page_numbers() -> Markup:
    """Every page's number ("page 2 of 3") in the sheet's language, as the CSS ``content``
    of the page's margin: the sentence's two numbers stand for the CSS counters."""
    said = str(finalize(T("page %(page)s of %(pages)s", page="\x01", pages="\x02")))
    quoted = said.replace("\\", "\\\\").replace('"', '\\"')
    return Markup('"' + quoted.replace("\x01", '" counter(page) "')
                  .replace("\x02", '" counter(pages) "') + '"')
