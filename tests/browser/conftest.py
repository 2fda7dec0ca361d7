"""The browser tests' shared fixtures: the real app served on loopback, and a page of
Debian's chromium driven by Playwright (never a downloaded browser)."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from phone import served

from referee import create_app

CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'browser.sqlite3'}",
                      "PDF_FOLDER": tmp_path / "pdf"})
    with served(app) as address:
        yield address


@pytest.fixture(scope="session")
def _browser() -> Iterator[object]:
    """Debian's chromium, driven by Playwright, launched once per test process (a launch takes
    about a second)."""
    playwright_api = pytest.importorskip("playwright.sync_api")
    executable = shutil.which("chromium")
    if executable is None:
        pytest.fail("Debian's chromium is not installed: run `make test`, which installs it")
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def chromium(server: str, _browser: object) -> Iterator[object]:
    """Debian's chromium, driven by Playwright. Every context a test opens in it (its phones)
    is closed after the test, so each test starts with no page, cookie or storage of another;
    first its routes are dropped, so that a route handler still running (a delayed answer)
    cannot fail in the next test."""
    yield _browser
    for context in list(_browser.contexts):  # type: ignore[attr-defined]
        for page in context.pages:
            page.unroute_all(behavior="ignoreErrors")
        context.unroute_all(behavior="ignoreErrors")
        context.close()


def _phone(browser: object) -> object:
    """A page in a fresh browser context: its own cookies, like another phone."""
    context = browser.new_context(  # type: ignore[attr-defined]
        accept_downloads=True, viewport={"width": 412, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


@pytest.fixture
def page(chromium: object) -> object:
    return _phone(chromium)


@pytest.fixture
def new_page(chromium: object) -> Callable[[], object]:
    """``new_page()``: another phone at the table (a new context of the same chromium)."""
    return lambda: _phone(chromium)
