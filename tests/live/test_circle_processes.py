"""Two server processes on one database (issue 24: a club server's workers): each keeps its
own copy of a circle's statistics (referee/web/circles/derived.py), checked against the
database's version at every request, so a hand entered through one process is counted by the
other at its next view. On SQLite and on PostgreSQL."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html import unescape
from pathlib import Path

import pytest

from referee.engine.games import get
from referee.web.store import Circles, Store

from .server import Device, LiveServer
from .test_race import finish_hand, start_hand

TARTLI = get("tartli").settings({"players": ["Anna", "Bela"], "target": 5, "first_dealer": 0})


@pytest.fixture
def two_servers(database_url: str, tmp_path: Path) -> Iterator[tuple[LiveServer, LiveServer]]:
    servers = [LiveServer(database_url, tmp_path / f"server-{n}.log") for n in (1, 2)]
    try:
        for server in servers:
            server.start()
        yield servers[0], servers[1]
    finally:
        for server in servers:
            server.stop()
            server.release()


def _text(body: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", body)).split())


def test_a_hand_entered_through_one_process_is_in_the_other_ones_statistics(
        two_servers: tuple[LiveServer, LiveServer]) -> None:
    a, b = two_servers
    store = Store(a.database_url)
    try:
        circles = Circles(store)
        token = circles.create("Club")
        match = circles.start_match(token, "tartli", TARTLI, ["Anna", "Bela"])
    finally:
        store.engine.dispose()
    on_a, on_b = Device(a.url, "phone on A"), Device(b.url, "phone on B")
    for hands in range(1, 3):
        seen = on_a.get(f"/c/{token}/statistics")              # A keeps the circle
        assert seen.status == 200
        assert f"1 match, 0 finished, {hands - 1} hand" in _text(seen.body)
        start_hand(on_b, match, hands, "7a")                   # a hand entered through B
        finish_hand(on_b, match, hands, 80)
        again = _text(on_a.get(f"/c/{token}/statistics").body)
        assert f"1 match, 0 finished, {hands} hand" in again
        assert f"1 match, 0 finished, {hands} hand" in _text(
            on_b.get(f"/c/{token}/statistics").body)
