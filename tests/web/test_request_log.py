"""The request log writes no token (issue 21): the app's own log has every request's method,
address and status with each token cut to four characters; the development server's own
request lines (which held whole addresses) are not written."""

from __future__ import annotations

import logging

import pytest
from flask import Flask
from webtools import HAND_440_71, Table
from werkzeug._internal import _log as dev_server_log

from referee.web.requestlog import shortened


def test_a_token_is_cut_to_four_characters() -> None:
    assert shortened("/m/Ab3_-x9QzLmNoPqRsTuVwA/live") == "/m/Ab3_…/live"
    assert shortened("/join?code=Ab3_-x9QzLmNoPqRsTuVwA") == "/join?code=Ab3_…"
    assert shortened("/c/Ab3_-x9QzLmNoPqRsTuVwA/evenings/2026-11-30.pdf") == (
        "/c/Ab3_…/evenings/2026-11-30.pdf")
    assert shortened("/new/tartli") == "/new/tartli"


def test_the_apps_request_log_shortens_every_token(
        app: Flask, table: Table, caplog: pytest.LogCaptureFixture) -> None:
    mid = table.seed([HAND_440_71])
    view = app.extensions["referee.store"].load(mid).view_token
    caplog.set_level(logging.INFO, "referee.requests")
    table.get(f"/m/{mid}")
    etag = table.client.get(f"/m/{mid}/live").headers["ETag"]
    assert table.client.get(f"/m/{mid}/live", headers={"If-None-Match": etag}).status_code == 304
    table.indicator(mid, 2, "8h")
    table.client.get(f"/join?code={view}")
    lines = [r.getMessage() for r in caplog.records if r.name == "referee.requests"]
    assert f"GET /m/{mid[:4]}…/live 304" in lines          # the poll answered before the app
    assert f"GET /m/{mid[:4]}… 200" in lines
    assert f"POST /m/{mid[:4]}…/hands/2/indicator 302" in lines
    assert f"GET /join?code={view[:4]}… 302" in lines
    assert not [line for line in lines if mid in line or view in line]


def test_the_development_servers_request_lines_are_not_written(
        app: Flask, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, "werkzeug")
    token = "Ab3_-x9QzLmNoPqRsTuVwA"
    # what werkzeug's development server logs for a request (serving.log_request), and another
    dev_server_log("info", '127.0.0.1 - - [30/Nov/2026 20:00:00] "%s" %s %s',
                   f"GET /m/{token}/live HTTP/1.1", "304", "-")
    dev_server_log("info", " * Running on http://127.0.0.1:5000")
    lines = [r.getMessage() for r in caplog.records if r.name == "werkzeug"]
    assert lines == [" * Running on http://127.0.0.1:5000"]


def test_an_unhandled_error_is_logged_with_its_token_shortened(
        app: Flask, table: Table, caplog: pytest.LogCaptureFixture,
        monkeypatch: pytest.MonkeyPatch) -> None:
    mid = table.seed([HAND_440_71])
    app.config["PROPAGATE_EXCEPTIONS"] = False       # answered 500 and logged, as in production

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a fault of the app's own")

    monkeypatch.setattr(app.extensions["referee.store"], "load", broken)
    caplog.set_level(logging.ERROR, app.logger.name)
    assert table.client.get(f"/m/{mid}").status_code == 500
    logged = [r for r in caplog.records if r.name == app.logger.name]
    assert [r.getMessage() for r in logged] == [f"Exception on /m/{mid[:4]}… [GET]"]
    assert logged[0].exc_info is not None                 # with its traceback
    assert mid not in caplog.text
