"""The app's own request log (issue 21): a line per request, its method, its address with
every token shortened to its first four characters, and its status, on the logger
``referee.requests`` (to standard error, unless it is configured otherwise).

A match's or a circle's token is its secret link, and every phone showing a match asks for
its live scoreboard once a second: a log that wrote whole addresses would hold every table's
edit link. The servers' own logs are kept from writing them: Flask's development server's
request lines are dropped here (``quiet_dev_server``); gunicorn's access log is off unless asked
for (the README says how to keep tokens out of it)."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable
from typing import Any

from flask import request
from flask.logging import wsgi_errors_stream

LOG = logging.getLogger("referee.requests")
_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,}")     # a token (22 characters), a code in a query


def shortened(text: str) -> str:
    """``text`` with every run of 16 or more token characters cut to its first four and "…"."""
    return _TOKEN.sub(lambda found: found.group()[:4] + "…", text)


class RequestLog:
    """WSGI middleware, outermost: logs every request, the live polls answered before the app
    included."""

    def __init__(self, app: Callable[..., Iterable[bytes]]) -> None:
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]
                 ) -> Iterable[bytes]:
        if not LOG.isEnabledFor(logging.INFO):
            return self.app(environ, start_response)

        def logged(status: str, headers: list[tuple[str, str]], *exc_info: Any) -> Any:
            query = environ.get("QUERY_STRING")
            address = environ.get("PATH_INFO", "") + (f"?{query}" if query else "")
            LOG.info("%s %s %s", environ.get("REQUEST_METHOD", ""), shortened(address),
                     status.split(" ", 1)[0])
            return start_response(status, headers, *exc_info)

        return self.app(environ, logged)


class _NoRequestLines(logging.Filter):
    """Drops the development server's request lines (werkzeug's ``log_request``: its address,
    its date, then ``"%s" %s %s``: the request line with the whole address, its status and
    size); the app's own log has them, tokens shortened."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (isinstance(record.msg, str) and record.msg.endswith('"%s" %s %s'))


_QUIET = _NoRequestLines()


def install(testing: bool) -> None:
    """The development server writes no whole token; the app's request log goes to standard
    error unless a handler was configured for it (or under test: the test reads it)."""
    dev_server = logging.getLogger("werkzeug")
    if _QUIET not in dev_server.filters:
        dev_server.addFilter(_QUIET)
    if not testing and not LOG.handlers:
        # standard error, looked up when written (as Flask's own log)
        handler = logging.StreamHandler(wsgi_errors_stream)  # type: ignore[call-overload]
        handler.setFormatter(logging.Formatter("%(asctime)s %(message)s"))
        LOG.addHandler(handler)
        LOG.setLevel(logging.INFO)
        LOG.propagate = False


def exception_logger(app: Any) -> Callable[[Any], None]:
    """Flask's log of an unhandled exception ("Exception on /m/<token>/... [POST]", written
    with its traceback to the error log), the address's tokens shortened."""

    def log_exception(exc_info: Any) -> None:
        app.logger.error(f"Exception on {shortened(request.path)} [{request.method}]",
                         exc_info=exc_info)

    return log_exception
