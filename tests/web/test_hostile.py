"""Hostile posts: over ten thousand random and malformed POSTs against every game's forms.

Hypothesis builds each request from the real forms (their field names with their prefixes and
their choices) mixed with junk: unknown field names, text with HTML, NUL bytes and any Unicode,
very long strings, huge and negative numbers, card-like strings, repeated keys, missing fields;
random hand numbers and tricks in the URL, random ``base``/``editing``/``event`` query values,
with or without ``HX-Request``, urlencoded or multipart (now and then with a crafted part that
has no name, or over the 1 MB limit), with a valid CSRF token or a missing, empty, forged or
foreign one, and with the edit token, the view token or an unknown token. Targets: each hand
action of every game (WEB_GAMES[game].actions), delete, undo, every new-match form and import.

For every request:

* no response is a 5xx;
* the status is the one the request deserves where that is known: 404 for a URL that is no
  route or a token that opens no match, 413 for a body over 1 MB (an import: over 6 MB, the
  largest match file), 400 for a nameless part or
  a bad CSRF token, 403 for a view token;
* every rejection (4xx) says why: a visible message with words in it (``class="error"``, or a
  field's ``class="field-error"`` not folded away in a closed <details>);
* no response holds the HTML that was posted unescaped;
* a rejection leaves every stored match byte for byte as it was (storestate.py);
* a 2xx/3xx changes at most the match whose edit token it carried (new match and import: adds
  at most one match); every changed match still scores with the engine
  (``referee.engine.games.get(game).score(settings, hands)``), its match file reads again to
  the same facts, and the page a redirect leads to renders;
* the sentinel matches of other tables, created at the start and never targeted, stay byte
  for byte the same throughout.

Each test is a Hypothesis state machine on one app: every test case starts from the seeded
store (the targeted matches are put back), then posts one request per step, so a failure
replays exactly. (No deadline: the steps of a state machine do not count towards it, but
putting the matches back before a test case does, and took over 200 ms on a busy machine,
issue 21.) Every test case runs all STEPS steps
(Hypothesis may not end one early) and every step sends one post: Hypothesis runs variants of
a test case that repeat its first steps, and a post already answered on the very same stored
state without changing it is replaced by a new one (drawn from a Random, its changes taken
back) rather than sent again. So the number of posts does not depend on the random seed: each
test sends at least its examples times STEPS (test cases that Hypothesis abandons for drawing
too much data add theirs), ``SENT`` counts them, and the last test asserts that they add up to
at least ``TOTAL``, which the budget below guarantees.

The end of the file pins what these posts found, each as a plain test."""

from __future__ import annotations

import json
import re
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from io import BytesIO
from pathlib import Path
from random import Random
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, rule, run_state_machine_as_test
from store.storestate import MatchState, changed, put_back, snapshot
from webtools import Page
from werkzeug.datastructures import MultiDict
from werkzeug.exceptions import MethodNotAllowed, NotFound
from werkzeug.routing import RequestRedirect
from werkzeug.test import TestResponse
from wtforms import (
    BooleanField,
    IntegerField,
    RadioField,
    SelectField,
    SelectMultipleField,
    StringField,
)

from referee.engine import matchfile
from referee.engine.cards import FRENCH, HUNGARIAN, SWISS_TAROT
from referee.engine.games import get as engine_game
from referee.web import IMPORT_UPLOAD
from referee.web.games import WEB_GAMES
from referee.web.store import hand_base

# ---------------------------------------------------------------------------------------------
# The budget: at least TOTAL posts in all, one per step of a state machine.

TOTAL = 10_000
STEPS = 10                   # posts per test case
HAND_EXAMPLES = 210          # test cases per game
NEW_EXAMPLES = 170           # test cases of new-match forms and import
REDRAWS = 10                 # draws of a post that is not a repeat, at most
assert (len(WEB_GAMES) * HAND_EXAMPLES + NEW_EXAMPLES) * STEPS >= TOTAL


def _settings(examples: int) -> settings:
    return settings(max_examples=examples, stateful_step_count=STEPS, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.large_base_example])


SENT: Counter[str] = Counter()          # posts sent, by test
REPEATS: Counter[str] = Counter()       # repeated posts drawn again (see Arena.answered)
STATUSES: Counter[tuple[str, int]] = Counter()
FINISHED: dict[str, float] = {}         # test -> seconds it took

GAMES = sorted(WEB_GAMES)
NEW_AND_IMPORT = "new+import"
DATA = Path(__file__).parents[1] / "data"
FILES = {"tartli": "tartli-short.json", "stovkahra": "stovkahra-series.json",
         "marjolet": "marjolet-game.json", "troggu": "troggu-evening.json"}
OVERSIZE = 1024 * 1024 + 10_000          # over MAX_CONTENT_LENGTH
IMPORT_OVERSIZE = IMPORT_UPLOAD + 10_000  # over the import's (the largest match file's)
EVIL = ("<script>alert(1)</script>", '"><img src=x onerror=alert(1)>')
Pairs = list[tuple[str, Any]]
NAMES = ["Ágnes", "Tamás", "Jana", "Petr", "Eva", "Karel", "Anne", "Bruno", "Beat", "Zoë"]

# ---------------------------------------------------------------------------------------------
# Values

CARDS = sorted({str(c) for deck in (HUNGARIAN, FRENCH, SWISS_TAROT) for c in deck.cards})
RANKS = ["7", "8", "9", "10", "U", "O", "K", "A", "J", "Q", "N", "1", "6", "T1", "T21", "T22",
         "T0", "F", "", "11", "XX"]
SUITS = ["a", "l", "h", "b", "c", "d", "s", "x", "", "H", "♥", "?"]
NASTY = [
    "", " ", "0", "1", "-1", "+1", "-0", "00", "1e3", "1.5", "NaN", "inf", "-inf", "0x10",
    "1_000", " 7 ", "\t5\n", "١٢", "９", "٣٠٠", "\ufeff1", "\u202e1", "\x00", "a\x00b",
    "9" * 7, "9" * 30, "9" * 400, "-" + "9" * 400, "9" * 5000, "-999999", "1000000",
    "A" * 41, "A" * 20_000, "é" * 5000, *EVIL, "<b>x</b>", "&amp;", "{{ 7*7 }}", "{% x %}",
    "null", "None", "true", "false", "[]", "{}", "undefined", "../../etc/passwd", "%00", "\\",
    "'", '"', "\r\n", "🂡", "ǅ", "set:O", "set:?", "seq:?/9", "seq:a/K/4", "seq:h/A/8",
    "pass", "normal", "solo", "tapp", "alone", "add", "take", "each game", "custom",
    "traditional", "default", "y", "on",
    # names: invisible only, decomposed, direction-turning, control characters, and the
    # bytes of a lone surrogate (which a form can only carry percent-encoded)
    "\u200b", "\u2800", "\u3164", "\ufeff", "\u200b\u2060 \u00ad", "Zoe\u0308", "ZOË",
    "Zo\u200bë", "\u202aAnna", "Anna\u2066", "Anna\x01", "Anna\x7f", "%ED%A0%80", "%00",
]
TEXT = st.text(max_size=40)
BIG = st.integers(-10**40, 10**40)
# a URL path segment: anything a link could hold but "/", "?", "#" and "%" (which would split
# or re-encode the path); the router decides what it means
SEGMENT = st.text(st.characters(codec="utf-8", exclude_characters="/?#%",
                                exclude_categories=["Cc", "Cs"]), max_size=30)
JUNK_NAMES = ["", "-", "csrf", "file", "data", "x-y", "a[]", "players[]", "__proto__"]

# Each post draws one seeded Random for its weighted choices (Hypothesis' own draws seek
# novelty: left to them, small finite choices such as "a valid hand number" would soon give
# way to endless junk) and draws the junk itself (text, big numbers) from Hypothesis.


def junk_value(data: st.DataObject, rng: Random) -> str:
    """Text (HTML, NUL bytes, any Unicode, very long), a number (huge, negative, odd), or
    something card-like."""
    kind = rng.choices(["nasty", "text", "number", "card"], [3, 3, 2, 2])[0]
    if kind == "nasty":
        return rng.choice(NASTY)
    if kind == "card":
        return rng.choice(CARDS) if rng.random() < 0.5 else rng.choice(RANKS) + rng.choice(SUITS)
    if kind == "number":
        return str(rng.randint(-3, 160) if rng.random() < 0.5 else data.draw(BIG, label="number"))
    return data.draw(TEXT, label="text")


def _junk_name(name: str) -> str:
    """A junk field name never poses as the CSRF field (that is chosen on purpose)."""
    return name + "_" if name.endswith("csrf_token") else name


def junk_fields(data: st.DataObject, rng: Random, names: list[str]) -> Pairs:
    """Fields with the names of the game's forms (with or without their prefix) or junk
    names, each with one or more junk values (repeated keys)."""
    pairs: Pairs = []
    for _ in range(rng.randint(0, 6)):
        r = rng.random()
        name = (rng.choice(names) if names and r < 0.5 else rng.choice(JUNK_NAMES) if r < 0.65
                else _junk_name(data.draw(TEXT, label="name")))
        pairs += [(name, junk_value(data, rng)) for _ in range(rng.choice([1, 1, 1, 2, 3, 4]))]
    return pairs


def _header_safe(text: str) -> str:
    """A name as a multipart header carries it unchanged (a quote, a backslash or a line break
    would end the name early or leave a part without a name: that case is crafted on purpose
    instead)."""
    return text.translate({ord(c): None for c in '"\\\r\n'})


def _json_values() -> st.SearchStrategy[Any]:
    scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**30, 10**30),
                        st.floats(allow_nan=False), TEXT, st.sampled_from(NASTY + CARDS))
    return st.recursive(scalars, lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(TEXT, inner, max_size=4)), max_leaves=8)


JSON_VALUES = _json_values()
BYTES = st.binary(max_size=300)


def _rng_text(rng: Random, most: int, exclude: str = "", controls: bool = True) -> str:
    """Text like TEXT draws: ASCII, Latin, any plane (no lone surrogates: a form cannot
    carry them), now and then a control character."""
    chars: list[str] = []
    size = rng.randint(0, most)
    while len(chars) < size:
        plane = rng.choices([(0x20, 0x7E), (0xA0, 0x24F), (0x250, 0xD7FF), (0xE000, 0xFFFD),
                             (0x10000, 0x10FFFF), (0, 0x1F)], [8, 3, 2, 1, 1, 1 if controls
                                                                else 0])[0]
        char = chr(rng.randint(*plane))
        if char not in exclude:
            chars.append(char)
    return "".join(chars)


def _rng_json(rng: Random, depth: int = 0) -> Any:
    kind = rng.choice(["none", "bool", "int", "float", "text", "nasty", "list", "dict"][
        : 8 if depth < 2 else 6])
    if kind in ("list", "dict"):
        items = [_rng_json(rng, depth + 1) for _ in range(rng.randint(0, 4))]
        return items if kind == "list" else {_rng_text(rng, 10): v for v in items}
    return {"none": None, "bool": rng.random() < 0.5, "int": rng.randint(-10**30, 10**30),
            "float": rng.uniform(-1e9, 1e9), "text": _rng_text(rng, 40),
            "nasty": rng.choice(NASTY + CARDS)}[kind]


class RngData:
    """Stands in for Hypothesis' ``data`` when a post is drawn again (see HostilePosts): the
    same kinds of values, drawn from a Random, so that Hypothesis' own draws do not depend
    on which posts were answered before."""

    def __init__(self, rng: Random) -> None:
        self.rng = rng

    def draw(self, strategy: st.SearchStrategy[Any], label: str = "") -> Any:
        rng = self.rng
        if strategy is TEXT:
            return _rng_text(rng, 40)
        if strategy is SEGMENT:
            return _rng_text(rng, 30, "/?#%", controls=False)
        if strategy is BIG:
            return rng.randint(-10**40, 10**40)
        if strategy is BYTES:
            return rng.randbytes(rng.randint(0, 300))
        if strategy is JSON_VALUES:
            return _rng_json(rng)
        raise AssertionError(f"no stand-in for {strategy!r}")


# ---------------------------------------------------------------------------------------------
# The real forms


@dataclass(frozen=True)
class Spec:
    """A form field as posted: its name (with the form's prefix), its kind, its choices."""

    name: str
    kind: str            # choice, multi, bool, number, text, names
    choices: tuple[str, ...] = ()


def _specs(form: Any) -> list[Spec]:
    specs = []
    for f in form:
        if f.name.endswith("csrf_token"):
            continue
        choices = tuple(str(c[0]) for c in (getattr(f, "choices", None) or ()))
        if isinstance(f, SelectMultipleField):
            kind = "multi"
        elif isinstance(f, RadioField | SelectField):
            kind = "choice"
        elif isinstance(f, BooleanField):
            kind = "bool"
        elif isinstance(f, IntegerField):
            kind = "number"
        elif isinstance(f, StringField):
            kind = "text"
        else:
            kind = "names"             # Troggu's players: every value posted under one name
        specs.append(Spec(f.name, kind, choices))
    return specs


def forms_of(app: Flask, game: str) -> tuple[list[Spec], dict[str, list[Spec]]]:
    """The fields of the game's new-match form and of each hand action's form."""
    web = WEB_GAMES[game]
    with app.test_request_context():
        new = _specs(web.new_form())
        actions = {
            name: _specs(web.form_classes[spec.form](prefix=spec.form, formdata=None,
                                                    meta={"csrf": False}))
            for name, spec in web.actions.items()
        }
    return new, actions


def browser_values(rng: Random, spec: Spec) -> list[str]:
    """What a browser could post for this field: its values (a list: repeated keys)."""
    if spec.kind == "multi":
        return rng.sample(spec.choices, rng.randint(0, min(6, len(spec.choices))))
    if spec.kind == "choice":
        return [rng.choice([*spec.choices, ""])]
    if spec.kind == "bool":
        return rng.choice([["y"], ["on"], []])
    if spec.kind == "number":
        return [str(rng.randint(-2, 160))]
    if spec.kind == "names":
        return [*rng.sample(NAMES, rng.randint(0, 9)), *[""] * rng.choice([0, 0, 0, 1, 3])]
    return [rng.choice(NAMES)]


def draw_form(data: st.DataObject, rng: Random, specs: list[Spec], names: list[str]) -> Pairs:
    """The form a browser would send (now and then a field left out or hostile), junk fields
    added to it, or junk alone."""
    mode = rng.choices(["browser", "both", "junk"], [6, 2, 1])[0]
    pairs: Pairs = []
    if mode != "junk":
        for spec in specs:
            r = rng.random()
            if r < 0.08:
                continue
            values = (browser_values(rng, spec) if r >= 0.2 else
                      [junk_value(data, rng) for _ in range(rng.randint(1, 3))])
            pairs += [(spec.name, v) for v in values]
    if mode != "browser":
        pairs += junk_fields(data, rng, names)
    if rng.random() < 0.25:
        rng.shuffle(pairs)
    return pairs


# ---------------------------------------------------------------------------------------------
# Requests


@dataclass
class Request:
    path: str
    form: Pairs = field(default_factory=list)
    query: list[tuple[str, str]] = field(default_factory=list)
    headers: dict[str, str] = field(default_factory=dict)
    csrf_ok: bool = True
    oversize: bool = False
    multipart: bool = False
    nameless: bool = False                # a crafted multipart part without a name
    creates: bool = False                 # new match or import: may add one match


def envelope(data: st.DataObject, rng: Random, request: Request, csrf: str, foreign: str,
             action: str = "") -> None:
    """How the request carries (or fails to carry) the CSRF token, with or without htmx, and
    how its form is encoded: urlencoded or multipart (now and then with a part that has no
    name), and now and then over the 1 MB limit."""
    request.multipart = request.multipart or rng.random() < 0.25
    request.nameless = request.multipart and rng.random() < 1 / 30
    request.oversize = rng.random() < 1 / 150
    if request.multipart:
        request.form = [(k if k == "file" else _junk_name(_header_safe(k)), v)
                        for k, v in request.form]
    r = rng.random()
    prefix = "" if r < 0.5 else action if r < 0.75 else data.draw(TEXT, label="prefix")
    name = f"{prefix}-csrf_token" if prefix else "csrf_token"
    if request.multipart:
        name = _header_safe(name)
    forged = csrf[:-4] + ("AAAA" if not csrf.endswith("AAAA") else "BBBB")
    mode = rng.choices(["field", "header", "missing", "empty", "forged", "foreign",
                        "forged-field-good-header"], [6, 5, 1, 1, 1, 1, 1])[0]
    request.csrf_ok = mode in ("field", "header")
    if mode == "field":
        request.form.append((name, csrf))
    elif mode == "header":
        request.headers["X-CSRFToken"] = csrf
    elif mode == "forged-field-good-header":     # the form's field is read first
        request.form.append((name, forged))
        request.headers["X-CSRFToken"] = csrf
    elif mode != "missing":
        value = {"empty": "", "forged": forged, "foreign": foreign}[mode]
        if value and rng.random() < 0.5:
            request.headers["X-CSRFToken"] = value
        else:
            request.form.append((name, value))
    htmx = rng.choice(["true", "true", None, None, None, "false"])
    if htmx is not None:
        request.headers["HX-Request"] = htmx


# ---------------------------------------------------------------------------------------------
# The arena: one app, sentinel tables, targeted tables


def _match_facts(state: MatchState) -> tuple[str, dict[str, Any], list[dict[str, Any]]]:
    row = dict(state.row)
    return (str(row["game"]), json.loads(row["settings"]),
            [json.loads(dict(h)["facts"]) for h in state.hands])


_MESSAGE = re.compile(r'<p class="error"[^>]*>([^<]*)</p>')
_WORDS = re.compile(r"[^\W\d_]{3}")


class Arena:
    """One app on one SQLite file: a sentinel match per game (other tables: never targeted)
    and the targeted matches of the game(s) under test, seeded from tests/data."""

    def __init__(self, app: Flask, client: FlaskClient, csrf_token: Callable[..., str],
                 name: str, games: list[str]) -> None:
        self.app = app
        self.name = name
        self.store = app.extensions["referee.store"]
        self.client = client
        self.adapter = app.url_map.bind("localhost")
        self.csrf = csrf_token("/")                              # this browser's session
        self.foreign = csrf_token("/", other=app.test_client())  # another browser's
        self.answers: set[int] = set()          # (state, request) sent, nothing changed
        self.sentinels = [self._seed(game) for game in GAMES]
        self.targets: list[str] = []
        for game in games:
            self.targets += [self._seed(game), self._seed(game, open_hand=True),
                             self._seed(game, hands=0)]
            if game == "troggu":           # seven players: partner call, forced games
                self.targets.append(str(self.store.create("troggu", engine_game(
                    "troggu").settings({"players": NAMES[:7], "first_dealer": 0, "stake": 10,
                                        "threshold": "standard"}), [])))
        self.seeded = snapshot(app)
        self.kept = {sid: self.seeded[sid] for sid in self.sentinels}
        self.views = {mid: str(dict(s.row)["view_token"]) for mid, s in self.seeded.items()}
        for state in self.seeded.values():              # every seed scores
            game, settings_, hands = _match_facts(state)
            engine_game(game).score(settings_, hands)
        self._warm_up()

    def _seed(self, game: str, open_hand: bool = False, hands: int | None = None) -> str:
        """A match of the game's file in tests/data: all of it, its first two hands with the
        second still being played, or its first ``hands``; the last hand is a change in the
        history, for undo to take back."""
        loaded = matchfile.load((DATA / FILES[game]).read_bytes())
        kept = [dict(h) for h in loaded.hands]
        if hands is not None:
            kept = kept[:hands]
        elif open_hand:
            kept = kept[:2]
            kept[-1]["end"] = None
            for key in ("sticks", "sticks_by", "sticks_against"):   # no game ends yet
                if key in kept[-1]:
                    kept[-1][key] = None
        kept = [WEB_GAMES[game].game.canonical_hand(h) for h in kept]
        mid = str(self.store.create(game, loaded.settings, kept[:-1]))
        if kept:
            self.store.save_hands(mid, kept[:-1], kept, "Seeded", "hostile test")
        return mid

    def _warm_up(self) -> None:
        """Render every page once, so that the first examples do not pay for compiling the
        templates."""
        urls = ["/", *(f"/new/{game}" for game in GAMES)]
        for mid in self.targets:
            urls += [f"/m/{mid}", f"/m/{mid}/hands/1", f"/m/{self.views[mid]}"]
        for url in urls:
            for headers in ({}, {"HX-Request": "true"}):
                assert self.client.get(url, headers=headers).status_code in (200, 404), url
                assert self.client.post(url + "/undo", headers=headers).status_code in (
                    400, 404), url
        assert snapshot(self.app) == self.seeded

    # -- each test case ----------------------------------------------------------------------

    def reset(self) -> dict[str, MatchState]:
        """Put the targeted matches back as seeded and remove the matches created since (the
        sentinels are never touched)."""
        now = snapshot(self.app)
        self.check_sentinels(now)
        moved = changed(self.seeded, now)
        if moved:
            assert not moved & set(self.sentinels)
            put_back(self.app, self.seeded, moved)
            now = snapshot(self.app)
            assert now == self.seeded
        return now

    def check_sentinels(self, now: dict[str, MatchState]) -> None:
        for sid, state in self.kept.items():
            assert now.get(sid) == state, f"the sentinel match {sid} changed"

    def expected(self, request: Request, before: dict[str, MatchState]
                 ) -> tuple[int | None, set[str]]:
        """The status the request deserves, where it is known, and the matches it may
        change."""
        try:
            _, args = self.adapter.match(request.path, method="POST")
        except RequestRedirect:
            return 308, set()
        except MethodNotAllowed:
            return 405, set()
        except NotFound:
            return 404, set()
        if request.oversize:
            return 413, set()
        if request.nameless or not request.csrf_ok:
            return 400, set()
        token = args.get("match_id")
        if token is None:
            return None, set()                 # new match, import: new matches only
        if token in before:
            return None, {token}
        if token in {str(dict(s.row)["view_token"]) for s in before.values()}:
            return 403, set()
        return 404, set()

    @staticmethod
    def fingerprint(request: Request, before: dict[str, MatchState]) -> int:
        return hash((
            frozenset(before.items()), request.path, repr(request.query),
            repr(sorted(request.headers.items())),
            repr([(k, v if isinstance(v, str) else v[0].getvalue()) for k, v in request.form]),
            request.oversize, request.nameless, request.multipart))

    def answered(self, request: Request, before: dict[str, MatchState]) -> bool:
        """Was this very post already sent to the very same stored state, and left it as it
        was? (Hypothesis runs variants of a test case that repeat its first steps: sending it
        again would be the same request with the same answer.)"""
        return self.fingerprint(request, before) in self.answers

    def send(self, request: Request, before: dict[str, MatchState]) -> dict[str, MatchState]:
        """Post, check every property, and return the store as it is after."""
        fingerprint = self.fingerprint(request, before)
        expected, may_change = self.expected(request, before)
        size = IMPORT_OVERSIZE if request.path == "/import" else OVERSIZE
        form = request.form + ([("padding", "x" * size)] if request.oversize else [])
        kwargs: dict[str, Any] = {"data": MultiDict(form)}
        if request.nameless:
            kwargs["data"], kwargs["content_type"] = _nameless_multipart(form)
        elif request.multipart:
            kwargs["content_type"] = "multipart/form-data"
        response = self.client.post(request.path, query_string=request.query,
                                    headers=request.headers, **kwargs)
        SENT[self.name] += 1
        status = response.status_code
        STATUSES[(self.name, status)] += 1
        body = response.get_data(as_text=True)
        where = (f"{status} from POST {request.path} {request.query} {request.headers} "
                 f"{_short(request.form)}")
        assert status < 500, f"{where}\n{body[-3000:]}"
        if expected is not None:
            assert status == expected, (expected, where, body[:1500])
        else:                       # a valid CSRF token and a well-formed form: never a 400
            assert status != 400, (where, body[:1500])
        for evil in EVIL:
            assert evil not in body, where
        after = snapshot(self.app)
        self.check_sentinels(after)
        moved = changed(before, after)
        if status >= 400:
            self.says_why(response, body, where)
            assert not moved, (where, body[:1500])
        elif request.creates and expected is None:
            assert len(moved) <= 1 and not moved & before.keys(), where
        else:
            assert moved <= may_change, (where, moved)
        if not moved:
            self.answers.add(fingerprint)
            return after
        for mid in moved:
            self.still_valid(mid, after[mid], where)
        if status == 302 and moved:
            location = response.headers["Location"]
            assert self.client.get(location).status_code == 200, (location, where)
        return after

    @staticmethod
    def says_why(response: TestResponse, body: str, where: str) -> None:
        """A visible message with words in it: the page's error paragraph (never folded away)
        or, failing that, a field's error outside a closed <details>."""
        assert response.mimetype == "text/html", (where, response.mimetype)
        if any(_WORDS.search(m) for m in _MESSAGE.findall(body)):
            return
        page = Page.of(response)
        reasons = [m for m in page.visible_errors if _WORDS.search(m)]
        assert reasons, (where, page.errors, page.hidden, page.text[:2000])

    def still_valid(self, mid: str, state: MatchState, where: str) -> None:
        game, settings_, hands = _match_facts(state)
        engine_game(game).score(settings_, hands)       # raises if the facts break a rule
        exported = self.client.get(f"/m/{mid}/match.json")
        assert exported.status_code == 200, where
        again = matchfile.load(exported.get_data())
        assert (again.game, again.hands, again.settings) == (game, hands, settings_), where


BOUNDARY = "hostile-7f3a9c"


def _nameless_multipart(form: Pairs) -> tuple[bytes, str]:
    """The form as multipart/form-data, with one more part that has no name (only a crafted
    request has one)."""
    parts = [b"Content-Disposition: form-data\r\n\r\nnameless"]
    for name, value in form:
        if isinstance(value, tuple):
            stream, filename = value
            head = f'form-data; name="{name}"; filename="{filename}"'.encode()
            parts.append(b"Content-Disposition: " + head
                         + b"\r\nContent-Type: application/json\r\n\r\n" + stream.getvalue())
        else:
            parts.append(f'Content-Disposition: form-data; name="{name}"\r\n\r\n'.encode()
                         + str(value).encode())
    sep = f"--{BOUNDARY}\r\n".encode()
    body = b"".join(sep + part + b"\r\n" for part in parts) + f"--{BOUNDARY}--\r\n".encode()
    return body, f"multipart/form-data; boundary={BOUNDARY}"


def _short(form: Pairs) -> str:
    return repr([(k, v if not isinstance(v, str) or len(v) < 60 else v[:60] + "…")
                 for k, v in form])[:1500]


# ---------------------------------------------------------------------------------------------
# What to post


SEED = st.integers(0, 2**64 - 1)
ODD_HANDS = ["0", "99", "9" * 30, "-1", "1.5", "abc", "١", "", "01", "+1", " 1"]
ODD_TRICKS = ["0", "9" * 30, "-1", "x", "", "٣"]


class HandPosts:
    """Posts to the hand actions, delete and undo of one game's matches."""

    def __init__(self, arena: Arena, game: str) -> None:
        self.arena = arena
        self.forms = forms_of(arena.app, game)[1]
        self.actions = list(WEB_GAMES[game].actions)
        self.names = sorted({s.name for specs in self.forms.values() for s in specs}
                            | {s.name.split("-", 1)[-1] for specs in self.forms.values()
                               for s in specs})

    def draw(self, data: st.DataObject, rng: Random, before: dict[str, MatchState]) -> Request:
        arena = self.arena
        route = rng.choices(["action", "delete", "undo", "restore"], [7, 1, 1, 1])[0]
        action = (rng.choice(self.actions) if rng.random() < 0.92
                  else data.draw(SEGMENT, label="action"))
        target = rng.choice(arena.targets)
        kind = rng.choices(["edit", "view", "unknown", "junk"], [10, 1, 1, 1])[0]
        token = {"edit": target, "view": arena.views[target], "unknown": "A" * 21 + "Q",
                 "junk": ""}[kind] or data.draw(SEGMENT, label="token")
        stored = [json.loads(dict(h)["facts"]) for h in before[target].hands]
        r = rng.random()
        hand = (str(rng.randint(1, len(stored) + 1)) if r < 0.86 else rng.choice(ODD_HANDS)
                if r < 0.93 else data.draw(SEGMENT, label="hand"))
        r = rng.random()
        trick = (None if r < (0.1 if action == "trick" else 0.45) else
                 str(rng.randint(0, 18)) if r < 0.8 else rng.choice(ODD_TRICKS) if r < 0.9
                 else data.draw(SEGMENT, label="trick"))
        if route == "undo":
            path = f"/m/{token}/undo"
        elif route == "restore":
            # a delete of the target (restorable or not), any other event, or junk
            deletes = [dict(e)["id"] for e in before[target].events if dict(e)["hand"]]
            ids = [dict(e)["id"] for e in before[target].events]
            event = (rng.choice(deletes) if deletes and rng.random() < 0.6 else
                     rng.choice(ids) if rng.random() < 0.7 else data.draw(SEGMENT, label="event"))
            path = f"/m/{token}/changes/{event}/restore"
        elif route == "delete":
            path = f"/m/{token}/hands/{hand}/delete"
        else:
            path = f"/m/{token}/hands/{hand}/{action}" + ("" if trick is None else f"/{trick}")
        request = Request(path)
        # the query: the fingerprint of the hand the form was built on, the editor's flag,
        # the event an undo takes back, junk
        number = int(hand) if hand.isascii() and hand.isdigit() and len(hand) < 6 else 0
        layout = int(dict(before[target].row)["layout"])
        current = hand_base(stored[number - 1] if 1 <= number <= len(stored) else None, layout)
        base = rng.choice([None, None, None, "current", "current", "new", "stale", "junk"])
        if base is not None:
            stale = next((b for b in (hand_base(h, layout) for h in stored) if b != current),
                         "f" * 16)
            request.query.append(("base", {"current": current, "new": "new", "stale": stale}.get(
                base) or data.draw(TEXT, label="base")))
        editing = rng.choice([None, None, "1", "0", "junk"])
        if editing is not None:
            request.query.append(("editing", editing if editing != "junk"
                                  else data.draw(TEXT, label="editing")))
        if route == "undo":
            event = rng.choice([None, "top", "top", "number", "junk"])
            if event == "top":
                top = arena.store.load(target)
                event = str(top.undoable.id) if top is not None and top.undoable else "1"
            elif event is not None:
                event = junk_value(data, rng)
            if event is not None:
                request.query.append(("event", event))
        if rng.random() < 0.2:
            request.query += [(data.draw(TEXT, label="key"), junk_value(data, rng))]
        specs = self.forms.get(action, []) if route == "action" else []
        request.form = draw_form(data, rng, specs, self.names)
        envelope(data, rng, request, arena.csrf, arena.foreign, action)
        return request


class NewPosts:
    """Posts to the new-match form of every game (and of games that do not exist) and to
    import, with match files of every game: as saved, mutated, broken, or no file at all."""

    def __init__(self, arena: Arena) -> None:
        self.arena = arena
        self.forms = {game: forms_of(arena.app, game)[0] for game in GAMES}
        self.names = sorted({s.name for specs in self.forms.values() for s in specs})
        self.files = {game: json.loads((DATA / FILES[game]).read_text()) for game in GAMES}

    def draw(self, data: st.DataObject, rng: Random, before: dict[str, MatchState]) -> Request:
        route = rng.choices([*GAMES, "import", "junk"], [2, 2, 2, 2, 5, 1])[0]
        if route == "import":
            request = Request("/import", multipart=rng.random() < 0.95, creates=True)
            upload = self._upload(data, rng) if request.multipart else [
                ("file", junk_value(data, rng))]            # no file: a plain form
            request.form = upload + draw_form(data, rng, [], self.names)
        else:
            game = route if route != "junk" else data.draw(SEGMENT, label="game")
            request = Request(f"/new/{game}", creates=True)
            request.form = draw_form(data, rng, self.forms.get(game, []), self.names)
        if rng.random() < 0.2:
            request.query += [(data.draw(TEXT, label="key"), junk_value(data, rng))]
        envelope(data, rng, request, self.arena.csrf, self.arena.foreign)
        return request

    def _upload(self, data: st.DataObject, rng: Random) -> Pairs:
        kind = rng.choices(["file", "mutated", "bytes", "text", "deep", "bom", "utf16", "none",
                            "twice", "elsewhere", "surrogate"],
                           [3, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1])[0]
        document = json.loads(json.dumps(self.files[rng.choice(GAMES)]))
        if kind == "mutated":
            document = self._mutate(data, rng, document)
        if kind == "surrogate":
            _add_surrogate(rng, document)
        if kind == "bytes":
            body = data.draw(BYTES, label="bytes")
        elif kind == "text":
            body = junk_value(data, rng).encode()
        elif kind == "deep":
            body = b"[" * 50_000 + b"]" * rng.randint(0, 50_000)
        elif kind == "bom":
            body = b"\xef\xbb\xbf" + json.dumps(document).encode()
        elif kind == "utf16":
            body = json.dumps(document).encode("utf-16")
        elif kind == "surrogate":                        # as JSON's "\udc80" escape
            body = json.dumps(document).encode()
        else:
            body = json.dumps(document, ensure_ascii=rng.random() < 0.5).encode()
        if kind == "none":
            return []
        filename = "match.json" if rng.random() < 0.7 else _header_safe(
            data.draw(TEXT, label="filename"))
        name = "file" if kind != "elsewhere" else _junk_name(_header_safe(rng.choice(
            [*JUNK_NAMES, "files", "FILE", "file "])))
        upload: Pairs = [(name, (BytesIO(body), filename))]
        if kind == "twice":
            upload.append(("file", (BytesIO(b"{}"), "second.json")))
        return upload

    @staticmethod
    def _mutate(data: st.DataObject, rng: Random, document: Any) -> Any:
        """Replace, delete or add one value somewhere in the file (or replace all of it)."""
        if rng.random() < 0.1:
            return data.draw(JSON_VALUES, label="document")
        node = document
        for _ in range(8):
            keys = (list(node) if isinstance(node, dict)
                    else list(range(len(node))) if isinstance(node, list) else [])
            if not keys:
                break
            key = rng.choice(keys)
            child = node[key]
            if isinstance(child, dict | list) and child and rng.random() < 0.6:
                node = child
                continue
            how = rng.choice(["replace", "replace", "replace", "delete", "add"])
            if how == "replace":
                node[key] = (data.draw(JSON_VALUES, label="value") if rng.random() < 0.7
                             else junk_value(data, rng))
            elif how == "delete":
                del node[key]
            elif isinstance(node, dict):
                node[data.draw(TEXT, label="key")] = data.draw(JSON_VALUES, label="value")
            else:
                node.append(data.draw(JSON_VALUES, label="value"))
            break
        return document


def _add_surrogate(rng: Random, document: Any) -> None:
    """Half a character (a lone surrogate) in one of the file's strings, a value or a key."""
    places: list[tuple[Any, Any, bool]] = []
    stack = [document]
    while stack:
        node = stack.pop()
        items = list(node.items()) if isinstance(node, dict) else list(enumerate(node))
        for key, child in items:
            if isinstance(node, dict):
                places.append((node, key, True))
            if isinstance(child, str):
                places.append((node, key, False))
            elif isinstance(child, dict | list):
                stack.append(child)
    node, key, is_key = rng.choice(places)
    half = rng.choice(["\ud800", "\udbff", "\udc00", "\udfff"])
    if is_key:
        node[key + half] = node.pop(key)
    else:
        node[key] = half + node[key] if rng.random() < 0.5 else node[key] + half


# ---------------------------------------------------------------------------------------------
# The tests


def _run(arena: Arena, posts: HandPosts | NewPosts, examples: int) -> None:
    """``examples`` test cases of STEPS posts each, every case from the seeded store."""
    started = time.monotonic()

    class HostilePosts(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            self.before = arena.reset()

        case: int | None = None
        step = 0

        @rule(data=st.data())
        def post(self, data: st.DataObject) -> None:
            # The seed of this post's Random: Hypothesis repeats a drawn seed now and then;
            # with the case and the step mixed in, a repeat within a case is a new post.
            if self.case is None:
                self.case = data.draw(SEED, label="case")
            self.step += 1
            seed = data.draw(SEED, label="seed")
            rng = Random(f"{self.case}/{self.step}/{seed}")
            request = posts.draw(data, rng, self.before)
            if not arena.answered(request, self.before):
                self.before = arena.send(request, self.before)
                return
            # A post already answered on this very state, which it left as it was: another
            # post instead, drawn from a Random alone, whose changes are then taken back. So
            # what Hypothesis draws next does not depend on what was sent before (the state
            # is the one the answered post would have left).
            for attempt in range(1, REDRAWS + 1):
                REPEATS[arena.name] += 1
                rng = Random(f"{self.case}/{self.step}/{seed}/{attempt}")
                request = posts.draw(RngData(rng), rng, self.before)  # type: ignore[arg-type]
                if not arena.answered(request, self.before):
                    break
            try:
                after = arena.send(request, self.before)
            except Exception:
                # Hypothesis cannot replay this post (it depends on the posts answered before
                # it) and may then report its failure as "Flaky": say which post it was.
                print(f"This post, drawn again for a repeated one, failed: {request}")
                raise
            moved = changed(self.before, after)
            if moved:
                put_back(arena.app, self.before, moved)

    # Every test case runs all STEPS steps (Hypothesis would otherwise end one early now and
    # then, to shorten a failing case: the count of posts would depend on the seed).
    sent = SENT[arena.name]
    run_state_machine_as_test(HostilePosts, settings=_settings(examples), _min_steps=STEPS)
    FINISHED[arena.name] = time.monotonic() - started
    assert SENT[arena.name] - sent >= examples * STEPS


@pytest.mark.parametrize("game", GAMES)
def test_hostile_posts_to_a_games_hands(app: Flask, client: FlaskClient,
                                        csrf_token: Callable[..., str], game: str) -> None:
    arena = Arena(app, client, csrf_token, game, [game])
    _run(arena, HandPosts(arena, game), HAND_EXAMPLES)
    _some_got_through(game, {200, 302, 400, 403, 404, 409, 413, 422})


def test_hostile_posts_to_new_match_and_import(app: Flask, client: FlaskClient,
                                               csrf_token: Callable[..., str]) -> None:
    arena = Arena(app, client, csrf_token, NEW_AND_IMPORT, [])
    _run(arena, NewPosts(arena), NEW_EXAMPLES)
    _some_got_through(NEW_AND_IMPORT, {302, 400, 404, 413, 422})


def _some_got_through(name: str, wanted: set[int]) -> None:
    """Not every post was refused at the door: some changed a match, some were refused by
    the rules (422), by the CSRF check (400), by the view link (403), and so on."""
    seen = {status for (test, status) in STATUSES if test == name}
    assert wanted <= seen, (name, sorted(seen))


# ---------------------------------------------------------------------------------------------
# What the hostile posts found


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_a_form_part_without_a_name_is_refused(app: Flask, client: FlaskClient,
                                               csrf_token: Callable[..., str],
                                               htmx: bool) -> None:
    """A crafted multipart part without a name reached Flask-WTF's CSRF check as the key None:
    a 500 on every POST route. Now a 400 that says so, and nothing stored."""
    token = csrf_token("/")
    mid = str(app.extensions["referee.store"].create("tartli", {
        "players": ["A", "B"], "target": 5, "first_dealer": 0}, []))
    before = snapshot(app)
    headers = {"HX-Request": "true", "X-CSRFToken": token} if htmx else {}
    for path, form in [("/new/tartli", [("player_a", "X"), ("player_b", "Y"), ("target", "5"),
                                        ("first_dealer", "0")]),
                       ("/import", [("file", (BytesIO(b"{}"), "match.json"))]),
                       (f"/m/{mid}/hands/1/indicator", [("indicator-indicator", "8h")]),
                       (f"/m/{mid}/undo", [])]:
        body, content_type = _nameless_multipart(form + [("csrf_token", token)])
        response = client.post(path, data=body, content_type=content_type, headers=headers)
        assert response.status_code == 400, path
        Arena.says_why(response, response.get_data(as_text=True), path)
        assert "a field without a name" in response.get_data(as_text=True)
    assert snapshot(app) == before


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_a_method_a_page_does_not_take_is_refused_with_a_message(client: FlaskClient,
                                                                  htmx: bool) -> None:
    """A POST to a page that only shows (here "/m//undo", which is "/m/undo" once the slashes
    are merged: a match page) was werkzeug's bare 405, without the app's message (and, to
    htmx, without the alert)."""
    headers = {"HX-Request": "true"} if htmx else {}
    for path in ("/", "/m//undo", "/m/x/hands/1", "/m/x/match.json"):
        response = client.post(path, headers=headers)
        assert response.status_code == 405, path
        assert "GET" in response.headers["Allow"]
        Arena.says_why(response, response.get_data(as_text=True), path)


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
@pytest.mark.parametrize(("game", "action", "form", "words"), [
    ("marjolet", "seven", {"seven-player": "0", "seven-trick": "0"},
     "in trick (optional): Number must be between 1 and 16"),
    ("marjolet", "turnup", {}, "Turn-up: Pick the turn-up card (rule 2.2)"),
    ("stovkahra", "combination", {}, "Declared by: Who declared the combination?"),
    ("troggu", "call", {"call-partner": "9"}, "Held by: Not a valid choice"),
    ("troggu", "misere", {"misere-points_0": "999"}, "Card points are 0 to 114"),
    ("tartli", "decider", {}, "Who scored first?"),
], ids=["marjolet-over-seven", "marjolet-over-turnup", "stovkahra-combination",
        "troggu-call-4-players", "troggu-misere-not-a-misere", "tartli-decider-not-due"])
def test_errors_of_a_form_the_page_does_not_offer_are_said(
        app: Flask, client: FlaskClient, csrf_token: Callable[..., str], htmx: bool,
        game: str, action: str, form: dict[str, str], words: str) -> None:
    """A form posted for a hand whose editor does not offer it (the match is over, the deal
    is finished, four players make no partner call, the hand is no Misère, no decider is
    due) was refused with its field errors on fields the page does not show: a 422 that said
    nothing. Now the errors are said at the top."""
    loaded = matchfile.load((DATA / FILES[game]).read_bytes())
    mid = str(app.extensions["referee.store"].create(game, loaded.settings, loaded.hands))
    token = csrf_token("/")
    before = snapshot(app)
    response = client.post(f"/m/{mid}/hands/1/{action}", data={**form, "csrf_token": token},
                           headers={"HX-Request": "true"} if htmx else {})
    assert response.status_code == 422
    page = Page.of(response)
    assert any("Nothing was saved" in m and words in m for m in page.visible_errors), (
        page.visible_errors, page.errors)
    assert snapshot(app) == before


NEW_FORMS: dict[str, dict[str, Any]] = {
    "tartli": {"player_a": "Ágnes", "player_b": "Tamás", "target": "5", "first_dealer": "0"},
    "marjolet": {"player_a": "Ágnes", "player_b": "Tamás", "target": "500",
                 "first_dealer": "0", "rules": "default"},
    "stovkahra": {"north": "Ágnes", "east": "Tamás", "south": "Eva", "west": "Karel",
                  "team_ns": "", "team_ew": "", "target": "10", "first_dealer": "0",
                  "shuffle_reminder": "each game"},
    "troggu": {"players": ["Ágnes", "Tamás", "Eva", "Karel"], "first_dealer": "0",
               "stake": "10", "threshold": "standard"},
}


def _with_second_name(game: str, name: str) -> dict[str, Any]:
    form = json.loads(json.dumps(NEW_FORMS[game]))
    if game == "troggu":
        form["players"][1] = name
    else:
        form["player_b" if "player_b" in form else "east"] = name
    return form


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(("name", "words"), [
    ("Anna\x00phone", "A name cannot hold control characters"),
    ("\x1b[31mTamás", "A name cannot hold control characters"),
    ("\u202eTamás", "turn the direction of the text around"),
    ("Tamás\u2067", "turn the direction of the text around"),
    ("\u200b\u2060", "needs a name with a visible character in it"),
    ("\u2800", "needs a name with a visible character in it"),
    ("\u3164", "needs a name with a visible character in it"),
    ("\ufeff", "needs a name with a visible character in it"),
    ("A\u0301g\u200bNES", "different names"),
], ids=["nul", "escape", "override", "isolate", "zero-width", "braille-blank",
        "hangul-filler", "bom", "same-but-invisible"])
def test_a_name_no_page_or_database_can_hold_is_refused(
        app: Flask, client: FlaskClient, csrf_token: Callable[..., str], game: str, name: str,
        words: str) -> None:
    """A new match whose player has a name with a NUL (PostgreSQL cannot store it), a
    control character, a character that turns the text around, nothing visible, or the
    name of another player but for invisible characters and case: 422 with the reason,
    nothing stored, what was typed kept."""
    before = snapshot(app)
    form = {**_with_second_name(game, name), "csrf_token": csrf_token(f"/new/{game}")}
    response = client.post(f"/new/{game}", data=form)
    assert response.status_code == 422
    page = Page.of(response)
    assert any(words in e for e in page.visible_errors), page.errors
    assert name in response.get_data(as_text=True)
    assert snapshot(app) == before


@pytest.mark.parametrize("game", GAMES)
def test_a_name_is_stored_in_its_composed_form(
        app: Flask, client: FlaskClient, csrf_token: Callable[..., str], game: str) -> None:
    form = {**_with_second_name(game, "Tama\u0301s  Zoe\u0308"),
            "csrf_token": csrf_token(f"/new/{game}")}
    response = client.post(f"/new/{game}", data=form)
    assert response.status_code == 302
    exported = client.get(response.headers["Location"] + "/match.json")
    assert exported.get_json()["settings"]["players"][1] == "Tamás Zoë"


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
@pytest.mark.parametrize("game", GAMES)
def test_a_match_file_with_half_a_character_is_refused(
        app: Flask, client: FlaskClient, csrf_token: Callable[..., str], game: str,
        htmx: bool) -> None:
    """A match file whose player is named "\\ud800" (a JSON escape of half a character) was
    stored, and then every page of the match, and the home page of every browser that had
    opened it, answered 500. Now the import is refused, saying where, and nothing is stored."""
    document = json.loads((DATA / FILES[game]).read_text())
    document["settings"]["players"][1] = "Tam\ud800s"
    token = csrf_token("/")
    before = snapshot(app)
    response = client.post("/import", data={
        "file": (BytesIO(json.dumps(document).encode()), "match.json"), "csrf_token": token,
    }, content_type="multipart/form-data", headers={"HX-Request": "true"} if htmx else {})
    assert response.status_code == 422
    Arena.says_why(response, response.get_data(as_text=True), "/import")
    assert ("The file holds text that is not valid Unicode in “settings” → “players” → 2"
            in response.get_data(as_text=True))
    assert snapshot(app) == before
    assert client.get("/").status_code == 200


def test_enough_hostile_posts_were_sent() -> None:
    """Runs after the tests above: their posts add up to at least TOTAL."""
    if set(FINISHED) != {*GAMES, NEW_AND_IMPORT}:
        pytest.skip(f"only {sorted(FINISHED)} of the hostile tests ran")
    total = sum(SENT.values())
    statuses: Counter[int] = Counter()
    for (_, status), count in STATUSES.items():
        statuses[status] += count
    print(f"\n{total} hostile posts ({sum(REPEATS.values())} repeats drawn again) in "
          f"{sum(FINISHED.values()):.0f} s "
          f"({', '.join(f'{k} {v}' for k, v in SENT.items())}); "
          f"statuses: {', '.join(f'{k}: {v}' for k, v in sorted(statuses.items()))}")
    assert total >= TOTAL
