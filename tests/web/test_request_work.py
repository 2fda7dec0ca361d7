"""What a change looks into (issue 12): the stored hands around the hand a change makes are
the store's very objects, found together, not looked into one by one, so that a change costs
about as much at hand 1,000 as at hand 10. What the table sees stays the same."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from matches.test_heavy import finish, seen_evening
from webtools import Table

from referee.engine.games.troggu import GAME as TROGGU
from referee.engine.games.troggu import match as troggu_match

HTMX = pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
HANDS = 30


@pytest.fixture
def evening(table: Table) -> str:
    """A Troggu evening of HANDS hands, its page seen once."""
    return seen_evening(table, HANDS)


@HTMX
def test_a_restored_hand_is_the_only_one_put_in_the_stores_form(
        app: Flask, table: Table, evening: str, htmx: bool,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A hand deleted early in the match and restored: the stored hands after it, moved one
    place on, are in the store's form already; only the restored hand is made so."""
    before = table.hands(evening)
    table.done(table.post(f"/m/{evening}/hands/5/delete", htmx=htmx), htmx)
    event = app.extensions["referee.store"].load(evening, events=1).events[0].id
    made: list[dict[str, Any]] = []
    canonical_hand = type(TROGGU).canonical_hand

    def spy(self: Any, raw: Any) -> dict[str, Any]:
        made.append(raw)
        return canonical_hand(self, raw)

    monkeypatch.setattr(type(TROGGU), "canonical_hand", spy)
    table.done(table.post(f"/m/{evening}/changes/{event}/restore", htmx=htmx), htmx)
    assert made == [before[4]]
    assert table.hands(evening) == before


@HTMX
def test_a_second_edit_looks_into_no_stored_hand_but_the_one_it_changes(
        app: Flask, table: Table, evening: str, htmx: bool,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Hand 10 edited twice, nothing added meanwhile: the first edit finds every stored hand
    complete (nothing to fill in: dealer and choices recorded), the second looks into none of
    them again but hand 10 as the first edit stored it."""
    table.done(finish(table, evening, 10, 61, htmx), htmx)
    stored = app.extensions["referee.store"].load(evening).hands     # the very hands kept
    looked: list[dict[str, Any]] = []
    nothing_to_fill = troggu_match._nothing_to_fill

    def spy(hand: dict[str, Any]) -> bool:
        looked.append(hand)
        return nothing_to_fill(hand)

    monkeypatch.setattr(troggu_match, "_nothing_to_fill", spy)
    table.done(finish(table, evening, 10, 70, htmx), htmx)
    assert [n for n, hand in enumerate(stored, 1) if any(hand is h for h in looked)] == [10]
    assert table.hands(evening)[9]["end"]["points"] == 70
