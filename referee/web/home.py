"""The front door: the home page (a new match, this browser's matches and circles, join by a
link or code, a match file imported) and the device's name."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from flask import abort, flash, redirect, render_template, request, session, url_for
from flask_babel import gettext, lazy_gettext
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import StringField
from wtforms.validators import Length, ValidationError

from ..engine import matchfile
from ..engine.errors import RuleViolation
from ..engine.games import GAMES
from ..engine.games.base import require_name
from ..engine.words import T
from . import languages
from .extensions import store
from .forms.invalid import flag
from .games import WEB_GAMES
from .languages import say
from .matches.blueprint import bp
from .readable import readable_json
from .sharing import circle_in, device, private, remember, remembered, token_in

DEVICE_NAME = 40          # characters of a device's name


class ImportForm(FlaskForm):
    file = FileField(lazy_gettext("Match file (.json)"),
                     validators=[FileRequired(lazy_gettext("Choose a match file"))])


def _device_name(form: FlaskForm, field: StringField) -> None:
    """Empty (the device is named by its kind), or a name as players' names are: valid
    Unicode text, something visible, no control or direction-turning characters."""
    if field.data and field.data.strip() and not field.errors:
        try:
            field.data = require_name(field.data, "device.name", T("The device"))
        except RuleViolation as violation:
            raise ValidationError(say(violation.message)) from None


class DeviceForm(FlaskForm):
    name = StringField(lazy_gettext("Name this device (shown in the history of changes)"),
                       validators=[Length(max=DEVICE_NAME, message=lazy_gettext(
                           "At most %(num)s characters", num=DEVICE_NAME)), _device_name])



def home_page(status: int = 200, **extra: Any) -> Any:
    """The home page: new match, this browser's matches (never another table's), join, import."""
    private(True)                # this browser's matches, with their edit links
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
    return home_page()


@bp.post("/device")
def name_device() -> Any:
    """Name this browser for the history of changes ("Anna's phone"); empty: its kind."""
    form = DeviceForm()
    if not form.validate():
        return home_page(422, device_form=form)
    session["device_name"] = " ".join((form.name.data or "").split())
    return redirect(url_for(".home"))


@bp.get("/join")
def join() -> Any:
    """Open a match from a pasted link or a typed code (its edit or view token)."""
    private(True)                # the code in the address may be an edit token
    code = request.args.get("code", "")[:500]
    token = token_in(code)
    if token and store().version(token):
        return redirect(url_for(".match", match_id=token))
    if circle := circle_in(code):                       # a circle's link or code
        return redirect(url_for("circles.circle", token=circle))
    return home_page(422, join_code=code, join_error=gettext(
        "No match has that link or code. Copy the whole link from the other phone's match "
        "page (Share), or scan its QR code."))


@bp.route("/new/<game>", methods=["GET", "POST"])
def new_match(game: str) -> Any:
    web = WEB_GAMES.get(game) or abort(404)
    form = web.new_form()
    error: str | None = None
    if form.validate_on_submit():
        try:
            settings = web.game.settings(web.settings_from(form))
        except RuleViolation as violation:
            error = violation.explain()
        else:
            match_id = store().create(web.game.name, settings, [], device=device(),
                                      language=languages.current())
            remember(match_id)
            return redirect(url_for(".match", match_id=match_id))
    status = 422 if request.method == "POST" else 200
    flag([form])
    return render_template(web.new_template, form=form, game=web.game, error=error), status


@bp.post("/import")
def import_match() -> Any:
    form = ImportForm()
    error: str | None = None
    if form.validate_on_submit():
        try:
            data = form.file.data.read(matchfile.MAX_BYTES + 1)     # larger: refused
            loaded = matchfile.load(data)
            if loaded.game not in WEB_GAMES:
                raise RuleViolation("file.game", T("This server has no pages for %(game)s",
                                                   game=loaded.game))
        except RuleViolation as violation:
            error = violation.explain()
        else:
            created = datetime.fromisoformat(loaded.created)
            match_id = store().create(loaded.game, loaded.settings, loaded.hands, created,
                                      device=device(), label=T("Match imported from a file"),
                                      language=loaded.language)
            remember(match_id)
            flash(gettext("Match imported."))
            return redirect(url_for(".match", match_id=match_id))
    else:
        error = "; ".join(str(m) for msgs in form.errors.values() for m in msgs)
    return home_page(422, import_form=form, import_error=error)
