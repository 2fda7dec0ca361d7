"""The circles' blueprint, and what each of its views starts from: the circle behind a link,
this browser's circles, a circle's matches as the statistics read them."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from flask import Blueprint, abort, session

from ...engine import scoring
from ...engine.errors import RuleViolation
from ...engine.games.base import MatchResult
from ..extensions import circles
from ..readable import readable_json
from ..sharing import REMEMBERED, private
from ..store import Circle, CircleMatch, Player

bp = Blueprint("circles", __name__)

TOKEN = re.compile(r"[A-Za-z0-9_-]{16,40}")


def find(token: str) -> Circle:
    """The circle this token opens, or 404; the answer carries its secret link: no-store."""
    found = circles().load(token) if TOKEN.fullmatch(token) else None
    if found is None:
        abort(404)
    private(True)
    # names as every page can show them (validated when stored; a lone surrogate from a
    # database written otherwise is shown as its escape)
    found.name = readable_json(found.name)
    found.players = [Player(p.id, readable_json(p.name)) for p in found.players]
    return found


def remember_circle(token: str) -> None:
    mine = [t for t in session.get("circles", []) if isinstance(t, str) and t != token]
    session["circles"] = [token, *mine][:REMEMBERED]


def remembered_circles() -> list[tuple[str, str]]:
    """(token, name) of the circles this browser created or opened (for its home page)."""
    tokens = [t for t in session.get("circles", []) if isinstance(t, str)]
    return [(t, readable_json(name)) for t, name in circles().listed(tokens)]


def played(circle: Circle) -> list[tuple[str, date, dict[str, Any], list[dict[str, Any]],
                                         tuple[str, ...]]]:
    """The circle's matches as the statistics read them: (game, created day, settings, hands,
    the circle player's id in each seat, as text), newest first."""
    return [(m.game, m.created.date(), m.settings, m.hands, tuple(str(p) for p in m.people))
            for m in circles().matches(circle.id)]


def scored(m: CircleMatch) -> MatchResult | None:
    """A circle's match folded (None: its stored hands no longer score)."""
    try:
        # one fold kept per game and settings (not per match): a circle of hundreds of matches
        # would push every live match's fold out of the cache
        return scoring.score(m.game, m.settings, m.hands, trusted=True)
    except RuleViolation:
        return None
