"""The store keeps the hands it parsed and the events it read (issue 12: a request does not
decode a long match's every hand again, nor read its thousands of events): the parsed hands are
shared by every request and by the engine's fold cache, so no request may change them in place.
After edits, deletes, undos and a restore, what the app reads and scores is what the database
holds, scored from scratch."""

from __future__ import annotations

import pytest
from flask import Flask
from matches.test_heavy import PLAYERS, finish, seed_evening
from matches.test_scoring_once import bids
from webtools import Table

from referee.engine import scoring
from referee.engine.games.troggu import GAME as TROGGU
from referee.web.store import Store

HANDS = 12


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_changes_never_corrupt_the_parsed_hands(app: Flask, table: Table, htmx: bool) -> None:
    store: Store = app.extensions["referee.store"]
    mid = seed_evening(table, HANDS)
    assert table.get(f"/m/{mid}").status == 200
    table.done(bids(table, mid, HANDS + 1, htmx), htmx)              # a hand in progress
    table.done(finish(table, mid, 5, 40, htmx), htmx)                # an edit
    table.done(table.post(f"/m/{mid}/hands/3/delete", htmx=htmx), htmx)
    table.done(table.post(f"/m/{mid}/undo", htmx=htmx), htmx)
    table.done(table.post(f"/m/{mid}/hands/7/delete", htmx=htmx), htmx)
    event = store.load(mid, events=1).events[0].id                   # type: ignore[union-attr]
    table.done(table.post(f"/m/{mid}/changes/{event}/restore", htmx=htmx), htmx)
    table.done(finish(table, mid, 2, 70, htmx), htmx)
    assert table.get(f"/m/{mid}").status == 200

    cached = store.load(mid, events=100)
    fresh = Store(app.config["DATABASE_URL"]).load(mid, events=100)   # read anew
    assert cached is not None and fresh is not None
    assert cached.hands == fresh.hands
    # the history of changes kept too: each event as marked now (undone, restorable)
    assert cached.events == fresh.events and len(fresh.events) == 8
    assert cached.undoable == fresh.undoable is not None
    assert [e.undone for e in fresh.events] == [False] * 4 + [True] + [False] * 3
    assert len(fresh.hands) == HANDS + 1
    assert fresh.hands[4]["end"]["points"] == 40 and fresh.hands[1]["end"]["points"] == 70
    settings = TROGGU.settings({"players": PLAYERS, "first_dealer": 0})
    assert scoring.score("troggu", settings, cached.hands) == TROGGU.score(settings, fresh.hands)


def test_a_hand_changed_in_the_database_is_decoded_again(app: Flask, table: Table) -> None:
    """Only a hand whose stored text is the one parsed before is taken from the cache. (Every
    change gives the match a new version, as the store's own writes do: at the version it
    read, a process takes the match's hands as it kept them, test_kept_hands.py.)"""
    import json

    from sqlalchemy import update

    from referee.web.store import hands as rows
    from referee.web.store import matches

    store: Store = app.extensions["referee.store"]
    mid = seed_evening(table, 3)
    before = store.load(mid)
    assert before is not None
    changed = {**before.hands[1], "dealer": 2}
    with store.engine.begin() as conn:
        conn.execute(update(rows).where(rows.c.match_id == mid, rows.c.position == 1)
                     .values(facts=json.dumps(changed)))
        conn.execute(update(matches).where(matches.c.id == mid)
                     .values(version=matches.c.version + 1))
    after = store.load(mid)
    assert after is not None
    assert after.hands == [before.hands[0], changed, before.hands[2]]
    assert after.hands[0] is before.hands[0]                        # unchanged: not decoded
