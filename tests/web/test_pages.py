"""The pages around the hands: home, new match, the match page, export, import, the PDF."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable

import pytest
from flask import Flask
from pypdf import PdfReader
from webtools import HAND_440_71, NAMES, TIE_HANDS, Page, Table, claim, decider, hand

HTMX = pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
CLAIM_HAND = hand("8h", "0", {1: (["set:A"], [])}, claim(0, 1, (21, 0)))


def test_home_lists_no_matches_then_the_new_one(table: Table, make_match: Callable[..., str]
                                                ) -> None:
    home = table.get("/")
    assert home.status == 200
    assert "No matches on this device yet." in home.text
    assert "Tartli" in home.text
    mid = make_match()
    home = table.get("/")
    assert "No matches on this device yet." not in home.text
    assert "Tartli: Ágnes – Tamás" in home.text
    assert f'href="/m/{mid}"' in home.html


def test_new_match_form_has_its_fields(table: Table) -> None:
    page = table.get("/new/tartli")
    assert page.status == 200
    names = {i.get("name") for i in page.inputs}
    assert {"player_a", "player_b", "target", "first_dealer", "csrf_token"} <= names
    assert page.checked("target") == ["5"]
    assert page.checked("first_dealer") == ["0"]


@pytest.mark.parametrize(("target", "first_dealer"), [(5, 0), (10, 1)])
def test_create_a_match(table: Table, target: int, first_dealer: int) -> None:
    page = table.post("/new/tartli", {"player_a": "  Ágnes  ", "player_b": "Tamás",
                                      "target": str(target), "first_dealer": str(first_dealer)})
    assert page.status == 302
    assert page.location and re.fullmatch(r"/m/[\w-]{16,40}", page.location)
    mid = page.location.rsplit("/", 1)[1]
    match = table.follow(page)
    assert match.is_full_page
    assert "Tartli: Ágnes – Tamás" in match.text
    assert match.standings() == ((0, 0), (0, 0))
    assert f"Buli (to {target})" in match.text
    dealer, leader = NAMES[first_dealer], NAMES[1 - first_dealer]
    assert f"next deal: {dealer}" in match.text
    assert f"{dealer} deals · {leader} leads trick 1" in match.text
    assert "Start hand 1" in match.text
    data = table.export(mid)
    assert data["settings"] == {"players": NAMES, "target": target,
                                "first_dealer": first_dealer}
    assert data["hands"] == []


def test_create_a_match_through_htmx(table: Table) -> None:
    """Under htmx the new match is reached by a redirect (followed by htmx) or HX-Redirect."""
    before = table.match_count()
    page = table.post("/new/tartli", {"player_a": "Ágnes", "player_b": "Tamás", "target": "5",
                                      "first_dealer": "0"}, htmx=True)
    assert page.status in (200, 302)
    target = page.location or page.response.headers.get("HX-Redirect")
    assert target and re.fullmatch(r"/m/[\w-]+", target)
    assert table.match_count() == before + 1
    assert "Tartli: Ágnes – Tamás" in table.get(target, htmx=True).text


def test_csrf_can_be_switched_off_for_tests(app_nocsrf: Flask) -> None:
    client = app_nocsrf.test_client()
    response = client.post("/new/tartli", data={"player_a": "A", "player_b": "B",
                                                 "target": "5", "first_dealer": "0"})
    assert response.status_code == 302
    assert 'name="csrf_token"' not in client.get("/new/tartli").get_data(as_text=True)


def test_match_page_whole_or_partial(table: Table) -> None:
    mid = table.new_match()
    whole = table.get(f"/m/{mid}")
    part = table.get(f"/m/{mid}", htmx=True)
    assert whole.status == part.status == 200
    assert whole.is_full_page and not whole.is_partial
    assert part.is_partial and not part.is_full_page
    assert "live" in whole.ids and "live" in part.ids
    # the partial still carries the forms' tokens; htmx sends the one on <body> in a header
    assert 'name="indicator-csrf_token"' in part.html
    assert "X-CSRFToken" in whole.html and "X-CSRFToken" not in part.html


def test_match_page_shows_history_next_hand_and_links(table: Table) -> None:
    mid = table.seed([HAND_440_71])
    page = table.get(f"/m/{mid}")
    assert page.standings() == ((440, 71), (0, 0))
    assert f'href="/m/{mid}/scoresheet.pdf"' in page.html
    assert f'href="/m/{mid}/match.json"' in page.html
    # the hand's row, like the paper scoresheet: each player's points and total in words
    assert ("#1 Ágnes deals Ágnes +440 total 440 Tamás +71 total 71 no one reached 501"
            in page.text)
    assert "Hand 2" in page.text and "Tamás deals · Ágnes leads trick 1" in page.text


def test_export_is_a_match_file(table: Table) -> None:
    mid = table.seed([HAND_440_71, CLAIM_HAND])
    response = table.client.get(f"/m/{mid}/match.json")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    assert re.fullmatch(r'attachment; filename="tartli-\d{4}-\d\d-\d\d\.json"',
                        response.headers["Content-Disposition"])
    data = json.loads(response.get_data(as_text=True))
    assert data["format"] == "referee-match" and data["version"] == 1
    assert data["game"] == "tartli"
    assert data["settings"]["players"] == NAMES
    assert [h["end"]["kind"] for h in data["hands"]] == ["played", "claim"]
    assert data["hands"][1]["tricks"] == [{"winner": 0, "melds": [["set:A"], []]}]
    assert "Ágnes" in response.get_data(as_text=True)       # not \u-escaped


def _import(table: Table, body: bytes, name: str = "match.json", **kw: object) -> Page:
    return table.post("/import", {"file": (io.BytesIO(body), name)},
                      content_type="multipart/form-data", **kw)


@pytest.mark.parametrize("hands", [
    [HAND_440_71, CLAIM_HAND],
    TIE_HANDS + [decider(1), hand("9l", "01", {2: (["seq:a/K/4"], [])},
                                  bela={"player": 1, "trick": 2})],
], ids=["claim", "decider-and-hand-in-progress"])
def test_export_then_import_gives_the_same_match(table: Table, hands: list) -> None:
    mid = table.seed(hands, target=10, first_dealer=1)
    original = table.client.get(f"/m/{mid}/match.json").get_data()
    before = table.match_count()
    page = _import(table, original)
    assert page.status == 302
    assert page.location and page.location != f"/m/{mid}"
    copy_id = page.location.rsplit("/", 1)[1]
    shown = table.follow(page)
    assert "Match imported." in shown.notices
    assert table.match_count() == before + 1
    # stored before dealers were recorded, the copy has each hand's dealer as it was read
    exported = table.export(mid)
    assert table.export(copy_id) == {**exported, "hands": [
        {**h, "dealer": (1 + n) % 2} for n, h in enumerate(exported["hands"])]}
    # and it scores the same: the same standings and the same hand history
    first = table.get(f"/m/{mid}")
    assert shown.standings() == first.standings()
    assert shown.classed["summary"] == first.classed["summary"]


def test_import_keeps_the_created_date(table: Table) -> None:
    mid = table.seed([HAND_440_71])
    data = table.export(mid)
    data["created"] = "2025-06-01"
    page = _import(table, json.dumps(data, ensure_ascii=False).encode())
    assert page.status == 302 and page.location
    assert table.export(page.location.rsplit("/", 1)[1])["created"] == "2025-06-01"


def test_import_a_stored_data_file(table: Table) -> None:
    from pathlib import Path

    body = (Path(__file__).parents[1] / "data" / "tartli-complete.json").read_bytes()
    page = _import(table, body)
    assert page.status == 302 and page.location
    copy_id = page.location.rsplit("/", 1)[1]
    first = json.loads(body)["settings"]["first_dealer"]      # a version 1 file without dealers:
    assert table.export(copy_id)["hands"] == [                # imported with the alternation's
        {**h, "dealer": (first + n) % 2} for n, h in enumerate(json.loads(body)["hands"])
    ]
    shown = table.follow(page)
    assert "Zsófi" in shown.text and "Gergő" in shown.text


def test_scoresheet_pdf_has_the_players_and_the_buli(table: Table) -> None:
    mid = table.seed([HAND_440_71, CLAIM_HAND])
    response = table.client.get(f"/m/{mid}/scoresheet.pdf")
    assert response.status_code == 200
    assert response.mimetype == "application/pdf"
    body = response.get_data()
    assert body.startswith(b"%PDF-")
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(body)).pages)
    text = " ".join(text.split())
    assert "Ágnes" in text and "Tamás" in text
    assert "Tartli scoresheet" in text
    assert "Target 5 buli" in text
    assert "Buli: Ágnes 2, Tamás 0" in text
    assert "Ágnes wins 2 buli (maccs)" not in text          # the explanations: asked for
    response = table.client.get(f"/m/{mid}/scoresheet.pdf?explained=1")
    assert response.status_code == 200
    pages = PdfReader(io.BytesIO(response.get_data())).pages
    assert "Ágnes wins 2 buli (maccs)" in " ".join(
        " ".join(page.extract_text() for page in pages).split())


def test_scoresheet_of_an_empty_match(table: Table) -> None:
    mid = table.new_match()
    response = table.client.get(f"/m/{mid}/scoresheet.pdf")
    assert response.status_code == 200
    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(response.get_data())).pages)
    assert "Ágnes" in text and "Buli" in text
