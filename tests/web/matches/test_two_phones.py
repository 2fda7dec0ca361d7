"""Two phones at one table, through the Flask test client, in every game (issue 21, item 1):
what a form built on an older match (its ``?base=``) does once another phone changed it.

- A form for a new hand N that another phone filled meanwhile is refused and offered as the
  next new hand: every form of the editor it comes back in posts for that hand (with the dealer
  proposed for it), what was typed is kept, and sending it stores the next hand, never a change
  of hand N.
- A form for a stored hand that changed elsewhere is refused with both versions named by
  player and score in words; "Keep" leaves the stored hand; sending it again replaces it.
- The live poll of an editor with nothing typed into it brings the editor as the match now
  stands (the next hand's), with no warning; with something typed, the warning only.

After every post no stored hand changed but the one the form was sent for. The browser tests
(tests/browser/test_phones.py) play the same at the table."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any

import pytest
from flask import Flask
from games.test_troggu_web import Troggu
from webtools import Marjolet, Page, Series, Table

HTMX = pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
STALE = "was just changed on another phone"


# ---------------------------------------------------------------------------------------------
# A form as the page shows it: its address and the values a browser would send


class _Forms(HTMLParser):
    """Every form of a page: its action, its buttons' formactions and its fields' values as
    shown (checked boxes and radios, selected options, typed values)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[dict[str, Any]] = []
        self._form: dict[str, Any] | None = None
        self._select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self._form = {"urls": [a.get("action", "")], "data": {}}
            self.forms.append(self._form)
        if self._form is None:
            return
        data = self._form["data"]
        if tag == "button" and a.get("formaction"):
            self._form["urls"].append(a["formaction"])
        elif tag == "input" and a.get("name") and a.get("type") not in ("submit", "button"):
            if a.get("type") in ("checkbox", "radio") and "checked" not in a:
                data.setdefault(a["name"], [])
            else:
                data.setdefault(a["name"], []).append(a.get("value", ""))
        elif tag == "select":
            self._select = a.get("name")
            data.setdefault(self._select, [])
        elif tag == "option" and self._select and "selected" in a:
            data[self._select].append(a.get("value", ""))

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._form = None
        elif tag == "select":
            self._select = None


def forms(page: Page) -> list[dict[str, Any]]:
    reader = _Forms()
    reader.feed(page.html)
    return reader.forms


def hand_urls(page: Page) -> list[str]:
    """Where the editor's forms and buttons post a hand's facts."""
    return [html_url for form in forms(page) for html_url in form["urls"]
            if re.search(r"/hands/\d+/\w+", html_url) and "/delete" not in html_url]


def send(table: Table, page: Page, action: str, typed: dict[str, str], *,
         htmx: bool = False) -> Page:
    """Send the page's form of ``action`` (its button's address, with its ``?base=``) with
    ``typed`` over the values it shows, as the browser would."""
    for form in forms(page):
        for url in form["urls"]:
            if re.search(rf"/hands/\d+/{action}(\?|/|$)", url):
                data = {name: values for name, values in form["data"].items() if values}
                data.update({name: [value] for name, value in typed.items()})
                tokens = [n for n in data if n.endswith("csrf_token")]
                prefix = (action if f"{action}-csrf_token" in tokens
                          else tokens[0].removesuffix("csrf_token").rstrip("-"))
                for token in tokens:
                    data.pop(token)
                return table.post(url, data, htmx=htmx, prefix=prefix)
    raise AssertionError(f"no form posts {action}: {hand_urls(page)}")


def checked(page: Page, action: str, name: str) -> list[str]:
    for form in forms(page):
        if any(re.search(rf"/hands/\d+/{action}\b", url) for url in form["urls"]):
            return list(form["data"].get(name, []))
    raise AssertionError(f"no form posts {action}")


# ---------------------------------------------------------------------------------------------
# The games


@dataclass
class Game:
    new: Callable[[Table], str]                  # a match: its edit token
    kind: type[Table]
    start: tuple[str, str, list[str]]            # a new hand's action, field, two choices
    finish: tuple[str, dict[str, str]]           # the end of a started hand
    number: str                                  # a number of that end, to edit
    values: tuple[str, str, str]                 # as first stored, edited, typed
    names: list[str]
    word: str = "hand"


GAMES = {
    "tartli": Game(lambda t: t.new_match(["Anna", "Béla"]), Table,
                   ("indicator", "indicator-indicator", ["8h", "9l"]),
                   ("finish", {"finish-pile": "100", "finish-last": "0"}),
                   "finish-pile", ("100", "90", "102"), ["Anna", "Béla"]),
    "marjolet": Game(lambda t: t.new_game(["Anne", "Bruno"]), Marjolet,
                     ("turnup", "turnup-turnup", ["9c", "7s"]),
                     ("finish", {"finish-brisques": "50", "finish-trick10": "0",
                                 "finish-last": "1", "finish-seven": "0"}),
                     "finish-brisques", ("50", "60", "70"), ["Anne", "Bruno"], "deal"),
    "stovkahra": Game(lambda t: t.new_series(["Anna", "Boris", "Cilka", "David"]),
                      Series, ("start", "start-trumps", ["h", "d"]),
                      ("finish", {"finish-points": "40", "finish-tricks": "5",
                                  "finish-last": "1"}),
                      "finish-points", ("40", "44", "46"), ["Anna & Cilka", "Boris & David"],
                      "deal"),
    "troggu": Game(lambda t: t.new_match(names=["Anna", "Beat", "Carla", "Dario", "Elsa"]),
                   Troggu, ("bids", "bids-bid_3", ["solo", "pass"]),
                   ("finish", {"finish-points": "52"}), "finish-points", ("52", "71", "60"),
                   ["Anna", "Beat", "Carla", "Dario", "Elsa"]),
}


def phone(app: Flask, kind: type[Table]) -> Table:
    """A phone: its own browser session."""
    client = app.test_client()

    def token(url: str = "/", other: Any = None) -> str:
        body = (other or client).get(url).get_data(as_text=True)
        found = re.search(r'"X-CSRFToken": "([^"]+)"', body)
        assert found
        return found.group(1)

    return kind(app, client, token)


def two_phones(app: Flask, name: str) -> tuple[Game, Table, Table, str]:
    game = GAMES[name]
    a, b = phone(app, game.kind), phone(app, game.kind)
    return game, a, b, game.new(a)


def whole(game: Game, table: Table, mid: str, choice: int = 0) -> None:
    """Hand ``len + 1`` started and finished through the page's own forms."""
    action, field, choices = game.start
    started = send(table, table.get(f"/m/{mid}"), action, {field: choices[choice]})
    assert started.status == 302, started.errors
    finished = send(table, table.get(f"/m/{mid}"), *game.finish)
    assert finished.status == 302, finished.errors


def in_words(game: Game, outcome: Any) -> str:
    return ", ".join(f"{side} {str(score).replace('-', '−')}"
                     for side, score in zip(game.names, outcome, strict=True))


def stored_scores(app: Flask, game: str, mid: str, number: int) -> tuple[int, ...]:
    from referee.engine import scoring

    stored = app.extensions["referee.store"].load(mid)
    result = scoring.score(game, stored.settings, stored.hands)
    return tuple(result.hands[number - 1].scores)


# ---------------------------------------------------------------------------------------------
# The tests


@HTMX
@pytest.mark.parametrize("name", list(GAMES))
def test_an_entry_for_a_hand_filled_elsewhere_is_offered_as_the_next(
        app: Flask, name: str, htmx: bool) -> None:
    game, a, b, mid = two_phones(app, name)
    action, field, choices = game.start
    seen = b.get(f"/m/{mid}")                                 # B's editor of hand 1 (new)
    whole(game, a, mid)                                       # A enters hand 1 meanwhile
    after_a = a.hands(mid)
    page = send(b, seen, action, {field: choices[1]}, htmx=htmx)
    assert page.status == 409, (page.status, page.text[:500])
    assert a.hands(mid) == after_a
    conflict = re.sub(r"\s+", " ", page.text)
    assert f"Stored meanwhile: {game.word} 1" in conflict
    assert in_words(game, stored_scores(app, name, mid, 1)) in conflict
    assert not re.search(r"\d : \d", conflict)
    assert f"kept below as {game.word} 2" in " ".join(page.errors)
    # every form of the editor posts for hand 2; what was typed is kept
    urls = hand_urls(page)
    assert urls and all(f"/m/{mid}/hands/2/" in url for url in urls), urls
    assert checked(page, action, field) == [choices[1]]
    # the dealer is the one proposed for hand 2, not hand 1's
    fresh = a.get(f"/m/{mid}")
    assert checked(page, action, f"{action}-dealer") == checked(fresh, action, f"{action}-dealer")
    # sent, it is hand 2; hand 1 stays as A stored it
    done = send(b, page, action, {}, htmx=htmx)
    assert done.status in (200, 302), (done.status, done.errors)
    hands = a.hands(mid)
    assert len(hands) == 2 and hands[0] == after_a[0]


@HTMX
@pytest.mark.parametrize("name", list(GAMES))
def test_an_edit_of_a_hand_changed_elsewhere_shows_both_and_keeps_the_stored(
        app: Flask, name: str, htmx: bool) -> None:
    game, a, b, mid = two_phones(app, name)
    whole(game, a, mid)
    seen = b.get(f"/m/{mid}/hands/1")                         # B opens hand 1's editor
    edited = send(a, a.get(f"/m/{mid}/hands/1"), game.finish[0], {game.number: game.values[1]})
    assert edited.status == 302, edited.errors
    after_a = a.hands(mid)
    ends = dict(game.finish[1])
    typed = game.values[2]
    page = send(b, seen, game.finish[0], {**ends, game.number: typed}, htmx=htmx)
    assert page.status == 409, (page.status, page.text[:500])
    assert a.hands(mid) == after_a
    conflict = re.sub(r"\s+", " ", page.text)
    assert in_words(game, stored_scores(app, name, mid, 1)) in conflict
    assert re.search(r"Yours, not saved: " + ", ".join(
        rf"{re.escape(side)} −?\d+" for side in game.names), conflict), conflict[:2000]
    assert not re.search(r"\d : \d", conflict)
    assert page.value(game.number) == typed
    # the forms post for hand 1 on its stored version: sent again, the user's pick
    urls = hand_urls(page)
    assert urls and all(f"/m/{mid}/hands/1/" in url for url in urls), urls
    keep = re.search(r'<a class="button" href="([^"]+)">Keep the stored', page.html)
    assert keep and keep.group(1) == f"/m/{mid}/hands/1"
    assert b.get(keep.group(1)).value(game.number) == game.values[1]
    assert a.hands(mid) == after_a
    again = send(b, page, game.finish[0], {}, htmx=htmx)
    assert again.status in (200, 302), (again.status, again.errors)
    assert a.hands(mid) != after_a and len(a.hands(mid)) == 1


def _poll(page: Page, typed: bool) -> str:
    found = re.search(r'<div id="scoreboard"[^>]*hx-get="([^"]+)"', page.html)
    assert found
    return found.group(1).replace("&amp;", "&") + f"&typed={int(typed)}"


@pytest.mark.parametrize("name", list(GAMES))
def test_the_live_poll_brings_an_untouched_editor_the_next_hand(app: Flask, name: str) -> None:
    game, a, b, mid = two_phones(app, name)
    seen = b.get(f"/m/{mid}")
    untouched, typed = _poll(seen, False), _poll(seen, True)
    assert "hand=1&base=new" in untouched
    whole(game, a, mid)
    after_a = a.hands(mid)
    # something typed, or a page of an earlier table.js that says nothing of it: warned, the
    # editor left as it is
    for poll in (typed, typed.removesuffix("&typed=1")):
        warned = b.get(poll, htmx=True)
        assert warned.status == 200
        assert f"{game.word.capitalize()} 1 {STALE}" in warned.text
        assert f"What you send now comes back as the next {game.word}" in warned.text
        assert "live-editor" not in warned.html
    # nothing typed: the editor of hand 2, no warning, no undo of A's change
    followed = b.client.get(untouched, headers={"HX-Request": "true"})
    assert followed.status_code == 200
    assert followed.headers["HX-Retarget"] == "#live-editor"
    page = Page.of(followed)
    assert STALE not in page.text
    assert 'id="live-editor"' in page.html and "live-undo" not in page.html
    assert "live-top" not in page.html                   # what this phone last did stays
    urls = hand_urls(page)
    assert urls and all(f"/m/{mid}/hands/2/" in url for url in urls), urls
    assert "hand=2&base=new" in _poll(page, False)       # the next poll watches hand 2
    assert followed.headers["ETag"] == b.client.get(_poll(page, False)).headers["ETag"]
    assert b.get(_poll(page, False), htmx=True).status in (200, 304)
    assert a.hands(mid) == after_a


def test_the_live_poll_brings_an_untouched_editor_of_an_earlier_hand_as_it_stands(
        app: Flask) -> None:
    game, a, b, mid = two_phones(app, "tartli")
    whole(game, a, mid)
    whole(game, a, mid, 1)
    poll = _poll(b.get(f"/m/{mid}/hands/1"), False)
    assert "editing=1" in poll
    edited = send(a, a.get(f"/m/{mid}/hands/1"), "finish", {"finish-pile": "90"})
    assert edited.status == 302
    page = b.get(poll, htmx=True)
    assert f"Editing {game.word} 1" in page.text and STALE not in page.text
    assert page.value("finish-pile") == "90"
    urls = hand_urls(page)
    assert urls and all(f"/m/{mid}/hands/1/" in url and "editing=1" in url for url in urls)


@HTMX
def test_an_entry_for_a_hand_after_the_match_ended_elsewhere_is_not_offered(
        app: Flask, htmx: bool) -> None:
    """Another phone's hand ended the match: what this phone sent for that hand is not
    offered as a next hand (there is none), and the answer says so."""
    from pathlib import Path

    from referee.engine.games.tartli import GAME as TARTLI

    played = json.loads(Path("tests/data/tartli-complete.json").read_text())
    hands = [TARTLI.canonical_hand(h) for h in played["hands"]]
    a, b = phone(app, Table), phone(app, Table)
    mid = a.seed(hands[:-1], names=played["settings"]["players"])
    page = b.get(f"/m/{mid}")
    store = app.extensions["referee.store"]
    store.save_hands(mid, hands[:-1], hands, "Hand 3 (the other phone)")   # the match ends
    answer = send(b, page, "indicator", {"indicator-indicator": "8h"}, htmx=htmx)
    assert answer.status == 409
    text = " ".join(re.sub(r"<[^>]+>", " ", answer.html).split())
    assert "the match is over, so what you sent was not saved: no hand follows" in text
    assert "It is kept below as hand" not in text
    assert "/hands/4/" not in answer.html                      # no form for a hand after it
    assert store.load(mid).hands == hands                      # nothing else stored


@HTMX
def test_a_new_hands_form_after_a_change_elsewhere_says_no_hand_was_deleted(
        app: Flask, htmx: bool) -> None:
    """A new hand's form built before another phone's change that left its number free (an
    undo of an edit) is offered as that hand again, and the answer says the match changed, not
    that the hand was deleted."""
    a, b = phone(app, Table), phone(app, Table)
    mid = a.new_match(["Anna", "Béla"])
    game = GAMES["tartli"]
    whole(game, a, mid)
    edited = send(a, a.get(f"/m/{mid}/hands/1"), "finish",
                  {"finish-pile": "90", "finish-last": "0"})
    assert edited.status == 302, edited.errors
    page = b.get(f"/m/{mid}")                                  # hand 2's form
    assert a.undo(mid).status == 302                           # the edit of hand 1 undone
    answer = send(b, page, "indicator", {"indicator-indicator": "9l"}, htmx=htmx)
    assert answer.status == 409
    text = " ".join(re.sub(r"<[^>]+>", " ", answer.html).split())
    assert "The match was changed on another device meanwhile" in text
    assert "deleted" not in text.lower()
    assert "It is kept below as hand 2" in text
