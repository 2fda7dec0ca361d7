"""Circles: the group that plays together across evenings (a family, a club night).

A circle's page (``/c/<token>``) is opened by its secret link alone: its matches, its players,
the Troggu evenings, the file of the whole circle. A browser remembers the circles it created
or opened (in its signed cookie) and lists only those on its home page. A match's own pages say
nothing of its circle: a match's link never leads to the circle's other matches.

Who sat where is said by the table: a seat is a player picked from the circle's list, or a new
name typed, which joins the list (refused when it is the name of a player already there, so
that one person never becomes two by accident)."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from flask import (
    Response,
    abort,
    flash,
    get_flashed_messages,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext, lazy_gettext, ngettext
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from markupsafe import Markup
from werkzeug.datastructures import MultiDict
from wtforms import StringField
from wtforms.validators import ValidationError

from ...engine import circlefile
from ...engine.errors import RuleViolation
from ...engine.games import GAMES
from ...engine.games.base import Game, Standing, name_key, require_name
from ...engine.words import T
from ...numbers import number, signed
from .. import languages
from ..extensions import circles, store
from ..forms.buttons import ButtonForm
from ..forms.invalid import flag
from ..games import WEB_GAMES
from ..games.base import WebGame
from ..home import home_page
from ..languages import say
from ..pdfcache import being_made, pdfs
from ..readable import readable_json
from ..sharing import device, public_url, qr_code, remember, token_in
from ..store import (
    IN_ANOTHER,
    IN_THIS,
    TAKEN,
    Circle,
    CircleRefused,
    Person,
    Player,
)
from ..store import circlechanges as people
from . import files
from .blueprint import bp, find, remember_circle
from .derived import Derived, Summary, derived
from .evenings import Evening, evenings
from .ratings import EveningRating, evening_ratings, ratings_file
from .stats import Chart, matches_counted, progress_charts

_ID = re.compile(r"[0-9]{1,9}")

EVENINGS_SHOWN = 5        # the latest evenings in full on the circle's page (then: a list)
MATCHES_SHOWN = 20        # the matches a page of the circle's list shows, newest first
CHANGES_SHOWN = 10        # the latest changes of the circle on its page (then: their page)
SEATS = lazy_gettext("Nothing was saved: see the seats below.")
PICK = lazy_gettext("Pick a player from the list, or type a new player's name")
BOTH = lazy_gettext("Pick a player from the list or type a new name, not both")
VIEW_LINK = lazy_gettext(
    "That is the match's view link: only whoever holds its edit link (or edit code) can add a "
    "match to a circle, since everyone with the circle's link can change its matches. Paste "
    "the edit link from the match page (More phones at this table).")
BUSY = lazy_gettext("Another circle file is being imported on this server just now. Nothing "
                    "was stored: try again in a minute.")
NO_MATCH = lazy_gettext("No match has that link or code. Copy the whole edit link from the "
                        "match page (More phones at this table), or its edit code.")


def _circle_name(form: FlaskForm, field: StringField) -> None:
    try:
        field.data = require_name(field.data, "circle.name", T("The circle"))
    except RuleViolation as violation:
        raise ValidationError(violation.message) from None


class CircleForm(FlaskForm):
    circle_name = StringField(lazy_gettext("The circle's name (a family, a club night)"),
                              validators=[_circle_name])


class PlayerForm(FlaskForm):
    player = StringField(lazy_gettext("New player's name"))


class CircleImportForm(FlaskForm):
    circle_file = FileField(lazy_gettext("Circle file (.json)"),
                            validators=[FileRequired(lazy_gettext("Choose a circle file"))])


# -- the home page's part ------------------------------------------------------------------

@bp.post("/circles")
def create_circle() -> Any:
    form = CircleForm()
    if not form.validate_on_submit():
        return home_page(422, circle_form=form, circle_error=_errors(form))
    token = circles().create(form.circle_name.data)
    remember_circle(token)
    flash(gettext("Circle created. Keep its link: whoever has it sees the circle."))
    return redirect(url_for(".circle", token=token))


@bp.post("/circles/import")
def import_circle() -> Any:
    """A circle file imported as a new circle. Its limits (``circlefile``: bytes, matches,
    hands in all) are refused before it is checked; one import at a time per server process
    (another meanwhile is refused: try again), written without holding other tables' writes
    (``Circles.import_circle``)."""
    form = CircleImportForm()
    if not form.validate_on_submit():
        return home_page(422, circle_import_error=_errors(form))
    if not circles().importing.acquire(blocking=False):
        return home_page(429, circle_import_error=BUSY)
    try:
        try:
            data = form.circle_file.data.read(circlefile.MAX_BYTES + 1)
            loaded = circlefile.load(data)
            for m, _ in loaded.matches:
                if m.game not in WEB_GAMES:
                    raise RuleViolation("file.game", T("This server has no pages for %(game)s",
                                                       game=m.game))
        except RuleViolation as violation:
            return home_page(422, circle_import_error=violation.explain())
        played = [(m.game, m.settings, m.hands, datetime.fromisoformat(m.created), people)
                  for m, people in loaded.matches]
        token = circles().import_circle(loaded.name, datetime.fromisoformat(loaded.created),
                                        loaded.players, played, device(),
                                        languages=[m.language for m, _ in loaded.matches])
    finally:
        circles().importing.release()
    remember_circle(token)
    flash(gettext("Circle imported: %(players)s, %(matches)s.",
                  players=ngettext("%(num)s player", "%(num)s players", len(loaded.players)),
                  matches=matches_counted(len(played))))
    return redirect(url_for(".circle", token=token))


def _errors(form: FlaskForm) -> str:
    return "; ".join(str(m) for messages in form.errors.values() for m in messages)


# -- the circle's page ---------------------------------------------------------------------

@dataclass
class Listed:
    """A match as the circle's page lists it."""

    id: str
    game: Game
    created: datetime
    people: list[str]
    standing: str


def _standing(game: Game, settings: dict[str, Any], standing: Standing) -> str:
    """The match's standing in a line: its figures and, once it is over, who won."""
    sides = game.sides(settings)
    label = game.victory_label(settings) or game.totals_label(settings)
    figures = standing.victory if game.victory_label(settings) else standing.totals
    shown = [signed(v) if not game.race else number(v) for v in figures]
    values = {"label": say(label),
              "figures": " · ".join(f"{s} {v}" for s, v in zip(sides, shown))}
    if standing.over and standing.winner is not None:
        return gettext("%(label)s: %(figures)s — %(winner)s won", winner=sides[standing.winner],
                       **values)
    return gettext("%(label)s: %(figures)s", **values)


def _names(circle: Circle, people: tuple[int, ...]) -> list[str]:
    return [(circle.player(p) or Player(p, "?")).name for p in people]


def _as_named(circle: Circle, settings: dict[str, Any], people: tuple[int, ...],
              ) -> dict[str, Any]:
    """A match's settings with its players named as the circle names them now (a rename, a
    merge: the match's own record keeps the names its table entered)."""
    if len(settings.get("players", ())) == len(people):
        settings = {**settings, "players": _names(circle, people)}
    return settings


def _listed(circle: Circle, m: Summary) -> Listed:
    game = WEB_GAMES[m.game].game
    standing = (_standing(game, _as_named(circle, m.settings, m.people), m.standing)
                if m.standing is not None
                else gettext("Its stored hands no longer score: open it for its match file"))
    return Listed(m.id, game, m.created, _names(circle, m.people), standing)


def _shown_page(count: int) -> int:
    """The page of the list of matches asked for (``?page=``: 1, the newest, to the last;
    anything else: the nearest)."""
    asked = request.args.get("page", "")[:9]
    last = max(1, -(-count // MATCHES_SHOWN))
    return min(max(int(asked), 1), last) if asked.isascii() and asked.isdigit() else 1


def _views(circle: Circle, kept: Derived) -> tuple[list[Evening], list[Chart], Markup]:
    """The circle's evenings, charts and list of earlier evenings at this version, in this
    language, with these names: made once, kept with the version."""
    def made() -> tuple[list[Evening], list[Chart], Markup]:
        found = evenings(circle, kept.matches)
        earlier = Markup(render_template("circles/earlier_evenings.html", circle=circle,
                                         evenings=found, evenings_shown=EVENINGS_SHOWN))
        return found, progress_charts(circle, kept.matches), earlier

    key = ("circle", languages.current(), request.script_root,
           tuple((p.id, p.name) for p in circle.players))
    return kept.view(key, made)  # type: ignore[no-any-return]


def circle_page(circle: Circle, status: int = 200, **extra: Any) -> Any:
    remember_circle(circle.id)
    kept = derived(circle.id)
    page = _shown_page(len(kept.matches))
    shown = kept.matches[(page - 1) * MATCHES_SHOWN:page * MATCHES_SHOWN]
    found_evenings, charts, earlier = _views(circle, kept)
    url = circle_link(circle.id)
    changes = people.history(circles(), circle.id, CHANGES_SHOWN + 1)
    context = {
        "circle": circle, "matches": [_listed(circle, m) for m in shown],
        "page": page, "older": page * MATCHES_SHOWN < len(kept.matches),
        "matches_count": len(kept.matches), "matches_shown": MATCHES_SHOWN,
        "web_games": WEB_GAMES, "games": GAMES,
        "evenings": found_evenings, "evenings_shown": EVENINGS_SHOWN,
        "earlier_evenings": earlier,
        "link": url, "qr": qr_code(url),
        "player_form": PlayerForm(), "button": ButtonForm(), "add_code": "",
        "changes": changes[:CHANGES_SHOWN], "more_changes": len(changes) > CHANGES_SHOWN,
        "played_counts": people.played_counts(circles(), circle.id),
        "messages": get_flashed_messages(category_filter=["message"]), **extra,
    }
    context["charts"] = charts
    return render_template("circles/circle.html", **context), status


def circle_link(token: str) -> str:
    public = public_url()
    if not public:
        return url_for("circles.circle", token=token, _external=True)
    return public.rstrip("/") + url_for("circles.circle", token=token).removeprefix(
        request.script_root)


@bp.get("/c/<token>")
def circle(token: str) -> Any:
    return circle_page(find(token))


@bp.post("/c/<token>/players")
def add_player(token: str) -> Any:
    found = find(token)
    form = PlayerForm()
    if form.validate_on_submit():
        try:
            name = require_name(form.player.data, "circle.player", T("The new player"))
            full = files.no_room_for_players(found.id, 1)
            if full:
                raise CircleRefused(full)
            circles().add_player(found.id, name, device())
        except RuleViolation as violation:
            error = violation.message
        except CircleRefused as refused:
            error = str(say(refused.message))
        else:
            flash(gettext("%(name)s joined the circle.", name=name))
            return redirect(url_for(".circle", token=token, _anchor="players"))
    else:
        error = _errors(form)
    return circle_page(circles().load(found.id) or found, 422, player_form=form, player_error=error)


# -- who sits where ------------------------------------------------------------------------

@dataclass
class Seat:
    index: int
    label: str
    required: bool
    who: str = ""             # the player picked (their id), or "" for a new name
    name: str = ""            # a new player's name as typed
    error: str | None = None
    person: Person | None = None


def _seats(web: WebGame, form: FlaskForm) -> list[Seat]:
    fields = web.player_fields
    low, high = web.game.players
    if len(fields) == 1:
        return [Seat(n, gettext("Seat %(number)s", number=n + 1), n < low) for n in range(high)]
    return [Seat(n, form[f].label.text, True) for n, f in enumerate(fields)]


def _read_seats(seats: list[Seat], circle: Circle) -> bool:
    """Each seat's person from the posted pickers (``who-N``: a player's id; ``name-N``: a
    new name); False if any seat is refused (its error says why)."""
    taken = {name_key(p.name): p.name for p in circle.players}
    for seat in seats:
        seat.who = request.form.get(f"who-{seat.index}", "")[:40]
        seat.name = request.form.get(f"name-{seat.index}", "")[:200]
        if seat.who:
            player = circle.player(int(seat.who)) if _ID.fullmatch(seat.who) else None
            if seat.name.strip():
                seat.error = BOTH
            elif player is None:
                seat.error = gettext("That player is not in this circle: pick one from the "
                                     "list")
            else:
                seat.person = player.id
        elif seat.name.strip():
            try:
                name = require_name(seat.name, "circle.player", T("Every player"))
            except RuleViolation as violation:
                seat.error = violation.message
            else:
                if name_key(name) in taken:
                    seat.error = TAKEN.format(name=taken[name_key(name)])
                else:
                    seat.person = name
        elif seat.required:
            seat.error = PICK
    seen: dict[object, str] = {}
    for seat in seats:
        if seat.person is None:
            continue
        key = name_key(seat.person) if isinstance(seat.person, str) else seat.person
        if key in seen:
            seat.error = gettext("This person already sits at %(seat)s: one seat each",
                                 seat=seen[key])
        seen[key] = seat.label
    return not any(seat.error for seat in seats)


def _person_names(seats: list[Seat], circle: Circle) -> list[str]:
    return [((circle.player(s.person) or Player(0, "")).name if isinstance(s.person, int)
             else s.person or "") for s in seats]


def _no_room(token: str, seats: list[Seat], match: bool = True) -> str | None:
    """Why a new match (``match``; else one checked already) cannot join the circle with
    these seats (the circle file's limits: each seat of a new player who would take it past
    them says so), or None."""
    new = [s for s in seats if isinstance(s.person, str)]
    full = files.no_room_for_players(token, len(new))
    if full is not None:
        for seat in new:
            seat.error = full
        return str(SEATS)
    return files.no_room_for_match(token) if match else None


@bp.route("/c/<token>/new/<game>", methods=["GET", "POST"])
def new_match(token: str, game: str) -> Any:
    found = find(token)
    web = WEB_GAMES.get(game) or abort(404)
    form = web.new_form()
    seats = _seats(web, form)
    error: str | None = None
    status = 200
    if request.method == "POST":
        status = 422
        if ButtonForm().validate_on_submit() and _read_seats(seats, found):
            people = [s for s in seats if s.person is not None]
            names = _person_names(seats, found)
            formdata = MultiDict(request.form)
            fields = web.player_fields
            if len(fields) == 1:
                formdata.setlist(fields[0], names)
            else:
                for f, name in zip(fields, names):
                    formdata[f] = name
            form.process(formdata)
            full = _no_room(found.id, seats)
            if full is not None:
                error = full
            elif form.validate():
                try:
                    settings = web.game.settings(web.settings_from(form))
                    match_id = circles().start_match(
                        found.id, web.game.name, settings,
                        [s.person for s in people if s.person is not None], device=device(),
                        language=languages.current())
                except RuleViolation as violation:
                    error = violation.explain()
                except CircleRefused as refused:
                    error = str(say(refused.message))
                else:
                    remember(match_id)
                    return redirect(url_for("matches.match", match_id=match_id))
            else:
                error = _errors(form)
        elif not any(s.error for s in seats):
            error = _errors(ButtonForm()) or gettext("This form could not be checked: reload "
                                                     "the page")
        else:
            error = SEATS
    flag([form])
    return render_template("circles/new.html", web=web, form=form, game=web.game,
                           error=error, circle=found, seats=seats), status


@bp.post("/c/<token>/add")
def add_match(token: str) -> Any:
    """Add a match that exists to the circle, by its edit link or code: first the code, then
    who sat in each seat (``seats`` posted)."""
    found = find(token)
    code = request.form.get("code", "")[:500]
    if not ButtonForm().validate_on_submit():
        return circle_page(found, 400, add_code=code, add_error=_errors(ButtonForm()))
    match_token = token_in(code)
    stored = store().load(match_token) if match_token else None
    if stored is None or stored.game not in WEB_GAMES:
        return circle_page(found, 422, add_code=code, add_error=NO_MATCH)
    if not stored.can_edit:
        return circle_page(found, 422, add_code=code, add_error=VIEW_LINK)
    owner = circles().circle_of(stored.id)
    if owner is not None:
        return circle_page(found, 422, add_code=code,
                     add_error=IN_THIS if owner == found.id else IN_ANOTHER)
    full = files.no_room_for_match(found.id, len(stored.hands))
    if full is not None:
        return circle_page(found, 422, add_code=code, add_error=full)
    web = WEB_GAMES[stored.game]
    names = list(readable_json(stored.settings)["players"])
    seats = [Seat(n, name, True) for n, name in enumerate(names)]
    error: str | None = None
    if request.form.get("seats"):
        if not _read_seats(seats, found):
            error = SEATS
        elif (full := _no_room(found.id, seats, match=False)) is not None:
            error = full
        else:
            try:
                circles().add_match(found.id, stored.id,
                                    [s.person for s in seats if s.person is not None],
                                    device())
            except CircleRefused as refused:
                error = str(say(refused.message))
            else:
                flash(gettext("%(game)s match added to the circle.", game=web.game.title))
                return redirect(url_for(".circle", token=token, _anchor="matches"))
    else:
        for seat in seats:          # proposed: a new player of the match's name
            seat.name = seat.label
    return render_template("circles/add.html", circle=found, game=web.game, seats=seats,
                           code=code, error=error, button=ButtonForm(),
                           ), 422 if error else 200


# -- the Troggu evening --------------------------------------------------------------------

def _evening(found: Circle, day: str) -> tuple[Evening, list[EveningRating]]:
    """The evening of ``day`` (else 404) and its players' ratings after it."""
    try:
        wanted = date.fromisoformat(day)
    except ValueError:
        abort(404)
    kept = derived(found.id)
    for evening in _views(found, kept)[0]:
        if evening.day == wanted:
            return evening, evening_ratings(found, kept.rated(), evening.game.name,
                                            evening.day)
    abort(404)


@bp.get("/c/<token>/evenings/<day>.pdf")
def evening_pdf(token: str, day: str) -> Response:
    """The evening as a PDF, made once per version of what it shows (its page's digest: the
    evening's matches at their versions, the names, the language) for every process
    (``pdfcache``)."""
    from ...catalogues import catalogue
    from ...scoresheet import environment, html_to_pdf, in_language

    found = find(token)
    evening, rated = _evening(found, day)
    language = languages.current()              # the phone's: an evening has several matches
    with in_language(language, catalogue(language)):
        html = environment().get_template("pdf/evening.html").render(
            circle=readable_json(found.name), evening=evening, ratings=rated)
    name = "+".join(("evening", found.id, evening.day.isoformat(), language))
    version = hashlib.sha256(html.encode()).hexdigest()[:32]
    body = pdfs().pdf(name, version, lambda: html_to_pdf(html))
    if body is None:                            # being made by another request
        return being_made(gettext("The PDF of the evening is being made; it will be ready in "
                                  "a moment."), url_for(".circle", token=token))
    return Response(body, mimetype="application/pdf", headers={
        "Content-Disposition": f'inline; filename="evening-{evening.day.isoformat()}.pdf"'})


# -- the circle as one file ----------------------------------------------------------------

@bp.get("/c/<token>/circle.json")
def export(token: str) -> Response:
    found = find(token)
    return files.export(found, ratings_file(found, derived(found.id).rated()))

