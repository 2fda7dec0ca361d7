"""Every word a player reads on a circle's pages goes through the catalogues (issue 22): under a
catalogue that upper-cases each message (its placeholders kept), the circle's page, its
statistics and its hands' CSV headings have no lower-case English word of the app's own left,
outside the players' names and what the circle typed."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from typing import Any

import flask_babel
import pytest
from flask import Flask

from tests.shouting import Upper
from tests.web.circles.test_circle_stats import (
    marjolet_game,
    seat_all,
    small_circle,
    troggu_evenings,
)

# what the circle typed or the page shows as it is: names, team names, the menu's languages
NAMES = {"Anna", "Bela", "Eva", "Petr", "Karel", "Anne", "Bruno", "Beat", "Carla", "Dario",
         "Erik", "Family", "Club", "English", "Magyar", "Deutsch", "Schweiz", "Čeština",
         "Français", "Referee", "Tartli", "Stovkahra", "Marjolet", "Troggu", "CHF", "PDF",
         "CSV", "JSON"}
# Words other rooms still owe the catalogues (not the circles'): the engine's victory heading
# ("Matchsticks (to 5)", ``Game.victory_label``) and the scoresheet's francs ("Fr. 1.40",
# ``referee.scoresheet.troggu.francs``).
OWED = {"Matchsticks", "Buli", "Games", "Rappen", "to", "Fr"}




@pytest.fixture
def shouting(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(flask_babel.Domain, "get_translations", lambda self: Upper())
    yield


def english_words(html: str) -> list[str]:
    """The lower-case words of ``html``'s text (tags, scripts, styles and entities out;
    dates, numbers and the names of ``NAMES`` out)."""
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    body = re.sub(r"<svg\b.*?</svg>", " ", body, flags=re.S)           # the chart: below
    body = re.sub(r"<code>.*?</code>", " ", body, flags=re.I)       # the circle's code
    body = re.sub(r"<time\b.*?</time>", " ", body, flags=re.S)      # a change's date ("dec")
    text = re.sub(r"<[^>]+>", " ", body)
    text = re.sub(r"&[a-z]+;|&#\d+;", " ", text)
    text = re.sub(r"https?://\S+", " ", text)                     # the circle's link
    found = re.findall(r"[^\W\d_]+", text)
    return [w for w in found if w not in NAMES | OWED and w != w.upper()]


def _chart_text(html: str) -> list[str]:
    """The words of the charts' titles (what a screen reader says of a chart)."""
    titles = re.findall(r"<title>(.*?)</title>", html, flags=re.S)
    return [w for t in titles for w in re.findall(r"[^\W\d_]+", t)
            if w not in NAMES and w != w.upper()]


def _all_games(app: Flask) -> str:
    token, _, _ = small_circle(app)
    seat_all(app, token, [marjolet_game(), *troggu_evenings()])
    return token


def test_a_circle_s_pages_say_every_word_through_the_catalogue(db_app: Flask,
                                                                shouting: None) -> None:
    token = _all_games(db_app)
    client = db_app.test_client()
    client.set_cookie("lang", "hu")          # English would say engine sentences as written
    for url in (f"/c/{token}", f"/c/{token}/statistics",
                f"/c/{token}/statistics?from=2026-11-28&to=2026-12-31",
                f"/c/{token}/statistics?from=30.11.2026"):
        answer = client.get(url)
        assert answer.status_code in (200, 422), url
        html = answer.get_data(as_text=True)
        assert english_words(html) == [], (url, english_words(html))
        assert _chart_text(html) == [], url


def test_a_circle_s_hands_csv_headings_are_said_in_the_request_s_language(
        db_app: Flask, shouting: None) -> None:
    token = _all_games(db_app)
    client = db_app.test_client()
    client.set_cookie("lang", "hu")
    body = client.get(f"/c/{token}/hands.csv").get_data(as_text=True)
    heading = next(csv.reader(io.StringIO(body.lstrip("\ufeff"))))
    assert heading[:5] == ["DATE", "GAME", "PLAYERS", "HAND", "DEALER"]
    assert heading[5:8] == ["SIDE 1", "SIDE 1 SCORE", "SIDE 1 TOTAL"]
    assert heading[-1] == "SUMMARY"


def test_a_circle_s_answers_to_forms_say_every_word_through_the_catalogue(
        db_app: Flask, shouting: None) -> None:
    token = _all_games(db_app)
    client = db_app.test_client()
    client.set_cookie("lang", "hu")          # English would say engine sentences as written
    client.get(f"/c/{token}")
    db_app.config["WTF_CSRF_ENABLED"] = False
    answers: list[Any] = [
        client.post(f"/c/{token}/players", data={"player": "  "}),
        client.post(f"/c/{token}/add", data={"code": "no such code"}),
    ]
    for answer in answers:
        html = answer.get_data(as_text=True)
        assert answer.status_code == 422
        assert english_words(html) == [], (answer.request.path, english_words(html))



def test_a_circle_s_people_pages_and_history_say_every_word_through_the_catalogue(
        db_app: Flask, shouting: None) -> None:
    """A person's page, a merge's confirmation (and its refusal), a match's removal, the
    history with a rename, a merge, a removal and their undos, and the refusals of each."""
    from referee.web.store import circlechanges

    token, ids, played = small_circle(db_app)
    store = db_app.extensions["referee.circles"]
    store.add_player(token, "Anne", "Anna")
    anne = {p.name: p.id for p in store.load(token).players}["Anne"]
    circlechanges.rename(store, token, anne, "Bruno", None, "Anna")
    circlechanges.undo(store, token, circlechanges.history(store, token, 1)[0].id, "Anna")
    circlechanges.merge(store, token, anne, ids["Karel"], None, "Anna")
    circlechanges.remove_match(store, token, played[0], None, "Anna")
    client = db_app.test_client()
    client.set_cookie("lang", "hu")
    person = f"/c/{token}/people/{ids['Eva']}"
    for url in (f"/c/{token}", person, f"{person}/merge?into={ids['Bela']}",
                f"{person}/merge?into={ids['Anna']}", f"/c/{token}/changes",
                f"/c/{token}/matches/{played[1]}/remove"):
        answer = client.get(url)
        assert answer.status_code in (200, 422), url
        html = answer.get_data(as_text=True)
        assert english_words(html) == [], (url, english_words(html))
    db_app.config["WTF_CSRF_ENABLED"] = False
    undo = circlechanges.history(store, token, 100)[-1].id     # Anna joined: played since
    for url, data in ((f"{person}/name", {"name": "Anna", "version": "0"}),
                      (f"{person}/name", {"name": "Bruno", "version": "0"}),
                      (f"{person}/merge", {"into": ids["Anna"], "version": "0"}),
                      (f"/c/{token}/changes/{undo}/undo", {})):
        answer = client.post(url, data=data)
        assert answer.status_code in (409, 422), url
        html = answer.get_data(as_text=True)
        assert english_words(html) == [], (url, english_words(html))
