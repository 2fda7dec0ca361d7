"""A circle's people changed after the fact (issue 24): rename a person, merge two people into
one, take a match out of the circle, and the circle's history, each change undone; refusals
leave every table as it was. On SQLite and PostgreSQL (``db_app``)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import select
from store.storestate import snapshot

from referee.web.store import (
    CHANGED,
    CircleRefused,
    Circles,
    NotInCircle,
    circle_changes,
    circle_matches,
    circle_players,
    circle_seats,
    circles,
)
from referee.web.store import circlechanges as people

TARTLI = {"players": ["Anna", "Béla"], "target": 5, "first_dealer": 0}
HANDS = [{"dealer": 0, "winner": 0, "points": 2}]


def circles_of(app: Flask) -> Circles:
    found: Circles = app.extensions["referee.circles"]
    return found


def all_rows(app: Flask) -> dict[str, list[Any]]:
    """Every circle table's rows and every match's stored state (a circle without its
    version, a counter of its changes that an undo moves on too: the caches' key)."""
    engine = app.extensions["referee.store"].engine
    with engine.connect() as conn:
        rows = {t.name: sorted(map(tuple, conn.execute(
                    select(*(c for c in t.c if c is not circles.c.version))).all()), key=repr)
                for t in (circles, circle_players, circle_matches, circle_seats, circle_changes)}
    return {**rows, "matches": sorted(snapshot(app))}


def _names(store: Circles, token: str) -> dict[str, int]:
    circle = store.load(token)
    assert circle is not None
    return {p.name: p.id for p in circle.players}


def _seats(store: Circles, token: str) -> dict[str, tuple[int, ...]]:
    return {m.id: m.people for m in store.matches(token)}


def _version(store: Circles, token: str) -> int:
    return people.version_of(store, token)


@pytest.fixture
def club(db_app: Flask) -> tuple[Circles, str, dict[str, str]]:
    """A circle: Anna and Béla played twice, "Anna B." and Béla once, Carla and Béla once."""
    store = circles_of(db_app)
    token = store.create("Club")
    played = {
        "one": store.start_match(token, "tartli", TARTLI, ["Anna", "Béla"],
                                 created=datetime(2026, 11, 1, 19)),
    }
    ids = _names(store, token)
    played["two"] = store.start_match(token, "tartli", TARTLI, [ids["Béla"], ids["Anna"]],
                                      created=datetime(2026, 11, 8, 19))
    played["b"] = store.start_match(token, "tartli", TARTLI, ["Anna B.", ids["Béla"]],
                                    created=datetime(2026, 11, 15, 19))
    played["carla"] = store.start_match(token, "tartli", TARTLI, ["Carla", ids["Béla"]],
                                        created=datetime(2026, 11, 22, 19))
    return store, token, played


def test_a_rename_names_the_person_everywhere_in_the_circle_and_keeps_the_match_records(
        db_app: Flask, club: tuple[Circles, str, dict[str, str]]) -> None:
    store, token, played = club
    ids = _names(store, token)
    people.rename(store, token, ids["Anna B."], "Anna Berger", _version(store, token), "Phone")
    assert _names(store, token) == {"Anna": ids["Anna"], "Béla": ids["Béla"],
                                    "Anna Berger": ids["Anna B."], "Carla": ids["Carla"]}
    # the match's own record keeps the names its table entered
    stored = db_app.extensions["referee.store"].load(played["b"])
    assert stored is not None and stored.settings["players"] == ["Anna", "Béla"]
    [latest, *_] = people.history(store, token, 10)
    assert (latest.label, latest.device, latest.kind, latest.undoable) == (
        "Anna B. renamed Anna Berger", "Phone", "rename", True)
    # a name differing only in case is the same person's: allowed
    people.rename(store, token, ids["Carla"], "CARLA", None)
    assert "CARLA" in _names(store, token)


def test_a_rename_to_a_taken_name_or_from_another_circle_is_refused_nothing_changed(
        db_app: Flask, club: tuple[Circles, str, dict[str, str]]) -> None:
    store, token, _ = club
    ids = _names(store, token)
    other = store.create("Other")
    zoe = store.add_player(other, "Zoe")
    before = all_rows(db_app)
    with pytest.raises(CircleRefused, match="Anna is already a player of this circle: pick "
                       "another name"):
        people.rename(store, token, ids["Anna B."], "anna\u200b", None)
    with pytest.raises(NotInCircle):
        people.rename(store, token, zoe, "Zora", None)
    with pytest.raises(NotInCircle):
        people.rename(store, other, ids["Anna"], "Zora", None)
    with pytest.raises(CircleRefused, match="name already"):
        people.rename(store, token, ids["Anna"], "Anna", None)
    assert all_rows(db_app) == before


def test_a_merge_moves_the_seats_and_the_counts_and_is_refused_when_both_sat_in_one_match(
        db_app: Flask, club: tuple[Circles, str, dict[str, str]]) -> None:
    store, token, played = club
    ids = _names(store, token)
    assert people.played_counts(store, token) == {ids["Anna"]: 2, ids["Béla"]: 4,
                                                  ids["Anna B."]: 1, ids["Carla"]: 1}
    before = all_rows(db_app)
    found = people.clash(store, token, ids["Anna"], ids["Béla"])
    assert found is not None and found.match_id == played["one"]
    with pytest.raises(CircleRefused, match=r"Béla and Anna both sat at the Tartli match of "
                       r"2026-11-01 \(Anna – Béla\): a match cannot have one person twice"):
        people.merge(store, token, ids["Béla"], ids["Anna"], None)
    with pytest.raises(CircleRefused, match="themselves"):
        people.merge(store, token, ids["Anna"], ids["Anna"], None)
    assert all_rows(db_app) == before
    people.merge(store, token, ids["Anna B."], ids["Anna"], _version(store, token), "Phone")
    assert "Anna B." not in _names(store, token)
    assert people.played_counts(store, token)[ids["Anna"]] == 3
    assert _seats(store, token)[played["b"]] == (ids["Anna"], ids["Béla"])
    assert people.history(store, token, 1)[0].label == "Anna B. merged into Anna (1 match)"


def test_a_removed_match_stays_with_its_links_and_leaves_the_circle_with_its_seats(
        db_app: Flask, club: tuple[Circles, str, dict[str, str]]) -> None:
    store, token, played = club
    other = store.create("Other")
    before = all_rows(db_app)
    with pytest.raises(NotInCircle):
        people.remove_match(store, other, played["one"], None)
    with pytest.raises(NotInCircle):
        people.remove_match(store, token, "x" * 22, None)
    assert all_rows(db_app) == before
    matches_before = snapshot(db_app)
    people.remove_match(store, token, played["carla"], _version(store, token), "Phone")
    assert played["carla"] not in _seats(store, token)
    assert store.circle_of(played["carla"]) is None
    assert snapshot(db_app) == matches_before                  # the match itself: untouched
    assert people.history(store, token, 1)[0].label == (
        "Tartli match of 2026-11-22 left the circle: Carla – Béla")
    # it can join a circle again
    store.add_match(other, played["carla"], ["Carla", "Béla"])


def test_each_change_undone_puts_the_circle_back_as_it_was(
        db_app: Flask, club: tuple[Circles, str, dict[str, str]]) -> None:
    store, token, played = club
    ids = _names(store, token)

    def undo_latest() -> None:
        latest = people.history(store, token, 1)[0]
        people.undo(store, token, latest.id, "Phone")
        assert people.history(store, token, 1)[0].label.startswith("Undone: ")

    def tables() -> dict[str, list[Any]]:
        return {k: v for k, v in all_rows(db_app).items() if k != "circle_changes"}

    for change in (
        lambda: people.rename(store, token, ids["Anna B."], "Anna Berger", None),
        lambda: people.merge(store, token, ids["Anna B."], ids["Anna"], None),
        lambda: people.remove_match(store, token, played["two"], None),
        lambda: store.add_player(token, "Dora"),
        lambda: store.start_match(token, "tartli", TARTLI, [ids["Anna"], ids["Carla"]]),
    ):
        before = tables()
        change()
        assert tables() != before
        undo_latest()
        assert {k: v for k, v in tables().items() if k != "matches"} == {
            k: v for k, v in before.items() if k != "matches"}
    # a match added from its link: undone, it leaves the circle
    other = store.create("Other")
    loose = store.start_match(other, "tartli", TARTLI, ["Xena", "Yves"])
    people.remove_match(store, other, loose, None)
    before = tables()
    store.add_match(token, loose, [ids["Anna"], ids["Béla"]])
    undo_latest()
    assert tables() == before
    # the history: latest first, undone changes marked, undos not undoable
    listed = people.history(store, token, 100)
    assert [c.id for c in listed] == sorted((c.id for c in listed), reverse=True)
    undone = [c for c in listed if c.undone]
    assert len(undone) == 6 and not any(c.undoable for c in undone)
    assert not any(c.undoable for c in listed if c.kind == "undo")
    assert len(people.history(store, token, 3)) == 3


def test_an_undo_that_no_longer_applies_is_refused_with_its_reason_nothing_changed(
        db_app: Flask, club: tuple[Circles, str, dict[str, str]]) -> None:
    store, token, played = club
    ids = _names(store, token)

    def refused(change_id: int, reason: str) -> None:
        before = all_rows(db_app)
        with pytest.raises(CircleRefused, match=reason):
            people.undo(store, token, change_id)
        assert all_rows(db_app) == before

    people.rename(store, token, ids["Carla"], "Carlotta", None)
    rename = people.history(store, token, 1)[0].id
    store.add_player(token, "carla")                           # the name is taken since
    refused(rename, "carla is already a player of this circle")
    people.merge(store, token, ids["Anna B."], ids["Anna"], None)
    merge = people.history(store, token, 1)[0].id
    people.remove_match(store, token, played["b"], None)       # a merged seat left the circle
    refused(merge, "A match of Anna B. has left the circle or changed since: put it back first")
    removal = people.history(store, token, 1)[0].id
    people.undo(store, token, removal)
    refused(removal, "undone already")
    undo = people.history(store, token, 1)[0].id
    refused(undo, "cannot be undone")
    people.undo(store, token, merge)                           # now it applies again
    assert _seats(store, token)[played["b"]] == (ids["Anna B."], ids["Béla"])
    # a player who joined and has played since stays
    joined = next(c.id for c in people.history(store, token, 100)
                  if c.label == "Carla joined the circle")
    refused(joined, r"Carlotta has played in this circle since \(1 match\)")
    # a rename renamed again since: refused, naming the name now
    people.rename(store, token, ids["Carla"], "Carli", None)
    refused(rename, "Carlotta has been renamed Carli since")
    # a removed match that joined another circle since
    people.remove_match(store, token, played["carla"], None)
    removal = people.history(store, token, 1)[0].id
    other = store.create("Other")
    store.add_match(other, played["carla"], ["Carla", "Béla"])
    refused(removal, "joined another circle since")
    # a change of another circle: not this one's
    with pytest.raises(NotInCircle):
        people.undo(store, other, rename)


def test_a_change_from_a_page_made_before_another_phones_change_is_refused(
        db_app: Flask, club: tuple[Circles, str, dict[str, str]]) -> None:
    store, token, played = club
    ids = _names(store, token)
    seen = _version(store, token)
    people.rename(store, token, ids["Anna B."], "Anni", seen, "Other phone")
    before = all_rows(db_app)
    for change in (
        lambda: people.rename(store, token, ids["Anna B."], "Anna Berger", seen),
        lambda: people.merge(store, token, ids["Anna B."], ids["Anna"], seen),
        lambda: people.remove_match(store, token, played["b"], seen),
    ):
        with pytest.raises(CircleRefused) as refusal:
            change()
        assert refusal.value.message == CHANGED
        assert all_rows(db_app) == before
    people.merge(store, token, ids["Anna B."], ids["Anna"], _version(store, token))


def test_a_merge_undone_after_its_person_s_id_was_given_again_brings_the_person_back(
        db_app: Flask) -> None:
    """SQLite gives a deleted row's id to the next row when it was the last: the merged
    person comes back under another id then, with the seats, and the newcomer keeps theirs."""
    store = circles_of(db_app)
    token = store.create("Club")
    match = store.start_match(token, "tartli", TARTLI, ["Anna", "Anni"])
    anni = _names(store, token)["Anni"]
    other = store.start_match(token, "tartli", TARTLI, ["Béla", anni])
    ids = _names(store, token)
    people.merge(store, token, ids["Béla"], ids["Anna"], None)
    merge = people.history(store, token, 1)[0].id
    dora = store.add_player(token, "Dora")
    people.undo(store, token, merge)
    back = _names(store, token)
    assert back["Dora"] == dora and back["Anna"] == ids["Anna"]
    assert _seats(store, token) == {match: (ids["Anna"], ids["Anni"]),
                                    other: (back["Béla"], ids["Anni"])}


def test_a_database_with_circles_but_no_history_gets_it_on_start(database_url: str) -> None:
    """A database made by a Referee with circles before their history (issue 24): the next
    start adds the table, and the circle's changes are kept from then on."""
    from referee import create_app

    first = create_app({"TESTING": True, "DATABASE_URL": database_url})
    token = circles_of(first).create("Old friends")
    anna = circles_of(first).add_player(token, "Anna")
    engine = first.extensions["referee.store"].engine
    with engine.begin() as conn:
        circle_changes.drop(conn)
    engine.dispose()
    again = create_app({"TESTING": True, "DATABASE_URL": database_url})
    try:
        store = circles_of(again)
        assert people.history(store, token, 10) == [] and _version(store, token) == 0
        people.rename(store, token, anna, "Anni", 0, "Phone")
        assert [c.label for c in people.history(store, token, 10)] == ["Anna renamed Anni"]
    finally:
        again.extensions["referee.store"].engine.dispose()


def test_two_phones_changing_one_person_at_once_one_wins_the_other_is_told(
        db_app: Flask, club: tuple[Circles, str, dict[str, str]]) -> None:
    """Two phones rename the same person from the same page at the same moment: the circle's
    row is held by one change at a time, so one rename is stored and the other is refused
    (CHANGED), never silently written over it."""
    import threading

    store, token, _ = club
    ids = _names(store, token)
    seen = _version(store, token)
    start = threading.Barrier(2)
    outcomes: dict[str, str] = {}

    def rename(name: str) -> None:
        start.wait()
        try:
            people.rename(store, token, ids["Anna B."], name, seen, name)
            outcomes[name] = "stored"
        except CircleRefused as refused:
            outcomes[name] = refused.message

    phones = [threading.Thread(target=rename, args=(n,)) for n in ("Anni", "Annabel")]
    for phone in phones:
        phone.start()
    for phone in phones:
        phone.join()
    assert sorted(outcomes.values()) == sorted(["stored", CHANGED])
    winner = next(n for n, o in outcomes.items() if o == "stored")
    assert winner in _names(store, token) and len(people.history(store, token, 100)) == 9


def test_an_undo_never_reaches_a_player_who_took_a_left_players_id(
        db_app: Flask, club: tuple[Circles, str, dict[str, str]]) -> None:
    """SQLite gives the id of a player who left (merged away) to the next new player: undoing
    the first one's join, or the removal of a match the first one played, must not take the
    new player out or seat them (a reviewer's find)."""
    store, token, played = club
    zoe = store.add_player(token, "Zoe")
    joined = people.history(store, token, 1)[0]
    ids = _names(store, token)
    people.merge(store, token, zoe, ids["Anna"], None)
    xaver = store.add_player(token, "Xaver")
    before = all_rows(db_app)
    with pytest.raises(CircleRefused, match="Zoe is not a player of this circle any more"):
        people.undo(store, token, joined.id)
    assert all_rows(db_app) == before and "Xaver" in _names(store, token)
    assert xaver in _names(store, token).values()


def test_an_undo_keeps_the_circle_within_its_files_limits(
        db_app: Flask, club: tuple[Circles, str, dict[str, str]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A match taken out comes back only while the circle has room for it, as the pages
    keep the circle file's limits (a full circle's own file would be refused)."""
    store, token, played = club
    people.remove_match(store, token, played["carla"], None)
    removed = people.history(store, token, 1)[0]
    monkeypatch.setattr("referee.engine.circlefile.MAX_MATCHES", 3)
    before = all_rows(db_app)
    with pytest.raises(CircleRefused, match="A circle holds at most 3 matches"):
        people.undo(store, token, removed.id)
    assert all_rows(db_app) == before
    monkeypatch.setattr("referee.engine.circlefile.MAX_MATCHES", 4)
    people.undo(store, token, removed.id)
    assert played["carla"] in {m.id for m in store.matches(token)}
