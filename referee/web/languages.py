"""The phone's language (issue 22): which one a request is answered in, and the pages said in it.

A request's language is, in order: ``?lang=xx`` on a link (the language menu at the foot of
every page; the answer keeps it in the cookie ``lang`` for a year), the cookie, the browser's
``Accept-Language`` (Swiss German, Austrian and German German read Swiss Standard German,
Slovak reads Czech), English. Two phones at one table may read two languages: nothing of it is
stored with a match.

Templates mark their words with ``_()`` and ``{% trans %}`` (Flask-Babel's catalogues under
``referee/translations``, ``make translations``); a value that is an engine sentence
(``referee.engine.words.Text``) is said in the request's language wherever a template prints
it (the environment's ``finalize``), its numbers as the language writes them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import flask_babel
from flask import Flask, Response, current_app, g, request
from flask_babel import lazy_gettext
from flask_wtf import FlaskForm
from wtforms import SelectField

from .. import numbers
from ..engine.words import Text
from ..engine.words import say as say_text

TRANSLATIONS = Path(__file__).resolve().parents[1] / "translations"
# each language named in itself, in the order the menu lists them
LANGUAGES = {"en": "English", "hu": "Magyar", "de_CH": "Deutsch (Schweiz)", "cs": "Čeština",
             "fr": "Français"}
DEFAULT = "en"
COOKIE = "lang"
COOKIE_AGE = 365 * 24 * 60 * 60                # seconds: a year
# a browser's language (its primary subtag, lower case) read as one of LANGUAGES
BROWSER = {"en": "en", "hu": "hu", "cs": "cs", "sk": "cs", "fr": "fr", "de": "de_CH",
           "gsw": "de_CH"}


def init(app: Flask) -> None:
    """Flask-Babel on ``app``, its templates' ``{% trans %}`` with trimmed whitespace, every
    printed engine sentence said in the request's language (set before any template is
    compiled: the compiled code calls ``finalize`` only if it was there), the language menu's
    values, and the answer's cookie and ``Vary``."""
    flask_babel.Babel(app, locale_selector=select,
                      default_translation_directories=str(TRANSLATIONS))
    app.jinja_env.policies["ext.i18n.trimmed"] = True
    app.jinja_env.finalize = finalize
    app.jinja_env.filters["say"] = say
    app.jinja_env.filters["english"] = english
    app.jinja_env.globals.update(say=say, languages=menu, html_lang=html_lang)
    app.after_request(_remembered)


def select() -> str:
    """The language of this request (see the module's notes)."""
    asked = request.args.get("lang")
    if asked in LANGUAGES:
        return asked
    kept = request.cookies.get(COOKIE)
    if kept in LANGUAGES:
        return kept
    return from_browser(request.accept_languages)


def from_browser(accepted: Any) -> str:
    """The first of the browser's languages (best first, as Werkzeug sorts them) that is one
    of ours; English if none is."""
    for value, quality in accepted:
        if quality <= 0:
            continue
        code = BROWSER.get(value.replace("_", "-").split("-")[0].lower())
        if code is not None:
            return code
    return DEFAULT


current = numbers.current_locale           # the request's language code (``de_CH``)


def html_lang() -> str:
    """The request's language as ``<html lang>`` writes it (BCP 47: ``de-CH``)."""
    return current().replace("_", "-")


def say(value: object) -> object:
    """``value`` in the request's language if it is an engine sentence; else unchanged (a
    name, a number, markup)."""
    if not isinstance(value, Text):
        return value
    language = current()
    if language == DEFAULT:                       # English: the sentence as the engine wrote it
        return str.__str__(value)
    return say_text(value, _catalogue(language), number=numbers.number)


def _catalogue(language: str) -> Any:
    """The request's catalogue, asked of Flask-Babel once a request and language (a page says
    hundreds of sentences; a forced locale, e.g. a match's CSV, is another language)."""
    kept = g.get("_referee_catalogue")
    if kept is not None and kept[0] == language:
        return kept[1]
    catalogue = flask_babel.get_translations()
    g._referee_catalogue = (language, catalogue)
    return catalogue


finalize = say


def english(value: object) -> str:
    """``value`` as the code writes it, never translated: a suit's name in a CSS class or a
    file name ("suit-acorns"), which must not change with the reader's language."""
    return str.__str__(value) if isinstance(value, str) else str(value)


def menu() -> list[dict[str, Any]]:
    """The language menu: each language named in itself, its link (this page with
    ``?lang=``; a page answering a form links to the home page) and whether it is the one
    shown."""
    shown = current()
    if request.method == "GET" and request.endpoint not in (None, "static"):
        path, args = request.path, request.args.to_dict(flat=False)
    else:
        path, args = current_app.url_for("matches.home"), {}
    links = []
    for code, name in LANGUAGES.items():
        args["lang"] = [code]
        query = urlencode(args, doseq=True)
        links.append({"code": code, "name": name, "href": f"{path}?{query}",
                      "lang": code.replace("_", "-"), "current": code == shown})
    return links


def _remembered(response: Response) -> Response:
    """A language asked for by a link kept in the cookie; every answer varies by the cookie
    and the browser's languages (the page's language depends on both)."""
    asked = request.args.get("lang")
    if asked in LANGUAGES and request.cookies.get(COOKIE) != asked:
        response.set_cookie(COOKIE, asked, max_age=COOKIE_AGE, samesite="Lax", httponly=True,
                            secure=bool(current_app.config.get("SESSION_COOKIE_SECURE")))
    response.vary.add("Cookie")
    response.vary.add("Accept-Language")
    return response


class LanguageForm(FlaskForm):
    """The language a match is recorded in (its scoresheet, its CSV, its chart)."""

    language = SelectField(lazy_gettext("Record this match in"),
                           choices=list(LANGUAGES.items()))
