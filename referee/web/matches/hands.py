"""A hand's editor and what it posts: the path a posted hand takes (``hand_action``), top
down: read the form, check it against the stored match, store the change, answer with the page
as it now stands (or with the refusal, the conflict, the corrections to choose)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import compress, count
from operator import is_not
from typing import Any

from flask import abort, request
from flask_babel import gettext
from flask_wtf import FlaskForm
from markupsafe import escape

from ...engine import scoring
from ...engine.errors import RuleViolation
from ...engine.games.base import MatchResult
from ...engine.scoring import common_start
from ...engine.words import T, Text
from ..extensions import store
from ..forms.invalid import mark, summary
from ..games.base import Action, ActionContext, FormInvalid, WebGame
from ..sharing import device
from ..store import StaleMatch, StoredMatch
from .blueprint import HISTORY, NOTICES, bp, load
from .conflicts import conflict_answer, stale_form
from .corrections import LaterHands, Plan, chosen, flash_plan, label_with, until
from .notices import describe_changes, flash_changes, flash_outcome
from .page import after_change, hand_context, render_live


@bp.get("/m/<match_id>/hands/<int:hand>")
def edit_hand(match_id: str, hand: int) -> Any:
    stored, web, result = load(match_id, edit=True, events=HISTORY)
    if not 1 <= hand <= len(stored.hands):
        abort(404)
    trick = request.args.get("trick", type=int)
    if trick is not None and not web.valid_trick(stored.hands[hand - 1], trick):
        abort(404)
    return render_live(hand_context(stored, web, result, hand, trick), web, editing=True)


@dataclass
class Posted:
    """A hand's action as posted: the match as stored, the action, its form bound to what was
    sent, and where it was sent from (the editor of an earlier hand, a trick)."""

    stored: StoredMatch
    web: WebGame
    result: MatchResult
    action: str
    spec: Action
    ctx: ActionContext
    form: FlaskForm
    editing: bool             # sent from the editor of an earlier hand
    gone: bool                # for a hand that is no longer there (deleted elsewhere)
    trick: int | None         # the trick it records, as its address says
    valid_trick: bool         # a trick that exists in the stored hand (or none named)


@dataclass
class Change:
    """The match's hands after the action, as the store keeps them, and their fold; ``plan``:
    the correction of later hands the table chose with it."""

    hands: list[dict[str, Any]]
    result: MatchResult
    plan: Plan | None


@bp.post("/m/<match_id>/hands/<int:hand>/<action>")
@bp.post("/m/<match_id>/hands/<int:hand>/<action>/<int:trick>")
def hand_action(match_id: str, hand: int, action: str, trick: int | None = None) -> Any:
    """A hand's action (start it, a trick, a meld, the finish, …): the path a posted hand
    takes."""
    posted = read_post(match_id, hand, action, trick)
    try:
        change = check(posted)
        save(posted, change)
    except LaterHands as later:
        return render_live(posted.ctx, posted.web, error=later.message,
                           bound={posted.spec.form: posted.form}, status=422,
                           editing=posted.editing, posted=posted.spec.form,
                           corrections=later.offer())
    except StaleMatch:
        if not posted.valid_trick:
            posted.ctx.trick = None                 # never offer a trick that cannot exist
        return conflict_answer(match_id, posted.web, hand, spec=posted.spec,
                               form=posted.form if posted.valid_trick else None,
                               trick=posted.ctx.trick, editing=posted.editing)
    except (FormInvalid, RuleViolation) as problem:
        return refuse(posted, problem)
    return answer(posted, change)


def read_post(match_id: str, hand: int, action: str, trick: int | None) -> Posted:
    """The match as stored and the posted form bound to it (404: no such action, hand or
    trick)."""
    stored, web, result = load(match_id, edit=True, events=HISTORY)
    spec = web.actions.get(action)
    # A form built for a hand that is gone (deleted on another device) is stale, not a 404.
    gone = hand > len(stored.hands) + 1
    if (spec is None or hand < 1 or (gone and "base" not in request.args)
            or (trick is not None and not spec.per_trick)):
        abort(404)
    ctx = hand_context(stored, web, result, hand, trick)
    valid_trick = trick is None or (
        hand <= len(stored.hands) and web.valid_trick(stored.hands[hand - 1], trick)
    )
    return Posted(stored, web, result, action, spec, ctx, web.bound_form(spec.form, ctx),
                  editing=request.args.get("editing") == "1", gone=gone, trick=trick,
                  valid_trick=valid_trick)


def check(posted: Posted) -> Change:
    """The hands the action makes of the stored match, checked: the form's fields, the rules
    (RuleViolation), the version it was built on (StaleMatch), and later hands that no longer
    fit (corrected as the table chose, else LaterHands with the ways out)."""
    stored, web, ctx, form = posted.stored, posted.web, posted.ctx, posted.form
    if posted.gone or stale_form(stored, ctx.hand):
        raise StaleMatch(stored.id)
    if not form.validate():
        raise FormInvalid(posted.spec.form, form)
    web.refuse_unrecorded(posted.action, ctx)    # a meld picked elsewhere in the form, unsaved
    new_hands = scored_as_stored(web, stored.settings, posted.spec.apply(ctx, form),
                                 stored.hands)
    plan: Plan | None = None
    try:
        new_result = scoring.score(                                   # names the players
            stored.game, stored.settings, new_hands, stored.hands, match=stored.id)
    except RuleViolation as violation:
        # later hands that no longer fit: corrected with this change when the table chose
        # how (else LaterHands, with the ways out); the hands already carry their proposed
        # facts (ActionContext.hands), so a removal moves no old hand's dealer (6.1.1)
        plan = chosen(web.game, stored.settings, new_hands, violation, ctx.hand + 1,
                      list(range(1, len(new_hands) + 1)), version=stored.version,
                      match=stored.id)
        new_hands, new_result = plan.hands, plan.result
    if plan is not None or not isinstance(new_hands, Canonical):
        new_hands = canonical(web, stored.settings, new_hands, stored.hands)
    return Change(new_hands, new_result, plan)


def save(posted: Posted, change: Change) -> None:
    """Store the change as one event of the history, labelled with what was done."""
    stored, spec, ctx = posted.stored, posted.spec, posted.ctx
    # an earlier hand's editor says "Hand 3 edited (trick 5)": an edit, whichever
    verb = (spec.edited if posted.editing
            else spec.verb_of(ctx, posted.form) if spec.verb_of else spec.verb)
    label = action_label(verb, posted.web.game.hand_word, ctx.hand, ctx.trick, posted.editing)
    store().save_hands(stored.id, stored.hands, change.hands, label_with(label, change.plan),
                       device(), version=stored.version,
                       renumbers=(change.plan is not None
                                  and len(change.hands) != len(stored.hands)))


def refuse(posted: Posted, problem: FormInvalid | RuleViolation) -> Any:
    """422, nothing stored: the editor again with what was typed, the reason at the top and
    beside the field it concerns."""
    web, ctx, form, spec = posted.web, posted.ctx, posted.form, posted.spec
    if not posted.valid_trick:
        ctx.trick = None                 # never offer a trick that cannot exist
    bound = {spec.form: form} if posted.valid_trick else {}
    refused = form
    if isinstance(problem, FormInvalid) and problem.form is not form:
        refused = bound[problem.name] = problem.form    # at another section's field
    error: str | None = None
    if isinstance(problem, RuleViolation):
        error = problem.explain()       # the summary at the top; beside its field too
        mark(form, web.refused_field(spec.form, problem), problem)
    elif not posted.valid_trick:
        error = (gettext("There is no trick %(trick)s to record in deal %(number)s",
                         trick=posted.trick, number=ctx.hand) if web.game.hand_word == "deal"
                 else gettext("There is no trick %(trick)s to record in hand %(number)s",
                              trick=posted.trick, number=ctx.hand))
    page = render_live(ctx, web, error=error, bound=bound, status=422,
                       editing=posted.editing, posted=spec.form)
    if error is None:
        # the fields' own checks: their messages beside them, and the summary at the top
        # (with each field's label where the page does not show the field)
        error = unseen_errors(page[0], refused) or summary(refused)
        page = render_live(ctx, web, error=error, bound=bound, status=422,
                           editing=posted.editing, posted=spec.form)
    return page


def answer(posted: Posted, change: Change) -> Any:
    """The page after the change: what it did further down the match told at the top, the
    hand's outcome, the editor of the next hand (or of the earlier hand edited)."""
    web, hand = posted.web, posted.ctx.hand
    flash_plan(change.plan)
    flash_changes(describe_changes(posted.result, until(change.result, change.plan),
                                   web.game.sides(posted.stored.settings), hand,
                                   word=web.game.hand_word, match_score=web.game.race,
                                   detailed=NOTICES + 1),
                  web.game.hand_word)
    flash_outcome(change.result, hand)
    return after_change(posted.stored.id, hand if posted.editing else None)


def action_label(verb: Text, word: str, hand: int, trick: int | None, editing: bool) -> Text:
    """The history's label of a change, a sentence kept to be said in each phone's language:
    what was recorded ("Trick 5 of hand 3", "Hand finished (hand 3)"), or, from the editor of
    an earlier hand, that the hand was edited and in what ("Hand 3 edited (trick 5)"). ``verb``
    is the game's own sentence for the change (``Action.verb``, or ``Action.edited`` for an
    edit: "trick", "hand finished"), one message of its own; each shape below is a whole
    sentence, one for a deal and one for a hand."""
    deal = word == "deal"
    if editing:
        if trick is not None:
            return (T("Deal %(number)s edited (%(what)s %(trick)s)", number=hand, what=verb,
                      trick=trick) if deal
                    else T("Hand %(number)s edited (%(what)s %(trick)s)", number=hand, what=verb,
                           trick=trick))
        return (T("Deal %(number)s edited (%(what)s)", number=hand, what=verb) if deal
                else T("Hand %(number)s edited (%(what)s)", number=hand, what=verb))
    if trick is not None:
        return (T("%(verb)s %(trick)s of deal %(number)s", verb=verb, trick=trick, number=hand)
                if deal
                else T("%(verb)s %(trick)s of hand %(number)s", verb=verb, trick=trick,
                       number=hand))
    return (T("%(verb)s (deal %(number)s)", verb=verb, number=hand) if deal
            else T("%(verb)s (hand %(number)s)", verb=verb, number=hand))


def unseen_errors(html: str, form: FlaskForm) -> str | None:
    """The form's field errors that the page does not show, as one message (its editor has
    no such form in this state: a forged post, or one from a page of another state)."""
    unseen = [f"{field.label.text}: {message}" for field in form for message in field.errors
              if str(escape(message)) not in html]
    return gettext("Nothing was saved: %(reasons)s", reasons="; ".join(unseen)) if unseen else None


def canonical(
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


def scored_as_stored(
    web: WebGame, settings: dict[str, Any], hands: list[dict[str, Any]],
    stored: Sequence[dict[str, Any]],
) -> list[dict[str, Any]]:
    """The changed ``hands`` to score, in the form the store will keep them (``canonical``),
    so that the match read back after the change is found folded already (issue 12: a request
    folds a changed hand once); as they are where that form refuses them: the fold refuses
    them too, with a message that names the players."""
    try:
        return Canonical(canonical(web, settings, hands, stored))
    except RuleViolation:
        return hands


class Canonical(list[dict[str, Any]]):
    """Hands that ``canonical`` made: in the form the store keeps them already (not made
    again before the save, issue 12: at 1,000 hands ``Game.complete`` costs milliseconds)."""
