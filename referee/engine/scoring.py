"""Scoring a match without folding it all again: the fold resumed from cached states.

``Game.score`` folds every hand from the first. A page of a long match scores it several times
per request (before a change, after it, again for the answer), and each time the hands are the
same up to the one changed or added. ``score`` keeps, per match (the ``match`` its caller
names: the web's match id; else its game and settings), the hands last folded, every hand's
outcome and the fold's state after each hand: a new list of hands is folded from the state
after the longest common beginning, so appending a hand folds one hand, and changing hand k
folds hands k to the end; a hand in progress after the same hands, equal to the one last
folded, is not folded again either. The result is the one ``Game.score`` gives (a test holds
them equal over random appends, edits and deletes, of two matches in turns).

Keyed by the match (issue 24), not by its game and settings alone: a club's matches of one game
with the same settings, scored in turns, would otherwise share one fold and each fold all its
hands again after another's. No version in the key: the hands are compared by value, so a new
version resumes from the hands it shares with the last one folded. Kept: at most ``MATCHES``
matches and ``HANDS`` hands in all (each hand holds the fold's state after it and its outcome:
about 2.5 kB a Troggu hand), the least recently scored match dropped first; a match longer
than ``HANDS`` alone is kept alone.

The cached hands are the caller's own dicts, compared by value: a caller must not change a
hand in place after scoring it (the web layer changes copies; ``ActionContext.hands``).
Outcomes are shared between the results of one match: read them, never change them.

Trusted hands (issue 12): facts the app itself checked and wrote (the store's hands, a match
file it wrote) need not be checked again on every fold. ``trusted`` says which of the hands
are such facts: all (True), none (False: an import, a posted hand), or those equal to a given
list of stored hands: the hands before the one a change touches, and the unchanged hands after
it (an edit, a delete, an insert) where they name their dealer. A game's fold with a
``trusted`` attribute skips what only checks a trusted hand; every other hand is checked in
full. A hand folded without checks is reused later only where it is trusted again; a hand
checked in full once counts as checked when it comes again at its place from the end (after a
change before it) and names its dealer.

What a trusted fold skips depends only on the hand's own facts (its dealer as recorded), the
settings and the names, never on the hands before it (the totals, the phase, the dealer due):
each game's fold says so. That is why the hands after a change may be trusted too, where they
record their dealer (else the dealer they are read with is the one due, which the change may
move).

Outcomes again (issue 12): a change of hand k folds the hands after it again, though most of
them are the very hands folded before, only after other totals. Before such a trusted hand is
added, a fold's ``prior`` attribute is its outcome from the last fold (else None); a game may
take from it what depends only on the hand (its payments, its summary, its facts) and fold just
the rest.

And not folded at all (issue 12): where the fold's state before such a hand is the state it
had before it last time, the hand's outcome and the state after it are last time's too (a fold
reads nothing but its state, the hand and its number; never its outcomes so far). A game whose
totals only add up, with no target (Troggu's balances), names that part of its state in its
fold's ``shifts``: its outcomes read it only as ``totals_after``, and read the hand's number
only as ``number``. Then the state need only be the same apart from those totals, at any
number: each later outcome is last time's, its totals shifted by the change's difference, so
an edit early in a long match folds the hands it changed and no other.
"""

from __future__ import annotations

import gc
import json
from collections import OrderedDict
from collections.abc import Hashable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import compress, count
from operator import add, not_, sub
from threading import Lock
from typing import Any

from .errors import RuleViolation
from .games import get
from .games.base import Fold, HandOutcome, MatchResult

MATCHES = 64            # matches whose folds are kept (least recently scored dropped first)
HANDS = 20_000          # hands kept in all those folds (about 50 MB), likewise

_COPIED = frozenset((list, dict, set))
_PER_HAND = frozenset(("hands", "draft", "trusted", "prior"))   # set per hand, not the state


@contextmanager
def gc_paused() -> Iterator[None]:
    """No cyclic garbage collection meanwhile: a fold makes thousands of small objects, none
    of them garbage in a cycle, and each collection would walk every object of the process
    again (half the time of a long match's fold). Collected as usual afterwards, but not
    walked at once: what the fold made is kept (the cache) or freed by its reference count, so
    it is moved straight to the oldest generation (``freeze``, ``unfreeze``), where only the
    next full collection looks at it, rather than walked by the next young collection (a
    fifth of a cold load of a long match)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.freeze()
            gc.unfreeze()
            gc.enable()


def _state(fold: Fold) -> dict[str, Any]:
    """The fold's state between hands, apart from its outcomes: each attribute, one level of
    lists, dicts and sets copied (a fold changes those in place; what they hold it replaces)."""
    return {key: value.copy() if type(value) in _COPIED else value
            for key, value in vars(fold).items() if key not in _PER_HAND}


def _resume(kind: type[Any], state: dict[str, Any], outcomes: list[HandOutcome]) -> Any:
    """A fold of class ``kind`` in ``state``, with ``outcomes`` as its hands so far."""
    fold = object.__new__(kind)
    fold.__dict__.update(_state_copy(state))
    fold.hands = list(outcomes)
    fold.draft = None
    return fold


def _state_copy(state: dict[str, Any]) -> dict[str, Any]:
    return {key: value.copy() if type(value) in _COPIED else value
            for key, value in state.items()}


@dataclass
class _Folded:
    """One match as last folded: ``hands[:n]`` complete hands, ``states[k]`` the fold's state
    after ``k`` of them (``states[0]`` the fold as it starts), ``outcomes[k]`` hand k+1's."""

    kind: type[Any]
    hands: list[Any] = field(default_factory=list)
    checked: list[bool] = field(default_factory=list)      # folded with every check
    states: list[dict[str, Any]] = field(default_factory=list)
    outcomes: list[HandOutcome] = field(default_factory=list)
    # the hand in progress after ``hands``, as last folded: (its facts, folded with every
    # check, the fold's state after it, its outcome); None when there was none
    draft: tuple[Any, bool, dict[str, Any], HandOutcome] | None = None
    held: int = 0             # the hands it held when last put in the cache (``_held``)


_Key = tuple[str, str, Hashable]
_cache: OrderedDict[_Key, _Folded] = OrderedDict()
_held = 0                     # the hands held by the folds in ``_cache``, in all
_lock = Lock()


def _key(game: str, settings: dict[str, Any], match: Hashable) -> _Key:
    return game, json.dumps(settings, sort_keys=True, ensure_ascii=False), match


def _take(key: _Key) -> _Folded | None:
    """The fold kept for ``key``, out of the cache while it is folded further (under _lock)."""
    global _held
    folded = _cache.pop(key, None)
    if folded is not None:
        _held -= folded.held
    return folded


def _keep(key: _Key, folded: _Folded) -> None:
    """``folded`` kept for ``key`` as the most recently scored (under _lock); the least
    recently scored matches dropped while more than ``MATCHES`` or ``HANDS`` are kept."""
    global _held
    _take(key)                # another request's fold of the same match, put back meanwhile
    folded.held = len(folded.hands) + (folded.draft is not None)
    _cache[key] = folded
    _held += folded.held
    while len(_cache) > 1 and (len(_cache) > MATCHES or _held > HANDS):
        _held -= _cache.popitem(last=False)[1].held


def held() -> tuple[int, int]:
    """How many matches' folds are kept, and how many hands they hold in all."""
    with _lock:
        return len(_cache), _held


def common_start(a: list[Any], b: list[Any]) -> int:
    """How many hands ``a`` and ``b`` share from the first (list slices compare the very same
    hands without looking into them: a change after 999 unchanged hands)."""
    n = min(len(a), len(b))
    if a[:n] == b[:n]:
        return n
    low, high = 0, n          # a[:low] == b[:low]; a[:high] != b[:high]
    while high - low > 1:
        middle = (low + high) // 2
        if a[low:middle] == b[low:middle]:
            low = middle
        else:
            high = middle
    return low


def _common_end(a: list[Any], b: list[Any], most: int) -> int:
    """How many hands ``a`` and ``b`` share at their ends, at most ``most``."""
    n = min(len(a), len(b), most)
    if n == 0 or a[len(a) - n:] == b[len(b) - n:]:
        return n
    low, high = 0, n          # the last ``low`` equal; the last ``high`` not
    while high - low > 1:
        middle = (low + high) // 2
        if a[len(a) - middle:len(a) - low] == b[len(b) - middle:len(b) - low]:
            low = middle
        else:
            high = middle
    return low


def _names_dealer(raw: Any) -> bool:
    return isinstance(raw, dict) and raw.get("dealer") is not None


def _same(a: Any, b: Any) -> bool:
    return a is b or a == b


def _difference(
    now: dict[str, Any], before: dict[str, Any], shifts: str | None
) -> tuple[int, ...] | None:
    """How the fold's state ``now`` differs from its state ``before`` (at the same hand last
    time): the difference of the ``shifts`` totals where all else is the same (empty without
    ``shifts``), None where anything else differs."""
    if now is before:
        return ()
    if now.keys() != before.keys() or not all(
            _same(value, before[key]) for key, value in now.items() if key != shifts):
        return None
    return () if shifts is None else tuple(map(sub, now[shifts], before[shifts]))


def _taken(
    outcomes: list[HandOutcome], afters: list[dict[str, Any]], number: int,
    difference: tuple[int, ...], shifts: str | None,
) -> tuple[list[HandOutcome], list[dict[str, Any]]]:
    """Last time's ``outcomes`` of hands in a row and the fold's states ``afters`` after each,
    as hands ``number``, ``number`` + 1, … after a state that differs by ``difference`` in its
    ``shifts`` totals (the very objects where nothing moved)."""
    if shifts is None or not any(difference):
        if outcomes[0].number == number:
            return outcomes, afters
        shifts = None                     # renumbered only
    moved_outcomes, moved_states = [], []
    new = object.__new__
    for at, outcome, after in zip(count(number), outcomes, afters):
        totals = outcome.totals_after
        if shifts is not None:
            before = after[shifts]
            after = after.copy()
            after[shifts] = tuple(map(add, before, difference))
            # the very totals of the state where the outcome gives them (one tuple, as the
            # fold made it)
            totals = (after[shifts] if totals is before
                      else tuple(map(add, totals, difference)))
        fields = outcome.__dict__.copy()       # as ``replace`` makes it, at a third of the cost
        fields["number"], fields["totals_after"] = at, totals
        moved = new(type(outcome))
        moved.__dict__ = fields
        moved_outcomes.append(moved)
        moved_states.append(after)
    return moved_outcomes, moved_states


def score(
    game_name: str, settings: dict[str, Any], hands: list[dict[str, Any]],
    trusted: bool | list[dict[str, Any]] = False, *, match: Hashable = None,
) -> MatchResult:
    """``get(game_name).score(settings, hands)``, folded only from the first hand that differs
    from the hands this match was last scored with (the same answers and the same
    RuleViolation, naming its hand). ``trusted``: see the module's text. ``match``: which
    match this is (the web's match id; a file's path), its fold kept apart from every other
    match's; None: keyed by the game and settings alone (one match at a time: the command
    line)."""
    with gc_paused():
        return _score(game_name, settings, hands, trusted, match)


def _score(
    game_name: str, settings: dict[str, Any], hands: list[dict[str, Any]],
    trusted: bool | list[dict[str, Any]], match: Hashable,
) -> MatchResult:
    game = get(game_name)
    key = _key(game.name, settings, match)
    with _lock:
        folded = _take(key)
    if folded is None:
        start = game.fold(settings)
        folded = _Folded(type(start), states=[_state(start)])
    keep = common_start(folded.hands, hands)       # complete hands only: a draft is never kept
    n = len(hands)
    # how many hands, from the first, are trusted: with a list, those equal to its hands
    # (found through the cached hands where it holds those very objects, as a request's
    # stored hands are: no second comparison of every hand; else compared with it)
    if not isinstance(trusted, list):
        sure = n if trusted else 0
    elif keep:
        sure = min(keep, common_start(trusted, folded.hands))
    else:
        sure = common_start(hands, trusted)
    # and from the last: the stored hands after the one a change touches, where they name
    # their dealer (a hand without is read with the dealer due, which the change may move)
    after = n - _common_end(hands, trusted, n - sure) if isinstance(trusted, list) else n

    def trusted_at(number: int, names: bool | None = None) -> bool:
        """Is hand ``number`` trusted? (``names``: whether it names its dealer, where known.)"""
        if names is None:
            names = _names_dealer(hands[number - 1])
        return number <= sure or (number > after and names)

    # the outcomes of the hands last folded after the kept ones, by their place from the end:
    # where the same hand comes again at the same place from the end, its outcome is offered
    # to the fold (``prior``)
    old_hands, old_outcomes = folded.hands[keep:], folded.outcomes[keep:]
    old_checked = folded.checked[keep:]
    old_states = folded.states[keep:]         # the state before each of ``old_hands``
    shifts: str | None = getattr(folded.kind, "shifts", None)
    if folded.draft is not None:
        old_hands.append(folded.draft[0])
        old_checked.append(folded.draft[1])
        old_outcomes.append(folded.draft[3])
    again = _common_end(hands, old_hands, min(n - after, len(old_hands)))
    folded.hands[:keep] = hands[:keep]        # the caller's equal hands: found by identity next
    # the kept hands folded unchecked (found together: a long match's are all checked)
    for index in compress(range(sure, keep), map(not_, folded.checked[sure:keep])):
        if not trusted_at(index + 1):
            keep = index                      # folded unchecked: to be checked this time
            break
    draft, folded.draft = folded.draft, None
    if (draft is not None and keep == len(folded.hands) == n - 1
            and (draft[1] or trusted_at(n)) and _same(hands[-1], draft[0])):
        # the same hand in progress after the same hands: its fold is kept too
        folded.draft = draft
        fold = _resume(folded.kind, draft[2], folded.outcomes)
        fold.draft = draft[3]
        keep = n
    else:
        del folded.hands[keep:], folded.checked[keep:], folded.outcomes[keep:]
        del folded.states[keep + 1:]
        fold = _resume(folded.kind, folded.states[keep], folded.outcomes)
    word = game.hand_word.capitalize()
    # the fold's state after hands taken as they were, and how it differs from last time's
    shifted: dict[str, Any] | None = None
    difference: tuple[int, ...] | None = None
    try:
        number = keep
        while number < n:
            number += 1
            raw = hands[number - 1]
            back = n - number                 # its place from the end
            old = len(old_hands) - 1 - back if back < again else None
            # a hand checked in full once is checked: what a trusted fold skips reads only
            # the hand itself (the checks of its place in the match are never skipped), and
            # its dealer, where it names him
            names = _names_dealer(raw)
            checked = old is not None and old_checked[old] and names
            given = trusted_at(number, names)
            trusted_now = given or checked
            checked = checked or not given
            if trusted_now and old is not None and old + 1 < len(old_states):
                # a complete hand folded last time: taken as it was where the state before it
                # is the same (see the module's text)
                if shifted is None:           # else the state is last time's, shifted by it
                    difference = _difference(folded.states[-1], old_states[old], shifts)
                if difference is not None and (
                        shifts is not None or old_outcomes[old].number == number):
                    # and so are the later hands trusted likewise, as far as the last complete
                    # hand folded last time: taken together
                    checks = [checked]
                    last = min(n, number + len(old_states) - 2 - old)
                    for later in range(number + 1, last + 1):
                        names = _names_dealer(hands[later - 1])
                        given = trusted_at(later, names)
                        checked = old_checked[old + later - number] and names
                        if not (given or checked):
                            break
                        checks.append(checked or not given)
                    run = len(checks)
                    outcomes, states = _taken(old_outcomes[old:old + run],
                                              old_states[old + 1:old + 1 + run], number,
                                              difference, shifts)
                    shifted = states[-1]
                    folded.hands += hands[number - 1:number - 1 + run]
                    folded.checked += checks
                    folded.outcomes += outcomes
                    folded.states += states
                    fold.hands += outcomes
                    number += run - 1
                    continue
            if shifted is not None:
                fold.__dict__.update(_state_copy(shifted))
                shifted = None
            fold.trusted = trusted_now
            fold.prior = old_outcomes[old] if trusted_now and old is not None else None
            try:
                fold.add(number, raw, number == n)
            except RuleViolation as error:
                raise error.in_hand(number, word) from None
            if fold.draft is None:
                folded.hands.append(raw)
                folded.checked.append(checked)
                folded.outcomes.append(fold.hands[-1])
                folded.states.append(_state(fold))
            else:
                folded.draft = (raw, checked, _state(fold), fold.draft)
        if shifted is not None:
            fold.__dict__.update(_state_copy(shifted))
        return fold.result()          # type: ignore[no-any-return]
    finally:
        with _lock:
            _keep(key, folded)


def forget() -> None:
    """Drop every cached fold (a test's fresh start; a cold load in the benchmark)."""
    global _held
    with _lock:
        _cache.clear()
        _held = 0
