"""Two phones at one table may read two languages (issue 22): the live scoreboard's shared
parts are kept per language, and the history of changes is said in each phone's language
(its labels are stored as sentences; a label stored as English words before stays as it is)."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from flask import Flask

from referee.web import create_app
from referee.web.extensions import store

TARTLI = {"players": ["Anna", "Béla"], "target": 5, "first_dealer": 0}


@pytest.fixture
def hungarian(tmp_path: Path) -> Flask:
    """The app with a small Hungarian catalogue of the history's words."""
    catalog = Catalog(locale="hu")
    catalog.add("Match started", "Meccs elkezdve")
    catalog.add("Undone: %(label)s", "Visszavonva: %(label)s")
    catalog.add("Hand %(number)s deleted", "%(number)s. leosztás törölve")
    folder = tmp_path / "translations" / "hu" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    with (folder / "messages.mo").open("wb") as out:
        write_mo(out, catalog)
    return create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path}/t.sqlite3",
                       "BABEL_TRANSLATION_DIRECTORIES": str(tmp_path / "translations")})


def _history(app: Flask, language: str, match_id: str) -> str:
    phone = app.test_client()
    phone.get(f"/?lang={language}")                      # the phone's language, kept
    answer = phone.get(f"/m/{match_id}/live")
    assert answer.status_code == 200
    return answer.get_data(as_text=True)


def test_two_phones_in_two_languages_poll_one_match(hungarian: Flask) -> None:
    with hungarian.app_context():
        match_id = store().create("tartli", TARTLI, [],
                                  device="Anna's phone")
    for first, second in (("hu", "en"), ("en", "hu")):
        said = {first: _history(hungarian, first, match_id),
                second: _history(hungarian, second, match_id)}
        assert "Meccs elkezdve" in said["hu"] and "Match started" not in said["hu"]
        assert "Match started" in said["en"] and "Meccs elkezdve" not in said["en"]
        assert "Anna&#39;s phone" in said["hu"]            # the device's name as typed
        with hungarian.app_context():
            hungarian.extensions["referee.boards"].__init__()      # as after a change


def test_a_label_stored_as_english_words_is_shown_as_it_is(hungarian: Flask) -> None:
    with hungarian.app_context():
        match_id = store().create("tartli", TARTLI, [],
                                  label="Match started the old way")
    assert "Match started the old way" in _history(hungarian, "hu", match_id)
