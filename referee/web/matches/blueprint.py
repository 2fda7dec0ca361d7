"""The match pages' blueprint, and what every one of its views starts from: the stored match
behind a link (edit or view), folded by the engine."""

from __future__ import annotations

from flask import Blueprint, Response, abort, render_template, url_for
from flask_babel import gettext, lazy_gettext

from ...engine import scoring
from ...engine.errors import RuleViolation
from ...engine.games.base import MatchResult
from ..extensions import htmx, store
from ..games import WEB_GAMES
from ..games.base import WebGame
from ..languages import say
from ..readable import readable_match
from ..sharing import private, token_in
from ..store import StoredMatch

VIEW_ONLY = lazy_gettext(
    "This is the match's view link: it shows the scoreboard and the record, but only the edit "
    "link can change the match. Nothing was changed.")
HISTORY = 50              # events shown in a match's history of changes
NOTICES = 3               # later hands whose change is told one by one (then: "… and N")
OUTCOME = "outcome"       # flashed: the number of a hand an action just scored
TOLD = "outcome"          # the top of the match page: what an action did, the end announced

bp = Blueprint("matches", __name__)


def etag(version: int, can_edit: bool) -> str:
    """The live scoreboard's validator: the match's version, and which link polls it."""
    return f"{version}{'e' if can_edit else 'v'}"


def find(token: str, *, edit: bool = False, events: int = 0) -> StoredMatch:
    """The stored match behind an edit or view token, or 404; 403 for a view token when the
    request would change the match."""
    match = store().load(token, events) if token_in(token) == token else None
    if match is None or match.game not in WEB_GAMES:
        abort(404)
    private(match.can_edit)
    if edit and not match.can_edit:
        abort(403)
    return readable_match(match)


def load(
    match_id: str, *, edit: bool = False, events: int = 0,
) -> tuple[StoredMatch, WebGame, MatchResult]:
    match = find(match_id, edit=edit, events=events)
    web = WEB_GAMES[match.game]
    try:
        # checked in full once per process (the store may hold facts an earlier version
        # wrote), then folded from the cache: only a changed hand is checked again
        return match, web, scoring.score(match.game, match.settings, match.hands,
                                         match=match.id)
    except RuleViolation as violation:
        # Stored facts that no longer pass the rules (e.g. written by another version):
        # say so and offer the match file rather than fail.
        message = gettext("%(reason)s. Nothing was changed.", reason=say(violation.explain()))
        if htmx:
            abort(Response(render_template("_alert.html", message=message), 409,
                           {"HX-Retarget": "#alerts", "HX-Reswap": "innerHTML"}))
        abort(Response(render_template(
            "error.html", title=gettext("This match cannot be scored"), message=message,
            export=url_for(".export", match_id=match.token),
        ), 409))
