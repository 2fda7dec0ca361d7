"""Many phones, one table: edit and view links, the per-browser home list, joining, the QR
codes, the live scoreboard (ETag / 304), the history of changes with devices, undo as an event,
stale forms refused with the stored hand beside them, and old databases upgraded.

Everything runs through the Flask test client with CSRF protection on. "Browser A" is the
``client`` fixture; other browsers are fresh test clients of the same app (each its own
session cookie, so its own home list and device id)."""

from __future__ import annotations

import base64
import html
import io
import json
import re
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
import segno
from flask import Flask
from flask.testing import FlaskClient
from pypdf import PdfReader
from sqlalchemy import (
    Column,
    DateTime,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    create_engine,
    insert,
)
from sqlalchemy import Table as SqlTable
from webtools import (
    EXAMPLE_1,
    HAND_440_71,
    NS,
    A,
    B,
    Marjolet,
    Page,
    Series,
    Table,
    deal,
    deal_dost,
    hand,
    mj_deal,
    mj_end,
    played,
)

from referee import create_app
from referee.web.games import WEB_GAMES
from referee.web.store import Store, hand_base

GAMES = ["tartli", "stovkahra", "marjolet", "troggu"]
HTMX = pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
TOKEN = re.compile(r"[A-Za-z0-9_-]{22,}")
CHROME_LINUX = ("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
                "Chrome/131.0.0.0 Safari/537.36")
FIREFOX_ANDROID = "Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0"
VIEW_ONLY = "only the edit link can change the match"
STALE_WORDS = "changed on another device meanwhile"

# Stovkahra deal 2 as example 3 of the rules: NS say dost right after trick 2 at 102, 1 stick.
DOST_RIGHT = deal(end=deal_dost(0, 2, (12, 11), (1, 1), 0))
# Marjolet deal 1 (Bruno deals, clubs): Anne melds four aces after trick 1 and takes 60 in aces
# and tens with tricks 10 and 16; she played the trump 7.
MJ_DEAL = mj_deal("9c", {1: (A, ["four:A"])}, seven=A, end=mj_end((60, None), A, A))


def troggu_normal(dealer: int, declarer: int, points: int, n: int = 5) -> dict[str, Any]:
    bids = ["pass"] * n
    bids[(declarer - dealer - 1) % n] = "normal"
    return {"dealer": dealer, "bids": bids, "game": "normal", "declarer": declarer,
            "end": {"points": points, "loser_took_trick": True}}


# ---------------------------------------------------------------------------------------------
# Helpers


def store_of(app: Flask) -> Store:
    store: Store = app.extensions["referee.store"]
    return store


def view_token(app: Flask, match_id: str) -> str:
    stored = store_of(app).load(match_id)
    assert stored is not None
    return stored.view_token


def state(app: Flask, match_id: str) -> tuple[Any, ...]:
    """Everything stored about a match: version, hands and every event (with undone marks)."""
    stored = store_of(app).load(match_id, events=10_000)
    assert stored is not None
    return (stored.version, stored.hands, stored.settings,
            [(e.id, e.label, e.kind, e.undone, e.device) for e in stored.events])


def csrf_of(client: FlaskClient) -> Callable[..., str]:
    """The CSRF token of a page, as ``Table`` asks for it (the X-CSRFToken of <body>)."""

    def token(url: str = "/", other: FlaskClient | None = None) -> str:
        body = (other or client).get(url).get_data(as_text=True)
        found = re.search(r'"X-CSRFToken": "([^"]+)"', body)
        assert found, body[:300]
        return found.group(1)

    return token


def browser(app: Flask, user_agent: str | None = None) -> Table:
    """Another browser (its own cookies) on the same app."""
    client = app.test_client()
    if user_agent:
        client.environ_base["HTTP_USER_AGENT"] = user_agent
    return Table(app, client, csrf_of(client))


def seed(game: str, table: Table) -> str:
    """A match of ``game`` with a complete hand 1, stored directly (no browser knows it)."""
    if game == "tartli":
        return table.seed([HAND_440_71])
    if game == "stovkahra":
        series = Series(table.app, table.client, table._csrf_token)
        return series.seed_series([EXAMPLE_1, DOST_RIGHT])     # NS win a game: a stick choice
    if game == "marjolet":
        return Marjolet(table.app, table.client, table._csrf_token).seed_game([MJ_DEAL])
    from referee.engine.games.troggu import GAME

    settings = GAME.settings({"players": ["Anna", "Beat", "Carla", "Dario", "Elsa"],
                              "first_dealer": 0})
    hands = [GAME.canonical_hand(troggu_normal(0, 2, 71))]
    GAME.score(settings, hands)
    return store_of(table.app).create("troggu", settings, hands)


def session_of(app: Flask, client: FlaskClient) -> dict[str, Any]:
    cookie = client.get_cookie("session")
    if cookie is None:
        return {}
    serializer = app.session_interface.get_signing_serializer(app)  # type: ignore[attr-defined]
    assert serializer is not None
    return dict(serializer.loads(cookie.value))


def post_forms(page: Page) -> list[str]:
    """The opening tags of every form or element that would send a POST."""
    return re.findall(r'<form[^>]*method="post"[^>]*>|<[^>]*\bhx-(?:post|put|patch|delete)=[^>]*>',
                      page.html, re.I)


def section(page: Page, ident: str) -> str:
    found = re.search(rf'<section[^>]*\bid="{ident}".*?</section>', page.html, re.S)
    assert found, (ident, page.text[:800])
    return found.group(0)


def text_of(fragment: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def base_in(page: Page, path: str) -> str:
    """The ``base`` a form on the page posts to ``path`` with (the history's Delete posts
    with htmx only: without JavaScript it asks first)."""
    found = re.search(
        rf'(?:action|hx-post)="{re.escape(path)}\?base=((?:\d+-)?(?:new|[0-9a-f]{{16}}))',
        page.html)
    assert found, (path, re.findall(r'action="[^"]*"', page.html))
    return found.group(1)


def undo_url(page: Page) -> str:
    found = re.search(r'<form method="post" action="([^"]*/undo\?event=\d+)"', page.html)
    assert found, section(page, "changes")
    return html.unescape(found.group(1))


def events(page: Page) -> list[str]:
    """The history of changes as the page lists it, newest first, as plain text lines."""
    return [text_of(li) for li in re.findall(r"<li[^>]*>.*?</li>", section(page, "changes"),
                                              re.S)]


def pdf_text(body: bytes) -> str:
    return " ".join(p.extract_text() for p in PdfReader(io.BytesIO(body)).pages)


# ---------------------------------------------------------------------------------------------
# Tokens


def test_tokens_are_long_random_and_distinct(app: Flask, table: Table) -> None:
    ids = [table.new_match() for _ in range(3)]
    ids.append(seed("troggu", table))
    tokens = []
    for mid in ids:
        tokens += [mid, view_token(app, mid)]
    assert len(set(tokens)) == len(tokens)
    for token in tokens:
        assert TOKEN.fullmatch(token), token
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        assert len(raw) >= 16                          # 128 bits
    # The edit token is the one the new match's address carries; the view token differs.
    assert all(view_token(app, mid) != mid for mid in ids)


def test_a_token_opens_only_its_own_match(app: Flask, table: Table) -> None:
    one = table.new_match(["Ágnes", "Tamás"])
    two = table.new_match(["Zsófi", "Bence"])
    for token, names, others in ((one, "Ágnes", "Zsófi"), (view_token(app, one), "Ágnes", "Zsófi"),
                                 (two, "Zsófi", "Ágnes"), (view_token(app, two), "Zsófi", "Ágnes")):
        page = table.get(f"/m/{token}")
        assert page.status == 200
        assert names in page.text and others not in page.text
        assert table.export(token)["settings"]["players"][0] == names
    for mid in (one, view_token(app, one)):
        for wrong in (mid[:-1], mid[:16], mid + "A", mid.swapcase(), mid[::-1], one + two):
            for url in (f"/m/{wrong}", f"/m/{wrong}/live", f"/m/{wrong}/match.json"):
                assert table.client.get(url).status_code == 404, (url, mid)
    # The view token of one match cannot act on the other with its own edit token's routes.
    before = state(app, two)
    response = table.post(f"/m/{view_token(app, one)}/undo")
    assert response.status == 403
    assert state(app, two) == before


# ---------------------------------------------------------------------------------------------
# The view link: read-only, and never a trace of the edit token


@pytest.mark.parametrize("game", GAMES)
def test_view_link_is_read_only_and_never_shows_the_edit_token(
        app: Flask, table: Table, game: str) -> None:
    mid = seed(game, table)
    token = view_token(app, mid)
    viewer = browser(app)
    edit_page = table.get(f"/m/{mid}")
    assert edit_page.status == 200 and post_forms(edit_page)      # the editor is there

    page = viewer.get(f"/m/{token}")
    assert page.status == 200
    assert {"scoreboard", "history", "changes", "standings"} <= page.ids
    assert "editor" not in page.ids
    assert post_forms(page) == []
    assert "/hands/" not in page.html                    # no edit links, no hand actions
    assert "Undo" not in page.text and "Delete" not in page.text
    assert "History of changes" in page.text
    assert mid not in page.html
    assert mid not in str(page.response.headers)
    # Its own links all carry the view token.
    for path in ("live", "match.json", "scoresheet.pdf"):
        assert f"/m/{token}/{path}" in page.html

    for htmx in (False, True):
        part = viewer.get(f"/m/{token}", htmx=htmx)
        assert part.status == 200 and mid not in part.html and post_forms(part) == []

    live = viewer.get(f"/m/{token}/live")
    assert live.status == 200
    assert mid not in live.html and post_forms(live) == []
    assert "/hands/" not in live.html

    assert mid not in table.get(f"/m/{token}").html     # not even to the browser that has it

    exported = viewer.client.get(f"/m/{token}/match.json")
    assert exported.status_code == 200
    assert mid not in exported.get_data(as_text=True)
    assert json.loads(exported.get_data()) == table.export(mid)

    pdf = viewer.client.get(f"/m/{token}/scoresheet.pdf")
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf"
    assert mid.encode() not in pdf.get_data()
    text = pdf_text(pdf.get_data())
    assert mid not in text and mid not in "".join(text.split())

    # The editor of a hand is not for viewers either.
    refused = viewer.get(f"/m/{token}/hands/1")
    assert refused.status == 403 and mid not in refused.html
    # Nothing of the edit token reaches the viewer's cookie.
    assert mid not in json.dumps(session_of(app, viewer.client))


def _post_routes(game: str, token: str, hands: int) -> list[str]:
    routes = [f"/m/{token}/hands/1/delete", f"/m/{token}/undo", f"/m/{token}/undo?event=1"]
    for action in WEB_GAMES[game].actions:
        routes += [f"/m/{token}/hands/1/{action}?base=new",
                   f"/m/{token}/hands/{hands + 1}/{action}",
                   f"/m/{token}/hands/1/{action}/1"]
    return routes


@pytest.mark.parametrize("game", GAMES)
@HTMX
def test_every_post_with_the_view_token_is_refused(
        app: Flask, table: Table, game: str, htmx: bool) -> None:
    mid = seed(game, table)
    token = view_token(app, mid)
    # A logged change first, so that there is something an undo could take back.
    hands = table.export(mid)["hands"]
    store_of(app).save_hands(mid, hands, hands, "Seeded change", "Seeder")
    page = table.get(f"/m/{mid}")
    assert "Undo: Seeded change" in page.text
    before = state(app, mid)
    # Post what the edit page's own forms hold, to the same routes with the view token.
    forms = re.findall(r'<form method="post"[^>]*action="([^"]+)"', page.html)
    assert forms
    routes = _post_routes(game, token, len(before[1]))
    routes += [html.unescape(url).replace(mid, token) for url in forms]
    viewer = browser(app)
    for route in routes:
        for who in (table, viewer):
            response = who.post(route, {"x": "1"}, htmx=htmx)
            assert response.status == 403, (route, response.status, response.text[:300])
            assert any(VIEW_ONLY in e and "Nothing was changed" in e
                       for e in response.errors), (route, response.errors)
            assert mid not in response.html
            if htmx:
                assert response.response.headers["HX-Retarget"] == "#alerts"
    assert state(app, mid) == before


# ---------------------------------------------------------------------------------------------
# The home page: this browser's matches only; joining


def test_home_lists_only_this_browsers_matches(app: Flask, table: Table) -> None:
    one = table.new_match(["Ágnes", "Tamás"])
    two = table.new_match(["Zsófi", "Bence"])
    unseen = table.seed([HAND_440_71], names=["Kata", "Lőrinc"])   # created by no browser
    home = table.get("/")
    assert f'href="/m/{one}"' in home.html and f'href="/m/{two}"' in home.html
    assert "Ágnes – Tamás" in home.text and "Zsófi – Bence" in home.text
    assert unseen not in home.html and "Kata" not in home.text

    other = browser(app)
    elsewhere = other.get("/")
    assert elsewhere.status == 200
    assert "No matches on this device yet." in elsewhere.text
    for mid in (one, two, unseen, view_token(app, one), view_token(app, two)):
        assert mid not in elsewhere.html
    assert "Ágnes" not in elsewhere.text

    # Opening the view link lists the match in that browser, by its view token only.
    token = view_token(app, one)
    assert other.get(f"/m/{token}").status == 200
    listed = other.get("/")
    assert f'href="/m/{token}"' in listed.html and "Ágnes – Tamás" in listed.text
    assert one not in listed.html and two not in listed.html and "Zsófi" not in listed.text
    assert session_of(app, other.client)["mine"] == [token]
    # ... and the first browser's list is as it was.
    assert "Kata" not in table.get("/").text

    # The browser that opens the seeded match by its edit link lists it with that link.
    assert table.get(f"/m/{unseen}").status == 200
    assert f'href="/m/{unseen}"' in table.get("/").html

    # A match imported from a file is listed in the importing browser only.
    body = (Path(__file__).parents[1] / "data" / "tartli-short.json").read_bytes()
    imported = other.post("/import", {"file": (io.BytesIO(body), "match.json")},
                          content_type="multipart/form-data")
    assert imported.status == 302 and imported.location
    new_id = imported.location.rsplit("/", 1)[1]
    assert f'href="/m/{new_id}"' in other.get("/").html
    assert new_id not in table.get("/").html


@pytest.mark.parametrize("kind", ["edit", "view"])
def test_join_by_link_or_code(app: Flask, table: Table, kind: str) -> None:
    mid = table.new_match()
    token = mid if kind == "edit" else view_token(app, mid)
    other = browser(app)
    for code in (f"http://localhost/m/{token}", f"  https://referee.example:5000/m/{token}  ",
                 f"http://192.168.1.20:5000/m/{token}/match.json", token, f" {token}\n"):
        response = other.client.get("/join", query_string={"code": code})
        assert response.status_code == 302, (code, response.status_code)
        assert response.headers["Location"] == f"/m/{token}"
    assert other.get(f"/m/{token}").status == 200
    assert f'href="/m/{token}"' in other.get("/").html


@pytest.mark.parametrize("code", [
    "", "hello", "x" * 600, "http://localhost/m/", "http://localhost/m/short",
    "AAAAAAAAAAAAAAAAAAAAAA", "http://localhost/m/AAAAAAAAAAAAAAAAAAAAAA",
    "<script>alert(1)</script>", "../../etc/passwd",
])
def test_join_with_an_unknown_code_is_refused(app: Flask, table: Table, code: str) -> None:
    table.new_match()
    count = table.match_count()
    page = Page.of(table.client.get("/join", query_string={"code": code}))
    assert page.status == 422
    assert any("No match has that link or code" in e for e in page.errors), page.errors
    assert "<script>alert" not in page.html
    assert page.value("code") == code[:500]                 # kept to correct
    assert table.match_count() == count


# ---------------------------------------------------------------------------------------------
# Share: the links and their QR codes


def _figures(page: Page) -> dict[str, tuple[str, str]]:
    """kind → (link URL, QR image src) of the share section."""
    out = {}
    for kind, src, url in re.findall(
            r'<figure class="link-(\w+)">\s*<img src="([^"]+)".*?<a href="([^"]+)"',
            section(page, "share"), re.S):
        out[kind] = (html.unescape(url), html.unescape(src))
    return out


LOOPBACK = ["http://localhost", "http://localhost:5000", "http://127.0.0.1:5000",
            "http://127.0.1.1:5000", "http://[::1]:5000", "http://[::1]"]


@pytest.mark.parametrize("base_url", [*LOOPBACK, "http://192.168.1.20:5000",
                                      "https://referee.example", "http://[fd00::5]:5000"])
def test_share_section_links_and_qr_codes(app: Flask, table: Table, base_url: str) -> None:
    mid = table.new_match()
    token = view_token(app, mid)
    edit_page = Page.of(table.client.get(f"/m/{mid}", base_url=base_url))
    assert "More phones at this table" in edit_page.text
    figures = _figures(edit_page)
    assert set(figures) == {"edit", "view"}
    for kind, expected in (("edit", f"{base_url}/m/{mid}"), ("view", f"{base_url}/m/{token}")):
        url, src = figures[kind]
        assert url == expected
        assert src.startswith("data:image/svg+xml")
        assert src == segno.make(expected, error="m").svg_data_uri(scale=4, border=2)
    assert figures["edit"][1] != figures["view"][1]
    warned = [w for w in edit_page.classed["warn"] if "name this computer only" in w]
    assert bool(warned) == (base_url in LOOPBACK), (base_url, edit_page.classed["warn"])

    view_page = Page.of(browser(app).client.get(f"/m/{token}", base_url=base_url))
    assert set(_figures(view_page)) == {"view"}
    assert _figures(view_page)["view"] == figures["view"]
    assert mid not in view_page.html


PUBLIC = "https://referee.example.org"


@pytest.mark.parametrize("base_url", ["http://127.0.0.1:5000", "http://evil.example"])
def test_share_links_use_the_configured_public_url(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, base_url: str) -> None:
    """With REFEREE_PUBLIC_URL set, the links and QR codes name that address, whatever Host
    a request came with (one forged by anyone, or this computer's own)."""
    monkeypatch.setenv("REFEREE_PUBLIC_URL", f"{PUBLIC}/")
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path}/t.sqlite3"})
    table = browser(app)
    mid = table.new_match()
    token = view_token(app, mid)
    page = Page.of(table.client.get(f"/m/{mid}", base_url=base_url))
    figures = _figures(page)
    for kind, expected in (("edit", f"{PUBLIC}/m/{mid}"), ("view", f"{PUBLIC}/m/{token}")):
        url, src = figures[kind]
        assert url == expected
        assert src == segno.make(expected, error="m").svg_data_uri(scale=4, border=2)
    assert "evil.example" not in page.html and "127.0.0.1" not in page.html
    assert not [w for w in page.classed["warn"] if "name this computer only" in w]
    view_page = Page.of(browser(app).client.get(f"/m/{token}", base_url=base_url))
    assert _figures(view_page) == {"view": figures["view"]}


def test_a_public_url_of_this_computer_only_is_warned_about(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFEREE_PUBLIC_URL", "http://localhost:5000")
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path}/t.sqlite3"})
    table = browser(app)
    mid = table.new_match()
    page = Page.of(table.client.get(f"/m/{mid}", base_url="http://192.168.1.20:5000"))
    assert _figures(page)["edit"][0] == f"http://localhost:5000/m/{mid}"
    assert any("name this computer only" in w and "REFEREE_PUBLIC_URL" in w
               for w in page.classed["warn"]), page.classed["warn"]


@pytest.mark.parametrize("value", ["referee.example.org", "ftp://referee.example.org",
                                   "https://referee.example.org/?x=1", "http://host:port"])
def test_a_public_url_that_is_no_address_stops_the_start(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("REFEREE_PUBLIC_URL", value)
    with pytest.raises(ValueError, match="REFEREE_PUBLIC_URL must be the address"):
        create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path}/t.sqlite3"})


# ---------------------------------------------------------------------------------------------
# The live scoreboard


def test_live_scoreboard_etag_304_and_changes(app: Flask, table: Table,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    mid = table.new_match()
    token = view_token(app, mid)
    viewer = browser(app)
    first = table.client.get(f"/m/{mid}/live")
    assert first.status_code == 200
    etag = first.headers["ETag"]
    # The edit scoreboard carries the edit token: kept in no cache; it still answers 304.
    assert etag and first.headers["Cache-Control"] == "no-store"
    body = first.get_data(as_text=True)
    # The scoreboard asks with the same validator it was served with.
    board = re.search(r'<div id="scoreboard"[^>]*>', body)
    assert board, body[:300]
    asks = re.search(r"hx-headers='([^']*)'", board.group(0))
    assert asks and json.loads(html.unescape(asks.group(1))) == {"If-None-Match": etag}
    assert f'hx-get="/m/{mid}/live"' in board.group(0)
    assert 'id="history" hx-swap-oob="true"' in body
    assert 'id="changes" hx-swap-oob="true"' in body

    # Unchanged: 304, no body, and no match is loaded to answer it.
    def no_load(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a 304 must not load the match")

    monkeypatch.setattr(Store, "load", no_load)
    for _ in range(3):
        again = table.client.get(f"/m/{mid}/live", headers={"If-None-Match": etag,
                                                             "HX-Request": "true"})
        assert again.status_code == 304 and again.get_data() == b""
        assert again.headers["ETag"] == etag
    monkeypatch.undo()
    # The edit scoreboard's validator does not fit the view scoreboard.
    viewed = viewer.client.get(f"/m/{token}/live", headers={"If-None-Match": etag})
    assert viewed.status_code == 200 and viewed.headers["ETag"] != etag

    view_live = viewer.client.get(f"/m/{token}/live")
    view_etag = view_live.headers["ETag"]
    assert view_live.headers["Cache-Control"] == "no-cache, private"
    assert view_etag != etag               # the edit and the view scoreboards differ
    assert mid not in view_live.get_data(as_text=True)
    assert viewer.client.get(f"/m/{token}/live",
                             headers={"If-None-Match": view_etag}).status_code == 304

    # A change on another device: both scoreboards answer 200 with the new state.
    assert table.indicator(mid, 1, "8h").status == 302
    assert table.finish(mid, 1, 100, last=A).status == 302
    for client, token_, old in ((table.client, mid, etag), (viewer.client, token, view_etag)):
        fresh = Page.of(client.get(f"/m/{token_}/live", headers={"If-None-Match": old}))
        assert fresh.status == 200
        assert fresh.response.headers["ETag"] != old
        assert fresh.standings() == ((110, 51), (0, 0))
        assert "Hand finished (hand 1)" in section(fresh, "changes")
        assert "#1" in section(fresh, "history")
        new_etag = fresh.response.headers["ETag"]
        assert client.get(f"/m/{token_}/live",
                          headers={"If-None-Match": new_etag}).status_code == 304
    # Unknown or malformed tokens.
    for bad in ("A" * 22, "nope", mid[:-1]):
        assert table.client.get(f"/m/{bad}/live").status_code == 404


# ---------------------------------------------------------------------------------------------
# The history of changes, devices, undo as an event


def test_history_of_changes_with_devices_and_undo_of_a_delete(app: Flask) -> None:
    chrome = browser(app, CHROME_LINUX)
    firefox = browser(app, FIREFOX_ANDROID)
    mid = chrome.new_match()
    assert chrome.indicator(mid, 1, "8h").status == 302                       # add
    assert firefox.get(f"/m/{mid}").status == 200
    assert firefox.finish(mid, 1, 100, last=A).status == 302                  # edit
    finished = chrome.hands(mid)
    assert chrome.indicator(mid, 2, "9l").status == 302
    page = chrome.get(f"/m/{mid}")
    assert chrome.delete(mid, 2, query_string={"base": base_in(page, f"/m/{mid}/hands/2/delete")}
                         ).status == 302                                     # delete
    assert chrome.hands(mid) == finished
    page = firefox.get(f"/m/{mid}")
    assert "Undo: Hand 2 deleted" in page.text
    undone = Page.of(firefox.client.post(undo_url(page), data={
        "csrf_token": firefox.token}, follow_redirects=True))
    assert undone.status == 200
    assert "Undone: Hand 2 deleted." in undone.notices
    hands = chrome.hands(mid)
    assert len(hands) == 2 and hands[1]["indicator"] == "9l"                  # it is back

    lines = events(undone)
    devices = re.findall(r"(Chrome on Linux|Firefox on Android) · ([0-9a-f]{4})", " ".join(lines))
    ids = {kind: {i for k, i in devices if k == kind} for kind in ("Chrome on Linux",
                                                                    "Firefox on Android")}
    assert all(len(v) == 1 for v in ids.values()), devices       # one id per browser
    chrome_dev = f"Chrome on Linux · {ids['Chrome on Linux'].pop()}"
    firefox_dev = f"Firefox on Android · {ids['Firefox on Android'].pop()}"
    expected = [("Undone: Hand 2 deleted", firefox_dev, False),
                ("Hand 2 deleted", chrome_dev, True),
                ("Trump indicator (hand 2)", chrome_dev, False),
                ("Hand finished (hand 1)", firefox_dev, False),
                ("Trump indicator (hand 1)", chrome_dev, False),
                ("Match started", chrome_dev, False)]
    assert len(lines) == len(expected), lines
    for line, (label, dev, marked) in zip(lines, expected, strict=True):
        assert re.match(r"\d\d \w{3} \d\d:\d\d:\d\d ", line), line
        assert label in line and line.endswith(dev), (line, label, dev)
        assert ("(undone)" in line) == marked, line
    assert re.search(r'<time datetime="\d{4}-\d\d-\d\dT[\d:.]+Z">', section(undone, "changes"))
    # The undo itself is not undone by the next undo: that takes back the change before it.
    assert "Undo: Trump indicator (hand 2)" in undone.text
    assert "Undo: Hand 2 deleted" not in undone.text


def test_undo_of_a_delete_through_htmx_brings_the_hand_back(app: Flask, table: Table) -> None:
    mid = table.seed([HAND_440_71, hand("9l", "", None, played((80, 71), B))])
    before = table.hands(mid)
    page = table.get(f"/m/{mid}")
    url = f"/m/{mid}/hands/1/delete?base={base_in(page, f'/m/{mid}/hands/1/delete')}"
    deleted = table.post(url, htmx=True)
    assert deleted.status == 200 and deleted.is_partial
    assert table.hands(mid) == [{**before[1], "dealer": B}]     # Tamás dealt it (6.1.1)
    assert "Undo: Hand 1 deleted" in deleted.text
    back = table.post(undo_url(deleted), htmx=True)
    assert back.status == 200 and back.is_partial
    assert table.hands(mid) == before
    assert "Undone: Hand 1 deleted." in back.notices
    assert any("Hand 1 deleted" in e and "(undone)" in e for e in events(back))
    assert "Undo:" not in text_of(section(back, "changes")).split("History of changes")[0]


@HTMX
def test_a_stale_undo_changes_nothing_and_says_so(app: Flask, table: Table, htmx: bool) -> None:
    mid = table.new_match()
    other = browser(app)
    assert table.indicator(mid, 1, "8h").status == 302
    seen = other.get(f"/m/{mid}")
    stale = undo_url(seen)
    assert "Undo: Trump indicator (hand 1)" in seen.text
    assert table.finish(mid, 1, 100, last=A).status == 302       # changed meanwhile
    before = state(app, mid)
    response = other.post(stale, htmx=htmx)
    page = response if htmx else other.follow(response)
    assert page.status == 200
    assert any("Nothing was undone" in n and "changed on another device" in n
               for n in page.notices), page.notices
    assert state(app, mid) == before
    # An older event named directly: refused the same way.
    first_event = min(e[0] for e in before[3])
    response = other.post(f"/m/{mid}/undo?event={first_event}", htmx=htmx)
    assert state(app, mid) == before
    page = response if htmx else other.follow(response)
    assert any("Nothing was undone" in n for n in page.notices)
    # The fresh page offers the latest change, and that undo works.
    fresh = other.get(f"/m/{mid}")
    assert "Undo: Hand finished (hand 1)" in fresh.text
    assert other.post(undo_url(fresh), htmx=htmx).status in (200, 302)
    assert table.hands(mid)[0]["end"] is None


def test_undo_with_nothing_to_undo(app: Flask, table: Table) -> None:
    mid = table.seed([HAND_440_71])
    page = table.get(f"/m/{mid}")
    assert "/undo" not in page.html
    before = state(app, mid)
    assert "Nothing to undo." in table.follow(table.undo(mid)).notices
    assert "Nothing was undone" in " ".join(table.follow(
        table.post(f"/m/{mid}/undo?event=12345")).notices)
    assert state(app, mid) == before


# ---------------------------------------------------------------------------------------------
# Stale forms: 409, the stored hand beside what was typed


def _conflict_shown(page: Page, word: str, number: int) -> str:
    assert page.status == 409, (page.status, page.text[:800])
    assert any(STALE_WORDS in e or "deleted on another device" in e for e in page.errors), \
        page.errors
    shown = text_of(section(page, "conflict"))
    assert f"Stored meanwhile: {word} {number}" in shown
    return shown


@HTMX
def test_stale_tartli_hand_action_keeps_what_was_typed(app: Flask, table: Table,
                                                      htmx: bool) -> None:
    mid = table.seed([HAND_440_71])
    other = browser(app, FIREFOX_ANDROID)
    editor = other.get(f"/m/{mid}/hands/1")
    stale = base_in(editor, f"/m/{mid}/hands/1/finish")
    assert stale == hand_base(table.hands(mid)[0])
    assert table.finish(mid, 1, 90, last=A).status == 302               # changed meanwhile
    before = state(app, mid)
    page = other.finish(mid, 1, 120, last=B, htmx=htmx,
                        query_string={"base": stale, "editing": "1"})
    shown = _conflict_shown(page, "hand", 1)
    assert "Ágnes" in page.text
    assert "Hand finished (hand 1)" in " ".join(page.errors)           # who changed it
    assert "Ágnes 450, Tamás 61" in shown and "Ágnes: pile count +90" in shown   # the stored hand
    assert page.value("finish-pile") == "120"                         # what was typed is kept
    assert page.checked("finish-last") == ["1"]
    assert state(app, mid) == before
    if htmx:
        assert page.is_partial
    else:
        assert page.is_full_page
    # Sending it again (the form now carries the stored hand's base) replaces the stored one.
    fresh = base_in(page, f"/m/{mid}/hands/1/finish")
    assert fresh == hand_base(table.hands(mid)[0])
    again = other.finish(mid, 1, 120, last=B, htmx=htmx, query_string={"base": fresh})
    assert again.status in (200, 302)
    assert table.hands(mid)[0]["end"]["piles"] == [120, 31]


@HTMX
def test_stale_new_hand_on_two_phones(app: Flask, table: Table, htmx: bool) -> None:
    mid = table.new_match()
    other = browser(app)
    assert base_in(other.get(f"/m/{mid}"), f"/m/{mid}/hands/1/indicator") == "new"
    assert table.indicator(mid, 1, "8h").status == 302
    before = state(app, mid)
    page = other.indicator(mid, 1, "9l", htmx=htmx, query_string={"base": "new"})
    _conflict_shown(page, "hand", 1)
    assert page.checked("indicator-indicator") == ["9l"]
    assert state(app, mid) == before


@HTMX
def test_stale_stovkahra_deal_action_keeps_what_was_typed(app: Flask, table: Table,
                                                         htmx: bool) -> None:
    series = Series(app, table.client, table._csrf_token)
    mid = series.seed_series([EXAMPLE_1])
    other_table = browser(app)
    other = Series(app, other_table.client, other_table._csrf_token)
    stale = base_in(other.get(f"/m/{mid}/hands/1"), f"/m/{mid}/hands/1/finish")
    assert series.finish_deal(mid, 1, 36, tricks=4, seven={4: NS}).status == 302
    before = state(app, mid)
    page = other.finish_deal(mid, 1, 44, tricks=6, seven={4: NS}, htmx=htmx,
                             query_string={"base": stale, "editing": "1"})
    shown = _conflict_shown(page, "deal", 1)
    assert "Deal finished (deal 1)" in " ".join(page.errors)
    # the stored deal
    assert "Jana & Eva 86, Petr & Karel 48" in shown and "card points (4 tricks) +36" in shown
    assert page.value("finish-points") == "44" and page.value("finish-tricks") == "6"
    assert state(app, mid) == before


@HTMX
def test_stale_marjolet_deal_action(app: Flask, table: Table, htmx: bool) -> None:
    game = Marjolet(app, table.client, table._csrf_token)
    mid = game.seed_game([MJ_DEAL])
    other_table = browser(app)
    other = Marjolet(app, other_table.client, other_table._csrf_token)
    stale = base_in(other.get(f"/m/{mid}/hands/1"), f"/m/{mid}/hands/1/finish")
    assert game.finish_deal(mid, 1, 50, trick10=A, last=A).status == 302
    before = state(app, mid)
    page = other.finish_deal(mid, 1, 70, trick10=B, last=A, htmx=htmx,
                             query_string={"base": stale})
    assert "Anne: aces and tens +50" in _conflict_shown(page, "deal", 1)
    assert page.value("finish-brisques") == "70"
    assert state(app, mid) == before


@HTMX
@pytest.mark.parametrize("game", ["tartli", "stovkahra"])
def test_stale_delete_shows_the_stored_hand(app: Flask, table: Table, game: str,
                                           htmx: bool) -> None:
    mid = seed(game, table)
    word = WEB_GAMES[game].game.hand_word
    other = browser(app)
    path = f"/m/{mid}/hands/1/delete"
    stale = f"{path}?base={base_in(other.get(f'/m/{mid}'), path)}"
    if game == "tartli":
        assert table.finish(mid, 1, 90, last=A).status == 302
    else:
        series = Series(app, table.client, table._csrf_token)
        assert series.finish_deal(mid, 1, 36, tricks=4, seven={4: NS}).status == 302
    before = state(app, mid)
    page = other.post(stale, htmx=htmx)
    shown = _conflict_shown(page, word, 1)
    # the stored hand, by name and score (issue 21: not "450 : 61")
    assert ("Ágnes 450, Tamás 61" if game == "tartli" else "Jana & Eva 86, Petr & Karel 48"
            ) in shown
    assert state(app, mid) == before


@HTMX
def test_deleting_a_hand_already_deleted_elsewhere(app: Flask, table: Table, htmx: bool) -> None:
    """Two phones delete the last hand: the second is told, nothing else is deleted."""
    mid = table.seed([HAND_440_71, hand("9l", "", None, played((80, 71), B))])
    other = browser(app)
    path = f"/m/{mid}/hands/2/delete"
    url = f"{path}?base={base_in(other.get(f'/m/{mid}'), path)}"
    assert table.post(url).status == 302
    before = state(app, mid)
    page = other.post(url, htmx=htmx)
    assert page.status == 409, (page.status, page.text[:500])
    assert any("deleted on another device" in e for e in page.errors), page.errors
    assert "Deleted on the other device" in text_of(section(page, "conflict"))
    assert state(app, mid) == before


@HTMX
def test_stale_form_for_a_hand_that_is_gone(app: Flask, table: Table, htmx: bool) -> None:
    """A phone is on the new hand 3 while another deletes hand 2: its form is refused with
    409 and what it typed, not a 404."""
    mid = table.seed([HAND_440_71, hand("9l", "", None, played((80, 71), B))])
    other = browser(app)
    assert base_in(other.get(f"/m/{mid}"), f"/m/{mid}/hands/3/indicator") == "new"
    page = table.get(f"/m/{mid}")
    assert table.post(f"/m/{mid}/hands/2/delete?base="
                      f"{base_in(page, f'/m/{mid}/hands/2/delete')}").status == 302
    before = state(app, mid)
    page = other.indicator(mid, 3, "Al", htmx=htmx, query_string={"base": "new"})
    assert page.status == 409, (page.status, page.text[:500])
    assert any("deleted on another device" in e or STALE_WORDS in e for e in page.errors)
    assert page.checked("indicator-indicator") == ["Al"]
    assert state(app, mid) == before


# ---------------------------------------------------------------------------------------------
# An old database


def _old_schema() -> tuple[MetaData, SqlTable, SqlTable, SqlTable]:
    """The tables as Referee created them before edit and view tokens (commit 16fb85c)."""
    meta = MetaData()
    matches = SqlTable(
        "matches", meta,
        Column("id", String(32), primary_key=True),
        Column("game", String(20), nullable=False),
        Column("settings", Text, nullable=False),
        Column("created", DateTime, nullable=False),
        Column("updated", DateTime, nullable=False),
    )
    hands = SqlTable(
        "hands", meta,
        Column("id", Integer, primary_key=True, autoincrement=True),
        Column("match_id", String(32), ForeignKey("matches.id", ondelete="CASCADE"),
               nullable=False),
        Column("position", Integer, nullable=False),
        Column("facts", Text, nullable=False),
        UniqueConstraint("match_id", "position"),
    )
    actions = SqlTable(
        "actions", meta,
        Column("id", Integer, primary_key=True, autoincrement=True),
        Column("match_id", String(32), ForeignKey("matches.id", ondelete="CASCADE"),
               nullable=False),
        Column("created", DateTime, nullable=False),
        Column("label", String(200), nullable=False),
        Column("before", Text, nullable=False),
    )
    return meta, matches, hands, actions


def test_an_old_database_keeps_its_links_as_edit_links(database_url: str) -> None:
    from referee.engine.games.tartli import GAME

    meta, matches, hands, actions = _old_schema()
    engine = create_engine(database_url)
    settings = GAME.settings({"players": ["Ágnes", "Tamás"], "target": 5, "first_dealer": 0})
    first = GAME.canonical_hand(HAND_440_71)
    started = GAME.canonical_hand(hand("9l"))
    old_ids = ["oldMatchToken_AAAAAAAAA", "oldMatchToken_BBBBBBBBB"]
    with engine.begin() as conn:
        meta.create_all(conn)
        for mid in old_ids:
            now = datetime(2026, 11, 1, 20, 0)
            conn.execute(insert(matches).values(id=mid, game="tartli",
                                                settings=json.dumps(settings), created=now,
                                                updated=now))
            for position, facts in enumerate((first, started)):
                conn.execute(insert(hands).values(match_id=mid, position=position,
                                                  facts=json.dumps(facts)))
            conn.execute(insert(actions).values(match_id=mid, created=now,
                                                label="Trump indicator (hand 2)",
                                                before=json.dumps([first])))
    engine.dispose()

    apps = []
    try:
        for _ in range(2):              # the upgrade runs once; a second start changes nothing
            apps.append(create_app({"TESTING": True, "DATABASE_URL": database_url}))
        app = apps[-1]
        store = store_of(app)
        views = [view_token(app, mid) for mid in old_ids]
        assert views == [view_token(apps[0], mid) for mid in old_ids]
        assert len(set(views + old_ids)) == 4 and all(TOKEN.fullmatch(v) for v in views)

        client = app.test_client()
        table = Table(app, client, csrf_of(client))
        mid = old_ids[0]
        page = table.get(f"/m/{mid}")
        assert page.status == 200
        assert "editor" in page.ids and post_forms(page)
        assert set(_figures(page)) == {"edit", "view"}
        assert "Undo: Trump indicator (hand 2)" in page.text        # the old undo log works
        assert table.hands(mid) == [first, started]
        live = client.get(f"/m/{mid}/live")
        assert live.status_code == 200 and live.headers["ETag"]
        # It can be changed through its old link; the change is an event with a device.
        assert table.post(undo_url(page)).status == 302
        assert table.hands(mid) == [first]
        assert table.indicator(mid, 2, "Al").status == 302
        assert table.hands(mid)[1]["indicator"] == "Al"
        assert store.version(mid) == (3, True)
        # The new view token only reads.
        viewer = browser(app)
        assert viewer.get(f"/m/{views[0]}").status == 200
        assert viewer.post(f"/m/{views[0]}/undo").status == 403
        # The other old match is untouched.
        assert table.hands(old_ids[1]) == [first, started]
    finally:
        for a in apps:
            store_of(a).engine.dispose()
