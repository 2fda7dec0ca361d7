"""A circle's people and members changed after the fact, and its history with Undo: rename a
person, merge two people into one, take a match out of the circle, undo any change of the
history that can still be undone.

The matches' own records keep the names the table entered: a rename changes the circle's
player, which every page, statistic, evening and circle file of the circle names. A merge moves
the seats of one person to another and the first person leaves the circle (refused when both
sat in one match: a match cannot have one person twice). A match taken out of the circle stays
what it was, with its links; only its seats leave the circle.

Every change goes through ``circletables.changed`` with what its undo needs; an undo checks that
the circle is still as the change left it (else it is refused with the reason, nothing changed)
and is itself a change of the history. A change from a phone's page is refused when the circle
changed since that page was made (its version, ``circletables.version``)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from ...engine import circlefile
from ...engine.games import get
from ...engine.games.base import name_key
from ...engine.words import N, T, Text
from .circlestore import Circles
from .circletables import (
    CHANGED,
    CircleRefused,
    changed,
    circle_changes,
    circle_matches,
    circle_players,
    circle_seats,
    hold,
    version,
)
from .events import read_label
from .schema import hands, matches


class NotInCircle(CircleRefused):
    """What a change names (a player, a match, a change) is not this circle's."""


@dataclass(frozen=True)
class Change:
    """A line of a circle's history."""

    id: int
    at: datetime              # UTC
    device: str
    label: str                # a sentence (engine.words.Text)
    kind: str
    undoable: bool            # it has an undo, not yet made
    undone: bool


@dataclass(frozen=True)
class Clash:
    """A match in which two people both sat."""

    match_id: str
    game: str
    created: datetime
    names: list[str]


@dataclass(frozen=True)
class Member:
    """A match of the circle, as its page names it."""

    id: str
    game: str
    created: datetime
    names: list[str]


NOT_A_PLAYER = T("That player is not in this circle: pick one from the list.")
NOT_A_MATCH = T("That match is not in this circle.")
NOT_A_CHANGE = T("That change is not in this circle's history.")
SAME_PERSON = T("A person cannot be merged into themselves: pick another player.")


def version_of(store: Circles, token: str) -> int:
    """The circle's version, for a page's forms."""
    with store.store.engine.connect() as conn:
        return version(conn, token)


def played_counts(store: Circles, token: str) -> dict[int, int]:
    """How many of the circle's matches each of its players sat in (by player id)."""
    with store.store.engine.connect() as conn:
        rows = conn.execute(select(circle_seats.c.player_id, func.count())
                            .where(circle_seats.c.circle_id == token)
                            .group_by(circle_seats.c.player_id)).all()
    return {int(p): int(n) for p, n in rows}


def clash(store: Circles, token: str, one: int, other: int) -> Clash | None:
    """The first match of the circle in which both players sat, if any."""
    with store.store.engine.connect() as conn:
        return _clash(conn, token, one, other)


def member(store: Circles, token: str, match_id: str) -> Member | None:
    """The circle's match ``match_id`` (None if it is not this circle's)."""
    with store.store.engine.connect() as conn:
        try:
            names = _members(conn, token, match_id)[2]
        except NotInCircle:
            return None
        game, created = _match(conn, match_id)
    return Member(match_id, game, created, names)


def history(store: Circles, token: str, limit: int) -> list[Change]:
    """The circle's latest ``limit`` changes, latest first."""
    with store.store.engine.connect() as conn:
        rows = conn.execute(select(circle_changes).where(circle_changes.c.circle_id == token)
                            .order_by(circle_changes.c.id.desc()).limit(limit)).all()
        ids = [r.id for r in rows]
        undone = set(conn.execute(select(circle_changes.c.undoes).where(
            circle_changes.c.circle_id == token,
            circle_changes.c.undoes.in_(ids))).scalars()) if ids else set()
    return [Change(r.id, r.at, r.device, read_label(r.label), r.kind,
                   r.undo is not None and r.id not in undone, r.id in undone) for r in rows]


# -- the changes ---------------------------------------------------------------------------

def rename(store: Circles, token: str, player_id: int, name: str, seen: int | None,
           device: str = "") -> None:
    """The circle's player ``player_id`` is called ``name`` from now on (a name checked by
    ``require_name``; CircleRefused if another player has it)."""
    def change(conn: Connection) -> None:
        old = _name(conn, token, player_id)
        _free(conn, token, name, player_id)
        if old == name:
            raise CircleRefused(T("%(name)s is this player's name already.", name=name))
        _set_name(conn, player_id, name)
        changed(conn, token, T("%(old)s renamed %(new)s", old=old, new=name), device,
                "rename", {"player": player_id, "old": old, "new": name})
    _write(store, token, seen, change)


def merge(store: Circles, token: str, gone: int, kept: int, seen: int | None,
          device: str = "") -> None:
    """``gone`` and ``kept`` are one person: ``gone``'s seats become ``kept``'s and ``gone``
    leaves the circle (refused when both sat in one match)."""
    def change(conn: Connection) -> None:
        gone_name, kept_name = _name(conn, token, gone), _name(conn, token, kept)
        if gone == kept:
            raise CircleRefused(SAME_PERSON)
        found = _clash(conn, token, gone, kept)
        if found is not None:
            raise CircleRefused(clash_words(gone_name, kept_name, found))
        seats = [list(s) for s in conn.execute(
            select(circle_seats.c.match_id, circle_seats.c.seat)
            .where(circle_seats.c.circle_id == token, circle_seats.c.player_id == gone)
            .order_by(circle_seats.c.match_id, circle_seats.c.seat))]
        conn.execute(update(circle_seats).where(circle_seats.c.circle_id == token,
                                                circle_seats.c.player_id == gone)
                     .values(player_id=kept))
        conn.execute(delete(circle_players).where(circle_players.c.id == gone))
        changed(conn, token, T("%(gone)s merged into %(kept)s (%(matches)s)", gone=gone_name,
                               kept=kept_name, matches=_matches(len(seats))), device, "merge",
                {"gone": gone, "name": gone_name, "kept": kept, "kept_name": kept_name,
                 "seats": seats})
    _write(store, token, seen, change)


def remove_match(store: Circles, token: str, match_id: str, seen: int | None,
                 device: str = "") -> None:
    """The match leaves the circle (with its seats); the match itself stays as it is."""
    def change(conn: Connection) -> None:
        added, people, names = _members(conn, token, match_id)
        _take_out(conn, match_id)
        game, created = _match(conn, match_id)
        changed(conn, token, T("%(game)s match of %(day)s left the circle: %(people)s",
                               game=get(game).title, day=created.date().isoformat(),
                               people=" – ".join(names)), device, "remove",
                {"match": match_id, "added": added.isoformat(), "people": people,
                 "names": names})
    _write(store, token, seen, change, match_id)


def undo(store: Circles, token: str, change_id: int, device: str = "") -> str:
    """Take back the change ``change_id`` of the circle's history, if the circle is still as
    that change left it (CircleRefused with the reason if not; NotInCircle if the change is
    not this circle's). The undo is a change of the history in turn. What was undone (its
    sentence)."""
    with store.store.engine.connect() as conn:
        row = _change(conn, token, change_id)
    data = json.loads(row.undo) if row.undo is not None else {}
    match_id = data.get("match") if row.kind in ("remove", "add", "start") else None

    def take_back(conn: Connection) -> None:
        again = _change(conn, token, change_id)
        if again.undo is None:
            raise CircleRefused(T("This change cannot be undone."))
        if conn.execute(select(circle_changes.c.id).where(
                circle_changes.c.circle_id == token,
                circle_changes.c.undoes == change_id)).first() is not None:
            raise CircleRefused(T("This change has been undone already."))
        _UNDO[again.kind](conn, token, {**json.loads(again.undo), "change": change_id})
        changed(conn, token, T("Undone: %(change)s", change=read_label(again.label)), device,
                "undo", None, change_id)
    _write(store, token, None, take_back, match_id)
    return read_label(row.label)


# -- each kind's undo ----------------------------------------------------------------------

def _unjoin(conn: Connection, token: str, data: dict[str, Any]) -> None:
    gone = T("%(name)s is not a player of this circle any more.", name=data["name"])
    name = _name(conn, token, data["player"], gone)
    if _joined_since(conn, token, data["player"], data["change"]):
        raise CircleRefused(gone)
    played = conn.execute(select(func.count()).where(
        circle_seats.c.player_id == data["player"])).scalar_one()
    if played:
        raise CircleRefused(T("%(name)s has played in this circle since (%(matches)s), so "
                              "stays: merge them into another player instead.", name=name,
                              matches=_matches(played)))
    conn.execute(delete(circle_players).where(circle_players.c.id == data["player"]))


def _unrename(conn: Connection, token: str, data: dict[str, Any]) -> None:
    name = _name(conn, token, data["player"], T("%(name)s is not a player of this circle any "
                                                 "more.", name=data["new"]))
    if name != data["new"]:
        raise CircleRefused(T("%(old)s has been renamed %(name)s since: rename them here "
                              "instead.", old=data["new"], name=name))
    _free(conn, token, data["old"], data["player"])
    _set_name(conn, data["player"], data["old"])


def _unmerge(conn: Connection, token: str, data: dict[str, Any]) -> None:
    _name(conn, token, data["kept"], T("%(name)s is not a player of this circle any "
                                        "more.", name=data["kept_name"]))
    players = conn.execute(select(func.count()).where(
        circle_players.c.circle_id == token)).scalar_one()
    if players >= circlefile.MAX_PLAYERS:
        raise CircleRefused(N(
            "A circle holds at most %(num)s player, as its circle file does, and this one is "
            "full: %(name)s cannot come back as a player of their own.",
            "A circle holds at most %(num)s players, as its circle file does, and this one is "
            "full: %(name)s cannot come back as a player of their own.",
            circlefile.MAX_PLAYERS, num=circlefile.MAX_PLAYERS, name=data["name"]))
    _free(conn, token, data["name"], None)
    for match_id, seat in data["seats"]:
        now_there = conn.execute(select(circle_seats.c.player_id).where(
            circle_seats.c.match_id == match_id, circle_seats.c.seat == seat,
            circle_seats.c.circle_id == token)).scalar()
        if now_there != data["kept"]:
            raise CircleRefused(T("A match of %(name)s has left the circle or changed since: "
                                  "put it back first.", name=data["name"]))
    taken = conn.execute(select(circle_players.c.id)
                         .where(circle_players.c.id == data["gone"])).first()
    values = {"circle_id": token, "name": data["name"], "name_key": name_key(data["name"])}
    if taken is None:          # the same id again (SQLite may have given it to another since)
        values["id"] = data["gone"]
    back = int(conn.execute(insert(circle_players).values(**values)
                            .returning(circle_players.c.id)).scalar_one())
    for match_id, seat in data["seats"]:
        conn.execute(update(circle_seats).where(circle_seats.c.match_id == match_id,
                                                circle_seats.c.seat == seat)
                     .values(player_id=back))


def _unremove(conn: Connection, token: str, data: dict[str, Any]) -> None:
    match_id = data["match"]
    if conn.execute(select(matches.c.id).where(matches.c.id == match_id)).first() is None:
        raise CircleRefused(T("That match is not there any more."))
    owner = conn.execute(select(circle_matches.c.circle_id)
                         .where(circle_matches.c.match_id == match_id)).scalar()
    if owner is not None:
        raise CircleRefused(T("That match is in this circle already.") if owner == token
                            else T("That match has joined another circle since."))
    for player, name in zip(data["people"], data["names"], strict=True):
        gone = T("%(name)s is not a player of this circle any more: undo that first.",
                 name=name)
        _name(conn, token, player, gone)
        if _joined_since(conn, token, player, data["change"]):
            raise CircleRefused(gone)
    _room_for(conn, token, match_id)
    conn.execute(insert(circle_matches).values(
        match_id=match_id, circle_id=token, added=datetime.fromisoformat(data["added"])))
    for seat, player in enumerate(data["people"]):
        conn.execute(insert(circle_seats).values(match_id=match_id, seat=seat,
                                                 circle_id=token, player_id=player))


def _unadd(conn: Connection, token: str, data: dict[str, Any]) -> None:
    owner = conn.execute(select(circle_matches.c.circle_id)
                         .where(circle_matches.c.match_id == data["match"])).scalar()
    if owner != token:
        raise CircleRefused(T("That match has left the circle since."))
    _take_out(conn, data["match"])


def _joined_since(conn: Connection, token: str, player: int, change: int) -> bool:
    """Whether a player joined the circle under ``player``'s id after the change ``change``:
    SQLite gives a player's id again once that player has left (merged away, a join undone),
    so an earlier change's id no longer means the same person."""
    return any(undo is not None and json.loads(undo).get("player") == player
               for undo in conn.execute(select(circle_changes.c.undo).where(
                   circle_changes.c.circle_id == token, circle_changes.c.kind == "player",
                   circle_changes.c.id > change)).scalars())


def _room_for(conn: Connection, token: str, match_id: str) -> None:
    """CircleRefused if the match cannot come back into the circle within its file's limits
    (``circlefile``: matches, hands in all), as the pages keep them."""
    count = conn.execute(select(func.count()).where(
        circle_matches.c.circle_id == token)).scalar_one()
    if count >= circlefile.MAX_MATCHES:
        raise CircleRefused(N(
            "A circle holds at most %(num)s match, as its circle file does, and this one is "
            "full: the match cannot come back.",
            "A circle holds at most %(num)s matches, as its circle file does, and this one is "
            "full: the match cannot come back.",
            circlefile.MAX_MATCHES, num=circlefile.MAX_MATCHES))
    held = conn.execute(select(func.count()).select_from(hands).join(
        circle_matches, circle_matches.c.match_id == hands.c.match_id).where(
        circle_matches.c.circle_id == token)).scalar_one()
    its = conn.execute(select(func.count()).where(hands.c.match_id == match_id)).scalar_one()
    if held + its > circlefile.MAX_HANDS:
        raise CircleRefused(N(
            "A circle holds at most %(num)s hand in all its matches, as its circle file does, "
            "and this one has no room left for the match to come back.",
            "A circle holds at most %(num)s hands in all its matches, as its circle file does, "
            "and this one has no room left for the match to come back.",
            circlefile.MAX_HANDS, num=circlefile.MAX_HANDS))


_UNDO: dict[str, Callable[[Connection, str, dict[str, Any]], None]] = {
    "player": _unjoin, "rename": _unrename, "merge": _unmerge, "remove": _unremove,
    "add": _unadd, "start": _unadd,
}


# -- shared steps --------------------------------------------------------------------------

def _write(store: Circles, token: str, seen: int | None, change: Callable[[Connection], None],
           match_id: str | None = None) -> None:
    """``change`` in a write transaction holding the circle (and ``match_id``'s match)."""
    try:
        with store.store.writing(match_id) as conn:
            hold(conn, token, seen)
            change(conn)
    except IntegrityError:
        raise CircleRefused(CHANGED) from None


def _name(conn: Connection, token: str, player: int, missing: Text = NOT_A_PLAYER) -> str:
    found = conn.execute(select(circle_players.c.name).where(
        circle_players.c.circle_id == token, circle_players.c.id == player)).scalar()
    if found is None:
        raise (NotInCircle if missing is NOT_A_PLAYER else CircleRefused)(missing)
    return str(found)


def _free(conn: Connection, token: str, name: str, player: int | None) -> None:
    """CircleRefused if another player of the circle than ``player`` has this name."""
    other = conn.execute(select(circle_players.c.name).where(
        circle_players.c.circle_id == token, circle_players.c.name_key == name_key(name),
        circle_players.c.id != (player if player is not None else -1))).scalar()
    if other is not None:
        raise CircleRefused(taken_words(str(other)))


def taken_words(name: str) -> Text:
    return T("%(name)s is already a player of this circle: pick another name (such as "
             "%(name)s B.), or merge the two if they are one person.", name=name)


def _set_name(conn: Connection, player: int, name: str) -> None:
    conn.execute(update(circle_players).where(circle_players.c.id == player)
                 .values(name=name, name_key=name_key(name)))


def _matches(count: int) -> Text:
    return N("%(num)s match", "%(num)s matches", count, num=count)


def _clash(conn: Connection, token: str, one: int, other: int) -> Clash | None:
    both = (select(circle_seats.c.match_id)
            .where(circle_seats.c.circle_id == token,
                   circle_seats.c.player_id.in_([one, other]))
            .group_by(circle_seats.c.match_id).having(func.count() > 1))
    row = conn.execute(select(matches.c.id, matches.c.game, matches.c.created)
                       .where(matches.c.id.in_(both))
                       .order_by(matches.c.created, matches.c.id).limit(1)).first()
    if row is None:
        return None
    return Clash(row.id, row.game, row.created, _members(conn, token, row.id)[2])


def clash_words(one: str, other: str, found: Clash) -> Text:
    return T("%(one)s and %(other)s both sat at the %(game)s match of %(day)s (%(people)s): "
             "a match cannot have one person twice, so they stay two people.", one=one,
             other=other, game=get(found.game).title, day=found.created.date().isoformat(),
             people=" – ".join(found.names))


def _members(conn: Connection, token: str, match_id: str) -> tuple[datetime, list[int],
                                                                    list[str]]:
    """When the match joined the circle, its player per seat and their names (NotInCircle if
    it is not this circle's)."""
    added = conn.execute(select(circle_matches.c.added).where(
        circle_matches.c.match_id == match_id, circle_matches.c.circle_id == token)).scalar()
    if added is None:
        raise NotInCircle(NOT_A_MATCH)
    rows = conn.execute(select(circle_seats.c.player_id, circle_players.c.name)
                        .join(circle_players, circle_players.c.id == circle_seats.c.player_id)
                        .where(circle_seats.c.match_id == match_id)
                        .order_by(circle_seats.c.seat)).all()
    return added, [int(p) for p, _ in rows], [str(n) for _, n in rows]


def _match(conn: Connection, match_id: str) -> tuple[str, datetime]:
    row = conn.execute(select(matches.c.game, matches.c.created)
                       .where(matches.c.id == match_id)).one()
    return str(row.game), row.created


def _take_out(conn: Connection, match_id: str) -> None:
    conn.execute(delete(circle_seats).where(circle_seats.c.match_id == match_id))
    conn.execute(delete(circle_matches).where(circle_matches.c.match_id == match_id))


def _change(conn: Connection, token: str, change_id: int) -> Any:
    row = conn.execute(select(circle_changes).where(circle_changes.c.id == change_id,
                                                    circle_changes.c.circle_id == token)).first()
    if row is None:
        raise NotInCircle(NOT_A_CHANGE)
    return row
