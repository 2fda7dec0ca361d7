"""Small htmx answers and a cheap live poll (issue 12). An htmx answer to a hand action swaps
only the parts that may have changed: the top of the page (#live-top: the outcome, a refusal)
is its target; the scoreboard, the editor, the hands, the undo button and the history of
changes come out of band. A refusal (422) sends the top and the editor with what was typed,
nothing else. HTML answers travel gzipped to a browser that takes it. The live scoreboard's
200 is rendered once per version of the match and shared by every phone polling it; each
phone's own part (the address it polls, its editor-stale warning) is added to it; the 304
(nothing changed) is answered before Flask, from one read of the version."""

from __future__ import annotations

import gzip
import re
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask, request_started, template_rendered
from games.test_troggu_web import NAMES, Troggu, misere, normal
from webtools import HAND_440_71, A, B, Page, Table, hand
from werkzeug.test import Client

GOAL = 8 * 1024           # bytes on the wire of an htmx answer to a hand action (issue 12)
OOB = 'hx-swap-oob="true"'


def tag(page: Page, id_: str) -> str:
    """The opening tag of the element with this id."""
    found = re.search(rf'<[a-z]+ [^>]*\bid="{id_}"[^>]*>', page.html)
    assert found, (id_, page.html[:500])
    return found.group(0)


def wire(table: Table, url: str, data: dict[str, Any], prefix: str) -> tuple[int, str]:
    """POST as htmx does from a browser that takes gzip: the answer's size on the wire and
    its HTML."""
    response = table.client.post(url, data={f"{prefix}-{k}": v for k, v in data.items()},
                                 headers={"HX-Request": "true", "X-CSRFToken": table.token,
                                          "Accept-Encoding": "gzip, br"})
    assert response.status_code == 200, response.status_code
    assert response.headers["Content-Encoding"] == "gzip"
    body = response.get_data()
    return len(body), gzip.decompress(body).decode()


# ---------------------------------------------------------------------------------------------
# A hand action's answer


def test_a_trick_answer_sends_only_the_parts_that_changed(table: Table) -> None:
    mid = table.seed([HAND_440_71])
    assert table.indicator(mid, 2, "8h").status == 302
    page = table.trick(mid, 2, 1, winner=B, htmx=True)
    assert page.status == 200 and page.is_partial
    assert page.response.headers["HX-Retarget"] == "#live-top"
    assert page.html.lstrip().startswith('<div id="live-top"')
    for part in ("scoreboard", "live-editor", "history", "live-undo", "changes"):
        assert OOB in tag(page, part), part
    # the page's frame stays: heading, rules in force, the downloads
    assert "<h1>" not in page.html and "Rules in force" not in page.html
    assert "Scoresheet (PDF)" not in page.html
    assert "Undo: Trick 1 of hand 2" in page.text
    assert 'id="editor"' in page.html and "Trick 2" in page.text


def test_a_finished_hand_answers_its_outcome_and_the_standings_out_of_band(
        table: Table) -> None:
    mid = table.seed([HAND_440_71])
    for step in (lambda: table.indicator(mid, 2, "8h"),
                 lambda: table.trick(mid, 2, 1, winner=B)):
        assert step().status == 302
    size, html = wire(table, f"/m/{mid}/hands/2/finish",
                      {"pile_player": "0", "pile": "40", "last": "1"}, "finish")
    assert size <= GOAL, size
    assert html.lstrip().startswith('<div id="live-top"')
    outcome = re.search(r'<div id="outcome"[^>]*>(.*?)</div>', html, re.S)
    assert outcome and "Hand 2:" in outcome.group(1)
    board = re.search(r'<div id="scoreboard"[^>]*>', html)
    assert board and OOB in board.group(0)
    assert 'id="standings"' in html.split('id="live-editor"')[0]
    # the chart of the running totals (issue 13) with the new hand, out of band too
    chart = re.search(r'<div id="live-chart"[^>]*>\s*<details[^>]*id="chart"', html)
    assert chart and OOB in chart.group(0)


def test_a_refusal_swaps_the_top_and_the_editor_with_what_was_typed(table: Table) -> None:
    """422 is swapped (base.html's htmx-config): the error at its field, the typed values kept;
    nothing stored changed, so neither the hands nor the history of changes are sent."""
    mid = table.seed([HAND_440_71])
    assert table.indicator(mid, 2, "8h").status == 302
    assert table.trick(mid, 2, 1, winner=B).status == 302
    page = table.finish(mid, 2, 200, pile_player=1, last=1, htmx=True)
    assert page.status == 422 and page.is_partial
    assert page.response.headers["HX-Retarget"] == "#live-top"
    assert page.response.headers["HX-Reswap"] == "outerHTML show:#rule-error:top"
    assert 'id="rule-error"' in page.html.split('id="live-editor"')[0]
    assert OOB in tag(page, "live-editor")
    assert page.value("finish-pile") == "200" and page.checked("finish-pile_player") == ["1"]
    assert page.errors
    assert 'id="history"' not in page.html and 'id="changes"' not in page.html


def test_an_edit_of_an_early_hand_sends_the_later_hands_recomputed(
        app: Flask, client: Any, csrf_token: Callable[..., str]) -> None:
    """Hand 3 of 10 edited: every later hand's balances change, and the answer's hands show
    them (the whole history swapped out of band)."""
    tg = Troggu(app, client, csrf_token)
    hands = [normal(n % 5, (n + 1) % 5, 71, 5) for n in range(10)]
    hands[2] = misere(2, [30, 30, 20, 15, 10])
    mid = tg.seed_match(hands)
    before = tg.get(f"/m/{mid}")
    page = tg.misere(mid, 3, [10, 30, 30, 20, 15], editing=True, htmx=True)
    assert page.status == 200 and page.is_partial, page.errors
    history = page.html[page.html.index('id="history"'):]
    assert OOB in tag(page, "history")
    for n in (3, 7, 10):
        row = _row(history, n)
        assert row != _row(before.html, n), n          # its balances after changed
    # Anna paid in the old Misère (30, most points) and receives in the new one (10, fewest)
    assert tg.balances(page) != tg.balances(before)
    assert NAMES[0] in page.text


def _row(html: str, n: int) -> str:
    """The hand ``n``'s entry in the hands' history, tags left out."""
    found = re.search(rf'id="hand-{n}"(.*?)(?=id="hand-{n + 1}"|</ol>)', html, re.S)
    assert found, n
    return " ".join(re.sub(r"<[^>]+>", " ", found.group(1)).split())


def test_html_answers_are_gzipped_only_for_a_browser_that_takes_it(table: Table) -> None:
    mid = table.seed([HAND_440_71])
    plain = table.client.get(f"/m/{mid}")
    zipped = table.client.get(f"/m/{mid}", headers={"Accept-Encoding": "gzip"})
    assert "Content-Encoding" not in plain.headers
    assert zipped.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in plain.vary and "Accept-Encoding" in zipped.vary
    assert len(zipped.get_data()) < len(plain.get_data()) / 3
    assert b"<h1>" in gzip.decompress(zipped.get_data())


# ---------------------------------------------------------------------------------------------
# The live poll


def _rendered(app: Flask) -> tuple[list[str], Callable[[], None]]:
    names: list[str] = []

    def record(sender: Flask, template: Any, context: dict[str, Any], **_: Any) -> None:
        names.append(template.name)

    template_rendered.connect(record, app)
    return names, lambda: template_rendered.disconnect(record, app)


def another_phone(app: Flask, csrf_token: Callable[..., str]) -> Table:
    client = app.test_client()
    return Table(app, client, lambda url="/", other=None: csrf_token(url, other or client))


def test_phones_polling_one_version_share_one_rendering(
        app: Flask, table: Table, csrf_token: Callable[..., str]) -> None:
    mid = table.seed([HAND_440_71, hand("9l", "", None)])
    phones = [table, another_phone(app, csrf_token), another_phone(app, csrf_token)]
    for phone in phones:
        phone.get(f"/m/{mid}")                         # each its own session and CSRF token
    page = table.get(f"/m/{mid}")
    delete = re.search(r'hx-post="(/m/[^"]+/hands/2/delete[^"]*)"', page.html)
    assert delete and table.post(delete.group(1).replace("&amp;", "&")).status == 302
    rendered, stop = _rendered(app)
    try:
        answers = [phone.client.get(f"/m/{mid}/live", headers={"HX-Request": "true"})
                   for phone in phones]
    finally:
        stop()
    assert all(a.status_code == 200 for a in answers)
    assert len({a.headers["ETag"] for a in answers}) == 1
    assert rendered.count("matches/_history.html") == 1
    assert rendered.count("matches/_board.html") == 1                  # the standings
    assert rendered.count("matches/_changes.html") == 1
    bodies = [a.get_data(as_text=True) for a in answers]
    # alike but for each phone's CSRF token in its forms (the history's Restore button)
    tokens = [re.findall(r'name="csrf_token"[^>]*value="([^"]+)"', b) for b in bodies]
    assert all(len(set(found)) == 1 for found in tokens), tokens
    assert len({b.replace(t[0], "") for b, t in zip(bodies, tokens, strict=True)}) == 1
    assert len({t[0] for t in tokens}) == 3
    # the last phone restores the hand with the form its poll brought (no JavaScript's header)
    restore = re.search(r'action="(/m/[^"]+/restore)"', bodies[2])
    assert restore
    done = phones[2].post(restore.group(1), {"csrf_token": tokens[2][0]}, token=False)
    assert done.status == 302, done.text[:300]
    assert len(table.hands(mid)) == 2


def test_the_shared_poll_still_warns_only_the_stale_editor(
        app: Flask, table: Table, csrf_token: Callable[..., str]) -> None:
    """Two phones poll the same new version: the one whose open editor was built on the old
    hand 2 is warned, the one editing hand 1 (unchanged) is not, from one rendering."""
    mid = table.seed([HAND_440_71, hand("9l", "", None)])
    mine = another_phone(app, csrf_token)
    # (the first change also writes in the dealer of every seeded hand: done before)
    assert mine.trick(mid, 2, 1, winner=A).status == 302
    other = another_phone(app, csrf_token)
    editing_1 = _poll(table.get(f"/m/{mid}/hands/1").html)
    # (something typed into the editor of hand 2: warned; untouched, it would follow)
    editing_2 = _poll(other.get(f"/m/{mid}/hands/2").html) + "&typed=1"
    assert mine.trick(mid, 2, 2, winner=B).status == 302
    rendered, stop = _rendered(app)
    try:
        quiet = table.get(editing_1, htmx=True)
        warned = other.get(editing_2, htmx=True)
    finally:
        stop()
    assert rendered.count("matches/_history.html") == 1
    assert "just changed on another phone" not in quiet.text
    assert "Hand 2 was just changed on another phone" in warned.text
    assert 'id="editor-stale"' in quiet.html                      # cleared where shown


def _poll(page_html: str) -> str:
    found = re.search(r'<div id="scoreboard"[^>]*hx-get="([^"]+)"', page_html)
    assert found
    return found.group(1).replace("&amp;", "&")


def test_an_unchanged_poll_is_answered_before_flask_as_the_app_would(
        app: Flask, table: Table) -> None:
    """The 304 (nearly every request a table makes) reads the version and nothing else: no
    request reaches Flask (no session, no routing); its headers are those of the app's 304."""
    mid = table.seed([HAND_440_71])
    tokens = [mid, app.extensions["referee.store"].load(mid).view_token]
    inner = Client(app.wsgi_app.app)          # type: ignore[attr-defined]   # the app alone
    for token in tokens:
        etag = table.client.get(f"/m/{token}/live").headers["ETag"]
        asked = {"If-None-Match": etag, "HX-Request": "true"}
        started: list[object] = []

        def record(sender: Flask, **_: Any) -> None:
            started.append(sender)  # noqa: B023

        request_started.connect(record, app)
        try:
            fast = table.client.get(f"/m/{token}/live", headers=asked)
        finally:
            request_started.disconnect(record, app)
        assert fast.status_code == 304 and fast.get_data() == b"" and not started
        own = inner.get(f"/m/{token}/live", headers=asked)
        assert own.status_code == 304
        assert sorted(fast.headers.items()) == sorted(own.headers.items()), token
    # a changed version, a stale validator or an unknown token go on to the app
    assert table.client.get(f"/m/{mid}/live", headers={"If-None-Match": '"0e"'}).status_code \
        == 200
    assert table.client.get("/m/" + "A" * 22 + "/live",
                            headers={"If-None-Match": '"1e"'}).status_code == 404


def test_the_unchanged_poll_reads_the_version_on_every_database(db_app: Flask) -> None:
    """SQLite and PostgreSQL (each driver its own placeholders): the edit link's and the view
    link's version, a change seen, an unknown token."""
    store = db_app.extensions["referee.store"]
    mid = store.create("tartli", {"players": ["A", "B"], "target": 5, "first_dealer": 0}, [])
    view = store.load(mid).view_token
    client = db_app.test_client()
    for token, kind in ((mid, "e"), (view, "v")):
        assert store.version(token) == (1, kind == "e")
        asked = {"If-None-Match": f'"1{kind}"'}
        assert client.get(f"/m/{token}/live", headers=asked).status_code == 304
    assert store.version("A" * 22) is None
    stored = store.load(mid)
    store.save_hands(mid, stored.hands, [{"indicator": "8h", "exchange": None, "tricks": [],
                                          "bela": None, "end": None, "dealer": A}],
                     "Trump indicator (hand 1)", "", version=stored.version)
    assert store.version(mid) == (2, True)
    changed = client.get(f"/m/{mid}/live", headers={"If-None-Match": '"1e"'})
    assert changed.status_code == 200 and changed.headers["ETag"] == '"2e"'


def test_a_new_version_of_a_long_match_fingerprints_only_the_hands_it_shows(
        app: Flask, table: Table, csrf_token: Callable[..., str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 12: the shared poll answer of a new version fingerprints the hands its history
    shows and the hand a phone watches, not every hand of the match (``StoredMatch.base``)."""
    from matches.test_heavy import finish, seed_evening
    from referee.web.matches.history import PAGE
    from referee.web.store import matchstore as stored

    hands = 3 * PAGE
    mid = seed_evening(table, hands)
    watching = _poll(table.get(f"/m/{mid}/hands/{PAGE}").html) + "&typed=1"  # an older hand
    assert finish(another_phone(app, csrf_token), mid, PAGE, 61, False).status == 302
    fingerprinted: list[object] = []
    fingerprint = stored.hand_base

    def counted(facts: object, layout: int = 0) -> str:
        fingerprinted.append(facts)
        return fingerprint(facts, layout)  # type: ignore[arg-type]

    monkeypatch.setattr(stored, "hand_base", counted)
    answer = table.get(watching, htmx=True)
    assert answer.status == 200
    assert f"Hand {PAGE} was just changed on another phone" in answer.text
    assert len(fingerprinted) <= PAGE + 3, len(fingerprinted)   # its rows, the watched, new
