"""A large circle import does not stall the other tables (issue 21): a circle's matches are
written in short transactions, one a match, the circle itself last (seen only once complete);
what one import may hold is bounded and refused before any of it is read.

The import runs on a thread while the test posts a hand to another match: the hand must be
stored while the import is still under way, on SQLite and PostgreSQL. That is a bound on
blocking, not a timing: the import is kept from finishing until the hand is stored (or 30
seconds have passed, which fails the test)."""

from __future__ import annotations

import io
import json
import threading
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from referee.engine import circlefile, matchfile
from referee.engine.errors import RuleViolation
from referee.web.store import Circles, Store, circles
from store.storestate import snapshot

DATA = Path(__file__).parents[2] / "data"
TARTLI = {"players": ["Ágnes", "Tamás"], "target": 5, "first_dealer": 0}
TROGGU = {"players": ["Anna", "Beat", "Carla", "Dario"], "first_dealer": 0, "stake": 10}
PASSED = {"bids": ["pass"] * 4, "game": "misere", "end": {"points": [20, 20, 20, 20]}}
MATCHES, HANDS = 60, 200              # 12,000 hands of everyone passing


def _circle_count(store: Store) -> int:
    with store.engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(circles)).scalar_one())


def test_a_hand_posted_during_a_large_import_is_stored_before_it_ends(
        db_app_nocsrf: Flask) -> None:
    store: Store = db_app_nocsrf.extensions["referee.store"]
    circle_store: Circles = db_app_nocsrf.extensions["referee.circles"]
    other = store.create("tartli", TARTLI, [])
    [hand] = matchfile.load({"format": "referee-match", "version": 1, "game": "troggu",
                             "created": "2026-11-30", "settings": TROGGU,
                             "hands": [PASSED]}).hands
    played = [("troggu", TROGGU, [hand] * HANDS, datetime(2026, 11, 30), [0, 1, 2, 3])
              for _ in range(MATCHES)]
    started, posted = threading.Event(), threading.Event()
    seen: dict[str, Any] = {}

    def progress(written: int) -> None:
        if written == 1:
            started.set()
        if written == MATCHES - 1:            # the import may not end before the hand is in
            seen["in time"] = posted.wait(30)

    def run() -> None:
        try:
            seen["token"] = circle_store.import_circle(
                "Club", datetime(2026, 11, 30), TROGGU["players"], played, progress=progress)
        except BaseException as error:       # told to the test below
            seen["error"] = error
            started.set()

    importing = threading.Thread(target=run)
    importing.start()
    try:
        assert started.wait(60)
        client = db_app_nocsrf.test_client()
        response = client.post(f"/m/{other}/hands/1/indicator",
                               data={"indicator-indicator": "9l"})
        stored = store.load(other)
        assert response.status_code in (200, 302), response.get_data(as_text=True)[:500]
        assert stored is not None and len(stored.hands) == 1
        assert "token" not in seen and importing.is_alive()
        assert _circle_count(store) == 0          # the circle is seen only once complete
    finally:
        posted.set()
        importing.join(120)
    assert "error" not in seen and seen["in time"]
    assert _circle_count(store) == 1
    found = circle_store.matches(seen["token"])
    assert len(found) == MATCHES and {len(m.hands) for m in found} == {HANDS}


def test_an_import_that_fails_half_way_leaves_nothing(db_app: Flask) -> None:
    store: Store = db_app.extensions["referee.store"]
    circle_store: Circles = db_app.extensions["referee.circles"]
    store.create("tartli", TARTLI, [])
    before = snapshot(db_app)

    def fail(written: int) -> None:
        if written == 3:
            raise RuntimeError("the server stops")

    played = [("tartli", TARTLI, [], datetime(2026, 11, 30), [0, 1])] * 5
    with pytest.raises(RuntimeError):
        circle_store.import_circle("Club", datetime(2026, 11, 30), TARTLI["players"], played,
                                   progress=fail)
    assert snapshot(db_app) == before and _circle_count(store) == 0


# -- the limits, refused before any match is read ---------------------------------------------

def _file(matches: int, hands: int) -> bytes:
    match = {"format": "referee-match", "version": 1, "game": "tartli",
             "created": "2026-11-30", "settings": TARTLI, "hands": [{}] * hands}
    return json.dumps({"format": "referee-circle", "version": 1, "name": "Club",
                       "created": "2026-11-30", "players": TARTLI["players"],
                       "matches": [{"match": match, "people": [0, 1]}] * matches}).encode()


@pytest.mark.parametrize(("matches", "hands", "says"), [
    (circlefile.MAX_MATCHES + 1, 0, "A circle file holds at most 1000 matches"),
    (51, 1_000, "A circle file holds at most 50000 hands in all its matches, not 51000"),
    (1_000, 51, "A circle file holds at most 50000 hands in all its matches, not 51000"),
])
def test_a_circle_file_over_the_limits_is_refused_before_it_is_read(
        app: Flask, client: FlaskClient, csrf_token: Callable[..., str],
        monkeypatch: pytest.MonkeyPatch, matches: int, hands: int, says: str) -> None:
    def unread(*_: Any, **__: Any) -> None:
        pytest.fail("a match of the file was read")

    monkeypatch.setattr(matchfile, "load", unread)
    before = snapshot(app)
    response = client.post("/circles/import", data={
        "csrf_token": csrf_token("/"), "circle_file": (io.BytesIO(_file(matches, hands)),
                                                       "c.json")},
        content_type="multipart/form-data")
    assert response.status_code == 422
    assert says in response.get_data(as_text=True)
    assert snapshot(app) == before and _circle_count(app.extensions["referee.store"]) == 0


def test_a_circle_file_at_the_limit_of_hands_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    match = json.loads((DATA / "tartli-short.json").read_text())          # 4 hands
    data = json.dumps({"format": "referee-circle", "version": 1, "name": "Club",
                       "created": "2026-11-30", "players": TARTLI["players"],
                       "matches": [{"match": match, "people": [0, 1]}] * 3})
    monkeypatch.setattr(circlefile, "MAX_HANDS", 12)
    assert len(circlefile.load(data).matches) == 3
    monkeypatch.setattr(circlefile, "MAX_HANDS", 11)
    with pytest.raises(RuleViolation, match="at most 11 hands in all its matches, not 12"):
        circlefile.load(data)


def test_one_import_at_a_time(app: Flask, client: FlaskClient,
                              csrf_token: Callable[..., str]) -> None:
    """A second import while one runs is refused at once (429), nothing stored."""
    circle_store: Circles = app.extensions["referee.circles"]
    before = snapshot(app)
    with circle_store.importing:
        response = client.post("/circles/import", data={
            "csrf_token": csrf_token("/"), "circle_file": (io.BytesIO(_file(1, 0)), "c.json")},
            content_type="multipart/form-data")
    assert response.status_code == 429
    assert "Another circle file is being imported" in response.get_data(as_text=True)
    assert snapshot(app) == before
    response = client.post("/circles/import", data={
        "csrf_token": csrf_token("/"), "circle_file": (io.BytesIO(_file(1, 0)), "c.json")},
        content_type="multipart/form-data")
    assert response.status_code == 302
