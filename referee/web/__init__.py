"""The web layer: turns requests into engine calls and engine results into HTML or PDF."""

from __future__ import annotations

import contextlib
import gzip
import os
import secrets
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from babel.dates import format_datetime, format_skeleton, format_time
from flask import Flask, Response, g, make_response, render_template, request
from flask_babel import gettext, lazy_gettext
from flask_wtf.csrf import CSRFError, CSRFProtect
from jinja2 import BytecodeCache
from jinja2.bccache import Bucket
from markupsafe import Markup
from werkzeug.exceptions import MethodNotAllowed

from .. import charts, numbers
from ..engine import matchfile
from . import assets, requestlog
from .extensions import htmx
from .forms import invalid, widgets
from .languages import init as init_languages
from .matches import exports, rows
from .matches.blueprint import VIEW_ONLY
from .matches.live import Boards, UnchangedPolls
from .recent import Recent
from .store import Store, circlestore

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "templates"
STATIC = ROOT / "static"
HTMX_VERSION = "2.0.11"
UPLOAD = 1024 * 1024                      # bytes of any request's body
# an imported match file: the largest (``matchfile.MAX_BYTES``) and its form around it
IMPORT_UPLOAD = (matchfile.MAX_BYTES // (1024 * 1024) + 1) * 1024 * 1024

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
# No inline script or style, nothing from elsewhere, no framing, and no Referer that could
# carry a match's address to another site.
SECURITY = {"Content-Security-Policy": CSP, "Referrer-Policy": "no-referrer",
            "X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY"}
HSTS = "max-age=31536000"              # with an https REFEREE_PUBLIC_URL: a year

csrf = CSRFProtect()


class _CompiledTemplates(BytecodeCache):
    """The templates compiled once per process and shared by every app made in it (each app
    has its own Jinja environment, all configured alike by create_app): the tests make
    thousands of apps, and compiling the templates anew was half of a web test's time. A
    template is looked up by its name and the checksum of its source, so an edited file is
    compiled again."""

    def __init__(self) -> None:
        self.code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        code = self.code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.code[bucket.key] = bucket.bytecode_to_string()


_COMPILED = _CompiledTemplates()


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    app = Flask(
        "referee", instance_relative_config=True,
        template_folder=str(TEMPLATES), static_folder=str(STATIC),
    )
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(
        SECRET_KEY=os.environ.get("REFEREE_SECRET_KEY") or _instance_secret(app.instance_path),
        DATABASE_URL=os.environ.get("REFEREE_DATABASE_URL")
        or f"sqlite:///{Path(app.instance_path) / 'referee.sqlite3'}",
        MAX_CONTENT_LENGTH=UPLOAD,
        SESSION_COOKIE_SAMESITE="Lax",
        WTF_CSRF_TIME_LIMIT=None,
        # Pages send no Referer (no-referrer keeps tokens private), so over HTTPS the CSRF
        # check must not demand one; the token and SameSite cookies do the work.
        WTF_CSRF_SSL_STRICT=False,
        HTMX_VERSION=HTMX_VERSION,
        PUBLIC_URL=os.environ.get("REFEREE_PUBLIC_URL"),
        # the PDFs made, shared by the server's processes on this machine (pdfcache)
        PDF_FOLDER=os.environ.get("REFEREE_PDF_FOLDER") or Path(app.instance_path) / "pdf",
    )
    if test_config:
        app.config.update(test_config)
    app.config["PUBLIC_URL"] = _public_url(app.config["PUBLIC_URL"])
    security = dict(SECURITY)
    if (app.config["PUBLIC_URL"] or "").startswith("https:"):
        # served over HTTPS only: the session cookie (this browser's matches, its edit links)
        # is never sent in the clear, and browsers keep to HTTPS for a year
        app.config["SESSION_COOKIE_SECURE"] = True
        security["Strict-Transport-Security"] = HSTS
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True
    app.jinja_env.bytecode_cache = _COMPILED
    init_languages(app)        # before any template compiles: its finalize says engine Texts
    app.jinja_env.filters["localtime"] = _localtime
    app.jinja_env.filters.update(number=numbers.number, signed=numbers.signed)    # "−10"
    app.jinja_env.globals["invalid"] = invalid.attributes    # a hand-written input's marks
    app.jinja_env.globals["running_totals"] = charts.running_totals    # the match's chart
    widgets.install()                          # WTForms' fields written out faster
    app.before_request(_upload_limit)          # before anything reads the form
    # Registered before the CSRF check, which would fail on a form field without a name.
    app.before_request(_nameless_fields)
    csrf.init_app(app)
    htmx.init_app(app)
    # the circles' tables share the store's metadata: created with its own (circlestore)
    app.extensions["referee.store"] = store = Store(app.config["DATABASE_URL"])
    app.extensions["referee.circles"] = circlestore.Circles(store)
    app.extensions["referee.scoresheets"] = exports.Scoresheets(
        folder=Path(app.config["PDF_FOLDER"]))
    app.extensions["referee.boards"] = Boards()
    app.extensions["referee.charts"] = exports.Charts()
    app.extensions["referee.rows"] = Recent[Markup](rows.KEPT)
    app.jinja_env.globals["hand_row"] = rows.hand_row         # once for what it shows
    app.extensions["referee.change_rows"] = Recent[Markup](rows.KEPT)
    app.jinja_env.globals["change_row"] = rows.change_row   # the same
    # the unchanged live poll (nearly every request) answered before Flask: matches/live.py
    app.wsgi_app = UnchangedPolls(  # type: ignore[method-assign]
        app.wsgi_app, store, security)
    # the app's own request log, tokens shortened, outermost (the polls above included)
    app.wsgi_app = requestlog.RequestLog(app.wsgi_app)  # type: ignore[method-assign]
    requestlog.install(app.testing)
    app.log_exception = requestlog.exception_logger(app)  # type: ignore[method-assign,assignment]
    assets.init_app(app, STATIC)

    _blueprints(app)

    app.after_request(_gzipped)           # registered first: runs after the others

    @app.after_request
    def security_headers(response: Response) -> Response:
        for name, value in security.items():
            response.headers.setdefault(name, value)
        return response

    @app.after_request
    def cache_headers(response: Response) -> Response:
        # A page and its htmx fragment (or htmx's form of an error) share one address.
        if request.endpoint != "static":
            response.vary.add("HX-Request")
        # An edit token must stay in no cache: whoever has it can change the match. (The live
        # scoreboard's ETag still answers 304: htmx sends If-None-Match itself.)
        if g.get("no_store"):
            response.headers["Cache-Control"] = "no-store"
        # A view token is a secret link too: kept in no shared cache, asked for again.
        elif g.get("private"):
            response.headers["Cache-Control"] = "no-cache, private"
        return response

    @app.errorhandler(CSRFError)
    def csrf_error(error: CSRFError) -> Any:
        return _problem(gettext("Form expired"), CSRF_MESSAGE, 400)

    @app.errorhandler(403)
    def view_only(error: Exception) -> Any:
        return _problem(gettext("View link"), VIEW_ONLY, 403)

    @app.errorhandler(404)
    def not_found(error: Exception) -> Any:
        return _problem(gettext("Not found"), gettext("There is no such page or match."), 404)

    @app.errorhandler(405)
    def not_allowed(error: Exception) -> Any:
        response = make_response(_problem(
            gettext("Not allowed"),
            gettext("This address cannot take that request. Nothing was changed."), 405))
        if isinstance(error, MethodNotAllowed) and error.valid_methods:
            response.headers["Allow"] = ", ".join(error.valid_methods)
        return response

    @app.errorhandler(413)
    def too_large(error: Exception) -> tuple[str, int]:
        most = round((request.max_content_length or UPLOAD) / 1_000_000)
        return render_template(
            "error.html", title=gettext("Too large"),
            message=gettext("That upload is too large (%(num)s MB at most).", num=most),
        ), 413

    return app


def _blueprints(app: Flask) -> None:
    """The pages: each module below adds its routes to its blueprint when imported."""
    from . import cards, home  # noqa: F401
    from .circles import blueprint as circles
    from .circles import pages, people, stats  # noqa: F401
    from .matches import blueprint as matches
    from .matches import hands, history, live, page, removals  # noqa: F401

    cards.register(app)
    app.register_blueprint(matches.bp)
    app.register_blueprint(circles.bp)
    app.jinja_env.globals["remembered_circles"] = circles.remembered_circles


CSRF_MESSAGE = lazy_gettext(
    "This form could not be checked (its security token is missing or stale). Nothing was "
    "changed: reload the page and try again.")


NAMELESS_MESSAGE = lazy_gettext(
    "This form could not be read (it holds a field without a name). Nothing was changed: "
    "reload the page and try again.")


def _upload_limit() -> None:
    """An imported file may be larger than any other request (``UPLOAD``): a match file,
    the largest match (``matchfile.MAX_BYTES``) with room for the form around it; a circle
    file, all of a circle's matches."""
    if request.endpoint == "matches.import_match":
        request.max_content_length = IMPORT_UPLOAD
    elif request.endpoint == "circles.import_circle":
        from ..engine.circlefile import MAX_BYTES

        request.max_content_length = MAX_BYTES


def _nameless_fields() -> Any:
    """A crafted multipart form part without a name reaches the views as the key None, which
    the CSRF check cannot handle (a 500): refuse it as a bad request instead."""
    if request.endpoint is None or request.method != "POST":
        return None
    if None in request.form or None in request.files:
        return _problem(gettext("Bad form"), NAMELESS_MESSAGE, 400)
    return None


def _problem(title: str, message: object, status: int) -> Any:
    """An error page; to htmx, a message in the page's alert area (the page stays)."""
    if htmx:
        return render_template("_alert.html", message=message), status, {
            "HX-Retarget": "#alerts", "HX-Reswap": "innerHTML"}
    return render_template("error.html", title=title, message=message), status


GZIP_FROM = 1024          # bytes of HTML from which an answer is sent gzipped


def _gzipped(response: Response) -> Response:
    """An HTML answer gzipped for a browser that takes it (issue 12): a page, an htmx answer
    to an action or a live scoreboard is a few kB on the wire, a fraction of its HTML."""
    if response.mimetype != "text/html" or response.direct_passthrough:
        return response
    response.vary.add("Accept-Encoding")
    length = response.calculate_content_length()
    if (length is None or length < GZIP_FROM or "Content-Encoding" in response.headers
            or request.accept_encodings["gzip"] <= 0):
        return response
    response.set_data(gzip.compress(response.get_data(), 6, mtime=0))
    response.headers["Content-Encoding"] = "gzip"
    return response


def _public_url(value: str | None) -> str | None:
    """The server's address as phones open it (REFEREE_PUBLIC_URL), without a final "/";
    share links and QR codes are made under it. A value that is no such address stops the
    start with a clear message, rather than print links that no phone can open."""
    if not value:
        return None
    try:
        parts = urlsplit(value)
        valid = (parts.scheme in ("http", "https") and bool(parts.hostname)
                 and not (parts.query or parts.fragment) and parts.port != 0)
    except ValueError:                                      # e.g. a port that is no number
        valid = False
    if not valid:
        raise ValueError(
            f"REFEREE_PUBLIC_URL must be the address at which phones open Referee, such as "
            f"https://referee.example.org or http://192.168.1.20:5000 (it is {value!r})")
    return value.rstrip("/")


def _localtime(moment: datetime) -> str:
    """A stored UTC time in the server's time zone (the table's, as a rule), its day and month
    as the phone's language writes them ("5 déc. 14:03:22", "5. 12. 14:03:22"); English as
    ever ("05 Dec 14:03:22")."""
    local = moment.replace(tzinfo=UTC).astimezone()
    locale = numbers.current_locale()
    if locale == numbers.ENGLISH:
        return format_datetime(local, "dd MMM HH:mm:ss", locale=locale)
    day = format_skeleton("MMMd", local, locale=locale)
    return f"{day} {format_time(local, 'HH:mm:ss', locale=locale)}"


def _instance_secret(instance: str) -> str:
    """The key kept in the instance folder, made on first start. Processes starting at once
    all get the same whole key: each writes one under another name and links it into place,
    where only the first link succeeds."""
    path = Path(instance) / "secret_key"
    if not path.exists():
        fd, draft = tempfile.mkstemp(dir=instance, prefix=".secret_key.")   # mode 0600
        try:
            with os.fdopen(fd, "w") as out:
                out.write(secrets.token_hex(32))
            with contextlib.suppress(FileExistsError):
                os.link(draft, path)
        finally:
            os.unlink(draft)
    return path.read_text().strip()
