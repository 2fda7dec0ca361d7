"""The history of changes stores what each change did (the hands it took out and put in), so
that it stays small however long the match; a restored hand goes back between the neighbours
it had; the "what changed" notices compare each hand with itself; a match holds at most as
many hands as a match file."""

from __future__ import annotations

import json
import re
from datetime import datetime
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import (
    Column,
    DateTime,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    create_engine,
    insert,
    select,
)
from sqlalchemy import Table as SqlTable
from webtools import HAND_440_71, NAMES, A, B, Table, hand, played

from referee import create_app
from referee.engine import matchfile
from referee.engine.games.base import HandOutcome
from referee.engine.games.tartli import GAME
from referee.web.matches.notices import describe_changes
from referee.web.store import Store, actions
from referee.web.store import upgrades as store_module

X = hand("8h", end=played((80, 71), A))
Y = hand("9l", end=played((100, 51), A))
Z = hand("Ab", end=played((60, 91), B))
W = hand("7h", end=played((90, 61), B))
SETTINGS = GAME.settings({"players": NAMES, "target": 10, "first_dealer": 0})
SEEDED = GAME.settings({"players": NAMES, "target": 5, "first_dealer": 0})     # table.seed's


def stored(hands: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The hands as a save stores them: canonical, each with its dealer (Game.complete)."""
    return GAME.complete(SEEDED, [GAME.canonical_hand(h) for h in hands])


def delete_url(table: Table, mid: str, n: int) -> str:
    # the Delete button posts with htmx (hx-post); without JavaScript it asks first (a GET)
    urls = re.findall(rf'hx-post="(/m/{mid}/hands/{n}/delete\?base=[^"]+)"',
                      table.get(f"/m/{mid}").html)
    assert len(urls) == 1
    return urls[0].replace("&amp;", "&")


def restore_url(table: Table, mid: str, label: str) -> str:
    """The Restore button of the history's event ``label`` ("Hand 4 deleted")."""
    page = table.get(f"/m/{mid}/changes").html
    found = re.search(rf'{re.escape(label)}.*?action="(/m/{mid}/changes/\d+/restore)"', page,
                      re.DOTALL)
    assert found, label
    return found.group(1)


# ---------------------------------------------------------------------------------------------
# Restore: between the neighbours it had


@pytest.mark.parametrize(("hands", "deleted"), [
    ([X, X, Y, Z, Y], [4, 2]),          # the case: X, X, Y, Z, Y; delete 4, then 2
    ([X, Y, Z, W], [2, 2]),             # two neighbours: Y, then Z that took its number
    ([Y, X, Z], [1, 1]),                # the first hand, then the one that became first
    ([X, Y, Z, W], [4, 1]),             # the last hand, then the first
], ids=["issue", "neighbours", "at-the-start", "at-both-ends"])
@pytest.mark.parametrize("newest_first", [True, False], ids=["newest-first", "oldest-first"])
def test_a_restored_hand_goes_back_between_the_neighbours_it_had(
        app: Flask, table: Table, hands: list[dict[str, Any]], deleted: list[int],
        newest_first: bool) -> None:
    mid = table.seed(stored(hands))
    for n in deleted:
        assert table.post(delete_url(table, mid, n)).status == 302
    assert len(table.hands(mid)) == len(hands) - len(deleted)
    for _ in deleted:
        urls = re.findall(rf'action="(/m/{mid}/changes/\d+/restore)"',
                          table.get(f"/m/{mid}/changes").html)          # newest first
        assert table.post(urls[0] if newest_first else urls[-1]).status == 302
    assert table.hands(mid) == stored(hands)


def test_undo_of_a_restore_and_of_its_delete_gives_back_the_match_as_it_was(
        app: Flask, table: Table) -> None:
    canonical = stored([X, X, Y, Z, Y])
    mid = table.seed(canonical)
    assert table.post(delete_url(table, mid, 4)).status == 302
    assert table.post(delete_url(table, mid, 2)).status == 302
    assert table.post(restore_url(table, mid, "Hand 4 deleted")).status == 302
    assert table.hands(mid) == [canonical[i] for i in (0, 2, 3, 4)]
    for expected in ([canonical[i] for i in (0, 2, 4)], [canonical[i] for i in (0, 1, 2, 4)],
                     canonical):
        assert table.undo(mid).status == 302
        assert table.hands(mid) == expected


# ---------------------------------------------------------------------------------------------
# "What changed" compares each hand with itself


def _totals(outcome: HandOutcome) -> str:
    """Each player's total after the hand, after the player's name (the notices name them)."""
    return ", ".join(f"{name} {t}" for name, t in zip(NAMES, outcome.totals_after, strict=True))


def _score(hands: list[dict[str, Any]]) -> Any:
    return GAME.score(SETTINGS, [GAME.canonical_hand(h) for h in hands])


def test_what_changed_after_an_edit_compares_the_same_numbers() -> None:
    before, after = _score([X, Y, Z, W]), _score([X, hand("9l", end=played((60, 91), B)), Z, W])
    assert describe_changes(before, after, NAMES, 2) == [
        f"Hand {n}: totals after it now {_totals(after.hands[n - 1])} "
        f"(were {_totals(before.hands[n - 1])})." for n in (3, 4)]


def test_what_changed_after_a_delete_compares_each_later_hand_with_itself() -> None:
    """Hand 2 deleted: the new hand 2 is the old hand 3, the new hand 3 the old hand 4."""
    before, after = _score([X, Y, Z, W]), _score([X, Z, W])
    assert describe_changes(before, after, NAMES, 2, removed=True) == [
        f"Hand {n}: totals after it now {_totals(after.hands[n - 1])} "
        f"(were {_totals(before.hands[n])})." for n in (2, 3)]


def test_what_changed_after_a_restore_compares_each_later_hand_with_itself() -> None:
    """Hand 2 restored: the new hand 3 is the old hand 2, the new hand 4 the old hand 3."""
    before, after = _score([X, Z, W]), _score([X, Y, Z, W])
    assert describe_changes(before, after, NAMES, 2, inserted=True) == [
        f"Hand {n}: totals after it now {_totals(after.hands[n - 1])} "
        f"(were {_totals(before.hands[n - 2])})." for n in (3, 4)]


def test_the_restore_notices_name_the_totals_each_hand_had(app: Flask, table: Table) -> None:
    mid = table.seed(stored([X, Y, Z, W]))
    assert table.post(delete_url(table, mid, 2)).status == 302
    short = _score([X, Z, W])
    page = table.follow(table.post(restore_url(table, mid, "Hand 2 deleted")))
    full = _score([X, Y, Z, W])
    assert "Hand 2 restored." in page.notices
    for n in (3, 4):
        assert (f"Hand {n}: totals after it now {_totals(full.hands[n - 1])} "
                f"(were {_totals(short.hands[n - 2])}).") in page.notices, page.notices


# ---------------------------------------------------------------------------------------------
# At most 1,000 hands


def test_a_match_holds_no_more_hands_than_a_match_file(app: Flask, table: Table,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(matchfile, "MAX_HANDS", 3)
    mid = table.seed(stored([X, Y, Z]))
    before = table.hands(mid)
    page = table.indicator(mid, 4, "9l")
    assert page.status == 422
    assert ("A match holds at most 3 hands, as a match file does, so this one is full: "
            "nothing was saved" in " ".join(page.errors)), page.errors
    assert table.hands(mid) == before
    # its hands can still be corrected
    assert table.indicator(mid, 1, "Al").status == 302
    assert table.hands(mid)[0]["indicator"] == "Al"
    # a restore into a full match is refused the same way
    assert table.post(delete_url(table, mid, 2)).status == 302
    assert table.indicator(mid, 3, "9l").status == 302
    refused = table.post(restore_url(table, mid, "Hand 2 deleted"))
    assert refused.status == 422
    assert "A match holds at most 3 hands" in " ".join(refused.errors)
    assert len(table.hands(mid)) == 3


def test_a_match_stored_with_more_hands_can_still_be_corrected(
        app: Flask, table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    mid = table.seed(stored([X, Y, Z, W]))
    monkeypatch.setattr(matchfile, "MAX_HANDS", 3)
    assert table.indicator(mid, 2, "Al").status == 302
    assert table.post(delete_url(table, mid, 4)).status == 302
    assert table.undo(mid).status == 302                  # back to four: as it was stored
    assert len(table.hands(mid)) == 4
    assert table.indicator(mid, 5, "9l").status == 422
    assert len(table.hands(mid)) == 4


def test_the_limit_is_the_match_files(app: Flask) -> None:
    assert matchfile.MAX_HANDS == 1_000


# ---------------------------------------------------------------------------------------------
# Small events


def _event_bytes(store: Store, match_id: str) -> list[int]:
    """The stored size of each event of the match: the length of every column it stores."""
    with store.engine.connect() as conn:
        rows = conn.execute(select(actions).where(actions.c.match_id == match_id)
                            .order_by(actions.c.id)).all()
    return [sum(len(str(v)) for v in row._mapping.values() if v is not None) for row in rows]


def test_an_event_of_a_1000_hand_match_stores_at_most_20_kB(db_store: Store) -> None:
    hands = [GAME.canonical_hand(dict(HAND_440_71, end=played((n % 152, 151 - n % 152), A)))
             for n in range(1_000)]
    match_id = db_store.create("tartli", SETTINGS, hands)
    edited = [GAME.canonical_hand(dict(HAND_440_71, indicator="9l"))] + hands[1:]
    db_store.save_hands(match_id, hands, edited, "Trump indicator (hand 1)")
    db_store.save_hands(match_id, edited, edited[1:], "Hand 1 deleted", renumbers=True,
                        deletes=1)
    assert db_store.undo(match_id) == "Hand 1 deleted"
    loaded = db_store.load(match_id)
    assert loaded is not None and loaded.hands == edited
    assert len(json.dumps(hands)) > 200_000                     # what one event stored before
    assert len(json.dumps(hands[:998])) > 200_000               # one splice from 1 to 999
    sizes = _event_bytes(db_store, match_id)[1:]                # the edit, the delete, the undo
    assert len(sizes) == 3 and max(sizes) <= 20_000, sizes
    # and so is the one that undoes the edit: the match is as it was made
    assert db_store.undo(match_id) == "Trump indicator (hand 1)"
    loaded = db_store.load(match_id)
    assert loaded is not None and loaded.hands == hands
    assert max(_event_bytes(db_store, match_id)[1:]) <= 20_000
    # an edit of hand 1 that corrects hand 999 with it (a later hand that no longer fits is
    # removed in the same action): the two hands, not the 997 between them
    corrected = edited[:998] + edited[999:]
    db_store.save_hands(match_id, hands, corrected, "Trump indicator (hand 1); hand 999 removed",
                        renumbers=True)
    assert db_store.undo(match_id) == "Trump indicator (hand 1); hand 999 removed"
    loaded = db_store.load(match_id)
    assert loaded is not None and loaded.hands == hands
    assert max(_event_bytes(db_store, match_id)[1:]) <= 20_000


# ---------------------------------------------------------------------------------------------
# A database whose events hold the whole list of hands


def _list_schema() -> tuple[MetaData, SqlTable, SqlTable, SqlTable]:
    """The tables as Referee created them when every event stored the hands before it."""
    meta = MetaData()
    matches = SqlTable(
        "matches", meta,
        Column("id", String(32), primary_key=True),
        Column("view_token", String(32), nullable=False, unique=True),
        Column("version", Integer, nullable=False, default=0),
        Column("layout", Integer, nullable=False, default=0),
        Column("game", String(20), nullable=False),
        Column("settings", Text, nullable=False),
        Column("created", DateTime, nullable=False),
        Column("updated", DateTime, nullable=False),
    )
    hands = SqlTable(
        "hands", meta,
        Column("id", Integer, primary_key=True, autoincrement=True),
        Column("match_id", String(32), ForeignKey("matches.id", ondelete="CASCADE"),
               nullable=False),
        Column("position", Integer, nullable=False),
        Column("facts", Text, nullable=False),
        UniqueConstraint("match_id", "position"),
    )
    events = SqlTable(
        "actions", meta,
        Column("id", Integer, primary_key=True, autoincrement=True),
        Column("match_id", String(32), ForeignKey("matches.id", ondelete="CASCADE"),
               nullable=False),
        Column("created", DateTime, nullable=False),
        Column("label", String(200), nullable=False),
        Column("before", Text, nullable=False),
        Column("device", String(100), nullable=False, default=""),
        Column("kind", String(10), nullable=False, default="change"),
        Column("undoes", Integer, nullable=True),
        Column("hand", Integer, nullable=True),
    )
    return meta, matches, hands, events


def test_an_old_history_is_upgraded_and_undo_and_restore_still_work(
        database_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store_module, "UPGRADE_BATCH", 2)     # events rewritten a few at a time
    x, y, z, w = (GAME.canonical_hand(h) for h in (X, Y, Z, W))
    x2 = GAME.canonical_hand(dict(X, indicator="9l"))
    # The match's life as the old store logged it: each event with the hands before it.
    life: list[tuple[str, str, list[dict[str, Any]], int | None, int | None]] = [
        ("create", "Match started", [], None, None),
        ("change", "Trump indicator (hand 1)", [], None, None),
        ("change", "Trump indicator (hand 2)", [x], None, None),
        ("change", "Trump indicator (hand 3)", [x, y], None, None),
        ("change", "Trump indicator (hand 4)", [x, y, z], None, None),
        ("change", "Hand 2 deleted", [x, y, z, w], None, 2),
        ("change", "Hand 2 deleted", [x, z, w], None, 2),
        ("restore", "Hand 2 restored", [x, w], 7, None),     # z back (event 7: the 2nd delete)
        ("change", "Trump indicator (hand 1)", [x, z, w], None, None),
    ]
    now_hands = [x2, z, w]
    meta, matches, hands, events = _list_schema()
    engine = create_engine(database_url)
    mid = "listMatchToken_AAAAAAAAA"
    with engine.begin() as conn:
        meta.create_all(conn)
        when = datetime(2026, 11, 20, 20, 0)
        conn.execute(insert(matches).values(id=mid, view_token="listViewToken_AAAAAAAAAA",
                                            version=len(life), layout=3, game="tartli",
                                            settings=json.dumps(SETTINGS), created=when,
                                            updated=when))
        for position, facts in enumerate(now_hands):
            conn.execute(insert(hands).values(match_id=mid, position=position,
                                              facts=json.dumps(facts)))
        ids: list[int] = []
        for kind, label, before, undoes, deleted in life:
            made = conn.execute(insert(events).values(
                match_id=mid, created=when, label=label, before=json.dumps(before),
                device="Anna", kind=kind, undoes=ids[undoes - 1] if undoes else None,
                hand=deleted))
            ids.append(made.inserted_primary_key[0])
    engine.dispose()
    first_delete, second_delete = ids[5], ids[6]

    apps = []
    try:
        for _ in range(2):              # the upgrade runs once; a second start changes nothing
            apps.append(create_app({"TESTING": True, "DATABASE_URL": database_url}))
        store: Store = apps[-1].extensions["referee.store"]
        with store.engine.connect() as conn:
            stored = conn.execute(select(actions.c.before, actions.c.splice)
                                  .where(actions.c.match_id == mid)).all()
        assert all(row.before == "" for row in stored)            # no more whole lists
        loaded = store.load(mid, 20)
        assert loaded is not None and loaded.hands == now_hands
        assert [e.label for e in loaded.events][::-1] == [e[1] for e in life]   # reads the same
        # the first delete (y) can still be put back, between x and z
        found = store.deleted_hand(mid, first_delete)
        assert found is not None and (found.number, found.at, found.facts) == (2, 2, y)
        assert [e.id for e in loaded.events if e.restorable] == [first_delete]
        store.save_hands(mid, now_hands, [x2, y, z, w], "Hand 2 restored", renumbers=True,
                         restores=first_delete)
        # and every change undoes, last first, back to the start
        for label, expected in [
            ("Hand 2 restored", [x2, z, w]),
            ("Trump indicator (hand 1)", [x, z, w]),
            ("Hand 2 restored", [x, w]),
            ("Hand 2 deleted", [x, z, w]),
            ("Hand 2 deleted", [x, y, z, w]),
            ("Trump indicator (hand 4)", [x, y, z]),
        ]:
            assert store.undo(mid) == label
            again = store.load(mid)
            assert again is not None and again.hands == expected, label
        # z's delete, undone, no longer offers its hand; y's delete, undone too
        assert store.deleted_hand(mid, second_delete) is None
        assert store.deleted_hand(mid, first_delete) is None
    finally:
        for a in apps:
            a.extensions["referee.store"].engine.dispose()


def test_an_edit_of_several_hands_keeps_the_place_a_restore_goes_back_to(tmp_path: Any) -> None:
    """Hands A B C D E, C deleted; one change then rewrites hands 1 and 2 (an edit with a
    correction): each keeps its place, so C goes back between what stand there now and D."""
    store = Store(f"sqlite:///{tmp_path / 'r.sqlite3'}")
    a, b, c, d, e, x = ({"v": k} for k in "ABCDEX")
    mid = store.create("tartli", {"players": NAMES}, [a, b, c, d, e])
    m = store.load(mid)
    assert m is not None
    store.save_hands(mid, m.hands, [a, b, d, e], "Hand 3 deleted", renumbers=True, deletes=3,
                     version=m.version)
    m = store.load(mid)
    assert m is not None
    store.save_hands(mid, m.hands, [b, x, d, e], "Hands 1 and 2 changed", version=m.version)
    m = store.load(mid, 10)
    assert m is not None
    event = next(ev for ev in m.events if ev.restorable)
    found = store.deleted_hand(mid, event.id)
    assert found is not None and found.at == 3 and found.facts == c
