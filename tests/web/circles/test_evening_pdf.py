"""The PDF of a circle's evening (issue 24): made once per version of what it shows for every
process of the server (the evening's matches at their versions, the names, the language),
made again when one of its matches changes, answered "being made" while another process makes
it."""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee import create_app, scoresheet
from referee.engine import matchfile
from referee.web.store import Circles

DATA = Path(__file__).parents[2] / "data"
TROGGU = matchfile.load((DATA / "troggu-evening.json").read_bytes())
DAY = "2026-11-30"


class Made:
    """Stands in for WeasyPrint: a "PDF" naming the page it was made from; counts them, and
    holds each until ``go`` is set."""

    def __init__(self) -> None:
        self.pages: list[str] = []
        self.go = threading.Event()
        self.go.set()

    def __call__(self, html: str) -> bytes:
        assert self.go.wait(30)
        self.pages.append(html)
        return b"%PDF " + hashlib.sha256(html.encode()).hexdigest().encode()


@pytest.fixture
def made(monkeypatch: pytest.MonkeyPatch) -> Iterator[Made]:
    fake = Made()
    monkeypatch.setattr(scoresheet, "html_to_pdf", fake)
    yield fake


def evening(app: Flask) -> tuple[str, list[str]]:
    """A circle with two Troggu matches on 30 November: its token and the matches'."""
    circles: Circles = app.extensions["referee.circles"]
    token = circles.create("Family")
    people = ["Anna", "Beat", "Carla", "Dario"]
    matches = [circles.start_match(token, "troggu", TROGGU.settings, people, TROGGU.hands,
                                   datetime(2026, 11, 30, 19, 5))]
    people = [p.id for p in (circles.load(token) or pytest.fail()).players]
    matches.append(circles.start_match(token, "troggu", TROGGU.settings, people[::-1],
                                       TROGGU.hands, datetime(2026, 11, 30, 21)))
    return token, matches


def other_process(app: Flask) -> Flask:
    return create_app({"TESTING": True, "DATABASE_URL": app.config["DATABASE_URL"],
                       "PDF_FOLDER": app.config["PDF_FOLDER"]})


def ask(client: FlaskClient, token: str) -> bytes:
    response = client.get(f"/c/{token}/evenings/{DAY}.pdf")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    return response.data


def test_an_evening_is_made_once_per_version_for_every_process(
        app: Flask, client: FlaskClient, made: Made) -> None:
    token, matches = evening(app)
    first = ask(client, token)
    assert ask(client, token) == first
    assert ask(other_process(app).test_client(), token) == first
    assert len(made.pages) == 1
    # in another language: another PDF
    french = client.get(f"/c/{token}/evenings/{DAY}.pdf", headers={"Accept-Language": "fr"})
    assert french.status_code == 200 and len(made.pages) == 2
    # the first hand of one of its matches deleted: a new version of the evening, made anew
    store = app.extensions["referee.store"]
    stored = store.load(matches[1])
    store.save_hands(matches[1], stored.hands, stored.hands[1:], "deleted")
    changed = ask(other_process(app).test_client(), token)
    assert changed != first and len(made.pages) == 3
    assert ask(client, token) == changed and len(made.pages) == 3
    # the older version's file is gone; the French one stays
    names = sorted(p.name.split(".")[0] for p in Path(app.config["PDF_FOLDER"]).iterdir())
    assert names == [f"evening+{token}+{DAY}+en", f"evening+{token}+{DAY}+fr"]


def test_an_evening_being_made_elsewhere_is_answered_being_made(
        app: Flask, client: FlaskClient, made: Made) -> None:
    token, _ = evening(app)
    made.go.clear()
    answers: dict[str, bytes] = {}
    making = threading.Thread(target=lambda: answers.update(first=ask(client, token)))
    making.start()
    try:
        while not list(Path(app.config["PDF_FOLDER"]).glob("*.lock")):
            assert making.is_alive()
            time.sleep(0.01)
        other = other_process(app)
        other.extensions["referee.scoresheets"].wait = 0.2
        busy = other.test_client().get(f"/c/{token}/evenings/{DAY}.pdf")
        assert busy.status_code == 503 and busy.headers["Retry-After"] == "3"
        page = busy.get_data(as_text=True)
        assert "The PDF of the evening is being made; it will be ready in a moment." in page
        assert '<meta http-equiv="refresh" content="3">' in page
        assert f'href="/c/{token}"' in page
    finally:
        made.go.set()
        making.join(30)
    assert ask(other.test_client(), token) == answers["first"]
    assert len(made.pages) == 1
