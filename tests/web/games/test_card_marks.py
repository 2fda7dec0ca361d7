"""Each pack looks like itself (issue 11, item 10) and every card is named in full (item 12).

Tartli's Hungarian pack shows acorns, leaves, hearts and bells, Troggu's Swiss tarot cups,
coins, swords and batons and its trumps as the numerals printed on them; the French pack of
Marjolet and Stovkahra its own four suits. Each mark is a small SVG under static/img/suits/ with
a text alternative; a French symbol never stands in for a Hungarian or tarot suit on a page
(pickers, the trumps line, verdicts, history). A card toggle is named "King of acorns", not
"K♣"; a player's picker carries that player's name; a link leads past every picker."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from test_plain_words import MATCHES, _store
from webtools import Marjolet, Series, Table

from referee.engine.cards import FRENCH, HUNGARIAN, SWISS_TAROT, Deck
from referee.web.cards import DECKS, face

ROOT = Path(__file__).parents[3]
SUITS = ROOT / "static" / "img" / "suits"
CSS = (ROOT / "static" / "css" / "referee.css").read_text()
FRENCH_SYMBOLS = set("♣♠♥♦")
SVG = "{http://www.w3.org/2000/svg}"


def _html(client: FlaskClient, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return response.get_data(as_text=True)


def _toggles(html: str) -> dict[str, tuple[str, str]]:
    """Every card toggle of a page: its value → (accessible name, what its face shows)."""
    found = re.findall(
        r'<input type="(?:checkbox|radio)" name="[\w-]+" value="(\w+)" aria-label="([^"]+)"'
        r'[^>]*><span class="face" aria-hidden="true">(.*?)</span></label>', html)
    return {code: (name, shown) for code, name, shown in found}


# -- the marks ---------------------------------------------------------------------------------

@pytest.mark.parametrize("deck", list(DECKS.values()), ids=list(DECKS))
def test_every_suit_of_every_pack_has_its_own_mark(client: FlaskClient, deck: Deck) -> None:
    """A small SVG named after the suit, titled with its name (its text alternative as an
    image), served from static/, and a CSS class that draws it in the colour of its text."""
    for suit in deck.suits:
        name = deck.suit_names[suit]
        svg = ET.parse(SUITS / f"{name}.svg").getroot()
        assert svg.tag == f"{SVG}svg" and svg.get("viewBox") == "0 0 24 24"
        assert svg.findtext(f"{SVG}title") == name
        assert svg.findall(f"{SVG}path"), name
        served = client.get(f"/static/img/suits/{name}.svg")
        assert served.status_code == 200 and served.mimetype == "image/svg+xml"
        assert f".suit-{name} {{ --mark: url(../img/suits/{name}.svg); }}" in CSS


def test_the_hungarian_and_tarot_packs_have_marks_of_their_own() -> None:
    """Acorns are not clubs, leaves not spades, bells not diamonds; cups, coins, swords and
    batons are none of the French four."""
    french = {(SUITS / f"{n}.svg").read_bytes() for n in FRENCH.suit_names.values()}
    for deck in (HUNGARIAN, SWISS_TAROT):
        for name in deck.suit_names.values():
            if name != "hearts":                   # the Hungarian heart is a heart
                assert (SUITS / f"{name}.svg").read_bytes() not in french, name


# -- the picker --------------------------------------------------------------------------------

def test_the_hungarian_picker_names_every_card_in_full(table: Table) -> None:
    html = _html(table.client, f"/m/{table.new_match()}")
    toggles = _toggles(html)
    assert len(toggles) == 32
    assert toggles["Ka"][0] == "King of acorns"
    assert toggles["Ob"][0] == "Over of bells"
    assert toggles["10l"][0] == "Ten of leaves"
    for card in HUNGARIAN.cards:
        name, shown = toggles[str(card)]
        assert name == HUNGARIAN.long_name(card)
        assert shown == f'{card.rank}<span class="suit suit-{HUNGARIAN.suit_names[card.suit]}">' \
                        "</span>"
    assert not FRENCH_SYMBOLS & set(html)
    for suit in ("acorns", "leaves", "hearts", "bells"):
        assert f'role="group" aria-label="{suit}"' in html


def test_each_players_picker_carries_that_players_name(table: Table) -> None:
    mid = table.new_match(["Anna", "Béla"])
    table.indicator(mid, 1, "8h")
    html = _html(table.client, f"/m/{mid}")
    legends = re.findall(r'<fieldset class="picker"[^>]*>\s*<legend>([^<]+)</legend>', html)
    assert "Béla’s melds" in legends and "Anna’s melds" in legends
    assert len(set(legends)) == len(legends)


def test_a_link_leads_past_every_picker(table: Table) -> None:
    mid = table.new_match(["Anna", "Béla"])
    table.indicator(mid, 1, "8h")
    html = _html(table.client, f"/m/{mid}")
    pickers = re.findall(r'<fieldset class="picker[^"]*" id="([\w-]+)">', html)
    assert len(pickers) >= 3                       # both players' melds and the indicator
    for picker in pickers:
        skip = html.index(f'<a class="skip" href="#{picker}-after">')
        start = html.index(f'id="{picker}"')
        end = html.index("</fieldset>", start)
        assert skip < start < end < html.index(f'id="{picker}-after" tabindex="-1"')


def test_the_tarot_picker_shows_its_trumps_as_numerals_and_names_its_suits(
        app: Flask, client: FlaskClient) -> None:
    mid, _, count = _store(app, "troggu-5")
    html = _html(client, f"/m/{mid}/hands/{count}")
    toggles = _toggles(html)
    assert len(toggles) == 62
    assert toggles["T21"] == ("Trump 21 (Mund)", "XXI")
    assert toggles["T1"] == ("Trump 1 (Bagatt)", "I")
    assert toggles["T18"] == ("Trump 18", "XVIII")
    assert toggles["F"] == ("Fool (Bättler)", "Fool")
    assert toggles["Kc"][0] == "King of cups"
    assert toggles["Nb"][0] == "Cavalier of batons"
    assert toggles["4d"] == ("4 of coins", '4<span class="suit suit-coins"></span>')
    assert toggles["10s"] == ("10 of swords", '10<span class="suit suit-swords"></span>')
    for group in ("trumps", "cups", "coins", "swords", "batons"):
        assert f'role="group" aria-label="{group}"' in html
    assert not FRENCH_SYMBOLS & set(html)


def test_the_french_pickers_name_every_card_in_full(
        app: Flask, client: FlaskClient, csrf_token: Callable[..., str]) -> None:
    """Marjolet's turn-up and Stovkahra's combination (with German letters: O and U) show the
    French pack's own marks and name each card in full."""
    marjolet = Marjolet(app, client, csrf_token)
    toggles = _toggles(_html(client, f"/m/{marjolet.new_game()}"))
    assert len(toggles) == 32
    for card in FRENCH.cards:
        suit = FRENCH.suit_names[card.suit]
        assert toggles[str(card)] == (
            FRENCH.long_name(card), f'{card.rank}<span class="suit suit-{suit}"></span>')
    series = Series(app, client, csrf_token)
    mid = series.new_series(german_letters="y")
    series.start_deal(mid, 1, "h")
    toggles = _toggles(_html(client, f"/m/{mid}"))
    assert toggles["Qh"] == ("Ober of hearts", 'O<span class="suit suit-hearts"></span>')
    assert toggles["Jc"] == ("Unter of clubs", 'U<span class="suit suit-clubs"></span>')
    assert toggles["As"] == ("Ace of spades", 'A<span class="suit suit-spades"></span>')


def test_german_letters_name_the_over_and_the_under() -> None:
    """Stovkahra may show O and U for the queen and the jack (its rules 1: Ober and Unter):
    the name follows the face."""
    letters = {"Q": "O", "J": "U"}
    assert face(FRENCH, "Qh", letters).name == "Ober of hearts"
    assert face(FRENCH, "Jc", letters).rank == "U"
    assert face(FRENCH, "Qh").name == "Queen of hearts"


# -- the pages ---------------------------------------------------------------------------------

@pytest.mark.parametrize("key", ["tartli", "troggu-5", "troggu-7"])
def test_no_french_symbol_stands_in_for_a_hungarian_or_tarot_suit(
        app: Flask, client: FlaskClient, key: str) -> None:
    """Every page of a match with melds, verdicts, discards and a hand in progress: the match
    page, the view link, the live part, the history of changes and every hand's editor."""
    mid, view, count = _store(app, key)
    urls = [f"/m/{mid}", f"/m/{view}", f"/m/{mid}/live", f"/m/{mid}/changes",
            *(f"/m/{mid}/hands/{n}" for n in range(1, count + 1))]
    shown = {url: sorted(FRENCH_SYMBOLS & set(_html(client, url))) for url in urls}
    assert not {url: found for url, found in shown.items() if found}
    assert MATCHES[key]


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_a_card_in_a_refusal_shows_its_pack_and_its_full_name(table: Table, htmx: bool) -> None:
    """Tartli refuses the Ace of acorns and the King of leaves as a meld: the message draws
    the acorn and the leaf, and names both cards in full."""
    mid = table.new_match(["Anna", "Béla"])
    table.indicator(mid, 1, "8h")
    page = table.trick(mid, 1, 1, (["Aa", "Kl"], []), htmx=htmx)
    assert page.status == 422
    assert any("A K is not a meld" in e for e in page.errors), page.errors
    for rank, name, suit in (("A", "Ace", "acorns"), ("K", "King", "leaves")):
        assert (f'<span class="card-name of-{suit}" role="img" aria-label="{name} of {suit}">'
                f'{rank}<span class="suit suit-{suit}" aria-hidden="true"></span></span>') \
            in page.html
    assert not FRENCH_SYMBOLS & set(page.html)


def test_the_trumps_line_shows_the_suit_and_the_indicator(table: Table) -> None:
    mid = table.new_match(["Anna", "Béla"])
    table.indicator(mid, 1, "9l")
    html = _html(table.client, f"/m/{mid}")
    line = re.search(r'<p class="trumps">(.*?)</p>', html, re.S)
    assert line is not None
    assert '<span class="suit suit-leaves" aria-hidden="true"></span> leaves' in line.group(1)
    assert 'aria-label="Nine of leaves">9<span class="suit suit-leaves"' in line.group(1)
