"""A scoresheet being made by another process of the server (issue 24), on a phone: the
"Scoresheet (PDF)" link opens a page that says so in plain words, and that page asks again by
itself; once the PDF is made the download starts, the page still showing the way back."""

from __future__ import annotations

import fcntl
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from werkzeug.serving import make_server

from referee import create_app
from referee.engine import matchfile

DATA = Path(__file__).parents[1] / "data"


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, Any]]:
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'pdf.sqlite3'}",
                      "PDF_FOLDER": tmp_path / "pdf"})
    app.extensions["referee.scoresheets"].wait = 0.2
    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_port}", app
    httpd.shutdown()
    thread.join(timeout=5)


def test_a_scoresheet_being_made_is_said_then_downloaded(
        served: tuple[str, Any], page: Any) -> None:
    from playwright.sync_api import expect

    url, app = served
    record = matchfile.load((DATA / "tartli-complete.json").read_bytes())
    store = app.extensions["referee.store"]
    mid = store.create(record.game, record.settings, record.hands)
    version = store.version(mid)[0]
    # another process makes this version's sheet: it holds its lock
    lock = Path(app.config["PDF_FOLDER"]) / f"scoresheet+{mid}+en+plain.{version}.lock"
    held = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(held, fcntl.LOCK_EX)
    try:
        page.set_viewport_size({"width": 390, "height": 844})
        page.goto(f"{url}/m/{mid}")
        page.click("summary:has-text('Downloads')")
        page.click("text=Scoresheet (PDF)")
        expect(page.locator("main")).to_contain_text(
            "The scoresheet is being made; it will be ready in a moment.")
        expect(page.locator("main a.button")).to_have_attribute("href", f"/m/{mid}")
    finally:
        os.close(held)                     # that process is done: no sheet written by it
    with page.expect_download(timeout=30_000) as info:      # the page asks again by itself
        pass
    data = Path(info.value.path()).read_bytes()
    assert data.startswith(b"%PDF-")
    assert info.value.suggested_filename.startswith("tartli-")
    expect(page.locator("main")).to_contain_text("being made")      # the way back stays
