"""Numbers as a player reads them, on every page, chart and scoresheet: a negative number with
the minus sign (−10, U+2212), never the hyphen (-10), so that one page never shows both.

Written as the reader's language writes them (issue 22): "1 234" in Hungarian, Czech and
French, "1'234" in Swiss German, "2,5" for 2.5 outside English and Swiss German; English as
ever ("1234", "2.5"). The language is the request's (Flask-Babel's locale, when there is one:
the engine and the command line, which have none, write English) or the one given. Stored
values never change: only their writing does.
"""

from __future__ import annotations

import re
import sys
from decimal import Decimal
from functools import cache

MINUS = "\u2212"
ENGLISH = "en"
_DIGITS = re.compile(r"\d+")
_DECIMAL = re.compile(r"-?\d+(\.\d+)?")


def current_locale() -> str:
    """The request's language (``de_CH``), English where there is no request or no Babel
    (the command line and the engine load no Flask: nor does this). Asked for every number
    and sentence of a page: the locale Flask-Babel keeps for the request (its namespace on
    ``g``) is read first, the full way only once a request."""
    if "flask_babel" not in sys.modules:
        return ENGLISH
    from flask import g

    try:
        kept = g._flask_babel.babel_locale      # Flask-Babel 4's locale of this context
    except (AttributeError, RuntimeError):       # not chosen yet, or no app context
        kept = None
    if kept is not None:
        return _identifier(kept)
    from flask import current_app, has_app_context

    if not has_app_context() or "babel" not in current_app.extensions:
        return ENGLISH
    import flask_babel

    try:
        locale = flask_babel.get_locale()
    except RuntimeError:               # an app's context without a request: nothing to ask
        return ENGLISH
    return _identifier(locale) if locale is not None else ENGLISH


@cache
def _identifier(locale: object) -> str:
    return str(locale)


def number(value: float | str, locale: str | None = None) -> str:
    """``value`` as written (``30``, ``−110``, ``2.5``; ``1 234`` in Hungarian), its minus the
    minus sign."""
    if type(value) is int and -1000 < value < 1000:      # most of a page's: alike in all
        return str(value).replace("-", MINUS)
    locale = locale or current_locale()
    if locale == ENGLISH or (isinstance(value, str) and not _DECIMAL.fullmatch(value)):
        return str(value).replace("-", MINUS)
    if isinstance(value, str):                    # "6.2", rounded by the page: its digits kept
        written = value.replace(".", _decimal_symbol(locale))
    elif isinstance(value, int):
        written = str(value)
    else:
        from babel.numbers import format_decimal

        written = format_decimal(value, locale=locale, group_separator=False)
    return _grouped(written, locale).replace("-", MINUS)


def signed(value: float, locale: str | None = None) -> str:
    """``+30``, ``−110``, ``0``: a payment, a balance or a change, with its sign."""
    return f"+{number(value, locale)}" if value > 0 else number(value, locale)


def format_chf(rappen: int, locale: str | None = None) -> str:
    """An amount in Rappen as Swiss francs the way ``locale`` writes them: "CHF 1'234.50"
    (de_CH), "1 234,50 CHF" (fr), "CHF 12.50" (en, as Switzerland writes English).

    Babel 2.19 drops both apostrophes of a Swiss number from a million up (it reads the text
    between them as a quoted part of the pattern): the amount is formatted without grouping
    and the group symbol put in here."""
    from babel.numbers import format_currency

    locale = locale or current_locale()
    written = format_currency(Decimal(rappen) / 100, "CHF",
                              locale="en_CH" if locale == ENGLISH else locale,
                              group_separator=False)
    return _grouped(written, "en_CH" if locale == ENGLISH else locale).replace("-", MINUS)


def _grouped(written: str, locale: str) -> str:
    """``written`` with its first run of digits (the whole part) in groups of three."""
    match = _DIGITS.search(written)
    if match is None or len(match.group()) <= 3:
        return written
    digits = match.group()
    head = len(digits) % 3 or 3
    groups = [digits[:head]] + [digits[i:i + 3] for i in range(head, len(digits), 3)]
    return written[:match.start()] + _group_symbol(locale).join(groups) + written[match.end():]


@cache
def _group_symbol(locale: str) -> str:
    from babel.numbers import get_group_symbol

    return get_group_symbol(locale)


@cache
def _decimal_symbol(locale: str) -> str:
    from babel.numbers import get_decimal_symbol

    return get_decimal_symbol(locale)
