"""The circle file: a circle (a group that plays together) as one versioned JSON file, its
players and its matches, each match in the match-file format.

    {
      "format": "referee-circle",
      "version": 1,
      "name": "Thursday club",
      "created": "2026-11-30",
      "players": ["Anna", "Beat", "Carla"],
      "matches": [{"match": {...a match file...}, "people": [0, 2, 1]}, ...]
    }

Fields (all required, no others allowed; the same in each match entry):

``format``  always ``"referee-circle"``.
``version`` the whole number 1; a reader refuses every version it does not know, naming both.
``name``    the circle's name (a name as players' names are: at most 40 characters).
``created`` the day the circle was created, ``YYYY-MM-DD``.
``players`` the circle's players' names, all different (``name_key``).
``matches`` the circle's matches, oldest first: ``match`` is a match file as
            ``referee.engine.matchfile`` writes it (read by its ``load``, as strictly), and
            ``people`` the index in ``players`` of the person in each of its seats, one seat per
            player of the match, no person twice.

Every problem is a ``RuleViolation`` (code ``circle.*``, or the match file's own, naming the
match); nothing else escapes. Limits: 20,000,000 bytes, 500 players, 1,000 matches and 50,000
hands in all (a club's weekly evenings for years), counted before any match is read, so that a
file over them costs no more than reading its JSON."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from . import matchfile
from .errors import RuleViolation
from .games.base import is_text, name_key, require_name

FORMAT = "referee-circle"
VERSION = 1
KEYS = ("format", "version", "name", "created", "players", "matches")
ENTRY_KEYS = ("match", "people")

MAX_BYTES = 20_000_000
MAX_PLAYERS = 500
MAX_MATCHES = 1_000
MAX_HANDS = 50_000        # in all the matches


@dataclass(frozen=True)
class CircleFile:
    name: str
    created: str
    players: list[str]
    matches: list[tuple[matchfile.MatchFile, list[int]]]     # (match, player index per seat)


def _problem(code: str, message: str) -> RuleViolation:
    return RuleViolation(f"circle.{code}", message)


_shown = matchfile.show        # a wrong value in a message, as the match file shows it


def _parse(data: str | bytes | bytearray) -> object:
    return matchfile.parse_json(
        data, limit=MAX_BYTES, what="circle",
        problem=lambda code, message: _problem(code.removeprefix("file."), message))


def _fields(raw: object, keys: tuple[str, ...], what: str) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise _problem("shape", f"{what} is a JSON object (a record of fields)")
    for key in raw:
        if not is_text(key) or key not in keys:
            raise _problem("unknown", f"Unknown field {_shown(key)} in {what.lower()}")
    missing = [key for key in keys if key not in raw]
    if missing:
        raise _problem("missing", f"{what} lacks the field “{missing[0]}”")
    return raw


def _header(raw: dict[str, Any]) -> None:
    if raw.get("format") != FORMAT:
        raise _problem("format", f"This is not a Referee circle file: “format” must be "
                                 f"“{FORMAT}”, not {_shown(raw.get('format'))}")
    version = raw.get("version")
    if type(version) is not int:
        raise _problem("version", f"“version” must be a whole number (this Referee reads "
                                  f"version {VERSION}), not {_shown(version)}")
    if version != VERSION:
        newer = " it was written by a newer Referee;" if version > VERSION else ""
        raise _problem("version", f"This circle file is version {_shown(version)}:{newer} "
                                  f"this Referee reads only version {VERSION}")


def _read(data: object) -> CircleFile:
    if isinstance(data, (str, bytes, bytearray)):
        data = _parse(data)
    if isinstance(data, dict):
        _header(data)
    raw = _fields(data, KEYS, "A circle file")
    name = require_name(raw["name"], "circle.name", "The circle")
    created = matchfile.check_created(raw["created"])
    players_raw = raw["players"]
    if not isinstance(players_raw, list):
        raise _problem("players", "“players” must be a list of the circle's players' names")
    if len(players_raw) > MAX_PLAYERS:
        raise _problem("players", f"A circle file holds at most {MAX_PLAYERS} players")
    players: list[str] = []
    seen: dict[str, str] = {}
    for n, value in enumerate(players_raw, 1):
        try:
            player = require_name(value, "circle.players", f"Player {n}")
        except RuleViolation as error:
            raise _problem("players", f"Player {n}: {error.message}") from None
        if name_key(player) in seen:
            raise _problem("players", f"Player {n}, {player}, is the same name as "
                                      f"{seen[name_key(player)]}: a circle's players have "
                                      "different names")
        seen[name_key(player)] = player
        players.append(player)
    entries = raw["matches"]
    if not isinstance(entries, list):
        raise _problem("matches", "“matches” must be a list of the circle's matches")
    if len(entries) > MAX_MATCHES:
        raise _problem("matches", f"A circle file holds at most {MAX_MATCHES:,} matches")
    hands = sum(len(e["match"]["hands"]) for e in entries if isinstance(e, dict)
                and isinstance(e.get("match"), dict)
                and isinstance(e["match"].get("hands"), list))
    if hands > MAX_HANDS:
        raise _problem("hands", f"A circle file holds at most {MAX_HANDS:,} hands in all its "
                                f"matches, not {hands:,}")
    matches = []
    for n, entry in enumerate(entries, 1):
        fields = _fields(entry, ENTRY_KEYS, f"Match {n} of the circle file")
        try:
            match = matchfile.load(fields["match"])
        except RuleViolation as error:
            raise RuleViolation(error.code, f"Match {n}: {error.message}", error.rule) from None
        matches.append((match, _people(fields["people"], match, len(players), n)))
    return CircleFile(name, created, players, matches)


def _people(value: object, match: matchfile.MatchFile, players: int, n: int) -> list[int]:
    seats = len(match.settings["players"])
    if not isinstance(value, list) or len(value) != seats:
        raise _problem("people", f"Match {n}: “people” must name the player in each of its "
                                 f"{seats} seats (their place in “players”, counted from 0)")
    for person in value:
        if isinstance(person, float) and person.is_integer():
            raise _problem("people", f"Match {n}: “people” holds {_shown(person)}: a place in "
                                     f"“players” is a whole number written without a decimal "
                                     f"point (an integer, such as {int(person)})")
        if type(person) is not int or not 0 <= person < players:
            raise _problem("people", f"Match {n}: {_shown(person)} is no player of the circle "
                                     f"(“people” counts the {players} players from 0)")
    if len(set(value)) != len(value):
        raise _problem("people", f"Match {n}: one person sits in two seats")
    return list(value)


def load(data: object) -> CircleFile:
    """Read a circle file from a dict or JSON text and check all of it (every match as
    ``matchfile.load`` does). Raises only RuleViolation."""
    try:
        return _read(data)
    except RuleViolation:
        raise
    except Exception as error:   # a safety net: a reader never crashes on a file
        raise _problem("internal", "This file could not be checked (internal error "
                                   f"{type(error).__name__}); please report it with the "
                                   "file") from error


def dump(c: CircleFile) -> dict[str, Any]:
    return {
        "format": FORMAT, "version": VERSION, "name": c.name, "created": c.created,
        "players": list(c.players),
        "matches": [{"match": matchfile.dump(m), "people": list(people)}
                    for m, people in c.matches],
    }


def dumps(c: CircleFile) -> str:
    return json.dumps(dump(c), indent=1, ensure_ascii=False) + "\n"
