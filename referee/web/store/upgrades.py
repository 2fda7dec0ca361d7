"""The one-off upgrades a start runs on a database made by an earlier Referee, in the start-up
transaction that holds the creation lock (``Store``): existing links keep their edit rights,
and events that stored the whole list of hands store what they changed."""

from __future__ import annotations

import json
import secrets
from typing import Any

from sqlalchemy import bindparam, inspect, select, text, update
from sqlalchemy.engine import Connection

from .events import hand_rows
from .schema import TOKEN_BYTES, actions, hands, matches
from .splice import Hand, Splice, build, dumps, region


def upgrade(conn: Connection) -> None:
    """Bring a database made by an earlier Referee up to date, in the start-up transaction
    that holds the creation lock: existing links keep their edit rights, and events that
    stored the whole list of hands store what they changed."""
    _upgrade_tokens(conn)
    _upgrade_splices(conn)
    _upgrade_language(conn)
    _upgrade_labels(conn)
    _upgrade_circle_version(conn)


def _upgrade_tokens(conn: Connection) -> None:
    """No view tokens, no event columns (before 2026-11): every link is an edit link."""
    columns = {c["name"] for c in inspect(conn).get_columns("matches")}
    if "view_token" in columns:
        return
    conn.execute(text("ALTER TABLE matches ADD COLUMN view_token VARCHAR(32)"))
    conn.execute(text("ALTER TABLE matches ADD COLUMN version INTEGER NOT NULL DEFAULT 1"))
    conn.execute(text("ALTER TABLE matches ADD COLUMN layout INTEGER NOT NULL DEFAULT 0"))
    conn.execute(text("ALTER TABLE actions ADD COLUMN device VARCHAR(100) NOT NULL DEFAULT ''"))
    conn.execute(text("ALTER TABLE actions ADD COLUMN kind VARCHAR(10) NOT NULL "
                      "DEFAULT 'change'"))
    conn.execute(text("ALTER TABLE actions ADD COLUMN undoes INTEGER"))
    conn.execute(text("ALTER TABLE actions ADD COLUMN hand INTEGER"))
    for (match_id,) in conn.execute(select(matches.c.id)).all():
        conn.execute(update(matches).where(matches.c.id == match_id).values(
            view_token=secrets.token_urlsafe(TOKEN_BYTES)))
    conn.execute(text("CREATE UNIQUE INDEX ix_matches_view_token ON matches (view_token)"))


def _upgrade_language(conn: Connection) -> None:
    """No match language (before 2026-12, issue 22): every match is recorded in English."""
    columns = {c["name"] for c in inspect(conn).get_columns("matches")}
    if "language" not in columns:
        conn.execute(text("ALTER TABLE matches ADD COLUMN language VARCHAR(8) NOT NULL "
                          "DEFAULT 'en'"))


def _upgrade_labels(conn: Connection) -> None:
    """Labels of at most 200 characters (before 2026-12): any length, so that a label kept
    as a sentence (``events.stored_label``) fits (SQLite never holds a length to them)."""
    if conn.dialect.name == "sqlite":
        return
    label = next(c for c in inspect(conn).get_columns("actions") if c["name"] == "label")
    if getattr(label["type"], "length", None) is not None:
        conn.execute(text("ALTER TABLE actions ALTER COLUMN label TYPE TEXT"))


def _upgrade_circle_version(conn: Connection) -> None:
    """No circle version (before 2027-01, issue 24): every circle starts at version 0; and
    the index its check reads."""
    columns = {c["name"] for c in inspect(conn).get_columns("circles")}
    if "version" not in columns:
        conn.execute(text("ALTER TABLE circles ADD COLUMN version INTEGER NOT NULL DEFAULT 0"))
    conn.execute(text("CREATE INDEX IF NOT EXISTS ix_circle_matches_circle_match "
                      "ON circle_matches (circle_id, match_id)"))


UPGRADE_BATCH = 200       # events rewritten per statement while upgrading


def _upgrade_splices(conn: Connection) -> None:
    """Events that hold the whole list of hands before them (before 2026-12) get the splice
    they made, and every hand its uid; one match at a time, one event's list at a time."""
    if "splice" in {c["name"] for c in inspect(conn).get_columns("actions")}:
        return
    conn.execute(text("ALTER TABLE actions ADD COLUMN splice TEXT"))
    conn.execute(text("ALTER TABLE hands ADD COLUMN uid INTEGER NOT NULL DEFAULT 0"))
    conn.execute(text("ALTER TABLE matches ADD COLUMN uids INTEGER NOT NULL DEFAULT 0"))
    for match_id in conn.execute(select(matches.c.id)).scalars().all():
        _convert_history(conn, match_id)
    conn.execute(text("CREATE UNIQUE INDEX ix_hands_match_uid ON hands (match_id, uid)"))


def _convert_history(conn: Connection, match_id: str) -> None:
    """Replay the match's events from their lists of hands, giving each hand a uid as the
    store does now (a delete's hand and a restored hand are the ones the event names; an undo
    puts back the very hands its change took out), and store each event's splices."""
    events = conn.execute(
        select(actions.c.id, actions.c.kind, actions.c.undoes, actions.c.hand)
        .where(actions.c.match_id == match_id).order_by(actions.c.id)).all()
    current = [f for _, f in hand_rows(conn, match_id)]
    state: list[Hand] = []
    last_uid = 0
    done: dict[int, tuple[list[Splice], int | None]] = {}   # event: (splices, deleted number)
    rewritten: list[dict[str, Any]] = []

    def listed(event: int) -> list[dict[str, Any]]:
        stored = conn.execute(select(actions.c.before).where(actions.c.id == event)).scalar()
        return list(json.loads(stored or "[]"))

    def seated(facts: list[dict[str, Any]], last: int) -> tuple[list[Hand], int]:
        """``state`` turned into ``facts`` (the first list, or a gap in the log)."""
        start, end_b, end_a = region([f for _, f in state], facts)
        seat, last = build(state[start:end_b], facts, start, end_a, last)
        return _made(state, seat) or [], last

    after = listed(events[0].id) if events else current
    for k, ev in enumerate(events):
        before, after = after, (listed(events[k + 1].id) if k + 1 < len(events) else current)
        if [f for _, f in state] != before:
            state, last_uid = seated(before, last_uid)
        changes, last_uid = _replayed(ev, state, before, after, done, last_uid)
        state = _made(state, changes) or state
        done[ev.id] = (changes, ev.hand)
        rewritten.append({"event": ev.id,
                          "change": None if ev.kind == "create" else dumps(changes)})
    if [f for _, f in state] != current:                # hands changed outside the log
        state, last_uid = seated(current, last_uid)
    statement = (update(actions).where(actions.c.id == bindparam("event"))
                 .values(splice=bindparam("change"), before=""))
    for i in range(0, len(rewritten), UPGRADE_BATCH):
        conn.execute(statement, rewritten[i: i + UPGRADE_BATCH])
    numbered = [{"pos": pos, "hand_uid": uid} for pos, (uid, _) in enumerate(state)]
    for i in range(0, len(numbered), UPGRADE_BATCH):
        conn.execute(update(hands).where(hands.c.match_id == match_id,
                                         hands.c.position == bindparam("pos"))
                     .values(uid=bindparam("hand_uid")), numbered[i: i + UPGRADE_BATCH])
    conn.execute(update(matches).where(matches.c.id == match_id).values(uids=last_uid))


def _made(state: list[Hand], changes: list[Splice]) -> list[Hand] | None:
    """``state`` with ``changes`` made one after the other; None if one does not fit (its
    hands out are not the hands at its place)."""
    for change in changes:
        if state[change.at: change.at + len(change.removed)] != change.removed:
            return None
        state = change.apply(state)
    return state


def _replayed(
    ev: Any, state: list[Hand], before: list[dict[str, Any]], after: list[dict[str, Any]],
    done: dict[int, tuple[list[Splice], int | None]], last_uid: int,
) -> tuple[list[Splice], int]:
    """The splices an old event made, from the lists of hands before and after it."""
    if ev.kind == "undo" and ev.undoes in done:
        back = [change.reverse() for change in reversed(done[ev.undoes][0])]
        made = _made(state, back)
        if made is not None and [f for _, f in made] == after:
            return back, last_uid
    removes = ev.hand - 1 if ev.kind == "change" and ev.hand else None
    inserts = restored = None
    if ev.kind == "restore" and ev.undoes in done:
        deleted, number = done[ev.undoes]
        uids = {uid for uid, _ in state}
        if (number and deleted and deleted[0].at == number - 1 and len(deleted[0].removed) == 1
                and not deleted[0].inserted and deleted[0].removed[0][0] not in uids):
            restored = deleted[0].removed[0][0]
            inserts = min(number, len(before) + 1) - 1       # where the old store put it
    start, end_b, end_a = region(before, after, removes=removes, inserts=inserts)
    return build(state[start:end_b], after, start, end_a, last_uid,
                 removes=removes, inserts=inserts, restored=restored)

