"""The live scoreboard: what a phone showing a match polls every second (``GET
/m/<token>/live``).

- An unchanged poll (If-None-Match: the version it shows; nearly every poll) is answered 304
  before Flask (``UnchangedPolls``): one indexed read of the match's version and nothing else,
  no session cookie read, no routing, no request context (issue 12).
- Once the match changes every phone asks for the same new version at once: the parts every
  phone is sent alike (the standings, the hands, the history of changes) are rendered once per
  version of the match, link (edit or view) and language (two phones at one table may read
  two) and kept (``Boards``); only what belongs to one
  phone (the address it polls, the warning that its open editor went stale, its forms' CSRF
  token) is added to each answer (``live``).
- A phone whose editor, with nothing typed into it, another phone's change made stale gets the
  editor as the match stands now (``follow``)."""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from flask import Response, abort, current_app, render_template, request
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup
from werkzeug.http import parse_etags

from ...numbers import current_locale
from ..extensions import store
from ..games import WEB_GAMES
from ..sharing import made_here, private, token_in
from ..store import Store, is_new_base
from .blueprint import HISTORY, bp, etag, load
from .page import hand_context, page_context, render_live

CACHE_BYTES = 8 * 1024 * 1024      # shared answers kept per process
CSRF_MARK = "\x00csrf\x00"         # where a form's CSRF token stands in a shared part


@dataclass(frozen=True)
class Board:
    """One version of a match as every phone polling it by one link is sent it."""

    token: str                      # the link's token (edit or view): the page's addresses
    game: str
    version: int
    language: str                   # the language it is said in (``current_locale()``)
    can_edit: bool
    scoreboard: str                 # the inside of #scoreboard (standings, the game's summary)
    rest: str                       # the hands and the history of changes, out of band
    # StoredMatch.base of the version rendered: worked out for the hand a phone watches only
    # (issue 12: a new version of a 1,000-hand match does not fingerprint every hand)
    fingerprint: Callable[[int], str]
    latest_device: str | None       # the device of the latest change

    def base(self, hand: int) -> str:
        """As StoredMatch.base: the base a form for hand ``hand`` is built on now."""
        return self.fingerprint(hand)

    def parts(self, csrf: str) -> tuple[str, str]:
        """The shared parts with this phone's CSRF token in their forms."""
        return self.scoreboard.replace(CSRF_MARK, csrf), self.rest.replace(CSRF_MARK, csrf)

    @property
    def size(self) -> int:
        return len(self.scoreboard) + len(self.rest)


def shared(html: str, csrf: str) -> str:
    """A part rendered for one phone, made fit for every phone: its CSRF token marked."""
    return html.replace(csrf, CSRF_MARK) if csrf else html


class Boards:
    """The boards rendered lately, by (token, version, language); the least recently asked
    for go first once they hold more than ``limit`` characters. One process's: a version is
    rendered at most once per process and language."""

    def __init__(self, limit: int = CACHE_BYTES) -> None:
        self.limit = limit
        self._kept: OrderedDict[tuple[str, int, str], Board] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()

    def get(self, token: str, version: int, language: str) -> Board | None:
        with self._lock:
            board = self._kept.get((token, version, language))
            if board is not None:
                self._kept.move_to_end((token, version, language))
            return board

    def put(self, board: Board) -> None:
        key = (board.token, board.version, board.language)
        with self._lock:
            if key in self._kept:
                return
            self._kept[key] = board
            self._size += board.size
            while self._size > self.limit and len(self._kept) > 1:
                self._size -= self._kept.popitem(last=False)[1].size


LIVE = re.compile(r"/m/([A-Za-z0-9_-]{1,64})/live")

StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


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
                        # an edit token in the address: kept in no cache (sharing.private)
                        ("Cache-Control", "no-store" if version[1] else "no-cache, private"),
                        ("Vary", "HX-Request, Accept-Encoding"), *self.headers])
                    return []
        return self.app(environ, start_response)


@bp.get("/m/<match_id>/live")
def live(match_id: str) -> Any:
    """The scoreboard, polled every second by every phone showing the match: answered
    304 from one indexed read while nothing changed (If-None-Match: the match's version;
    answered before Flask as a rule, UnchangedPolls);
    else the version's shared parts, rendered once for every phone (Boards), around this
    phone's own: the address it polls and the warning that its open editor went stale."""
    found = store().version(match_id) if token_in(match_id) == match_id else None
    if found is None:
        abort(404)
    private(found[1])
    tag = etag(*found)
    if request.if_none_match.contains(tag):
        response = Response(status=304)
    else:
        board = boards().get(match_id, found[0], current_locale()) or board_of(match_id)
        tag = etag(board.version, board.can_edit)       # the version this body shows
        watch = watched() if board.can_edit else None
        stale = None
        if watch is not None:
            number, base, editing = watch
            # Only a change made elsewhere counts: a poll sent while this phone's own
            # change was on its way answers after it (a slow network), on the old base.
            latest = board.latest_device
            if board.base(number) != base and not (latest is not None and made_here(latest)):
                stale = number
                if request.args.get("typed") == "0":
                    # nothing typed into the editor (table.js says so; a page of an earlier
                    # table.js says nothing, and is warned): it follows the match
                    return follow(match_id, number if editing else None)
        inside, rest = board.parts(generate_csrf() if board.can_edit else "")
        response = Response(render_template(
            "matches/_scoreboard.html", oob=True, match=board, game=WEB_GAMES[board.game].game,
            etag=tag, watch=watch, editor_stale=stale, board=Markup(inside), rest=Markup(rest),
            stale_new=watch is not None and is_new_base(watch[1])))
    response.set_etag(tag)
    response.headers["Cache-Control"] = "no-cache, private"
    return response


def boards() -> Boards:
    return current_app.extensions["referee.boards"]  # type: ignore[no-any-return]



def board_of(match_id: str) -> Board:
    """The parts of the live scoreboard's answer that every phone polling this version of
    the match by this link is sent alike, rendered once and kept (Boards)."""
    stored, web, result = load(match_id, events=HISTORY)
    context = {**page_context(hand_context(stored, web, result), web, messages=False),
               "watch": None}
    csrf = generate_csrf() if stored.can_edit else ""
    rest = "\n".join([*(render_template(part, oob=True, **context)
                        for part in ("matches/_history.html", "matches/_changes.html")),
                      # the end announced at the top, as it stands (taken away by a new hand)
                      render_template("matches/_announce.html", announce_oob=True, **context)])
    board = Board(
        token=stored.token, game=stored.game, version=stored.version,
        language=current_locale(), can_edit=stored.can_edit,
        scoreboard=shared(render_template("matches/_board.html", **context), csrf),
        rest=shared(rest, csrf),
        fingerprint=stored.base,
        latest_device=stored.events[0].device if stored.events else None)
    boards().put(board)
    return board


def follow(match_id: str, editing: int | None) -> Any:
    """The live scoreboard's answer to a phone whose editor, with nothing typed into it, was
    made stale by another phone: the match page's live parts as after a change of its own
    (render_live), with the editor of the hand the match is at now (or of the earlier
    hand it edits, as that hand now stands)."""
    stored, web, result = load(match_id, events=HISTORY)
    if editing is not None and not 1 <= editing <= len(stored.hands):
        editing = None
    page, status, headers = render_live(hand_context(stored, web, result, editing), web,
                                        editing=editing is not None, follow=True)
    response = Response(page, status, headers)
    response.set_etag(etag(stored.version, stored.can_edit))
    response.headers["Cache-Control"] = "no-cache, private"
    return response


def watched() -> tuple[int, str, bool] | None:
    """The (hand, base, editing an earlier hand) a polling page's editor was built on, from
    the poll's query."""
    hand = request.args.get("hand", type=int)
    base = request.args.get("base", "")
    if hand is None or not 1 <= hand <= 100_000 or not 1 <= len(base) <= 40:
        return None
    return hand, base, request.args.get("editing") == "1"
