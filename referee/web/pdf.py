"""The scoresheet PDF: the match record in print clothes.

WeasyPrint is imported only here, when a PDF is made; its URL fetcher reads the app's own
static files and nothing else. The app keeps the scoresheets it made lately (``Scoresheets``):
a PDF is made at most once per version of a match, and one at a time per process."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit
from urllib.request import url2pathname

from jinja2 import Environment, FileSystemLoader, select_autoescape

from ..engine import matchfile
from ..engine.games import get

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "static"
TEMPLATES = ROOT / "templates"


def _environment() -> Environment:
    return Environment(
        loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(["html"]),
        trim_blocks=True, lstrip_blocks=True,
    )


def render_html(m: matchfile.MatchFile) -> str:
    game = get(m.game)
    result = game.score(m.settings, m.hands)
    names = list(m.settings["players"])
    context: dict[str, Any] = {
        "m": m, "game": game, "result": result, "names": names,
        "rules": game.rules_in_force(m.settings),
    }
    from .games import WEB_GAMES

    if m.game in WEB_GAMES:
        context.update(WEB_GAMES[m.game].pdf_context(m.settings, result))
    return _environment().get_template(f"pdf/{game.name}.html").render(**context)


def _fetcher() -> Any:
    from weasyprint.urls import URLFetcher

    static_root = STATIC.resolve()

    class StaticOnly(URLFetcher):  # type: ignore[misc]
        def fetch(self, url: str, headers: Any = None) -> Any:
            parts = urlsplit(url)
            path = Path(url2pathname(parts.path)).resolve()
            if parts.scheme != "file" or parts.netloc or not path.is_relative_to(static_root) \
                    or not path.is_file():
                raise ValueError(f"Not fetched: {url[:60]}")
            return super().fetch(path.as_uri(), headers)

    return StaticOnly(allowed_protocols=["file"])


def render_pdf(m: matchfile.MatchFile) -> bytes:
    from weasyprint import HTML

    html = HTML(string=render_html(m), base_url=f"{STATIC.resolve().as_posix()}/",
                url_fetcher=_fetcher())
    return bytes(html.write_pdf())


CACHE_BYTES = 16 * 1024 * 1024     # scoresheets kept per process


class Scoresheets:
    """The PDFs made lately, by (match id, version): a request for a version already made is
    answered from here at once. Making one (seconds and much memory for a long match) is done
    one at a time, so that several requests queue instead of taking every table's time at
    once; those for the same version wait for the first and share its PDF. The least
    recently asked for go first once they hold more than ``limit`` bytes."""

    def __init__(self, limit: int = CACHE_BYTES) -> None:
        self.limit = limit
        self._kept: OrderedDict[tuple[str, int], bytes] = OrderedDict()
        self._kept_lock = threading.Lock()
        self._making = threading.Lock()

    def get(self, match_id: str, version: int, file: Callable[[], matchfile.MatchFile]) -> bytes:
        """The PDF of version ``version`` of the match ``match_id``, whose record ``file``
        gives (called only when it must be made)."""
        key = (match_id, version)
        if (body := self._kept_one(key)) is not None:
            return body
        with self._making:
            if (body := self._kept_one(key)) is not None:     # made while this one waited
                return body
            body = render_pdf(file())
            with self._kept_lock:
                self._kept[key] = body
                size = sum(map(len, self._kept.values()))
                while size > self.limit:
                    size -= len(self._kept.popitem(last=False)[1])
            return body

    def _kept_one(self, key: tuple[str, int]) -> bytes | None:
        with self._kept_lock:
            body = self._kept.get(key)
            if body is not None:
                self._kept.move_to_end(key)
            return body
