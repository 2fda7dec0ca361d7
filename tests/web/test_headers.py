"""Every response carries the security headers; pages hold no inline script."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from webtools import HAND_440_71, Table

from referee.web.matches import exports as pdf


@pytest.mark.parametrize("url", ["/", "/new/tartli", "/new/stovkahra", "/new/marjolet",
                                 "/m/does-not-exist"])
def test_security_headers(client: FlaskClient, url: str) -> None:
    response = client.get(url)
    csp = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert "frame-ancestors 'none'" in csp
    assert response.headers["Referrer-Policy"] == "no-referrer"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["X-Frame-Options"] == "DENY"


def test_no_inline_script_or_style(client: FlaskClient) -> None:
    page = client.get("/new/tartli").get_data(as_text=True)
    assert not re.search(r"<script(?![^>]*\bsrc=)", page)
    assert " style=" not in page and "<style" not in page
    assert re.search(r"<script[^>]*src=\"/static/vendor/htmx-2\.\d+\.\d+\.min\.js\?v=\w+\"", page)


def test_the_tables_script_and_dark_colours_are_files_within_the_csp(client: FlaskClient) -> None:
    """Issue 11, item 9: the wake lock and the paused polling come from a script file (the CSP
    refuses inline scripts and eval), the night colours from a style sheet."""
    page = client.get("/new/tartli").get_data(as_text=True)
    assert re.search(r'<script[^>]*src="/static/js/table\.js\?v=\w+"[^>]*defer', page)
    assert re.search(r'<link rel="stylesheet" href="/static/css/night\.css\?v=\w+">', page)
    script = client.get("/static/js/table.js")
    assert script.status_code == 200 and "javascript" in script.content_type
    code = script.get_data(as_text=True)
    assert "wakeLock" in code and "visibilitychange" in code
    assert not re.search(r"\beval\(|new Function|set(?:Timeout|Interval)\(\s*['\"]", code)
    night = client.get("/static/css/night.css").get_data(as_text=True)
    assert "prefers-color-scheme: dark" in night


# ---------------------------------------------------------------------------------------------
# Caches: an edit token is kept in none; a page and its htmx fragment are kept apart


EDIT_ANSWERS = ["", "/hands/1", "/hands/1?trick=2", "/scoresheet.pdf",
                "/scoresheet.pdf?explained=1", "/match.json", "/live", "/changes"]
VIEW_ANSWERS = ["", "/scoresheet.pdf", "/match.json", "/live", "/changes"]


def _headers(htmx: bool) -> dict[str, str]:
    return {"HX-Request": "true"} if htmx else {}


@pytest.fixture
def no_weasyprint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pdf, "render_pdf",
                        lambda m, explained=False, match=None: b"%PDF-1.7 (a stand-in)")


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_answers_that_carry_an_edit_token_are_kept_in_no_cache(
        app: Flask, table: Table, htmx: bool, no_weasyprint: None) -> None:
    mid = table.seed([HAND_440_71])
    stored = app.extensions["referee.store"].load(mid)
    for path in EDIT_ANSWERS:
        response = table.client.get(f"/m/{mid}{path}", headers=_headers(htmx))
        assert response.status_code == 200, path
        assert response.headers["Cache-Control"] == "no-store", path
    # The edit link's live scoreboard still answers 304 while nothing changed.
    etag = table.client.get(f"/m/{mid}/live").headers["ETag"]
    unchanged = table.client.get(f"/m/{mid}/live", headers={"If-None-Match": etag})
    assert unchanged.status_code == 304
    assert unchanged.headers["Cache-Control"] == "no-store"
    # The answer to a change (a page, or its fragment), and the home page that lists this
    # browser's matches with their edit links.
    changed = table.indicator(mid, 2, "8h", htmx=htmx).response
    assert changed.status_code == (200 if htmx else 302)
    assert changed.headers["Cache-Control"] == "no-store"
    assert table.client.get("/").headers["Cache-Control"] == "no-store"
    joined = table.client.get(f"/join?code={mid}")
    assert joined.status_code == 302 and joined.headers["Cache-Control"] == "no-store"
    # The view link's answers carry no edit token.
    viewer = app.test_client()
    for path in VIEW_ANSWERS:
        response = viewer.get(f"/m/{stored.view_token}{path}", headers=_headers(htmx))
        assert response.status_code == 200, path
        assert "no-store" not in response.headers.get("Cache-Control", ""), path
        assert mid not in response.get_data(as_text=True)


def test_a_page_and_its_htmx_fragment_are_kept_apart(app: Flask, table: Table) -> None:
    """Every address that answers a whole page or, to htmx, a fragment says that its answer
    depends on the HX-Request header."""
    mid = table.seed([HAND_440_71])
    view = app.extensions["referee.store"].load(mid).view_token
    urls = [f"/m/{mid}", f"/m/{mid}/hands/1", f"/m/{view}",
            f"/m/{'A' * 22}", f"/m/{view}/hands/1"]           # a 404 and a 403 too
    for url in urls:
        page = table.client.get(url)
        fragment = table.client.get(url, headers={"HX-Request": "true"})
        assert page.get_data() != fragment.get_data(), url
        for response in (page, fragment):
            assert "HX-Request" in response.vary, (url, response.headers.get("Vary"))
    for htmx in (False, True):
        answer = table.indicator(mid, 2, "8h", htmx=htmx).response
        assert "HX-Request" in answer.vary


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_answers_that_carry_a_view_token_are_kept_in_no_shared_cache(
        app: Flask, table: Table, htmx: bool, no_weasyprint: None) -> None:
    """A view link is a secret link too (issue 21): its answers say ``no-cache, private``, the
    304 of its live scoreboard as well."""
    mid = table.seed([HAND_440_71])
    view = app.extensions["referee.store"].load(mid).view_token
    viewer = app.test_client()
    for path in VIEW_ANSWERS:
        response = viewer.get(f"/m/{view}{path}", headers=_headers(htmx))
        assert response.headers["Cache-Control"] == "no-cache, private", path
    etag = viewer.get(f"/m/{view}/live").headers["ETag"]
    unchanged = viewer.get(f"/m/{view}/live", headers={"If-None-Match": etag})
    assert unchanged.status_code == 304
    assert unchanged.headers["Cache-Control"] == "no-cache, private"
    refused = viewer.get(f"/m/{view}/hands/1")             # an editor: not for a view link
    assert refused.status_code == 403
    assert refused.headers["Cache-Control"] == "no-cache, private"


# ---------------------------------------------------------------------------------------------
# HTTPS: with an https REFEREE_PUBLIC_URL, a Secure session cookie and HSTS


@pytest.mark.parametrize("public", ["https://referee.example.org", "http://192.168.1.20:5000",
                                    None])
def test_over_https_the_cookie_is_secure_and_answers_carry_hsts(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, public: str | None) -> None:
    from referee import create_app

    if public is None:
        monkeypatch.delenv("REFEREE_PUBLIC_URL", raising=False)
    else:
        monkeypatch.setenv("REFEREE_PUBLIC_URL", public)
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path}/t.sqlite3"})
    https = public is not None and public.startswith("https:")
    client = app.test_client()
    if https:
        client.environ_base.update({"wsgi.url_scheme": "https", "HTTP_HOST": "referee.example.org"})
    home = client.get("/")
    created = client.post("/new/tartli", data={
        "csrf_token": re.search(r'name="csrf_token"[^>]*value="([^"]+)"',
                                home.get_data(as_text=True))[1], "player_a": "Ágnes",
        "player_b": "Tamás", "target": "5", "first_dealer": "0"})
    assert created.status_code == 302
    cookie = created.headers["Set-Cookie"]
    assert ("; Secure" in cookie) == https, cookie
    mid = created.headers["Location"].rsplit("/", 1)[1]
    etag = client.get(f"/m/{mid}/live").headers["ETag"]
    answers = [home, created, client.get("/"), client.get("/static/js/table.js"),
               client.get(f"/m/{mid}/live", headers={"If-None-Match": etag})]
    assert answers[-1].status_code == 304
    for response in answers:
        hsts = response.headers.get("Strict-Transport-Security")
        assert hsts == ("max-age=31536000" if https else None), response.request.path
