"""A process keeps the hands it read of a match, with the match's stamp (its version and the
time of its last change), and takes them from there while the stamp it reads is the same
(issue 12: a request does not read a 1,000-hand match's every row). Two processes (two Stores
on one database, as two server processes) writing by turns: each always reads what the other
wrote, never hands kept from before; a database put back to an earlier state (a backup) and
changed again is read as it stands.

Each test runs on SQLite and on PostgreSQL (``database_url``, see tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import event, select

from referee.web.store import Store, hand_base, matches
from referee.web.store import kept as store_module

SETTINGS = {"players": ["Ágnes", "Tamás"], "target": 5, "first_dealer": 0}


def tartli_hand(indicator: str, piles: tuple[int, int] = (80, 71)) -> dict[str, Any]:
    return {"indicator": indicator, "exchange": None, "tricks": [], "bela": None,
            "end": {"kind": "played", "piles": list(piles), "last": 0, "stichmatsch": None}}


FIRST, SECOND, THIRD = tartli_hand("8h"), tartli_hand("9l"), tartli_hand("Xm")


@pytest.fixture
def stores(database_url: str) -> Iterator[tuple[Store, Store]]:
    """Two stores on one database: two server processes."""
    here, there = Store(database_url), Store(database_url)
    yield here, there
    here.engine.dispose()
    there.engine.dispose()


class HandReads:
    """Counts the statements a store sends that read the rows of hands (``events``: of
    events)."""

    def __init__(self, store: Store) -> None:
        self.count = self.events = 0
        event.listen(store.engine, "before_cursor_execute", self._seen)

    def _seen(self, _conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        if statement.lstrip().upper().startswith("SELECT"):
            self.count += "FROM hands" in statement
            self.events += "FROM actions" in statement


def hands_of(store: Store, mid: str) -> list[dict[str, Any]]:
    loaded = store.load(mid, events=5)
    assert loaded is not None
    return loaded.hands


def version(store: Store, mid: str) -> int:
    """The version a page of this process shows: the one its change is made on."""
    loaded = store.load(mid)
    assert loaded is not None
    return loaded.version


def as_new(store: Store, mid: str) -> Any:
    """The match with its history of changes as a process that never read it reads them."""
    new = Store(str(store.engine.url.render_as_string(hide_password=False)))
    try:
        return new.load(mid, events=9)
    finally:
        new.engine.dispose()


def fresh(store: Store, mid: str) -> list[dict[str, Any]]:
    """The hands as a process that never read the match reads them."""
    new = Store(str(store.engine.url.render_as_string(hide_password=False)))
    try:
        return hands_of(new, mid)
    finally:
        new.engine.dispose()


def test_each_process_reads_what_the_other_wrote(stores: tuple[Store, Store]) -> None:
    here, there = stores
    mid = here.create("tartli", SETTINGS, [FIRST, SECOND])
    assert hands_of(here, mid) == hands_of(there, mid) == [FIRST, SECOND]

    edited = tartli_hand("9l", (71, 80))
    there.save_hands(mid, [FIRST, SECOND], [FIRST, edited], "Hand 2 edited",
                     version=version(there, mid))
    assert hands_of(here, mid) == [FIRST, edited]
    here.save_hands(mid, [FIRST, edited], [FIRST, edited, THIRD], "Hand 3",
                    version=version(here, mid))
    assert hands_of(there, mid) == [FIRST, edited, THIRD]
    there.save_hands(mid, [FIRST, edited, THIRD], [FIRST, THIRD], "Hand 2 deleted",
                     renumbers=True, deletes=2, version=version(there, mid))
    assert hands_of(here, mid) == [FIRST, THIRD]
    assert there.undo(mid) == "Hand 2 deleted"
    assert hands_of(here, mid) == [FIRST, edited, THIRD]
    assert here.undo(mid) == "Hand 3"
    assert hands_of(there, mid) == hands_of(here, mid) == [FIRST, edited] == fresh(here, mid)
    # the history of changes too, as each process reads it
    assert here.load(mid, events=9) == there.load(mid, events=9)


def test_a_match_unchanged_since_read_is_taken_from_the_kept_hands(
    stores: tuple[Store, Store],
) -> None:
    here, there = stores
    mid = here.create("tartli", SETTINGS, [FIRST, SECOND])
    reads = HandReads(here)
    first = hands_of(here, mid)
    assert reads.count == 1
    again = hands_of(here, mid)
    assert reads.count == 1 and again == first and again[1] is first[1]
    # a change this process made: the hands it wrote and its event are kept as they were
    # stored
    here.save_hands(mid, [FIRST, SECOND], [FIRST, SECOND, THIRD], "Hand 3")
    reads.count = reads.events = 0
    assert hands_of(here, mid) == [FIRST, SECOND, THIRD] == fresh(here, mid)
    assert here.load(mid, events=9) == as_new(here, mid)
    assert reads.count == reads.events == 0
    assert here.undo(mid) == "Hand 3"
    reads.count = reads.events = 0
    assert hands_of(here, mid) == [FIRST, SECOND] == fresh(here, mid)
    assert here.load(mid, events=9) == as_new(here, mid)
    assert reads.count == reads.events == 0
    # another process's change: read from the database
    there.save_hands(mid, [FIRST, SECOND], [FIRST, THIRD], "Hand 2 edited")
    assert hands_of(here, mid) == [FIRST, THIRD] and reads.count == 1


def test_a_list_of_hands_from_the_store_is_the_callers_own(stores: tuple[Store, Store]) -> None:
    """A caller may change the list it was given (never the hands in it): the next read is not
    changed with it."""
    here, _ = stores
    mid = here.create("tartli", SETTINGS, [FIRST, SECOND])
    hands_of(here, mid).append(THIRD)
    hands_of(here, mid).pop(0)
    assert hands_of(here, mid) == [FIRST, SECOND]


def test_a_database_put_back_to_an_earlier_version_is_read_as_it_stands(
    stores: tuple[Store, Store],
) -> None:
    """A backup put back, then changed again by another process to the version this process
    has kept other hands of: the same version, not the same match."""
    here, there = stores
    mid = here.create("tartli", SETTINGS, [FIRST])
    with there.engine.connect() as conn:
        backup = conn.execute(select(matches).where(matches.c.id == mid)).one()._asdict()
    here.save_hands(mid, [FIRST], [FIRST, SECOND], "Hand 2")
    assert hands_of(here, mid) == [FIRST, SECOND]              # kept at version 2
    there.undo(mid)                                            # the hands as in the backup
    with there.engine.begin() as conn:                         # and the match's row
        conn.execute(matches.update().where(matches.c.id == mid).values(
            version=backup["version"], layout=backup["layout"], updated=backup["updated"]))
    assert hands_of(here, mid) == [FIRST]
    there.save_hands(mid, [FIRST], [FIRST, THIRD], "Hand 2")      # version 2 again
    assert hands_of(here, mid) == [FIRST, THIRD] == fresh(here, mid)


def test_a_kept_hands_fingerprint_is_worked_out_once(
    stores: tuple[Store, Store], monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The base a form or a history row's Delete carries (``StoredMatch.base``) is worked out
    once per kept hand (issue 12: a page's rows do not fingerprint their hands on every
    answer); it is the base another process works out, and a changed hand gets its own."""
    here, there = stores
    mid = here.create("tartli", SETTINGS, [FIRST, SECOND])
    expected = [hand_base(FIRST), hand_base(SECOND), "new"]
    third = hand_base(THIRD)
    worked: list[dict[str, Any]] = []
    real = store_module._mark
    monkeypatch.setattr(store_module, "_mark", lambda facts: worked.append(facts) or real(facts))
    bases = [here.load(mid).base(n) for n in (1, 2, 3)]       # type: ignore[union-attr]
    assert bases == expected
    assert [here.load(mid).base(n) for n in (1, 2, 3)] == bases  # type: ignore[union-attr]
    assert worked == [FIRST, SECOND]
    there.save_hands(mid, [FIRST, SECOND], [FIRST, THIRD], "Hand 2 edited")
    changed = here.load(mid)
    assert changed is not None and changed.base(2) == third != bases[1]
    assert changed.base(1) == bases[0] and worked == [FIRST, SECOND, THIRD]
