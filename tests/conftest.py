"""Shared fixtures: a Referee app on a real SQLite file, its test client, CSRF tokens, matches.

CSRF protection is ON in ``app`` (as in production); ``app_nocsrf`` switches it off for
tests that are about something else. Web-only helpers live in ``tests/web/conftest.py``."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import settings as hypothesis_settings

from referee import create_app

# CI runs the property tests with a fixed seed, so a run can be repeated exactly; a developer's
# run explores new examples each time.
hypothesis_settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
if os.environ.get("CI"):
    hypothesis_settings.load_profile("ci")

_CSRF_INPUT = re.compile(
    r'<input[^>]*\bname="(?:[\w-]+-)?csrf_token"[^>]*\bvalue="([^"]+)"'
    r'|<input[^>]*\bvalue="([^"]+)"[^>]*\bname="(?:[\w-]+-)?csrf_token"'
)
_CSRF_HEADER = re.compile(r"""hx-headers='\{"X-CSRFToken":\s*"([^"]+)"\}'""")


def _make_app(tmp_path: Path, **extra: Any) -> Flask:
    config = {"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path}/t.sqlite3"}
    config.update(extra)
    return create_app(config)


@pytest.fixture
def app(tmp_path: Path) -> Flask:
    """The app with CSRF protection on, storing matches in a fresh SQLite file."""
    return _make_app(tmp_path)


@pytest.fixture
def app_nocsrf(tmp_path: Path) -> Flask:
    return _make_app(tmp_path, WTF_CSRF_ENABLED=False)


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
