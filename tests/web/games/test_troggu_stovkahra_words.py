"""Troggu's and Stovkahra's own parts of the match page say every word through the catalogues
(issue 22): under a catalogue that says every sentence in upper case, the phone reading French,
the hand's editor (its bidding, partner call, discard, end, Misère, thrown-in hand; a deal's
trumps, combinations and dost), the payments, the settle-up, the decisions asked again and the
matchstick choices show no lower-case English word outside the players' and teams' names — in
the page's text and in what is read aloud (aria-label, title, placeholder)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import flask_babel
import pytest
from flask import Flask
from flask.testing import FlaskClient
from webtools import EXAMPLE_1, NS, Page, Series, deal

from tests.shouting import Upper
from tests.web.games.test_stovkahra_web import EXAMPLE_4, WRONG_DOST_BY_W, series_file_deals
from tests.web.games.test_troggu_web import NAMES, Troggu
from tests.web.matches.test_words_shown import _Words

TEAMS = {"Jana", "Eva", "Petr", "Karel", "Sokoli", "Orli"}
SHOWN_AS_IS = set(NAMES) | TEAMS
# The game's own parts of a match page: each by its opening tag, to the end of its element.
PARTS = ('<section class="editor panel" id="editor">', '<section class="decisions panel"',
         '<section class="settle panel"', '<div class="payments"', '<form method="post" '
         'class="sticks"', '<div class="sticks">')


@pytest.fixture
def shouting(client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every sentence in upper case, the phone reading French (English says the engine's
    sentences as they are written)."""
    monkeypatch.setattr(flask_babel.Domain, "get_translations", lambda self: Upper())
    client.get("/?lang=fr")
    yield


def _element(html: str, start: int) -> str:
    """The element opening at ``start``, to its matching end tag."""
    tag = re.match(r"<(\w+)", html[start:])
    assert tag
    depth, at = 0, start
    for found in re.finditer(rf"<(/?){tag[1]}\b", html[start:]):
        depth += -1 if found[1] else 1
        if depth == 0:
            at = start + found.end()
            break
    return html[start:html.index(">", at) + 1]


def parts(page: Page) -> list[str]:
    """The game's own parts of the page; the shared card picker left out (its skip link and
    its rows: ``_formhelpers.html`` and ``referee/web/cards.py``, said by their own room)."""
    found = [_element(page.html, m.start()) for opening in PARTS
             for m in re.finditer(re.escape(opening), page.html)]
    picker = re.compile(r'<a class="skip".*?</a>|<fieldset class="picker.*?</fieldset>', re.S)
    return [picker.sub(" ", part) for part in found]


def english_left(page: Page) -> list[str]:
    assert page.status in (200, 422), page.status
    reader = _Words()
    for part in parts(page):
        reader.feed(part)
    text = " ".join(reader.words)
    return sorted({word for word in re.findall(r"[^\W\d_]*[a-zà-ÿ][^\W\d_]*", text)
                   if word not in SHOWN_AS_IS})


@pytest.fixture
def tg(app: Flask, client: FlaskClient, csrf_token: Callable[..., str]) -> Troggu:
    return Troggu(app, client, csrf_token)


A, B, C, D, E = range(5)


def test_troggu_s_parts_say_every_word_through_the_catalogue(tg: Troggu, shouting: None) -> None:
    # seven players: the partner call asked with the end of the hand, then its own form
    mid = tg.new_match(7)
    tg.bids(mid, 1, A, {C: "normal"})
    page = tg.get(f"/m/{mid}")
    assert 'class="partner-call' in page.html and english_left(page) == []
    tg.call(mid, 1, "T20", D)
    tg.discard(mid, 1, points=12)
    page = tg.get(f"/m/{mid}")
    assert 'class="call"' in page.html and english_left(page) == []
    # scored: the payments and the settle-up; the next hand's bidding
    tg.finish(mid, 1, 62, tricks=5)
    page = tg.get(f"/m/{mid}")
    assert 'class="pay"' in page.html and 'id="settle"' in page.html
    assert english_left(page) == []
    # an earlier hand's editor; a refusal
    assert english_left(tg.get(f"/m/{mid}/hands/1")) == []
    assert english_left(tg.finish(mid, 1, 200, editing=True)) == []
    # the bidding changed: the new Tappist asked for the call and the discard again
    tg.bids(mid, 1, A, {E: "normal"}, editing=True)
    page = tg.get(f"/m/{mid}")
    assert 'id="decisions"' in page.html and english_left(page) == []
    # five players: a Misère, a Solo; under "No Misère" a thrown-in hand
    mid = tg.new_match(5)
    tg.bids(mid, 1, A)
    page = tg.get(f"/m/{mid}")
    assert "misere" in page.html and english_left(page) == []
    mid = tg.new_match(5, seven_fives="y", misere_least_wins="y")
    tg.bids(mid, 1, A, {B: "solo"})
    assert english_left(tg.get(f"/m/{mid}")) == []
    mid = tg.new_match(4, no_misere="y", kings_any_number="y")
    tg.bids(mid, 1, A)
    assert english_left(tg.get(f"/m/{mid}/hands/1")) == []


def test_stovkahra_s_parts_say_every_word_through_the_catalogue(series: Series,
                                                                shouting: None) -> None:
    mid = series.new_series()
    page = series.get(f"/m/{mid}")
    assert english_left(page) == []
    series.start_deal(mid, 1, "h")
    series.declare(mid, 1, 0, rank="K", count=3)
    page = series.get(f"/m/{mid}")
    assert 'class="trumps"' in page.html and 'class="combinations"' in page.html
    assert english_left(page) == []
    assert english_left(series.get(f"/m/{mid}/hands/1")) == []
    assert english_left(series.finish_deal(mid, 1, 80)) == []          # refused
    # matchsticks won and not chosen yet; then taken
    mid = series.seed_series([EXAMPLE_1, deal(end=EXAMPLE_4["end"], sticks="add"),
                              WRONG_DOST_BY_W])
    page = series.get(f"/m/{mid}")
    assert 'class="sticks"' in page.html and english_left(page) == []
    page = series.follow(series.choose_sticks(mid, 3, "take"))
    assert english_left(page) == []
    # a choice made void by an edit: asked again at the top
    mid = series.seed_series(series_file_deals())
    series.finish_deal(mid, 1, 20, tricks=5, last=1 - NS, seven={4: NS}, editing=True)
    page = series.get(f"/m/{mid}")
    assert 'id="decisions"' in page.html and english_left(page) == []
