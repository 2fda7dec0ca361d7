"""No stored string can make a page fail.

Names are checked when a match is created or imported, but a database written before those
checks (or by another version) may hold anything: a lone surrogate, a NUL, text that turns the
page around, HTML, thousands of characters. For each game, a match is stored directly (as such
a database could hold it) whose every string a page shows is drawn from hostile text: the
players' and teams' names, the device that made each change and the label of each change.
Every page that shows them answers, never a 5xx: the match page (edit and view link, whole
and htmx), a hand's editor, the live scoreboard, the history of changes, the match file, the
scoresheet PDF, and the home page of the browser that opened the match."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from referee.engine import matchfile
from referee.engine.errors import readable
from referee.web.games import WEB_GAMES

DATA = Path(__file__).parents[1] / "data"
FILES = {"tartli": "tartli-short.json", "stovkahra": "stovkahra-series.json",
         "marjolet": "marjolet-game.json", "troggu": "troggu-evening.json"}
GAMES = sorted(WEB_GAMES)

HOSTILE_SAMPLES = [
    "", " ", "\ud800", "\udfff", "Anna\udc00", "\x00", "Anna\x00phone", "\x1b[31m", "\x7f",
    "\u202eenohp", "\u2066x", "\u200b", "\u2800", "\u3164", "\ufeff", "\u00ad",
    "<script>alert(1)</script>", '"><img src=x onerror=alert(1)>', "&amp;", "{{ 7*7 }}",
    "{% raw %}", "]]>", "A" * 5000, "é" * 300, "👩\u200d👩\u200d👧" * 50, "\r\n\t", "%s%n",
    "\ufffe\uffff", "\U0010ffff", "𝕬", "ǅ", "Ω" * 41,
]
# any character, surrogates and controls included, and the famous bad ones
HOSTILE = st.one_of(
    st.text(st.characters(exclude_categories=()), max_size=60),
    st.sampled_from(HOSTILE_SAMPLES),
    st.lists(st.sampled_from(HOSTILE_SAMPLES), min_size=2, max_size=4).map("".join),
)
# a database column cannot hold a lone surrogate (SQLite's driver refuses to write one): the
# device and the label of a change are stored as any text that a column can hold
COLUMN = HOSTILE.map(lambda text: text.encode("utf-8", "ignore").decode("utf-8"))


def _settings(game: str, names: list[str], teams: list[str]) -> dict[str, Any]:
    loaded = matchfile.load((DATA / FILES[game]).read_bytes())
    settings_ = copy.deepcopy(loaded.settings)
    settings_["players"] = names[: len(settings_["players"])]
    if "teams" in settings_:
        settings_["teams"] = teams
    return settings_


def _hands(game: str) -> list[dict[str, Any]]:
    return [dict(h) for h in matchfile.load((DATA / FILES[game]).read_bytes()).hands]


@st.composite
def hostile_matches(draw: st.DrawFn, game: str) -> tuple[dict[str, Any], list[str], list[str]]:
    """Settings with hostile names (and teams), the devices and labels of two changes."""
    players = len(_settings(game, ["x"] * 7, ["x", "y"])["players"])
    names = draw(st.lists(HOSTILE, min_size=players, max_size=players))
    teams = draw(st.lists(HOSTILE, min_size=2, max_size=2))
    devices = draw(st.lists(COLUMN, min_size=2, max_size=2))
    labels = draw(st.lists(COLUMN, min_size=2, max_size=2))
    return _settings(game, names, teams), devices, labels


def _store(app: Flask, game: str, settings_: dict[str, Any], devices: list[str],
           labels: list[str]) -> tuple[str, str]:
    """The match as an old database could hold it: (edit token, view token)."""
    store = app.extensions["referee.store"]
    hands = _hands(game)
    mid = str(store.create(game, settings_, hands[:-1], device=devices[0], label=labels[0]))
    store.save_hands(mid, hands[:-1], hands, labels[1], devices[1])
    match = store.load(mid)
    # stored as drawn (as JSON keeps it: a drawn surrogate pair comes back as one character)
    assert match is not None and match.settings == json.loads(json.dumps(settings_))
    return mid, match.view_token


def _get(client: FlaskClient, url: str, htmx: bool = False) -> str:
    response = client.get(url, headers={"HX-Request": "true"} if htmx else {})
    assert response.status_code == 200, (url, response.status_code)
    body = response.get_data()
    if response.mimetype == "text/html":
        assert b"<script>alert" not in body, url              # shown, never run
    return body.decode("utf-8")


def _worst(game: str) -> tuple[dict[str, Any], list[str], list[str]]:
    """The famous bad strings in every field, tried first in every game."""
    return (_settings(game, ["A\ud800", "\x00", "\u202eAnna", "<script>alert(1)</script>",
                             "\u200b", "é" * 5000, "\udfff"], ["\udc00", "\x00\x1b"]),
            ["Anna\x00phone", "\u202e" + "A" * 300], ["<script>alert(1)</script>", "\x00"])


def _checks(examples: int) -> settings:
    return settings(max_examples=examples, deadline=None, suppress_health_check=[
        HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


@pytest.mark.parametrize("game", GAMES)
def test_no_stored_string_makes_a_page_fail(app: Flask, game: str) -> None:
    client = app.test_client()

    @_checks(20)
    @given(hostile_matches(game))
    @example(_worst(game))
    def pages(drawn: tuple[dict[str, Any], list[str], list[str]]) -> None:
        settings_, devices, labels = drawn
        mid, view = _store(app, game, settings_, devices, labels)
        for token in (mid, view):
            _get(client, f"/m/{token}")
            _get(client, f"/m/{token}", htmx=True)
            _get(client, f"/m/{token}/live")
            _get(client, f"/m/{token}/changes")
        _get(client, f"/m/{mid}/hands/1")
        home = _get(client, "/")                     # the browser that opened both links
        assert f"/m/{mid}" in home
        exported = json.loads(_get(client, f"/m/{view}/match.json"))
        kept = json.loads(json.dumps(settings_))["players"]      # as stored (see _store)
        assert exported["settings"]["players"] == [readable(n) for n in kept]

    pages()


@pytest.mark.parametrize("game", GAMES)
def test_no_stored_string_makes_the_scoresheet_fail(app: Flask, game: str) -> None:
    client = app.test_client()

    @_checks(3)
    @given(hostile_matches(game))
    @example(_worst(game))
    def scoresheet(drawn: tuple[dict[str, Any], list[str], list[str]]) -> None:
        mid, _ = _store(app, game, *drawn)
        response = client.get(f"/m/{mid}/scoresheet.pdf")
        assert response.status_code == 200
        assert response.get_data().startswith(b"%PDF")

    scoresheet()


def test_a_stored_hand_with_half_a_character_is_said_not_a_500(app: Flask) -> None:
    """A hand's facts with a lone surrogate (stored before match files were checked for
    it): the page says the match cannot be scored, quoting it as its escape, and offers
    the match file, which can be read (and fixed) as text."""
    store = app.extensions["referee.store"]
    settings_ = _settings("tartli", ["Ágnes", "Tamás"], [])
    hands = _hands("tartli")
    hands[0]["indicator"] = "8\ud800"
    mid = str(store.create("tartli", settings_, hands))
    client = app.test_client()
    page = client.get(f"/m/{mid}")
    assert page.status_code == 409
    assert "8\\ud800" in page.get_data(as_text=True)
    exported = client.get(f"/m/{mid}/match.json")
    assert exported.status_code == 200
    assert json.loads(exported.get_data())["hands"][0]["indicator"] == "8\\ud800"
