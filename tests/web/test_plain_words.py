"""Plain words on every page (issue 11, item 6): no notation, names instead of seats.

The table reads the pages, not the match file: a meld is "four kings", not ``four:K``; a card is
a word or its pack's suit mark (A♥), not its code ``Ah``; a tarot trump is its numeral (XX),
not ``T20``; a player is a name, not a seat letter ("Jana", not "N" or "Jana (N)"). For each
game a match with melds, combinations, a partner call and discards, and a hand in progress, is
walked page by page (the match page, every hand's editor, the view link, the live scoreboard,
the history of changes and the PDF scoresheet): no text a player sees holds the notation the
facts are stored in (referee/engine/games/*/facts.py, melds.py)."""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from webtools import Page, Table, hand, pdf_text

from referee.engine import matchfile
from referee.engine.errors import RuleViolation
from referee.engine.games import get

DATA = Path(__file__).parents[1] / "data"

# The notation of the stored facts, as the app writes it.
NOTATION = {
    # melds: Tartli set:K, seq:a/K/4, seq:?/3; Marjolet four:K, marriage:h, marjolet:d
    "meld": re.compile(r"\b(four|marriage|marjolet|seq|set|sequence|bela|tierce):[\w?/]+"),
    # card codes: Hungarian (a l h b), French (c d h s) and Swiss tarot (c d s b) suits
    # ("As" followed by a word is English, not the ace of spades)
    "card": re.compile(r"(?<![\w♠♥♦♣])(10|[1-9AKQJOUN])[ahlbcds](?![\w♠♥♦♣])(?<!As(?= [a-z]))"),
    # the tarot's trumps by code
    "trump": re.compile(r"\bT([1-9]|1\d|2[01])\b"),
    # Stovkahra's combinations as shorthand: "3 × A", "three × K"
    "combination": re.compile(r"\b(three|four|3|4) × (A|K|Q|J|O|U|10|7)\b"),
    # seats instead of names
    "seat": re.compile(r"\((N|E|S|W)\)|\b(NS|EW)\b|\b[Ss]eat \d"),
}


def _notation(text: str) -> list[str]:
    return [f"{kind}: {m.group(0)!r} in …{text[max(0, m.start() - 60):m.end() + 30]}…"
            for kind, pattern in NOTATION.items() for m in pattern.finditer(text)]


def _from_file(name: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    loaded = matchfile.load((DATA / name).read_bytes())
    return copy.deepcopy(loaded.settings), [dict(h) for h in loaded.hands]


def _tartli() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The short match (sets, sequences, a béla, claims) and a hand in progress with a
    sequence scored in trick 1 and a set declared in the trick being played."""
    settings, hands = _from_file("tartli-short.json")
    return settings, [*hands, hand("Kh", "0", {1: (["seq:a/K/3"], [])},
                                   in_progress=(["set:9"], []))]


def _stovkahra() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The series (combinations, dost, matchstick choices); its deal in progress has a
    combination shown card by card."""
    settings, hands = _from_file("stovkahra-series.json")
    hands[-1]["combinations"] = [
        {"seat": 3, "rank": "10", "count": 3, "cards": ["10h", "10d", "10c"]}]
    return settings, hands


def _marjolet() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A game with every kind of meld; the last deal reopened (its end removed) and a four and
    a marriage added to it."""
    settings, hands = _from_file("marjolet-game.json")
    open_deal = copy.deepcopy(hands[-1])
    open_deal["end"] = None
    open_deal["tricks"] = open_deal["tricks"][:10]
    open_deal["tricks"][0] = {"winner": 1, "exchange": None, "melds": [[], ["four:A"]]}
    open_deal["tricks"][1] = {"winner": 0, "exchange": None, "melds": [["marriage:s"], []]}
    return settings, [*hands[:-1], open_deal]


def _troggu(players: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """5 players: a discard with trumps in it, then a Solo with its Tapp; 7 players: a partner
    call of trump XX. Each with a hand in progress holding the discard."""
    names = ["Anna", "Beat", "Carla", "Dario", "Elsa", "Fabian", "Gina"][:players]
    settings = {"players": names, "first_dealer": 0}
    if players == 5:
        discard = ["Qc", "Nd", "Jb", "T2", "T3", "6c", "5d"]
        hands = [
            {"bids": ["normal", "pass", "pass", "pass", "pass"], "discard": discard,
             "end": {"points": 70, "tricks": 7, "loser_took_trick": True}},
            {"bids": ["pass", "solo"], "tapp": ["T4", "T5", "2c", "3c", "4c", "Kb", "Qb"],
             "end": {"points": 60, "tricks": 7, "loser_took_trick": True}},
            {"bids": ["pass", "pass", "normal", "pass", "pass"], "discard": discard},
        ]
    else:
        call = {"trump": "T20", "partner": 3}
        hands = [
            {"bids": ["normal"] + ["pass"] * 6, "call": call,
             "end": {"points": 90, "tricks": 7, "loser_took_trick": True}},
            {"bids": ["pass", "normal"] + ["pass"] * 5, "call": {"trump": "T19", "partner": 2}},
        ]
    return settings, hands


MATCHES = {
    "tartli": _tartli, "stovkahra": _stovkahra, "marjolet": _marjolet,
    "troggu-5": lambda: _troggu(5), "troggu-7": lambda: _troggu(7),
}


def _store(app: Flask, key: str) -> tuple[str, str, int]:
    """The match stored as the app stores it: (edit token, view token, hands)."""
    game = get(key.split("-")[0])
    raw_settings, raw_hands = MATCHES[key]()
    settings = game.settings(raw_settings)
    hands = game.complete(settings, [game.canonical_hand(h) for h in raw_hands])
    result = game.score(settings, hands)
    assert result.draft is not None, "each match has a hand in progress"
    store = app.extensions["referee.store"]
    mid = str(store.create(game.name, settings, hands))
    match = store.load(mid)
    assert match is not None
    return mid, match.view_token, len(hands)


def _text(client: FlaskClient, url: str) -> str:
    page = Page.of(client.get(url))
    assert page.status == 200, (url, page.status)
    return page.text


@pytest.mark.parametrize("key", sorted(MATCHES))
def test_no_page_shows_notation(app: Flask, client: FlaskClient, key: str) -> None:
    mid, view, count = _store(app, key)
    urls = [f"/m/{mid}", f"/m/{view}", f"/m/{mid}/live", f"/m/{mid}/changes",
            *(f"/m/{mid}/hands/{n}" for n in range(1, count + 1)),
            # a hand's explanation, loaded when its row in the history is opened (issue 12)
            *(f"/m/{mid}/explained/{n}" for n in range(1, count + 1)),
            *(f"/m/{view}/explained/{n}" for n in range(1, count + 1))]
    found = {url: _notation(_text(client, url)) for url in urls}
    found["scoresheet.pdf"] = _notation(pdf_text(client, mid))
    assert not {url: hits for url, hits in found.items() if hits}


def test_the_patterns_catch_what_the_pages_used_to_show() -> None:
    """Each pattern fails on the notation an earlier version showed."""
    for shown in ["Trick 1: Tamás, Kvart to the King of acorns (seq:a/K/4)", "set:9",
                  "10 Bruno’s turn: marjolet:h +40", "four:K",
                  "Jana (N): three aces (Ah Ad Ac)", "Discard Qs 9s Qb 7b", "Jana: 3 × A",
                  "Anna calls T20", "10c", "Teams NS and EW"]:
        assert _notation(shown), shown
    for plain in ["Four Nines", "three aces (A♥ A♦ A♣)", "Discard Q♠ 9♠ Q♣ 7♣", "trump XX",
                  "Rule set: default", "K♣ O♣ U♣ 10♣", "As agreed", "Anna deals"]:
        assert not _notation(plain), plain


# ---------------------------------------------------------------------------------------------
# Names, not seats; an edit said as an edit; a one-game match; scoresheet headings


def test_a_stovkahra_combination_is_said_in_words_with_its_cards(
        app: Flask, client: FlaskClient) -> None:
    mid, _, count = _store(app, "stovkahra")
    text = _text(client, f"/m/{mid}")
    assert "Karel: three tens (" in text          # the editor's list (its cards as marks)
    # the deal's line in the history: its explanation, loaded when its row is opened
    explanation = _text(client, f"/m/{mid}/explained/{count}")
    assert "Karel: three tens (10♥ 10♦ 10♣) +10" in explanation
    assert "Karel (W)" not in text
    assert "Jana: three aces" in pdf_text(client, mid)        # a finished deal's combination


def test_a_marjolet_meld_in_the_editor_is_named(app: Flask, client: FlaskClient) -> None:
    mid, _, count = _store(app, "marjolet")
    text = _text(client, f"/m/{mid}/hands/{count}")
    assert "Bruno’s turn: four aces" in text
    assert "Anne’s turn: the marriage in spades" in text


def test_a_troggu_call_names_its_trump(app: Flask, client: FlaskClient) -> None:
    mid, _, _ = _store(app, "troggu-7")
    assert "The partner call: trump XIX — Carla is partner" in _text(client, f"/m/{mid}/hands/2")
    assert "(called trump XX)" in pdf_text(client, mid)


def test_an_edit_is_logged_as_an_edit(table: Table) -> None:
    """Recording the hand in progress says what was recorded; changing an earlier hand from
    its editor says that the hand was edited, in the history and on the undo button."""
    mid = table.seed([hand("7h", "11", {1: (["set:O"], [])},
                           {"kind": "played", "piles": [80, 71], "last": 0,
                            "stichmatsch": None})])
    page = table.done(table.indicator(mid, 2, "8h"), False)
    assert "Undo: Trump indicator (hand 2)" in page.text
    page = table.done(table.trick(mid, 1, 2, ([], []), 1, editing=True), False)
    assert "Undo: Hand 1 edited (trick 2)" in page.text
    history = table.get(f"/m/{mid}/changes").text
    assert "Hand 1 edited (trick 2)" in history and "Trick 2 of hand 1" not in history
    page = table.done(table.undo(mid), False)
    assert "Undone: Hand 1 edited (trick 2)." in page.notices


def test_a_one_game_match_has_no_count_of_games_won(app: Flask, client: FlaskClient) -> None:
    """Marjolet is one game: no "Game won 0 0" row while it is played, and the winner named
    once it is over."""
    settings, hands = _from_file("marjolet-game.json")
    game = get("marjolet")
    store = app.extensions["referee.store"]
    playing = _text(client, f"/m/{store.create('marjolet', settings, hands[:3])}")
    over = _text(client, f"/m/{store.create('marjolet', settings, hands)}")
    assert "Game won" not in playing and "Game won" not in over
    assert "Points this game" in playing
    assert "Game over: Anne wins 634–520" in over
    assert game.victory_label(settings) == ""


@pytest.mark.parametrize(("key", "headings"), [
    ("tartli", ["Hand Dealer", "Melds Card points Hand score Total"]),
    ("stovkahra", ["Deal Dealer Combinations", "This deal Game total"]),
    ("marjolet", ["Deal Dealer", "Melds Aces and tens Bonuses This deal Total"]),
    ("troggu-5", ["Hand Dealer Game Declarer / partner Card points Multiplier"]),
])
def test_scoresheet_headings_say_what_they_mean(app: Flask, client: FlaskClient, key: str,
                                                headings: list[str]) -> None:
    mid, _, _ = _store(app, key)
    text = pdf_text(client, mid)
    for heading in headings:
        assert heading in text, (heading, text[:800])


def test_a_refusal_names_the_meld_that_showed_a_card() -> None:
    """Ágnes shows four aces in trick 1 while the ace of hearts is the trump indicator: the
    refusal says "Four Aces", not set:A (rule 6.3.6)."""
    game = get("tartli")
    settings = game.settings({"players": ["Ágnes", "Tamás"], "target": 5, "first_dealer": 0})
    with pytest.raises(RuleViolation) as refusal:
        game.score(settings, [game.canonical_hand(hand("Ah", "0", {1: (["set:A"], [])}))])
    assert "Ágnes in Four Aces in trick 1" in refusal.value.message, refusal.value.message
    assert not _notation(refusal.value.message)
