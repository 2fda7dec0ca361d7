"""Sentences a player reads, kept translatable: the engine's words without the web.

Every message, refusal and explanation line the engine writes is a :class:`Text`: a ``str``
holding its English words (so the engine, its tests and the match file read it as today) that
also carries what a catalogue needs to say it in another language: the message id, its named
values, and where a sentence counts something, the plural and the count; where one English word
means different things, a context (``P("hungarian pack", "Over")`` is felső, Ober, svršek).

Write a sentence with one of four makers, named as ``pybabel extract`` is told (``Makefile``,
``make translations``)::

    T("%(name)s calls dost right after the declaration", name=name)        # gettext
    N("%(num)s matchstick", "%(num)s matchsticks", n, num=n)               # ngettext
    P("troggu", "Queen")                                                   # pgettext
    NP("stovkahra", "%(num)s trick", "%(num)s tricks", n, num=n)            # npgettext

A value may itself be a ``Text`` (a card's name, a meld's name): it is said in the same
language. The edge (page, PDF, CLI) says a ``Text`` with :func:`say` in the reader's language;
nothing here knows Flask or Babel.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Protocol

LANGUAGES = ("en", "hu", "de_CH", "cs", "fr")
"""The languages a match can be recorded in (its match file's ``language``), by their codes."""


class Catalogue(Protocol):
    """What :func:`say` needs of a language: ``gettext.GNUTranslations`` and Babel's
    ``support.Translations`` both are one."""

    def gettext(self, message: str, /) -> str: ...
    def ngettext(self, singular: str, plural: str, n: int, /) -> str: ...
    def pgettext(self, context: str, message: str, /) -> str: ...
    def npgettext(self, context: str, singular: str, plural: str, n: int, /) -> str: ...


class Text(str):
    """A sentence: its English words, and how to say it in another language."""

    __slots__ = ("msgid", "plural", "n", "context", "values")

    msgid: str
    plural: str | None
    n: int | None
    context: str | None
    values: Mapping[str, object]

    def __new__(cls, msgid: str, values: Mapping[str, object], *, plural: str | None = None,
                count: int | None = None, context: str | None = None) -> Text:
        pattern = plural if plural is not None and count != 1 else msgid
        english = pattern % values if values else pattern
        text = super().__new__(cls, english)
        text.msgid = msgid
        text.plural = plural
        text.n = count
        text.context = context
        text.values = values
        return text

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild, (self.msgid, dict(self.values), self.plural, self.n,
                           self.context))


def _rebuild(msgid: str, values: Mapping[str, object], plural: str | None, count: int | None,
             context: str | None) -> Text:
    return Text(msgid, values, plural=plural, count=count, context=context)


def T(msgid: str, /, **values: object) -> Text:
    """A sentence (gettext)."""
    return Text(msgid, values)


def N(singular: str, plural: str, count: int, /, **values: object) -> Text:
    """A sentence that counts ``count`` things (ngettext): each language picks its form."""
    return Text(singular, values, plural=plural, count=count)


def P(context: str, msgid: str, /, **values: object) -> Text:
    """A word or sentence whose meaning depends on ``context`` (pgettext)."""
    return Text(msgid, values, context=context)


def NP(context: str, singular: str, plural: str, count: int, /, **values: object) -> Text:
    """A counting sentence in a context (npgettext)."""
    return Text(singular, values, plural=plural, count=count, context=context)


def english(number: int) -> str:
    return str(number)


def say(text: object, catalogue: Catalogue | None,
        number: Callable[[int], str] = english) -> str:
    """``text`` in the language of ``catalogue`` (``None``: English, as written), its values
    said the same way and its whole numbers written by ``number``. Anything not a ``Text``
    (a player's name, a number the page formats itself) is returned as its ``str``."""
    if not isinstance(text, Text):
        return str(text)
    if catalogue is None:
        return str.__str__(text)
    if text.plural is not None:
        count = text.n if text.n is not None else 0
        if text.context is not None:
            pattern = catalogue.npgettext(text.context, text.msgid, text.plural, count)
        else:
            pattern = catalogue.ngettext(text.msgid, text.plural, count)
    elif text.context is not None:
        pattern = catalogue.pgettext(text.context, text.msgid)
    else:
        pattern = catalogue.gettext(text.msgid)
    if not text.values:
        return pattern
    values = {key: _value(value, catalogue, number) for key, value in text.values.items()}
    return pattern % values


def _value(value: object, catalogue: Catalogue, number: Callable[[int], str]) -> object:
    if isinstance(value, Text):
        return say(value, catalogue, number)
    if isinstance(value, int) and not isinstance(value, bool):
        return number(value)
    return value


def listing(items: list[object] | tuple[object, ...]) -> object:
    """``items`` as one phrase: "Anna", "Anna and Béla", "Anna, Béla and Cilka" (each language
    its own words); an item may be a ``Text`` or a name."""
    if len(items) <= 1:
        return items[0] if items else ""
    if len(items) == 2:
        return T("%(first)s and %(last)s", first=items[0], last=items[1])
    return T("%(first)s, %(rest)s", first=items[0], rest=listing(items[1:]))


def to_data(text: Text) -> dict[str, object]:
    """``text`` as JSON-able data, to be stored and said later in any language
    (:func:`from_data` reads it back): its message id, its values (a value that is a ``Text``
    nested the same way; a value that is neither a number nor a string kept as its English),
    and its plural, count and context where it has them."""
    data: dict[str, object] = {"msgid": text.msgid}
    if text.values:
        data["values"] = {key: _value_data(value) for key, value in text.values.items()}
    if text.plural is not None:
        data["plural"] = text.plural
        data["n"] = text.n
    if text.context is not None:
        data["context"] = text.context
    return data


def _value_data(value: object) -> object:
    if isinstance(value, Text):
        return to_data(value)
    if isinstance(value, (bool, int, float)) or value is None:
        return value
    return str(value)


def from_data(data: Mapping[str, object]) -> Text:
    """The ``Text`` that :func:`to_data` gave ``data`` for (ValueError if it is not such)."""
    msgid, values = data.get("msgid"), data.get("values", {})
    plural, count, context = data.get("plural"), data.get("n"), data.get("context")
    if (not isinstance(msgid, str) or not isinstance(values, Mapping)
            or not isinstance(plural, (str, type(None)))
            or not isinstance(count, (int, type(None)))
            or not isinstance(context, (str, type(None)))):
        raise ValueError(f"not a stored sentence: {data!r}")
    read = {str(key): from_data(value) if isinstance(value, Mapping) else value
            for key, value in values.items()}
    try:
        return Text(msgid, read, plural=plural, count=count, context=context)
    except (KeyError, TypeError, ValueError) as error:
        raise ValueError(f"not a stored sentence: {data!r}") from error
