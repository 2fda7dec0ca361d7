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
from .store import StaleMatch, Store, StoredMatch

STALE = ("This match was changed on another device meanwhile, so nothing was saved. The page "
         "now shows the stored match; what you entered is kept: check it and send it again.")

bp = Blueprint("matches", __name__)


class ImportForm(FlaskForm):
    file = FileField("Match file (.json)", validators=[FileRequired("Choose a match file")])


class ButtonForm(FlaskForm):
    """A POST-only button: only the CSRF token."""


def store() -> Store:
    return current_app.extensions["referee.store"]  # type: ignore[no-any-return]


def _find(match_id: str) -> StoredMatch:
    """The stored match behind an id, or 404."""
    match = store().load(match_id) if len(match_id) <= 40 else None
    if match is None or match.game not in WEB_GAMES:
        abort(404)
    return match


def load(match_id: str) -> tuple[StoredMatch, WebGame, MatchResult]:
    match = _find(match_id)
    web = WEB_GAMES[match.game]
    try:
        return match, web, web.game.score(match.settings, match.hands)
    except RuleViolation as violation:
        # Stored facts that no longer pass the rules (e.g. written by another version):
        # say so and offer the match file rather than fail.
        message = f"{violation.explain()}. Nothing was changed."
        if htmx:
            abort(Response(render_template("_alert.html", message=message), 409,
                           {"HX-Retarget": "#alerts", "HX-Reswap": "innerHTML"}))
        abort(Response(render_template(
            "error.html", title="This match cannot be scored", message=message,
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
            if loaded.game not in WEB_GAMES:
                raise RuleViolation("file.game", f"This server has no pages for {loaded.game}")
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
    posted: str | None = None,
) -> Any:
    forms = web.forms(ctx)
    forms.update(bound or {})
    match, result = ctx.match, ctx.result
    context = {
        "match": match, "web": web, "game": web.game, "result": result, "ctx": ctx,
        "names": ctx.names, "sides": web.game.sides(match.settings), "forms": forms,
        "editor": web.editor(ctx), "error": error,
        "editing": editing, "button": ButtonForm(), "messages": get_flashed_messages(),
        "rules": web.game.rules_in_force(match.settings), "posted": posted,
    }
    template = "matches/_live.html" if htmx else "matches/match.html"
    headers = {"HX-Reswap": "outerHTML show:#rule-error:top"} if error and htmx else {}
    return render_template(template, **context), status, headers


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
    valid_trick = trick is None or (
        hand <= len(stored.hands) and web.valid_trick(stored.hands[hand - 1], trick)
    )
    try:
        if not form.validate():
            raise FormInvalid(spec.form, form)
        new_hands = spec.apply(ctx, form)
        new_result = web.game.score(stored.settings, new_hands)     # names the players
        new_hands = _canonical(web, new_hands)
        word = web.game.hand_word
        label = (f"{spec.verb} {trick} of {word} {hand}" if trick is not None
                 else f"{spec.verb} ({word} {hand})")
        store().save_hands(stored.id, stored.hands, new_hands, label)
    except (FormInvalid, RuleViolation, StaleMatch) as problem:
        if not valid_trick:
            ctx.trick = None                 # never offer a trick that cannot exist
        bound = {spec.form: form} if valid_trick else {}
        error, status = None, 422
        if isinstance(problem, RuleViolation):
            error = problem.explain()
        elif not valid_trick:
            error = f"There is no trick {trick} to record in {web.game.hand_word} {hand}"
        elif isinstance(problem, StaleMatch):
            fresh, _, fresh_result = load(match_id)
            ctx = _context(fresh, web, fresh_result, min(hand, len(fresh.hands) + 1),
                           ctx.trick)
            error, status = STALE, 409
        return render_live(ctx, web, error=error, bound=bound, status=status,
                           editing=editing, posted=spec.form)
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
    word = web.game.hand_word.capitalize()
    new_hands = stored.hands[: hand - 1] + stored.hands[hand:]
    try:
        new_result = web.game.score(stored.settings, new_hands)
    except RuleViolation as violation:
        return render_live(
            _context(stored, web, result), web,
            error=f"{word} {hand} cannot be deleted: {violation.explain()}", status=422,
        )
    try:
        store().save_hands(stored.id, stored.hands, new_hands, f"{word} {hand} deleted")
    except StaleMatch:
        fresh, _, fresh_result = load(match_id)
        return render_live(_context(fresh, web, fresh_result), web, error=STALE, status=409)
    flash(f"{word} {hand} deleted.")
    for message in describe_changes(result, new_result, web.game.sides(stored.settings), hand,
                                    removed=True, word=web.game.hand_word,
                                    match_score=web.game.race):
        flash(message)
    return _after_change(stored.id, None)


@bp.post("/m/<match_id>/undo")
def undo(match_id: str) -> Any:
    stored = _find(match_id)
    label = store().undo(stored.id)
    flash(f"Undone: {label}." if label else "Nothing to undo.")
    return _after_change(stored.id, None)


def _canonical(web: WebGame, hands: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The hands as the store keeps them; a problem names its hand, as the fold does."""
    canonical = []
    for number, raw in enumerate(hands, 1):
        try:
            canonical.append(web.game.canonical_hand(raw))
        except RuleViolation as error:
            raise error.in_hand(number, web.game.hand_word.capitalize()) from None
    return canonical


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
    stored = _find(match_id)
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

