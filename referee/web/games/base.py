"""What every game's web module provides to the generic views."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from flask_wtf import FlaskForm

from ...engine.games.base import Game, MatchResult
from ..store import StoredMatch


class FormInvalid(Exception):
    """A form failed its field checks; it carries the bound form to show again."""

    def __init__(self, name: str, form: FlaskForm) -> None:
        super().__init__(name)
        self.name = name
        self.form = form


@dataclass
class Action:
    """One hand action: the form it reads and how it turns the form into new hands."""

    form: str
    apply: Callable[[ActionContext, Any], list[dict[str, Any]]]
    label: Callable[[ActionContext, Any], str]


@dataclass
class ActionContext:
    match: StoredMatch
    result: MatchResult
    hand: int                 # 1-based; len(hands) + 1 for a new hand
    trick: int | None = None
    names: list[str] = field(default_factory=list)

    def hands(self) -> list[dict[str, Any]]:
        import copy

        return copy.deepcopy(self.match.hands)


class WebGame:
    game: Game
    editor_template: str
    new_template: str
    actions: dict[str, Action]

    def new_form(self) -> FlaskForm:
        raise NotImplementedError

    def settings_from(self, form: Any) -> dict[str, Any]:
        raise NotImplementedError

    def forms(self, ctx: ActionContext) -> dict[str, FlaskForm]:
        """Fresh forms for the editor of hand ``ctx.hand``, filled from the stored facts."""
        raise NotImplementedError

    def bound_form(self, name: str, ctx: ActionContext) -> FlaskForm:
        """The form ``name`` bound to the request, with its dynamic choices set."""
        raise NotImplementedError

    def editor(self, ctx: ActionContext) -> dict[str, Any]:
        """Template context for the hand editor."""
        raise NotImplementedError
