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

Fields (all required but ``ratings``, no others allowed; the same in each match entry):

``format``  always ``"referee-circle"``.
``version`` the whole number 1; a reader refuses every version it does not know, naming both.
``name``    the circle's name (a name as players' names are: at most 40 characters).
``created`` the day the circle was created, ``YYYY-MM-DD``.
``players`` the circle's players' names, all different (``name_key``).
``matches`` the circle's matches, oldest first: ``match`` is a match file as
            ``referee.engine.matchfile`` writes it (read by its ``load``, as strictly), and
            ``people`` the index in ``players`` of the person in each of its seats, one seat per
            player of the match, no person twice.

``ratings`` (optional, written by the app's export) the players' ratings derived from the
            matches (``referee.stats.ratings.as_json``, each person by name): read by people,
            never by a reader, which accepts the field and ignores it (the ratings are rated
            again from the matches).

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
from .words import N, T, Text

FORMAT = "referee-circle"
VERSION = 1
KEYS = ("format", "version", "name", "created", "players", "matches")
ENTRY_KEYS = ("match", "people")
DERIVED = ("ratings",)      # written for people, ignored on reading

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


def _problem(code: str, message: Text) -> RuleViolation:
    return RuleViolation(f"circle.{code}", message)


_shown = matchfile.show        # a wrong value in a message, as the match file shows it


def _parse(data: str | bytes | bytearray) -> object:
    return matchfile.parse_json(
        data, limit=MAX_BYTES, what="circle",
        problem=lambda code, message: _problem(code.removeprefix("file."), message))


def _fields(raw: object, keys: tuple[str, ...], match: int | None = None) -> dict[str, Any]:
    """The record of the circle file (``match`` None) or of its ``match``-th match's entry,
    with exactly ``keys``."""
    if not isinstance(raw, dict):
        raise _problem("shape", T("A circle file is a JSON object (a record of fields)")
                       if match is None else
                       T("Match %(match)s of the circle file is a JSON object (a record of "
                         "fields)", match=match))
    for key in raw:
        if not is_text(key) or (key not in keys and (match is not None or key not in DERIVED)):
            raise _problem("unknown", T("Unknown field %(field)s in a circle file",
                                        field=_shown(key)) if match is None else
                           T("Unknown field %(field)s in match %(match)s of the circle file",
                             field=_shown(key), match=match))
    missing = [key for key in keys if key not in raw]
    if missing:
        raise _problem("missing", T("A circle file lacks the field %(field)s",
                                    field=_shown(missing[0])) if match is None else
                       T("Match %(match)s of the circle file lacks the field %(field)s",
                         field=_shown(missing[0]), match=match))
    return raw


def _header(raw: dict[str, Any]) -> None:
    if raw.get("format") != FORMAT:
        raise _problem("format", T("This is not a Referee circle file: “format” must be "
                                   "%(format)s, not %(value)s", format=_shown(FORMAT),
                                   value=_shown(raw.get("format"))))
    version = raw.get("version")
    if type(version) is not int:
        raise _problem("version", T("“version” must be a whole number (this Referee reads "
                                    "version %(version)s), not %(value)s", version=VERSION,
                                    value=_shown(version)))
    if version != VERSION:
        raise _problem("version", T(
            "This circle file is version %(value)s: it was written by a newer Referee; this "
            "Referee reads only version %(version)s", value=_shown(version), version=VERSION)
            if version > VERSION else T(
            "This circle file is version %(value)s: this Referee reads only version "
            "%(version)s", value=_shown(version), version=VERSION))


def _read(data: object) -> CircleFile:
    if isinstance(data, (str, bytes, bytearray)):
        data = _parse(data)
    if isinstance(data, dict):
        _header(data)
    raw = _fields(data, KEYS)
    name = require_name(raw["name"], "circle.name", T("The circle"))
    created = matchfile.check_created(raw["created"])
    players_raw = raw["players"]
    if not isinstance(players_raw, list):
        raise _problem("players", T("“players” must be a list of the circle's players' names"))
    if len(players_raw) > MAX_PLAYERS:
        raise _problem("players", N("A circle file holds at most %(num)s player",
                                    "A circle file holds at most %(num)s players", MAX_PLAYERS,
                                    num=MAX_PLAYERS))
    players: list[str] = []
    seen: dict[str, str] = {}
    for n, value in enumerate(players_raw, 1):
        try:
            player = require_name(value, "circle.players", T("Player %(number)s", number=n))
        except RuleViolation as error:
            raise _problem("players", T("Player %(number)s: %(message)s", number=n,
                                        message=error.message)) from None
        if name_key(player) in seen:
            raise _problem("players", T(
                "Player %(number)s, %(player)s, is the same name as %(other)s: a circle's "
                "players have different names", number=n, player=player,
                other=seen[name_key(player)]))
        seen[name_key(player)] = player
        players.append(player)
    entries = raw["matches"]
    if not isinstance(entries, list):
        raise _problem("matches", T("“matches” must be a list of the circle's matches"))
    if len(entries) > MAX_MATCHES:
        raise _problem("matches", N("A circle file holds at most %(num)s match",
                                    "A circle file holds at most %(num)s matches", MAX_MATCHES,
                                    num=MAX_MATCHES))
    hands = sum(len(e["match"]["hands"]) for e in entries if isinstance(e, dict)
                and isinstance(e.get("match"), dict)
                and isinstance(e["match"].get("hands"), list))
    if hands > MAX_HANDS:
        raise _problem("hands", N(
            "A circle file holds at most %(num)s hand in all its matches, not %(hands)s",
            "A circle file holds at most %(num)s hands in all its matches, not %(hands)s",
            MAX_HANDS, num=MAX_HANDS, hands=hands))
    matches = []
    for n, entry in enumerate(entries, 1):
        fields = _fields(entry, ENTRY_KEYS, n)
        try:
            match = matchfile.load(fields["match"])
        except RuleViolation as error:
            raise RuleViolation(error.code, T("Match %(match)s: %(message)s", match=n,
                                              message=error.message), error.rule) from None
        matches.append((match, _people(fields["people"], match, len(players), n)))
    return CircleFile(name, created, players, matches)


def _people(value: object, match: matchfile.MatchFile, players: int, n: int) -> list[int]:
    seats = len(match.settings["players"])
    if not isinstance(value, list) or len(value) != seats:
        raise _problem("people", N(
            "Match %(match)s: “people” must name the player in each of its %(num)s seat "
            "(their place in “players”, counted from 0)",
            "Match %(match)s: “people” must name the player in each of its %(num)s seats "
            "(their place in “players”, counted from 0)", seats, match=n, num=seats))
    for person in value:
        if isinstance(person, float) and person.is_integer():
            raise _problem("people", T(
                "Match %(match)s: “people” holds %(value)s: a place in “players” is a whole "
                "number written without a decimal point (an integer, such as %(example)s)",
                match=n, value=_shown(person), example=_shown(int(person))))
        if type(person) is not int or not 0 <= person < players:
            raise _problem("people", N(
                "Match %(match)s: %(value)s is no player of the circle (“people” counts the "
                "%(num)s player from 0)",
                "Match %(match)s: %(value)s is no player of the circle (“people” counts the "
                "%(num)s players from 0)", players, match=n, value=_shown(person),
                num=players))
    if len(set(value)) != len(value):
        raise _problem("people", T("Match %(match)s: one person sits in two seats", match=n))
    return list(value)


def load(data: object) -> CircleFile:
    """Read a circle file from a dict or JSON text and check all of it (every match as
    ``matchfile.load`` does). Raises only RuleViolation."""
    try:
        return _read(data)
    except RuleViolation:
        raise
    except Exception as error:   # a safety net: a reader never crashes on a file
        raise _problem("internal", T(
            "This file could not be checked (internal error %(error)s); please report it with "
            "the file", error=_shown(type(error).__name__))) from error


def dump(c: CircleFile, ratings: dict[str, Any] | None = None) -> dict[str, Any]:
    """The file's JSON object; ``ratings`` (derived data, see ``ratings`` above) written last
    when given."""
    out = {
        "format": FORMAT, "version": VERSION, "name": c.name, "created": c.created,
        "players": list(c.players),
        "matches": [{"match": matchfile.dump(m), "people": list(people)}
                    for m, people in c.matches],
    }
    if ratings is not None:
        out["ratings"] = ratings
    return out


def dumps(c: CircleFile, ratings: dict[str, Any] | None = None) -> str:
    return json.dumps(dump(c, ratings), indent=1, ensure_ascii=False) + "\n"
