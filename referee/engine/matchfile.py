"""The match file: one match as versioned JSON, read strictly and scored on the way in.

A match file is a JSON object (UTF-8)::

    {
      "format": "referee-match",
      "version": 1,
      "game": "tartli",
      "created": "2026-11-30",
      "settings": {"players": ["Ágnes", "Tamás"], "target": 5, "first_dealer": 0},
      "hands": [ {...hand facts...}, ... ]
    }

Fields (all required but ``language``, no others allowed):

``format``
    Always the string ``"referee-match"``; it tells a match file from any other JSON.
``version``
    The whole number 1. The version changes whenever a reader of the old version could
    misread a new file. **Readers refuse every version they do not know** with a message
    that names both versions; they never guess. Adding a game needs no new version.
``game``
    A name from the game registry (``referee.engine.games.GAMES``), e.g. ``"tartli"``.
``created``
    The day the match was created, as an ISO date ``YYYY-MM-DD``.
``settings``
    What the table chose when the match was created, as the game reads it
    (``Game.settings``). Tartli: ``players`` (two different names, at most 40 characters
    each), ``target`` (5 or 10 buli) and ``first_dealer`` (0 or 1, an index into
    ``players``). Stovkahra: four ``players`` (N, E, S, W), two ``teams``, ``target``,
    ``first_dealer`` (0–3) and the variant switches (``referee.engine.games.stovkahra``).
    Marjolet: two ``players``, ``target`` (500 or 1000), ``first_dealer``, ``rules``
    (``default``, ``traditional`` or ``custom``) and its four switches
    (``referee.engine.games.marjolet``).
``language`` (optional; ``"en"`` when absent)
    The language the match is recorded in (its scoresheet, its CSV): one of
    ``referee.engine.words.LANGUAGES`` (``en``, ``hu``, ``de_CH``, ``cs``, ``fr``). Written
    only when it is not English, so an English match's file is as before.
``hands``
    The facts the table reported for each hand, in the order played, in the game's hand
    format (Tartli: ``referee.engine.games.tartli.facts``; Stovkahra:
    ``referee.engine.games.stovkahra.facts``; Marjolet:
    ``referee.engine.games.marjolet.facts``). Only facts are stored; scores, totals and
    victory points are always derived by folding the engine over the hands.
    Only the last hand may still be in progress (``"end": null``).

Reading (``load``) checks everything: the JSON itself, the fields above, every hand's facts,
and then the whole match through the game's scoring, so an impossible hand or a hand after the
end of the match is refused. Every problem is a ``RuleViolation`` whose message a player can
act on; nothing else escapes. Settings and hands are kept in the game's canonical form, so
``dump(load(x))`` equals ``x`` for a file written by ``dumps`` and ``load(dumps(m)) == m``.

Every string, key or value, is valid Unicode text: a JSON ``"\\ud800"`` escape (half a
character, which no page, file or database can hold) is refused (``file.text``), saying where.
A name has at most 40 characters and something visible, no control or direction-turning
character (``referee.engine.games.base.require_name``); whole numbers are JSON integers.

Limits that no match the app can hold reaches: 6,000,000 bytes of text, 1,000 hands, nesting
32 deep, numbers of at most 15 digits. The largest match is one of 1,000 Marjolet deals recorded
card by card (Marjolet ends only on a tie at the target or more: deals that score the same for
both go on and on): some 3.6 MB as ``dumps`` writes it, a deal at most about 3.6 kB so; the
other games' hands are smaller (Tartli about 2.2 kB, Stovkahra 1 kB, Troggu 0.7 kB).
"""

from __future__ import annotations

import copy
import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import Any, Literal

from . import scoring
from .errors import RuleViolation, readable
from .games import get
from .games.base import is_text
from .words import LANGUAGES, N, P, T, Text

FORMAT = "referee-match"
VERSION = 1
KEYS = ("format", "version", "game", "created", "settings", "hands")
OPTIONAL = ("language",)

MAX_BYTES = 6_000_000      # the largest match the app holds exports about 3.6 MB
MAX_HANDS = 1_000
MAX_DEPTH = 32
MAX_NODES = 500_000
MAX_NUMBER = 10**15

_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


@dataclass(frozen=True)
class MatchFile:
    """One match: its game, settings, the facts of its hands, and the day it was created.

    ``load`` returns settings and hands in the game's canonical form."""

    game: str
    settings: dict[str, Any]
    hands: list[dict[str, Any]]
    created: str
    language: str = "en"


def _problem(code: str, message: Text) -> RuleViolation:
    return RuleViolation(code, message)


def show(value: object) -> str:
    """A short, safe rendering of a wrong value for a message (never fails): what the user
    wrote in quotes or as JSON writes it, else a ``Text`` that says what kind of value it is."""
    if isinstance(value, str):
        value = readable(value)
        return f"“{value[:20]}…”" if len(value) > 20 else f"“{value}”"
    if value is None:
        return P("JSON", "null")
    if isinstance(value, bool):
        return P("JSON", "true") if value else P("JSON", "false")
    if isinstance(value, int):
        return str(value) if abs(value) < MAX_NUMBER else T("a very large number")
    if isinstance(value, float):
        if not math.isfinite(value):
            return T("a number JSON cannot hold")
        if abs(value) >= MAX_NUMBER:
            return T("a very large number")
        text = repr(value)
        return text if "e" not in text else T("a very small number")    # 1e-05
    if isinstance(value, dict):
        return T("a record")
    return T("a list") if isinstance(value, list) else T("a value of the wrong kind")


Problem = Callable[[str, Text], RuleViolation]
Kind = Literal["match", "circle"]

_NOT_JSON: dict[str, Callable[[int, int], Text]] = {
    # the json module's messages (CPython 3.11–3.13), each said whole
    "Expecting value": lambda line, column: T(
        "The file is not valid JSON: Expecting value at line %(line)s, column %(column)s",
        line=line, column=column),
    "Extra data": lambda line, column: T(
        "The file is not valid JSON: Extra data at line %(line)s, column %(column)s",
        line=line, column=column),
    "Expecting property name enclosed in double quotes": lambda line, column: T(
        "The file is not valid JSON: Expecting property name enclosed in double quotes at "
        "line %(line)s, column %(column)s", line=line, column=column),
    "Expecting ':' delimiter": lambda line, column: T(
        "The file is not valid JSON: Expecting ':' delimiter at line %(line)s, column "
        "%(column)s", line=line, column=column),
    "Expecting ',' delimiter": lambda line, column: T(
        "The file is not valid JSON: Expecting ',' delimiter at line %(line)s, column "
        "%(column)s", line=line, column=column),
    "Unterminated string starting at": lambda line, column: T(
        "The file is not valid JSON: Unterminated string starting at line %(line)s, column "
        "%(column)s", line=line, column=column),
    "Invalid control character at": lambda line, column: T(
        "The file is not valid JSON: Invalid control character at line %(line)s, column "
        "%(column)s", line=line, column=column),
    "Invalid \\escape": lambda line, column: T(
        "The file is not valid JSON: Invalid \\escape at line %(line)s, column %(column)s",
        line=line, column=column),
    "Invalid \\uXXXX escape": lambda line, column: T(
        "The file is not valid JSON: Invalid \\uXXXX escape at line %(line)s, column "
        "%(column)s", line=line, column=column),
    "Illegal trailing comma before end of object": lambda line, column: T(
        "The file is not valid JSON: Illegal trailing comma before end of object at line "
        "%(line)s, column %(column)s", line=line, column=column),
    "Illegal trailing comma before end of array": lambda line, column: T(
        "The file is not valid JSON: Illegal trailing comma before end of array at line "
        "%(line)s, column %(column)s", line=line, column=column),
}


def _not_json(error: json.JSONDecodeError) -> Text:
    said = _NOT_JSON.get(error.msg)
    if said is not None:
        return said(error.lineno, error.colno)
    return T("The file is not valid JSON at line %(line)s, column %(column)s",
             line=error.lineno, column=error.colno)


def _no_constant(name: str) -> Text:
    if name == "NaN":
        return T("The file holds NaN, which is not a number in JSON")
    if name == "-Infinity":
        return T("The file holds -Infinity, which is not a number in JSON")
    return T("The file holds Infinity, which is not a number in JSON")


def parse_json(
    data: str | bytes | bytearray, *, limit: int, what: Kind, problem: Problem,
    trusted: bool = False,
) -> object:
    """A file of ``what`` ("match", "circle") read as strict JSON: at most ``limit`` bytes of
    UTF-8, no NaN, no key twice in a record. ``problem(code, message)`` makes the refusal
    (codes ``file.size``, ``file.encoding``, ``file.json``, ``file.depth``, ``file.number``)."""
    circle = what == "circle"
    if len(data) > limit:
        raise problem("file.size", N(
            "The file is larger than %(num)s byte: no circle file is so large",
            "The file is larger than %(num)s bytes: no circle file is so large", limit,
            num=limit) if circle else N(
            "The file is larger than %(num)s byte: no match file is so large",
            "The file is larger than %(num)s bytes: no match file is so large", limit,
            num=limit))
    if isinstance(data, (bytes, bytearray)):
        try:
            data = bytes(data).decode("utf-8-sig")
        except UnicodeDecodeError as error:
            raise problem("file.encoding", T(
                "The file is not UTF-8 text (bad byte at position %(position)s)",
                position=error.start)) from None

    def no_constant(name: str) -> object:
        raise problem("file.json", _no_constant(name))

    def no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for key, value in pairs:
            if key in result:
                raise problem("file.json", T("The key %(key)s appears twice in one record",
                                             key=show(key)))
            result[key] = value
        return result

    try:
        if trusted:        # written by ``dumps``: no duplicate keys, no NaN
            return json.loads(data)
        return json.loads(data, parse_constant=no_constant, object_pairs_hook=no_duplicates)
    except RuleViolation:
        raise
    except json.JSONDecodeError as error:
        raise problem("file.json", _not_json(error)) from None
    except RecursionError:
        raise problem("file.depth", T(
            "The file nests lists and records far more deeply than a circle file") if circle
            else T("The file nests lists and records far more deeply than a match file")
        ) from None
    except ValueError:      # e.g. an integer with thousands of digits
        raise problem("file.number", T("The file holds a number far too large for a circle")
                      if circle else T("The file holds a number far too large for a match")) \
            from None


def _parse_text(data: str | bytes | bytearray, trusted: bool = False) -> object:
    return parse_json(data, limit=MAX_BYTES, what="match", problem=_problem, trusted=trusted)


def _where(path: tuple[str | int, ...]) -> str:
    """Where a value is in the file, as its keys and places: “settings” → “players” → 1."""
    return " → ".join(f"{step + 1}" if isinstance(step, int) else show(step) for step in path)


def _check_text(value: str, path: tuple[str | int, ...]) -> None:
    if not is_text(value):
        if path:
            raise _problem("file.text", T(
                "The file holds text that is not valid Unicode in %(place)s: a lone surrogate "
                "(such as \\ud800), half of a character that cannot be shown",
                place=_where(path)))
        raise _problem("file.text", T(
            "The file holds text that is not valid Unicode: a lone surrogate (such as "
            "\\ud800), half of a character that cannot be shown"))


def _check_json_shape(data: object) -> None:
    """Only JSON values, not nested too deeply, no huge numbers, text that is valid Unicode;
    without recursion, so a cyclic or very deep Python value is refused rather than crashing
    the reader."""
    stack: list[tuple[object, int, tuple[str | int, ...]]] = [(data, 0, ())]
    nodes = 0
    while stack:
        value, depth, path = stack.pop()
        nodes += 1
        if depth > MAX_DEPTH:
            raise _problem("file.depth", T(
                "The file nests lists and records more deeply than a match file"))
        if nodes > MAX_NODES:
            raise _problem("file.size", T("The file holds more values than any match file"))
        if isinstance(value, str):
            _check_text(value, path)
            continue
        if value is None or isinstance(value, (bool, float)):
            continue
        if isinstance(value, int):
            if abs(value) >= MAX_NUMBER:
                raise _problem("file.number",
                               T("The file holds a number far too large for a match"))
        elif isinstance(value, dict):
            for key, item in value.items():
                if not isinstance(key, str):
                    raise _problem("file.shape", T("Every key of a record must be text"))
                _check_text(key, path)
                stack.append((item, depth + 1, (*path, key)))
        elif isinstance(value, list):
            stack.extend((item, depth + 1, (*path, n)) for n, item in enumerate(value))
        else:
            raise _problem("file.shape", T(
                "The match holds a value of the type %(kind)s, which JSON cannot hold",
                kind=show(type(value).__name__)))


def _check_whole(settings: dict[str, Any]) -> None:
    """No setting is a fraction: a whole number written with a decimal point (``"target":
    5.0``) is refused as such, whatever the game would say of the value."""
    for key, value in settings.items():
        if isinstance(value, float):
            setting = "“" + readable(key)[:20] + "”"
            raise _problem("file.number", T(
                "%(setting)s in “settings” must be a whole number written without a decimal "
                "point (an integer, such as %(example)s), not %(value)s",
                setting=setting,
                example=show(int(value)) if value.is_integer() else "5", value=show(value)))


def check_created(value: object) -> str:
    if not isinstance(value, str) or not _ISO_DATE.match(value):
        raise _problem("file.created", T(
            "“created” must be a date written YYYY-MM-DD, not %(value)s", value=show(value)))
    try:
        date.fromisoformat(value)
    except ValueError:
        raise _problem("file.created", T("“created” is not a real date: %(value)s",
                                         value=show(value))) from None
    return value


def _check_header(raw: dict[str, Any]) -> None:
    if raw.get("format") != FORMAT:
        raise _problem("file.format", T(
            "This is not a Referee match file: “format” must be %(format)s, not %(value)s",
            format=show(FORMAT), value=show(raw.get("format"))))
    version = raw.get("version")
    if type(version) is not int:
        raise _problem("file.version", T(
            "“version” must be a whole number (this Referee reads version %(version)s), not "
            "%(value)s", version=VERSION, value=show(version)))
    if version != VERSION:
        raise _problem("file.version", T(
            "This match file is version %(value)s: it was written by a newer Referee; this "
            "Referee reads only version %(version)s", value=show(version), version=VERSION)
            if version > VERSION else T(
            "This match file is version %(value)s: this Referee reads only version "
            "%(version)s", value=show(version), version=VERSION))
    unknown = sorted(set(raw) - set(KEYS) - set(OPTIONAL))
    if unknown:
        raise _problem("file.unknown", T(
            "Unknown field %(field)s in a version %(version)s match file",
            field=show(unknown[0]), version=VERSION))
    missing = [key for key in KEYS if key not in raw]
    if missing:
        raise _problem("file.missing", T("The match file lacks the field %(field)s",
                                         field=show(missing[0])))


def _read(data: object, trusted: bool) -> MatchFile:
    if isinstance(data, (str, bytes, bytearray)):
        data = _parse_text(data, trusted)
    if not isinstance(data, dict):
        raise _problem("file.shape", T("A match file is a JSON object (a record of fields)"))
    if not trusted:
        _check_json_shape(data)
    _check_header(data)
    if not isinstance(data["game"], str):
        raise _problem("game.unknown", T("“game” must be a game's name, not %(value)s",
                                         value=show(data["game"])))
    game = get(data["game"])
    created = check_created(data["created"])
    language = data.get("language", "en")
    if language not in LANGUAGES:
        raise _problem("file.language", T(
            "“language” must be one of %(languages)s, not %(value)s",
            languages=", ".join(show(code) for code in LANGUAGES),
            value=show(language)))
    if not isinstance(data["settings"], dict):
        raise _problem("file.settings",
                       T("“settings” must be a record of the match's settings"))
    _check_whole(data["settings"])
    settings = game.settings(data["settings"])
    hands_raw = data["hands"]
    if not isinstance(hands_raw, list):
        raise _problem("file.hands", T("“hands” must be a list of hands"))
    if len(hands_raw) > MAX_HANDS:
        raise _problem("file.hands", N("A match file holds at most %(num)s hand",
                                       "A match file holds at most %(num)s hands", MAX_HANDS,
                                       num=MAX_HANDS))
    if trusted:
        # canonical and complete as written by ``dump``: read as they are
        hands: list[dict[str, Any]] = list(hands_raw)
    else:
        hands = []
        for number, raw in enumerate(hands_raw, 1):
            try:
                hands.append(game.canonical_hand(raw))
            except RuleViolation as error:
                raise error.in_hand(number, game.hand_word.capitalize()) from None
        hands = game.complete(settings, hands)
    scoring.score(game.name, settings, hands, trusted)
    return MatchFile(game=game.name, settings=settings, hands=hands, created=created,
                     language=language)


def load(data: object, *, trusted: bool = False) -> MatchFile:
    """Read a match file from a dict or from JSON text (str or bytes) and check all of it.

    Every problem is a RuleViolation (code ``file.*`` for the file itself, else the game's
    code); its message names the hand it is in.

    ``trusted``: the file was written by this app (``dumps`` of a match it checked), so its
    hands are already canonical and complete: they are not read again one by one, nor is the
    JSON's shape checked; the header, the settings and the whole match through the game's
    scoring still are. Never for a file from elsewhere (an import): a hand that is not in the
    canonical form could then be scored as it stands."""
    try:
        with scoring.gc_paused():
            return _read(data, trusted)
    except RuleViolation:
        raise
    except Exception as error:   # a safety net: a reader never crashes on a file
        raise _problem("file.internal", T(
            "This file could not be checked (internal error %(error)s); please report it with "
            "the file", error=show(type(error).__name__))) from error


def dump(m: MatchFile) -> dict[str, Any]:
    """The file's JSON object (a fresh copy: changing it leaves ``m`` alone)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": m.game,
        "created": m.created,
        **({"language": m.language} if m.language != "en" else {}),
        "settings": copy.deepcopy(m.settings),
        "hands": copy.deepcopy(m.hands),
    }


def dumps(m: MatchFile) -> str:
    """The file's text: indented JSON, non-ASCII letters kept as they are."""
    return json.dumps(dump(m), indent=2, ensure_ascii=False) + "\n"


def standings(m: MatchFile) -> dict[str, Any]:
    """Everything derived from the match, as JSON: the rules in force, the standing and each
    hand's outcome with its explanation lines; ``in_progress`` only while a hand is."""
    with scoring.gc_paused():
        return _standings(m)


def _standings(m: MatchFile) -> dict[str, Any]:
    game = get(m.game)
    # checked by ``load`` (or kept by the app): the fold ``load`` left, else a trusted one
    result = scoring.score(game.name, m.settings, m.hands, trusted=True)
    names: list[str] = list(m.settings["players"])
    out: dict[str, Any] = {
        "game": game.name,
        "players": names,
        "settings": copy.deepcopy(m.settings),
        "rules": game.rules_in_force(m.settings),
        "standing": result.standing.as_dict(game.sides(m.settings), names),
        "hands": [hand.as_dict() for hand in result.hands],
    }
    if result.draft is not None:
        out["in_progress"] = result.draft.as_dict()
    return out
