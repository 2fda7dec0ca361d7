"""Every state-changing route needs BOTH the CSRF token and the match's edit token.

The routes are read from ``app.url_map``: ``ROUTES`` below says, for each rule that accepts
POST (or PUT, PATCH, DELETE), how to build real requests for it, and a test asserts that the
url_map holds exactly those rules, so a new route fails here until it is added to the table.

For each rule, on a real match of each game, with every stored match compared before and after
(rows, hands, events: see storestate.py):

(a) without a valid CSRF token (missing, forged, another browser's): 400, the reason shown,
    nothing stored changes;
(b) with a valid CSRF token but the match's VIEW token (or another match's): 403, the reason
    shown, nothing changes; an unknown token: 404, nothing changes;
(c) with the EDIT token of another match: only that other match may change, never this one
    (a token opens its own match and no other);
(d) with both: the route is reached (no 400/403/404; a 422 for the empty form is fine).

Routes without a match token (new match, import) need the CSRF token: without it they refuse
and create nothing; with it they create exactly one match."""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from store.storestate import changed, snapshot
from webtools import CSRF_MESSAGE, Page
from werkzeug.datastructures import MultiDict

from referee.engine import matchfile
from referee.web.games import WEB_GAMES
from referee.web.matches.blueprint import VIEW_ONLY

STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
DATA = Path(__file__).parents[1] / "data"
FILES = {"tartli": "tartli-short.json", "stovkahra": "stovkahra-series.json",
         "marjolet": "marjolet-game.json", "troggu": "troggu-evening.json"}
GAMES = sorted(WEB_GAMES)
NO_SUCH = "There is no such page or match."

NEW_FORMS: dict[str, list[tuple[str, str]]] = {
    "tartli": [("player_a", "Ágnes"), ("player_b", "Tamás"), ("target", "5"),
               ("first_dealer", "0")],
    "stovkahra": [("north", "Jana"), ("east", "Petr"), ("south", "Eva"), ("west", "Karel"),
                  ("target", "10"), ("first_dealer", "3"), ("shuffle_reminder", "each game")],
    "marjolet": [("player_a", "Anne"), ("player_b", "Bruno"), ("target", "500"),
                 ("first_dealer", "1"), ("rules", "default")],
    "troggu": [("players", "Anna"), ("players", "Beat"), ("players", "Carla"),
               ("players", "Dario"), ("first_dealer", "0"), ("stake", "10"),
               ("threshold", "standard")],
}


def _file(game: str) -> bytes:
    return (DATA / FILES[game]).read_bytes()


def _last_hand(game: str) -> int:
    """The number of the last hand of the seeded matches: one that can always be deleted."""
    return len(matchfile.load(_file(game)).hands)


@dataclass(frozen=True)
class Case:
    """One request to one rule: ``path`` holds ``{token}`` where the match token goes
    (routes without a match token have none)."""

    rule: str
    game: str
    path: str
    data: tuple[tuple[str, str], ...] = ()
    upload: bool = False                     # a multipart form with the game's match file
    creates: bool = True                     # (routes without a match) makes a match
    note: str = ""

    @property
    def id(self) -> str:
        return f"{self.path.replace('{token}', 'T')}[{self.game}]{self.note}"

    @property
    def tokened(self) -> bool:
        return "{token}" in self.path


@dataclass(frozen=True)
class Route:
    methods: frozenset[str]
    cases: Callable[[str], list[Case]]       # the cases of one game


def _actions(game: str, per_trick: bool) -> list[str]:
    """The game's hand actions posted without a trick, or those posted to one trick."""
    return [name for name, spec in WEB_GAMES[game].actions.items()
            if spec.per_trick == per_trick]


def _hand_actions(rule: str) -> Callable[[str], list[Case]]:
    per_trick = rule.endswith("<int:trick>")

    def cases(game: str) -> list[Case]:
        trick = "/1" if per_trick else ""
        return [Case(rule, game, f"/m/{{token}}/hands/1/{action}{trick}", note=f"-{action}")
                for action in _actions(game, per_trick)]
    return cases


# rule -> the methods it may accept that change state, and how to build its requests
ROUTES: dict[str, Route] = {
    "/new/<game>": Route(frozenset({"POST"}), lambda game: [
        Case("/new/<game>", game, f"/new/{game}", tuple(NEW_FORMS[game]))]),
    "/import": Route(frozenset({"POST"}), lambda game: [
        Case("/import", game, "/import", upload=True)]),
    "/device": Route(frozenset({"POST"}), lambda game: [
        Case("/device", game, "/device", (("name", f"{game} phone"),), creates=False)]),
    "/m/<match_id>/hands/<int:hand>/<action>": Route(
        frozenset({"POST"}), _hand_actions("/m/<match_id>/hands/<int:hand>/<action>")),
    "/m/<match_id>/hands/<int:hand>/<action>/<int:trick>": Route(
        frozenset({"POST"}),
        _hand_actions("/m/<match_id>/hands/<int:hand>/<action>/<int:trick>")),
    "/m/<match_id>/hands/<int:hand>/delete": Route(frozenset({"POST"}), lambda game: [
        Case("/m/<match_id>/hands/<int:hand>/delete", game,
             f"/m/{{token}}/hands/{_last_hand(game)}/delete")]),
    "/m/<match_id>/undo": Route(frozenset({"POST"}), lambda game: [
        Case("/m/<match_id>/undo", game, "/m/{token}/undo")]),
    "/m/<match_id>/language": Route(frozenset({"POST"}), lambda game: [
        Case("/m/<match_id>/language", game, "/m/{token}/language", (("language", "fr"),))]),
    "/m/<match_id>/changes/<int:event>/restore": Route(frozenset({"POST"}), lambda game: [
        Case("/m/<match_id>/changes/<int:event>/restore", game,
             "/m/{token}/changes/{event}/restore")]),
    # A circle's routes take the circle's token, not a match's: their CSRF checks and their
    # tokens are tested in tests/web/circles/test_circles.py (its people's routes in
    # tests/web/circles/test_people_pages.py).
    "/circles": Route(frozenset({"POST"}), lambda game: []),
    "/circles/import": Route(frozenset({"POST"}), lambda game: []),
    "/c/<token>/players": Route(frozenset({"POST"}), lambda game: []),
    "/c/<token>/new/<game>": Route(frozenset({"POST"}), lambda game: []),
    "/c/<token>/add": Route(frozenset({"POST"}), lambda game: []),
    "/c/<token>/people/<int:player_id>/name": Route(frozenset({"POST"}), lambda game: []),
    "/c/<token>/people/<int:player_id>/merge": Route(frozenset({"POST"}), lambda game: []),
    "/c/<token>/matches/<match_id>/remove": Route(frozenset({"POST"}), lambda game: []),
    "/c/<token>/changes/<int:change_id>/undo": Route(frozenset({"POST"}), lambda game: []),
}

KNOWN = {rule: route.methods for rule, route in ROUTES.items()}

# with both tokens these change the match even with an empty form (the seeded matches have a
# last hand to delete and a change to undo), so (c) and (d) cannot pass by doing nothing
ALWAYS_CHANGES = {"/m/<match_id>/hands/<int:hand>/delete", "/m/<match_id>/undo"}

CASES = [case for route in ROUTES.values() for game in GAMES for case in route.cases(game)]


def _state_changing(app: Flask) -> dict[str, frozenset[str]]:
    """Every rule of the app that takes a method that may change state, with those methods."""
    return {rule.rule: frozenset(rule.methods or ()) & STATE_CHANGING
            for rule in app.url_map.iter_rules()
            if frozenset(rule.methods or ()) & STATE_CHANGING}


def test_the_table_knows_every_state_changing_route(app: Flask) -> None:
    """A new POST/PUT/PATCH/DELETE rule must be added to ROUTES (and so be tested below)."""
    assert _state_changing(app) == KNOWN
    # every game's every hand action is exercised, on the hand-action rule it belongs to
    for game, web in WEB_GAMES.items():
        exercised = [c.note for rule in ("/m/<match_id>/hands/<int:hand>/<action>",
                                         "/m/<match_id>/hands/<int:hand>/<action>/<int:trick>")
                     for c in ROUTES[rule].cases(game)]
        assert sorted(exercised) == sorted(f"-{a}" for a in web.actions)


def test_a_trick_number_on_an_action_without_tricks_is_404(app_nocsrf: Flask) -> None:
    """``/hands/1/finish/99`` is no address: only per-trick actions take a trick."""
    app = app_nocsrf
    client = app.test_client()
    for game in WEB_GAMES:
        loaded = matchfile.load(_file(game))
        token = app.extensions["referee.store"].create(game, loaded.settings, loaded.hands)
        for action in _actions(game, per_trick=False):
            assert client.post(f"/m/{token}/hands/1/{action}/99").status_code == 404


@pytest.mark.parametrize(("rule", "methods"), [
    ("/m/<match_id>/rename", ["POST"]), ("/m/<match_id>", ["GET", "DELETE"]),
    ("/m/<match_id>/hands/<int:hand>", ["GET", "PUT", "PATCH"]),
])
def test_a_route_the_table_does_not_know_is_noticed(app: Flask, rule: str,
                                                     methods: list[str]) -> None:
    app.add_url_rule(rule, f"extra{len(methods)}", lambda **_: "", methods=methods)
    assert _state_changing(app) != KNOWN


# ---------------------------------------------------------------------------------------------
# Plumbing


@dataclass
class Tables:
    """Two matches of one game (the table under test and another table), with an undoable
    change each, plus the client and its session's CSRF token."""

    app: Flask
    client: FlaskClient
    token: str
    other_session_token: str
    this: str = ""
    other: str = ""
    views: dict[str, str] = field(default_factory=dict)

    def seed(self, game: str) -> str:
        loaded = matchfile.load(_file(game))
        store = self.app.extensions["referee.store"]
        mid = str(store.create(game, loaded.settings, loaded.hands[:-1]))
        # one change, so that undo has something to take back
        store.save_hands(mid, loaded.hands[:-1], loaded.hands, "Seeded change", "test")
        # a delete whose hand can be restored (it was entered again since)
        last = len(loaded.hands)
        store.save_hands(mid, loaded.hands, loaded.hands[:-1], "Seeded delete", "test",
                         renumbers=True, deletes=last)
        store.save_hands(mid, loaded.hands[:-1], loaded.hands, "Seeded re-entry", "test")
        stored = store.load(mid)
        assert stored is not None
        self.views[mid] = stored.view_token
        return mid

    def restorable(self, token: str | None) -> int:
        """A delete of the match ``token`` opens whose hand can be restored (0: none)."""
        found = self.app.extensions["referee.store"].load(token, 50) if token else None
        return next((e.id for e in found.events if e.restorable), 0) if found else 0

    def post(self, case: Case, token: str | None, *, csrf: str | None, htmx: bool,
             prefix: str = "") -> Page:
        path = (case.path.format(token=token, event=self.restorable(token)) if case.tokened
                else case.path)
        data: MultiDict[str, Any] = MultiDict(case.data)
        headers = {"HX-Request": "true"} if htmx else {}
        if csrf is not None:
            if htmx:
                headers["X-CSRFToken"] = csrf
            else:
                data.add(f"{prefix}-csrf_token" if prefix else "csrf_token", csrf)
        kwargs: dict[str, Any] = {}
        if case.upload:
            data.add("file", (io.BytesIO(_file(case.game)), "match.json"))
            kwargs["content_type"] = "multipart/form-data"
        return Page.of(self.client.post(path, data=data, headers=headers, **kwargs))


@pytest.fixture
def tables(app: Flask, client: FlaskClient, csrf_token: Callable[..., str]) -> Tables:
    return Tables(app, client, csrf_token("/"), csrf_token("/", other=app.test_client()))


def _rule_of(app: Flask, path: str) -> str:
    rule, _ = app.url_map.bind("localhost").match(path, method="POST", return_rule=True)
    return str(rule.rule)


def _says(page: Page, words: str) -> bool:
    return any(words in message for message in page.visible_errors)


# ---------------------------------------------------------------------------------------------
# The routes


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_route_needs_csrf_and_edit_token(tables: Tables, case: Case) -> None:
    app = tables.app
    if case.tokened:
        tables.this = tables.seed(case.game)
        tables.other = tables.seed(case.game)
        path = case.path.format(token=tables.this, event=tables.restorable(tables.this))
    else:
        tables.other = tables.seed(case.game)        # a table that must stay as it is
        path = case.path
    assert _rule_of(app, path) == case.rule, path
    this = tables.this or None

    # (a) no valid CSRF token: 400, the reason shown, nothing stored changes
    forged = tables.token[:-4] + ("AAAA" if not tables.token.endswith("AAAA") else "BBBB")
    for htmx in (False, True):
        for csrf, prefix in ((None, ""), (forged, ""), (forged, "finish"),
                             (tables.other_session_token, "")):
            before = snapshot(app)
            page = tables.post(case, this, csrf=csrf, htmx=htmx, prefix=prefix)
            assert page.status == 400, (page.status, page.text[:500])
            assert _says(page, CSRF_MESSAGE), page.text[:500]
            assert snapshot(app) == before

    if case.tokened:
        # (b) the view token, with a valid CSRF token: 403, the reason shown, nothing changes
        for htmx in (False, True):
            before = snapshot(app)
            page = tables.post(case, tables.views[tables.this], csrf=tables.token, htmx=htmx)
            assert page.status == 403, (page.status, page.text[:500])
            assert _says(page, str(VIEW_ONLY)), page.text[:500]
            assert snapshot(app) == before

        # an unknown token, or the view token of another match: 404 / 403, nothing changes
        for token, status in (("A" * 22, 404), (tables.views[tables.other], 403)):
            before = snapshot(app)
            page = tables.post(case, token, csrf=tables.token, htmx=False)
            assert page.status == status, (page.status, page.text[:500])
            assert _says(page, NO_SUCH if status == 404 else str(VIEW_ONLY))
            assert snapshot(app) == before

        # (c) the edit token of another match: only that match may change, never this one
        for htmx in (False, True):
            other = tables.other = tables.seed(case.game)
            before = snapshot(app)
            page = tables.post(case, other, csrf=tables.token, htmx=htmx)
            assert page.status not in (400, 403, 404), (page.status, page.text[:500])
            moved = changed(before, snapshot(app))
            assert moved <= {other}
            if case.rule in ALWAYS_CHANGES:
                assert moved == {other}      # the request did act, on its own match

    # (d) both tokens: the route is reached
    before = snapshot(app)
    page = tables.post(case, this, csrf=tables.token, htmx=False)
    assert page.status not in (400, 403, 404, 405), (page.status, page.text[:500])
    assert page.status < 500
    moved = changed(before, snapshot(app))
    if case.tokened:
        assert moved <= {tables.this}
        if page.status >= 400:
            assert not moved
        if case.rule in ALWAYS_CHANGES:
            assert moved == {tables.this}
    else:
        # a new match or an import with the CSRF token: exactly one new match, nothing else;
        # naming the device: no match at all
        assert page.status == 302, (page.status, page.errors)
        if case.creates:
            assert len(moved) == 1 and not moved & before.keys()
        else:
            assert not moved
