"""The circle file goes out and comes back (issue 24): compact, written match by match, the
same bytes as ``circlefile.dumps``; and the pages keep a circle within its file's limits, so
that its own export always imports back."""

from __future__ import annotations

import copy
import io
import json
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from matches.test_history import delete_url
from webtools import A, B, Page, Table, hand, played

from circles.test_circles import (  # noqa: F401  (the fixtures; post: conftest)
    TARTLI,
    TARTLI_FORM,
    _circles,
    _players,
    _rows,
    _token,
    family,
)
from referee.engine import circlefile, matchfile
from referee.stats.circlecsv import circle_csv
from referee.web.circles import files
from referee.web.circles.stats import circle_played

DATA = Path(__file__).parents[2] / "data"
# four games, two languages besides English, two matches of one day (kept in their order)
MATCHES = [("marjolet-game", "2026-03-14", "fr", [6, 7]),
           ("tartli-complete", "2026-11-29", "hu", [0, 1]),
           ("troggu-evening", "2026-11-30", "en", [2, 3, 4, 5]),
           ("stovkahra-series", "2026-11-30", "de_CH", [8, 9, 10, 11])]
PLAYERS = ["Zsófi", "Gergő", "Anna", "Beat", "Carla", "Dario", "Anne", "Bruno", "Jana", "Petr",
           "Eva", "Karel"]


def streamed(app: Flask, path: str) -> bytes:
    """The answer to GET ``path``, checked to be streamed: the app's own response (the test
    client's always is) is a generator, not a body made whole."""
    with app.test_request_context(path):
        response = app.full_dispatch_request()
        assert response.status_code == 200 and response.is_streamed
        assert not isinstance(response.response, (list, tuple, bytes, str))
        return response.get_data()


def circle_data() -> dict[str, Any]:
    entries = []
    for name, created, language, people in MATCHES:
        match = json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))
        match.update(created=created, language=language)
        entries.append({"match": match, "people": people})
    return {"format": "referee-circle", "version": 1, "name": "Club “Ász”",
            "created": "2026-03-01", "players": PLAYERS, "matches": entries}


def test_chunks_are_the_text_dumps_writes() -> None:
    loaded = circlefile.load(circle_data())
    for matches in (loaded.matches, loaded.matches[:1], []):
        c = circlefile.CircleFile(loaded.name, loaded.created, loaded.players, matches)
        assert "".join(circlefile.chunks(c, iter(matches))) == circlefile.dumps(c)
        assert circlefile.load(circlefile.dumps(c)) == c


def test_the_export_is_compact_streamed_and_imports_back_on_every_database(
        db_app_nocsrf: Flask) -> None:
    client = db_app_nocsrf.test_client()
    loaded = circlefile.load(circle_data())
    imported = client.post("/circles/import", data={
        "circle_file": (io.BytesIO(json.dumps(circle_data()).encode()), "c.json")},
        content_type="multipart/form-data")
    assert imported.status_code == 302, imported.get_data(as_text=True)[:500]
    token = _token(imported.headers["Location"])
    body = streamed(db_app_nocsrf, f"/c/{token}/circle.json")
    assert client.get(f"/c/{token}/circle.json").get_data() == body
    ratings = json.loads(body)["ratings"]                    # derived: read by people only
    assert body == circlefile.dumps(loaded, ratings).encode()  # the same bytes, languages too
    assert body.count(b"\n") == 1 and b'": ' not in body and b'", "' not in body
    assert circlefile.load(body) == loaded
    again = client.post("/circles/import", data={"circle_file": (io.BytesIO(body), "c.json")},
                        content_type="multipart/form-data")
    assert again.status_code == 302
    copy_token = _token(again.headers["Location"])
    assert client.get(f"/c/{copy_token}/circle.json").get_data() == body


def test_the_store_gives_the_circle_then_its_matches_oldest_first(db_app_nocsrf: Flask) -> None:
    loaded = circlefile.load(circle_data())
    store = _circles(db_app_nocsrf)
    token = store.import_circle(
        loaded.name, datetime(2026, 3, 1), loaded.players,
        [(m.game, m.settings, m.hands, datetime.fromisoformat(m.created), people)
         for m, people in loaded.matches],
        languages=[m.language for m, _ in loaded.matches])
    circle, *played = store.played(token)
    assert [p.name for p in circle.players] == PLAYERS        # type: ignore[union-attr]
    assert [(m.game, m.language, m.hands) for m in played] == [  # type: ignore[union-attr]
        (m.game, m.language, m.hands) for m, _ in loaded.matches]
    assert list(store.played("no-such-circle")) == []
    size = store.size(token)
    assert (size.players, size.matches, size.hands) == (12, 4, sum(
        len(m.hands) for m, _ in loaded.matches))
    assert files.most_bytes(size) >= len(circlefile.dumps(loaded).encode())


# -- the limits ----------------------------------------------------------------------------

def test_a_full_circle_takes_no_other_player(
        app: Flask, post: Callable[..., Page], family: str,  # noqa: F811
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(circlefile, "MAX_PLAYERS", 3)
    for name in ("Anna", "Beat", "Carla"):
        assert post(f"/c/{family}/players", {"player": name}).status == 302
    before = _rows(app)
    page = post(f"/c/{family}/players", {"player": "Dario"})
    assert page.status == 422
    assert ("A circle holds at most 3 players, as its circle file does, and this one is full: "
            "pick players from the list. Nothing was saved." in page.errors), page.errors
    assert page.value("player") == "Dario"
    # nor a new name in a seat of a new match (the seats of listed players are fine)
    ids = _players(app, family)
    page = post(f"/c/{family}/new/tartli", {"who-0": str(ids["Anna"]), "name-1": "Dario",
                                            **TARTLI_FORM})
    assert page.status == 422
    assert "A circle holds at most 3 players" in " ".join(page.errors), page.errors
    assert _rows(app) == before
    page = post(f"/c/{family}/new/tartli", {"who-0": str(ids["Anna"]),
                                            "who-1": str(ids["Beat"]), **TARTLI_FORM})
    assert page.status == 302, page.errors


def test_a_full_circle_starts_or_adds_no_other_match(
        app: Flask, client: FlaskClient, post: Callable[..., Page], family: str,  # noqa: F811
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(circlefile, "MAX_MATCHES", 1)
    assert post(f"/c/{family}/new/tartli", {"name-0": "Ágnes", "name-1": "Tamás",
                                            **TARTLI_FORM}).status == 302
    ids = _players(app, family)
    seats = {"who-0": str(ids["Ágnes"]), "who-1": str(ids["Tamás"])}
    other = app.extensions["referee.store"].create("tartli", TARTLI, [])
    before = _rows(app)
    page = post(f"/c/{family}/new/tartli", {**seats, **TARTLI_FORM})
    assert page.status == 422
    assert ("A circle holds at most 1 match, as its circle file does, and this one is full: "
            "play this match outside the circle (New match on the home page). Nothing was "
            "saved." in page.errors), page.errors
    for data in ({"code": other}, {"code": other, "seats": "1", **seats}):
        page = post(f"/c/{family}/add", data)
        assert page.status == 422
        assert "A circle holds at most 1 match" in " ".join(page.errors), page.errors
    assert _rows(app) == before


def test_a_circle_keeps_room_in_hands_for_each_match_to_grow_full(
        app: Flask, client: FlaskClient, csrf_token: Callable[..., str],
        post: Callable[..., Page], family: str,  # noqa: F811
        monkeypatch: pytest.MonkeyPatch) -> None:
    table = Table(app, client, csrf_token)
    monkeypatch.setattr(matchfile, "MAX_HANDS", 5)
    monkeypatch.setattr(circlefile, "MAX_HANDS", 7)
    first = _circles(app).start_match(family, "tartli", TARTLI, ["Ágnes", "Tamás"],
                                      [hand("8h", end=played((80, 71), A)),
                                       hand("9l", end=played((100, 51), A)),
                                       hand("Ab", end=played((60, 91), B))])
    ids = _players(app, family)
    seats = {"who-0": str(ids["Ágnes"]), "who-1": str(ids["Tamás"])}
    before = _rows(app)
    page = post(f"/c/{family}/new/tartli", {**seats, **TARTLI_FORM})   # 3 + room for 5 > 7
    assert page.status == 422
    assert ("A circle holds at most 7 hands in all its matches, as its circle file does, and "
            "this one has no room left for another match to grow to 5 hands: play this match "
            "outside the circle (New match on the home page). Nothing was saved."
            in page.errors), page.errors
    assert _rows(app) == before
    other = app.extensions["referee.store"].create("tartli", TARTLI, [])
    page = post(f"/c/{family}/add", {"code": other})                  # nor added
    assert page.status == 422
    assert "A circle holds at most 7 hands in all its matches" in " ".join(page.errors)
    assert _circles(app).circle_of(other) is None
    # a hand at the circle's table is never refused for the circle's sake
    assert table.indicator(first, 4, "9l").status == 302
    for n in (4, 3):
        assert table.post(delete_url(table, first, n)).status == 302
    assert post(f"/c/{family}/new/tartli", {**seats, **TARTLI_FORM}).status == 302   # 2 + 5


def test_a_circle_keeps_room_in_bytes_for_a_full_match(
        app: Flask, post: Callable[..., Page], family: str,  # noqa: F811
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert post(f"/c/{family}/new/tartli", {"name-0": "Ágnes", "name-1": "Tamás",
                                            **TARTLI_FORM}).status == 302
    ids = _players(app, family)
    seats = {"who-0": str(ids["Ágnes"]), "who-1": str(ids["Tamás"])}
    with app.app_context():
        written = files.file_bytes(family)
    estimated = files.most_bytes(_circles(app).size(family))
    assert estimated > written
    monkeypatch.setattr(files, "MATCH_ROOM", 1_000)
    # more than the estimate leaves room for, but the file itself does: taken
    monkeypatch.setattr(circlefile, "MAX_BYTES", written + 1_000)
    assert post(f"/c/{family}/new/tartli", {**seats, **TARTLI_FORM}).status == 302
    with app.app_context():
        monkeypatch.setattr(circlefile, "MAX_BYTES", files.file_bytes(family) + 999)
    page = post(f"/c/{family}/new/tartli", {**seats, **TARTLI_FORM})
    assert page.status == 422
    assert ("A circle's file holds at most 0 MB, and this circle's has no room left for "
            "another match: play this match outside the circle (New match on the home page). "
            "Nothing was saved." in page.errors), page.errors


def test_the_largest_match_fits_the_room_a_circle_keeps_for_it() -> None:
    """MATCH_ROOM is at least the largest match the app holds, as the circle file writes it."""
    import random

    from tests.bench import largest

    settings, hands = largest.largest_match("marjolet", random.Random())
    m = matchfile.load({"format": "referee-match", "version": 1, "game": "marjolet",
                        "created": "2026-12-01", "language": "de_CH",
                        "settings": settings, "hands": hands})
    c = circlefile.CircleFile("Club", "2026-12-01", ["Ágnes", "Tamás"], [(m, [0, 1])])
    alone = len(circlefile.dumps(circlefile.CircleFile("Club", "2026-12-01", ["Ágnes", "Tamás"],
                                                       [])).encode())
    assert 1_000_000 < len(circlefile.dumps(c).encode()) - alone <= files.MATCH_ROOM
    assert copy.deepcopy(circlefile.load(circlefile.dumps(c))) == c


def test_the_hands_csv_is_streamed_as_the_circle_csv_writes_it(db_app_nocsrf: Flask) -> None:
    client = db_app_nocsrf.test_client()
    imported = client.post("/circles/import", data={
        "circle_file": (io.BytesIO(json.dumps(circle_data()).encode()), "c.json")},
        content_type="multipart/form-data")
    token = _token(imported.headers["Location"])
    empty = _token(client.post("/circles", data={"circle_name": "Empty"}).headers["Location"])
    for circle in (token, empty):
        body = streamed(db_app_nocsrf, f"/c/{circle}/hands.csv").decode()
        with db_app_nocsrf.test_request_context():
            found = _circles(db_app_nocsrf).load(circle)
            assert found is not None
            assert body == "\ufeff" + circle_csv(reversed(circle_played(found)))
        assert ("Side 4 total" in body.splitlines()[0]) == (circle == token)  # the widest
