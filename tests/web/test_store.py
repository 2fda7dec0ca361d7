"""The store keeps facts only; a stored match that no longer scores is shown, not crashed on."""

from __future__ import annotations

import json

from flask import Flask

from referee.web.store import Store

SETTINGS = {"players": ["Ágnes", "Tamás"], "target": 5, "first_dealer": 0}
GOOD = {"indicator": "8h", "exchange": None, "tricks": [], "bela": None,
        "end": {"kind": "played", "piles": [80, 71], "last": 0, "stichmatsch": None}}


def test_hands_are_stored_as_facts_and_undo_restores_them(app: Flask) -> None:
    store: Store = app.extensions["referee.store"]
    match_id = store.create("tartli", SETTINGS, [GOOD])
    second = dict(GOOD, indicator="9l")
    store.save_hands(match_id, [GOOD], [GOOD, second], "Hand 2")
    loaded = store.load(match_id)
    assert loaded is not None and loaded.hands == [GOOD, second]
    assert loaded.last_action == "Hand 2"
    assert store.undo(match_id) == "Hand 2"
    again = store.load(match_id)
    assert again is not None and again.hands == [GOOD] and again.last_action is None
    assert store.undo(match_id) is None


def test_a_stored_match_that_no_longer_scores_gives_409_and_its_file(app: Flask) -> None:
    store: Store = app.extensions["referee.store"]
    broken = dict(GOOD, end={"kind": "played", "piles": [80, 70], "last": 0,
                             "stichmatsch": None})
    match_id = store.create("tartli", SETTINGS, [broken])
    client = app.test_client()
    page = client.get(f"/m/{match_id}")
    assert page.status_code == 409
    assert "must add up to 151" in page.get_data(as_text=True)
    exported = client.get(f"/m/{match_id}/match.json")
    assert exported.status_code == 200
    assert json.loads(exported.data)["hands"][0]["end"]["piles"] == [80, 70]
