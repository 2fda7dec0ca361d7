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
    deal = web.game.hand_word == "deal"
    last = fresh.events[0] if fresh.events else None
    exists = hand <= len(fresh.hands)
    offered = spec is not None and is_new_base(request.args.get("base", ""))
    stored = None
    if exists:
        stored = result.hands[hand - 1] if hand <= len(result.hands) else result.draft
        what = (gettext("Deal %(number)s was changed on another device meanwhile", number=hand)
                if deal else
                gettext("Hand %(number)s was changed on another device meanwhile", number=hand))
    elif offered:                     # a new hand's form: a change elsewhere renumbered it
        what = gettext("The match was changed on another device meanwhile")
    else:
        what = (gettext("Deal %(number)s no longer exists: it was deleted on another device "
                        "meanwhile", number=hand) if deal else
                gettext("Hand %(number)s no longer exists: it was deleted on another device "
                        "meanwhile", number=hand))
    if last is not None:              # who changed it (the device's name as typed) and how
        what = gettext("%(change)s (%(device)s: %(label)s)", change=what,
                       device=last.device or gettext("another device"), label=say(last.label))
    yours = None
    if spec is None:                              # a delete: nothing typed to keep
        ctx = hand_context(fresh, web, result)
        message = gettext("%(change)s. Nothing was deleted.", change=what)
    elif offered and result.standing.over:
        ctx = hand_context(fresh, web, result)
        offered = False
        message = (gettext("%(change)s, and the match is over, so what you sent was not saved: "
                           "no deal follows.", change=what) if deal else
                   gettext("%(change)s, and the match is over, so what you sent was not saved: "
                           "no hand follows.", change=what))
    elif offered:
        number = len(fresh.hands) + 1
        ctx = hand_context(fresh, web, result, number)
        propose_dealer(web, ctx, spec.form, form)
        editing = False
        message = _offered(what, number, deal, result.draft is not None)
    else:
        ctx = hand_context(fresh, web, result, min(hand, len(fresh.hands) + 1),
                       trick if exists else None)
        if exists:
            yours = yours_as_stored(web, ctx, spec)
            message = (gettext("%(change)s, so what you sent was not saved. Both are shown: if "
                               "yours is right, send it again to replace the stored deal; else "
                               "keep the stored one.", change=what) if deal else
                       gettext("%(change)s, so what you sent was not saved. Both are shown: if "
                               "yours is right, send it again to replace the stored hand; else "
                               "keep the stored one.", change=what))
        else:
            message = gettext("%(change)s. Nothing was saved; what you entered is kept.",
                              change=what)
    bound = {spec.form: form} if spec is not None and form is not None else None
    keep = (url_for(".edit_hand", match_id=fresh.token, hand=hand) if editing and exists
            else url_for(".match", match_id=fresh.token))
    return render_live(ctx, web, error=message, bound=bound, editing=editing,
                       posted=spec.form if spec is not None else None, status=409,
                       conflict={"hand": hand, "stored": stored, "offered": offered,
                                 "yours": yours, "keep": keep, "typed": spec is not None})


def _offered(what: str, number: int, deal: bool, unfinished: bool) -> str:
    """A new hand's entry kept as hand ``number``: to send once hand ``number - 1`` is
    finished (``unfinished``), or now."""
    if unfinished:
        return (gettext("%(change)s, so what you sent was not saved. It is kept below as deal "
                        "%(number)s: send it once deal %(previous)s is finished to record it as "
                        "deal %(number)s.", change=what, number=number, previous=number - 1)
                if deal else
                gettext("%(change)s, so what you sent was not saved. It is kept below as hand "
                        "%(number)s: send it once hand %(previous)s is finished to record it as "
                        "hand %(number)s.", change=what, number=number, previous=number - 1))
    return (gettext("%(change)s, so what you sent was not saved. It is kept below as deal "
                    "%(number)s: send it to record it as deal %(number)s.", change=what,
                    number=number) if deal else
            gettext("%(change)s, so what you sent was not saved. It is kept below as hand "
                    "%(number)s: send it to record it as hand %(number)s.", change=what,
                    number=number))


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
