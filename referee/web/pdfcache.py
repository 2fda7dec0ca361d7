"""The PDFs the app made (a match's scoresheet, a circle's evening), made once per version for
every process of the server (issue 24).

A PDF is named by what it is (``name``: e.g. the match, the language, with explanations or
not; its parts joined by ``+``, so that the log shortens a token in it) and by the version of
what it shows (``version``: the match's version, or a digest of the evening's page). Each
process keeps the PDFs it sent lately in memory (``limit`` bytes); behind that, a folder that
the processes of one machine share (Flask's instance folder, ``instance/pdf``) holds one file
per name, its latest version (``<name>.<version>.pdf``, written whole: a temporary file
renamed over it), the least recently asked for removed once the folder holds more than
``folder_limit`` bytes.

Making a PDF takes seconds and much memory for a long match: a process makes one at a time,
and the process that makes one holds a lock on ``<name>.<version>.lock`` (``flock``), so that
a request in any process for the same version waits for it instead of making it again. A
request waits ``wait`` seconds at most; then it is answered "being made" (``being_made``: a
503 with ``Retry-After`` and a page that asks again by itself), and the server's worker is
free for other tables meanwhile."""

from __future__ import annotations

import fcntl
import os
import tempfile
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from flask import Response, current_app, render_template

from .requestlog import LOG, shortened

__all__ = ["CACHE_BYTES", "FOLDER_BYTES", "Pdfs", "RETRY", "WAIT", "being_made", "pdfs"]

CACHE_BYTES = 16 * 1024 * 1024      # PDFs a process keeps in memory
FOLDER_BYTES = 256 * 1024 * 1024    # PDFs kept in the shared folder
WAIT = 5.0                          # seconds a request waits for a PDF being made
RETRY = 3                           # seconds after which a "being made" page asks again
POLL = 0.05                         # seconds between two looks at a lock held elsewhere
STALE = 3600                        # seconds after which a temporary file left is removed


class Pdfs:
    """The PDFs by (name, version): from memory, else from the shared ``folder`` (None: none),
    else made by ``make`` (one at a time in this process, once for every process sharing the
    folder). ``pdf`` answers None when the PDF is still being made after ``wait`` seconds."""

    def __init__(self, limit: int = CACHE_BYTES, folder: Path | None = None,
                 folder_limit: int = FOLDER_BYTES, wait: float = WAIT) -> None:
        self.limit = limit
        self.folder = folder
        self.folder_limit = folder_limit
        self.wait = wait
        self._kept: OrderedDict[tuple[str, str], bytes] = OrderedDict()
        self._kept_lock = threading.Lock()
        self._making = threading.Lock()
        if folder is not None:
            folder.mkdir(parents=True, exist_ok=True)

    def pdf(self, name: str, version: str, make: Callable[[], bytes]) -> bytes | None:
        """The PDF ``name`` at ``version``; ``make`` makes it (called only when no process
        has). ``name`` and ``version`` are made of letters, digits, ``-``, ``_`` and ``+``
        (no dot, no slash: they name its file)."""
        key = (name, version)
        if (body := self._kept_one(key)) is not None:
            return body
        if (body := self._read(name, version)) is not None:
            return self._keep(key, body)
        until = time.monotonic() + self.wait
        if not self._making.acquire(timeout=self.wait):
            return None
        try:
            if (body := self._kept_one(key)) is not None:     # made while this one waited
                return body
            if self.folder is None:
                return self._keep(key, _made(name, make))
            with self._locked(name, version, until) as mine:
                # made by another process meanwhile, or still being made (None)
                body = self._read(name, version)
                if body is None and mine:
                    body = _made(name, make)
                    self._write(name, version, body)
            return None if body is None else self._keep(key, body)
        finally:
            self._making.release()

    def _kept_one(self, key: tuple[str, str]) -> bytes | None:
        with self._kept_lock:
            body = self._kept.get(key)
            if body is not None:
                self._kept.move_to_end(key)
            return body

    def _keep(self, key: tuple[str, str], body: bytes) -> bytes:
        with self._kept_lock:
            self._kept[key] = body
            size = sum(map(len, self._kept.values()))
            while size > self.limit:
                size -= len(self._kept.popitem(last=False)[1])
        return body

    # -- the shared folder ------------------------------------------------------------------

    def _path(self, name: str, version: str, suffix: str) -> Path:
        assert self.folder is not None
        return self.folder / f"{name}.{version}.{suffix}"

    def _read(self, name: str, version: str) -> bytes | None:
        if self.folder is None:
            return None
        path = self._path(name, version, "pdf")
        try:
            body = path.read_bytes()
        except FileNotFoundError:              # not made yet, or removed meanwhile
            return None
        with suppress(OSError):
            os.utime(path)                     # recently asked for: removed last
        return body

    @contextmanager
    def _locked(self, name: str, version: str, until: float) -> Iterator[bool]:
        """Holds the lock of the version (True), or gives up (False) once it is made by
        another process or at ``until``."""
        lock = self._path(name, version, "lock")
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if (time.monotonic() >= until
                            or self._path(name, version, "pdf").exists()):
                        yield False
                        return
                    time.sleep(POLL)
            try:
                yield True
            finally:
                # removed while held: a process waiting on it finds the PDF once it has it
                lock.unlink(missing_ok=True)
        finally:
            os.close(fd)                       # and with it the lock

    def _write(self, name: str, version: str, body: bytes) -> None:
        """Keeps ``body`` in the folder for the other processes; a folder that cannot take
        it (full, unwritable) is written in the log, and the PDF is sent all the same."""
        assert self.folder is not None
        draft: str | None = None
        try:
            fd, draft = tempfile.mkstemp(dir=self.folder, prefix=".", suffix=".part")
            with os.fdopen(fd, "wb") as out:
                out.write(body)
            os.replace(draft, self._path(name, version, "pdf"))
            self._tidy(name, version)
        except OSError as error:
            LOG.warning("PDF not kept for the other processes: %s", error)
            if draft is not None:
                Path(draft).unlink(missing_ok=True)

    def _tidy(self, name: str, version: str) -> None:
        """Removes the other versions of ``name``, then the least recently asked for PDFs
        while the folder holds more than ``folder_limit`` bytes, and temporary files that a
        process stopped mid-way left behind."""
        assert self.folder is not None
        latest = self._path(name, version, "pdf")
        files: list[tuple[float, int, Path]] = []
        for path in self.folder.iterdir():
            try:
                found = path.stat()
            except FileNotFoundError:
                continue
            if path.suffix == ".part":
                if found.st_mtime < time.time() - STALE:
                    path.unlink(missing_ok=True)
            elif path.suffix == ".pdf" and path != latest:
                other, kept = path.name.rsplit(".", 2)[:2]
                if other == name:
                    if not _newer(kept, version):
                        path.unlink(missing_ok=True)      # an older version
                else:
                    files.append((found.st_mtime, found.st_size, path))
        size = latest.stat().st_size + sum(size for _, size, _ in files)
        for _, bytes_, path in sorted(files):
            if size <= self.folder_limit:
                break
            path.unlink(missing_ok=True)
            size -= bytes_


def _newer(version: str, than: str) -> bool:
    """Is ``version`` a later version than ``than`` (both numbers: a match's versions)? A
    phone showing an old version of a match may ask for its sheet after the latest was made:
    the latest stays. (Digests are not ordered: the one made last stays.)"""
    return version.isdigit() and than.isdigit() and int(version) > int(than)


def _made(name: str, make: Callable[[], bytes]) -> bytes:
    """``make()``, written in the app's log with the time it took."""
    start = time.perf_counter()
    body = make()
    LOG.info("PDF made: %s (%d bytes, %.1f s)", shortened(name), len(body),
             time.perf_counter() - start)
    return body


def pdfs() -> Pdfs:
    """The app's PDFs (its scoresheets and evenings)."""
    return current_app.extensions["referee.scoresheets"]  # type: ignore[no-any-return]


def being_made(message: str, back: str) -> Response:
    """The answer while a PDF is being made: 503, ``Retry-After``, and a page that says
    ``message`` and asks for the PDF again by itself (then shows or downloads it), with the
    way back to ``back``."""
    response = Response(render_template("being_made.html", retry=RETRY, back=back,
                                        message=message), 503)
    response.headers["Retry-After"] = str(RETRY)
    return response
