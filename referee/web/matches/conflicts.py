"""Two phones at one table: a post built on another version of its hand than the stored one
(``stale_form``) is answered with what the other phone stored meanwhile beside what this one
sent (``conflict_answer``, 409): nothing a phone did not save for that hand changes it."""

from __future__ import annotations

from typing import Any

from flask import request, url_for
from flask_babel import gettext
from flask_wtf import FlaskForm

from ...engine import scoring
from ...engine.errors import RuleViolation
from ...engine.games.base import HandOutcome
from ..games.base import Action, ActionContext, FormInvalid, WebGame
from ..languages import say
from ..store import StoredMatch, is_new_base
from .blueprint import HISTORY, load
from .page import hand_context, render_live


def stale_form(stored: StoredMatch, hand: int) -> bool:
    """Was the posted form built on another version of hand ``hand`` than the stored one (its
    ``?base=``)? A post without a base acts on the match as stored."""
    current = stored.base(hand)
    return request.args.get("base", current) != current


def conflict_answer(
    match_id: str, web: WebGame, hand: int, *, spec: Action | None = None,
    form: FlaskForm | None = None, trick: int | None = None, editing: bool = False,
) -> Any:
    """409: what another device stored meanwhile as hand ``hand``, beside what this one sent
    (``form``, the bound form of the action ``spec``, keeps what was typed), on the match as
    it is stored now.

    A form for a new hand (its base: ``hand_base(None)``) whose number another device filled
    meanwhile is offered as the next new hand, never as a change of the stored one: its every
    button posts for the new hand. A form for a stored hand that changed elsewhere stays on
    that hand, shown beside the stored one by name and score: sending it again (on the stored
    hand's base) replaces the stored hand, "Keep" leaves it."""
    fresh, _, result = load(match_id, events=HISTORY)
    word = web.game.hand_word
    last = fresh.events[0] if fresh.events else None
    # who changed it (the device's name as typed) and how, in this phone's language
    by = (" " + gettext("(%(device)s: %(label)s)", device=last.device or gettext(
        "another device"), label=say(last.label))) if last else ""
    exists = hand <= len(fresh.hands)
    offered = spec is not None and is_new_base(request.args.get("base", ""))
    stored = None
    if exists:
        stored = result.hands[hand - 1] if hand <= len(result.hands) else result.draft
        message = f"{word.capitalize()} {hand} was changed on another device meanwhile{by}"
    elif offered:                     # a new hand's form: a change elsewhere renumbered it
        message = f"The match was changed on another device meanwhile{by}"
    else:
        message = (f"{word.capitalize()} {hand} no longer exists: it was deleted on another "
                   f"device meanwhile{by}")
    yours = None
    if spec is None:                              # a delete: nothing typed to keep
        ctx = hand_context(fresh, web, result)
        message += ". Nothing was deleted."
    elif offered and result.standing.over:
        ctx = hand_context(fresh, web, result)
        offered = False
        message += (f", and the match is over, so what you sent was not saved: no {word} "
                    f"follows.")
    elif offered:
        number = len(fresh.hands) + 1
        ctx = hand_context(fresh, web, result, number)
        propose_dealer(web, ctx, spec.form, form)
        editing = False
        once = (f" once {word} {number - 1} is finished" if result.draft is not None
                else "")
        message += (f", so what you sent was not saved. It is kept below as {word} {number}: "
                    f"send it{once} to record it as {word} {number}.")
    else:
        ctx = hand_context(fresh, web, result, min(hand, len(fresh.hands) + 1),
                       trick if exists else None)
        if exists:
            yours = yours_as_stored(web, ctx, spec)
            message += (f", so what you sent was not saved. Both are shown: if yours is right, "
                        f"send it again to replace the stored {word}; else keep the stored "
                        f"one.")
        else:
            message += ". Nothing was saved; what you entered is kept."
    bound = {spec.form: form} if spec is not None and form is not None else None
    keep = (url_for(".edit_hand", match_id=fresh.token, hand=hand) if editing and exists
            else url_for(".match", match_id=fresh.token))
    return render_live(ctx, web, error=message, bound=bound, editing=editing,
                       posted=spec.form if spec is not None else None, status=409,
                       conflict={"hand": hand, "stored": stored, "offered": offered,
                                 "yours": yours, "keep": keep, "typed": spec is not None})


def propose_dealer(web: WebGame, ctx: ActionContext, name: str, form: FlaskForm | None) -> None:
    """An entry offered as another hand than the one it was typed for: its dealer is the one
    proposed for that hand (the deal passes on), as a fresh form of it would show."""
    if form is not None and "dealer" in form:
        proposed = web.form_data(ctx).get(name, {}).get("dealer")
        if proposed is not None:
            form["dealer"].data = proposed


def yours_as_stored(web: WebGame, ctx: ActionContext, spec: Action) -> HandOutcome | None:
    """Hand ``ctx.hand`` as this post would make it of the stored match (what sending it again
    stores), read from the post once more (the form shown keeps its own state); None when the
    post would be refused."""
    form = web.bound_form(spec.form, ctx)
    try:
        if not form.validate():
            return None
        hands = spec.apply(ctx, form)
        result = scoring.score(ctx.match.game, ctx.match.settings, hands, ctx.match.hands,
                                match=ctx.match.id)
    except (FormInvalid, RuleViolation):
        return None
    return (result.hands[ctx.hand - 1] if ctx.hand <= len(result.hands) else result.draft)
