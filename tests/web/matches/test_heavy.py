"""Heavy requests that cannot hurt the table: the scoresheet PDF is made at most once per
version of a match and one at a time; a change early in a long match flashes a summary of
the later hands it changed, not one notice per hand (the session cookie holds them)."""

from __future__ import annotations

import random
import re
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from test_sharing import store_of, view_token
from webtools import HAND_440_71, Page, Table

from referee.engine import matchfile, scoring
from referee.engine.games.troggu import GAME as TROGGU
from referee.web.matches import exports as pdf
from referee.web.matches.exports import Scoresheets

HTMX = pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
COOKIE_LIMIT = 4096       # bytes of one cookie that browsers keep (name, value, attributes)


# ---------------------------------------------------------------------------------------------
# The scoresheet PDF


class Renders:
    """Stands in for WeasyPrint: counts the PDFs made, and how many at the same time; each
    "PDF" names the record it was made from (its players and its hands)."""

    def __init__(self, seconds: float = 0.0) -> None:
        self.seconds = seconds
        self.made: list[str] = []
        self.running = 0
        self.most = 0
        self._lock = threading.Lock()

    def __call__(self, m: matchfile.MatchFile, explained: bool = False,
                 match: object = None) -> bytes:
        with self._lock:
            self.running += 1
            self.most = max(self.most, self.running)
        time.sleep(self.seconds)
        body = f"{' '.join(m.settings['players'])}: {len(m.hands)} hands" + (
            ", explained" if explained else "")
        with self._lock:
            self.running -= 1
            self.made.append(body)
        return body.encode()


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch) -> Iterator[Renders]:
    fake = Renders()
    monkeypatch.setattr(pdf, "render_pdf", fake)
    yield fake


def sheet(client: FlaskClient, token: str, explained: bool = False) -> str:
    response = client.get(f"/m/{token}/scoresheet.pdf{'?explained=1' if explained else ''}")
    assert response.status_code == 200, response.status_code
    assert response.mimetype == "application/pdf"
    return response.get_data(as_text=True)


def test_a_scoresheet_is_made_once_per_version_of_its_match(
        app: Flask, table: Table, renders: Renders) -> None:
    mid = table.seed([HAND_440_71], names=["Ágnes", "Tamás"])
    view = view_token(app, mid)
    first = sheet(table.client, mid)
    assert first == "Ágnes Tamás: 1 hands"
    # Asked again, by the edit or the view link: the same PDF, not made again.
    assert sheet(table.client, mid) == first
    assert sheet(app.test_client(), view) == first
    assert renders.made == [first]
    # With every hand's explanation: another PDF of the same version, made once too.
    assert sheet(table.client, mid, explained=True) == "Ágnes Tamás: 1 hands, explained"
    assert sheet(app.test_client(), view, explained=True) == "Ágnes Tamás: 1 hands, explained"
    assert sheet(table.client, mid) == first
    assert renders.made == [first, "Ágnes Tamás: 1 hands, explained"]
    # A new version of the match (a hand entered): made anew, with the new hand.
    assert table.indicator(mid, 2, "8h").status == 302
    assert sheet(table.client, mid) == "Ágnes Tamás: 2 hands"
    # Undone: another version again, which shows one hand once more.
    assert table.undo(mid).status == 302
    assert sheet(app.test_client(), view) == "Ágnes Tamás: 1 hands"
    assert len(renders.made) == 4


def test_a_scoresheet_is_never_another_matchs(app: Flask, table: Table,
                                               renders: Renders) -> None:
    """Two matches at the same version: each gets its own PDF."""
    first = table.seed([HAND_440_71], names=["Ágnes", "Tamás"])
    second = table.seed([HAND_440_71], names=["Zsófi", "Gergő"])
    assert store_of(app).version(first) == store_of(app).version(second)
    assert sheet(table.client, first) == "Ágnes Tamás: 1 hands"
    assert sheet(table.client, second) == "Zsófi Gergő: 1 hands"
    assert sheet(table.client, first) == "Ágnes Tamás: 1 hands"
    assert len(renders.made) == 2


def _at_once(app: Flask, tokens: list[str]) -> list[str]:
    """Ask for these scoresheets at the same moment, each from another browser."""
    start = threading.Barrier(len(tokens))
    bodies: dict[int, str] = {}

    def ask(n: int, token: str) -> None:
        client = app.test_client()
        start.wait()
        bodies[n] = sheet(client, token)

    threads = [threading.Thread(target=ask, args=(n, t)) for n, t in enumerate(tokens)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return [bodies[n] for n in range(len(tokens))]


def test_three_requests_at_once_make_one_scoresheet(app: Flask, table: Table,
                                                    renders: Renders) -> None:
    renders.seconds = 0.3
    mid = table.seed([HAND_440_71])
    bodies = _at_once(app, [mid, mid, view_token(app, mid)])
    assert len(renders.made) == 1
    assert bodies == renders.made * 3


def test_scoresheets_are_made_one_at_a_time(app: Flask, table: Table,
                                            renders: Renders) -> None:
    renders.seconds = 0.2
    tokens = [table.seed([HAND_440_71], names=[f"Player {n}", "Tamás"]) for n in range(3)]
    bodies = _at_once(app, tokens)
    assert bodies == [f"Player {n} Tamás: 1 hands" for n in range(3)]
    assert sorted(renders.made) == sorted(bodies)
    assert renders.most == 1


def test_the_kept_scoresheets_are_bounded_in_bytes(renders: Renders) -> None:
    """The least recently asked for goes first once they hold more than the limit."""
    record = matchfile.MatchFile(game="troggu", settings={"players": PLAYERS}, hands=[],
                                 created="2026-01-01")
    size = len(renders(record))
    renders.made.clear()
    kept = Scoresheets(limit=2 * size)

    def ask(match_id: str) -> None:
        kept.get(match_id, 1, lambda: record)

    for match_id in ("a", "b", "a", "c"):      # "b" is the least recently asked for
        ask(match_id)
    assert len(renders.made) == 3
    ask("a")
    ask("c")
    assert len(renders.made) == 3
    ask("b")
    assert len(renders.made) == 4


# ---------------------------------------------------------------------------------------------
# What changed further down a long match


LONG = 300                 # games of the long Troggu evening
PLAYERS = ["Anna", "Beat", "Carla", "Dario", "Elsa"]


def normal(dealer: int, declarer: int, points: int) -> dict[str, Any]:
    """A Troggu normal game: the declarer bids, everybody else passes."""
    bids = ["pass"] * len(PLAYERS)
    bids[(declarer - dealer - 1) % len(PLAYERS)] = "normal"
    return {"dealer": dealer, "bids": bids, "game": "normal", "declarer": declarer,
            "end": {"points": points, "loser_took_trick": True}}


def long_evening(games: int = LONG) -> list[dict[str, Any]]:
    """Normal games dealt in turn, each played by someone (won or lost) with some points."""
    pick = random.Random(LONG)
    return [TROGGU.canonical_hand(normal(n % 5, pick.randrange(5), pick.randrange(30, 100)))
            for n in range(games)]


def seed_evening(table: Table, games: int = LONG) -> str:
    settings = TROGGU.settings({"players": PLAYERS, "first_dealer": 0})
    hands = long_evening(games)
    TROGGU.score(settings, hands)
    return store_of(table.app).create("troggu", settings, hands)


def seen_evening(table: Table, games: int) -> str:
    """A Troggu evening of ``games`` hands on a fresh fold cache, its page seen once (its
    hands checked, then cached)."""
    scoring.forget()
    mid = seed_evening(table, games)
    assert table.get(f"/m/{mid}").status == 200
    return mid


def finish(table: Table, mid: str, n: int, points: int, htmx: bool) -> Page:
    """Edit game ``n``'s end: the declarer's side made ``points``."""
    return table.post(f"/m/{mid}/hands/{n}/finish?editing=1", {
        "finish-points": str(points), "finish-took": "yes", "finish-tricks": "",
        "finish-tapp_points": "", "finish-fool_kept": ""}, htmx=htmx, prefix="finish")


def _session_cookie(client: FlaskClient) -> int:
    """The size of the session cookie as the browser is sent it."""
    cookie = client.get_cookie("session")
    assert cookie is not None
    return len(f"session={cookie.value}; HttpOnly; Path=/; SameSite=Lax")


def told_about(notices: list[str], first: int, later: int | None) -> None:
    """The notices tell hands ``first`` to ``first + 2`` one by one, then the ``later`` ones
    (None: some) as a number."""
    assert len(notices) == 4, notices
    for n, notice in enumerate(notices[:3], first):
        assert re.match(rf"Hand {n}(:| now:) ", notice), notices
    count = r"\d+" if later is None else str(later)
    assert re.fullmatch(rf"… and {count} later hands changed\.", notices[3]), notices


@HTMX
def test_deleting_and_restoring_hand_1_of_a_long_match_summarise_the_later_hands(
        app: Flask, table: Table, htmx: bool) -> None:
    """Every later game's totals move: game 1's notices, then how many more changed."""
    mid = seed_evening(table)
    evening = table.hands(mid)
    response = table.post(f"/m/{mid}/hands/1/delete", htmx=htmx)
    if not htmx:
        assert _session_cookie(table.client) < COOKIE_LIMIT
    page = table.done(response, htmx)
    assert page.notices[0] == "Hand 1 deleted."
    told_about(page.notices[1:], 1, LONG - 4)
    stored = store_of(app).load(mid, events=1)
    assert stored is not None and len(stored.hands) == LONG - 1
    response = table.post(f"/m/{mid}/changes/{stored.events[0].id}/restore", htmx=htmx)
    if not htmx:
        assert _session_cookie(table.client) < COOKIE_LIMIT
    page = table.done(response, htmx)
    assert page.notices[0] == "Hand 1 restored."
    told_about(page.notices[1:], 2, None)
    assert table.hands(mid) == evening


@HTMX
def test_editing_hand_1_of_a_long_match_summarises_the_later_hands(table: Table,
                                                                   htmx: bool) -> None:
    mid = seed_evening(table)
    response = finish(table, mid, 1, 101, htmx)
    if not htmx:
        assert _session_cookie(table.client) < COOKIE_LIMIT
    page = table.done(response, htmx)
    told_about(page.notices, 2, LONG - 4)
    assert table.hands(mid)[0]["end"]["points"] == 101


def test_a_few_later_hands_are_each_told(table: Table) -> None:
    """Up to four changed later hands are told one by one (a summary would save nothing)."""
    mid = seed_evening(table, 5)
    page = table.done(table.post(f"/m/{mid}/hands/1/delete"), False)
    assert page.notices[0] == "Hand 1 deleted."
    assert [n.split(":")[0].split(" now")[0] for n in page.notices[1:]] == [
        "Hand 1", "Hand 2", "Hand 3", "Hand 4"]
