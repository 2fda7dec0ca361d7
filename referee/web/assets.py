"""The static files as a phone should fetch them (issue 12): pages link each under a versioned
address (``?v=`` and the first 12 hex digits of the SHA-256 of its content), which may be kept
a year (``immutable``); htmx, the style sheets and the scripts are sent gzipped to a browser
that accepts it. The plain address (or a stale version) still answers, with a short cache.

Versions and gzipped copies are made on first use and made again when the file changes."""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
import threading
from dataclasses import dataclass
from pathlib import Path

from flask import Flask, Response, request, send_from_directory
from werkzeug.exceptions import NotFound
from werkzeug.security import safe_join

LONG_CACHE = "public, max-age=31536000, immutable"
SHORT_CACHE = "public, max-age=300"
COMPRESSED = {".css", ".js", ".svg", ".json", ".txt", ".html"}


@dataclass(frozen=True)
class _Known:
    stamp: tuple[int, int]          # the file's mtime (ns) and size when it was read
    version: str
    gzipped: bytes | None


class StaticFiles:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._known: dict[str, _Known] = {}
        self._lock = threading.Lock()

    def _path(self, filename: str) -> Path | None:
        joined = safe_join(str(self.folder), filename)
        if joined is None:
            return None
        path = Path(joined)
        return path if path.is_file() else None

    def _read(self, filename: str) -> _Known | None:
        path = self._path(filename)
        if path is None:
            return None
        stat = path.stat()
        stamp = (stat.st_mtime_ns, stat.st_size)
        known = self._known.get(filename)
        if known is None or known.stamp != stamp:
            data = path.read_bytes()
            known = _Known(
                stamp, hashlib.sha256(data).hexdigest()[:12],
                gzip.compress(data, 9, mtime=0) if path.suffix in COMPRESSED else None)
            with self._lock:
                self._known[filename] = known
        return known

    def version(self, filename: str) -> str | None:
        """The version to put in the file's address (None: no such file)."""
        known = self._read(filename)
        return None if known is None else known.version

    def serve(self, filename: str) -> Response:
        """The static view: the file, gzipped where the browser takes it, cached a year under
        its current version and a few minutes otherwise."""
        known = self._read(filename)
        if known is None:
            raise NotFound()
        if known.gzipped is not None and request.accept_encodings["gzip"] > 0:
            mimetype = mimetypes.guess_type(filename)[0] or "application/octet-stream"
            response = Response(known.gzipped, mimetype=mimetype)
            response.headers["Content-Encoding"] = "gzip"
            response.set_etag(f"{known.version}-gzip")
            response.make_conditional(request)          # a 304 where the tag matches
        else:
            response = send_from_directory(self.folder, filename, etag=known.version)
        if known.gzipped is not None:
            response.vary.add("Accept-Encoding")
        current = request.args.get("v") == known.version
        response.headers["Cache-Control"] = LONG_CACHE if current else SHORT_CACHE
        return response


def init_app(app: Flask, folder: Path) -> None:
    """Serve static/ through ``StaticFiles`` and give every ``url_for('static', ...)`` its
    version."""
    files = StaticFiles(folder)
    app.extensions["referee.static"] = files

    def serve(filename: str) -> Response:
        return files.serve(filename)

    app.view_functions["static"] = serve

    @app.url_defaults
    def versioned(endpoint: str, values: dict[str, object]) -> None:
        if endpoint == "static" and "v" not in values:
            filename = values.get("filename")
            version = files.version(filename) if isinstance(filename, str) else None
            if version is not None:
                values["v"] = version
