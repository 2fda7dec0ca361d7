"""A device can be named on the home page; the history of changes shows that name."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient
from webtools import Page, Table


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


@pytest.mark.parametrize(("typed", "words"), [
    ("Anna\x00phone", "A name cannot hold control characters"),
    ("Anna\x07", "A name cannot hold control characters"),
    ("\u202eenohp s'annA", "turn the direction of the text around"),
    ("Anna\u2066phone", "turn the direction of the text around"),
    ("\u200b\u2800", "The device needs a name with a visible character in it"),
    ("\u3164", "The device needs a name with a visible character in it"),
    ("\ufe0f\u034f", "The device needs a name with a visible character in it"),
    ("\u0301\u0308", "The device needs a name with a visible character in it"),
], ids=["nul", "bell", "rlo", "isolate", "zero-width", "hangul-filler", "selector-joiner",
        "marks"])
def test_a_device_name_a_page_or_database_cannot_hold_is_refused(
        app: Flask, client: FlaskClient, csrf_token: Callable[..., str], typed: str,
        words: str) -> None:
    """A device named `Anna\\0phone` was kept in the session cookie, and every change it made
    then failed on PostgreSQL (which cannot store a NUL): now refused with the reason, and
    what was typed stays in the field."""
    page = Page.of(client.post("/device", data={"csrf_token": csrf_token(), "name": typed}))
    assert page.status == 422
    assert any(words in e for e in page.visible_errors), page.errors
    assert page.value("name") == typed
    with client.session_transaction() as session:
        assert "device_name" not in session


def test_a_device_name_is_kept_in_its_composed_form(table: Table) -> None:
    assert table.post("/device", {"name": " Zoe\u0308's  phone "}).status == 302
    with table.client.session_transaction() as session:
        assert session["device_name"] == "Zoë's phone"


def test_a_device_name_from_an_old_cookie_that_no_database_can_hold_is_not_written(
        db_app: Flask) -> None:
    """A session cookie from before names were checked may name the device `Anna\\0phone`:
    its changes are signed with the browser's kind instead, on SQLite and on PostgreSQL."""
    client = db_app.test_client()
    with client.session_transaction() as session:
        session["device_name"] = "Anna\x00phone"
    table = Table(db_app, client, lambda url="/", other=None: str(re.findall(
        r'name="csrf_token" type="hidden" value="([^"]+)"', client.get(url).get_data(
            as_text=True))[0]))
    mid = table.new_match()
    assert table.indicator(mid, 1, "8h").status == 302
    history = table.get(f"/m/{mid}").text
    assert "Trump indicator (hand 1) Browser ·" in history
    assert "Anna" not in history


def test_a_form_never_carries_half_a_character(
        app: Flask, client: FlaskClient, csrf_token: Callable[..., str]) -> None:
    """A lone surrogate cannot arrive through a form: werkzeug keeps percent-escapes that are
    not UTF-8 as they were typed, and reads raw bytes that are not UTF-8 as U+FFFD, so what
    reaches the name check is always valid Unicode text."""
    token = csrf_token()
    urlencoded = client.post("/device", data=b"name=%ED%A0%80phone&csrf_token=" + token.encode(),
                             content_type="application/x-www-form-urlencoded")
    assert urlencoded.status_code == 302
    with client.session_transaction() as session:
        assert session["device_name"] == "%ED%A0%80phone"
    body = (b"--b\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\n\xed\xa0\x80phone"
            b"\r\n--b\r\nContent-Disposition: form-data; name=\"csrf_token\"\r\n\r\n"
            + token.encode() + b"\r\n--b--\r\n")
    multipart = client.post("/device", data=body, content_type="multipart/form-data; boundary=b")
    assert multipart.status_code == 302
    with client.session_transaction() as session:
        assert session["device_name"] == "\ufffd\ufffd\ufffdphone"
    assert "\ufffd\ufffd\ufffdphone ·" in Page.of(client.get("/")).text
