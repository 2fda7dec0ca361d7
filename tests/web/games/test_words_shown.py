"""Every word a player reads on a game's own pages goes through the catalogues (issue 22):
under a catalogue that upper-cases each message (its placeholders kept), each game's new-match
page, its editor with a hand in progress and a refusal show no lower-case English word of the
app's own, outside the players' names."""

from __future__ import annotations

import re
from typing import Any

import flask_babel
import pytest
from babel import Locale
from flask.testing import FlaskClient
from webtools import Page, Table

from tests.shouting import Upper
from tests.web.circles.test_circle_languages import english_words

PLAYERS = ["Anne", "Bruno", "Carla", "Dario", "Erik"]
# The cards' short names and the suits' symbols are the table's notation, alike in every
# language; the names of the players; Troggu's regional presets are named by their villages;
# the computer's name in the links' hint ("localhost").
# the months as the reader's language (French) writes them (Babel's, in the history's dates)
SHOWN_AS_IS = {*PLAYERS, "Visp", "St", "Niklaus", "Grächen", "localhost",
               *(month.rstrip(".") for month in Locale.parse("fr").months["format"]["abbreviated"]
                 .values())}

# Per game: the new-match form, and the first action of a hand (its name and its fields).
GAMES: dict[str, tuple[dict[str, Any], str, dict[str, Any]]] = {
    "tartli": ({"player_a": "Anne", "player_b": "Bruno", "target": "5", "first_dealer": "0"},
               "indicator", {"indicator-indicator": "8h"}),
    "marjolet": ({"player_a": "Anne", "player_b": "Bruno", "target": "500",
                  "first_dealer": "1", "rules": "default"},
                 "turnup", {"turnup-turnup": "9c"}),
    "stovkahra": ({"north": "Anne", "east": "Bruno", "south": "Carla", "west": "Dario",
                   "target": "10", "first_dealer": "3", "shuffle_reminder": "each game"},
                  "start", {"start-dealer": "3"}),
    "troggu": ({"players": PLAYERS + [""] * 3, "first_dealer": "0", "stake": "10",
                "threshold": "standard"},
               "bids", {"bids-dealer": "0", "bids-fool": "", "bids-bagatt": "",
                        **{f"bids-bid_{seat}": "pass" for seat in range(5)},
                        "bids-bid_1": "solo"}),
}


# what a screen reader says of an element
READ_ALOUD = re.compile(r'\s(?:aria-label|aria-description|title|placeholder|alt)="([^"]*)"')


@pytest.fixture
def shouting(monkeypatch: pytest.MonkeyPatch, client: FlaskClient, table: Table) -> None:
    """The upper-casing catalogue, the phone reading French (English says the engine's
    sentences as the code writes them, never through a catalogue) and named as a player is
    (the history names the phone; a phone without a name shows letters of its code)."""
    monkeypatch.setattr(flask_babel.Domain, "get_translations", lambda self: Upper())
    client.get("/?lang=fr")
    client.post("/device", data={"csrf_token": table.token, "name": "Anne"})


# the history's device: its name as typed, then its short id in hex ("Anne · 3fa2")
DEVICE_ID = re.compile(r'(<small class="device">[^<]*) · [0-9a-f]+(?=</small>)')


def left(page: Page) -> list[str]:
    html = DEVICE_ID.sub(r"\1", page.html)
    said = " ".join(READ_ALOUD.findall(html))
    return [w for w in english_words(html) + english_words(said) if w not in SHOWN_AS_IS]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_games_pages_say_every_word_through_the_catalogue(
        table: Table, shouting: None, name: str) -> None:
    new, action, fields = GAMES[name]
    # the phone reads French: English says the engine's sentences as they are written
    table.get("/?lang=fr")
    page = table.get(f"/new/{name}")
    assert page.status == 200
    assert left(page) == [], "new-match page"

    made = table.post(f"/new/{name}", new)
    assert made.status == 302, made.errors
    assert made.location and re.fullmatch(r"/m/[\w-]+", made.location)
    mid = made.location.rsplit("/", 1)[1]

    started = table.post(f"/m/{mid}/hands/1/{action}", fields, prefix=action)
    assert started.status in (200, 302), started.errors
    page = table.get(f"/m/{mid}")
    assert page.status == 200
    assert left(page) == [], "editor of a hand in progress"

    # the next hand started while this one is open: refused, with the rules' words
    refused = table.post(f"/m/{mid}/hands/2/{action}", fields, prefix=action)
    assert refused.status == 422, refused.status
    assert left(refused) == [], "refusal"


def test_the_catalogue_is_the_upper_one(shouting: None) -> None:
    assert isinstance(flask_babel.Domain().get_translations(), Upper)
