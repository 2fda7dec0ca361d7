"""The scoresheet PDF: the match record in print clothes.

WeasyPrint is imported only here, when a PDF is made; its URL fetcher reads the app's own
static files and nothing else."""

from __future__ import annotations

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
