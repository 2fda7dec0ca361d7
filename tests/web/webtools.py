"""Helpers for the web tests: a tiny HTML reader, a driver for the Tartli pages, and builders
for hand facts (the JSON of referee/engine/games/tartli/facts.py) used to seed a match.

Players: 0 = Ágnes, 1 = Tamás unless a test says otherwise. With first_dealer 0, Ágnes deals
the odd hands (Tamás leads their trick 1) and Tamás the even ones (Ágnes leads)."""

from __future__ import annotations

import html
import io
import json
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from pypdf import PdfReader
from werkzeug.test import TestResponse

NAMES = ["Ágnes", "Tamás"]
A, B = 0, 1

# ---------------------------------------------------------------------------------------------
# Reading pages

_VOID = {"input", "br", "meta", "link", "img", "hr", "col", "area", "base", "source", "wbr"}
_WATCHED = ("error", "field-error", "notice", "verdict", "phase", "summary", "warn")


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []
        self.inputs: list[dict[str, str | None]] = []
        self.options: list[tuple[str, str, bool]] = []        # (select name, value, selected)
        self.classed: dict[str, list[str]] = {c: [] for c in _WATCHED}
        self.hidden: list[str] = []          # texts of watched elements in a closed <details>
        self.ids: set[str] = set()
        self._stack: list[tuple[str, list[str], bool]] = []  # (tag, classes opened, closed?)
        self._closed = 0                                       # closed <details> around us
        self._open: dict[str, list[list[str]]] = {c: [] for c in _WATCHED}
        self._select: str | None = None
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(str(a["id"]))
        if tag == "input":
            self.inputs.append(a)
        elif tag == "select":
            self._select = a.get("name")
        elif tag == "option" and self._select is not None:
            self.options.append((self._select, a.get("value") or "", "selected" in a))
        if tag in ("script", "style"):
            self._skip += 1
        if tag in _VOID:
            return
        classes = (a.get("class") or "").split()
        opened = [c for c in _WATCHED if c in classes]
        for c in opened:
            self._open[c].append([])
        closed = tag == "details" and "open" not in a
        self._closed += closed
        self._stack.append((tag, opened, closed))

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._skip = max(0, self._skip - 1)
        if tag == "select":
            self._select = None
        if tag in _VOID:
            return
        while self._stack:
            open_tag, opened, closed = self._stack.pop()
            for c in opened:
                text = _squash("".join(self._open[c].pop()))
                self.classed[c].append(text)
                if self._closed:
                    self.hidden.append(text)
            self._closed -= closed
            if open_tag == tag:
                break

    def handle_data(self, data: str) -> None:
        if self._skip:
            return
        self.text.append(data)
        for pieces in self._open.values():
            for piece in pieces:
                piece.append(data)


def _squash(text: str) -> str:
    return " ".join(text.split())


@dataclass
class Page:
    """A response, read: status, raw HTML, visible text, form state, messages."""

    response: TestResponse
    html: str = field(default="", repr=False)
    text: str = field(default="", repr=False)
    inputs: list[dict[str, str | None]] = field(default_factory=list, repr=False)
    options: list[tuple[str, str, bool]] = field(default_factory=list, repr=False)
    classed: dict[str, list[str]] = field(default_factory=dict, repr=False)
    hidden: list[str] = field(default_factory=list, repr=False)
    ids: set[str] = field(default_factory=set, repr=False)

    @classmethod
    def of(cls, response: TestResponse) -> Page:
        assert response.status_code < 500, (
            f"{response.status_code} from {response.request.method} {response.request.path}"
        )
        html = response.get_data(as_text=True)
        page = cls(response, html)
        if response.mimetype == "text/html":
            reader = _Reader()
            reader.feed(html)
            reader.close()
            page.text = _squash(" ".join(reader.text))
            page.inputs, page.options = reader.inputs, reader.options
            page.classed, page.ids, page.hidden = reader.classed, reader.ids, reader.hidden
        return page

    @property
    def status(self) -> int:
        return self.response.status_code

    @property
    def location(self) -> str | None:
        return self.response.headers.get("Location")

    @property
    def errors(self) -> list[str]:
        """Every error shown: the page's error paragraph and the fields' errors."""
        return self.classed.get("error", []) + self.classed.get("field-error", [])

    @property
    def visible_errors(self) -> list[str]:
        """The errors not folded away in a closed <details> (a reader sees them at once)."""
        hidden = list(self.hidden)
        shown = []
        for error in self.errors:
            if error in hidden:
                hidden.remove(error)
            else:
                shown.append(error)
        return shown

    def shown(self, cls: str) -> list[str]:
        """The texts of elements of a watched class not folded away in a closed <details>."""
        hidden = list(self.hidden)
        out = []
        for text in self.classed.get(cls, []):
            if text in hidden:
                hidden.remove(text)
            else:
                out.append(text)
        return out

    @property
    def notices(self) -> list[str]:
        return self.classed.get("notice", [])

    @property
    def verdicts(self) -> list[str]:
        return self.classed.get("verdict", [])

    def checked(self, name: str) -> list[str]:
        return [str(i.get("value")) for i in self.inputs
                if i.get("name") == name and "checked" in i]

    def value(self, name: str) -> str | None:
        for i in self.inputs:
            if i.get("name") == name and i.get("type") not in ("radio", "checkbox"):
                return i.get("value")
        raise KeyError(name)

    def selected(self, name: str) -> list[str]:
        return [value for select, value, chosen in self.options if select == name and chosen]

    def standings(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """((points this game), (buli)) from the standings table."""
        points = re.search(r"Points this game (\d+) (\d+)", self.text)
        buli = re.search(r"Buli \(to \d+\) (\d+) (\d+)", self.text)
        assert points and buli, self.text[:500]
        return ((int(points[1]), int(points[2])), (int(buli[1]), int(buli[2])))

    @property
    def is_partial(self) -> bool:
        """The #live fragment alone (what htmx swaps in), or an action's answer (its top,
        #live-top, then its other changed parts out of band), not a whole page."""
        start = self.html.lstrip()[:200].lower()
        return (start.startswith(('<div id="live"', '<div id="live-top"'))
                and "<html" not in self.html.lower())

    @property
    def is_full_page(self) -> bool:
        return self.html.lstrip().lower().startswith("<!doctype html") and "<body" in self.html


# ---------------------------------------------------------------------------------------------
# Hand facts, for seeding a match


def tricks(won: str, melds: dict[int, tuple[list[str], list[str]]] | None = None,
           in_progress: tuple[list[str], list[str]] | None = None) -> list[dict[str, Any]]:
    """Trick records from a winners string ("0110", spaces ignored); ``melds`` by trick
    number as (Ágnes's, Tamás's); ``in_progress`` adds a trick without a winner."""
    melds = melds or {}
    out = []
    for number, winner in enumerate((int(c) for c in won if not c.isspace()), 1):
        mine, theirs = melds.get(number, ([], []))
        out.append({"winner": winner, "melds": [list(mine), list(theirs)]})
    if in_progress is not None:
        out.append({"winner": None, "melds": [list(in_progress[0]), list(in_progress[1])]})
    return out


def hand(indicator: str | None = "8h", won: str = "",
         melds: dict[int, tuple[list[str], list[str]]] | None = None,
         end: dict[str, Any] | None = None, bela: dict[str, int] | None = None,
         exchange: int | None = None,
         in_progress: tuple[list[str], list[str]] | None = None) -> dict[str, Any]:
    return {"indicator": indicator, "exchange": exchange,
            "tricks": tricks(won, melds, in_progress), "bela": bela, "end": end}


def played(piles: tuple[int, int], last: int, stichmatsch: int | None = None) -> dict[str, Any]:
    return {"kind": "played", "piles": list(piles), "last": last, "stichmatsch": stichmatsch}


def claim(claimant: int, completed: int, piles: tuple[int, int],
          step7: bool = False) -> dict[str, Any]:
    return {"kind": "claim", "claimant": claimant, "completed": completed, "step7": step7,
            "piles": list(piles)}


def decider(first: int) -> dict[str, Any]:
    return {"indicator": None, "exchange": None, "tricks": [], "bela": None,
            "end": {"kind": "decider", "first": first}}


# Hand 1 (Ágnes deals, Tamás leads; trumps hearts, indicator 7h): Ágnes scores Four Overs
# (200) in trick 1 and Four Nines (150) in trick 2, both as the only declarer; piles 80 + last
# trick / 71. Totals after it: Ágnes 440, Tamás 71.
HAND_440_71 = hand("7h", "11", {1: (["set:O"], []), 2: (["set:9"], [])}, played((80, 71), A))
# The same hand without the Four Nines: totals Ágnes 290, Tamás 71.
HAND_290_71 = hand("7h", "11", {1: (["set:O"], [])}, played((80, 71), A))

# Two hands that leave both totals at 536: hand 1 Ágnes 350 melds + 90 + 10 = 450, Tamás 400
# melds + 61 = 461; hand 2 (Tamás deals) Ágnes 76 + 10 = 86, Tamás 75. A decider follows.
TIE_HANDS = [
    hand("7h", "111111", {
        1: (["set:O"], []), 2: (["set:9"], []), 3: ([], ["set:A"]), 4: ([], ["set:10"]),
        5: ([], ["set:K"]), 6: ([], ["set:U"]),
    }, played((90, 61), A)),
    hand("8h", "", None, played((76, 75), A)),
]


# ---------------------------------------------------------------------------------------------
# The driver


@contextmanager
def unchanged(table: Table, match_id: str) -> Iterator[None]:
    """Assert that the block leaves the stored match as it was: its settings, the facts of its
    hands (as GET /m/<id>/match.json shows them) and its undo log."""
    before = table.export(match_id)
    last = table.last_action(match_id)
    yield
    after = table.export(match_id)
    assert after["hands"] == before["hands"]
    assert after["settings"] == before["settings"]
    assert table.last_action(match_id) == last


class Table:
    """Drives the Tartli pages like a browser would: forms posted with their CSRF token, as a
    whole page (token in the form) or through htmx (token in the X-CSRFToken header)."""

    def __init__(self, app: Flask, client: FlaskClient, csrf_token: Callable[..., str]) -> None:
        self.app = app
        self.client = client
        self._csrf_token = csrf_token
        self._token: str | None = None

    # -- plumbing ------------------------------------------------------------------------

    @property
    def token(self) -> str:
        if self._token is None:
            self._token = self._csrf_token("/")
        return self._token

    def foreign_token(self) -> str:
        """A genuine CSRF token, but of another browser's session."""
        return self._csrf_token("/", other=self.app.test_client())

    def get(self, url: str, htmx: bool = False) -> Page:
        headers = {"HX-Request": "true"} if htmx else {}
        return Page.of(self.client.get(url, headers=headers))

    def post(self, url: str, data: dict[str, Any] | None = None, *, htmx: bool = False,
             token: str | None | bool = True, prefix: str = "", **kwargs: Any) -> Page:
        """POST like the page does. ``token``: True for the session's own token, False or None
        for none at all, a string to send that string instead."""
        data = dict(data or {})
        headers: dict[str, str] = {}
        value = self.token if token is True else (token or None)
        if htmx:
            headers["HX-Request"] = "true"
            if value is not None:
                headers["X-CSRFToken"] = value
        elif value is not None:
            data[f"{prefix}-csrf_token" if prefix else "csrf_token"] = value
        return Page.of(self.client.post(url, data=data, headers=headers, **kwargs))

    def explained(self, page: Page) -> str:
        """The page's text, then the explanation of each hand its history shows, as opening
        the hand's row loads it (issue 12: the match page leaves a hand's lines to a route)."""
        urls = dict.fromkeys(re.findall(r'hx-get="(/m/[\w-]+/explained/\d+)"', page.html))
        return " ".join([page.text, *(self.get(url, htmx=True).text for url in urls)])

    def follow(self, page: Page) -> Page:
        """The page a 302 leads to (where flashed messages show)."""
        assert page.status == 302, (page.status, page.text[:1000])
        assert page.location
        return self.get(page.location)

    # -- matches -------------------------------------------------------------------------

    def new_match(self, names: list[str] | None = None, target: int = 5,
                  first_dealer: int = 0) -> str:
        a, b = names or NAMES
        page = self.post("/new/tartli", {"player_a": a, "player_b": b, "target": str(target),
                                         "first_dealer": str(first_dealer)})
        assert page.status == 302, page.errors
        assert page.location and re.fullmatch(r"/m/[\w-]+", page.location)
        return page.location.rsplit("/", 1)[1]

    def seed(self, hands: list[dict[str, Any]], names: list[str] | None = None,
             target: int = 5, first_dealer: int = 0) -> str:
        """A match stored directly with these hands (checked by the engine first)."""
        from referee.engine.games.tartli import GAME

        settings = GAME.settings({"players": list(names or NAMES), "target": target,
                                  "first_dealer": first_dealer})
        canonical = [GAME.canonical_hand(h) for h in hands]
        GAME.score(settings, canonical)
        store = self.app.extensions["referee.store"]
        return str(store.create("tartli", settings, canonical))

    def export(self, match_id: str) -> dict[str, Any]:
        response = self.client.get(f"/m/{match_id}/match.json")
        assert response.status_code == 200, response.status_code
        return dict(json.loads(response.get_data(as_text=True)))

    def hands(self, match_id: str) -> list[dict[str, Any]]:
        return list(self.export(match_id)["hands"])

    def last_action(self, match_id: str) -> str | None:
        stored = self.app.extensions["referee.store"].load(match_id)
        assert stored is not None
        return stored.last_action

    def match_count(self) -> int:
        return int(self.app.extensions["referee.store"].count())

    # -- hand actions --------------------------------------------------------------------

    @staticmethod
    def _q(editing: bool) -> str:
        return "?editing=1" if editing else ""

    def indicator(self, mid: str, n: int, card: str, *, htmx: bool = False,
                  editing: bool = False, **kw: Any) -> Page:
        return self.post(f"/m/{mid}/hands/{n}/indicator{self._q(editing)}",
                         {"indicator-indicator": card}, htmx=htmx, prefix="indicator", **kw)

    def trick(self, mid: str, n: int, t: int, cards: tuple[list[str], list[str]] = ([], []),
              winner: int | None = None, *, bela: int | None = None, exchange: bool = False,
              conceded: tuple[str, str] = ("", ""), htmx: bool = False, editing: bool = False,
              **kw: Any) -> Page:
        data: dict[str, Any] = {
            "trick-cards_0": list(cards[0]), "trick-cards_1": list(cards[1]),
            "trick-conceded_0": conceded[0], "trick-conceded_1": conceded[1],
            "trick-bela": "" if bela is None else str(bela),
            "trick-winner": "" if winner is None else str(winner),
        }
        if exchange:
            data["trick-exchange"] = "y"
        return self.post(f"/m/{mid}/hands/{n}/trick/{t}{self._q(editing)}", data, htmx=htmx,
                         prefix="trick", **kw)

    def finish(self, mid: str, n: int, pile: int | str, *, pile_player: int = 0,
               last: int | None = 0, stichmatsch: int | None = None, htmx: bool = False,
               editing: bool = False, **kw: Any) -> Page:
        data = {"finish-pile_player": str(pile_player), "finish-pile": str(pile),
                "finish-stichmatsch": "" if stichmatsch is None else str(stichmatsch)}
        if last is not None:
            data["finish-last"] = str(last)
        return self.post(f"/m/{mid}/hands/{n}/finish{self._q(editing)}", data, htmx=htmx,
                         prefix="finish", **kw)

    def claim(self, mid: str, n: int, claimant: int, completed: int | str,
              piles: tuple[int | str, int | str], *, step7: bool = False, htmx: bool = False,
              editing: bool = False, **kw: Any) -> Page:
        data = {"claim-claimant": str(claimant), "claim-completed": str(completed),
                "claim-pile_0": str(piles[0]), "claim-pile_1": str(piles[1])}
        if step7:
            data["claim-step7"] = "y"
        return self.post(f"/m/{mid}/hands/{n}/claim{self._q(editing)}", data, htmx=htmx,
                         prefix="claim", **kw)

    def decider(self, mid: str, n: int, first: int, *, htmx: bool = False, **kw: Any) -> Page:
        return self.post(f"/m/{mid}/hands/{n}/decider", {"decider-first": str(first)},
                         htmx=htmx, prefix="decider", **kw)

    def delete(self, mid: str, n: int, *, htmx: bool = False, **kw: Any) -> Page:
        return self.post(f"/m/{mid}/hands/{n}/delete", htmx=htmx, **kw)

    def undo(self, mid: str, *, htmx: bool = False, **kw: Any) -> Page:
        return self.post(f"/m/{mid}/undo", htmx=htmx, **kw)

    # -- results -------------------------------------------------------------------------

    def done(self, page: Page, htmx: bool) -> Page:
        """Check a successful action's response and return the page that shows its result:
        the partial itself under htmx, else the page the redirect leads to."""
        if htmx:
            assert page.status == 200, (page.status, page.errors)
            assert page.is_partial, page.html[:300]
            return page
        assert page.status == 302, (page.status, page.errors)
        result = self.follow(page)
        assert result.status == 200
        return result

    def rejected(self, page: Page, htmx: bool) -> Page:
        """Check a rejected action's response: 422, as the partial or as a whole page."""
        assert page.status == 422, (page.status, page.text[:1500])
        if htmx:
            assert page.is_partial, page.html[:300]
        else:
            assert page.is_full_page, page.html[:300]
        return page


# ---------------------------------------------------------------------------------------------
# Stovkahra: four players N, E, S, W (seats 0–3, clockwise), teams NS (0) and EW (1).
# With first_dealer 3 (West), deal 1 is dealt by West and North declares first and leads, as
# in the worked examples of rules section 9; deal n is dealt by seat (3 + n - 1) % 4.

PLAYERS4 = ["Jana", "Petr", "Eva", "Karel"]
TEAMS4 = ["Jana & Eva", "Petr & Karel"]          # the default team names of PLAYERS4
N, E, S, W = 0, 1, 2, 3
NS, EW = 0, 1


def combo(seat: int, rank: str, count: int,
          cards: list[str] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"seat": seat, "rank": rank, "count": count}
    if cards is not None:
        out["cards"] = list(cards)
    return out


def sevens(**tricks: int) -> list[dict[str, int]]:
    """sevens(t4=NS, t8=EW) → [{"trick": 4, "team": 0}, {"trick": 8, "team": 1}]"""
    return [{"trick": int(k[1:]), "team": v} for k, v in sorted(tricks.items(),
                                                                key=lambda kv: int(kv[0][1:]))]


def deal_played(points: tuple[int, int], last: int, tricks: tuple[int, int] | None = None,
                seven: list[dict[str, int]] | None = None) -> dict[str, Any]:
    return {"kind": "played", "points": list(points),
            "tricks": None if tricks is None else list(tricks), "last": last,
            "sevens": list(seven or [])}


def deal_dost(caller: int, after: int, points: tuple[int, int] = (0, 0),
              tricks: tuple[int, int] | None = None, trick_winner: int | None = None,
              seven: list[dict[str, int]] | None = None) -> dict[str, Any]:
    return {"kind": "dost", "caller": caller, "after": after, "trick_winner": trick_winner,
            "points": list(points), "tricks": None if tricks is None else list(tricks),
            "sevens": list(seven or [])}


def deal(*combos: dict[str, Any], end: dict[str, Any] | None = None,
         trumps: str | None = "h", sticks: str | None = None, dealer: int | None = None,
         sticks_by: int | None = None, sticks_against: int | None = None) -> dict[str, Any]:
    """A deal's facts in the canonical JSON of referee/engine/games/stovkahra/facts.py (a
    missing dealer or chooser is filled in when the deal is stored: ``Game.complete``)."""
    return {"dealer": dealer, "trumps": trumps, "combinations": list(combos), "end": end,
            "sticks": sticks, "sticks_by": sticks_by, "sticks_against": sticks_against}


# Example 1 of rules section 9 (W deals): N three aces, E three kings, S three sevens; NS 40
# card points in 5 tricks and trick 4 with 7h; EW 32 in 3 and the last trick. NS 90, EW 44.
EXAMPLE_1 = deal(combo(N, "A", 3), combo(E, "K", 3), combo(S, "7", 3),
                 end=deal_played((40, 32), EW, (5, 3), sevens(t4=NS)))
# A plain deal with no combinations: NS 40 card points, EW 32 and the last trick: 40–38.
PLAIN_40_38 = deal(end=deal_played((40, 32), EW, (5, 3)))


class Series(Table):
    """Drives the Stovkahra pages (same plumbing as ``Table``)."""

    def new_series(self, names: list[str] | None = None, teams: tuple[str, str] = ("", ""),
                   target: int | str = 10, first_dealer: int = W, **extra: str) -> str:
        north, east, south, west = names or PLAYERS4
        data = {"north": north, "east": east, "south": south, "west": west,
                "team_ns": teams[0], "team_ew": teams[1], "target": str(target),
                "first_dealer": str(first_dealer), "shuffle_reminder": "each game"}
        data.update(extra)
        page = self.post("/new/stovkahra", data)
        assert page.status == 302, page.errors
        assert page.location and re.fullmatch(r"/m/[\w-]+", page.location)
        return page.location.rsplit("/", 1)[1]

    def seed_series(self, deals: list[dict[str, Any]], names: list[str] | None = None,
                    teams: list[str] | None = None, target: int = 10,
                    first_dealer: int = W, **extra: Any) -> str:
        """A series stored directly with these deals (checked by the engine first)."""
        from referee.engine.games.stovkahra import GAME

        players = list(names or PLAYERS4)
        settings = GAME.settings({
            "players": players,
            "teams": list(teams or [f"{players[0]} & {players[2]}",
                                    f"{players[1]} & {players[3]}"]),
            "target": target, "first_dealer": first_dealer, **extra})
        canonical = GAME.complete(settings, [GAME.canonical_hand(d) for d in deals])
        GAME.score(settings, canonical)
        store = self.app.extensions["referee.store"]
        return str(store.create("stovkahra", settings, canonical))

    def _act(self, mid: str, n: int, action: str, data: dict[str, Any], htmx: bool,
             editing: bool, **kw: Any) -> Page:
        return self.post(f"/m/{mid}/hands/{n}/{action}{self._q(editing)}", data, htmx=htmx,
                         prefix=action, **kw)

    def start_deal(self, mid: str, n: int, trumps: str = "", *, dealer: int | None = None,
                   htmx: bool = False, editing: bool = False, **kw: Any) -> Page:
        data = {"start-trumps": trumps}
        if dealer is not None:
            data["start-dealer"] = str(dealer)
        return self._act(mid, n, "start", data, htmx, editing, **kw)

    def declare(self, mid: str, n: int, seat: int | str | None, *,
                cards: list[str] | None = None, rank: str = "", count: int | str = "",
                htmx: bool = False, editing: bool = False, **kw: Any) -> Page:
        data: dict[str, Any] = {"combination-cards": list(cards or []),
                                "combination-rank": rank, "combination-count": str(count)}
        if seat is not None:
            data["combination-seat"] = str(seat)
        return self._act(mid, n, "combination", data, htmx, editing, **kw)

    def remove_combination(self, mid: str, n: int, index: int | str, *, htmx: bool = False,
                           editing: bool = False, **kw: Any) -> Page:
        return self._act(mid, n, "remove", {"remove-index": str(index)}, htmx, editing, **kw)

    def finish_deal(self, mid: str, n: int, points: int | str, *, team: int = NS,
                    tricks: int | str | None = None, last: int | str | None = EW,
                    seven: dict[int, int | str] | None = None, htmx: bool = False,
                    editing: bool = False, **kw: Any) -> Page:
        data: dict[str, Any] = {"finish-points_team": str(team), "finish-points": str(points),
                                "finish-tricks": "" if tricks is None else str(tricks)}
        if last is not None:
            data["finish-last"] = str(last)
        for t in range(1, 9):
            data[f"finish-seven_{t}"] = str((seven or {}).get(t, ""))
        return self._act(mid, n, "finish", data, htmx, editing, **kw)

    def call_dost(self, mid: str, n: int, caller: int | str, after: int | str, *,
                  points: tuple[int | str, int | str] = (0, 0),
                  tricks: tuple[int | str | None, int | str | None] = (None, None),
                  trick_winner: int | str | None = None,
                  seven: dict[int, int | str] | None = None, htmx: bool = False,
                  editing: bool = False, **kw: Any) -> Page:
        data: dict[str, Any] = {
            "dost-caller": str(caller), "dost-after": str(after),
            "dost-trick_winner": "" if trick_winner is None else str(trick_winner),
            "dost-points_0": str(points[0]), "dost-points_1": str(points[1]),
            "dost-tricks_0": "" if tricks[0] is None else str(tricks[0]),
            "dost-tricks_1": "" if tricks[1] is None else str(tricks[1]),
        }
        for t in range(1, 8):
            data[f"dost-seven_{t}"] = str((seven or {}).get(t, ""))
        return self._act(mid, n, "dost", data, htmx, editing, **kw)

    def choose_sticks(self, mid: str, n: int, choice: str, *, htmx: bool = False,
                      **kw: Any) -> Page:
        return self._act(mid, n, "sticks", {"sticks-choice": choice}, htmx, False, **kw)

    @staticmethod
    def standings(page: Page) -> tuple[tuple[int, int], tuple[int, int]]:
        """((game points NS, EW), (matchsticks NS, EW)) from the standings table."""
        points = re.search(r"Points this game (\d+) (\d+)", page.text)
        sticks = re.search(r"Matchsticks \(to \d+\) (\d+) (\d+)", page.text)
        assert points and sticks, page.text[:500]
        return ((int(points[1]), int(points[2])), (int(sticks[1]), int(sticks[2])))


# ---------------------------------------------------------------------------------------------
# Marjolet: two players, Anne (A = 0) and Bruno (B = 1). With first_dealer 1, Bruno deals the
# odd deals (Anne leads their trick 1), as in the worked examples of rules section 9.

NAMES2 = ["Anne", "Bruno"]


def mj_trick(winner: int | None = None, melds: tuple[list[str], list[str]] = ([], []),
             exchange: int | None = None) -> dict[str, Any]:
    return {"winner": winner, "exchange": exchange, "melds": [list(melds[0]), list(melds[1])]}


def mj_end(brisques: tuple[int | None, int | None], trick10: int, last: int,
           sweep: int | None = None) -> dict[str, Any]:
    return {"brisques": list(brisques), "trick10": trick10, "last": last, "sweep": sweep}


def mj_deal(turnup: str = "9c", melds: dict[int, tuple[int, list[str]]] | None = None,
            exchange: tuple[int, int] | None = None, seven: int | None = None,
            seven_trick: int | None = None, end: dict[str, Any] | None = None
            ) -> dict[str, Any]:
    """A deal's facts in the canonical JSON of referee/engine/games/marjolet/facts.py.
    ``melds``: trick → (its winner, the winner's melds as notation); ``exchange``: (trick,
    player); ``seven``: who played the trump 7, never exchanged."""
    melds = melds or {}
    last = max([*melds, exchange[0] if exchange else 0])
    tricks = []
    for number in range(1, last + 1):
        winner, shown = melds.get(number, (None, []))
        if exchange and exchange[0] == number:
            winner = exchange[1]
        pair: tuple[list[str], list[str]] = ([], [])
        if winner is not None:
            pair[winner].extend(shown)
        tricks.append(mj_trick(winner, pair, exchange[1] if exchange and exchange[0] == number
                               else None))
    return {"turnup": turnup, "tricks": tricks,
            "seven_played": None if seven is None else {"player": seven, "trick": seven_trick},
            "end": end}


class Marjolet(Table):
    """Drives the Marjolet pages (same plumbing as ``Table``)."""

    def new_game(self, names: list[str] | None = None, target: int | str = 500,
                 first_dealer: int | str = B, rules: str = "default", **switches: str) -> str:
        a, b = names or NAMES2
        data = {"player_a": a, "player_b": b, "target": str(target),
                "first_dealer": str(first_dealer), "rules": rules, **switches}
        page = self.post("/new/marjolet", data)
        assert page.status == 302, page.errors
        assert page.location and re.fullmatch(r"/m/[\w-]+", page.location)
        return page.location.rsplit("/", 1)[1]

    def seed_game(self, deals: list[dict[str, Any]], names: list[str] | None = None,
                  target: int = 500, first_dealer: int = B, rules: str = "default",
                  **switches: bool) -> str:
        """A game stored directly with these deals (checked by the engine first)."""
        from referee.engine.games.marjolet import GAME

        settings = GAME.settings({"players": list(names or NAMES2), "target": target,
                                  "first_dealer": first_dealer, "rules": rules, **switches})
        canonical = [GAME.canonical_hand(d) for d in deals]
        GAME.score(settings, canonical)
        store = self.app.extensions["referee.store"]
        return str(store.create("marjolet", settings, canonical))

    def _act(self, mid: str, n: int, action: str, data: dict[str, Any], htmx: bool,
             editing: bool, **kw: Any) -> Page:
        return self.post(f"/m/{mid}/hands/{n}/{action}{self._q(editing)}", data, htmx=htmx,
                         prefix=action, **kw)

    def turnup(self, mid: str, n: int, card: str, *, htmx: bool = False,
               editing: bool = False, **kw: Any) -> Page:
        return self._act(mid, n, "turnup", {"turnup-turnup": card}, htmx, editing, **kw)

    def turn(self, mid: str, n: int, trick: int | str, winner: int | str | None,
             cards: list[str] | None = None, *, exchange: bool = False, htmx: bool = False,
             editing: bool = False, **kw: Any) -> Page:
        data: dict[str, Any] = {"turn-trick": str(trick), "turn-cards": list(cards or [])}
        if winner is not None:
            data["turn-winner"] = str(winner)
        if exchange:
            data["turn-exchange"] = "y"
        return self._act(mid, n, "turn", data, htmx, editing, **kw)

    def unmeld(self, mid: str, n: int, trick: int | str, player: int | str, index: int | str,
               *, htmx: bool = False, editing: bool = False, **kw: Any) -> Page:
        data = {"unmeld-trick": str(trick), "unmeld-player": str(player),
                "unmeld-index": str(index)}
        return self._act(mid, n, "unmeld", data, htmx, editing, **kw)

    def seven(self, mid: str, n: int, player: int | str | None, trick: int | str | None = None,
              *, htmx: bool = False, editing: bool = False, **kw: Any) -> Page:
        data = {"seven-player": "" if player is None else str(player),
                "seven-trick": "" if trick is None else str(trick)}
        return self._act(mid, n, "seven", data, htmx, editing, **kw)

    def finish_deal(self, mid: str, n: int, brisques: int | str, *, player: int | str = A,
                    trick10: int | str | None = A, last: int | str | None = B,
                    sweep: int | str | None = None, seven: int | str | None = None,
                    htmx: bool = False, editing: bool = False, **kw: Any) -> Page:
        data = {"finish-brisques_player": str(player), "finish-brisques": str(brisques),
                "finish-sweep": "" if sweep is None else str(sweep)}
        if seven is not None:                      # who played the trump 7 (rule 6.1.5)
            data["finish-seven"] = str(seven)
        if trick10 is not None:
            data["finish-trick10"] = str(trick10)
        if last is not None:
            data["finish-last"] = str(last)
        return self._act(mid, n, "finish", data, htmx, editing, **kw)

    def winners(self, mid: str, n: int, won: str, *, htmx: bool = False,
                editing: bool = False, **kw: Any) -> Page:
        """The winners of tricks 1, 2, ... as a string of A, B or ? (spaces ignored)."""
        data = {f"winners-w_{t}": "" for t in range(1, 17)}
        for t, w in enumerate((c for c in won if not c.isspace()), 1):
            data[f"winners-w_{t}"] = {"A": "0", "B": "1", "?": ""}.get(w, w)
        return self._act(mid, n, "winners", data, htmx, editing, **kw)

    @staticmethod
    def standings(page: Page) -> tuple[tuple[int, int], tuple[int, int]]:
        """((totals Anne, Bruno), (games won)) from the standings table: one game, no row of
        games won (its winner is named in the phase, "Game over: Anne wins ...")."""
        points = re.search(r"Points this game (\d+) (\d+)", page.text)
        assert points and "Game won" not in page.text, page.text[:500]
        head = page.html.split('id="standings"', 1)[1].split("</thead>", 1)[0]
        names = [html.unescape(n) for n in re.findall(r"<th>([^<]+)</th>", head)]
        won = [int(f"Game over: {name} wins" in page.text) for name in names]
        return ((int(points[1]), int(points[2])), (won[0], won[1]))


CSRF_MESSAGE = "This form could not be checked (its security token is missing or stale)"
CSRF_KINDS = ["missing", "forged", "other-session"]



def pdf_text(client: FlaskClient, mid: str, explained: bool = False) -> str:
    """The text of a match's scoresheet, whitespace squashed; ``explained``: the scoresheet
    with every hand's explanation."""
    response = client.get(f"/m/{mid}/scoresheet.pdf{'?explained=1' if explained else ''}")
    assert response.status_code == 200
    assert response.mimetype == "application/pdf"
    reader = PdfReader(io.BytesIO(response.get_data()))
    return " ".join(" ".join(p.extract_text().split()) for p in reader.pages)


def import_file(table: Table, body: bytes, **kw: Any) -> Page:
    """Post a match file to the home page's import form."""
    return table.post("/import", {"file": (io.BytesIO(body), "match.json")},
                      content_type="multipart/form-data", **kw)


def posts_to(page: Any, path: str, *, editing: bool = False) -> bool:
    """Does a form on the page post to ``path``, with the fingerprint of the hand it was built
    on (``base``) and, for the editor of an earlier hand, ``editing=1``?"""
    query = r"\?base=(?:\d+-)?(?:new|[0-9a-f]{16})" + ("&amp;editing=1" if editing else "")
    return re.search(f'action="{re.escape(path)}{query}"', page.html) is not None

def says(page: Page, *words: str) -> bool:
    """Does one message the reader can see hold all these words?"""
    return any(all(w in e for w in words) for e in page.visible_errors)


def refused(table: Table, mid: str, htmx: bool, action: Callable[[], Page],
            *words: str) -> Page:
    """Run ``action``: a 422 naming the problem in a visible message, nothing stored."""
    with unchanged(table, mid):
        page = table.rejected(action(), htmx)
    assert says(page, *words), (words, page.errors, page.visible_errors)
    return page


def csrf_is_checked(table: Table, mid: str, kind: str, post: Callable[[str | None], Page],
                    state: Callable[[], object] | None = None) -> None:
    """``post`` with a missing, forged or other session's token: 400, the reason shown, nothing
    stored; the very same request with the session's own token goes through (``state``, by
    default the match file and the match count, changes)."""
    token = {"missing": None, "forged": table.token[:-4] + "AAAA",
             "other-session": table.foreign_token()}[kind]
    count = table.match_count()
    with unchanged(table, mid):
        page = post(token)
    assert page.status == 400, (page.status, page.text[:500])
    assert says(page, CSRF_MESSAGE, "Nothing was changed")
    assert table.match_count() == count
    snapshot = state or (lambda: (table.export(mid), table.match_count()))
    before = snapshot()
    ok = post(table.token)
    assert ok.status in (200, 302), (ok.status, ok.errors)
    assert snapshot() != before
