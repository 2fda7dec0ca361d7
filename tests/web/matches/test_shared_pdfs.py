"""The scoresheet PDF shared by the processes of a club server (issue 24): made once per
version of a match for all of them (a folder they share, ``pdfcache``), a request for a version
another process is making answered "being made" (503, ``Retry-After``, a page that asks again)
after a short wait, the older versions' files removed and the folder bounded in bytes. Two apps
on one database and one folder stand for two processes (each keeps its own PDFs in memory)."""

from __future__ import annotations

import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from test_sharing import view_token
from webtools import HAND_440_71, Table

from matches.test_heavy import Renders
from referee import create_app
from referee.web.matches import exports as pdf
from referee.web.pdfcache import Pdfs
from referee.web.requestlog import LOG


class Held(Renders):
    """A render that waits until ``go`` is set (the other process's long sheet)."""

    def __init__(self) -> None:
        super().__init__()
        self.go = threading.Event()

    def __call__(self, *args: object, **kwargs: object) -> bytes:
        assert self.go.wait(30)
        return super().__call__(*args, **kwargs)  # type: ignore[arg-type]


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch) -> Iterator[Held]:
    fake = Held()
    fake.go.set()
    monkeypatch.setattr(pdf, "render_pdf", fake)
    yield fake


def other_process(app: Flask) -> Flask:
    """Another process of the same server: the same database and the same PDF folder."""
    return create_app({"TESTING": True, "DATABASE_URL": app.config["DATABASE_URL"],
                       "PDF_FOLDER": app.config["PDF_FOLDER"]})


def files(app: Flask) -> list[str]:
    return sorted(p.name for p in Path(app.config["PDF_FOLDER"]).iterdir())


def test_a_scoresheet_is_made_once_for_every_process(app: Flask, table: Table,
                                                     renders: Held) -> None:
    mid = table.seed([HAND_440_71], names=["Ágnes", "Tamás"])
    first = table.client.get(f"/m/{mid}/scoresheet.pdf")
    assert first.status_code == 200 and first.data == b"\xc3\x81gnes Tam\xc3\xa1s: 1 hands"
    assert first.headers["Content-Disposition"].startswith('attachment; filename="tartli-')
    other = other_process(app)
    # the edit link and the view link, in the other process: the same file, not made again
    for token in (mid, view_token(app, mid)):
        again = other.test_client().get(f"/m/{token}/scoresheet.pdf")
        assert again.status_code == 200 and again.data == first.data
    assert len(renders.made) == 1
    assert files(app) == [f"scoresheet+{mid}+en+plain.{table_version(app, mid)}.pdf"]


def table_version(app: Flask, mid: str) -> int:
    found = app.extensions["referee.store"].version(mid)
    assert found is not None
    return int(found[0])


def test_the_older_versions_files_are_removed(app: Flask, table: Table, renders: Held) -> None:
    mid = table.seed([HAND_440_71], names=["Ágnes", "Tamás"])
    assert table.client.get(f"/m/{mid}/scoresheet.pdf").status_code == 200
    assert table.client.get(f"/m/{mid}/scoresheet.pdf?explained=1").status_code == 200
    before = table_version(app, mid)
    assert table.indicator(mid, 2, "8h").status == 302
    after = table_version(app, mid)
    assert after > before
    response = other_process(app).test_client().get(f"/m/{mid}/scoresheet.pdf")
    assert response.data == "Ágnes Tamás: 2 hands".encode()
    assert files(app) == [f"scoresheet+{mid}+en+explained.{before}.pdf",
                          f"scoresheet+{mid}+en+plain.{after}.pdf"]


def test_a_scoresheet_being_made_by_another_process_is_answered_being_made(
        app: Flask, table: Table, renders: Held) -> None:
    renders.go.clear()
    mid = table.seed([HAND_440_71], names=["Ágnes", "Tamás"])
    answers: dict[str, bytes] = {}
    making = threading.Thread(target=lambda: answers.update(
        first=table.client.get(f"/m/{mid}/scoresheet.pdf").data))
    making.start()
    try:
        folder = Path(app.config["PDF_FOLDER"])
        while not list(folder.glob("*.lock")):           # the first process is making it
            assert making.is_alive()
            time.sleep(0.01)
        other = other_process(app)
        other.extensions["referee.scoresheets"].wait = 0.2
        view = view_token(app, mid)
        busy = other.test_client().get(f"/m/{view}/scoresheet.pdf")
        assert busy.status_code == 503
        assert busy.headers["Retry-After"] == "3"
        page = busy.get_data(as_text=True)
        assert "The scoresheet is being made; it will be ready in a moment." in page
        assert '<meta http-equiv="refresh" content="3">' in page
        assert f'href="/m/{view}"' in page                  # the way back to the match
    finally:
        renders.go.set()
        making.join(30)
    # asked again once it is made: the same PDF, made once
    again = other.test_client().get(f"/m/{view}/scoresheet.pdf")
    assert again.status_code == 200 and again.data == answers["first"]
    assert len(renders.made) == 1


def test_the_folder_is_bounded_in_bytes(tmp_path: Path) -> None:
    """The least recently asked for goes first once the folder holds more than its bound;
    nothing is kept in memory here (``limit=0``): every PDF is read from the folder."""
    made: list[str] = []

    def make(name: str) -> bytes:
        made.append(name)
        return name.encode() * 100

    kept = Pdfs(limit=0, folder=tmp_path, folder_limit=250)
    for name in ("a", "b", "a", "c"):                  # "b" is the least recently asked for
        assert kept.pdf(name, "1", lambda name=name: make(name)) == name.encode() * 100
        time.sleep(0.01)                                # a later modification time
    assert made == ["a", "b", "c"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.1.pdf", "c.1.pdf"]
    kept.pdf("a", "1", lambda: make("a"))
    assert made == ["a", "b", "c"]
    # another process's memory is no help either: it reads the folder
    assert Pdfs(limit=0, folder=tmp_path).pdf("c", "1", lambda: make("c")) == b"c" * 100
    assert made == ["a", "b", "c"]


def test_an_older_version_asked_for_late_leaves_the_latest(tmp_path: Path) -> None:
    """A phone showing an old version of the match asks for its sheet after the latest was
    made: both are kept until a later version is made."""
    kept = Pdfs(limit=0, folder=tmp_path)
    for version in ("2", "1"):
        kept.pdf("sheet", version, lambda version=version: version.encode())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sheet.1.pdf", "sheet.2.pdf"]
    kept.pdf("sheet", "10", lambda: b"10")
    assert [p.name for p in tmp_path.iterdir()] == ["sheet.10.pdf"]


def test_a_folder_that_takes_nothing_still_gives_the_pdf(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
) -> None:
    def full(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(tempfile, "mkstemp", full)
    LOG.addHandler(caplog.handler)      # written there even where the app's log is its own
    try:
        assert Pdfs(folder=tmp_path).pdf("sheet", "1", lambda: b"%PDF-") == b"%PDF-"
    finally:
        LOG.removeHandler(caplog.handler)
    assert list(tmp_path.iterdir()) == []
    assert "PDF not kept for the other processes" in caplog.text
