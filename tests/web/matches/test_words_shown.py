"""Every word the match pages show goes through the catalogues (issue 22): under a catalogue
that says every sentence in upper case, no lower-case English word of the app's own is left on
the match page with a hand in progress, the history with a deleted hand and an undo, an earlier
hand's editor, a refusal (422), a conflict (409), the view link, the home page and an error
page — only the players' and the device's names as typed."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from html.parser import HTMLParser
from typing import Any

import flask_babel
import pytest
from babel import Locale
from flask import Flask
from flask.testing import FlaskClient
from webtools import HAND_440_71, PLAIN_40_38, PLAYERS4, A, B, Series, Table

from tests.shouting import Upper

NAMES = {"Ágnes", "Tamás", "Anna's", "phone", *PLAYERS4}   # as typed: players, device
SHOWN_ATTRIBUTES = {"aria-label", "title", "placeholder", "alt", "aria-description"}




@pytest.fixture
def shouting(app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every sentence said in upper case, the phone reading French (not English: English is
    said as the code writes it)."""
    monkeypatch.setattr(flask_babel.Domain, "get_translations", lambda self: Upper())
    client.get("/?lang=fr")
    yield


class _Words(HTMLParser):
    """The words a reader sees: text outside scripts and styles, and the attributes read
    aloud."""

    def __init__(self) -> None:
        super().__init__()
        self.words: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "template"):
            self._hidden += 1
        for name, value in attrs:
            if name in SHOWN_ATTRIBUTES and value:
                self.words.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "template"):
            self._hidden -= 1

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self.words.append(data)


def english_left(html: str, typed: Iterable[str] = ()) -> list[str]:
    """The lower-case words on the page that are not names (``typed``: more of them, such as
    the match's codes), nor links, nor the reader's own language's."""
    reader = _Words()
    reader.feed(html)
    text = _HEX.sub(" ", _LINK.sub(" ", " ".join(reader.words)))
    for name in (*NAMES, *typed):
        text = text.replace(name, " ")
    return sorted({word for word in re.findall(r"[^\W\d_]*[a-zà-ÿ][^\W\d_]*", text)
                   if len(word) > 1 and word not in _OWN})


# Words that are no English of the app's: the language menu names each language in itself;
# proper names, said alike in every language: the brand and the games; the share links'
# addresses (their host is named in the hint beside them too); and the months as the reader's
# language (French) writes them (Babel's, in the dates of the history of changes).
_OWN = {"English", "Magyar", "Deutsch", "Schweiz", "Čeština", "Français",
        "Referee", "Tartli", "Troggu", "Stovkahra", "Marjolet", "localhost",
        *(month.rstrip(".") for month in Locale.parse("fr").months["format"]["abbreviated"]
          .values())}
_LINK = re.compile(r"https?://\S+")
# a device's short id in hex after its name ("Anna's phone · 3fa2"): random, maybe all letters
_HEX = re.compile(r"(?<=· )[0-9a-f]{4}\b")


def _shown(answer: Any) -> str:
    return str(answer.get_data(as_text=True))


def test_the_match_pages_show_no_english_of_their_own(
        shouting: None, table: Table, client: FlaskClient, app: Flask,
        csrf_token: Callable[..., str]) -> None:
    mid = table.seed([HAND_440_71, HAND_440_71])
    pages: dict[str, str] = {}
    client.post("/device", data={"csrf_token": table.token, "name": "Anna's phone"})
    # a hand in progress
    table.indicator(mid, 3, "8h")
    table.trick(mid, 3, 1, ([], ["set:A"]), B)
    pages["match"] = table.get(f"/m/{mid}").html
    pages["match (htmx)"] = table.get(f"/m/{mid}", htmx=True).html
    # a deleted hand and an undo in the history
    table.follow(table.delete(mid, 1))
    table.follow(table.undo(mid))
    page = table.follow(table.delete(mid, 1))
    pages["after a delete"] = page.html
    pages["history"] = _shown(client.get(f"/m/{mid}/live"))
    # an earlier hand's editor, a change told
    pages["editor"] = table.get(f"/m/{mid}/hands/1?trick=2").html
    pages["edited"] = table.follow(table.finish(mid, 1, 90, last=A, editing=True)).html
    # a refusal
    refused = table.finish(mid, 1, 900, last=A, editing=True)
    assert refused.status == 422
    pages["refusal"] = refused.html
    # a conflict: a post built on another version of the hand
    conflict = table.post(f"/m/{mid}/hands/1/finish?base=stale", {
        "finish-pile_player": "0", "finish-pile": "80", "finish-last": "0"}, prefix="finish")
    assert conflict.status == 409, conflict.status
    pages["conflict"] = conflict.html
    deleted = table.post(f"/m/{mid}/hands/9/delete?base=stale")
    pages["conflict (delete)"] = deleted.html
    # the view link
    with app.app_context():
        view = app.extensions["referee.store"].load(mid).view_token
    pages["view"] = _shown(client.get(f"/m/{view}"))
    pages["view (refused)"] = table.post(f"/m/{view}/undo").html
    # the home page and an error page
    pages["home"] = _shown(client.get("/"))
    pages["not found"] = _shown(client.get("/m/no-such-match"))
    pages["csrf"] = table.post(f"/m/{mid}/undo", token=False).html
    # the match's codes, beside its links: as random as the links
    left = {name: words for name, html in pages.items()
            if (words := english_left(html, typed=(mid, view)))}
    assert left == {}, "\n".join(f"{k}: {v}" for k, v in left.items())


@pytest.mark.parametrize("game", ["tartli", "stovkahra"])       # hands, and deals
def test_the_pages_of_a_match_s_hands_show_no_english_of_their_own(
        shouting: None, series: Series, app: Flask, game: str) -> None:
    """A game won (Tartli), said on the view link; a hand's page, its delete asked without
    JavaScript, the pages of earlier hands (and of none), the history of changes and the
    chart (the match recorded in French, as the chart is drawn), each on a page of its own:
    none with an editor or a decision of the game's (a game's own words)."""
    table: Table = series
    mid = (table.seed([HAND_440_71, HAND_440_71]) if game == "tartli"
           else series.seed_series([PLAIN_40_38, PLAIN_40_38]))
    assert table.post(f"/m/{mid}/language", {"language": "fr"}).status == 302
    with app.app_context():
        view = app.extensions["referee.store"].load(mid).view_token
    pages = {url: table.get(url) for url in (
        f"/m/{view}", f"/m/{mid}/explained/2", f"/m/{mid}/hands/2/delete",
        f"/m/{mid}/history?before=2", f"/m/{mid}/history?before=1", f"/m/{mid}/changes",
        f"/m/{mid}/chart")}
    assert {url: page.status for url, page in pages.items()} == dict.fromkeys(pages, 200)
    if game == "tartli":
        assert 'class="announce"' in pages[f"/m/{view}"].html       # the game won, announced
    left = {url: words for url, page in pages.items()
            if (words := english_left(page.html, typed=(mid, view)))}
    assert left == {}, "\n".join(f"{k}: {v}" for k, v in left.items())
