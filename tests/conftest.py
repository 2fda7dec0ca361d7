"""Shared fixtures: a Referee app on a real SQLite file, its test client, CSRF tokens, matches.

CSRF protection is ON in ``app`` (as in production); ``app_nocsrf`` switches it off for
tests that are about something else. Web-only helpers live in ``tests/web/conftest.py``.

Database tests take ``database_url`` (or ``db_app`` / ``db_store`` built on it) and run twice:
on a SQLite file and on a fresh PostgreSQL database of the server named by
REFEREE_TEST_POSTGRESQL_URL (``.ci/postgres`` starts one). Without that URL the PostgreSQL
run is skipped, or fails when REFEREE_REQUIRE_POSTGRESQL=1 (as in CI)."""

from __future__ import annotations

import os
import re
import secrets
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import settings as hypothesis_settings
from sqlalchemy import create_engine, text
from sqlalchemy.engine import Engine
from sqlalchemy.pool import NullPool

from referee import create_app
from referee.web.store import Store

# CI runs the property tests with a fixed seed, so a run can be repeated exactly; a developer's
# run explores new examples each time.
hypothesis_settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
if os.environ.get("CI"):
    hypothesis_settings.load_profile("ci")

# Test files whose tests share state kept in the module and must run in one process, in order
# (test_hostile.py: its last test adds up the posts that the others sent).
TOGETHER = frozenset({"tests/web/test_hostile.py"})


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """pytest-xdist (`make test` runs ``pytest -n auto``): every test goes to the first free
    worker, as with ``--dist load``, except the tests of a file in TOGETHER, which go to one
    worker as one unit (started first: the largest unit). (xdist's own ``--dist loadgroup``
    leaves its groups apart under pytest 9.2: it renames the tests' ids, which pytest no longer
    lets it do.) Another ``--dist`` given on the command line is left as it is."""
    if config.getvalue("dist") != "load":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class Scheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::", 1)[0]
            return path if path in TOGETHER else nodeid

    return Scheduling(config, log)


_CSRF_INPUT = re.compile(
    r'<input[^>]*\bname="(?:[\w-]+-)?csrf_token"[^>]*\bvalue="([^"]+)"'
    r'|<input[^>]*\bvalue="([^"]+)"[^>]*\bname="(?:[\w-]+-)?csrf_token"'
)
_CSRF_HEADER = re.compile(r"""hx-headers='\{"X-CSRFToken":\s*"([^"]+)"\}'""")


def _make_app(tmp_path: Path, **extra: Any) -> Flask:
    config = {"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path}/t.sqlite3",
              "PDF_FOLDER": tmp_path / "pdf"}
    config.update(extra)
    return create_app(config)


@pytest.fixture
def app(tmp_path: Path) -> Flask:
    """The app with CSRF protection on, storing matches in a fresh SQLite file."""
    return _make_app(tmp_path)


@pytest.fixture
def app_nocsrf(tmp_path: Path) -> Flask:
    return _make_app(tmp_path, WTF_CSRF_ENABLED=False)


@pytest.fixture(scope="session")
def _postgresql_server() -> Iterator[Engine | None]:
    """An AUTOCOMMIT engine on REFEREE_TEST_POSTGRESQL_URL, for creating and dropping the
    per-test databases; None when no server is given."""
    url = os.environ.get("REFEREE_TEST_POSTGRESQL_URL")
    if not url:
        yield None
        return
    engine = create_engine(url, isolation_level="AUTOCOMMIT", poolclass=NullPool)
    yield engine
    engine.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path,
                 _postgresql_server: Engine | None) -> Iterator[str]:
    """The URL of an empty database: a SQLite file, or a fresh PostgreSQL database that is
    dropped (WITH (FORCE), so leftover connections cannot keep it) after the test."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path}/t.sqlite3"
        return
    if _postgresql_server is None:
        reason = "REFEREE_TEST_POSTGRESQL_URL is not set (start a server with .ci/postgres)"
        if os.environ.get("REFEREE_REQUIRE_POSTGRESQL") == "1":
            pytest.fail(f"REFEREE_REQUIRE_POSTGRESQL=1 but {reason}", pytrace=False)
        pytest.skip(reason)
    name = f"referee_t_{secrets.token_hex(8)}"
    with _postgresql_server.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield _postgresql_server.url.set(database=name).render_as_string(hide_password=False)
    finally:
        with _postgresql_server.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture
def db_app(database_url: str, tmp_path: Path) -> Iterator[Flask]:
    """``app`` on the ``database_url`` database (SQLite or PostgreSQL), CSRF protection on."""
    app = create_app({"TESTING": True, "DATABASE_URL": database_url,
                      "PDF_FOLDER": tmp_path / "pdf"})
    yield app
    app.extensions["referee.store"].engine.dispose()


@pytest.fixture
def db_app_nocsrf(database_url: str, tmp_path: Path) -> Iterator[Flask]:
    app = create_app({"TESTING": True, "DATABASE_URL": database_url, "WTF_CSRF_ENABLED": False,
                      "PDF_FOLDER": tmp_path / "pdf"})
    yield app
    app.extensions["referee.store"].engine.dispose()


@pytest.fixture
def db_store(db_app: Flask) -> Store:
    """The store of ``db_app``."""
    store: Store = db_app.extensions["referee.store"]
    return store


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def csrf_token_in(html: str) -> str | None:
    """The CSRF token of a page: a csrf_token hidden input (any form prefix), else the
    X-CSRFToken of the hx-headers on <body>."""
    found = _CSRF_INPUT.search(html)
    if found:
        return found.group(1) or found.group(2)
    found = _CSRF_HEADER.search(html)
    return found.group(1) if found else None


@pytest.fixture
def csrf_token(client: FlaskClient) -> Callable[..., str]:
    """``csrf_token(url="/", other=None)``: load a page with the session of ``client`` (or of
    the client ``other``) and return its CSRF token."""

    def get(url: str = "/", other: FlaskClient | None = None) -> str:
        response = (other or client).get(url)
        token = csrf_token_in(response.get_data(as_text=True))
        assert token, f"no CSRF token on {url} (status {response.status_code})"
        return token

    return get


@pytest.fixture
def make_match(client: FlaskClient, csrf_token: Callable[..., str]) -> Callable[..., str]:
    """``make_match(player_a="Ágnes", player_b="Tamás", target=5, first_dealer=0)`` creates a
    Tartli match through the New match form and returns its id."""

    def make(player_a: str = "Ágnes", player_b: str = "Tamás", target: int = 5,
             first_dealer: int = 0) -> str:
        response = client.post("/new/tartli", data={
            "csrf_token": csrf_token("/new/tartli"), "player_a": player_a,
            "player_b": player_b, "target": str(target), "first_dealer": str(first_dealer),
        })
        assert response.status_code == 302, response.get_data(as_text=True)[:2000]
        location = response.headers["Location"]
        assert re.fullmatch(r"/m/[\w-]+", location), location
        return location.rsplit("/", 1)[1]

    return make
