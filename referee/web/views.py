"""The generic pages: home, new match, the match page, hand actions, undo, export, PDF."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    get_flashed_messages,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired

from ..engine import matchfile
from ..engine.errors import RuleViolation
from ..engine.games import GAMES
from ..engine.games.base import MatchResult
from . import htmx
from .changes import describe_changes
from .games import WEB_GAMES
from .games.base import ActionContext, FormInvalid, WebGame
from .store import Store, StoredMatch

bp = Blueprint("matches", __name__)


class ImportForm(FlaskForm):
    file = FileField("Match file (.json)", validators=[FileRequired("Choose a match file")])


class ButtonForm(FlaskForm):
    """A POST-only button: only the CSRF token."""


def store() -> Store:
    return current_app.extensions["referee.store"]  # type: ignore[no-any-return]


def load(match_id: str) -> tuple[StoredMatch, WebGame, MatchResult]:
    match = store().load(match_id) if len(match_id) <= 40 else None
    if match is None or match.game not in WEB_GAMES:
        abort(404)
    web = WEB_GAMES[match.game]
    try:
        return match, web, web.game.score(match.settings, match.hands)
    except RuleViolation as violation:
        # Stored facts that no longer pass the rules (e.g. written by another version):
        # say so and offer the match file rather than fail.
        abort(Response(render_template(
            "error.html", title="This match cannot be scored",
            message=f"{violation.explain()}. Nothing was changed.",
            export=url_for(".export", match_id=match.id),
        ), 409))


@bp.get("/")
def home() -> str:
    return render_template(
        "home.html", matches=store().recent(), games=GAMES, web_games=WEB_GAMES,
        import_form=ImportForm(),
    )


@bp.route("/new/<game>", methods=["GET", "POST"])
def new_match(game: str) -> Any:
    web = WEB_GAMES.get(game) or abort(404)
    form = web.new_form()
    error = None
    if form.validate_on_submit():
        try:
            settings = web.game.settings(web.settings_from(form))
        except RuleViolation as violation:
            error = violation.explain()
        else:
            match_id = store().create(web.game.name, settings, [])
            return redirect(url_for(".match", match_id=match_id))
    status = 422 if request.method == "POST" else 200
    return render_template(web.new_template, form=form, game=web.game, error=error), status


@bp.post("/import")
def import_match() -> Any:
    form = ImportForm()
    error = None
    if form.validate_on_submit():
        try:
            data = form.file.data.read(current_app.config["MAX_CONTENT_LENGTH"])
            loaded = matchfile.load(data)
        except RuleViolation as violation:
            error = violation.explain()
        else:
            created = datetime.fromisoformat(loaded.created)
            match_id = store().create(loaded.game, loaded.settings, loaded.hands, created)
            flash("Match imported.")
            return redirect(url_for(".match", match_id=match_id))
    else:
        error = "; ".join(m for msgs in form.errors.values() for m in msgs)
    return render_template(
        "home.html", matches=store().recent(), games=GAMES, web_games=WEB_GAMES,
        import_form=form, import_error=error,
    ), 422


def _context(
    match: StoredMatch, web: WebGame, result: MatchResult, hand: int | None = None,
    trick: int | None = None,
) -> ActionContext:
    if hand is None:
        hand = len(match.hands) if result.draft is not None else len(match.hands) + 1
    return ActionContext(match, result, hand, trick, list(match.settings["players"]))


def render_live(
    ctx: ActionContext, web: WebGame, *, error: str | None = None,
    bound: dict[str, FlaskForm] | None = None, status: int = 200, editing: bool = False,
) -> Any:
    forms = web.forms(ctx)
    forms.update(bound or {})
    match, result = ctx.match, ctx.result
    context = {
        "match": match, "web": web, "game": web.game, "result": result, "ctx": ctx,
        "names": ctx.names, "sides": web.game.sides(match.settings), "forms": forms,
        "editor": web.editor(ctx), "error": error,
        "editing": editing, "button": ButtonForm(), "messages": get_flashed_messages(),
        "rules": web.game.rules_in_force(match.settings),
    }
    template = "matches/_live.html" if htmx else "matches/match.html"
    return render_template(template, **context), status


@bp.get("/m/<match_id>")
def match(match_id: str) -> Any:
    stored, web, result = load(match_id)
    return render_live(_context(stored, web, result), web)


@bp.get("/m/<match_id>/hands/<int:hand>")
def edit_hand(match_id: str, hand: int) -> Any:
    stored, web, result = load(match_id)
    if not 1 <= hand <= len(stored.hands):
        abort(404)
    trick = request.args.get("trick", type=int)
    if trick is not None and not web.valid_trick(stored.hands[hand - 1], trick):
        abort(404)
    return render_live(_context(stored, web, result, hand, trick), web, editing=True)


@bp.post("/m/<match_id>/hands/<int:hand>/<action>")
@bp.post("/m/<match_id>/hands/<int:hand>/<action>/<int:trick>")
def hand_action(match_id: str, hand: int, action: str, trick: int | None = None) -> Any:
    stored, web, result = load(match_id)
    spec = web.actions.get(action)
    if spec is None or not 1 <= hand <= len(stored.hands) + 1:
        abort(404)
    ctx = _context(stored, web, result, hand, trick)
    form = web.bound_form(spec.form, ctx)
    editing = request.args.get("editing") == "1"
    try:
        if not form.validate():
            raise FormInvalid(spec.form, form)
        new_hands = spec.apply(ctx, form)
        new_result = web.game.score(stored.settings, new_hands)
    except FormInvalid as invalid:
        return render_live(ctx, web, bound={invalid.name: invalid.form}, status=422,
                           editing=editing)
    except RuleViolation as violation:
        if trick is not None and not (
            hand <= len(stored.hands) and web.valid_trick(stored.hands[hand - 1], trick)
        ):
            ctx.trick = None
            bound = {}
        else:
            bound = {spec.form: form}
        return render_live(ctx, web, error=violation.explain(), bound=bound,
                           status=422, editing=editing)
    canonical = [web.game.canonical_hand(h) for h in new_hands]
    store().save_hands(stored.id, stored.hands, canonical, spec.label(ctx, form))
    sides = web.game.sides(stored.settings)
    for message in describe_changes(result, new_result, sides, hand, word=web.game.hand_word,
                                    match_score=web.game.race):
        flash(message)
    return _after_change(stored.id, hand if editing else None)


@bp.post("/m/<match_id>/hands/<int:hand>/delete")
def delete_hand(match_id: str, hand: int) -> Any:
    stored, web, result = load(match_id)
    if not 1 <= hand <= len(stored.hands):
        abort(404)
    if not ButtonForm().validate_on_submit():
        abort(400)
    word = web.game.hand_word.capitalize()
    new_hands = stored.hands[: hand - 1] + stored.hands[hand:]
    try:
        new_result = web.game.score(stored.settings, new_hands)
    except RuleViolation as violation:
        return render_live(
            _context(stored, web, result), web,
            error=f"{word} {hand} cannot be deleted: {violation.explain()}", status=422,
        )
    store().save_hands(stored.id, stored.hands, new_hands, f"{word} {hand} deleted")
    flash(f"{word} {hand} deleted.")
    for message in describe_changes(result, new_result, web.game.sides(stored.settings), hand,
                                    removed=True, word=web.game.hand_word,
                                    match_score=web.game.race):
        flash(message)
    return _after_change(stored.id, None)


@bp.post("/m/<match_id>/undo")
def undo(match_id: str) -> Any:
    stored, web, result = load(match_id)
    if not ButtonForm().validate_on_submit():
        abort(400)
    label = store().undo(stored.id)
    flash(f"Undone: {label}." if label else "Nothing to undo.")
    return _after_change(stored.id, None)


def _after_change(match_id: str, editing: int | None) -> Any:
    if htmx:
        stored, web, result = load(match_id)
        ctx = _context(stored, web, result, editing)
        return render_live(ctx, web, editing=editing is not None)
    if editing is not None:
        return redirect(url_for(".edit_hand", match_id=match_id, hand=editing))
    return redirect(url_for(".match", match_id=match_id))


def _file(stored: StoredMatch) -> matchfile.MatchFile:
    return matchfile.MatchFile(
        game=stored.game, settings=stored.settings, hands=stored.hands,
        created=stored.created.date().isoformat(),
    )


@bp.get("/m/<match_id>/match.json")
def export(match_id: str) -> Response:
    stored = store().load(match_id) if len(match_id) <= 40 else None
    if stored is None:
        abort(404)
    body = matchfile.dumps(_file(stored))
    name = f"{stored.game}-{stored.created.date().isoformat()}.json"
    return Response(body, mimetype="application/json",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


@bp.get("/m/<match_id>/scoresheet.pdf")
def scoresheet(match_id: str) -> Response:
    stored, _, _ = load(match_id)
    from .pdf import render_pdf

    name = f"{stored.game}-{stored.created.date().isoformat()}.pdf"
    return Response(render_pdf(_file(stored)), mimetype="application/pdf",
                    headers={"Content-Disposition": f'inline; filename="{name}"'})

