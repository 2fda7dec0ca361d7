"""Fixtures of the live tests: the real server on the ``database_url`` database (SQLite, and
PostgreSQL when REFEREE_TEST_POSTGRESQL_URL is set), and the store on that same database."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.web.store import Store

from .server import LiveServer


@pytest.fixture
def live_server(database_url: str, tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(database_url, tmp_path / "server.log")
    try:
        server.start()
        yield server
    finally:
        server.stop()
        server.release()


@pytest.fixture
def live_store(live_server: LiveServer) -> Iterator[Store]:
    """The server's database, read directly (the events and the version the pages hide)."""
    store = Store(live_server.database_url)
    yield store
    store.engine.dispose()
