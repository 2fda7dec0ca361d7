"""Several phones at one table: which device made a change, which matches this browser knows,
and the links (with QR codes) that let another phone join."""

from __future__ import annotations

import ipaddress
import re
import secrets
from functools import lru_cache
from urllib.parse import urlsplit

import segno
from flask import current_app, g, request, session, url_for
from flask_babel import gettext

from ..engine.errors import RuleViolation
from ..engine.games.base import require_name
from .extensions import circles

REMEMBERED = 30           # matches listed on a browser's home page

_BROWSERS = (("Edg/", "Edge"), ("Firefox/", "Firefox"), ("SamsungBrowser/", "Samsung Internet"),
             ("Chrome/", "Chrome"), ("Chromium/", "Chromium"), ("Safari/", "Safari"))
_SYSTEMS = (("Android", "Android"), ("iPhone", "iPhone"), ("iPad", "iPad"),
            ("Windows", "Windows"), ("Mac OS X", "Mac"), ("Linux", "Linux"))
_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,40}")


def device() -> str:
    """How the history names this browser: the name given to it on the home page, else its
    kind; then a short id kept in its cookie, e.g. "Firefox on Android · 3fa2"."""
    own = device_id()
    name = _device_name(session.get("device_name"))
    if name:
        return f"{name} · {own}"
    agent = request.headers.get("User-Agent", "")
    browser = next((name for key, name in _BROWSERS if key in agent), "Browser")
    system = next((name for key, name in _SYSTEMS if key in agent), "")
    kind = f"{browser} on {system}" if system else browser
    return f"{kind} · {own}"


def device_id() -> str:
    """This browser's short id, kept in its cookie (given on first use)."""
    own = session.get("device")
    if not isinstance(own, str) or not own:
        own = session["device"] = secrets.token_hex(2)
    return own


def made_here(label: str) -> bool:
    """Was the change the history names by ``label`` (what device() said) made by this
    browser? Its short id is the part after the last " · "."""
    own = session.get("device")
    return isinstance(own, str) and bool(own) and label.rsplit(" · ", 1)[-1] == own


def _device_name(value: object) -> str | None:
    """The name given to this browser, if it is one a name may be (a cookie from before
    names were checked may hold a NUL character, which PostgreSQL cannot store)."""
    try:
        return require_name(value, "device.name") if value else None
    except RuleViolation:
        return None


def remember(token: str) -> None:
    """Put a match this browser created or opened at the top of its home page."""
    mine = [t for t in session.get("mine", []) if isinstance(t, str) and t != token]
    session["mine"] = [token, *mine][:REMEMBERED]


def remembered() -> list[str]:
    return [t for t in session.get("mine", []) if isinstance(t, str)]


def token_in(text: str) -> str | None:
    """The match token in a pasted link (".../m/<token>/...") or a typed code."""
    text = text.strip()
    found = re.search(r"/m/([A-Za-z0-9_-]+)", text)
    candidate = found.group(1) if found else text
    return candidate if _TOKEN.fullmatch(candidate) else None


def share_links(edit_token: str | None, view_token: str) -> list[dict[str, str]]:
    """The links to show (the edit link only to those who hold it), each with a QR code."""
    links = []
    for kind, token, what in (
        ("edit", edit_token, gettext("Edit link: whoever has it can enter and change hands")),
        ("view", view_token,
         gettext("View link: the live scoreboard and the record, read-only")),
    ):
        if token is None:
            continue
        url = match_link(token)
        links.append({"kind": kind, "url": url, "qr": qr_code(url), "what": what,
                      "code": token})
    return links


def match_link(token: str) -> str:
    """The full address of a match: under the server's configured address
    (REFEREE_PUBLIC_URL) when there is one, else under the address this request came to
    (its Host header, which anyone can set)."""
    public = public_url()
    if not public:
        return url_for("matches.match", match_id=token, _external=True)
    path = url_for("matches.match", match_id=token)
    return public.rstrip("/") + path.removeprefix(request.script_root)


def public_url() -> str | None:
    public = current_app.config.get("PUBLIC_URL")
    return str(public) if public else None


@lru_cache(maxsize=256)
def qr_code(url: str) -> str:
    """The QR code of a link, as an SVG data URI (a few ms to make: kept per link)."""
    return str(segno.make(url, error="m").svg_data_uri(scale=4, border=2))


def host_hint() -> str | None:
    """A warning when the links point at this machine only (phones cannot open them)."""
    public = public_url()
    address = urlsplit(public).netloc if public else request.host
    try:
        host = urlsplit(f"//{address}").hostname or ""        # "[::1]:5000" → "::1"
    except ValueError:                                        # a malformed Host header
        host = address
    try:
        loopback = ipaddress.ip_address(host).is_loopback     # 127.0.0.0/8 and ::1
    except ValueError:
        loopback = host == "localhost" or host.endswith(".localhost")
    if loopback and public:
        return gettext("These links name this computer only (REFEREE_PUBLIC_URL is "
                       "%(address)s). For phones on the same network, set REFEREE_PUBLIC_URL to "
                       "this computer's network address (see the README).", address=public)
    if loopback:
        return gettext("These links name this computer only (%(address)s). For phones on the "
                       "same network, start Referee with HOST=0.0.0.0 (see the README) and open "
                       "it by this computer's network address.", address=request.host)
    return None


def private(edit_link: bool) -> None:
    """Mark this answer as one that carries a match's token (in its address, its links or its
    forms). An edit token: it is sent with ``Cache-Control: no-store``, so that no cache (a
    shared computer's, a proxy's) keeps what lets anyone change the match; a view token, a
    secret link too: ``no-cache, private``, kept in no shared cache (and the browser asks
    again before showing it)."""
    if edit_link:
        g.no_store = True
    else:
        g.private = True


def circle_in(text: str) -> str | None:
    """The circle whose link (".../c/<token>") or code this is, if there is one."""
    found = re.search(r"/c/([A-Za-z0-9_-]+)", text)
    token = found.group(1) if found else text.strip()
    return token if _TOKEN.fullmatch(token) and circles().load(token) else None
