"""The rows of the history of changes, each rendered once (issue 12): every answer to an action
shows the match's last 50 changes, and a change's row shows only the change (its time, what it
was, the device, whether it was undone, whether its hand can be put back) and the match's link,
so a row with the same of these is the same HTML whichever answer shows it. A Restore form's
CSRF token is the request's own: a kept row has a mark in its place, the token is put in each
time the row is shown (as boards.py does for the live scoreboard)."""

from __future__ import annotations

import secrets
from collections.abc import Hashable

from flask import current_app
from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup

from ..numbers import current_locale
from .recent import Recent
from .store import Event

TEMPLATE = "matches/_change_row.html"
CSRF = f"csrf{secrets.token_hex(8)}"     # where a kept row has the request's CSRF token


def _key(context: Context, event: Event) -> Hashable:
    match = context["match"]
    return (match.token, match.can_edit, event.id, event.at, event.device, event.label,
            event.kind, event.undone, event.restorable, current_locale())


def _csrf(context: Context, event: Event) -> str:
    """The CSRF token the row's Restore form carries ("" for a row without one)."""
    if not (event.restorable and context["match"].can_edit):
        return ""
    field = getattr(context.get("button"), "csrf_token", None)
    return str(field.current_token) if field is not None else ""


@pass_context
def change_row(context: Context, event: Event) -> Markup:
    """The row of ``event`` in the history of changes (``_change_row.html`` in the calling
    template's context), rendered once for what it shows."""
    rows: Recent[Markup] = current_app.extensions["referee.change_rows"]
    key = _key(context, event)
    csrf = _csrf(context, event)
    row = rows.get(key)
    if row is None:
        template = context.environment.get_template(TEMPLATE)
        rendered = template.render({**context.get_all(), "e": event})
        rows.put(key, Markup(rendered.replace(csrf, CSRF) if csrf else rendered))
        return Markup(rendered)
    return Markup(str.replace(row, CSRF, csrf)) if csrf else row
