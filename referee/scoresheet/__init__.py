"""The scoresheet: a match record as printable HTML, and as a PDF made by WeasyPrint.

Jinja and the engine only: the command line (``python -m referee pdf``) makes a PDF without
loading Flask, and the web app serves the same sheet (referee.web.pdf keeps the PDFs it made).
WeasyPrint is imported only when a PDF is made; its URL fetcher reads the static files and
nothing else.

The sheet is the match's record as a paper scoresheet keeps it: the match's facts, one table
row per hand, the result, the chart. Every hand's explanation is an appendix the table asks for
(``explained``): for 100 hands, seven pages more and half the time to make. The sheet is made
to be laid out fast: one table row per hand and one flowing paragraph of explanations per hand,
in plain text (WeasyPrint's time goes into boxes: every list item, every bold word or small
figure is one more to lay out and draw)."""

from __future__ import annotations

import gc
import re
import threading
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit
from urllib.request import url2pathname

from jinja2 import Environment, FileSystemLoader, select_autoescape

from ..charts import PAPER, running_totals
from ..engine import matchfile, scoring
from ..engine.games import get
from ..engine.games.base import MatchResult
from . import cards, stovkahra, troggu
from .language import (
    catalogue,
    current,
    finalize,
    in_language,
    number,
    page_numbers,
    said_text,
    signed,
)

__all__ = ["environment", "html_to_pdf", "in_language", "render_html", "render_pdf"]

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "static"
TEMPLATES = ROOT / "templates"

Context = Callable[[dict[str, Any], MatchResult], dict[str, Any]]

# The whitespace that lays a template's table out line by line is no text of the sheet: the
# HTML parser and WeasyPrint made a node and a box of each run of it between two cells, only
# to drop it (a fiftieth of the 100-hand sheet's Python calls; issue 12).
BETWEEN_TABLE_TAGS = re.compile(r">\s+(?=</?(?:table|colgroup|col|thead|tbody|tfoot|tr|th|td)\b)")

# What a game's sheet (templates/pdf/<game>.html) needs beyond the match and its result.
CONTEXTS: dict[str, Context] = {"troggu": troggu.context, "stovkahra": stovkahra.context}


@cache
def environment() -> Environment:
    """The templates' own Jinja environment (the web app's settings, none of its globals: a
    sheet's template uses only what ``render_html`` passes it, and the ``marked`` filter that
    prints each card with its pack's mark)."""
    env = Environment(
        loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(["html"]),
        trim_blocks=True, lstrip_blocks=True,
    )
    env.filters["marked"] = cards.marked
    env.filters.update(number=number, signed=signed)
    # the templates' words and the engine's sentences in the sheet's language
    env.add_extension("jinja2.ext.i18n")
    env.policies["ext.i18n.trimmed"] = True
    env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=lambda message: catalogue().gettext(message),
        ngettext=lambda singular, plural, n: catalogue().ngettext(singular, plural, n),
        pgettext=lambda context, message: catalogue().pgettext(context, message),
        npgettext=lambda context, singular, plural, n: catalogue().npgettext(
            context, singular, plural, n),
        newstyle=True)
    env.finalize = finalize
    env.globals["sheet_lang"] = lambda: current.get()[0].replace("_", "-")   # <html lang>
    env.globals["page_numbers"] = page_numbers
    env.filters["say"] = env.globals["say"] = finalize
    return env


def render_html(m: matchfile.MatchFile, explained: bool = False, match: Hashable = None) -> str:
    """The sheet of ``m`` as HTML (in the language of ``in_language``, else English);
    ``explained``: with every hand's explanation (an appendix); ``match``: its key in the
    engine's fold cache (the web's match id)."""
    game = get(m.game)
    # the match's cached fold where it was scored already (the app's page, ``matchfile.load``)
    result = scoring.score(game.name, m.settings, m.hands, match=match)
    context: dict[str, Any] = {
        "m": m, "game": game, "result": result, "names": list(m.settings["players"]),
        "rules": game.rules_in_force(m.settings),
        "chart": running_totals(game, m.settings, result, layout=PAPER, say=said_text,
                                number=number),
        "explained": explained, "lang": current.get()[0].replace("_", "-"),
    }
    if m.game in CONTEXTS:
        context.update(CONTEXTS[m.game](m.settings, result))
    html = environment().get_template(f"pdf/{game.name}.html").render(**context)
    return BETWEEN_TABLE_TAGS.sub(">", html)


def static_fetcher() -> Any:
    """WeasyPrint's URL fetcher for the sheet: files under static/, nothing else."""
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


_pauses = threading.Lock()
_paused = 0              # PDFs being made (several threads of the web app may make one each)
_was_enabled = False     # whether the collector ran before the first of them


@contextmanager
def cyclic_gc_paused() -> Iterator[None]:
    """Python's cyclic garbage collector held while WeasyPrint works (issue 12).

    WeasyPrint keeps every box, line and glyph of the document alive until the PDF is written,
    hundreds of thousands of objects that the collector's full passes go through again and
    again as they grow, freeing little. Held, the 100-hand sheet takes about a tenth less
    CPU time, the 1,000-hand one a quarter less, at the same peak memory: the cycles
    WeasyPrint leaves wait for the collector's first pass after the PDF, and reference
    counting frees the rest as before. The collector runs again when the last PDF being made
    is done, if it ran before the first."""
    global _paused, _was_enabled
    with _pauses:
        if _paused == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _paused += 1
    try:
        yield
    finally:
        with _pauses:
            _paused -= 1
            if _paused == 0 and _was_enabled:
                gc.enable()


def html_to_pdf(html: str) -> bytes:
    """A page made of ``html`` (whose links are relative to static/) as a PDF."""
    from weasyprint import HTML

    with cyclic_gc_paused():      # the document is gone (refcounting) when it runs again
        return bytes(HTML(string=html, base_url=f"{STATIC.resolve().as_posix()}/",
                          url_fetcher=static_fetcher()).write_pdf())


def render_pdf(m: matchfile.MatchFile, explained: bool = False, match: Hashable = None) -> bytes:
    return html_to_pdf(render_html(m, explained, match))
