"""Circles (issue 13): a group that plays together, its players as rows (the same person only
when the table picks the same player), its matches, the Troggu evening's settle-up (rule
7.5.3), and the circle as one file. Whoever holds the circle's link sees it; nobody else.

Store tests run on SQLite and PostgreSQL (``db_app``); the pages on SQLite (``app``)."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from pypdf import PdfReader
from sqlalchemy import select
from store.storestate import snapshot
from webtools import CSRF_MESSAGE, Page

from referee.engine import circlefile, matchfile
from referee.engine.errors import RuleViolation
from referee.web.store import (
    CircleRefused,
    Circles,
    circle_changes,
    circle_matches,
    circle_players,
    circle_seats,
    circles,
)

DATA = Path(__file__).parents[2] / "data"
TROGGU = matchfile.load((DATA / "troggu-evening.json").read_bytes())   # -110, +50, +90, -30
TARTLI = {"players": ["Ágnes", "Tamás"], "target": 5, "first_dealer": 0}
TARTLI_FORM = {"target": "5", "first_dealer": "0"}


def _circles(app: Flask) -> Circles:
    found: Circles = app.extensions["referee.circles"]
    return found


def _rows(app: Flask) -> dict[str, list[Any]]:
    """Every circle table's rows (for "nothing stored" checks), with the matches' state."""
    engine = app.extensions["referee.store"].engine
    with engine.connect() as conn:
        rows = {t.name: sorted(map(tuple, conn.execute(select(t)).all()), key=repr)
                for t in (circles, circle_players, circle_matches, circle_seats)}
    return {**rows, "matches": sorted(snapshot(app))}


def _token(location: str | None) -> str:
    assert location, "no redirect"
    found = re.fullmatch(r"/[cm]/([\w-]+)", location.split("#")[0])
    assert found, location
    return found.group(1)


@pytest.fixture
def family(post: Callable[..., Page]) -> str:
    """A circle made on the home page: its token."""
    page = post("/circles", {"circle_name": "Family"})
    assert page.status == 302, page.errors
    return _token(page.location)


# -- the store ----------------------------------------------------------------------------

def test_the_store_keeps_circles_players_and_seats(db_app: Flask) -> None:
    store = _circles(db_app)
    token = store.create("Thursday club")
    assert re.fullmatch(r"[\w-]{22}", token)                     # 128 bits, URL-safe
    anna = store.add_player(token, "Anna")
    match = store.start_match(token, "tartli", TARTLI, [anna, "Tamás"])
    circle = store.load(token)
    assert circle is not None and [p.name for p in circle.players] == ["Anna", "Tamás"]
    tamas = circle.players[1].id
    [listed] = store.matches(token)
    assert listed.id == match and listed.people == (anna, tamas)
    # a name is a name as the app compares names: case and invisible characters aside
    with pytest.raises(CircleRefused, match="Tamás is already a player"):
        store.add_player(token, "TAMÁS\u200b")
    with pytest.raises(CircleRefused, match="Anna is already a player"):
        store.add_player(token, "Anna\ufe0f")
    # a player of another circle, or one person in two seats: refused, nothing stored
    other = store.create("Other")
    stranger = store.add_player(other, "Zoe")
    before = _rows(db_app)
    with pytest.raises(CircleRefused, match="not in this circle"):
        store.start_match(token, "tartli", TARTLI, [anna, stranger])
    with pytest.raises(CircleRefused):
        store.start_match(token, "tartli", TARTLI, [anna, anna])
    assert _rows(db_app) == before
    # a match belongs to at most one circle
    with pytest.raises(CircleRefused, match="another circle"):
        store.add_match(other, match, [stranger, "Tamás"])
    with pytest.raises(CircleRefused, match="in this circle already"):
        store.add_match(token, match, [anna, tamas])
    assert _rows(db_app) == before
    assert store.circle_of(match) == token


def test_the_store_lists_a_circles_matches_newest_first_with_their_hands(db_app: Flask) -> None:
    store = _circles(db_app)
    token = store.create("Evenings")
    older = store.start_match(token, "troggu", TROGGU.settings, ["Anna", "Beat", "Carla",
                              "Dario"], TROGGU.hands, datetime(2026, 11, 30, 19))
    circle = store.load(token)
    assert circle is not None
    ids = [p.id for p in circle.players]
    newer = store.start_match(token, "troggu", TROGGU.settings, ids[::-1], TROGGU.hands,
                              datetime(2026, 11, 30, 21))
    found = store.matches(token)
    assert [m.id for m in found] == [newer, older]
    assert found[0].people == tuple(ids[::-1]) and found[0].hands == TROGGU.hands
    assert store.matches(token, "tartli") == []


# -- creating a circle, the home page ------------------------------------------------------

def test_a_circle_is_created_from_the_home_page_and_listed_there(
        client: FlaskClient, post: Callable[..., Page]) -> None:
    home = Page.of(client.get("/"))
    assert "New circle" in home.text and "Family" not in home.text
    page = post("/circles", {"circle_name": "  Family   Huber "})
    token = _token(page.location)
    circle = Page.of(client.get(f"/c/{token}"))
    assert circle.status == 200 and "Family Huber" in circle.text
    assert circle.response.headers["Cache-Control"] == "no-store"
    assert f"/c/{token}" in Page.of(client.get("/")).html


@pytest.mark.parametrize(("name", "says"), [
    ("", "needs a name"), ("   ", "needs a name"), ("A\u202eB", "direction"),
    ("x" * 41, "at most 40"), ("\u200b", "visible"),
])
def test_a_circle_name_is_checked_like_a_players_name(
        app: Flask, post: Callable[..., Page], name: str, says: str) -> None:
    before = _rows(app)
    page = post("/circles", {"circle_name": name})
    assert page.status == 422 and any(says in e for e in page.errors), page.errors
    assert _rows(app) == before


def test_html_in_names_is_shown_as_text(client: FlaskClient, post: Callable[..., Page]) -> None:
    token = _token(post("/circles", {"circle_name": "<b>Club</b>"}).location)
    page = post(f"/c/{token}/players", {"player": "<script>x()</script>"})
    assert page.status == 302
    html = client.get(f"/c/{token}").get_data(as_text=True)
    assert "&lt;b&gt;Club&lt;/b&gt;" in html and "&lt;script&gt;x()&lt;/script&gt;" in html
    assert "<script>x()" not in html


# -- starting a match from the circle ------------------------------------------------------

def _players(app: Flask, token: str) -> dict[str, int]:
    circle = _circles(app).load(token)
    assert circle is not None
    return {p.name: p.id for p in circle.players}


def test_a_match_started_from_the_circle_picks_a_player_and_adds_a_new_one(
        app: Flask, client: FlaskClient, post: Callable[..., Page], family: str) -> None:
    assert post(f"/c/{family}/players", {"player": "Ágnes"}).status == 302
    agnes = _players(app, family)["Ágnes"]
    form = Page.of(client.get(f"/c/{family}/new/tartli"))
    assert ("who-0", str(agnes), False) in form.options
    page = post(f"/c/{family}/new/tartli", {"who-0": str(agnes), "name-1": "Tamás",
                                            **TARTLI_FORM})
    assert page.status == 302, page.errors
    match = _token(page.location)
    assert _players(app, family) == {"Ágnes": agnes, "Tamás": agnes + 1}
    [listed] = _circles(app).matches(family)
    assert listed.id == match and listed.people == (agnes, agnes + 1)
    assert listed.settings["players"] == ["Ágnes", "Tamás"]
    circle = Page.of(client.get(f"/c/{family}"))
    assert f"/m/{match}" in circle.html and "Tartli: Ágnes – Tamás" in circle.text


def test_a_typed_name_of_a_player_of_the_circle_is_refused_not_guessed(
        app: Flask, post: Callable[..., Page], family: str) -> None:
    """Names are the same person only when the table picks the player from the list: typing
    "ágnes" for the circle's Ágnes is refused with the way out, and nothing is stored."""
    post(f"/c/{family}/players", {"player": "Ágnes"})
    before = _rows(app)
    page = post(f"/c/{family}/new/tartli", {"name-0": "ÁGNES", "name-1": "Tamás",
                                            **TARTLI_FORM})
    assert page.status == 422
    assert any("Ágnes is already a player of this circle: pick them from the list" in e
               for e in page.errors), page.errors
    assert ("name-0", "ÁGNES") in [(i.get("name"), i.get("value")) for i in page.inputs]
    assert _rows(app) == before


def test_a_name_with_a_variation_selector_is_the_same_player(
        app: Flask, post: Callable[..., Page], family: str) -> None:
    """ "Anna" and "Anna" with U+FE0F read the same: the circle keeps one Anna (the circle
    that showed three players all reading "Anna")."""
    post(f"/c/{family}/players", {"player": "Anna"})
    before = _rows(app)
    page = post(f"/c/{family}/players", {"player": "Anna\ufe0f"})
    assert page.status == 422 and any("Anna is already a player" in e for e in page.errors)
    page = post(f"/c/{family}/new/tartli", {"name-0": "Anna\U000e0100", "name-1": "Tamás",
                                            **TARTLI_FORM})
    assert page.status == 422 and any("Anna is already a player" in e for e in page.errors)
    page = post(f"/c/{family}/players", {"player": "\ufe0f\u034f"})
    assert page.status == 422 and any("visible character" in e for e in page.errors)
    assert _rows(app) == before


@pytest.mark.parametrize("who", ["999999", "abc", "-1", "1" * 40, "0x1", "١"])
def test_a_forged_player_is_refused(app: Flask, post: Callable[..., Page], family: str,
                                    who: str) -> None:
    before = _rows(app)
    page = post(f"/c/{family}/new/tartli", {"who-0": who, "name-1": "B", **TARTLI_FORM})
    assert page.status == 422 and any("not in this circle" in e for e in page.errors)
    assert _rows(app) == before


def test_another_circles_player_or_one_person_twice_is_refused(
        app: Flask, post: Callable[..., Page], family: str) -> None:
    other = _token(post("/circles", {"circle_name": "Other"}).location)
    post(f"/c/{other}/players", {"player": "Zoe"})
    post(f"/c/{family}/players", {"player": "Anna"})
    zoe, anna = _players(app, other)["Zoe"], _players(app, family)["Anna"]
    before = _rows(app)
    for data, says in (({"who-0": str(zoe), "name-1": "B"}, "not in this circle"),
                       ({"who-0": str(anna), "who-1": str(anna)}, "already sits at"),
                       ({"who-0": str(anna), "name-0": "Anna", "name-1": "B"}, "not both"),
                       ({"name-0": "Bo", "name-1": "bo"}, "already sits at"),
                       ({"name-0": "Bo"}, "Pick a player from the list")):
        page = post(f"/c/{family}/new/tartli", {**data, **TARTLI_FORM})
        assert page.status == 422 and any(says in e for e in page.errors), (data, page.errors)
    assert _rows(app) == before


def test_a_troggu_match_from_the_circle_seats_three_to_eight(
        app: Flask, post: Callable[..., Page], family: str) -> None:
    page = post(f"/c/{family}/new/troggu", {"name-0": "Anna", "name-1": "Beat",
                                            "name-2": "Carla", "first_dealer": "0",
                                            "stake": "10", "threshold": "standard"})
    assert page.status == 302, page.errors
    [listed] = _circles(app).matches(family)
    assert listed.settings["players"] == ["Anna", "Beat", "Carla"] and len(listed.people) == 3
    # a gap in the seats is the game's own refusal (rule 1), nothing stored
    before = _rows(app)
    page = post(f"/c/{family}/new/troggu", {"name-0": "Dora", "name-1": "Emil", "name-2": "F",
                                            "name-4": "G", "first_dealer": "0", "stake": "10",
                                            "threshold": "standard"})
    assert page.status == 422 and any("Seat 4 is empty" in e for e in page.errors)
    # the first three seats are needed: a seat left empty says so at the seat
    page = post(f"/c/{family}/new/troggu", {"name-0": "Dora", "name-2": "Emil",
                                            "first_dealer": "0", "stake": "10",
                                            "threshold": "standard"})
    assert page.status == 422 and any("Pick a player from the list" in e for e in page.errors)
    assert _rows(app) == before


# -- adding a match that exists ------------------------------------------------------------

def test_a_match_is_added_by_its_edit_link_and_the_table_says_who_is_who(
        app: Flask, client: FlaskClient, post: Callable[..., Page],
        make_match: Callable[..., str], family: str) -> None:
    post(f"/c/{family}/players", {"player": "Agi"})
    agi = _players(app, family)["Agi"]
    match = make_match("Ágnes", "Tamás")
    link = f"http://localhost/m/{match}"
    seats = post(f"/c/{family}/add", {"code": link})
    assert seats.status == 200
    # proposed: a new player named as the match names the seat; the table picks Agi instead
    assert ("name-0", "Ágnes") in [(i.get("name"), i.get("value")) for i in seats.inputs]
    page = post(f"/c/{family}/add", {"code": link, "seats": "1", "who-0": str(agi),
                                     "name-1": "Tamás"})
    assert page.status == 302, page.errors
    [listed] = _circles(app).matches(family)
    assert listed.id == match and listed.people == (agi, _players(app, family)["Tamás"])
    assert "Tartli: Agi – Tamás" in Page.of(client.get(f"/c/{family}")).text
    # again: it is in the circle already; into another circle: refused
    other = _token(post("/circles", {"circle_name": "Other"}).location)
    before = _rows(app)
    assert any("already" in e for e in post(f"/c/{family}/add", {"code": match}).errors)
    page = post(f"/c/{other}/add", {"code": match, "seats": "1", "name-0": "X", "name-1": "Y"})
    assert page.status == 422 and any("another circle" in e for e in page.errors)
    assert _rows(app) == before


def test_a_view_link_cannot_add_a_match(app: Flask, post: Callable[..., Page],
                                        make_match: Callable[..., str], family: str) -> None:
    match = make_match()
    stored = app.extensions["referee.store"].load(match)
    before = _rows(app)
    for code in (f"http://localhost/m/{stored.view_token}", stored.view_token):
        page = post(f"/c/{family}/add", {"code": code, "seats": "1", "name-0": "A",
                                         "name-1": "B"})
        assert page.status == 422
        assert any("That is the match's view link: only whoever holds its edit link" in e
                   for e in page.errors), page.errors
    for code in ("nothing", "A" * 22, "", "x" * 600):
        page = post(f"/c/{family}/add", {"code": code})
        assert page.status == 422 and any("No match has that link" in e for e in page.errors)
    assert _rows(app) == before


# -- the Troggu evening --------------------------------------------------------------------

def test_the_evening_adds_up_a_days_troggu_matches_and_settles_up(
        app: Flask, client: FlaskClient, family: str) -> None:
    """Two Troggu matches of 30 November with the same people in other seats, and one of
    another day. The match file's balances are Anna −110, Beat +50, Carla +90, Dario −30 by
    seat. First match: Anna, Beat, Carla, Dario; second, the same hands seated Beat, Carla,
    Dario, Erik. The evening: Anna −110, Beat +50 − 110 = −60, Carla +90 + 50 = +140,
    Dario −30 + 90 = +60, Erik −30 (they add up to 0, rule 7.5.2). Settle-up (7.5.3): the
    largest debt (Anna, 110) pays the largest credit (Carla, 140) 110; then Beat (60) pays
    Dario (60) 60; then Erik (30) pays Carla (30) 30. Three payments, at most 5 − 1."""
    store = _circles(app)
    first = ["Anna", "Beat", "Carla", "Dario"]
    store.start_match(family, "troggu", TROGGU.settings, first, TROGGU.hands,
                      datetime(2026, 11, 30, 19, 5))
    ids = _players(app, family)
    second = dict(TROGGU.settings, players=["Beat", "Carla", "Dario", "Erik"])
    store.start_match(family, "troggu", second, [ids["Beat"], ids["Carla"], ids["Dario"],
                                                 "Erik"], TROGGU.hands,
                      datetime(2026, 11, 30, 21, 40))
    store.start_match(family, "troggu", TROGGU.settings, [ids[n] for n in first[::-1]],
                      TROGGU.hands, datetime(2026, 12, 1, 20))
    page = Page.of(client.get(f"/c/{family}"))
    section = page.html.split('id="evening-2026-11-30"')[1].split("</section>")[0]
    text = " ".join(re.sub(r"<[^>]+>", " ", section).split())
    assert "2 matches" in text
    assert ("Anna −110 Beat −60 Carla +140 Dario +60 Erik −30") in text, text
    assert re.findall(r"(\w+) pays (\w+) (\d+) Rappen", text) == [
        ("Anna", "Carla", "110"), ("Beat", "Dario", "60"), ("Erik", "Carla", "30")]
    assert 'id="evening-2026-12-01"' in page.html
    pdf = client.get(f"/c/{family}/evenings/2026-11-30.pdf")
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf"
    words = " ".join("".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.data)).pages)
                     .split())
    for line in ("Anna pays Carla 110 Rappen", "Beat pays Dario 60 Rappen",
                 "Erik pays Carla 30 Rappen"):
        assert line in words, words
    assert re.search(r"Referee · .+ · 2026-11-30 page 1 of 1", words), words   # its foot
    assert client.get(f"/c/{family}/evenings/2026-11-29.pdf").status_code == 404
    assert client.get(f"/c/{family}/evenings/someday.pdf").status_code == 404


# -- who sees what -------------------------------------------------------------------------

def test_a_circles_link_opens_only_that_circle(app: Flask, client: FlaskClient,
                                               post: Callable[..., Page], family: str) -> None:
    other = _token(post("/circles", {"circle_name": "Neighbours"}).location)
    post(f"/c/{other}/new/tartli", {"name-0": "Nina", "name-1": "Otto", **TARTLI_FORM})
    theirs = _circles(app).matches(other)[0].id
    page = Page.of(client.get(f"/c/{family}"))
    assert "Nina" not in page.text and theirs not in page.html and other not in page.html
    for token in ("A" * 22, theirs, family[:-1], family + "x", "..", "x" * 500):
        assert client.get(f"/c/{token}").status_code == 404
        assert client.get(f"/c/{token}/circle.json").status_code == 404


def test_a_matchs_link_does_not_lead_to_its_circle(
        app: Flask, client: FlaskClient, post: Callable[..., Page], family: str) -> None:
    for names in (("Anna", "Beat"), ("Cleo", "Dan")):
        post(f"/c/{family}/new/tartli", {"name-0": names[0], "name-1": names[1],
                                         **TARTLI_FORM})
    others, mine = _circles(app).matches(family)                 # newest first
    assert mine.settings["players"] == ["Anna", "Beat"]
    stored = app.extensions["referee.store"].load(mine.id)
    stranger = app.test_client()
    for token in (mine.id, stored.view_token):
        for path in ("", "/changes", "/match.json"):
            body = stranger.get(f"/m/{token}{path}").get_data(as_text=True)
            assert others.id not in body and family not in body and "Family" not in body
            assert "Cleo" not in body and "Dan" not in body       # the other match's players


def test_the_home_page_of_a_fresh_browser_shows_no_circle(
        app: Flask, client: FlaskClient, family: str) -> None:
    assert family in client.get("/").get_data(as_text=True)
    fresh = app.test_client().get("/").get_data(as_text=True)
    assert family not in fresh and "Family" not in fresh


# -- CSRF on every post --------------------------------------------------------------------

def test_every_circle_form_needs_its_csrf_token(
        app: Flask, post: Callable[..., Page], make_match: Callable[..., str],
        family: str) -> None:
    match = make_match()
    upload = {"circle_file": (io.BytesIO(b"{}"), "c.json")}
    for path, data in (("/circles", {"circle_name": "X"}),
                       ("/circles/import", upload),
                       (f"/c/{family}/players", {"player": "X"}),
                       (f"/c/{family}/new/tartli", {"name-0": "X", "name-1": "Y",
                                                    **TARTLI_FORM}),
                       (f"/c/{family}/add", {"code": match, "seats": "1", "name-0": "X",
                                             "name-1": "Y"})):
        before = _rows(app)
        page = post(path, data, csrf=False)
        assert page.status == 400 and any(CSRF_MESSAGE in e for e in page.errors), path
        assert _rows(app) == before


# -- the circle as one file ----------------------------------------------------------------

def test_a_circle_file_imports_as_a_new_circle_with_new_links(
        app: Flask, client: FlaskClient, post: Callable[..., Page], family: str) -> None:
    store = _circles(app)
    store.start_match(family, "troggu", TROGGU.settings, ["Anna", "Beat", "Carla", "Dario"],
                      TROGGU.hands, datetime(2026, 11, 30, 19))
    ids = _players(app, family)
    post(f"/c/{family}/new/tartli", {"who-0": str(ids["Carla"]), "name-1": "Ede",
                                     **TARTLI_FORM})
    exported = client.get(f"/c/{family}/circle.json")
    assert exported.status_code == 200 and "attachment" in exported.headers[
        "Content-Disposition"]
    data = json.loads(exported.data)
    assert data["players"] == ["Anna", "Beat", "Carla", "Dario", "Ede"]
    assert [e["people"] for e in data["matches"]] == [[0, 1, 2, 3], [2, 4]]
    page = post("/circles/import", {"circle_file": (io.BytesIO(exported.data), "c.json")},
                content_type="multipart/form-data")
    assert page.status == 302, page.errors
    copy = _token(page.location)
    assert copy != family
    again = client.get(f"/c/{copy}/circle.json").data
    assert json.loads(again) == dict(data, created=json.loads(again)["created"])
    old_ids = {m.id for m in store.matches(family)}
    assert not old_ids & {m.id for m in store.matches(copy)}        # new match tokens too


@pytest.mark.parametrize(("change", "says"), [
    (lambda d: d.update(version=2), "version 2: it was written by a newer Referee; this "
                                    "Referee reads only version 1"),
    (lambda d: d.update(version="1"), "must be a whole number"),
    (lambda d: d.update(format="referee-match"), "not a Referee circle file"),
    (lambda d: d.update(extra=1), "Unknown field “extra”"),
    (lambda d: d.pop("players"), "lacks the field “players”"),
    (lambda d: d.update(players=["Anna", "ANNA"]), "same name as Anna"),
    (lambda d: d.update(players=["Anna", "Anna\ufe0f"]), "same name as Anna"),
    (lambda d: d.update(players=["Anna", "\U000e0100"]), "Player 2: Player 2 needs a name "
                                                          "with a visible character"),
    (lambda d: d.update(name="\u0301\u180b"), "The circle needs a name with a visible"),
    (lambda d: d.update(name="\u202e"), "direction"),
    (lambda d: d["matches"][0].update(people=[0, 0]), "one person sits in two seats"),
    (lambda d: d["matches"][0].update(people=[0, 7]), "7 is no player of the circle"),
    (lambda d: d["matches"][0].update(people=[0, True]), "true is no player"),
    (lambda d: d["matches"][0].update(people=[0, 1.0]), "Match 1: “people” holds 1.0: a place "
                                                        "in “players” is a whole number written "
                                                        "without a decimal point (an integer, "
                                                        "such as 1)"),
    (lambda d: d["matches"][0]["match"]["settings"].update(target=5.0),
     "Match 1: “target” in “settings” must be a whole number written without a decimal point "
     "(an integer, such as 5), not 5.0"),
    (lambda d: d["matches"][0].update(people=[0]), "each of its 2 seats"),
    (lambda d: d["matches"][0]["match"].update(version=3), "Match 1: This match file is "
                                                          "version 3"),
    (lambda d: d["matches"][0].update(note=""), "Unknown field “note” in match 1"),
])
def test_a_circle_file_is_read_strictly(change: Callable[[dict[str, Any]], object],
                                        says: str) -> None:
    data = circlefile.dump(circlefile.CircleFile(
        "Family", "2026-11-30", ["Anna", "Beat"],
        [(matchfile.load({"format": "referee-match", "version": 1, "game": "tartli",
                          "created": "2026-11-30", "settings": dict(TARTLI, players=[
                              "Anna", "Beat"]), "hands": []}), [0, 1])]))
    assert circlefile.load(json.dumps(data)).players == ["Anna", "Beat"]
    change(data)
    with pytest.raises(RuleViolation) as refused:
        circlefile.load(json.dumps(data))
    assert says in refused.value.message, refused.value.message


@pytest.mark.parametrize("body", [b"", b"\xff\xfe", b"[1,", b"[]", b"1" * 30, b"{" * 5000,
                                  b'{"format": "referee-circle", "version": NaN}'])
def test_a_file_that_is_no_circle_file_is_refused_on_the_home_page(
        app: Flask, post: Callable[..., Page], body: bytes) -> None:
    before = _rows(app)
    page = post("/circles/import", {"circle_file": (io.BytesIO(body), "c.json")},
                content_type="multipart/form-data")
    assert page.status == 422 and page.errors, page.text[:300]
    assert _rows(app) == before



def test_a_circle_file_may_be_larger_than_a_form(
        app: Flask, client: FlaskClient, post: Callable[..., Page], family: str) -> None:
    """A club's circle file outgrows the 1 MB of a form: up to 20 MB is read; more is 413."""
    body = client.get(f"/c/{family}/circle.json").data + b" " * 1_500_000
    page = post("/circles/import", {"circle_file": (io.BytesIO(body), "c.json")},
                content_type="multipart/form-data")
    assert page.status == 302, page.errors
    before = _rows(app)
    page = post("/circles/import", {"circle_file": (io.BytesIO(b" " * 20_100_000), "c.json")},
                content_type="multipart/form-data")
    assert page.status == 413 and "20 MB at most" in page.text
    assert _rows(app) == before


HOSTILE = ["", " ", "\x00", "<script>alert(1)</script>", "9" * 5000, "-1", "1e9", "٣",
           "\u202e", "a" * 41, "\ufeff", "../..", "%00", "null", "[]", "{}"]


def test_hostile_values_in_every_circle_form_never_make_a_500(
        app: Flask, client: FlaskClient, post: Callable[..., Page],
        make_match: Callable[..., str], family: str) -> None:
    """Every field of every circle form, with values no form sends: refused or stored, never a
    500; a refusal stores nothing."""
    match = make_match()
    fields = {
        "/circles": ["circle_name"],
        f"/c/{family}/players": ["player"],
        f"/c/{family}/new/tartli": ["who-0", "who-1", "name-0", "name-1", "target",
                                    "first_dealer"],
        f"/c/{family}/new/troggu": ["who-0", "name-0", "who-7", "name-7", "who-8", "stake"],
        f"/c/{family}/add": ["code", "seats", "who-0", "name-0", "who-1", "name-1"],
    }
    good = {f"/c/{family}/new/tartli": {"name-0": "A", "name-1": "B", **TARTLI_FORM},
            f"/c/{family}/new/troggu": {"name-0": "A", "name-1": "B", "name-2": "C",
                                        "first_dealer": "0", "stake": "10",
                                        "threshold": "standard"},
            f"/c/{family}/add": {"code": match, "seats": "1", "name-0": "A", "name-1": "B"}}
    for path, names in fields.items():
        for name in names:
            for value in HOSTILE:
                before = _rows(app)
                page = post(path, {**good.get(path, {}), name: value})
                assert page.status in (200, 302, 422), (path, name, value, page.status)
                if page.status != 302:
                    assert _rows(app) == before, (path, name, value)
    for path in ("/c/%00", "/c/" + "A" * 5000, f"/c/{family}/new/nothing",
                 f"/c/{family}/evenings/9999-99-99.pdf", f"/c/{family}/evenings/..pdf"):
        assert client.get(path).status_code == 404, path


def test_the_circle_pages_on_every_database(db_app: Flask) -> None:
    """Create, start a match with a new and a listed player, add a match by its edit link, the
    evening, the file and its import: the same on SQLite and PostgreSQL."""
    client = db_app.test_client()
    token = re.search(r'name="csrf_token" value="([^"]+)"', client.get("/").get_data(
        as_text=True))
    assert token
    csrf = {"csrf_token": token.group(1)}
    family = _token(client.post("/circles", data={"circle_name": "Family", **csrf})
                    .headers["Location"])
    client.post(f"/c/{family}/players", data={"player": "Anna", **csrf})
    anna = _players(db_app, family)["Anna"]
    started = client.post(f"/c/{family}/new/troggu", data={
        "who-0": str(anna), "name-1": "Beat", "name-2": "Carla", "name-3": "Dario",
        "first_dealer": "0", "stake": "10", "threshold": "standard", **csrf})
    assert started.status_code == 302
    store = db_app.extensions["referee.store"]
    other = store.create("troggu", TROGGU.settings, TROGGU.hands)
    ids = _players(db_app, family)
    added = client.post(f"/c/{family}/add", data={
        "code": other, "seats": "1", **{f"who-{n}": str(ids[name]) for n, name in
                                         enumerate(["Anna", "Beat", "Carla", "Dario"])},
        **csrf})
    assert added.status_code == 302, added.get_data(as_text=True)[:500]
    page = Page.of(client.get(f"/c/{family}"))
    assert "Anna −110 Beat +50 Carla +90 Dario −30" in " ".join(
        re.sub(r"<[^>]+>", " ", page.html.split("evening of")[1]).split())
    exported = client.get(f"/c/{family}/circle.json").data
    imported = client.post("/circles/import", data={
        "circle_file": (io.BytesIO(exported), "c.json"), **csrf},
        content_type="multipart/form-data")
    assert imported.status_code == 302
    copy = _token(imported.headers["Location"])
    assert json.loads(client.get(f"/c/{copy}/circle.json").data)["matches"] == \
        json.loads(exported)["matches"]


def test_strings_no_page_can_hold_in_a_circles_matches_make_no_500(
        app: Flask, client: FlaskClient, family: str) -> None:
    """A match added from a database written before names were checked may hold a lone
    surrogate or a NUL in its names: the circle's page, its file and its evening answer."""
    store = _circles(app)
    bad = dict(TROGGU.settings, players=["An\ud800na", "B\x00eat", "<i>Carla</i>", "Dario"])
    match = app.extensions["referee.store"].create("troggu", bad, TROGGU.hands)
    # (the circle's page names its people as the circle does: one of them named so too)
    store.add_match(family, match, ["Anna", "Beat", "<i>Carla</i>", "Dario"])
    page = client.get(f"/c/{family}")
    assert page.status_code == 200 and "&lt;i&gt;Carla" in page.get_data(as_text=True)
    assert client.get(f"/c/{family}/circle.json").status_code == 200
    today = store.matches(family)[0].created.date().isoformat()
    assert client.get(f"/c/{family}/evenings/{today}.pdf").status_code == 200


def test_a_circles_link_or_code_opens_it_from_join(
        app: Flask, post: Callable[..., Page], family: str) -> None:
    """Another phone pastes the circle's link (or types its code) under Join: the circle
    opens, and that browser lists it from then on."""
    other = app.test_client()
    for code in (f"http://192.168.1.20:5000/c/{family}", f" {family} "):
        answer = other.get("/join", query_string={"code": code})
        assert answer.status_code == 302 and answer.headers["Location"] == f"/c/{family}"
    assert other.get(f"/c/{family}").status_code == 200
    assert family in other.get("/").get_data(as_text=True)
    assert app.test_client().get("/join", query_string={
        "code": f"/c/{family[:-2]}xx"}).status_code == 422


def test_in_the_evening_ties_go_to_the_earlier_seat(
        app: Flask, client: FlaskClient, family: str) -> None:
    """Rule 7.5.3's ties go to the earlier seat: the evening's seats are its people in the
    order they first sat down. Carla joined the circle first, but sat third at the first
    match. The same hands twice, the second time seated the other way round: Anna −110 − 30
    = −140, Beat +50 + 90 = +140, Carla +90 + 50 = +140, Dario −30 − 110 = −140. The largest
    debts tie (Anna, Dario: Anna sat earlier) and so do the largest credits (Beat, Carla: Beat
    sat earlier): Anna pays Beat 140, then Dario pays Carla 140."""
    store = _circles(app)
    store.add_player(family, "Carla")
    store.start_match(family, "troggu", TROGGU.settings,
                      ["Anna", "Beat", _players(app, family)["Carla"], "Dario"], TROGGU.hands,
                      datetime(2026, 11, 30, 19))
    ids = _players(app, family)
    store.start_match(family, "troggu", dict(TROGGU.settings, players=[
        "Dario", "Carla", "Beat", "Anna"]), [ids[n] for n in ("Dario", "Carla", "Beat", "Anna")],
        TROGGU.hands, datetime(2026, 11, 30, 21))
    text = Page.of(client.get(f"/c/{family}")).text
    assert "Anna −140 Beat +140 Carla +140 Dario −140" in " ".join(text.split())
    assert re.findall(r"(\w+) pays (\w+) (\d+) Rappen", text) == [
        ("Anna", "Beat", "140"), ("Dario", "Carla", "140")]


def _troggu_won_by(seat: int, players: list[str]) -> matchfile.MatchFile:
    """A Troggu match of 30 November (a match file keeps the day only): one normal game won
    by the declarer in ``seat`` (+10 from each other player, stake 10)."""
    return matchfile.load({
        "format": "referee-match", "version": 1, "game": "troggu", "created": "2026-11-30",
        "settings": {"players": players, "first_dealer": 0, "stake": 10},
        "hands": [{"game": "normal", "declarer": seat,
                   "end": {"points": 70, "tricks": None, "loser_took_trick": True}}]})


def test_imported_matches_of_one_day_sit_in_the_order_they_joined_the_circle(
        client: FlaskClient, post: Callable[..., Page]) -> None:
    """Issue 21, item 5: matches imported with their circle all start at midnight of their
    day; the evening took the last one added for the first, so the seats' order (rule 7.5.3:
    ties go to the earlier seat) was turned round. Match A seats Xaver, Yvonne, Zora, Walt
    (Zora +30), match B Yvonne, Xaver, Walt (Walt +20): Xaver −20, Yvonne −20, Zora +30,
    Walt +10. Xaver sat before Yvonne and Zora before Walt: Xaver pays Zora 20, then Yvonne
    pays Zora 10 and Walt 10 (it was: Yvonne pays Zora 20, Xaver pays Walt 10 and Zora 10)."""
    people = ["Walt", "Yvonne", "Zora", "Xaver"]       # the circle's list: not the seats
    a = ["Xaver", "Yvonne", "Zora", "Walt"]
    b = ["Yvonne", "Xaver", "Walt"]
    body = json.dumps(circlefile.dump(circlefile.CircleFile("Friday", "2026-11-01", people, [
        (_troggu_won_by(2, a), [people.index(n) for n in a]),
        (_troggu_won_by(2, b), [people.index(n) for n in b])])))
    page = post("/circles/import", {"circle_file": (io.BytesIO(body.encode()), "c.json")},
                content_type="multipart/form-data")
    assert page.status == 302, page.errors
    text = " ".join(Page.of(client.get(page.location)).text.split())
    assert "Xaver −20 Yvonne −20 Zora +30 Walt +10" in text, text
    assert re.findall(r"(\w+) pays (\w+) (\d+) Rappen", text) == [
        ("Xaver", "Zora", "20"), ("Yvonne", "Zora", "10"), ("Yvonne", "Walt", "10")]


def test_the_latest_evenings_are_shown_and_earlier_ones_listed(
        app: Flask, client: FlaskClient, family: str) -> None:
    store = _circles(app)
    for day in range(1, 8):
        store.start_match(family, "troggu", TROGGU.settings,
                          ["Anna", "Beat", "Carla", "Dario"] if day == 1 else
                          [p for p in _players(app, family).values()], TROGGU.hands,
                          datetime(2026, 11, day, 20))
    page = Page.of(client.get(f"/c/{family}"))
    shown = re.findall(r'id="evening-([\d-]+)"', page.html)
    assert shown == [f"2026-11-0{d}" for d in (7, 6, 5, 4, 3)]
    for day in ("2026-11-02", "2026-11-01"):
        assert f"/c/{family}/evenings/{day}.pdf" in page.html


def test_an_existing_database_gets_the_circle_tables_on_start(database_url: str) -> None:
    """A database made by a Referee before circles: the next start adds their tables, and the
    matches it held can join a circle."""
    from referee import create_app

    first = create_app({"TESTING": True, "DATABASE_URL": database_url})
    match = first.extensions["referee.store"].create("tartli", TARTLI, [])
    engine = first.extensions["referee.store"].engine
    with engine.begin() as conn:
        for table in (circle_changes, circle_seats, circle_matches, circle_players, circles):
            table.drop(conn)
    engine.dispose()
    again = create_app({"TESTING": True, "DATABASE_URL": database_url})
    try:
        store = _circles(again)
        token = store.create("Old friends")
        store.add_match(token, match, ["Ágnes", "Tamás"])
        assert [m.id for m in store.matches(token)] == [match]
    finally:
        again.extensions["referee.store"].engine.dispose()


def test_players_stored_before_names_were_compared_so_are_compared_so_on_start(
        database_url: str) -> None:
    """A player stored when "Anna" + U+FE0F was another name than "Anna" (its key kept the
    selector): the next start gives it its name's key, so "Anna" is refused as the same
    person; two such players of one circle stay apart, as they were."""
    from referee import create_app

    first = create_app({"TESTING": True, "DATABASE_URL": database_url})
    store = _circles(first)
    token, other = store.create("Old friends"), store.create("Two Annas")
    store.add_player(token, "Anna\ufe0f")
    store.add_player(other, "Anna")
    engine = first.extensions["referee.store"].engine
    with engine.begin() as conn:     # the keys as an earlier Referee made them
        conn.execute(circle_players.update().where(circle_players.c.circle_id == token)
                     .values(name_key="anna\ufe0f"))
        conn.execute(circle_players.insert().values(circle_id=other, name="ANNA\ufe0f",
                                                    name_key="anna\ufe0f"))
    engine.dispose()
    again = create_app({"TESTING": True, "DATABASE_URL": database_url})
    try:
        store = _circles(again)
        with pytest.raises(CircleRefused, match="Anna\ufe0f is already a player"):
            store.add_player(token, "Anna")
        assert [p.name for p in store.load(other).players] == ["Anna", "ANNA\ufe0f"]
    finally:
        again.extensions["referee.store"].engine.dispose()
