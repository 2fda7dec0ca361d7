"""The generic pages: home, new match, the match page, hand actions, undo, export, PDF."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from itertools import compress, count
from operator import is_not
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    g,
    get_flashed_messages,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_wtf import FlaskForm
from flask_wtf.csrf import generate_csrf
from flask_wtf.file import FileField, FileRequired
from markupsafe import Markup, escape
from wtforms import StringField
from wtforms.validators import Length, ValidationError

from ..engine import matchfile, scoring
from ..engine.errors import RuleViolation
from ..engine.games import GAMES
from ..engine.games.base import HandOutcome, MatchResult, require_name
from ..engine.scoring import common_start
from ..stats import csv as csv_export
from . import htmx
from .bases import Bases
from .boards import Board, Boards, shared
from .changes import describe_changes
from .corrections import LaterHands, Plan, chosen, flash_plan, label_with, until
from .games import WEB_GAMES
from .games.base import Action, ActionContext, FormInvalid, WebGame
from .invalid import flag, mark, summary
from .pdf import Scoresheets
from .readable import readable_json, readable_match
from .sharing import (
    device,
    device_id,
    host_hint,
    made_here,
    remember,
    remembered,
    share_links,
    token_in,
)
from .store import StaleMatch, Store, StoredMatch, is_new_base
from .unchanged import etag

VIEW_ONLY = ("This is the match's view link: it shows the scoreboard and the record, but only "
             "the edit link can change the match. Nothing was changed.")
HISTORY = 50              # events shown in a match's history of changes
DEVICE_NAME = 40          # characters of a device's name
NOTICES = 3               # later hands whose change is told one by one (then: "… and N")
OUTCOME = "outcome"       # flashed: the number of a hand an action just scored
TOLD = "outcome"          # the top of the match page: what an action did, the end announced

bp = Blueprint("matches", __name__)


class ImportForm(FlaskForm):
    file = FileField("Match file (.json)", validators=[FileRequired("Choose a match file")])


def _device_name(form: FlaskForm, field: StringField) -> None:
    """Empty (the device is named by its kind), or a name as players' names are: valid
    Unicode text, something visible, no control or direction-turning characters."""
    if field.data and field.data.strip() and not field.errors:
        try:
            field.data = require_name(field.data, "device.name", "The device")
        except RuleViolation as violation:
            raise ValidationError(violation.message) from None


class DeviceForm(FlaskForm):
    name = StringField("Name this device (shown in the history of changes)", validators=[
        Length(max=DEVICE_NAME, message=f"At most {DEVICE_NAME} characters"), _device_name])


class ButtonForm(FlaskForm):
    """A POST-only button: only the CSRF token."""


def store() -> Store:
    return current_app.extensions["referee.store"]  # type: ignore[no-any-return]


def scoresheets() -> Scoresheets:
    return current_app.extensions["referee.scoresheets"]  # type: ignore[no-any-return]


def _find(token: str, *, edit: bool = False, events: int = 0) -> StoredMatch:
    """The stored match behind an edit or view token, or 404; 403 for a view token when the
    request would change the match."""
    match = store().load(token, events) if token_in(token) == token else None
    if match is None or match.game not in WEB_GAMES:
        abort(404)
    _private(match.can_edit)
    if edit and not match.can_edit:
        abort(403)
    return readable_match(match)


def _private(edit_link: bool) -> None:
    """Mark this answer as one that carries a match's token (in its address, its links or its
    forms). An edit token: it is sent with ``Cache-Control: no-store``, so that no cache (a
    shared computer's, a proxy's) keeps what lets anyone change the match; a view token, a
    secret link too: ``no-cache, private``, kept in no shared cache (and the browser asks
    again before showing it)."""
    if edit_link:
        g.no_store = True
    else:
        g.private = True


def load(
    match_id: str, *, edit: bool = False, events: int = 0,
) -> tuple[StoredMatch, WebGame, MatchResult]:
    match = _find(match_id, edit=edit, events=events)
    web = WEB_GAMES[match.game]
    try:
        # checked in full once per process (the store may hold facts an earlier version
        # wrote), then folded from the cache: only a changed hand is checked again
        return match, web, scoring.score(match.game, match.settings, match.hands,
                                         match=match.id)
    except RuleViolation as violation:
        # Stored facts that no longer pass the rules (e.g. written by another version):
        # say so and offer the match file rather than fail.
        message = f"{violation.explain()}. Nothing was changed."
        if htmx:
            abort(Response(render_template("_alert.html", message=message), 409,
                           {"HX-Retarget": "#alerts", "HX-Reswap": "innerHTML"}))
        abort(Response(render_template(
            "error.html", title="This match cannot be scored", message=message,
            export=url_for(".export", match_id=match.token),
        ), 409))


def _home(status: int = 200, **extra: Any) -> Any:
    """The home page: new match, this browser's matches (never another table's), join, import."""
    _private(True)                # this browser's matches, with their edit links
    context = {"import_form": ImportForm(), "join_code": "", "device": device(),
               "device_form": DeviceForm(name=session.get("device_name", "")), **extra}
    flag([context["device_form"]])
    matches = [(token, game, readable_json(settings), updated)
               for token, game, settings, updated in store().listed(remembered())]
    return render_template(
        "home.html", matches=matches, games=GAMES, web_games=WEB_GAMES, **context,
    ), status


@bp.get("/")
def home() -> Any:
    return _home()


@bp.post("/device")
def name_device() -> Any:
    """Name this browser for the history of changes ("Anna's phone"); empty: its kind."""
    form = DeviceForm()
    if not form.validate():
        return _home(422, device_form=form)
    session["device_name"] = " ".join((form.name.data or "").split())
    return redirect(url_for(".home"))


@bp.get("/join")
def join() -> Any:
    """Open a match from a pasted link or a typed code (its edit or view token)."""
    _private(True)                # the code in the address may be an edit token
    code = request.args.get("code", "")[:500]
    token = token_in(code)
    if token and store().version(token):
        return redirect(url_for(".match", match_id=token))
    from .circles import circle_in

    if circle := circle_in(code):                       # a circle's link or code
        return redirect(url_for("circles.circle", token=circle))
    return _home(422, join_code=code, join_error=(
        "No match has that link or code. Copy the whole link from the other phone's match "
        "page (Share), or scan its QR code."))


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
            match_id = store().create(web.game.name, settings, [], device=device())
            remember(match_id)
            return redirect(url_for(".match", match_id=match_id))
    status = 422 if request.method == "POST" else 200
    flag([form])
    return render_template(web.new_template, form=form, game=web.game, error=error), status


@bp.post("/import")
def import_match() -> Any:
    form = ImportForm()
    error = None
    if form.validate_on_submit():
        try:
            data = form.file.data.read(matchfile.MAX_BYTES + 1)     # larger: refused
            loaded = matchfile.load(data)
            if loaded.game not in WEB_GAMES:
                raise RuleViolation("file.game", f"This server has no pages for {loaded.game}")
        except RuleViolation as violation:
            error = violation.explain()
        else:
            created = datetime.fromisoformat(loaded.created)
            match_id = store().create(loaded.game, loaded.settings, loaded.hands, created,
                                      device=device(), label="Match imported from a file")
            remember(match_id)
            flash("Match imported.")
            return redirect(url_for(".match", match_id=match_id))
    else:
        error = "; ".join(m for msgs in form.errors.values() for m in msgs)
    return _home(422, import_form=form, import_error=error)


def _context(
    match: StoredMatch, web: WebGame, result: MatchResult, hand: int | None = None,
    trick: int | None = None,
) -> ActionContext:
    if hand is None:
        hand = len(match.hands) if result.draft is not None else len(match.hands) + 1
    return ActionContext(match, result, hand, trick, list(match.settings["players"]))


def _page(
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
        "editing": editing, "button": ButtonForm(), "typed": bool(bound),
        "messages": get_flashed_messages(category_filter=["message"]) if messages else [],
        "outcomes": _outcomes(result) if messages else [],
        "rules": web.game.rules_in_force(match.settings), "posted": posted,
        "base": match.base(ctx.hand),
        "bases": Bases(match),          # worked out for the hands the page shows
        "etag": _etag(match.version, match.can_edit), "history_limit": HISTORY,
        # the hand this page's editor is about (and whether it edits an earlier hand): when
        # another phone changes it, the live scoreboard brings the editor as it stands now to
        # a phone that typed nothing into it, and warns one that did
        "watch": ((ctx.hand, match.base(ctx.hand), editing)
                  if match.can_edit and (not result.standing.over or editing) else None),
    }


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
    (views.live): the parts of a change but the top of the page and the undo button (which
    names the change this phone saw), the editor its target."""
    context = _page(ctx, web, error=error, bound=bound, editing=editing, posted=posted,
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


def _etag(version: int, can_edit: bool) -> str:
    return etag(version, can_edit)


@bp.get("/m/<match_id>")
def match(match_id: str) -> Any:
    stored, web, result = load(match_id, events=HISTORY)
    remember(stored.token)
    return render_live(_context(stored, web, result), web)


@bp.get("/m/<match_id>/live")
def live(match_id: str) -> Any:
    """The scoreboard, polled every second by every phone showing the match: answered
    304 from one indexed read while nothing changed (If-None-Match: the match's version;
    answered before Flask as a rule, unchanged.py);
    else the version's shared parts, rendered once for every phone (boards.py), around this
    phone's own: the address it polls and the warning that its open editor went stale."""
    found = store().version(match_id) if token_in(match_id) == match_id else None
    if found is None:
        abort(404)
    _private(found[1])
    etag = _etag(*found)
    if request.if_none_match.contains(etag):
        response = Response(status=304)
    else:
        board = boards().get(match_id, found[0]) or _board(match_id)
        etag = _etag(board.version, board.can_edit)       # the version this body shows
        watch = _watched() if board.can_edit else None
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
                    return _follow(match_id, number if editing else None)
        inside, rest = board.parts(generate_csrf() if board.can_edit else "")
        response = Response(render_template(
            "matches/_scoreboard.html", oob=True, match=board, game=WEB_GAMES[board.game].game,
            etag=etag, watch=watch, editor_stale=stale, board=Markup(inside), rest=Markup(rest),
            stale_new=watch is not None and is_new_base(watch[1])))
    response.set_etag(etag)
    response.headers["Cache-Control"] = "no-cache, private"
    return response


def boards() -> Boards:
    return current_app.extensions["referee.boards"]  # type: ignore[no-any-return]


def _board(match_id: str) -> Board:
    """The parts of the live scoreboard's answer that every phone polling this version of
    the match by this link is sent alike, rendered once and kept (boards.py)."""
    stored, web, result = load(match_id, events=HISTORY)
    context = {**_page(_context(stored, web, result), web, messages=False), "watch": None}
    csrf = generate_csrf() if stored.can_edit else ""
    rest = "\n".join([*(render_template(part, oob=True, **context)
                        for part in ("matches/_history.html", "matches/_changes.html")),
                      # the end announced at the top, as it stands (taken away by a new hand)
                      render_template("matches/_announce.html", announce_oob=True, **context)])
    board = Board(
        token=stored.token, game=stored.game, version=stored.version,
        can_edit=stored.can_edit,
        scoreboard=shared(render_template("matches/_board.html", **context), csrf),
        rest=shared(rest, csrf),
        fingerprint=stored.base,
        latest_device=stored.events[0].device if stored.events else None)
    boards().put(board)
    return board


def _follow(match_id: str, editing: int | None) -> Any:
    """The live scoreboard's answer to a phone whose editor, with nothing typed into it, was
    made stale by another phone: the match page's live parts as after a change of its own
    (views.render_live), with the editor of the hand the match is at now (or of the earlier
    hand it edits, as that hand now stands)."""
    stored, web, result = load(match_id, events=HISTORY)
    if editing is not None and not 1 <= editing <= len(stored.hands):
        editing = None
    page, status, headers = render_live(_context(stored, web, result, editing), web,
                                        editing=editing is not None, follow=True)
    response = Response(page, status, headers)
    response.set_etag(_etag(stored.version, stored.can_edit))
    response.headers["Cache-Control"] = "no-cache, private"
    return response


def _watched() -> tuple[int, str, bool] | None:
    """The (hand, base, editing an earlier hand) a polling page's editor was built on, from
    the poll's query."""
    hand = request.args.get("hand", type=int)
    base = request.args.get("base", "")
    if hand is None or not 1 <= hand <= 100_000 or not 1 <= len(base) <= 40:
        return None
    return hand, base, request.args.get("editing") == "1"


@bp.get("/m/<match_id>/changes")
def changes(match_id: str) -> Any:
    """The whole history of changes (the match page shows the latest ones)."""
    stored = _find(match_id, events=1_000_000)
    return render_template("matches/changes.html", match=stored,
                           game=WEB_GAMES[stored.game].game, button=ButtonForm(), complete=True)


@bp.get("/m/<match_id>/hands/<int:hand>")
def edit_hand(match_id: str, hand: int) -> Any:
    stored, web, result = load(match_id, edit=True, events=HISTORY)
    if not 1 <= hand <= len(stored.hands):
        abort(404)
    trick = request.args.get("trick", type=int)
    if trick is not None and not web.valid_trick(stored.hands[hand - 1], trick):
        abort(404)
    return render_live(_context(stored, web, result, hand, trick), web, editing=True)


@bp.post("/m/<match_id>/hands/<int:hand>/<action>")
@bp.post("/m/<match_id>/hands/<int:hand>/<action>/<int:trick>")
def hand_action(match_id: str, hand: int, action: str, trick: int | None = None) -> Any:
    stored, web, result = load(match_id, edit=True, events=HISTORY)
    spec = web.actions.get(action)
    # A form built for a hand that is gone (deleted on another device) is stale, not a 404.
    gone = hand > len(stored.hands) + 1
    if (spec is None or hand < 1 or (gone and "base" not in request.args)
            or (trick is not None and not spec.per_trick)):
        abort(404)
    ctx = _context(stored, web, result, hand, trick)
    form = web.bound_form(spec.form, ctx)
    editing = request.args.get("editing") == "1"
    valid_trick = trick is None or (
        hand <= len(stored.hands) and web.valid_trick(stored.hands[hand - 1], trick)
    )
    plan: Plan | None = None
    try:
        if gone or _stale_form(stored, hand):
            raise StaleMatch(stored.id)
        if not form.validate():
            raise FormInvalid(spec.form, form)
        web.refuse_unrecorded(action, ctx)      # a meld picked elsewhere in the form, unsaved
        new_hands = _scored_as_stored(web, stored.settings, spec.apply(ctx, form), stored.hands)
        try:
            new_result = scoring.score(                                   # names the players
                stored.game, stored.settings, new_hands, stored.hands, match=stored.id)
        except RuleViolation as violation:
            # later hands that no longer fit: corrected with this change when the table chose
            # how (else LaterHands, with the ways out); the hands already carry their proposed
            # facts (ActionContext.hands), so a removal moves no old hand's dealer (6.1.1)
            plan = chosen(web.game, stored.settings, new_hands, violation, hand + 1,
                          list(range(1, len(new_hands) + 1)), version=stored.version,
                          match=stored.id)
            new_hands, new_result = plan.hands, plan.result
        if plan is not None or not isinstance(new_hands, _Canonical):
            new_hands = _canonical(web, stored.settings, new_hands, stored.hands)
        # an earlier hand's editor says "Hand 3 edited (trick 5)": an edit, whichever
        verb = spec.verb_of(ctx, form) if spec.verb_of and not editing else spec.verb
        label = _action_label(verb, web.game.hand_word, hand, trick, editing)
        store().save_hands(stored.id, stored.hands, new_hands, label_with(label, plan), device(),
                           renumbers=plan is not None and len(new_hands) != len(stored.hands),
                           version=stored.version)
    except LaterHands as later:
        return render_live(ctx, web, error=later.message,
                           bound={spec.form: form}, status=422, editing=editing,
                           posted=spec.form, corrections=later.offer())
    except (FormInvalid, RuleViolation, StaleMatch) as problem:
        if not valid_trick:
            ctx.trick = None                 # never offer a trick that cannot exist
        bound = {spec.form: form} if valid_trick else {}
        refused = form
        if isinstance(problem, FormInvalid) and problem.form is not form:
            refused = bound[problem.name] = problem.form    # at another section's field
        if isinstance(problem, StaleMatch):
            return _conflict_answer(match_id, web, hand, spec=spec,
                                    form=form if valid_trick else None, trick=ctx.trick,
                                    editing=editing)
        error = None
        if isinstance(problem, RuleViolation):
            error = problem.explain()       # the summary at the top; beside its field too
            mark(form, web.refused_field(spec.form, problem), problem)
        elif not valid_trick:
            error = f"There is no trick {trick} to record in {web.game.hand_word} {hand}"
        page = render_live(ctx, web, error=error, bound=bound, status=422,
                           editing=editing, posted=spec.form)
        if error is None:
            # the fields' own checks: their messages beside them, and the summary at the top
            # (with each field's label where the page does not show the field)
            error = _unseen_errors(page[0], refused) or summary(refused)
            page = render_live(ctx, web, error=error, bound=bound, status=422,
                               editing=editing, posted=spec.form)
        return page
    sides = web.game.sides(stored.settings)
    flash_plan(plan)
    _flash_changes(describe_changes(result, until(new_result, plan), sides, hand,
                                    word=web.game.hand_word, match_score=web.game.race,
                                    detailed=NOTICES + 1),
                   web.game.hand_word)
    _flash_outcome(new_result, hand)
    return _after_change(stored.id, hand if editing else None)


def _flash_outcome(result: MatchResult, number: int) -> None:
    """Tell the top of the page that hand ``number`` was just scored (complete after the
    action), so that its outcome is shown there."""
    if number <= len(result.hands) and result.hands[number - 1].complete:
        flash(str(number), OUTCOME)


def _action_label(verb: str, word: str, hand: int, trick: int | None, editing: bool) -> str:
    """The history's label of a change: what was recorded ("Trick 5 of hand 3", "Hand
    finished (hand 3)"), or, from the editor of an earlier hand, that the hand was edited and
    in what ("Hand 3 edited (trick 5)")."""
    if editing:
        what = f"{verb} {trick}" if trick is not None else verb
        return f"{word.capitalize()} {hand} edited ({what[:1].lower()}{what[1:]})"
    return f"{verb} {trick} of {word} {hand}" if trick is not None else f"{verb} ({word} {hand})"


def _flash_changes(messages: list[str], word: str) -> None:
    """Flash what a change did further down the match: the first few notices about later
    hands, then how many more changed, then the rest (the match score). Without htmx the
    notices travel in the session cookie, which a browser drops past 4 kB: one notice per
    later hand of a long match would lose them all."""
    label = f"{word.capitalize()} "
    about_hands = [m for m in messages if m.startswith(label)]
    shown = about_hands if len(about_hands) <= NOTICES + 1 else about_hands[:NOTICES]
    for message in shown:
        flash(message)
    if more := len(about_hands) - len(shown):
        flash(f"… and {more} later {word}s changed.")
    for message in messages:
        if not message.startswith(label):
            flash(message)


def _unseen_errors(html: str, form: FlaskForm) -> str | None:
    """The form's field errors that the page does not show, as one message (its editor has
    no such form in this state: a forged post, or one from a page of another state)."""
    unseen = [f"{field.label.text}: {message}" for field in form for message in field.errors
              if str(escape(message)) not in html]
    return f"Nothing was saved: {'; '.join(unseen)}" if unseen else None


def _stale_form(stored: StoredMatch, hand: int) -> bool:
    """Was the posted form built on another version of hand ``hand`` than the stored one (its
    ``?base=``)? A post without a base acts on the match as stored."""
    current = stored.base(hand)
    return request.args.get("base", current) != current


def _conflict_answer(
    match_id: str, web: WebGame, hand: int, *, spec: Action | None = None,
    form: FlaskForm | None = None, trick: int | None = None, editing: bool = False,
) -> Any:
    """409: what another device stored meanwhile as hand ``hand``, beside what this one sent
    (``form``, the bound form of the action ``spec``, keeps what was typed), on the match as
    it is stored now.

    A form for a new hand (its base: ``hand_base(None)``) whose number another device filled
    meanwhile is offered as the next new hand, never as a change of the stored one: its every
    button posts for the new hand. A form for a stored hand that changed elsewhere stays on
    that hand, shown beside the stored one by name and score: sending it again (on the stored
    hand's base) replaces the stored hand, "Keep" leaves it."""
    fresh, _, result = load(match_id, events=HISTORY)
    word = web.game.hand_word
    last = fresh.events[0] if fresh.events else None
    by = f" ({last.device or 'another device'}: {last.label})" if last else ""
    exists = hand <= len(fresh.hands)
    offered = spec is not None and is_new_base(request.args.get("base", ""))
    stored = None
    if exists:
        stored = result.hands[hand - 1] if hand <= len(result.hands) else result.draft
        message = f"{word.capitalize()} {hand} was changed on another device meanwhile{by}"
    elif offered:                     # a new hand's form: a change elsewhere renumbered it
        message = f"The match was changed on another device meanwhile{by}"
    else:
        message = (f"{word.capitalize()} {hand} no longer exists: it was deleted on another "
                   f"device meanwhile{by}")
    yours = None
    if spec is None:                              # a delete: nothing typed to keep
        ctx = _context(fresh, web, result)
        message += ". Nothing was deleted."
    elif offered and result.standing.over:
        ctx = _context(fresh, web, result)
        offered = False
        message += (f", and the match is over, so what you sent was not saved: no {word} "
                    f"follows.")
    elif offered:
        number = len(fresh.hands) + 1
        ctx = _context(fresh, web, result, number)
        _propose_dealer(web, ctx, spec.form, form)
        editing = False
        once = (f" once {word} {number - 1} is finished" if result.draft is not None
                else "")
        message += (f", so what you sent was not saved. It is kept below as {word} {number}: "
                    f"send it{once} to record it as {word} {number}.")
    else:
        ctx = _context(fresh, web, result, min(hand, len(fresh.hands) + 1),
                       trick if exists else None)
        if exists:
            yours = _yours(web, ctx, spec)
            message += (f", so what you sent was not saved. Both are shown: if yours is right, "
                        f"send it again to replace the stored {word}; else keep the stored "
                        f"one.")
        else:
            message += ". Nothing was saved; what you entered is kept."
    bound = {spec.form: form} if spec is not None and form is not None else None
    keep = (url_for(".edit_hand", match_id=fresh.token, hand=hand) if editing and exists
            else url_for(".match", match_id=fresh.token))
    return render_live(ctx, web, error=message, bound=bound, editing=editing,
                       posted=spec.form if spec is not None else None, status=409,
                       conflict={"hand": hand, "stored": stored, "offered": offered,
                                 "yours": yours, "keep": keep, "typed": spec is not None})


def _propose_dealer(web: WebGame, ctx: ActionContext, name: str, form: FlaskForm | None) -> None:
    """An entry offered as another hand than the one it was typed for: its dealer is the one
    proposed for that hand (the deal passes on), as a fresh form of it would show."""
    if form is not None and "dealer" in form:
        proposed = web.form_data(ctx).get(name, {}).get("dealer")
        if proposed is not None:
            form["dealer"].data = proposed


def _yours(web: WebGame, ctx: ActionContext, spec: Action) -> HandOutcome | None:
    """Hand ``ctx.hand`` as this post would make it of the stored match (what sending it again
    stores), read from the post once more (the form shown keeps its own state); None when the
    post would be refused."""
    form = web.bound_form(spec.form, ctx)
    try:
        if not form.validate():
            return None
        hands = spec.apply(ctx, form)
        result = scoring.score(ctx.match.game, ctx.match.settings, hands, ctx.match.hands,
                                match=ctx.match.id)
    except (FormInvalid, RuleViolation):
        return None
    return (result.hands[ctx.hand - 1] if ctx.hand <= len(result.hands) else result.draft)


@bp.get("/m/<match_id>/hands/<int:hand>/delete")
def confirm_delete(match_id: str, hand: int) -> Any:
    """Without JavaScript the history's Delete button opens this page, which asks first (with
    htmx the button posts after the browser's confirmation): the hand as stored now, Delete
    (posting on what is shown here) or Keep it (back to the hand in the history)."""
    from .history import hand_address  # history.py adds its routes to this blueprint

    stored, web, result = load(match_id, edit=True)
    if hand < 1:
        abort(404)
    word = web.game.hand_word
    if hand > len(stored.hands):
        flash(f"{word.capitalize()} {hand} no longer exists: it was deleted on another device "
              "meanwhile. Nothing was deleted.")
        return redirect(url_for(".match", match_id=match_id, _anchor=TOLD))
    shown = result.hands[hand - 1] if hand <= len(result.hands) else result.draft
    return render_template(
        "matches/delete.html", match=stored, game=web.game, hand=shown, number=hand,
        names=list(stored.settings["players"]), sides=web.game.sides(stored.settings),
        button=ButtonForm(),
        delete_url=url_for(".delete_hand", match_id=match_id, hand=hand,
                           base=stored.base(hand)),
        back_url=hand_address(match_id, hand, result))


@bp.post("/m/<match_id>/hands/<int:hand>/delete")
def delete_hand(match_id: str, hand: int) -> Any:
    stored, web, result = load(match_id, edit=True, events=HISTORY)
    # A hand already deleted on another device: stale (409), not a 404.
    if hand < 1 or (hand > len(stored.hands) and "base" not in request.args):
        abort(404)
    word = web.game.hand_word.capitalize()
    if hand > len(stored.hands) or _stale_form(stored, hand):
        return _conflict_answer(match_id, web, hand)
    # The hands keep the facts the app proposed where they lack them (a Tartli or Marjolet
    # hand stored without its dealer keeps the dealer it had, rule 6.1.1), then one goes.
    kept = web.game.complete(stored.settings, stored.hands, len(stored.hands))
    new_hands = kept[: hand - 1] + kept[hand:]
    plan: Plan | None = None
    try:
        new_result = scoring.score(stored.game, stored.settings, new_hands, stored.hands,
                                        match=stored.id)
    except RuleViolation as violation:
        # later hands that no longer fit without it: corrected with the delete when the table
        # chose how; numbered as the table sees them now
        shown = [n for n in range(1, len(stored.hands) + 1) if n != hand]
        try:
            plan = chosen(web.game, stored.settings, new_hands, violation, hand, shown,
                          f"{word} {hand} cannot be deleted alone: once it is gone",
                          version=stored.version, match=stored.id)
        except LaterHands as later:
            return render_live(_context(stored, web, result), web, error=later.message,
                               status=422, corrections=later.offer())
        except RuleViolation:
            return render_live(
                _context(stored, web, result), web,
                error=f"{word} {hand} cannot be deleted: {violation.explain()}", status=422,
            )
        new_hands, new_result = plan.hands, plan.result
    try:
        store().save_hands(stored.id, stored.hands, new_hands,
                           label_with(f"{word} {hand} deleted", plan), device(), renumbers=True,
                           deletes=hand, version=stored.version)
    except StaleMatch:
        return _conflict_answer(match_id, web, hand)
    flash(f"{word} {hand} deleted.")
    flash_plan(plan)
    _flash_changes(describe_changes(result, until(new_result, plan),
                                    web.game.sides(stored.settings), hand, removed=True,
                                    word=web.game.hand_word, match_score=web.game.race,
                                    detailed=NOTICES + 1),
                   web.game.hand_word)
    return _after_change(stored.id, None)


@bp.post("/m/<match_id>/changes/<int:event>/restore")
def restore_hand(match_id: str, event: int) -> Any:
    """Put a deleted hand back between the neighbours it had (or the nearest of its earlier
    ones still there), whatever happened since (the history's Restore button): deleting is an
    event, never a loss."""
    stored, web, result = load(match_id, edit=True, events=HISTORY)
    found = store().deleted_hand(stored.id, event)
    if found is None:
        abort(404)
    at = found.at
    new_hands = stored.hands[: at - 1] + [found.facts] + stored.hands[at - 1:]
    word = web.game.hand_word.capitalize()
    plan: Plan | None = None
    try:
        new_hands = _scored_as_stored(web, stored.settings, new_hands, stored.hands)
        try:
            new_result = scoring.score(stored.game, stored.settings, new_hands, stored.hands,
                                        match=stored.id)
        except RuleViolation as violation:
            # later hands that no longer fit with it back: corrected with the restore when
            # the table chose how (numbered as they will be)
            plan = chosen(web.game, stored.settings, new_hands, violation, at + 1,
                          list(range(1, len(new_hands) + 1)),
                          f"{word} {found.number} cannot be restored alone: once it is back",
                          version=stored.version, match=stored.id)
            new_hands, new_result = plan.hands, plan.result
        if plan is not None or not isinstance(new_hands, _Canonical):
            new_hands = _canonical(web, stored.settings, new_hands, stored.hands)
        store().save_hands(stored.id, stored.hands, new_hands,
                           label_with(f"{word} {at} restored", plan), device(), renumbers=True,
                           restores=event, version=stored.version)
    except LaterHands as later:
        return render_live(_context(stored, web, result), web, status=422, error=later.message,
                           corrections=later.offer())
    except RuleViolation as violation:
        return render_live(_context(stored, web, result), web, status=422, error=(
            f"{word} {found.number} cannot be restored: {violation.explain()}"))
    except StaleMatch:
        fresh, _, fresh_result = load(match_id, events=HISTORY)
        return render_live(_context(fresh, web, fresh_result), web, status=409, error=(
            "Nothing was restored: the match was changed on another device meanwhile. Check "
            "the history of changes below and try again."))
    flash(f"{word} {at} restored.")
    flash_plan(plan)
    _flash_changes(describe_changes(result, until(new_result, plan),
                                    web.game.sides(stored.settings), at, inserted=True,
                                    word=web.game.hand_word, match_score=web.game.race,
                                    detailed=NOTICES + 1),
                   web.game.hand_word)
    _flash_outcome(new_result, at)
    return _after_change(stored.id, None)


@bp.post("/m/<match_id>/undo")
def undo(match_id: str) -> Any:
    stored = _find(match_id, edit=True)
    expected = request.args.get("event", type=int)
    try:
        label = store().undo(stored.id, device(), expected)
    except StaleMatch:
        flash("Nothing was undone: the match was changed on another device meanwhile. Check "
              "the history of changes below before undoing again.")
    else:
        flash(f"Undone: {label}." if label else "Nothing to undo.")
    return _after_change(stored.id, None)


def _canonical(
    web: WebGame, settings: dict[str, Any], hands: list[dict[str, Any]],
    stored: Sequence[dict[str, Any]] = (),
) -> list[dict[str, Any]]:
    """The hands as the store keeps them, every proposed fact filled in (``Game.complete``);
    a problem names its hand, as the fold does. A ``stored`` hand (the very object, wherever it
    stands now), or a hand equal to the stored one at its place, is in that form already:
    found together (issue 12: not one by one in a long match), only the others are made."""
    canonical = list(hands)
    # the hands that are not the stored one at their place (an edit: one), found together
    moved = [*compress(count(), map(is_not, hands, stored)), *range(len(stored), len(hands))]
    # where hands moved (a delete, a restore), the stored hands' ids (alive: ``stored`` holds
    # them, so an id is its hand)
    kept = set(map(id, stored)) if len(moved) > 1 else set()
    for index in moved:
        raw = hands[index]
        if id(raw) in kept or (index < len(stored) and raw == stored[index]):
            continue
        try:
            canonical[index] = web.game.canonical_hand(raw)
        except RuleViolation as error:
            raise error.in_hand(index + 1, web.game.hand_word.capitalize()) from None
    # the hands up to the first that is not the stored one at its place: complete from there
    return web.game.complete(settings, canonical, common_start(hands, list(stored)))


def _scored_as_stored(
    web: WebGame, settings: dict[str, Any], hands: list[dict[str, Any]],
    stored: Sequence[dict[str, Any]],
) -> list[dict[str, Any]]:
    """The changed ``hands`` to score, in the form the store will keep them (``_canonical``),
    so that the match read back after the change is found folded already (issue 12: a request
    folds a changed hand once); as they are where that form refuses them: the fold refuses
    them too, with a message that names the players."""
    try:
        return _Canonical(_canonical(web, settings, hands, stored))
    except RuleViolation:
        return hands


class _Canonical(list[dict[str, Any]]):
    """Hands that ``_canonical`` made: in the form the store keeps them already (not made
    again before the save, issue 12: at 1,000 hands ``Game.complete`` costs milliseconds)."""


def _after_change(match_id: str, editing: int | None) -> Any:
    """The match page after a change, where the change is seen: at the top of the page
    (``#outcome``: what it did, the end announced) when there is something to tell, else at
    the editor where it was made. With htmx the swap scrolls there; without, the redirect
    lands on the anchor (issue 11, items 2 and 11)."""
    anchor = TOLD if _told() else "editor"
    if htmx:
        stored, web, result = load(match_id, events=HISTORY)
        ctx = _context(stored, web, result, editing)
        page, status, headers = render_live(ctx, web, editing=editing is not None,
                                            changed=True)
        if anchor == TOLD:
            headers = {**headers, "HX-Reswap": f"outerHTML show:#{TOLD}:top"}
        return page, status, headers
    if editing is not None:
        return redirect(url_for(".edit_hand", match_id=match_id, hand=editing, _anchor=anchor))
    return redirect(url_for(".match", match_id=match_id, _anchor=anchor))


def _file(stored: StoredMatch) -> matchfile.MatchFile:
    return matchfile.MatchFile(
        game=stored.game, settings=stored.settings, hands=readable_json(stored.hands),
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
    # ?explained=1: with every hand's explanation, an appendix
    explained = request.args.get("explained") == "1"
    name = (f"{stored.game}-{stored.created.date().isoformat()}"
            f"{'-explained' if explained else ''}.pdf")
    body = scoresheets().get(stored.id, stored.version, lambda: _file(stored), explained)
    return Response(body, mimetype="application/pdf",
                    headers={"Content-Disposition": f'inline; filename="{name}"'})


@bp.get("/m/<match_id>/hands.csv")
def hands_csv(match_id: str) -> Response:
    """The hands as CSV (``referee.stats.csv``), with a byte order mark so that a spreadsheet
    reads the names' letters as UTF-8."""
    stored, _, result = load(match_id)
    name = f"{stored.game}-{stored.created.date().isoformat()}.csv"
    body = "\ufeff" + csv_export.hands_csv(stored.game, stored.settings, result)
    return Response(body, mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})
