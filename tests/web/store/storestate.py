"""The stored state of every match, read straight from the database, for "nothing changed"
checks that cover the whole store: each match's row (tokens, version, settings, times), the
facts of its hands and its history of events, exactly as stored (text columns byte for byte).

``snapshot(app)`` reads it; ``changed(before, after)`` names the matches that differ (or
appeared, or vanished); ``put_back(app, saved, ids)`` writes those matches back exactly as
they were saved (row ids included), so a test can reset some matches and leave the others
untouched (as a backup put back would: the store must follow). Each takes the app or its
store."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import Flask
from sqlalchemy import delete, insert, select

from referee.web.store import Store, actions, hands, matches

Row = tuple[tuple[str, Any], ...]


@dataclass(frozen=True)
class MatchState:
    row: Row                      # the matches row: id, view_token, version, game, ...
    hands: tuple[Row, ...]        # its hands rows, by position
    events: tuple[Row, ...]       # its actions rows (the history), by id

    @property
    def game(self) -> str:
        return str(dict(self.row)["game"])


def _row(row: Any) -> Row:
    return tuple(sorted(row._mapping.items()))


def _store(where: Flask | Store) -> Store:
    return where if isinstance(where, Store) else where.extensions["referee.store"]


def snapshot(where: Flask | Store) -> dict[str, MatchState]:
    """Every stored match, by its edit token (its id)."""
    engine = _store(where).engine
    with engine.connect() as conn:
        match_rows = conn.execute(select(matches).order_by(matches.c.id)).all()
        hand_rows = conn.execute(
            select(hands).order_by(hands.c.match_id, hands.c.position)).all()
        event_rows = conn.execute(select(actions).order_by(actions.c.id)).all()
    by_match_hands: dict[str, list[Row]] = {}
    for h in hand_rows:
        by_match_hands.setdefault(h.match_id, []).append(_row(h))
    by_match_events: dict[str, list[Row]] = {}
    for e in event_rows:
        by_match_events.setdefault(e.match_id, []).append(_row(e))
    return {
        m.id: MatchState(_row(m), tuple(by_match_hands.get(m.id, [])),
                         tuple(by_match_events.get(m.id, [])))
        for m in match_rows
    }


def changed(before: dict[str, MatchState], after: dict[str, MatchState]) -> set[str]:
    """The matches whose stored state differs, or that exist in only one of the two."""
    return {mid for mid in before.keys() | after.keys() if before.get(mid) != after.get(mid)}


def put_back(where: Flask | Store, saved: dict[str, MatchState], ids: set[str]) -> None:
    """Make the matches ``ids`` exactly as in ``saved`` again: those not in ``saved`` are
    deleted, the others rewritten row for row. No other match is touched."""
    engine = _store(where).engine
    with engine.begin() as conn:
        for mid in ids:           # first all of them out: a row id may have moved between them
            conn.execute(delete(actions).where(actions.c.match_id == mid))
            conn.execute(delete(hands).where(hands.c.match_id == mid))
            conn.execute(delete(matches).where(matches.c.id == mid))
        for mid in ids:
            state = saved.get(mid)
            if state is None:
                continue
            conn.execute(insert(matches).values(dict(state.row)))
            for h in state.hands:
                conn.execute(insert(hands).values(dict(h)))
            for e in state.events:
                conn.execute(insert(actions).values(dict(e)))
