"""Errors at the field (issue 11, item 4): a refused entry marks the field it concerns
(``aria-invalid="true"``) and links it to the message beside it (``aria-describedby``), while
the summary stays at the top of the page (#rule-error).

A field's messages are shown by the ``errors`` macro (templates/_formhelpers.html) as
``<p class="field-error" id="<field id>-error-<n>">``; :func:`flag` gives every field with
errors the attributes that point at them, for inputs rendered by WTForms; the picker macros,
which write their inputs by hand, ask :func:`attributes`."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from flask_babel import gettext
from flask_wtf import FlaskForm
from markupsafe import Markup, escape

from ...engine.errors import RuleViolation


def error_ids(field: Any) -> str:
    """The ids of a field's messages, as the ``errors`` macro writes them."""
    return " ".join(f"{field.id}-error-{n}" for n in range(1, len(field.errors or ()) + 1))


def flag(forms: Iterable[FlaskForm | None]) -> None:
    """Mark every field with errors for its rendering: invalid, described by its messages."""
    for form in forms:
        if form is None:
            continue
        for field in form:
            if field.errors:
                field.render_kw = {**(field.render_kw or {}), "aria-invalid": "true",
                                   "aria-describedby": error_ids(field)}


def attributes(field: Any) -> Markup:
    """The same attributes for an input written by hand (a card of a picker): empty while the
    field has no errors."""
    if not field.errors:
        return Markup("")
    return Markup(' aria-invalid="true" aria-describedby="{}"').format(escape(error_ids(field)))


def at_field(violation: RuleViolation) -> str:
    """The message beside the field: the rule broken, with its section (the hand is said in
    the summary at the top)."""
    return f"{violation.message} (rule {violation.rule})" if violation.rule else violation.message


PLACES = {"{seat}": "seat", "{team}": "team"}


def _named(name: str, violation: RuleViolation) -> str | None:
    """``name`` with the seat or team the violation names in place of "{seat}" or "{team}";
    None when it names none."""
    for place, attribute in PLACES.items():
        if place in name:
            value = getattr(violation, attribute)
            if value is None:
                return None
            name = name.replace(place, str(value))
    return name


def _fields(form: FlaskForm, names: str) -> list[Any]:
    """The fields ``names`` (space-separated) of ``form``; "points_*" is every field of that
    pattern that the page sent (a form may hold more seats than the table has)."""
    fields = []
    for name in names.split():
        if name.endswith("*"):
            fields += [f for n, f in form._fields.items()
                       if n.startswith(name[:-1]) and n[len(name) - 1:].isdigit() and f.raw_data]
        elif name in form._fields:
            fields.append(form._fields[name])
    return fields


def _sent(field: Any) -> bool:
    return field.data not in (None, "", [], False)


def mark(form: FlaskForm, name: str | None, violation: RuleViolation) -> bool:
    """Put ``violation`` beside the field ``name`` of ``form``: "{seat}" ("{team}") in the name
    stands for the seat (team) the violation names; "cards|rank", for the first of those
    fields that holds what was sent (else the first), except that one naming the violation's
    seat or team is taken whenever it names one (else passed over); "pile_0 pile_1", for each
    of those fields; "points_*", for each such field the page sent. False when the form has
    no such field."""
    if name is None:
        return False
    choices = []
    for alternative in name.split("|"):
        named = _named(alternative, violation)
        fields = _fields(form, named) if named is not None else []
        if fields and named != alternative:       # the refusal's own seat or team
            choices = [fields]
            break
        if fields:
            choices.append(fields)
    if not choices:
        return False
    chosen = next((c for c in choices if any(_sent(f) for f in c)), choices[0])
    for field in chosen:
        field.errors = [*(field.errors or ()), at_field(violation)]
    return True


def summary(form: FlaskForm) -> str | None:
    """The summary at the top for a form refused by its fields' checks: every message once."""
    messages: list[str] = []
    for field in form:
        messages += [m for m in field.errors or () if m not in messages]
    return (gettext("Nothing was saved: %(reasons)s", reasons="; ".join(map(str, messages)))
            if messages else None)
