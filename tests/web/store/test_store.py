"""The store keeps facts only; a stored match that no longer scores is shown, not crashed on.

Each test runs on SQLite and on PostgreSQL (``db_app``, see tests/conftest.py)."""

from __future__ import annotations

import json
import re
from typing import Any

from flask import Flask

from referee.web.store import StaleMatch, Store
from store.storestate import put_back, snapshot

SETTINGS = {"players": ["Ágnes", "Tamás"], "target": 5, "first_dealer": 0}
GOOD = {"indicator": "8h", "exchange": None, "tricks": [], "bela": None,
        "end": {"kind": "played", "piles": [80, 71], "last": 0, "stichmatsch": None}}


def test_hands_are_stored_as_facts_and_undo_restores_them(db_store: Store) -> None:
    store = db_store
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


def test_a_stored_match_that_no_longer_scores_gives_409_and_its_file(db_app: Flask) -> None:
    store: Store = db_app.extensions["referee.store"]
    broken = dict(GOOD, end={"kind": "played", "piles": [80, 70], "last": 0,
                             "stichmatsch": None})
    match_id = store.create("tartli", SETTINGS, [broken])
    client = db_app.test_client()
    page = client.get(f"/m/{match_id}")
    assert page.status_code == 409
    assert "must add up to 151" in page.get_data(as_text=True)
    exported = client.get(f"/m/{match_id}/match.json")
    assert exported.status_code == 200
    assert json.loads(exported.data)["hands"][0]["end"]["piles"] == [80, 70]


def test_a_write_from_a_stale_read_is_refused(db_store: Store) -> None:
    store = db_store
    match_id = store.create("tartli", SETTINGS, [GOOD])
    other = dict(GOOD, indicator="9l")
    store.save_hands(match_id, [GOOD], [GOOD, other], "device 1")
    try:
        store.save_hands(match_id, [GOOD], [GOOD, dict(GOOD, indicator="Ab")], "device 2")
    except StaleMatch:
        pass
    else:
        raise AssertionError("a write based on an old read was stored")
    loaded = store.load(match_id)
    assert loaded is not None and loaded.hands == [GOOD, other]
    assert loaded.last_action == "device 1"


def test_undo_follows_a_database_put_back_to_an_earlier_state(db_app: Flask) -> None:
    """A database put back to an earlier state while the app runs (a backup restored, or
    the hostile test resetting its matches) takes the match to an older version; the events
    made since then get the same numbers as the ones the process read before. The process
    took those old events for the stored ones once the match was at their version again: its
    history named changes that no longer existed, and an undo put back a hand deleted
    and already put back (500: UNIQUE constraint failed: hands.match_id, hands.uid). Now the
    history and every undo follow the database."""
    store: Store = db_app.extensions["referee.store"]
    hands = [dict(GOOD, indicator=card) for card in ("8h", "9l", "Ab", "Kh", "Ol")]
    match_id = store.create("tartli", SETTINGS, hands[:1])
    store.save_hands(match_id, hands[:1], hands[:2], "Hand 2")
    saved = snapshot(db_app)
    store.save_hands(match_id, hands[:2], hands[:3], "Hand 3")
    store.save_hands(match_id, hands[:3], hands[:4], "Hand 4")
    store.undo(match_id)
    assert _labels(store, match_id) == ["Undone: Hand 4", "Hand 4", "Hand 3", "Hand 2",
                                        "Match started"]
    put_back(db_app, saved, {match_id})                 # as at "Hand 2" again
    assert _labels(store, match_id) == ["Hand 2", "Match started"]
    store.save_hands(match_id, hands[:2], hands[:1], "Hand 2 deleted", deletes=2)
    assert store.undo(match_id) == "Hand 2 deleted"
    store.save_hands(match_id, hands[:2], [*hands[:2], hands[4]], "Hand 3")
    assert _labels(store, match_id) == ["Hand 3", "Undone: Hand 2 deleted", "Hand 2 deleted",
                                        "Hand 2", "Match started"]
    assert store.undo(match_id) == "Hand 3"
    assert _stored(store, match_id) == hands[:2]
    assert store.undo(match_id) == "Hand 2"
    assert _stored(store, match_id) == hands[:1]
    assert store.undo(match_id) is None


def _labels(store: Store, match_id: str) -> list[str]:
    loaded = store.load(match_id, events=10)
    assert loaded is not None
    return [event.label for event in loaded.events]


def _stored(store: Store, match_id: str) -> list[dict[str, Any]]:
    loaded = store.load(match_id)
    assert loaded is not None
    return loaded.hands


def test_two_devices_starting_the_same_hand_store_it_once(db_app_nocsrf: Flask,
                                                          monkeypatch: Any) -> None:
    """The second device's write finds the hand already there: 409, its entry kept."""
    store: Store = db_app_nocsrf.extensions["referee.store"]
    real_save = Store.save_hands

    def other_device_first(self: Store, mid: str, before: Any, after: Any, label: str,
                           *rest: Any, **options: Any) -> None:
        monkeypatch.setattr(Store, "save_hands", real_save)
        real_save(self, mid, before, after, "other device")      # the other phone wins
        real_save(self, mid, before, after, label, *rest, **options)   # this one is now stale

    client = db_app_nocsrf.test_client()
    for htmx in (False, True):
        match_id = store.create("tartli", SETTINGS, [GOOD])
        monkeypatch.setattr(Store, "save_hands", other_device_first)
        headers = {"HX-Request": "true"} if htmx else {}
        response = client.post(f"/m/{match_id}/hands/2/indicator",
                               data={"indicator-indicator": "9l"}, headers=headers)
        assert response.status_code == 409, htmx
        page = response.get_data(as_text=True)
        assert "changed on another device meanwhile" in page
        assert re.search(r'value="9l"[^>]*\schecked', page)      # what was typed is kept
        loaded = store.load(match_id)
        assert loaded is not None and len(loaded.hands) == 2
        assert loaded.last_action == "other device"


def test_sqlite_runs_in_wal_mode_with_full_sync(app: Flask) -> None:
    """Crash safety on SQLite: write-ahead log, synced at every commit."""
    store: Store = app.extensions["referee.store"]
    with store.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 2      # FULL


def test_a_restore_is_taken_alike_with_and_without_the_version_read(db_store: Store) -> None:
    """The hand put back is the caller's, completed for its place (a Stovkahra deal deleted
    while a correction was pending comes back with the matchstick choice's team filled in): the
    store compares it with the deleted one neither when the change names the version it was
    read at nor when it compares every stored hand (the state machine found the second
    refusing what the first takes)."""
    store = db_store
    second = dict(GOOD, indicator="9l")
    completed = dict(second, dealer=1)
    for by_version in (True, False):
        match_id = store.create("tartli", SETTINGS, [GOOD, second])
        store.save_hands(match_id, [GOOD, second], [GOOD], "Hand 2 deleted", deletes=2)
        loaded = store.load(match_id, events=1)
        assert loaded is not None
        deleted = loaded.events[0].id
        found = store.deleted_hand(match_id, deleted)
        assert found is not None and found.facts == second
        store.save_hands(match_id, [GOOD], [GOOD, completed], "Hand 2 restored",
                         renumbers=True, restores=deleted,
                         version=loaded.version if by_version else None)
        restored = store.load(match_id)
        assert restored is not None and restored.hands == [GOOD, completed]
        assert store.undo(match_id) == "Hand 2 restored"
