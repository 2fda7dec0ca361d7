"""A circle's ratings (issue 24): the leaderboard, the chart and the matches in words on the
statistics page, the circle file's "ratings" (a round trip imports and rates the same), and the
Troggu evening's PDF. The numbers are openskill's Plackett–Luce on the scale 1000 + 40 ×
ordinal (tests/stats/test_ratings.py checks them against openskill itself): a first win
between newcomers is 1137.5 (shown 1138) against 926.7 (927)."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable
from datetime import datetime
from html import unescape
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from pypdf import PdfReader
from webtools import Page

from referee.engine import matchfile
from referee.engine.games import get
from referee.web.store import Circles
from tests.web.circles.test_circles import family  # noqa: F401 - a fixture (post: conftest)

DATA = Path(__file__).resolve().parents[2] / "data"
COMPLETE = matchfile.load((DATA / "tartli-complete.json").read_bytes())   # seat 0 wins 5–0
TROGGU = matchfile.load((DATA / "troggu-evening.json").read_bytes())   # −110, +50, +90, −30


def _circles(app: Flask) -> Circles:
    found: Circles = app.extensions["referee.circles"]
    return found


def tartli(names: list[str]) -> dict[str, Any]:
    return get("tartli").settings({**COMPLETE.settings, "players": names})


def win(app: Flask, token: str, winner: str, loser: str, when: datetime) -> None:
    """A finished Tartli match that ``winner`` wins 5 buli to 0 (new names join)."""
    store = _circles(app)
    circle = store.load(token)
    assert circle is not None
    ids = {p.name: p.id for p in circle.players}
    store.start_match(token, "tartli", tartli([winner, loser]),
                      [ids.get(winner, winner), ids.get(loser, loser)], COMPLETE.hands, when)


def words(html: str) -> str:
    html = re.sub(r"<svg\b.*?</svg>", " ", html, flags=re.S)
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def ratings(page: Page, game: str) -> str:
    assert f'id="ratings-{game}"' in page.html, game
    return words(page.html.split(f'id="ratings-{game}"')[1].split("</section>")[0])


def test_the_leaderboard_chart_and_matches_in_words(db_app: Flask) -> None:
    store = _circles(db_app)
    token = store.create("Club")
    win(db_app, token, "Anna", "Bela", datetime(2026, 11, 28, 20))
    win(db_app, token, "Bela", "Carla", datetime(2026, 11, 29, 20))
    client = db_app.test_client()
    page = Page.of(client.get(f"/c/{token}/statistics"))
    assert page.status == 200
    text = ratings(page, "tartli")
    #         rank name provisional rating matches
    assert ("1 Anna provisional 1138 1 2 Bela provisional 1066 2 "
            "3 Carla provisional 915 1") in text, text
    assert ("Match by match 2026-11-29: Bela +139 after beating Carla 5–0; Carla −85 "
            "2026-11-28: Anna +138 after beating Bela 5–0; Bela −73") in text, text
    chart = page.html.split('id="rating-chart-tartli"')[1].split("</details>")[0]
    assert "<svg" in chart
    assert ("Tartli: the rating of each player after each day, 2026-11-28 to 2026-11-29: "
            "Anna 1138, Bela 1066, Carla 915") in unescape(chart)
    assert chart.count('class="series ') == 3
    # every finished match, whatever the days of the figures
    later = Page.of(client.get(f"/c/{token}/statistics?from=2026-11-29"))
    assert ratings(later, "tartli") == text
    assert 'id="ratings-troggu"' not in page.html          # no Troggu match


def test_twenty_matches_in_words_and_how_many_more(db_app: Flask) -> None:
    store = _circles(db_app)
    token = store.create("Club")
    for day in range(1, 23):                   # Anna and Bela take turns, 22 matches
        first, second = ("Anna", "Bela") if day % 2 else ("Bela", "Anna")
        win(db_app, token, first, second, datetime(2026, 11, day, 20))
    page = Page.of(db_app.test_client().get(f"/c/{token}/statistics"))
    text = ratings(page, "tartli")
    lines = page.html.split('id="ratings-tartli"')[1].split('class="pairs rating-lines"')[1]
    assert lines.split("</ul>")[0].count("<li>") == 20
    assert "Tartli # Player Rating Matches rated 1 Bela 1456 22 2 Anna 1403 22" in text, text
    assert "2026-11-22: Bela" in text and "2026-11-03:" in text and "2026-11-02:" not in text
    assert "and 2 earlier matches" in text
    assert "provisional" not in text and " 22 " in text


def test_a_circle_file_carries_the_ratings_and_imports_back_to_the_same(
        app: Flask, client: FlaskClient, post: Callable[..., Page],  # noqa: F811
        family: str) -> None:  # noqa: F811
    """Built match by match or imported at once: the same ratings (the file keeps only the
    day; the matches of a day stand in the order they joined)."""
    win(app, family, "Anna", "Bela", datetime(2026, 11, 28, 20))
    win(app, family, "Carla", "Anna", datetime(2026, 11, 28, 22))
    win(app, family, "Bela", "Carla", datetime(2026, 11, 29, 9))
    store = _circles(app)
    circle = store.load(family)
    assert circle is not None
    ids = {p.name: p.id for p in circle.players}
    store.start_match(family, "troggu", TROGGU.settings,
                      [ids["Anna"], ids["Bela"], ids["Carla"], "Dario"], TROGGU.hands,
                      datetime(2026, 11, 30, 19))
    exported = client.get(f"/c/{family}/circle.json")
    data = json.loads(exported.data)
    rated = data["ratings"]["games"]
    assert sorted(rated) == ["tartli", "troggu"]
    assert [p["person"] for p in rated["troggu"]["players"]] == ["Carla", "Bela", "Dario",
                                                                 "Anna"]
    assert [m["sides"] for m in rated["tartli"]["matches"]] == [
        [["Anna"], ["Bela"]], [["Carla"], ["Anna"]], [["Bela"], ["Carla"]]]
    assert {p["person"]: p["matches"] for p in rated["tartli"]["players"]} == {
        "Anna": 2, "Bela": 2, "Carla": 2}
    # the ratings are read and ignored: whatever they say, the file imports
    data["ratings"] = {"anything": ["the reader ignores it"]}
    page = post("/circles/import",
                {"circle_file": (io.BytesIO(json.dumps(data).encode()), "c.json")},
                content_type="multipart/form-data")
    assert page.status == 302, page.errors
    copy = page.location.split("/c/")[1].split("#")[0]
    again = json.loads(client.get(f"/c/{copy}/circle.json").data)
    assert again["ratings"] == json.loads(exported.data)["ratings"]
    for game in ("tartli", "troggu"):
        assert ratings(Page.of(client.get(f"/c/{copy}/statistics")), game) == ratings(
            Page.of(client.get(f"/c/{family}/statistics")), game)


def test_the_evening_pdf_has_the_players_ratings_after_the_evening(db_app: Flask) -> None:
    store = _circles(db_app)
    token = store.create("Club")
    store.start_match(token, "troggu", TROGGU.settings, ["Anna", "Beat", "Carla", "Dario"],
                      TROGGU.hands, datetime(2026, 11, 30, 19))
    circle = store.load(token)
    assert circle is not None
    ids = {p.name: p.id for p in circle.players}
    # the next evening, the same seats: its ratings are not the first evening's
    store.start_match(token, "troggu", TROGGU.settings,
                      [ids[n] for n in ("Anna", "Beat", "Carla", "Dario")], TROGGU.hands,
                      datetime(2026, 12, 1, 19))
    client = db_app.test_client()
    pdf = client.get(f"/c/{token}/evenings/2026-11-30.pdf")
    assert pdf.status_code == 200
    text = " ".join("".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.data)).pages)
                    .split())
    assert "Ratings after the evening" in text, text
    rows = re.findall(r"(\w+) \(provisional\) (\d+) ([+−]\d+) (\d+)", text)
    # after the first evening alone, ranked by balance: +90, +50, −30, −110
    assert rows == [("Carla", "1120", "+120", "1"), ("Beat", "1081", "+81", "1"),
                    ("Dario", "1017", "+17", "1"), ("Anna", "868", "−132", "1")], text
    second = " ".join("".join(p.extract_text() for p in PdfReader(io.BytesIO(
        client.get(f"/c/{token}/evenings/2026-12-01.pdf").data)).pages).split())
    rows = re.findall(r"(\w+) \(provisional\) (\d+) ([+−]\d+) (\d+)", second)
    assert [(name, matches) for name, _, _, matches in rows] == [
        ("Carla", "2"), ("Beat", "2"), ("Dario", "2"), ("Anna", "2")], second
