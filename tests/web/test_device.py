"""A device can be named on the home page; the history of changes shows that name."""

from __future__ import annotations

from collections.abc import Callable

from flask import Flask
from flask.testing import FlaskClient
from webtools import Table


def test_a_named_device_signs_its_changes(app: Flask, table: Table) -> None:
    named = table.post("/device", {"name": "  Anna's   <b>phone</b> "})
    assert named.status == 302
    home = table.get("/")
    assert "Anna's <b>phone</b> ·" in home.text                  # shown as text, escaped
    assert "<b>phone</b>" not in home.html
    mid = table.new_match()
    assert table.indicator(mid, 1, "8h").status == 302
    history = table.get(f"/m/{mid}").text
    assert "Trump indicator (hand 1) Anna's <b>phone</b> ·" in history
    # an empty name goes back to the browser's kind
    assert table.post("/device", {"name": ""}).status == 302
    assert "Browser ·" in table.get("/").text


def test_a_too_long_name_is_refused_with_the_reason(
        app: Flask, client: FlaskClient, csrf_token: Callable[..., str]) -> None:
    page = client.post("/device", data={"csrf_token": csrf_token(), "name": "x" * 41})
    assert page.status_code == 422
    assert "At most 40 characters" in page.get_data(as_text=True)
    assert "x" * 41 in page.get_data(as_text=True)                # what was typed stays
