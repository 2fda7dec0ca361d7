"""The store against a model (issue 21, item 4): a Hypothesis state machine makes random
adds, edits, deletes, restores and undos to a match of each game, with the corrections of
later hands a change across a tie or a game end needs (corrections.plans, as the pages offer
them), on SQLite and on PostgreSQL, and after every step:

* the stored hands are the model's list, read by either of two stores on the same database
  (two server processes, each with its own kept hands and history);
* the change an undo takes back is the model's latest one, and the undo gives back exactly
  the hands that stood before it;
* a delete can be put back exactly while the model says so, with the hand it took out;
* the stored hands still score (the app stores only what the rules take);
* all this also after the match was put back to an earlier state behind the stores' backs
  (a backup restored while the server runs, as the hostile test resets its matches):
  events made since then take the numbers of the events the database lost;
* nothing is raised but the app's own refusals: a change or an undo made on a match read
  before another change is refused (StaleMatch) and changes nothing.

Each test case plays one new match (the database is the test's own; a new match starts
from nothing); its hands are simulated by the engine tests' table simulators, and a Tartli
match starts now and then from a tie (both at 536, a decider due)."""

from __future__ import annotations

import copy
import json
import random
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)
from webtools import TIE_HANDS, A, B, decider, hand, played

from referee.engine import scoring
from referee.engine.errors import RuleViolation
from referee.engine.games import get
from referee.engine.words import T, Text
from referee.web.matches.corrections import plans
from referee.web.store import StaleMatch, Store
from store.storestate import MatchState, put_back, snapshot

ENGINE_TESTS = str(Path(__file__).resolve().parents[2] / "engine")
if ENGINE_TESTS not in sys.path:
    sys.path.insert(0, ENGINE_TESTS)

import marjolet_helpers as mj  # noqa: E402
import stovkahra_helpers as sk  # noqa: E402
import tartli_helpers as ta  # noqa: E402
import troggu_helpers as tg  # noqa: E402

EXAMPLES = 15             # test cases per game and database
STEPS = 25                # steps per test case
GAMES = ["marjolet", "stovkahra", "tartli", "troggu"]

Facts = dict[str, Any]

# Tartli: hand 2 with Ágnes's pile 70, not 76: no tie, so the decider after it no longer fits
NO_TIE_2 = hand("8h", "", None, played((70, 81), A))


def _settings(game: str, rng: random.Random) -> dict[str, Any]:
    """Small targets, so that games and matches end (and a change moves the end)."""
    if game == "tartli":
        return ta.settings(first_dealer=A, target=rng.choice([2, 3, 5]))
    if game == "marjolet":
        return mj.settings(first_dealer=rng.randrange(2), target=500)
    if game == "stovkahra":
        return sk.settings(first_dealer=rng.randrange(4), target=rng.choice([2, 3]))
    return tg.settings(rng.randint(3, 6), first_dealer=0)


def _dealt(game: str, settings_: dict[str, Any], rng: random.Random, dealer: int) -> Facts:
    """A hand played by the rules at random, dealt by ``dealer``."""
    if game == "tartli":
        return ta.simulate_hand(rng, dealer, claim_chance=0.2).facts
    if game == "marjolet":
        return mj.simulate_hand(rng, dealer).facts
    if game == "stovkahra":
        return {**sk.simulate_deal(rng, dealer, dost_chance=0.3).facts,
                "sticks": rng.choice(["add", "take", None])}
    return tg.simulate_hand(rng, len(settings_["players"]), dealer).facts


def _canonical(game: str, settings_: dict[str, Any], hands: list[Facts]) -> list[Facts]:
    """The hands as the pages store them: canonical, every proposed fact (the dealer) filled
    in, as JSON gives them back."""
    rules = get(game)
    done = rules.complete(settings_, [rules.canonical_hand(h) for h in hands])
    return json.loads(json.dumps(done))          # type: ignore[no-any-return]


@dataclass
class Change:
    """A change the model knows, as the store's history has it."""

    label: str
    before: list[Facts]       # the hands before it: what its undo gives back
    event: int
    deleted: Facts | None = None          # a delete: the hand it took out
    number: int = 0                       # a delete: the number its hand had
    restores: int | None = None           # a restore: the delete whose hand it put back
    undone: bool = False
    restored_by: int | None = None        # a delete: the standing restore of its hand


STEPS_SEEN: dict[str, int] = {}           # kinds of step taken, over every test case


def _machine(game: str, url: str) -> type[RuleBasedStateMachine]:
    stores: list[Store] = [Store(url), Store(url)]     # two processes on one database

    class StoreModel(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            self.rng = random.Random()
            self.settings: dict[str, Any] = {}
            self.hands: list[Facts] = []
            self.changes: list[Change] = []   # every change and restore, oldest first
            self.step = 0
            self.match = ""
            self.backup: tuple[MatchState, list[Facts], list[Change]] | None = None

        # -- the match -------------------------------------------------------------------

        @initialize(seed=st.integers(0, 2**32 - 1), start=st.integers(0, 6),
                    tie=st.booleans())
        def start(self, seed: int, start: int, tie: bool) -> None:
            self.rng.seed(seed)
            self.settings = _settings(game, self.rng)
            hands: list[Facts] = []
            if game == "tartli" and tie:
                self.settings = ta.settings(first_dealer=A, target=5)
                hands = [*TIE_HANDS, decider(self.rng.choice([A, B]))]
            for _ in range(start):
                more = self._next(hands)
                if more is None:
                    break
                hands = more
            self.hands = _canonical(game, self.settings, hands)
            self.match = stores[0].create(game, self.settings, self.hands)

        def _next(self, hands: list[Facts]) -> list[Facts] | None:
            """``hands`` and one more, as the rules take it; None when they take none."""
            try:
                standing = scoring.score(game, self.settings, hands).standing
            except RuleViolation:
                return None
            if standing.next_hand == "decider":
                new = decider(self.rng.choice([A, B]))
            else:
                new = _dealt(game, self.settings, self.rng, standing.dealer)
            more = _canonical(game, self.settings, [*hands, new])
            try:
                scoring.score(game, self.settings, more)
            except RuleViolation:
                return None
            return more

        def _store(self) -> Store:
            return self.rng.choice(stores)

        def _label(self, what: str) -> str:
            """A label of the history: a sentence (said in each phone's language), or plain
            words as labels were before (issue 22)."""
            self.step += 1
            if self.rng.random() < 0.3:
                return f"{what} (step {self.step})"
            return T("%(what)s (step %(step)s)", what=T(what), step=self.step)

        def _seen(self, kind: str) -> None:
            STEPS_SEEN[kind] = STEPS_SEEN.get(kind, 0) + 1

        def _corrected(self, hands: list[Facts], later: int, shown: list[int],
                       way: int) -> tuple[list[Facts], bool] | None:
            """``hands`` (a change just made) as the page stores them: as they are if they
            score, else with the correction of later hands the table chose (``way`` among
            those offered); None if the change is refused."""
            try:
                scoring.score(game, self.settings, hands)
                return hands, False
            except RuleViolation as problem:
                found = plans(get(game), self.settings, hands, problem, later, shown)
            if not found:
                return None
            chosen = found[way % len(found)]
            return _canonical(game, self.settings, chosen.hands), True

        def _save(self, hands: list[Facts], label: str, **options: Any) -> Change:
            """Store the change from the model's hands to ``hands`` (checked against the
            version read, as the pages do, or against every stored hand); the model's record
            of it."""
            store = self._store()
            loaded = store.load(self.match)
            assert loaded is not None
            version = loaded.version if self.rng.random() < 0.7 else None
            store.save_hands(self.match, loaded.hands, hands, label, "model",
                             version=version, **options)
            latest = self._latest()
            assert latest.label == label
            assert isinstance(latest.label, Text) == isinstance(label, Text)
            change = Change(label, self.hands, latest.id)
            self.changes.append(change)
            self.hands = hands
            return change

        def _latest(self) -> Any:
            loaded = self._store().load(self.match, events=1)
            assert loaded is not None
            return loaded.events[0]

        # -- the steps -------------------------------------------------------------------

        @rule()
        def add(self) -> None:
            more = self._next(self.hands)
            if more is None:
                self._seen("add refused")
                return
            self._seen("add")
            self._save(more, self._label("Hand added"))

        @precondition(lambda self: self.hands)
        @rule(data=st.data(), way=st.integers(0, 11), seek=st.booleans())
        def edit(self, data: st.DataObject, way: int, seek: bool) -> None:
            """Hand ``index`` played otherwise; with ``seek``, played otherwise until later
            hands no longer fit (a few tries: a change across the end of a game or a tie)."""
            index = data.draw(st.integers(0, len(self.hands) - 1), label="hand")
            made = None
            for _ in range(8 if seek else 1):
                hands = _canonical(game, self.settings, [
                    *self.hands[:index], self._otherwise(index), *self.hands[index + 1:]])
                made = self._corrected(hands, index + 2, list(range(1, len(hands) + 1)), way)
                if made is not None and made[1]:
                    break
            if made is None or made[0] == self.hands:
                self._seen("edit refused")
                return
            self._seen("edit with correction" if made[1] else "edit")
            self._save(made[0], self._label(f"Hand {index + 1} edited"),
                       renumbers=len(made[0]) != len(self.hands))

        def _otherwise(self, index: int) -> Facts:
            """Hand ``index`` (0-based) played otherwise, by its dealer."""
            end = self.hands[index].get("end")
            if game == "tartli" and index == 1 and self.rng.random() < 0.5:
                return self.rng.choice([TIE_HANDS[1], NO_TIE_2])     # a tie made or unmade
            if isinstance(end, dict) and end.get("kind") == "decider":
                return decider(1 - end["first"])
            result = scoring.score(game, self.settings, self.hands)
            dealer = (result.hands[index].dealer if index < len(result.hands)
                      else result.standing.dealer)
            return _dealt(game, self.settings, self.rng, dealer)

        @precondition(lambda self: self.hands)
        @rule(data=st.data(), way=st.integers(0, 11))
        def delete(self, data: st.DataObject, way: int) -> None:
            number = data.draw(st.integers(1, len(self.hands)), label="number")
            kept = get(game).complete(self.settings, self.hands, len(self.hands))
            shown = [n for n in range(1, len(self.hands) + 1) if n != number]
            made = self._corrected(kept[: number - 1] + kept[number:], number, shown, way)
            if made is None:
                self._seen("delete refused")
                return
            self._seen("delete with correction" if made[1] else "delete")
            deleted = self.hands[number - 1]
            change = self._save(made[0], self._label(f"Hand {number} deleted"),
                                renumbers=True, deletes=number)
            change.deleted, change.number = deleted, number

        @rule(pick=st.integers(0, 100), way=st.integers(0, 11))
        def restore(self, pick: int, way: int) -> None:
            deletes = [c for c in self.changes if c.deleted is not None]
            if not deletes:
                return
            delete = deletes[pick % len(deletes)]
            found = self._store().deleted_hand(self.match, delete.event)
            restorable = not delete.undone and delete.restored_by is None
            assert (found is not None) == restorable, (delete, found)
            if found is None:
                self._seen("restore refused")
                return
            assert found.facts == delete.deleted and found.number == delete.number
            if all(c.undone for c in self.changes[self.changes.index(delete) + 1:]):
                assert found.at == delete.number      # nothing changed since: its own place
            hands = _canonical(game, self.settings, [
                *self.hands[: found.at - 1], found.facts, *self.hands[found.at - 1:]])
            made = self._corrected(hands, found.at + 1, list(range(1, len(hands) + 1)), way)
            if made is None:
                self._seen("restore refused")
                return
            self._seen("restore with correction" if made[1] else "restore")
            change = self._save(made[0], self._label(f"Hand {found.at} restored"),
                                renumbers=True, restores=delete.event)
            change.restores = delete.event
            delete.restored_by = change.event

        @rule(expected=st.booleans())
        def undo(self, expected: bool) -> None:
            standing = [c for c in self.changes if not c.undone]
            store = self._store()
            if not standing:
                self._seen("undo of nothing")
                assert store.undo(self.match) is None
                return
            top = standing[-1]
            self._seen("undo")
            label = store.undo(self.match, "model", top.event if expected else None)
            assert label == top.label
            undone = self._latest().label
            assert undone == f"Undone: {top.label}" and isinstance(undone, Text)
            top.undone = True
            if top.restores is not None:
                for change in self.changes:
                    if change.event == top.restores:
                        change.restored_by = None
            self.hands = top.before

        @precondition(lambda self: self.changes)
        @rule(undo=st.booleans())
        def stale(self, undo: bool) -> None:
            """A change or an undo sent from a page read before the latest change: refused,
            and nothing stored."""
            self._seen("stale refused")
            store = self._store()
            loaded = store.load(self.match)
            assert loaded is not None
            with pytest.raises(StaleMatch):
                if undo:
                    store.undo(self.match, "model", self._latest().id - 1)
                else:
                    store.save_hands(self.match, loaded.hands, loaded.hands[:-1], "stale",
                                     version=loaded.version - 1)

        @rule()
        def back_up(self) -> None:
            self._seen("backup")
            saved = snapshot(stores[0])[self.match]
            self.backup = (saved, self.hands, copy.deepcopy(self.changes))

        @precondition(lambda self: self.backup is not None)
        @rule()
        def restore_backup(self) -> None:
            """The match put back as it was at the backup, behind the stores' backs."""
            assert self.backup is not None
            self._seen("backup put back")
            saved, self.hands, changes = self.backup
            put_back(stores[0], {self.match: saved}, {self.match})
            self.changes = copy.deepcopy(changes)

        # -- after every step ------------------------------------------------------------

        @invariant()
        def stored_as_modelled(self) -> None:
            if not self.match:
                return
            for store in stores:
                loaded = store.load(self.match, events=1)
                assert loaded is not None
                assert loaded.hands == self.hands
                standing = [c for c in self.changes if not c.undone]
                assert (loaded.last_action
                        == (standing[-1].label if standing else None))
            scoring.score(game, self.settings, self.hands)      # every stored state scores

    StoreModel.stores = stores        # type: ignore[attr-defined]
    return StoreModel


@pytest.fixture
def machine(database_url: str) -> Iterator[Callable[[str], type[RuleBasedStateMachine]]]:
    made: list[type[RuleBasedStateMachine]] = []

    def make(game: str) -> type[RuleBasedStateMachine]:
        made.append(_machine(game, database_url))
        return made[-1]

    yield make
    for machine_ in made:
        for store in machine_.stores:           # type: ignore[attr-defined]
            store.engine.dispose()


@pytest.mark.parametrize("game", GAMES)
def test_the_store_keeps_what_the_model_keeps(
        machine: Callable[[str], type[RuleBasedStateMachine]], game: str) -> None:
    STEPS_SEEN.clear()
    run_state_machine_as_test(machine(game), settings=settings(
        max_examples=EXAMPLES, stateful_step_count=STEPS, deadline=None,
        suppress_health_check=[HealthCheck.too_slow]))
    print(f"\n{game}: {dict(sorted(STEPS_SEEN.items()))}")
