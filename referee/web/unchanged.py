"""The unchanged live poll, answered before Flask (issue 12). Every phone showing a match asks
every second whether it changed (``GET /m/<token>/live`` with ``If-None-Match``: the version
it shows); nearly always it did not. That answer (304, no body) needs one indexed read of the
match's version and nothing else: no session cookie read, no routing, no request context. It
carries the headers the app's own 304 (views.live) would."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from werkzeug.http import parse_etags

from .sharing import token_in
from .store import Store

LIVE = re.compile(r"/m/([A-Za-z0-9_-]{1,64})/live")

StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


def etag(version: int, can_edit: bool) -> str:
    """The live scoreboard's validator: the match's version, and which link polls it."""
    return f"{version}{'e' if can_edit else 'v'}"


class UnchangedPolls:
    """WSGI middleware: a live poll whose version is unchanged gets its 304 here; every other
    request (a changed version, an unknown token: 200 or 404) goes on to the app."""

    def __init__(self, app: WSGIApp, store: Store, headers: Mapping[str, str]) -> None:
        self.app = app
        self.store = store
        self.headers = [(k, v) for k, v in headers.items()]

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        asked = environ.get("HTTP_IF_NONE_MATCH")
        if asked and environ.get("REQUEST_METHOD") == "GET":
            found = LIVE.fullmatch(environ.get("PATH_INFO", ""))
            token = found.group(1) if found else None
            if token is not None and token_in(token) == token:
                version = self.store.version(token)
                if version is not None and parse_etags(asked).contains(etag(*version)):
                    start_response("304 NOT MODIFIED", [
                        ("ETag", f'"{etag(*version)}"'),
                        # an edit token in the address: kept in no cache (views._private)
                        ("Cache-Control", "no-store" if version[1] else "no-cache, private"),
                        ("Vary", "HX-Request, Accept-Encoding"), *self.headers])
                    return []
        return self.app(environ, start_response)
