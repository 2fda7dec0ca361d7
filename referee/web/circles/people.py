"""A circle's people and matches changed after the fact (issue 24): a person's page (rename,
merge into another player), the merge's confirmation naming both and their matches, a match
taken out of the circle, and the circle's history of changes with Undo.

Every form posts with its CSRF token and the circle's version as the page showed it: a change
made meanwhile on another phone refuses the post (nothing changed; the page as it is now).
Without JavaScript each form is a plain POST; with htmx, boosted (the answer's page in place,
its address in the browser's history)."""

from __future__ import annotations

import re
from typing import Any

from flask import abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext, lazy_gettext, ngettext
from flask_wtf import FlaskForm
from wtforms import StringField

from ...engine.errors import RuleViolation
from ...engine.games import GAMES
from ...engine.games.base import require_name
from ...engine.words import T
from ..extensions import circles, htmx
from ..forms.buttons import ButtonForm
from ..languages import say
from ..sharing import device
from ..store import CHANGED, Circle, CircleRefused, NotInCircle, Player
from ..store import circlechanges as people
from .blueprint import bp, find
from .pages import circle_page

CHANGES_PAGE = 100        # the changes the circle's history page lists (the latest)
_NUMBER = re.compile(r"[0-9]{1,9}")
LARGEST_ID = 2**31 - 1    # a row id the databases' integers hold
NOT_LISTED = lazy_gettext("Pick one of the circle's players from the list.")


class RenameForm(FlaskForm):
    name = StringField(lazy_gettext("New name"))


def _seen() -> int:
    """The circle's version the posting page showed (-1, never a version, if none)."""
    posted = request.form.get("version", "")
    return int(posted) if _NUMBER.fullmatch(posted) else -1


def _player(circle: Circle, player_id: int) -> Player:
    return circle.player(player_id) or abort(404)


def _matches(count: int) -> str:
    return ngettext("%(num)s match", "%(num)s matches", count)


def _answer(html: str, status: int, address: str) -> Any:
    """A page answering a post; to htmx, with the address the browser's history keeps (the
    post's own address answers no GET)."""
    headers = {"HX-Push-Url": address} if htmx else {}
    return html, status, headers


# -- a person ------------------------------------------------------------------------------

def _person_page(circle: Circle, player: Player, status: int = 200, **extra: Any) -> Any:
    counts = people.played_counts(circles(), circle.id)
    others = [(p, counts.get(p.id, 0)) for p in circle.players if p.id != player.id]
    context = {"circle": circle, "player": player, "played": _matches(counts.get(player.id, 0)),
               "others": others, "matches_counted": _matches,
               "version": people.version_of(circles(), circle.id),
               "rename_form": extra.pop("rename_form", None) or RenameForm(name=player.name),
               **extra}
    html = render_template("circles/person.html", **context)
    return _answer(html, status, url_for(".person", token=circle.id, player_id=player.id))


@bp.get("/c/<token>/people/<int:player_id>")
def person(token: str, player_id: int) -> Any:
    found = find(token)
    return _person_page(found, _player(found, player_id))


@bp.post("/c/<token>/people/<int:player_id>/name")
def rename(token: str, player_id: int) -> Any:
    found = find(token)
    player = _player(found, player_id)
    form = RenameForm()
    status = 422
    if form.validate_on_submit():
        try:
            name = require_name(form.name.data, "circle.player", T("The new name"))
            people.rename(circles(), found.id, player.id, name, _seen(), device())
        except RuleViolation as violation:
            error = violation.message
        except NotInCircle:
            abort(404)
        except CircleRefused as refused:
            error = str(say(refused.message))
            status = 409 if refused.message == CHANGED else 422
        else:
            flash(gettext("%(old)s is called %(new)s now.", old=player.name, new=name))
            return redirect(url_for(".circle", token=token, _anchor="players"))
    else:
        error = "; ".join(str(m) for ms in form.errors.values() for m in ms)
    return _person_page(find(token), player, status, rename_form=form, rename_error=error)


# -- a merge -------------------------------------------------------------------------------

def _merge_page(circle: Circle, gone: Player, status: int = 200,
                error: str | None = None) -> Any:
    """The merge's confirmation: both people and their matches (or why it cannot be)."""
    into = request.values.get("into", "")
    kept = circle.player(int(into)) if _NUMBER.fullmatch(into) else None
    if kept is None or kept.id == gone.id:
        return _person_page(circle, gone, 422, merge_error=NOT_LISTED, into=into)
    counts = people.played_counts(circles(), circle.id)
    clash = people.clash(circles(), circle.id, gone.id, kept.id)
    html = render_template(
        "circles/merge.html", circle=circle, gone=gone, kept=kept,
        gone_played=_matches(counts.get(gone.id, 0)), kept_played=_matches(counts.get(kept.id, 0)),
        together=_matches(counts.get(gone.id, 0) + counts.get(kept.id, 0)),
        clash=str(say(people.clash_words(gone.name, kept.name, clash))) if clash else None,
        error=error, version=people.version_of(circles(), circle.id), button=ButtonForm())
    return _answer(html, 422 if clash and status == 200 else status,
                   url_for(".merge", token=circle.id, player_id=gone.id, into=kept.id))


@bp.route("/c/<token>/people/<int:player_id>/merge", methods=["GET", "POST"])
def merge(token: str, player_id: int) -> Any:
    """GET: the confirmation (``into``: the player who stays); POST: the merge."""
    found = find(token)
    gone = _player(found, player_id)
    if request.method == "GET":
        return _merge_page(found, gone)
    if not ButtonForm().validate_on_submit():
        return _merge_page(found, gone, 400, "; ".join(
            str(m) for ms in ButtonForm().errors.values() for m in ms))
    into = request.form.get("into", "")
    kept = found.player(int(into)) if _NUMBER.fullmatch(into) else None
    if kept is None or kept.id == gone.id:
        return _person_page(found, gone, 422, merge_error=NOT_LISTED, into=into)
    try:
        people.merge(circles(), found.id, gone.id, kept.id, _seen(), device())
    except NotInCircle:
        abort(404)
    except CircleRefused as refused:
        return _merge_page(find(token), gone, 409 if refused.message == CHANGED else 422,
                           str(say(refused.message)))
    flash(gettext("%(gone)s and %(kept)s are one person now: %(kept)s.", gone=gone.name,
                  kept=kept.name))
    return redirect(url_for(".circle", token=token, _anchor="players"))


# -- a match taken out of the circle -------------------------------------------------------

@bp.route("/c/<token>/matches/<match_id>/remove", methods=["GET", "POST"])
def remove_match(token: str, match_id: str) -> Any:
    """GET: what is taken out, and what stays; POST: it leaves the circle."""
    found = find(token)
    shown = people.member(circles(), found.id, match_id) or abort(404)
    error: str | None = None
    status = 200
    if request.method == "POST":
        if not ButtonForm().validate_on_submit():
            error, status = "; ".join(str(m) for ms in ButtonForm().errors.values()
                                      for m in ms), 400
        else:
            try:
                people.remove_match(circles(), found.id, match_id, _seen(), device())
            except NotInCircle:
                abort(404)
            except CircleRefused as refused:
                error, status = str(say(refused.message)), 409
            else:
                flash(gettext("The %(game)s match of %(day)s is out of the circle; the match "
                              "itself stays, with its links.", game=GAMES[shown.game].title,
                              day=shown.created.date().isoformat()))
                return redirect(url_for(".circle", token=token, _anchor="matches"))
    html = render_template("circles/remove.html", circle=found, shown=shown,
                           game=GAMES[shown.game], error=error, button=ButtonForm(),
                           version=people.version_of(circles(), found.id))
    return _answer(html, status, url_for(".remove_match", token=token, match_id=match_id))


# -- the history ---------------------------------------------------------------------------

@bp.get("/c/<token>/changes")
def changes(token: str) -> Any:
    found = find(token)
    return render_template("circles/changes.html", circle=found, button=ButtonForm(),
                           changes=people.history(circles(), found.id, CHANGES_PAGE),
                           limit=CHANGES_PAGE)


@bp.post("/c/<token>/changes/<int:change_id>/undo")
def undo(token: str, change_id: int) -> Any:
    found = find(token)
    if change_id > LARGEST_ID:
        abort(404)
    if not ButtonForm().validate_on_submit():
        error = "; ".join(str(m) for ms in ButtonForm().errors.values() for m in ms)
        html, status = circle_page(found, 400, changes_error=error)
        return _answer(html, status, url_for(".circle", token=token))
    try:
        undone = people.undo(circles(), found.id, change_id, device())
    except NotInCircle:
        abort(404)
    except CircleRefused as refused:
        html, status = circle_page(found, 409, changes_error=str(say(refused.message)))
        return _answer(html, status, url_for(".circle", token=token))
    flash(gettext("Undone: %(change)s", change=say(undone)))
    return redirect(url_for(".circle", token=token, _anchor="changes"))
