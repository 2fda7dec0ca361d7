"""The hands as CSV from the match page: GET /m/<id>/hands.csv, by the edit and the view link."""

from __future__ import annotations

import csv
import io

from flask import Flask
from webtools import HAND_290_71, HAND_440_71, Table


def _rows(body: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(body.decode("utf-8-sig"), newline="")))


def test_the_edit_link_downloads_the_hands_as_csv(app: Flask, table: Table) -> None:
    mid = table.seed([HAND_440_71, HAND_290_71])
    response = table.client.get(f"/m/{mid}/hands.csv")
    assert response.status_code == 200
    assert response.mimetype == "text/csv"
    assert response.headers["Content-Disposition"].startswith('attachment; filename="tartli-')
    assert response.headers["Content-Disposition"].endswith('.csv"')
    assert response.headers["Cache-Control"] == "no-store"     # the address is an edit token
    body = response.get_data()
    assert body.startswith("\ufeff".encode())                 # a spreadsheet reads UTF-8
    assert _rows(body) == [
        ["Hand", "Dealer", "Ágnes score", "Ágnes total", "Tamás score", "Tamás total",
         "Summary"],
        ["1", "Ágnes", "440", "440", "71", "71", "no one reached 501"],
        ["2", "Tamás", "290", "730", "71", "142", "Ágnes wins 2 buli (maccs)"],
    ]


def test_the_view_link_downloads_it_too_without_the_edit_token(app: Flask, table: Table) -> None:
    mid = table.seed([HAND_440_71])
    stored = app.extensions["referee.store"].load(mid)
    viewer = app.test_client()
    response = viewer.get(f"/m/{stored.view_token}/hands.csv")
    assert response.status_code == 200
    assert "no-store" not in response.headers.get("Cache-Control", "")
    assert mid not in response.get_data(as_text=True)
    assert _rows(response.get_data())[1][:6] == ["1", "Ágnes", "440", "440", "71", "71"]


def test_the_match_page_links_the_csv_beside_the_match_file(app: Flask, table: Table) -> None:
    mid = table.seed([HAND_440_71])
    page = table.get(f"/m/{mid}")
    assert f'href="/m/{mid}/hands.csv" download>Hands (CSV)</a>' in page.html
    assert page.html.index("Match file (JSON)") < page.html.index("Hands (CSV)")
    view = app.extensions["referee.store"].load(mid).view_token
    viewed = app.test_client().get(f"/m/{view}").get_data(as_text=True)
    assert f'href="/m/{view}/hands.csv" download>Hands (CSV)</a>' in viewed


def test_an_unknown_match_has_no_csv(table: Table) -> None:
    assert table.client.get("/m/no-such-match/hands.csv").status_code == 404
