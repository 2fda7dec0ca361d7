"""Corrections across the end of a game or a tie: when a change to one hand leaves later hands
that no longer fit the rules, the ways to make them fit (``Game.repair``), each as one plan
that the table may choose and that is stored with the change as one event."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

from flask import flash, request
from flask_babel import gettext

from ...engine import scoring
from ...engine.errors import RuleViolation
from ...engine.games.base import Game, MatchResult, Repair, and_list, with_hands
from ...engine.words import T, Text, listing
from ..languages import say

MOST_PLANS = 12           # ways out offered at once
MOST_STEPS = 20           # repairs chained in one plan


@dataclass
class Step:
    """One later hand that no longer fits, and what the plan does about it."""

    problem: str              # "Hand 7: ... (rule 7.4)", numbered as the table sees it now
    action: str               # "remove hand 7", with the numbers the table sees now
    why: str = ""


@dataclass
class Plan:
    keys: list[str]
    hands: list[dict[str, Any]]
    result: MatchResult
    steps: list[Step] = field(default_factory=list)
    touched: int = 0          # the first position (in ``hands``) a step removed or rewrote

    @property
    def key(self) -> str:
        return ",".join(self.keys)

    @property
    def summary(self) -> str:
        """What it does, in order: "remove hand 7 and remove hands 9–10"."""
        return and_list([step.action for step in self.steps])

    @property
    def label(self) -> str:
        return gettext("Save and %(summary)s", summary=self.summary)


def _numbers(numbers: list[int], word: str) -> Text:
    """"hand 7", "hands 7–9", "hands 7, 9 and 10" (a sentence, said in the reader's
    language)."""
    deal = word == "deal"
    if len(numbers) == 1:
        return T("deal %(number)s", number=numbers[0]) if deal else T(
            "hand %(number)s", number=numbers[0])
    if numbers == list(range(numbers[0], numbers[-1] + 1)):
        ends = {"first": numbers[0], "last": numbers[-1]}
        return T("deals %(first)s–%(last)s", **ends) if deal else T(
            "hands %(first)s–%(last)s", **ends)
    listed = listing(list[object](numbers))
    return T("deals %(numbers)s", numbers=listed) if deal else T(
        "hands %(numbers)s", numbers=listed)


def plans(
    game: Game, settings: dict[str, Any], hands: list[dict[str, Any]], problem: RuleViolation,
    later: int, shown: list[int], match: Hashable = None,
) -> list[Plan]:
    """The ways to make ``hands`` (a change just made to the match) fit again when
    ``problem`` (what scoring them raised) is in a hand at position ``later`` or after, each
    a complete plan; none when the problem is not in such a hand. ``shown``: the number the
    table sees now for each position of ``hands``; ``match``: the match's key in the engine's
    fold cache (``scoring.score``), whose fold each way resumes."""
    if problem.hand is None or problem.hand < later:
        return []
    found: list[Plan] = []
    _explore(game, settings, hands, problem, later, list(shown), [], [], found, match=match)
    return found


def _explore(
    game: Game, settings: dict[str, Any], hands: list[dict[str, Any]], problem: RuleViolation,
    later: int, shown: list[int], keys: list[str], steps: list[Step], found: list[Plan],
    touched: int | None = None, budget: int = MOST_PLANS, match: Hashable = None,
) -> None:
    """Every plan that starts with one of the ways out of ``problem``, at most ``budget``
    more in ``found``: shared between the ways, so that each (the removal of every later
    hand included) is offered whatever the others lead to."""
    ways = game.repair(settings, hands, problem)
    start = len(found)
    for index, way in enumerate(ways):
        share = (start + budget - len(found)) // (len(ways) - index)
        if share >= 1:
            _follow(game, settings, hands, problem, way, later, shown, keys, steps, found,
                    touched, share, match)


def _follow(
    game: Game, settings: dict[str, Any], hands: list[dict[str, Any]], problem: RuleViolation,
    way: Repair, later: int, shown: list[int], keys: list[str], steps: list[Step],
    found: list[Plan], touched: int | None, budget: int, match: Hashable,
) -> None:
    """The plans that take ``way`` out of ``problem`` (at most ``budget``)."""
    word = game.hand_word
    assert problem.hand is not None
    numbers = [shown[n - 1] for n in way.touched]
    step = Step(_problem(problem, shown[problem.hand - 1], word == "deal"),
                with_hands(way.action, _numbers(numbers, word)), way.why)
    now = [n for i, n in enumerate(shown, 1) if not (way.removes and i in way.touched)]
    first = min(way.touched, default=problem.hand)
    start = first if touched is None else min(touched, first)
    try:
        # from the match's cached fold: only the hands from the first one the way changes
        result = scoring.score(game.name, settings, way.hands, match=match)
    except RuleViolation as further:
        progress = (further.hand is not None and further.hand >= later
                    and (further.hand > problem.hand or len(way.hands) < len(hands)))
        if progress and len(steps) + 1 < MOST_STEPS:
            _explore(game, settings, way.hands, further, later, now, keys + [way.key],
                     steps + [step], found, start, budget, match)
        return                # else a dead end, or no progress: not a way out
    if not any(plan.hands == way.hands for plan in found):
        found.append(Plan(keys + [way.key], way.hands, result, steps + [step], start))


def _problem(problem: RuleViolation, number: int, deal: bool) -> str:
    """What a later hand (hand ``number`` as the table sees it now) breaks, its rule cited."""
    said = str(say(problem.message))
    if problem.rule:
        return (gettext("Deal %(number)s: %(problem)s (rule %(rule)s)", number=number,
                        problem=said, rule=problem.rule) if deal else
                gettext("Hand %(number)s: %(problem)s (rule %(rule)s)", number=number,
                        problem=said, rule=problem.rule))
    return (gettext("Deal %(number)s: %(problem)s", number=number, problem=said) if deal else
            gettext("Hand %(number)s: %(problem)s", number=number, problem=said))


class LaterHands(Exception):
    """A change that later hands no longer fit, with the ways to correct them too."""

    def __init__(self, message: str, found: list[Plan], version: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.plans = found
        self.version = version

    def offer(self) -> dict[str, Any]:
        """What the page needs to offer the ways out: each a button re-posting what was
        posted (the form's fields, as typed) with its ``resolve`` key and the version of the
        match the ways were worked out on, to the same URL."""
        fields = [(name, value) for name, value in request.form.items(multi=True)
                  if name not in ("resolve", "resolve_version")]
        return {"url": request.full_path.rstrip("?"), "fields": fields, "plans": self.plans,
                "version": self.version}


def chosen(
    game: Game, settings: dict[str, Any], hands: list[dict[str, Any]],
    violation: RuleViolation, later: int, shown: list[int], what: str = "",
    version: int | None = None, match: Hashable = None,
) -> Plan:
    """The plan the table chose (the posted ``resolve``) to make the hands after a change fit
    again when ``violation`` is in one of them (position ``later`` or after; ``shown``: the
    numbers the table sees now). LaterHands when none was chosen; ``violation`` again when it
    is not in a later hand, or nothing can correct it. ``what``: the change, for the message.
    ``version``: the match's version now; a way chosen on a page built on another version
    (another phone changed the match meanwhile, so the way may touch other hands than its
    button said) is offered again, not made. ``match``: as ``plans`` takes it."""
    found = plans(game, settings, hands, violation, later, shown, match)
    if not found:
        raise violation
    key = request.form.get("resolve", "")
    stale = bool(key) and version is not None \
        and request.form.get("resolve_version") != str(version)
    for plan in found:
        if plan.key == key and not stale:
            return plan
    first = found[0].steps[0]
    what = what or gettext("Nothing was saved: after this change")
    message = (gettext("%(change)s, a later deal no longer fits. %(problem)s. Below: how to "
                       "correct the later deals with it (one Undo takes all of it back).",
                       change=what, problem=first.problem)
               if game.hand_word == "deal" else
               gettext("%(change)s, a later hand no longer fits. %(problem)s. Below: how to "
                       "correct the later hands with it (one Undo takes all of it back).",
                       change=what, problem=first.problem))
    if stale:
        message = (gettext("The match was changed on another device since the ways to correct "
                           "the later deals were offered, so nothing was saved; here they are "
                           "again. %(message)s", message=message)
                   if game.hand_word == "deal" else
                   gettext("The match was changed on another device since the ways to correct "
                           "the later hands were offered, so nothing was saved; here they are "
                           "again. %(message)s", message=message))
    raise LaterHands(message, found, version)


def label_with(label: str, plan: Plan | None) -> str:
    """An event's label, with the correction it made to later hands (a sentence)."""
    if plan is None:
        return label
    return T("%(label)s, with correction: %(summary)s", label=label, summary=plan.summary)


def flash_plan(plan: Plan | None) -> None:
    """The notice of a correction made with a change."""
    if plan is not None:
        flash(gettext("Corrected with it: %(summary)s (Undo takes all of it back).",
                      summary=plan.summary))


def until(result: MatchResult, plan: Plan | None) -> MatchResult:
    """The result, for the "what changed" notices: without the hands a correction removed or
    rewrote (said by its own notice), which would be compared with others."""
    if plan is None:
        return result
    return MatchResult([h for h in result.hands if h.number < plan.touched], result.standing,
                       result.draft)
