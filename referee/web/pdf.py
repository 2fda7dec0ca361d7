"""The scoresheet PDF as the app serves it: the sheet itself is made by referee.scoresheet
(Jinja and WeasyPrint, no Flask: the command line makes the same); the app keeps the
scoresheets it made lately (``Scoresheets``): a PDF is made at most once per version of a
match (with every hand's explanation or without), and one at a time per process."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable

import flask_babel

from ..engine import matchfile
from ..scoresheet import in_language, render_html, render_pdf
from . import languages

__all__ = ["Scoresheets", "render_html", "render_pdf"]

CACHE_BYTES = 16 * 1024 * 1024     # scoresheets kept per process


class Scoresheets:
    """The PDFs made lately, by (match id, version): a request for a version already made is
    answered from here at once. Making one (seconds and much memory for a long match) is done
    one at a time, so that several requests queue instead of taking every table's time at
    once; those for the same version wait for the first and share its PDF. The least
    recently asked for go first once they hold more than ``limit`` bytes."""

    def __init__(self, limit: int = CACHE_BYTES) -> None:
        self.limit = limit
        self._kept: OrderedDict[tuple[str, int, bool, str], bytes] = OrderedDict()
        self._kept_lock = threading.Lock()
        self._making = threading.Lock()

    def get(self, match_id: str, version: int, file: Callable[[], matchfile.MatchFile],
            explained: bool = False) -> bytes:
        """The PDF of version ``version`` of the match ``match_id``, whose record ``file``
        gives (called only when it must be made); ``explained``: with every hand's
        explanation. It is written in the request's language (for now: issue 22 will print a
        match in its own), kept apart from the same version in another."""
        language = languages.current()
        key = (match_id, version, explained, language)
        if (body := self._kept_one(key)) is not None:
            return body
        with self._making:
            if (body := self._kept_one(key)) is not None:     # made while this one waited
                return body
            catalogue = None if language == languages.DEFAULT else flask_babel.get_translations()
            with in_language(language, catalogue):
                body = render_pdf(file(), explained, match_id)
            with self._kept_lock:
                self._kept[key] = body
                size = sum(map(len, self._kept.values()))
                while size > self.limit:
                    size -= len(self._kept.popitem(last=False)[1])
            return body

    def _kept_one(self, key: tuple[str, int, bool, str]) -> bytes | None:
        with self._kept_lock:
            body = self._kept.get(key)
            if body is not None:
                self._kept.move_to_end(key)
            return body
