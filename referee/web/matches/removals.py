"""Hands taken out and put back: a hand deleted (after a confirmation without JavaScript), a
deleted hand restored from the history of changes, the last change undone."""

from __future__ import annotations

from typing import Any

from flask import abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext

from ...engine import scoring
from ...engine.errors import RuleViolation
from ...engine.words import T
from ..extensions import store
from ..forms.buttons import ButtonForm
from ..languages import say
from ..sharing import device
from ..store import StaleMatch
from .blueprint import HISTORY, NOTICES, TOLD, bp, find, load
from .conflicts import conflict_answer, stale_form
from .corrections import LaterHands, Plan, chosen, flash_plan, label_with, until
from .hands import Canonical, canonical, scored_as_stored
from .history import hand_address
from .notices import describe_changes, flash_changes, flash_outcome
from .page import after_change, hand_context, render_live


@bp.get("/m/<match_id>/hands/<int:hand>/delete")
def confirm_delete(match_id: str, hand: int) -> Any:
    """Without JavaScript the history's Delete button opens this page, which asks first (with
    htmx the button posts after the browser's confirmation): the hand as stored now, Delete
    (posting on what is shown here) or Keep it (back to the hand in the history)."""
    stored, web, result = load(match_id, edit=True)
    if hand < 1:
        abort(404)
    if hand > len(stored.hands):
        flash(gettext("Deal %(number)s no longer exists: it was deleted on another device "
                      "meanwhile. Nothing was deleted.", number=hand)
              if web.game.hand_word == "deal" else
              gettext("Hand %(number)s no longer exists: it was deleted on another device "
                      "meanwhile. Nothing was deleted.", number=hand))
        return redirect(url_for(".match", match_id=match_id, _anchor=TOLD))
    shown = result.hands[hand - 1] if hand <= len(result.hands) else result.draft
    return render_template(
        "matches/delete.html", match=stored, game=web.game, hand=shown, number=hand,
        names=list(stored.settings["players"]), sides=web.game.sides(stored.settings),
        button=ButtonForm(),
        delete_url=url_for(".delete_hand", match_id=match_id, hand=hand,
                           base=stored.base(hand)),
        back_url=hand_address(match_id, hand, result))


@bp.post("/m/<match_id>/hands/<int:hand>/delete")
def delete_hand(match_id: str, hand: int) -> Any:
    stored, web, result = load(match_id, edit=True, events=HISTORY)
    # A hand already deleted on another device: stale (409), not a 404.
    if hand < 1 or (hand > len(stored.hands) and "base" not in request.args):
        abort(404)
    deal = web.game.hand_word == "deal"
    if hand > len(stored.hands) or stale_form(stored, hand):
        return conflict_answer(match_id, web, hand)
    # The hands keep the facts the app proposed where they lack them (a Tartli or Marjolet
    # hand stored without its dealer keeps the dealer it had, rule 6.1.1), then one goes.
    kept = web.game.complete(stored.settings, stored.hands, len(stored.hands))
    new_hands = kept[: hand - 1] + kept[hand:]
    plan: Plan | None = None
    try:
        new_result = scoring.score(stored.game, stored.settings, new_hands, stored.hands,
                                        match=stored.id)
    except RuleViolation as violation:
        # later hands that no longer fit without it: corrected with the delete when the table
        # chose how; numbered as the table sees them now
        shown = [n for n in range(1, len(stored.hands) + 1) if n != hand]
        try:
            plan = chosen(web.game, stored.settings, new_hands, violation, hand, shown,
                          gettext("Deal %(number)s cannot be deleted alone: once it is gone",
                                  number=hand) if deal else
                          gettext("Hand %(number)s cannot be deleted alone: once it is gone",
                                  number=hand),
                          version=stored.version, match=stored.id)
        except LaterHands as later:
            return render_live(hand_context(stored, web, result), web, error=later.message,
                               status=422, corrections=later.offer())
        except RuleViolation:
            return render_live(
                hand_context(stored, web, result), web,
                error=gettext("Deal %(number)s cannot be deleted: %(reason)s", number=hand,
                              reason=say(violation.explain())) if deal else
                gettext("Hand %(number)s cannot be deleted: %(reason)s", number=hand,
                        reason=say(violation.explain())), status=422,
            )
        new_hands, new_result = plan.hands, plan.result
    try:
        store().save_hands(stored.id, stored.hands, new_hands,
                           label_with(T("Deal %(number)s deleted", number=hand) if deal
                                      else T("Hand %(number)s deleted", number=hand), plan),
                           device(), renumbers=True,
                           deletes=hand, version=stored.version)
    except StaleMatch:
        return conflict_answer(match_id, web, hand)
    flash(gettext("Deal %(number)s deleted.", number=hand) if deal
          else gettext("Hand %(number)s deleted.", number=hand))
    flash_plan(plan)
    flash_changes(describe_changes(result, until(new_result, plan),
                                    web.game.sides(stored.settings), hand, removed=True,
                                    word=web.game.hand_word, match_score=web.game.race,
                                    detailed=NOTICES + 1),
                   web.game.hand_word)
    return after_change(stored.id, None)


@bp.post("/m/<match_id>/changes/<int:event>/restore")
def restore_hand(match_id: str, event: int) -> Any:
    """Put a deleted hand back between the neighbours it had (or the nearest of its earlier
    ones still there), whatever happened since (the history's Restore button): deleting is an
    event, never a loss."""
    stored, web, result = load(match_id, edit=True, events=HISTORY)
    found = store().deleted_hand(stored.id, event)
    if found is None:
        abort(404)
    at = found.at
    new_hands = stored.hands[: at - 1] + [found.facts] + stored.hands[at - 1:]
    deal = web.game.hand_word == "deal"
    plan: Plan | None = None
    try:
        new_hands = scored_as_stored(web, stored.settings, new_hands, stored.hands)
        try:
            new_result = scoring.score(stored.game, stored.settings, new_hands, stored.hands,
                                        match=stored.id)
        except RuleViolation as violation:
            # later hands that no longer fit with it back: corrected with the restore when
            # the table chose how (numbered as they will be)
            plan = chosen(web.game, stored.settings, new_hands, violation, at + 1,
                          list(range(1, len(new_hands) + 1)),
                          gettext("Deal %(number)s cannot be restored alone: once it is back",
                                  number=found.number) if deal else
                          gettext("Hand %(number)s cannot be restored alone: once it is back",
                                  number=found.number),
                          version=stored.version, match=stored.id)
            new_hands, new_result = plan.hands, plan.result
        if plan is not None or not isinstance(new_hands, Canonical):
            new_hands = canonical(web, stored.settings, new_hands, stored.hands)
        store().save_hands(stored.id, stored.hands, new_hands,
                           label_with(T("Deal %(number)s restored", number=at) if deal
                                      else T("Hand %(number)s restored", number=at), plan),
                           device(), renumbers=True,
                           restores=event, version=stored.version)
    except LaterHands as later:
        return render_live(hand_context(stored, web, result), web, status=422, error=later.message,
                           corrections=later.offer())
    except RuleViolation as violation:
        return render_live(hand_context(stored, web, result), web, status=422, error=(
            gettext("Deal %(number)s cannot be restored: %(reason)s", number=found.number,
                    reason=say(violation.explain())) if deal else
            gettext("Hand %(number)s cannot be restored: %(reason)s", number=found.number,
                    reason=say(violation.explain()))))
    except StaleMatch:
        fresh, _, fresh_result = load(match_id, events=HISTORY)
        return render_live(hand_context(fresh, web, fresh_result), web, status=409, error=(
            gettext("Nothing was restored: the match was changed on another device "
                    "meanwhile. Check the history of changes below and try again.")))
    flash(gettext("Deal %(number)s restored.", number=at) if deal
          else gettext("Hand %(number)s restored.", number=at))
    flash_plan(plan)
    flash_changes(describe_changes(result, until(new_result, plan),
                                    web.game.sides(stored.settings), at, inserted=True,
                                    word=web.game.hand_word, match_score=web.game.race,
                                    detailed=NOTICES + 1),
                   web.game.hand_word)
    flash_outcome(new_result, at)
    return after_change(stored.id, None)


@bp.post("/m/<match_id>/undo")
def undo(match_id: str) -> Any:
    stored = find(match_id, edit=True)
    expected = request.args.get("event", type=int)
    try:
        label = store().undo(stored.id, device(), expected)
    except StaleMatch:
        flash(gettext("Nothing was undone: the match was changed on another device meanwhile. "
                      "Check the history of changes below before undoing again."))
    else:
        flash(gettext("Undone: %(label)s.", label=say(label)) if label
              else gettext("Nothing to undo."))
    return after_change(stored.id, None)
