"""The rows of the hand history, each rendered once (issue 12): a row shows only its hand's
number, dealer, scores, totals and verdict, the match's link and the hand's base, so a row
with the same of all these is the same HTML, whichever version of the match, request or answer
shows it. After a hand is added, the 19 rows above it are taken from here; an undo or a
page loaded again takes them all. The base (where a delete posts: it counts the match's
deletes and undos, so it changes with every delete and undo) and the totals after the hand
(an edit of an earlier hand changes those of every later hand, and nothing else in their
rows) are put into the row kept each time it is shown.

A game whose rows carry more (``WebGame.hand_template``: its forms, the hand an editor is
on) has them rendered every time.

The rows of the history of changes likewise (``change_row``): every answer to an action shows
the match's last 50 changes, and a change's row shows only the change (its time, what it was,
the device, whether it was undone, whether its hand can be put back) and the match's link. A
Restore form's CSRF token is the request's own: a kept row has a mark in its place, the token
is put in each time the row is shown (as live.py does for the live scoreboard)."""

from __future__ import annotations

import secrets
from collections.abc import Hashable
from typing import Any

from flask import current_app
from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup

from ...engine.games.base import HandOutcome
from ...numbers import current_locale, number
from ..recent import Recent
from ..store import Event

KEPT = 4096               # rows a process keeps (about 1.5 kB each)
TEMPLATE = "matches/_hand_row.html"
CSRF = f"csrf{secrets.token_hex(8)}"     # where a kept change row has the request's CSRF token
BASE = f"base{secrets.token_hex(8)}"     # where a kept row has its base (safe in a URL)
TOTAL = f"total{secrets.token_hex(8)}"   # where it has a side's total: TOTAL_<side>_


def _key(context: Context, hand: HandOutcome) -> Hashable | None:
    """Everything the row of ``hand`` shows, in the request's language; None when it shows
    more (a game's own part)."""
    web = context.get("web")
    match = context.get("match")
    if web is None or match is None or web.hand_template is not None:
        return None
    return (match.token, match.can_edit, web.game.name, tuple(context["names"]),
            tuple(context["sides"]), hand.number, hand.dealer, hand.complete,
            tuple(hand.scores), hand.summary, current_locale())


class _Marked:
    """The bases of a kept row: the mark that stands for its base."""

    def __getitem__(self, index: int) -> str:
        return BASE


class _Totalled:
    """A hand as its kept row shows it: each side's total after it a mark (``TOTAL``)."""

    def __init__(self, hand: HandOutcome) -> None:
        self._hand = hand
        self.totals_after = tuple(f"{TOTAL}_{side}_" for side in range(len(hand.totals_after)))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._hand, name)


def _filled(row: str, hand: HandOutcome) -> str:
    """A kept row with the hand's totals put in (numbers: safe in HTML as they are; the mark
    holds no "-", which the page's ``number`` filter would write as a minus sign)."""
    if TOTAL not in row:
        return row
    for side, total in enumerate(hand.totals_after):
        row = row.replace(f"{TOTAL}_{side}_", number(total))
    return row


@pass_context
def hand_row(context: Context, hand: HandOutcome) -> Markup:
    """The history's row of ``hand`` (``_hand_row.html`` in the calling template's context),
    rendered once for what it shows."""
    key = _key(context, hand)
    if key is None:
        template = context.environment.get_template(TEMPLATE)
        return Markup(template.render({**context.get_all(), "hand": hand}))
    rows: Recent[Markup] = current_app.extensions["referee.rows"]
    row = rows.get(key)
    if row is None:
        variables: dict[str, Any] = {**context.get_all(), "hand": _Totalled(hand),
                                     "bases": _Marked()}
        row = Markup(context.environment.get_template(TEMPLATE).render(variables))
        rows.put(key, row)
    # the base is safe in HTML as it is (digits, a dash, hexadecimal digits), and so are the
    # totals: put in the row's text, not through Markup.replace, which escapes them again
    shown = _filled(str(row), hand)
    if BASE in shown:
        shown = shown.replace(BASE, str(context["bases"][hand.number - 1]))
    return Markup(shown)


# -- the history of changes ------------------------------------------------------------------

CHANGE_TEMPLATE = "matches/_change_row.html"


def _change_key(context: Context, event: Event) -> Hashable:
    match = context["match"]
    return (match.token, match.can_edit, event.id, event.at, event.device, event.label,
            event.kind, event.undone, event.restorable, current_locale())


def _change_csrf(context: Context, event: Event) -> str:
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
    key = _change_key(context, event)
    csrf = _change_csrf(context, event)
    row = rows.get(key)
    if row is None:
        template = context.environment.get_template(CHANGE_TEMPLATE)
        rendered = template.render({**context.get_all(), "e": event})
        rows.put(key, Markup(rendered.replace(csrf, CSRF) if csrf else rendered))
        return Markup(rendered)
    return Markup(str.replace(row, CSRF, csrf)) if csrf else row
