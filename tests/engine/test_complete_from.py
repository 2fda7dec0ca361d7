"""``Game.complete(settings, hands, start)``: the hands before ``start`` are stored hands,
complete already, and completing resumes after them (issue 12: a change at hand 1,000 costs as
one at 10). The result is always the one completing every hand gives, even where a stored hand
is not complete (an old file's hand without its dealer or without the maker of its call)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from referee.engine import matchfile
from referee.engine.games import get
from referee.engine.games.troggu.values import FORCED, NORMAL

DATA = Path(__file__).resolve().parents[1] / "data"
FILES = ["tartli-short", "stovkahra-series", "marjolet-game", "troggu-evening"]


def match(name: str) -> tuple[Any, dict[str, Any], list[dict[str, Any]]]:
    m = matchfile.load((DATA / f"{name}.json").read_bytes())
    return get(m.game), m.settings, m.hands


def old(hand: dict[str, Any]) -> dict[str, Any]:
    """``hand`` as an old version stored it: no dealer, no maker of its call or discard."""
    hand = json.loads(json.dumps(hand))
    hand.pop("dealer", None)
    if isinstance(hand.get("call"), dict):
        hand["call"].pop("by", None)
    hand.pop("discard_by", None)
    return hand


@pytest.mark.parametrize("name", FILES)
def test_completing_from_any_hand_is_completing_them_all(name: str) -> None:
    game, settings, hands = match(name)
    whole = game.complete(settings, hands)
    for start in range(len(hands) + 2):
        assert game.complete(settings, hands, start) == whole, start


@pytest.mark.parametrize("name", FILES)
def test_a_change_completed_from_its_hand_is_completed_as_a_whole(name: str) -> None:
    """Hands from ``start`` on as a change writes them (old ones among them): the stored hands
    before it are kept as they are, the later ones completed as completing all does."""
    game, settings, hands = match(name)
    for start in range(len(hands) + 1):
        changed = [*hands[:start], *(old(h) for h in hands[start:])]
        completed = game.complete(settings, changed, start)
        assert completed == game.complete(settings, changed), start
        assert all(a is b for a, b in zip(completed[:start], hands[:start], strict=True)) \
            or game.name == "stovkahra"          # Stovkahra copies every deal it completes


@pytest.mark.parametrize("name", FILES)
def test_an_old_stored_hand_before_the_start_is_completed_too(name: str) -> None:
    """A stored hand that is not complete (stored by an old version) is filled in all the
    same: the result never depends on ``start``."""
    game, settings, hands = match(name)
    for hand in range(len(hands)):
        stored = [*hands[:hand], old(hands[hand]), *hands[hand + 1:]]
        whole = game.complete(settings, stored)
        for start in (hand, hand + 1, len(hands)):
            assert game.complete(settings, stored, start) == whole, (hand, start)


def test_an_old_troggu_discard_before_the_start_gets_its_maker() -> None:
    """Troggu: a stored discard without its maker (the Tappist, 4.5.2) before the start."""
    game, settings, hands = match("troggu-evening")
    discarded = [n for n, h in enumerate(hands)
                 if h.get("game") in (NORMAL, FORCED) and h.get("discard_by") is not None]
    assert discarded
    n = discarded[-1]
    stored = [*hands[:n], old(hands[n]), *hands[n + 1:]]
    completed = game.complete(settings, stored, len(stored))
    assert completed[n]["discard_by"] == hands[n]["discard_by"]
    assert completed[n]["dealer"] == hands[n]["dealer"]


def test_troggu_checks_a_stored_hand_before_the_start_once_per_process(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    """The stored hands before the start are found complete once: a later change starting
    after them (the next request) does not look into them again; a hand equal to one of them
    but another object (not yet seen, e.g. another match's) is looked into."""
    from referee.engine.games.troggu import match as troggu_match

    game, settings, hands = match("troggu-evening")
    game.complete(settings, hands, len(hands))
    looked: list[object] = []
    fillable = troggu_match.fillable

    def spy(hand: dict[str, Any]) -> bool:
        looked.append(hand)
        return fillable(hand)

    monkeypatch.setattr(troggu_match, "fillable", spy)
    assert game.complete(settings, hands, len(hands)) == hands
    assert looked == []
    copies = json.loads(json.dumps(hands))
    assert game.complete(settings, copies, len(copies)) == hands
    assert len(looked) == len(hands)


def test_troggu_does_not_remember_a_hand_after_the_start() -> None:
    """A hand after the start may be a copy an action is about to change (the hand it edits):
    a discard recorded in it afterwards without its maker is completed all the same (the
    Tappist, 4.4)."""
    game, settings, hands = match("troggu-evening")
    at = next(n for n, hand in enumerate(hands) if hand.get("discard_by") is not None)
    edited = json.loads(json.dumps(hands[at]))
    listed = [*hands[:at], edited, *hands[at + 1:]]
    assert game.complete(settings, listed, at)[at] is edited        # nothing to fill in
    maker = edited.pop("discard_by")                                 # changed in place
    assert game.complete(settings, listed, at)[at]["discard_by"] == maker


def test_troggu_looks_only_into_the_hand_a_change_makes(monkeypatch: pytest.MonkeyPatch) -> None:
    """A change of one hand in the middle, once the stored hands were found complete: only the
    changed hand (a copy) is looked into, not the stored hands before or after it one by one
    (issue 12: at 1,000 hands they are found together, by identity)."""
    from referee.engine.games.troggu import match as troggu_match

    game, settings, hands = match("troggu-evening")
    game.complete(settings, hands, len(hands))
    looked: list[object] = []
    nothing_to_fill = troggu_match._nothing_to_fill

    def spy(hand: dict[str, Any], *more: Any) -> bool:
        looked.append(hand)
        return nothing_to_fill(hand, *more)

    monkeypatch.setattr(troggu_match, "_nothing_to_fill", spy)
    at = len(hands) // 2
    edited = json.loads(json.dumps(hands[at]))
    listed = [*hands[:at], edited, *hands[at + 1:]]
    assert game.complete(settings, listed, at) == hands
    assert looked == [edited]
