"""The match page: what its templates need (``page_context``), the page or, to htmx, its live
section as the answer (``render_live``), and the answer after a change (``after_change``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask import get_flashed_messages, redirect, render_template, session, url_for
from flask_wtf import FlaskForm

from ...engine.games.base import HandOutcome, MatchResult
from ..extensions import htmx
from ..forms.buttons import ButtonForm
from ..forms.invalid import flag
from ..games import WEB_GAMES
from ..games.base import ActionContext, WebGame
from ..languages import LanguageForm
from ..sharing import device_id, host_hint, remember, share_links
from ..store import StoredMatch
from .blueprint import HISTORY, OUTCOME, TOLD, bp, etag, find, load


def hand_context(
    match: StoredMatch, web: WebGame, result: MatchResult, hand: int | None = None,
    trick: int | None = None,
) -> ActionContext:
    if hand is None:
        hand = len(match.hands) if result.draft is not None else len(match.hands) + 1
    return ActionContext(match, result, hand, trick, list(match.settings["players"]))


def page_context(
    ctx: ActionContext, web: WebGame, *, error: str | None = None,
    bound: dict[str, FlaskForm] | None = None, editing: bool = False,
    posted: str | None = None, conflict: dict[str, Any] | None = None, messages: bool = True,
    corrections: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """What the match page's templates need. ``bound``: forms that keep what this phone
    typed (a refusal, a conflict), so that the live scoreboard leaves its editor as it is."""
    match, result = ctx.match, ctx.result
    forms: dict[str, FlaskForm] = {}
    if match.can_edit:
        forms = web.forms(ctx)
        forms.update(bound or {})
        flag(forms.values())            # a refused field: aria-invalid, with its message
    return {
        "match": match, "web": web, "game": web.game, "result": result, "ctx": ctx,
        "names": ctx.names, "sides": web.game.sides(match.settings), "forms": forms,
        "editor": web.editor(ctx), "error": error, "conflict": conflict,
        "corrections": corrections,
        # the language its scoresheet, CSV and chart are written in (changed by the edit link)
        "language_form": LanguageForm(language=match.language) if match.can_edit else None,
        "editing": editing, "button": ButtonForm(), "typed": bool(bound),
        "messages": get_flashed_messages(category_filter=["message"]) if messages else [],
        "outcomes": _outcomes(result) if messages else [],
        "rules": web.game.rules_in_force(match.settings), "posted": posted,
        "base": match.base(ctx.hand),
        "bases": Bases(match),          # worked out for the hands the page shows
        "etag": etag(match.version, match.can_edit), "history_limit": HISTORY,
        # the hand this page's editor is about (and whether it edits an earlier hand): when
        # another phone changes it, the live scoreboard brings the editor as it stands now to
        # a phone that typed nothing into it, and warns one that did
        "watch": ((ctx.hand, match.base(ctx.hand), editing)
                  if match.can_edit and (not result.standing.over or editing) else None),
    }



class Bases(Sequence[str]):
    """The base (``StoredMatch.base``) of each stored hand, worked out only for the hands a
    page shows: a page of a 1,000-hand match does not fingerprint every hand."""

    def __init__(self, match: StoredMatch) -> None:
        self._match = match
        self._found: dict[int, str] = {}      # worked out once (a row's key, then the row)

    def __len__(self) -> int:
        return len(self._match.hands)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(len(self))[index]]
        if not -len(self) <= index < len(self):
            raise IndexError(index)
        number = index % len(self) + 1
        base = self._found.get(number)
        if base is None:
            base = self._found[number] = self._match.base(number)
        return base


def _outcomes(result: MatchResult) -> list[HandOutcome]:
    """The hands an action just scored (flashed as OUTCOME), as they stand now: shown at the
    top of the page with the verdict's arithmetic (issue 11, item 2)."""
    shown = []
    for number in get_flashed_messages(category_filter=[OUTCOME]):
        index = int(str(number)) - 1
        if 0 <= index < len(result.hands) and result.hands[index] not in shown:
            shown.append(result.hands[index])
    return shown


def _told() -> bool:
    """Has this request something to tell at the top of the page (a notice, a hand scored)?"""
    return bool(session.get("_flashes"))


def render_live(
    ctx: ActionContext, web: WebGame, *, error: str | None = None,
    bound: dict[str, FlaskForm] | None = None, status: int = 200, editing: bool = False,
    posted: str | None = None, conflict: dict[str, Any] | None = None,
    corrections: dict[str, Any] | None = None, changed: bool = False, follow: bool = False,
) -> Any:
    """The match page, or to htmx its live section. An htmx answer to an action sends only
    the parts that may have changed (``answer`` in _live.html): after a ``changed`` match, the
    top, the scoreboard, the editor, the hands, the undo button and the history of changes;
    after a refusal (422: nothing stored), the top and the editor, with what was typed. The
    top (#live-top) is the swap's target, the rest goes out of band. ``follow``: the live
    scoreboard's answer to a phone whose untouched editor another phone's change made stale
    (live.live): the parts of a change but the top of the page and the undo button (which
    names the change this phone saw), the editor its target."""
    context = page_context(ctx, web, error=error, bound=bound, editing=editing, posted=posted,
                    conflict=conflict, corrections=corrections, messages=not follow)
    headers: dict[str, str] = {}
    if htmx:
        template = "matches/_live.html"
        context["answer"] = ("follow" if follow else "change" if changed
                             else "refusal" if status == 422 else None)
        if context["answer"]:
            headers["HX-Retarget"] = "#live-editor" if follow else "#live-top"
    else:
        template = "matches/match.html"
        match = ctx.match
        device_id()         # given now: this page's polls carry it (see live)
        context["share"] = share_links(match.id if match.can_edit else None, match.view_token)
        context["host_hint"] = host_hint()
    if error and htmx:
        headers["HX-Reswap"] = "outerHTML show:#rule-error:top"
    return render_template(template, **context), status, headers


@bp.get("/m/<match_id>")
def match(match_id: str) -> Any:
    stored, web, result = load(match_id, events=HISTORY)
    remember(stored.token)
    return render_live(hand_context(stored, web, result), web)



@bp.get("/m/<match_id>/changes")
def changes(match_id: str) -> Any:
    """The whole history of changes (the match page shows the latest ones)."""
    stored = find(match_id, events=1_000_000)
    return render_template("matches/changes.html", match=stored,
                           game=WEB_GAMES[stored.game].game, button=ButtonForm(), complete=True)


def after_change(match_id: str, editing: int | None) -> Any:
    """The match page after a change, where the change is seen: at the top of the page
    (``#outcome``: what it did, the end announced) when there is something to tell, else at
    the editor where it was made. With htmx the swap scrolls there; without, the redirect
    lands on the anchor (issue 11, items 2 and 11)."""
    anchor = TOLD if _told() else "editor"
    if htmx:
        stored, web, result = load(match_id, events=HISTORY)
        ctx = hand_context(stored, web, result, editing)
        page, status, headers = render_live(ctx, web, editing=editing is not None,
                                            changed=True)
        if anchor == TOLD:
            headers = {**headers, "HX-Reswap": f"outerHTML show:#{TOLD}:top"}
        return page, status, headers
    if editing is not None:
        return redirect(url_for(".edit_hand", match_id=match_id, hand=editing, _anchor=anchor))
    return redirect(url_for(".match", match_id=match_id, _anchor=anchor))
