"""What every game's web module provides to the generic views."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from flask_babel import LazyString
from flask_wtf import FlaskForm
from wtforms import validators

from ...engine.errors import RuleViolation
from ...engine.games.base import Game, HandOutcome, MatchResult
from ...engine.words import Text
from ..languages import say
from ..store import StoredMatch


def spoken(text: object) -> LazyString:
    """An engine sentence (a ``Text``) said in the request's language each time it is shown:
    for a form's label, choice or message made at import time from the engine's words."""
    return LazyString(say, text)


class InputRequired(validators.InputRequired):
    """WTForms' check that a field was given, its message (a lazy one, made at import time)
    said in the request's language when it is raised: a field's errors are strings."""

    def __call__(self, form: Any, field: Any) -> None:
        try:
            super().__call__(form, field)
        except validators.StopValidation as stop:
            raise validators.StopValidation(*map(str, stop.args)) from None


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
    # the undo log, a sentence of the engine's (said in each phone's language when the history
    # is read): "<verb> (hand 3)", or "<verb> 5 of hand 3" for a trick ("Bidding", "Trick")
    verb: Text
    # the same inside "Hand 3 edited (<edited>)" from the editor of an earlier hand: its own
    # sentence ("bidding", "trick"), never the verb lower-cased
    edited: Text
    per_trick: bool = False   # posted to .../<action>/<trick>; every other action takes none
    # the verb for this post, where one verb would log two different changes alike
    verb_of: Callable[[ActionContext, Any], Text] | None = None


@dataclass
class ActionContext:
    match: StoredMatch
    result: MatchResult
    hand: int                 # 1-based; len(hands) + 1 for a new hand
    trick: int | None = None
    names: list[str] = field(default_factory=list)

    @property
    def facts(self) -> dict[str, Any] | None:
        """The stored facts of the hand being edited, None for a hand not yet started."""
        hands = self.match.hands
        return hands[self.hand - 1] if self.hand <= len(hands) else None

    @property
    def outcome(self) -> HandOutcome | None:
        """What the engine made of that hand (the draft while it is in progress)."""
        if self.facts is None:
            return None
        if self.hand <= len(self.result.hands):
            return self.result.hands[self.hand - 1]
        return self.result.draft

    def dealer(self, seats: int = 2) -> int:
        """Who deals hand ``hand``: as the engine read it (its recorded dealer, or for a hand
        stored without one the proposal, rule 6.1.1), else, for a hand not yet started, the
        dealer the app proposes (``Standing.dealer``). ``seats`` is no longer needed: the
        engine's answer already counts them."""
        outcome = self.outcome
        return outcome.dealer if outcome is not None else self.result.standing.dealer

    def hands(self) -> list[dict[str, Any]]:
        """The stored hands to change, every proposed fact filled in as it stood before this
        change (``Game.complete``: a hand stored before its dealer or a choice's maker was
        recorded keeps the ones it had, whatever the change does).

        An action changes hand ``hand`` (or adds one after the last): that hand is a deep copy,
        to change at will; every other hand is the stored hand itself, never to be changed in
        place (no action touches another hand; ``Game.complete`` and ``Game.repair`` make new
        ones). So the scoring, the save and the history find them unchanged by identity, not by
        comparing 999 deals value by value (``engine.scoring``), after the changed hand too."""
        import pickle

        from ...engine.games import get

        game = get(self.match.game)
        stored = self.match.hands
        kept = max(0, min(self.hand - 1, len(stored)))
        # every stored hand completed as it stands (a game may remember them: all of them are
        # stored hands, none a copy to change), then the hand to change copied
        completed = game.complete(self.match.settings, stored, len(stored))
        # a deep copy (JSON values: pickle makes it some ten times faster than copy.deepcopy)
        copied = pickle.loads(pickle.dumps(completed[kept:kept + 1], pickle.HIGHEST_PROTOCOL))
        return [*completed[:kept], *copied, *completed[kept + 1:]]


class Forms(dict[str, FlaskForm]):
    """An editor's fresh forms by name, each made when it is first asked for (issue 12: the
    editor of a hand in one state shows two or three of its game's forms; a page made every
    one). Only the forms made so far are among its values: the others, unbound, have no
    errors to flag."""

    def __init__(self, make: Callable[[str], FlaskForm], names: Iterable[str]) -> None:
        super().__init__()
        self._make = make
        self._names = frozenset(names)

    def __missing__(self, name: str) -> FlaskForm:
        if name not in self._names:
            raise KeyError(name)
        form = self[name] = self._make(name)
        return form


class WebGame:
    game: Game
    editor_template: str
    new_template: str
    hand_template: str | None = None     # extra controls under a hand in the history
    summary_template: str | None = None  # a section under the standings (its context: editor)
    # Decisions the rules leave to the table that are still open (e.g. a choice made void by
    # an edit): asked at the top of the match page, under the scoreboard.
    decisions_template: str | None = None
    # The new form's fields that take the players' names, in seat order (a circle's player
    # pickers fill them); one field alone takes every seat's name, up to the game's most.
    player_fields: tuple[str, ...] = ()
    # A money game: a circle's matches of one day add up to one balance per player and one
    # settle-up (Troggu 7.5.3), its evening.
    evening: bool = False
    form_classes: dict[str, type[FlaskForm]]
    actions: dict[str, Action]
    # Errors at the field: the field of a posted form that a refusal concerns, by the
    # refusal's code or the start of it ("meld" covers "meld.window"), e.g.
    # {"finish": {"piles": "pile"}}; "{seat}" ("{team}") in a field's name stands for the seat
    # (team) the refusal names (RuleViolation.seat, .team); "a b" marks both fields, "points_*"
    # every such field the page sent, and "pile_{seat}|pile_0 pile_1" the one the refusal
    # names, else both (invalid.mark). A refusal of no listed code is said at the top only.
    refusal_fields: dict[str, dict[str, str]] = {}

    def refused_field(self, form: str, violation: RuleViolation) -> str | None:
        """The field of form ``form`` that ``violation`` concerns, if this game knows it."""
        fields = self.refusal_fields.get(form, {})
        code = violation.code
        while code:
            if code in fields:
                return fields[code]
            code = code.rpartition(".")[0]
        return None

    def new_form(self) -> FlaskForm:
        raise NotImplementedError

    def settings_from(self, form: Any) -> dict[str, Any]:
        raise NotImplementedError

    def form_data(self, ctx: ActionContext) -> dict[str, dict[str, Any]]:
        """Each editor form's values, filled from the stored facts of hand ``ctx.hand``."""
        raise NotImplementedError

    def with_choices(self, form: FlaskForm, ctx: ActionContext) -> FlaskForm:
        """Put the match's names into the form's choices."""
        return form

    def forms(self, ctx: ActionContext) -> dict[str, FlaskForm]:
        """Fresh forms for the editor of hand ``ctx.hand``, each made when it is first asked
        for (``Forms``)."""
        data = self.form_data(ctx)

        def make(name: str) -> FlaskForm:
            cls = self.form_classes[name]
            return self.with_choices(cls(prefix=name, formdata=None, data=data.get(name, {})),
                                     ctx)

        return Forms(make, self.form_classes)

    def bound_form(self, name: str, ctx: ActionContext) -> FlaskForm:
        """The form ``name`` bound to the request."""
        return self.with_choices(self.form_classes[name](prefix=name), ctx)

    def refuse_unrecorded(self, action: str, ctx: ActionContext) -> None:
        """Before action ``action`` scores the hand: raise FormInvalid at the field of another
        section of the same form (Marjolet's turn, Stovkahra's combination) that holds cards
        or a combination picked there and not recorded, so that none is dropped unseen."""

    def typed_sections(self, ctx: ActionContext, forms: dict[str, FlaskForm],
                       sections: Iterable[str], saved: str | None,
                       values: Any) -> None:
        """Bind each form of ``sections`` but ``saved`` for which ``values`` (a request's
        form data) carries fields to them: the sections of one page form, shown again with
        what was typed in them and not saved."""
        for name in sections:
            if name != saved and any(key.startswith(f"{name}-") for key in values):
                forms[name] = self.with_choices(
                    self.form_classes[name](prefix=name, formdata=values), ctx)

    def valid_trick(self, hand: dict[str, Any], trick: int) -> bool:
        """May the editor open this trick of this hand? (Games without tricks: never.)"""
        return False

    def editor(self, ctx: ActionContext) -> dict[str, Any]:
        """Template context for the hand editor."""
        raise NotImplementedError
