"""A club server (issue 24): gunicorn with three worker processes, the README's settings. A
long match's scoresheet asked for by three phones at once is made once for all the processes
(the app logs each PDF it makes), and each phone gets that PDF, at once or after a "being
made" answer (503, ``Retry-After``) when it asks again; the home page answers while it is
being made."""

from __future__ import annotations

import re
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from referee.web.store import Store
from tests.bench.long_match import troggu_match

from .gunicorn import Gunicorn

WORKERS = 3
PHONES = 3
HANDS = 400
MADE = re.compile(r"PDF made: scoresheet\+")


@pytest.fixture
def club(database_url: str, tmp_path: Path) -> Iterator[Gunicorn]:
    """On PostgreSQL the README's club server (gthread: threads in each worker); on SQLite
    one of single-threaded workers ("sync"), each of which takes a request only when it has
    none: three phones at once are three processes' requests."""
    kind = "gthread" if database_url.startswith("postgresql") else "sync"
    server = Gunicorn(database_url, tmp_path / "server.log", tmp_path / "pdf", WORKERS, kind)
    try:
        server.start(timeout=60)
        yield server
    finally:
        server.stop()
        server.release()


def long_match(database_url: str) -> str:
    """A Troggu match of ``HANDS`` hands, stored directly: its edit token."""
    record = troggu_match(HANDS)
    store = Store(database_url)
    try:
        return store.create(record.game, record.settings, record.hands)
    finally:
        store.engine.dispose()


def fetch(url: str) -> tuple[int, bytes, str | None]:
    """The status, the body and ``Retry-After`` of a GET."""
    try:
        with urllib.request.urlopen(url, timeout=300) as response:
            return response.status, response.read(), response.headers.get("Retry-After")
    except urllib.error.HTTPError as answer:
        return answer.code, answer.read(), answer.headers.get("Retry-After")


def scoresheet(url: str, answers: list[int]) -> bytes:
    """The PDF at ``url``, asked for again as the "being made" page says; every status
    received is added to ``answers``."""
    while True:
        status, body, retry = fetch(url)
        answers.append(status)
        if status != 503:
            assert status == 200, (status, body[:500])
            return body
        assert retry is not None and int(retry) > 0
        page = body.decode()
        assert "The scoresheet is being made; it will be ready in a moment." in page
        assert f'<meta http-equiv="refresh" content="{retry}">' in page
        time.sleep(int(retry))


def test_three_phones_get_one_scoresheet_made_once_and_the_home_page_meanwhile(
        club: Gunicorn, database_url: str) -> None:
    token = long_match(database_url)
    url = f"{club.url}/m/{token}/scoresheet.pdf"
    answers: list[int] = []
    start = threading.Barrier(PHONES)

    def phone(_: int) -> bytes:
        start.wait(timeout=30)
        return scoresheet(url, answers)

    with ThreadPoolExecutor(PHONES) as pool:
        asked = [pool.submit(phone, n) for n in range(PHONES)]
        # once the sheet is being made (its lock in the folder), the home page answers
        lock = club.pdf_folder / "never"
        while not any(asked_one.done() for asked_one in asked):
            locks = list(club.pdf_folder.glob("*.lock"))
            if locks:
                lock = locks[0]
                break
            time.sleep(0.01)
        home, _, _ = fetch(club.url + "/")
        assert home == 200
        home_answered_while_made = lock.exists()
        sheets = [asked_one.result() for asked_one in asked]

    assert sheets[0].startswith(b"%PDF-") and sheets == [sheets[0]] * PHONES
    log = club.log.read_text(errors="replace")
    assert len(MADE.findall(log)) == 1, log[-3000:]
    assert set(answers) <= {200, 503} and answers.count(200) == PHONES
    if club.worker_class == "gthread":         # a thread of a worker is free for it
        assert home_answered_while_made, log[-3000:]
    # a phone asking later gets the same file, from any worker, made no more
    assert [scoresheet(url, answers) for _ in range(WORKERS)] == [sheets[0]] * WORKERS
    assert len(MADE.findall(club.log.read_text(errors="replace"))) == 1
    assert [p.name.endswith(".pdf") for p in club.pdf_folder.iterdir()] == [True]
