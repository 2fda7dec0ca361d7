"""The rows of the hand history are rendered once for what they show (issue 12: rows.py), so a
process that has shown a match before shows every row as a process that never saw it does:
after an edit that changes the totals below it, a delete that renumbers the hands, an undo,
and by the view link as by the edit link."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from webtools import A, B, Table, hand, played

from referee import create_app
from referee.engine.games.tartli import GAME
from referee.web.store import Store

X = hand("8h", end=played((80, 71), A))
Y = hand("9l", end=played((100, 51), A))
Z = hand("Ab", end=played((60, 91), B))


def history(app: Flask, token: str) -> str:
    """The match page's hand history as ``app`` shows it."""
    page = app.test_client().get(f"/m/{token}").get_data(as_text=True)
    found = re.search(r'<section class="history".*?</section>', page, re.S)
    assert found is not None
    return found.group(0)


def as_a_new_process_shows_it(app: Flask, token: str) -> str:
    shown = history(app, token)
    fresh = create_app({"TESTING": True, "DATABASE_URL": app.config["DATABASE_URL"]})
    try:
        assert shown == history(fresh, token)
    finally:
        fresh.extensions["referee.store"].engine.dispose()
    return shown


def test_every_row_shows_its_hand_as_it_stands(app: Flask, table: Table) -> None:
    store: Store = app.extensions["referee.store"]
    mid = table.seed([X, Y, Z])
    view = store.load(mid)
    assert view is not None
    first = as_a_new_process_shows_it(app, mid)
    as_a_new_process_shows_it(app, view.view_token)
    before = view.hands

    # hand 1 edited: hands 2 and 3 keep their scores, not their totals
    edited = [GAME.canonical_hand(hand("8h", end=played((71, 80), B))), *before[1:]]
    store.save_hands(mid, before, edited, "Hand 1 edited")
    rows = as_a_new_process_shows_it(app, mid)
    assert re.findall(r"total \d+", rows)[2:] != re.findall(r"total \d+", first)[2:]
    as_a_new_process_shows_it(app, view.view_token)

    # hand 1 deleted: every row is another hand's, with new bases
    store.save_hands(mid, edited, edited[1:], "Hand 1 deleted", renumbers=True, deletes=1)
    assert as_a_new_process_shows_it(app, mid).count('<li class="hand') == 2
    as_a_new_process_shows_it(app, view.view_token)

    # both taken back: the rows as they were shown first
    store.undo(mid)
    store.undo(mid)
    unbased = re.compile(r"base=[\w-]+")      # a form's base counts the deletes and undos
    assert unbased.sub("", as_a_new_process_shows_it(app, mid)) == unbased.sub("", first)
    assert as_a_new_process_shows_it(app, view.view_token).count("Edit</a>") == 0


def test_an_edit_renders_no_later_row_again_for_its_totals(
        app: Flask, table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """Hand 1 edited: hands 2 and 3 keep everything but their totals, which their kept rows
    take as they are shown (issue 12: an edit early in a long match changes the totals of
    every row on the page); only hand 1's row is rendered again."""
    store: Store = app.extensions["referee.store"]
    mid = table.seed([X, Y, Z])
    first = as_a_new_process_shows_it(app, mid)
    before = store.load(mid).hands                                   # type: ignore[union-attr]
    kept = app.extensions["referee.rows"]
    rendered: list[object] = []
    put = kept.put

    def counted(key: object, row: object) -> None:
        rendered.append(key)
        put(key, row)

    monkeypatch.setattr(kept, "put", counted)
    edited = [GAME.canonical_hand(hand("8h", end=played((71, 80), B))), *before[1:]]
    store.save_hands(mid, before, edited, "Hand 1 edited")
    rows = as_a_new_process_shows_it(app, mid)
    assert re.findall(r"total \d+", rows)[2:] != re.findall(r"total \d+", first)[2:]
    assert len(rendered) == 1
