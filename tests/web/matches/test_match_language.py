"""The match's language (issue 22): chosen when the match starts (the starting phone's
language), stored with the match and in its match file, changeable later; the scoresheet, the
CSV and the chart are written in it, whichever phone asks."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask import Flask
from webtools import Table

from referee.engine import matchfile
from referee.engine.errors import RuleViolation
from referee.web.matches import exports


def stored(app: Flask, match_id: str) -> Any:
    return app.extensions["referee.store"].load(match_id)


def test_a_match_is_recorded_in_the_language_of_the_phone_that_starts_it(
        app: Flask, table: Table) -> None:
    table.client.get("/?lang=hu")
    match_id = table.new_match()
    assert stored(app, match_id).language == "hu"
    exported = json.loads(table.client.get(f"/m/{match_id}/match.json").data)
    assert exported["language"] == "hu"


def test_an_english_match_s_file_is_as_before(app: Flask, table: Table) -> None:
    match_id = table.new_match()
    assert stored(app, match_id).language == "en"
    assert "language" not in json.loads(table.client.get(f"/m/{match_id}/match.json").data)


def test_an_imported_match_keeps_its_language(app: Flask, table: Table) -> None:
    table.client.get("/?lang=cs")
    match_id = table.new_match()
    body = table.client.get(f"/m/{match_id}/match.json").data
    table.client.get("/?lang=en")
    page = table.client.post("/import", data={
        "csrf_token": table.token, "file": (__import__("io").BytesIO(body), "m.json")},
        content_type="multipart/form-data")
    assert page.status_code == 302
    imported = page.headers["Location"].rsplit("/", 1)[-1]
    assert stored(app, imported).language == "cs"


def test_the_language_is_changed_later_from_the_match_page(app: Flask, table: Table) -> None:
    match_id = table.new_match()
    answer = table.client.post(f"/m/{match_id}/language",
                               data={"csrf_token": table.token, "language": "fr"})
    assert answer.status_code == 302
    assert stored(app, match_id).language == "fr"
    assert json.loads(table.client.get(f"/m/{match_id}/match.json").data)["language"] == "fr"


def test_a_view_link_cannot_change_the_language(app: Flask, table: Table) -> None:
    match_id = table.new_match()
    view = stored(app, match_id).view_token
    answer = table.client.post(f"/m/{view}/language",
                               data={"csrf_token": table.token, "language": "fr"})
    assert answer.status_code == 403
    assert stored(app, match_id).language == "en"


def test_an_unknown_language_is_refused_and_changes_nothing(app: Flask, table: Table) -> None:
    match_id = table.new_match()
    table.client.post(f"/m/{match_id}/language",
                      data={"csrf_token": table.token, "language": "xx"})
    assert stored(app, match_id).language == "en"


def test_the_scoresheet_is_made_in_the_match_s_language_whichever_phone_asks(
        app: Flask, table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[str] = []

    def fake(m: matchfile.MatchFile, explained: bool = False, match: object = None) -> bytes:
        from referee.scoresheet.language import current
        made.append(current.get()[0])
        return b"%PDF-1.4 fake"

    monkeypatch.setattr(exports, "render_pdf", fake)
    table.client.get("/?lang=de_CH")
    match_id = table.new_match()
    table.client.get("/?lang=fr")                # this phone reads French
    assert table.client.get(f"/m/{match_id}/scoresheet.pdf").status_code == 200
    assert made == ["de_CH"]
    table.client.post(f"/m/{match_id}/language",
                      data={"csrf_token": table.token, "language": "cs"})
    table.client.get(f"/m/{match_id}/scoresheet.pdf")
    assert made == ["de_CH", "cs"]               # another language: made again, not the kept one


@pytest.mark.parametrize("language", ["en", "hu", "de_CH", "cs", "fr"])
def test_a_match_file_round_trips_its_language(language: str) -> None:
    m = matchfile.MatchFile(game="tartli", settings={"players": ["Anna", "Béla"], "target": 5,
                                                     "first_dealer": 0},
                            hands=[], created="2026-12-05", language=language)
    loaded = matchfile.load(matchfile.dumps(m))
    assert loaded.language == language
    assert matchfile.dumps(loaded) == matchfile.dumps(m)


def test_a_match_file_in_an_unknown_language_is_refused() -> None:
    text = json.dumps({"format": "referee-match", "version": 1, "game": "tartli",
                       "created": "2026-12-05", "language": "de",
                       "settings": {"players": ["Anna", "Béla"], "target": 5,
                                    "first_dealer": 0}, "hands": []})
    with pytest.raises(RuleViolation) as refused:
        matchfile.load(text)
    assert refused.value.code == "file.language"
    assert "de_CH" in str(refused.value.message)


def test_a_database_of_an_earlier_referee_gets_the_language_column(tmp_path: Any) -> None:
    import sqlite3

    from referee.web import create_app

    url = f"sqlite:///{tmp_path}/old.sqlite3"
    first = create_app({"TESTING": True, "DATABASE_URL": url})
    match_id = first.extensions["referee.store"].create(
        "tartli", {"players": ["Anna", "Béla"], "target": 5, "first_dealer": 0}, [])
    first.extensions["referee.store"].engine.dispose()
    with sqlite3.connect(tmp_path / "old.sqlite3") as conn:        # as before issue 22
        conn.execute("ALTER TABLE matches DROP COLUMN language")
    again = create_app({"TESTING": True, "DATABASE_URL": url})
    assert stored(again, match_id).language == "en"
    again.extensions["referee.store"].engine.dispose()


def test_the_match_page_offers_the_language_to_an_edit_link_only(app: Flask,
                                                                  table: Table) -> None:
    table.client.get("/?lang=cs")
    match_id = table.new_match()
    page = table.client.get(f"/m/{match_id}").get_data(as_text=True)
    assert f'action="/m/{match_id}/language"' in page
    assert '<option selected value="cs">Čeština</option>' in page
    view = stored(app, match_id).view_token
    assert "/language" not in table.client.get(f"/m/{view}").get_data(as_text=True)


def test_the_csv_is_written_in_the_match_s_language(app: Flask, table: Table) -> None:
    from referee.catalogues import catalogue

    table.client.get("/?lang=hu")
    match_id = table.new_match()
    table.client.get("/?lang=en")                           # this phone reads English
    heading = table.client.get(f"/m/{match_id}/hands.csv").get_data(as_text=True)
    first = heading.lstrip("\ufeff").splitlines()[0].split(",")
    hungarian = catalogue("hu")
    assert hungarian is not None
    assert first[0] == hungarian.gettext("Hand") != "Hand"
    assert first[1] == hungarian.gettext("Dealer") != "Dealer"
