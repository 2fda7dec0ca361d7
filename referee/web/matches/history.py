"""The match page's hand history, flat in the match's length (issue 12): a compact scoresheet
row per hand, the latest ``PAGE`` hands on the match page (and the hand in progress), older
hands a page at a time ("Earlier hands"), and a hand's explanation on demand.

With htmx a row's <details> loads its explanation when opened and "Earlier hands" loads the
older rows in place; without JavaScript both are links to pages of their own."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import abort, render_template, request, url_for

from ...engine.games.base import HandOutcome, MatchResult
from ..extensions import htmx
from ..games.base import WebGame
from ..store import StoredMatch
from .blueprint import bp, load
from .page import hand_context, page_context

PAGE = 20                 # hands a page of the history shows


@dataclass(frozen=True)
class Window:
    """The rows one page of the history shows, oldest first, and where the others are."""

    hands: list[HandOutcome]
    earlier: int | None        # the first hand shown, when there are hands before it
    later: int | None          # the hand after the last shown, when it is on an older page
    latest: bool               # the match page's own window (the latest hands)

    @property
    def earlier_from(self) -> int:
        """The first hand of the page "Earlier hands" leads to."""
        return max(1, (self.earlier or 1) - PAGE)


def _start(result: MatchResult) -> int:
    """The first hand the match page shows."""
    return max(1, len(result.hands) - PAGE + 1)


def latest(result: MatchResult) -> Window:
    """The match page's rows: the last ``PAGE`` scored hands and the hand in progress."""
    start = _start(result)
    shown = list(result.hands[start - 1:])
    if result.draft is not None:
        shown.append(result.draft)
    return Window(shown, start if start > 1 else None, None, True)


def older(result: MatchResult, before: int) -> Window:
    """The ``PAGE`` scored hands before hand ``before`` (kept within the match)."""
    start = _start(result)
    before = min(max(before, 1), start)
    first = max(1, before - PAGE)
    later = min(before + PAGE, start) if before < start else None
    return Window(list(result.hands[first - 1:before - 1]), first if first > 1 else None,
                  later, False)


def hand_address(token: str, number: int, result: MatchResult) -> str:
    """Where hand ``number`` is in the history: on the match page, or on the older page that
    shows it."""
    start = _start(result)
    if number >= start:
        return url_for("matches.match", match_id=token, _anchor=f"hand-{number}")
    before = start - (start - number - 1) // PAGE * PAGE
    return url_for("matches.history", match_id=token, before=before, _anchor=f"hand-{number}")


@bp.app_template_global("history_window")
def history_window(result: MatchResult) -> Window:
    return latest(result)


def _history_context(stored: StoredMatch, web: WebGame, result: MatchResult) -> dict[str, Any]:
    """What the rows need (a game's ``hand_template`` included: its forms, the bases)."""
    return page_context(hand_context(stored, web, result), web, messages=False)


@bp.get("/m/<match_id>/history")
def history(match_id: str) -> Any:
    """Older hands, ``PAGE`` at a time (``?before=``: the hand after the last one shown). To
    htmx: the rows alone, put in place of the "Earlier hands" link that asked for them."""
    stored, web, result = load(match_id)
    before = request.args.get("before", type=int)
    window = older(result, _start(result) if before is None else before)
    template = "matches/_history_rows.html" if htmx else "matches/hands.html"
    return render_template(template, window=window, **_history_context(stored, web, result))


@bp.get("/m/<match_id>/explained/<int:hand>")
def explanation(match_id: str, hand: int) -> Any:
    """How hand ``hand`` was scored, line by line with the rule of each. To htmx: the lines
    (loaded when the hand's row is opened); else a page with the hand's Edit and Delete (for
    an edit link) and the way back to it in the history."""
    stored, web, result = load(match_id)
    if 1 <= hand <= len(result.hands):
        shown = result.hands[hand - 1]
    elif hand == len(result.hands) + 1 and result.draft is not None:
        shown = result.draft
    else:
        abort(404)
    if htmx:
        return render_template("matches/_hand_lines.html", hand=shown, game=web.game)
    return render_template("matches/hand.html", hand=shown,
                           back_url=hand_address(stored.token, hand, result),
                           **_history_context(stored, web, result))
