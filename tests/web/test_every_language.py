"""A table in each language (issue 22): for each language and each game, the pages a table
walks through (the match page, an earlier hand's editor, a hand's explanation, the history of
changes, a refusal, the view link, the home page, the scoresheet's text) carry the page's
``lang`` and none of the app's own English words outside players' names.

The English words looked for are the catalogue's own: every one-word entry of the code whose
translation in that language is another word ("Undo", "Dealer", "Trick", …). A word a language
writes as English does ("Total" in French, "Solo" in German) is not looked for."""

from __future__ import annotations

import html
import io
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from flask import Flask
from flask.testing import FlaskClient
from pypdf import PdfReader

from referee.catalogues import TRANSLATIONS
from referee.engine import matchfile
from referee.web.games import WEB_GAMES

DATA = Path(__file__).resolve().parents[1] / "data"
FILES = {"tartli": "tartli-short.json", "troggu": "troggu-evening.json",
         "stovkahra": "stovkahra-series.json", "marjolet": "marjolet-game.json"}
LANGUAGES = ["hu", "de_CH", "cs", "fr"]
WORD = re.compile(r"^[A-Z][a-z]{2,}$")
TAG = re.compile(r"<(script|style)\b.*?</\1>|<[^>]+>", re.S)


def english_words(language: str) -> set[str]:
    """The one-word entries of the code that ``language`` writes otherwise."""
    with open(TRANSLATIONS / language / "LC_MESSAGES" / "messages.po", "rb") as file:
        catalogue = read_po(file, locale=language)
    words = set()
    for message in catalogue:
        if isinstance(message.id, str) and WORD.match(message.id) and message.string \
                and message.string != message.id:
            words.add(message.id)
    return words


ATTRIBUTE = re.compile(r'\b(?:aria-label|title|placeholder|alt)="([^"]*)"')


def text_of(page: str) -> str:
    """What a reader reads of ``page``: its text and its labels for a screen reader."""
    labels = " ".join(ATTRIBUTE.findall(page))
    return html.unescape(TAG.sub(" ", page) + " " + labels)


def english_left(text: str, words: set[str], names: list[str]) -> list[str]:
    for name in names:
        text = text.replace(name, " ")
    found = set(re.findall(r"\b[A-Z][a-z]{2,}\b", text)) & words
    return sorted(found)


def pages(app: Flask, client: FlaskClient, game: str, csrf: Callable[[str], str],
          language: str) -> dict[str, str]:
    """The pages of a match of ``game`` recorded in ``language`` as a table walks through
    them (the phone's language set already), by what they are."""
    m = matchfile.load((DATA / FILES[game]).read_bytes())
    store = app.extensions["referee.store"]
    edit = store.create(m.game, m.settings, m.hands, language=language)
    view = store.load(edit).view_token
    shown = {
        "the match page": client.get(f"/m/{edit}").get_data(as_text=True),
        "an earlier hand's editor": client.get(f"/m/{edit}/hands/1").get_data(as_text=True),
        "a hand's explanation": client.get(f"/m/{edit}/explained/1").get_data(as_text=True),
        "the history of changes": client.get(f"/m/{edit}/changes").get_data(as_text=True),
        "the view link": client.get(f"/m/{view}").get_data(as_text=True),
        "the home page": client.get("/").get_data(as_text=True),
        "a page that is not there": client.get("/m/nothing-here-at-all").get_data(as_text=True),
    }
    token = csrf(f"/m/{edit}")
    number = len(m.hands) + 1
    for action in WEB_GAMES[game].actions:
        answer = client.post(f"/m/{edit}/hands/{number}/{action}", data={"csrf_token": token})
        if answer.status_code == 422:
            shown["a refusal"] = answer.get_data(as_text=True)
            break
    pdf = client.get(f"/m/{edit}/scoresheet.pdf").data
    shown["the scoresheet"] = " ".join(
        page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    return shown


@pytest.mark.parametrize("game", list(FILES))
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_table_reads_its_language_and_no_english(app: Flask, client: FlaskClient,
                                                    csrf_token: Callable[..., str],
                                                    language: str, game: str) -> None:
    client.get(f"/?lang={language}")
    words = english_words(language)
    names = list(matchfile.load((DATA / FILES[game]).read_bytes()).settings["players"])
    left = {}
    for what, page in pages(app, client, game, csrf_token, language).items():
        if what != "the scoresheet":
            assert f'<html lang="{language.replace("_", "-")}"' in page, what
        found = english_left(text_of(page), words, names)
        if found:
            left[what] = found
    assert left == {}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_suits_marks_keep_their_classes_in_every_language(app: Flask, client: FlaskClient,
                                                              language: str) -> None:
    """A suit's mark is drawn by its CSS class ("suit-acorns"), which the language never
    changes; only the words a reader reads do."""
    client.get(f"/?lang={language}")
    m = matchfile.load((DATA / FILES["tartli"]).read_bytes())
    edit = app.extensions["referee.store"].create(m.game, m.settings, m.hands)
    page = client.get(f"/m/{edit}/hands/1").get_data(as_text=True)
    for suit in ("acorns", "leaves", "hearts", "bells"):
        assert f"suit-{suit}" in page and f"of-{suit}" in page, suit
