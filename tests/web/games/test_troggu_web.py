"""Troggu through the Flask test client (CSRF on, real SQLite): a new match, hands entered step
by step (the bidding, the partner call, the discard as cards or as points, the end), Solo,
Misère, seven players with a partner and alone, a forced game, the payments with their reasons,
the balances and the settle-up, editing an earlier hand, the match file and the scoresheet; then
bad input, each refused with a visible message, 422 and nothing stored. Every action runs as a
whole page and through htmx.

Players are named after the letters of the rules' worked examples (section 9): Anna = A,
Beat = B, Carla = C, Dario = D, Elsa = E, Fabian = F, Gina = G, Hugo = H, in seating order
(play goes anticlockwise: seat s + 1 is on the right of seat s). Anna deals first unless a test
says otherwise, so Beat speaks first in hand 1.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from webtools import (
    CSRF_KINDS,
    Page,
    Table,
    csrf_is_checked,
    import_file,
    pdf_text,
    posts_to,
    refused,
    says,
    unchanged,
)

HTMX = pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
DATA = Path(__file__).parents[2] / "data"
HUGE = "9" * 5000
BIG = "9" * 400
NAMES = ["Anna", "Beat", "Carla", "Dario", "Elsa", "Fabian", "Gina", "Hugo"]
A, B, C, D, E, F, G, H = range(8)
# A legal discard of 10 cards (4 players): 4 + 4 + 8 pips = 16 card points
DISCARD_10 = ["Qs", "Qb", "9s", "8s", "7s", "6s", "5s", "9b", "8b", "7b"]
# ... and of 7 cards (5 players): Qc 4 + Nd 3 + Jb 2 + T2 T3 + 6c 5d = 13
DISCARD_7 = ["Qc", "Nd", "Jb", "T2", "T3", "6c", "5d"]


# ---------------------------------------------------------------------------------------------
# The driver


class Troggu(Table):
    """Drives the Troggu pages like a browser (same plumbing as webtools.Table)."""

    def new_form(self, count: int = 5, *, names: list[str] | None = None, first_dealer: int = 0,
                 stake: int | str = 10, threshold: str = "standard",
                 **variants: str) -> dict[str, Any]:
        players = list(names if names is not None else NAMES[:count])
        return {"players": players + [""] * max(0, 8 - len(players)),
                "first_dealer": str(first_dealer), "stake": str(stake),
                "threshold": threshold, **variants}

    def new_match(self, count: int = 5, **kw: Any) -> str:
        page = self.post("/new/troggu", self.new_form(count, **kw))
        assert page.status == 302, page.errors
        assert page.location and re.fullmatch(r"/m/[\w-]+", page.location)
        return page.location.rsplit("/", 1)[1]

    def seed_match(self, hands: list[dict[str, Any]], count: int = 5,
                   **settings: Any) -> str:
        """A match stored directly with these hands (checked by the engine first), completed
        as the app stores them (Game.complete)."""
        from referee.engine.games.troggu import GAME

        settings = GAME.settings({"players": NAMES[:count], "first_dealer": 0, **settings})
        canonical = GAME.complete(settings, [GAME.canonical_hand(h) for h in hands])
        GAME.score(settings, canonical)
        return str(self.app.extensions["referee.store"].create("troggu", settings, canonical))

    def act(self, mid: str, n: int, action: str, data: dict[str, Any], *, htmx: bool = False,
            editing: bool = False, **kw: Any) -> Page:
        return self.post(f"/m/{mid}/hands/{n}/{action}{self._q(editing)}", data, htmx=htmx,
                         prefix=action, **kw)

    def bids(self, mid: str, n: int, dealer: int | str, calls: dict[int, str] | None = None,
             *, fool: int | str | None = None, bagatt: int | str | None = None,
             **kw: Any) -> Page:
        """The bidding: ``calls`` by seat (everybody else passes)."""
        data: dict[str, Any] = {"bids-dealer": str(dealer)}
        for seat in range(8):
            data[f"bids-bid_{seat}"] = (calls or {}).get(seat, "pass")
        data["bids-fool"] = "" if fool is None else str(fool)
        data["bids-bagatt"] = "" if bagatt is None else str(bagatt)
        return self.act(mid, n, "bids", data, **kw)

    def call(self, mid: str, n: int, trump: str | None, partner: int | str | None,
             **kw: Any) -> Page:
        data = {"call-trump": trump or ""}
        if partner is not None:
            data["call-partner"] = str(partner)
        return self.act(mid, n, "call", data, **kw)

    def discard(self, mid: str, n: int, cards: list[str] | None = None,
                points: int | str | None = None, *, kings: bool = False, **kw: Any) -> Page:
        data: dict[str, Any] = {"discard-cards": list(cards or []),
                                "discard-points": "" if points is None else str(points)}
        if kings:
            data["discard-all_kings_held"] = "y"
        return self.act(mid, n, "discard", data, **kw)

    def finish(self, mid: str, n: int, points: int | str, took: bool | str = True, *,
               tricks: int | str | None = None, tapp: int | str | None = None,
               fool_kept: int | str | None = None, trump: str | None = None,
               partner: int | str | None = None, **kw: Any) -> Page:
        """The end of the hand; with 7–8 players the partner call may come with it (``trump``
        posted when given, ``partner`` when a holder, or "alone", is tapped)."""
        data = {"finish-points": str(points),
                "finish-took": took if isinstance(took, str) else "yes" if took else "no",
                "finish-tricks": "" if tricks is None else str(tricks),
                "finish-tapp_points": "" if tapp is None else str(tapp),
                "finish-fool_kept": "" if fool_kept is None else str(fool_kept)}
        if trump is not None:
            data["finish-trump"] = trump
        if partner is not None:
            data["finish-partner"] = str(partner)
        return self.act(mid, n, "finish", data, **kw)

    def misere(self, mid: str, n: int, points: list[int | str],
               tricks: list[int | str] | None = None, *, tapp: int | str | None = None,
               **kw: Any) -> Page:
        data = {"misere-tapp_points": "" if tapp is None else str(tapp),
                "misere-fool_kept": ""}
        for seat, p in enumerate(points):
            data[f"misere-points_{seat}"] = str(p)
            data[f"misere-tricks_{seat}"] = "" if tricks is None else str(tricks[seat])
        return self.act(mid, n, "misere", data, **kw)

    # -- reading -------------------------------------------------------------------------

    @staticmethod
    def balances(page: Page) -> list[int]:
        """The balances in the standings table, by seat."""
        board = re.search(r'id="standings">(.*?)</section>', page.html, re.S)
        assert board and "Balance (Rappen)" in board[1], page.text[:800]
        # a column each for up to four players, three to a line for more: in seat order
        return [int(v.replace("−", "-"))
                for v in re.findall(r'class="num big">([−-]?\d+)</(?:td|span)>', board[1])]

    @staticmethod
    def payments(page: Page) -> dict[str, tuple[int, str]]:
        """The payments table of the editor: name → (amount, reason)."""
        table = re.search(r'<table class="pay">(.*?)</table>', page.html, re.S)
        assert table, page.text[:1500]
        rows = re.findall(r'<tr><th>(.*?)</th><td class="num">(.*?)</td><td>(.*?)</td></tr>',
                          table[1].split("<tfoot>")[0])
        return {html.unescape(name): (int(amount.replace("−", "-").replace("+", "")),
                                      html.unescape(reason)) for name, amount, reason in rows}

    @staticmethod
    def amounts(page: Page) -> list[int]:
        return [amount for amount, _ in Troggu.payments(page).values()]

    @staticmethod
    def settle(page: Page) -> list[str]:
        section = re.search(r'<section class="settle panel" id="settle">(.*?)</section>',
                            page.html, re.S)
        assert section, page.text[:800]
        return [f"{html.unescape(p)} pays {html.unescape(q)} {a}" for p, q, a in re.findall(
            r"<li><strong>(.*?)</strong> pays <strong>(.*?)</strong> (\d+) Rappen", section[1])]


@pytest.fixture
def tg(app: Flask, client: FlaskClient, csrf_token: Callable[..., str]) -> Troggu:
    return Troggu(app, client, csrf_token)




# Facts (the JSON of referee/engine/games/troggu/facts.py) for seeding


def normal(dealer: int, declarer: int, points: int, n: int, took: bool = True,
           **extra: Any) -> dict[str, Any]:
    bids = ["pass"] * n
    bids[(declarer - dealer - 1) % n] = "normal"
    return {"dealer": dealer, "bids": bids, "game": "normal", "declarer": declarer, **extra,
            "end": {"points": points, "loser_took_trick": took}}


def misere(dealer: int, points: list[int]) -> dict[str, Any]:
    return {"dealer": dealer, "bids": ["pass"] * len(points), "game": "misere",
            "end": {"points": points}}


# Hands 1–3 of a 5-player evening (Anna deals first): Carla wins 71 (+40), Dario loses 52
# (−40), a Misère that Anna and Beat pay.
EVENING_5 = [normal(A, C, 71, 5), normal(B, D, 52, 5), misere(C, [30, 30, 20, 15, 10])]


# ---------------------------------------------------------------------------------------------
# A new match


def test_new_match_form(tg: Troggu) -> None:
    page = tg.get("/new/troggu")
    assert page.status == 200
    assert "New Troggu match" in page.text
    assert len([i for i in page.inputs if i.get("name") == "players"]) == 8
    assert "anticlockwise" in page.text
    assert page.value("stake") == "10"
    assert page.checked("first_dealer") == ["0"]
    assert page.checked("threshold") == ["standard"]
    for preset in ("Standard: ×2 when the losers have 29 or fewer", "Visp", "St Niklaus",
                   "Grächen: ×2 when the losers have 20 or fewer"):
        assert preset in page.text, preset
    for key, title in (("kings_any_number", "Kings: any number"),
                       ("seven_fives", "Seven 5-point cards"), ("no_misere", "No Misère"),
                       ("misere_least_wins", "Misère: least wins"),
                       ("graechen_deal", "Grächen deal")):
        assert any(i.get("name") == key and i.get("type") == "checkbox" for i in page.inputs)
        assert title in page.text
    assert not page.hidden                       # nothing folded away


def test_start_a_match(tg: Troggu) -> None:
    mid = tg.new_match(5)
    settings = tg.export(mid)["settings"]
    assert settings == {"players": NAMES[:5], "first_dealer": 0, "stake": 10,
                        "threshold": "standard", "kings_any_number": False,
                        "seven_fives": False, "no_misere": False, "misere_least_wins": False,
                        "graechen_deal": False}
    page = tg.get(f"/m/{mid}")
    assert page.status == 200
    assert "Troggu: Anna – Beat – Carla – Dario – Elsa" in page.text
    assert tg.balances(page) == [0, 0, 0, 0, 0]
    assert "Points this game" not in page.text           # one row: the balances
    assert "Hand 1 Anna deals · Beat speaks first" in page.text
    assert "5 players: 11 cards each (4+4+3), a Tapp of 7" in page.text
    assert "Nobody owes anything." in page.text
    assert page.checked("bids-dealer") == ["0"]
    for seat in range(5):
        assert page.checked(f"bids-bid_{seat}") == ["pass"]
    # the calls are asked from the dealer's right: Beat, Carla, Dario, Elsa, Anna
    order = [m for m in re.findall(r'<span class="who">(\w+)', page.html)]
    assert order == ["Beat", "Carla", "Dario", "Elsa", "Anna"]


def test_start_with_a_preset_and_variants(tg: Troggu) -> None:
    mid = tg.new_match(4, stake=5, threshold="graechen", first_dealer=2, graechen_deal="y",
                       no_misere="y")
    settings = tg.export(mid)["settings"]
    assert settings["stake"] == 5 and settings["threshold"] == "graechen"
    assert settings["graechen_deal"] and settings["no_misere"]
    assert settings["first_dealer"] == 2
    page = tg.get(f"/m/{mid}")
    assert "4 players: 14 cards each (7 + Tapp + 7), a Tapp of 6" in page.text
    assert "Hand 1 Carla deals · Dario speaks first" in page.text
    assert "thrown-in hand" in page.text


@pytest.mark.parametrize(("data", "message"), [
    ({"players": NAMES[:8] + ["Ivo"]}, "Troggu is for 3 to 8 players"),
    ({"players": ["Anna", "Beat", "", "", "", "", "", ""]}, "Troggu is for 3 to 8 players"),
    ({"players": ["Anna", "", "Carla", "Dario", "", "", "", ""]},
     "Seat 2 is empty but a later seat has a name"),
    ({"players": ["Anna", "Beat", "anna", "", "", "", "", ""]}, "different names"),
    ({"players": ["Anna", "Beat", "C" * 41, "", "", "", "", ""]},
     "A name has at most 40 characters"),
    ({"first_dealer": "4", "players": NAMES[:4] + [""] * 4},
     "The first dealer is seat 5, but only 4 players are seated"),
    ({"first_dealer": "8"}, "Not a valid choice"),
    ({"stake": "0"}, "The stake is 1 to 100,000 Rappen"),
    ({"stake": "ten"}, "Not a valid integer value."),
    ({"stake": HUGE}, "Enter a number of at most 6 digits"),
    ({"stake": BIG}, "Enter a number of at most 6 digits"),
    ({"threshold": "zermatt"}, "Not a valid choice"),
    ({"kings_any_number": "y", "seven_fives": "y"},
     "“Kings: any number” and “Seven 5-point cards” cannot both be on"),
    ({"no_misere": "y", "misere_least_wins": "y"},
     "“No Misère” and “Misère: least wins” cannot both be on"),
], ids=["nine", "two", "gap", "same", "long", "dealer-5-of-4", "dealer-forged", "stake-0",
        "stake-text", "stake-huge", "stake-big", "threshold", "kings-and-seven",
        "no-misere-and-least"])
def test_new_match_refused(tg: Troggu, data: dict[str, Any], message: str) -> None:
    form = tg.new_form(5)
    form.update(data)
    before = tg.match_count()
    page = tg.post("/new/troggu", form)
    assert page.status == 422
    assert page.is_full_page
    assert says(page, message), page.visible_errors
    assert tg.match_count() == before
    typed = [str(i.get("value") or "") for i in page.inputs if i.get("name") == "players"]
    assert typed[:len(form["players"])] == form["players"]        # nothing typed is lost


def test_html_in_names_is_escaped(tg: Troggu) -> None:
    evil = ["<script>alert(1)</script>", "<img src=x>", "Carla", "<b>D</b>"]
    mid = tg.new_match(names=evil)
    assert tg.export(mid)["settings"]["players"] == evil
    tg.follow(tg.bids(mid, 1, A, {B: "normal"}))
    pages = [tg.get("/"), tg.get(f"/m/{mid}"), tg.get(f"/m/{mid}", htmx=True),
             tg.finish(mid, 1, 115), tg.finish(mid, 1, 60, htmx=True),
             tg.get(f"/m/{mid}/hands/1"), tg.call(mid, 1, "T20", A)]
    for page in pages:
        assert "<script>alert" not in page.html
        assert "<img src=x" not in page.html
        assert "<b>D</b>" not in page.html
        assert "&lt;script&gt;" in page.html or "&lt;img" in page.html
    main = tg.get(f"/m/{mid}")
    assert evil[0] in main.text and evil[1] in main.text
    assert f"{evil[1]} wins a normal game 60–54" in main.text
    assert tg.settle(main)[0].startswith(evil[0])
    assert says(pages[6], "Only with 7 or 8 players does the Tappist call a partner")
    text = pdf_text(tg.client, mid)
    assert evil[0] in text and evil[1] in text


# ---------------------------------------------------------------------------------------------
# A normal game, step by step


@HTMX
def test_normal_game_with_the_discard_as_cards(tg: Troggu, htmx: bool) -> None:
    """Rules 9, example 1: 4 players, Beat is Tappist, 71 with the discard: A, C, D pay 10."""
    mid = tg.new_match(4)
    page = tg.done(tg.bids(mid, 1, A, {B: "normal"}, htmx=htmx), htmx)
    assert "Bidding: Beat normal, Carla passes, Dario passes, Anna passes → Beat is Tappist" \
        in page.verdicts
    assert "Game: normal game · Tappist Beat" in page.text
    assert "Undo: Bidding (hand 1)" in page.text
    assert "in progress" in page.classed["summary"]
    assert tg.hands(mid)[0]["bids"] == ["normal", "pass", "pass", "pass"]
    # the discard, tapped in the picker: 10 cards for 4 players
    assert "The exchange: the discard of 10 cards" in page.text
    page = tg.done(tg.discard(mid, 1, DISCARD_10, htmx=htmx), htmx)
    # swords and batons by their own marks (a card named in full), not by spades and clubs
    # (Page.text puts a space between the pieces of text around each card)
    assert "Discard Q 9 8 7 6 5 Q 9 8 7 : 16 card points, counted for Beat's side" in page.text
    assert 'aria-label="Queen of swords">Q<span class="suit suit-swords"' in page.html
    assert 'aria-label="7 of batons">7<span class="suit suit-batons"' in page.html
    assert sorted(tg.hands(mid)[0]["discard"]) == sorted(DISCARD_10)
    assert sorted(page.checked("discard-cards")) == sorted(DISCARD_10)
    # the end: Beat's side 71, the defenders 43 and took tricks
    page = tg.done(tg.finish(mid, 1, 71, htmx=htmx), htmx)
    pay = tg.payments(page)
    assert {name: amount for name, (amount, _) in pay.items()} == {
        "Anna": -10, "Beat": 30, "Carla": -10, "Dario": -10}
    assert pay["Beat"][1] == "Beat receives 30 (Tappist: 10 from each of 3 opponents)"
    assert pay["Anna"][1] == "Anna pays 10 (defender: 1 × 10)"
    assert sum(tg.amounts(page)) == 0
    assert "Sum 0" in page.text
    assert "Beat 71, defenders 43 (114 − 71): Beat wins with 58 or more" in page.text
    assert "The defenders have 43 > 29 (Standard): ×1; unit 1 × 10 = 10 Rappen" in page.text
    assert tg.balances(page) == [-10, 30, -10, -10]
    assert tg.settle(page) == ["Anna pays Beat 10", "Carla pays Beat 10", "Dario pays Beat 10"]
    assert "Hand 2 Beat deals · Carla speaks first" in page.text
    assert "next deal: Beat" in page.text
    assert tg.hands(mid)[0]["end"] == {"points": 71, "defenders": None, "tricks": None,
                                       "loser_took_trick": True, "fool_kept": None}


@HTMX
def test_normal_game_with_the_discard_as_points(tg: Troggu, htmx: bool) -> None:
    """Example 2: 5 players, Carla is Tappist with 52: she pays each of the four 10."""
    mid = tg.new_match(5)
    tg.done(tg.bids(mid, 1, A, {C: "normal"}, htmx=htmx), htmx)
    page = tg.done(tg.discard(mid, 1, points=9, htmx=htmx), htmx)
    assert "Discard: 9 card points, counted for Carla's side" in page.text
    assert tg.hands(mid)[0]["discard"] is None and tg.hands(mid)[0]["discard_points"] == 9
    page = tg.done(tg.finish(mid, 1, 52, tricks=4, htmx=htmx), htmx)
    assert {n: a for n, (a, _) in tg.payments(page).items()} == {
        "Anna": 10, "Beat": 10, "Carla": -40, "Dario": 10, "Elsa": 10}
    assert tg.payments(page)["Carla"][1] == "Carla pays 40 (Tappist: 10 to each of 4 opponents)"
    assert tg.balances(page) == [10, 10, -40, 10, 10]
    assert tg.settle(page) == ["Carla pays Anna 10", "Carla pays Beat 10",
                               "Carla pays Dario 10", "Carla pays Elsa 10"]


@HTMX
def test_solo(tg: Troggu, htmx: bool) -> None:
    """Example 4: 3 players, Anna's Solo 90 (the Tapp included) to 24: ×2, doubled: 40 each.
    The players after a Solo are not asked: their pre-set "pass" is dropped."""
    mid = tg.new_match(3, first_dealer=C)
    page = tg.done(tg.bids(mid, 1, C, {A: "solo"}, htmx=htmx), htmx)
    assert "Bidding: Anna Solo → Anna plays Solo" in page.verdicts
    assert "Game: Solo · Soloist Anna" in page.text
    assert tg.hands(mid)[0]["bids"] == ["solo"]
    assert "The exchange" not in page.text                 # a Soloist does not exchange
    assert "The Tapp's card points (optional)" in page.text
    page = tg.done(tg.finish(mid, 1, 90, tapp=12, htmx=htmx), htmx)
    assert {n: a for n, (a, _) in tg.payments(page).items()} == {
        "Anna": 80, "Beat": -40, "Carla": -40}
    assert "unit 2 × 10 × 2 (Solo) = 40 Rappen" in page.text
    assert "Tapp: 12 card points, counted for the Soloist" in page.text
    assert tg.balances(page) == [80, -40, -40]
    assert tg.hands(mid)[0]["tapp_points"] == 12


@HTMX
def test_misere(tg: Troggu, htmx: bool) -> None:
    """Example 7: 5 players all pass; A 30, B 30, C 20, D 15, E 10: A and B tie for the most
    and each pay 10 to C, D and E."""
    mid = tg.new_match(5)
    page = tg.done(tg.bids(mid, 1, A, htmx=htmx), htmx)
    assert "Bidding: Beat passes, Carla passes, Dario passes, Elsa passes, Anna passes → all " \
           "passed" in page.verdicts
    assert "Game: Misère" in page.text
    assert "Misère: each player's card points" in page.text
    page = tg.done(tg.misere(mid, 1, [30, 30, 20, 15, 10], tapp=9, htmx=htmx), htmx)
    assert {n: a for n, (a, _) in tg.payments(page).items()} == {
        "Anna": -30, "Beat": -30, "Carla": 20, "Dario": 20, "Elsa": 20}
    assert tg.payments(page)["Carla"][1] == "Carla receives 20 (10 from each of Anna and Beat)"
    assert "Anna and Beat tie for the most points (30) (house rule)" in page.text
    assert tg.balances(page) == [-30, -30, 20, 20, 20]
    assert sum(tg.amounts(page)) == 0
    assert len(tg.settle(page)) == 4
    assert tg.hands(mid)[0]["end"] == {"points": [30, 30, 20, 15, 10], "tricks": None,
                                       "fool_kept": None}


@HTMX
def test_seven_players_with_a_partner_and_alone(tg: Troggu, htmx: bool) -> None:
    """Example 8: Anna calls XX, Dario holds it; they win 62–52: defenders −10, Dario +20,
    Anna +30. Then Beat calls XX, which was in the Tapp: alone, 66: +60, the others −10."""
    mid = tg.new_match(7, first_dealer=G)
    page = tg.done(tg.bids(mid, 1, G, {A: "normal"}, htmx=htmx), htmx)
    assert "7 players: 8 cards each (4+4), a Tapp of 6" in page.text
    # the call is asked with the end of the hand until it is recorded (issue 11)
    assert "The partner call" in page.text
    assert page.selected("finish-trump") == ["T20"]            # usually XX
    # the Tappist is not offered as his own partner
    assert "0" not in [i.get("value") for i in page.inputs if i.get("name") == "finish-partner"]
    page = tg.done(tg.call(mid, 1, "T20", D, htmx=htmx), htmx)     # the call on its own
    assert "Anna calls trump XX; Dario holds it and is the partner" in page.text
    assert "Game: normal game · Tappist Anna · partner Dario" in page.text
    page = tg.done(tg.finish(mid, 1, 62, tricks=5, htmx=htmx), htmx)
    assert {n: a for n, (a, _) in tg.payments(page).items()} == {
        "Anna": 30, "Beat": -10, "Carla": -10, "Dario": 20, "Elsa": -10, "Fabian": -10,
        "Gina": -10}
    assert tg.payments(page)["Dario"][1] == "Dario receives 20 (partner: 2 × 10)"
    assert tg.payments(page)["Anna"][1] == (
        "Anna receives 30 (Tappist: 5 defenders × 10 = 50, less the partner's 20)")
    # hand 2: Anna deals, Beat speaks first and takes; the called XX lay in the Tapp
    tg.done(tg.bids(mid, 2, A, {B: "normal"}, htmx=htmx), htmx)
    page = tg.done(tg.call(mid, 2, "T20", "alone", htmx=htmx), htmx)
    assert "Beat calls trump XX and plays alone: it was Beat's own or in the Tapp" in page.text
    page = tg.done(tg.finish(mid, 2, 66, htmx=htmx), htmx)
    assert {n: a for n, (a, _) in tg.payments(page).items()} == {
        "Anna": -10, "Beat": 60, "Carla": -10, "Dario": -10, "Elsa": -10, "Fabian": -10,
        "Gina": -10}
    assert tg.balances(page) == [20, 50, -20, 10, -20, -20, -20]
    assert sum(tg.balances(page)) == 0
    assert tg.hands(mid)[1]["call"] == {"trump": "T20", "partner": "alone", "by": B}
    assert len(tg.settle(page)) <= 6


@HTMX
def test_seven_players_the_call_given_with_the_end_of_the_hand(tg: Troggu, htmx: bool) -> None:
    """Issue 11: with 7 players the partner call (4.5.2) is asked in the end of the hand while
    none is recorded: given there, it is stored as the call on its own stores it. Example 8:
    Anna calls XX, Dario holds it; 62–52: Anna +30, Dario +20, the defenders −10 each."""
    alone = tg.new_match(7, first_dealer=G)
    tg.done(tg.bids(alone, 1, G, {A: "normal"}, htmx=htmx), htmx)
    tg.done(tg.call(alone, 1, "T20", D, htmx=htmx), htmx)
    apart = tg.done(tg.finish(alone, 1, 62, tricks=5, htmx=htmx), htmx)
    mid = tg.new_match(7, first_dealer=G)
    page = tg.done(tg.bids(mid, 1, G, {A: "normal"}, htmx=htmx), htmx)
    assert 'class="partner-call' in page.html and "Anna called trump" in page.text
    assert page.checked("finish-partner") == []             # never guessed
    page = tg.done(tg.finish(mid, 1, 62, tricks=5, trump="T20", partner=D, htmx=htmx), htmx)
    assert tg.hands(mid)[0]["call"] == {"trump": "T20", "partner": D, "by": A}
    assert tg.hands(mid) == tg.hands(alone)
    assert tg.balances(page) == tg.balances(apart) == [30, -10, -10, 20, -10, -10, -10]
    assert "Anna calls trump XX; Dario holds it and is the partner" in tg.get(
        f"/m/{mid}/hands/1").text
    # recorded, the call is its own line, changed on its own; the end asks for it no more
    page = tg.get(f"/m/{mid}/hands/1")
    assert "The partner call: trump XX — Dario is partner" in page.text
    assert page.checked("call-partner") == [str(D)] and "finish-partner" not in page.html
    # hand 2: Beat takes, calls XVII, which lay in the Tapp: alone
    tg.done(tg.bids(mid, 2, A, {B: "normal"}, htmx=htmx), htmx)
    page = tg.done(tg.finish(mid, 2, 66, trump="T17", partner="alone", htmx=htmx), htmx)
    assert tg.hands(mid)[1]["call"] == {"trump": "T17", "partner": "alone", "by": B}
    assert tg.balances(page) == [20, 50, -20, 10, -20, -20, -20]


@HTMX
def test_seven_players_the_end_without_a_call_is_refused(tg: Troggu, htmx: bool) -> None:
    """4.5.2: with 7 players a normal game has a partner call; an end given without one is
    refused with the rule, beside the question, everything typed kept and nothing stored."""
    mid = _open(tg, 7, A)
    page = refused(tg, mid, htmx, lambda: tg.finish(mid, 1, 62, tricks=5, trump="T19",
                                                     htmx=htmx),
                   "With 7 players the Tappist calls a trump from I to XX", "rule 4.5.2")
    assert page.value("finish-points") == "62" and page.value("finish-tricks") == "5"
    assert page.selected("finish-trump") == ["T19"]
    assert 'aria-invalid="true"' in re.search(
        r'<fieldset class="partner-call[^"]*">.*?</fieldset>', page.html, re.S)[0]
    # the call's own rules hold as well: the Tappist is not his own partner (6.3.9)
    page = refused(tg, mid, htmx, lambda: tg.finish(mid, 1, 62, trump="T20", partner=A,
                                                     htmx=htmx),
                   "Anna is the Tappist and cannot also be the partner")
    assert page.value("finish-points") == "62"


@HTMX
def test_a_void_call_is_asked_again_in_the_end_too(tg: Troggu, htmx: bool) -> None:
    """4.5.2: a bidding edit makes Carla Tappist; Anna's call is void. The end of the hand asks
    for Carla's call as the top of the page does; given there, it is Carla's and the hand
    pays."""
    mid = tg.new_match(7, first_dealer=G)
    tg.done(tg.bids(mid, 1, G, {A: "normal"}, htmx=htmx), htmx)
    tg.done(tg.finish(mid, 1, 62, tricks=5, trump="T20", partner=D, htmx=htmx), htmx)
    tg.done(tg.bids(mid, 1, G, {C: "normal"}, htmx=htmx, editing=True), htmx)
    page = tg.get(f"/m/{mid}/hands/1")
    assert "Carla called trump" in page.text and page.checked("finish-partner") == []
    assert "Until Carla calls, this hand pays nothing" in page.text        # at the top too
    page = tg.done(tg.finish(mid, 1, 62, tricks=5, trump="T20", partner=E, htmx=htmx,
                             editing=True), htmx)
    assert tg.hands(mid)[0]["call"] == {"trump": "T20", "partner": E, "by": C}
    assert tg.balances(tg.get(f"/m/{mid}")) == [-10, -10, 30, -10, 20, -10, -10]
    assert 'id="decisions"' not in tg.get(f"/m/{mid}").html


def test_five_players_are_asked_no_call(tg: Troggu) -> None:
    """4.5.2: only 7–8 players call a partner; with 5 the end of the hand asks for none."""
    page = tg.get(f"/m/{_open(tg)}")
    assert "finish-points" in page.html
    assert "finish-partner" not in page.html and "finish-trump" not in page.html


@HTMX
def test_a_bidding_edit_that_changes_the_tappist_voids_his_call_and_discard(
    tg: Troggu, htmx: bool
) -> None:
    """4.5.2, 4.2.1: Anna was recorded as Tappist, called XX (Dario) and discarded. The bidding
    is corrected: Carla took. Anna's call is no call of Carla's, so the hand waits for hers,
    asked at the top of the match page, and pays nothing meanwhile (it used to make Carla and
    Dario partners)."""
    mid = tg.new_match(7, first_dealer=G)
    tg.done(tg.bids(mid, 1, G, {A: "normal"}, htmx=htmx), htmx)
    tg.done(tg.call(mid, 1, "T20", D, htmx=htmx), htmx)
    tg.done(tg.discard(mid, 1, ["2c", "3c", "4c", "5c", "6c", "2d"], htmx=htmx), htmx)
    page = tg.done(tg.finish(mid, 1, 62, tricks=5, htmx=htmx), htmx)
    assert tg.balances(page) == [30, -10, -10, 20, -10, -10, -10]
    assert tg.hands(mid)[0]["call"]["by"] == A and tg.hands(mid)[0]["discard_by"] == A
    tg.done(tg.bids(mid, 1, G, {C: "normal"}, htmx=htmx, editing=True), htmx)
    page = tg.get(f"/m/{mid}")
    decisions = re.search(r'<section class="decisions panel" id="decisions">(.*?)</section>',
                          page.html, re.S)
    assert decisions, page.text[:1500]
    text = html.unescape(re.sub(r"<[^>]+>", " ", decisions[1]))
    assert "Anna's partner call (trump XX, Dario as partner) is void: Carla is now the " \
        "Tappist and calls again" in text
    assert "Until Carla calls, this hand pays nothing" in text
    assert "Anna's discard (" in text and "Leave the discard unrecorded" in text
    assert posts_to(page, f"/m/{mid}/hands/1/call")
    assert tg.balances(page) == [0] * 7
    # the hand's facts still say what Anna chose; nothing else changed
    assert tg.hands(mid)[0]["call"] == {"trump": "T20", "partner": D, "by": A}
    # Carla calls: Elsa holds XX
    page = tg.done(tg.call(mid, 1, "T20", E, htmx=htmx), htmx)
    assert tg.balances(page) == [-10, -10, 30, -10, 20, -10, -10]
    assert tg.hands(mid)[0]["call"] == {"trump": "T20", "partner": E, "by": C}
    decisions = re.search(r'id="decisions">(.*?)</section>', page.html, re.S)
    assert decisions and "partner call" not in decisions[1] and "discard" in decisions[1]
    # Anna's discard is still void until Carla's is recorded, or it is left unrecorded
    page = tg.done(tg.act(mid, 1, "nodiscard", {}, htmx=htmx), htmx)
    assert tg.hands(mid)[0]["discard"] is None and tg.hands(mid)[0]["discard_by"] is None
    assert 'id="decisions"' not in page.html
    assert tg.balances(page) == [-10, -10, 30, -10, 20, -10, -10]


@HTMX
def test_forced_game_and_the_misere_of_seven(tg: Troggu, htmx: bool) -> None:
    """Example 10: 7 players all pass, Carla holds the fool and must play; she calls XX, held
    by Fabian; they lose 45–69: Carla −30, Fabian −20, the others +10. Then all pass with the
    fool and trump I both in the Tapp: a Misère."""
    mid = tg.new_match(7)
    page = tg.done(tg.bids(mid, 1, A, fool=C, htmx=htmx), htmx)
    assert "Game: forced game · Tappist Carla" in page.text
    assert ("All passed: Carla held the fool and must play a normal game as Tappist (forced "
            "game)") in page.text
    stored = tg.hands(mid)[0]
    assert (stored["game"], stored["declarer"], stored["forced_by"]) == ("forced", C, "F")
    tg.done(tg.call(mid, 1, "T20", F, htmx=htmx), htmx)
    page = tg.done(tg.finish(mid, 1, 45, htmx=htmx), htmx)
    assert {n: a for n, (a, _) in tg.payments(page).items()} == {
        "Anna": 10, "Beat": 10, "Carla": -30, "Dario": 10, "Elsa": 10, "Fabian": -20,
        "Gina": 10}
    # the fool in the Tapp: trump I's holder plays
    page = tg.done(tg.bids(mid, 2, B, fool="tapp", bagatt=E, htmx=htmx), htmx)
    assert "Elsa held trump I, the fool being in the Tapp" in page.text
    assert tg.hands(mid)[1]["forced_by"] == "T1"
    # both in the Tapp: a Misère
    page = tg.done(tg.bids(mid, 2, B, fool="tapp", bagatt="tapp", htmx=htmx), htmx)
    assert "Game: Misère" in page.text
    assert tg.hands(mid)[1]["game"] == "misere"


def test_thrown_in_under_no_misere(tg: Troggu) -> None:
    mid = tg.new_match(4, no_misere="y")
    page = tg.follow(tg.bids(mid, 1, A))
    assert "thrown in: no payments" in page.classed["summary"]
    assert "Hand 2 Beat deals" in page.text
    assert tg.balances(page) == [0, 0, 0, 0]


def test_edit_page_shows_the_stored_hand(tg: Troggu) -> None:
    mid = tg.seed_match([normal(A, C, 71, 5, discard=DISCARD_7)] + EVENING_5[1:])
    page = tg.get(f"/m/{mid}/hands/1")
    assert page.status == 200
    assert "Editing hand 1" in page.text
    assert page.checked("bids-dealer") == ["0"]
    assert page.checked("bids-bid_2") == ["normal"]
    assert page.checked("bids-bid_1") == ["pass"]
    assert sorted(page.checked("discard-cards")) == sorted(DISCARD_7)
    assert page.value("finish-points") == "71"
    assert page.checked("finish-took") == ["yes"]
    assert posts_to(page, f"/m/{mid}/hands/1/finish", editing=True)
    assert tg.payments(page)["Carla"][0] == 40
    part = tg.get(f"/m/{mid}/hands/3", htmx=True)
    assert part.is_partial and "Editing hand 3" in part.text
    assert [part.value(f"misere-points_{s}") for s in range(5)] == ["30", "30", "20", "15", "10"]


# ---------------------------------------------------------------------------------------------
# Editing the past


@HTMX
def test_edit_an_earlier_hand_recomputes_everything_after_it(tg: Troggu, htmx: bool) -> None:
    mid = tg.seed_match(EVENING_5)
    page = tg.get(f"/m/{mid}")
    assert tg.balances(page) == [-30, -30, 70, -30, 20]
    # hand 1 was Carla's 71; it was 90–24: ×2, she receives 80
    response = tg.finish(mid, 1, 90, htmx=htmx, editing=True)
    if not htmx:
        assert response.location == f"/m/{mid}/hands/1#outcome"      # the notices, in view
    page = tg.done(response, htmx)
    assert "Editing hand 1" in page.text
    notices = " ".join(page.notices)
    assert "Hand 2: totals after it now" in notices
    assert ("Hand 3: totals after it now Anna −40, Beat −40, Carla 110, Dario −40, "
            "Elsa 10") in notices
    assert tg.balances(page) == [-40, -40, 110, -40, 10]
    assert tg.payments(page)["Carla"][0] == 80
    assert tg.settle(page) == ["Anna pays Carla 40", "Beat pays Carla 40",
                               "Dario pays Carla 30", "Dario pays Elsa 10"]
    # hand 2: Dario's game was a Solo (Dario speaks second after Beat deals)
    page = tg.done(tg.bids(mid, 2, B, {D: "solo"}, htmx=htmx, editing=True), htmx)
    assert "Hand 2: Dario loses a Solo 52–62 (×1): −80" in page.text
    assert ("Hand 3: totals after it now Anna −30, Beat −30, Carla 120, Dario −80, "
            "Elsa 20") in " ".join(page.notices)
    assert tg.balances(page) == [-30, -30, 120, -80, 20]
    assert tg.hands(mid)[1]["bids"] == ["pass", "solo"]


@HTMX
def test_an_earlier_hand_cannot_change_its_kind(tg: Troggu, htmx: bool) -> None:
    mid = tg.seed_match(EVENING_5)
    refused(tg, mid, htmx, lambda: tg.bids(mid, 1, A, htmx=htmx, editing=True),
            "Hand 1 was scored as a normal game; as a Misère it needs each player's card "
            "points", "Delete hand 1 and enter it again")


def test_the_last_hand_may_change_its_kind(tg: Troggu) -> None:
    mid = tg.seed_match(EVENING_5[:2])
    page = tg.follow(tg.bids(mid, 2, B, editing=True))
    assert "Game: Misère" in page.text
    assert tg.hands(mid)[1]["end"] is None
    assert tg.balances(page) == [-10, -10, 40, -10, -10]


def test_delete_and_undo(tg: Troggu) -> None:
    mid = tg.seed_match(EVENING_5)
    page = tg.follow(tg.delete(mid, 1))
    assert "Hand 1 deleted." in page.notices
    # the dealers are kept as they were: each later hand says who was due
    assert "Beat deals (Anna was due)" in tg.explained(page)
    page = tg.follow(tg.undo(mid))
    assert tg.balances(page) == [-30, -30, 70, -30, 20]


# ---------------------------------------------------------------------------------------------
# The match file and the scoresheet


def test_json_export_import_round_trip(tg: Troggu) -> None:
    hands = [normal(A, C, 71, 5, discard=DISCARD_7), EVENING_5[1], EVENING_5[2]]
    mid = tg.seed_match(hands, stake=5, threshold="visp")
    response = tg.client.get(f"/m/{mid}/match.json")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    assert 'filename="troggu-' in response.headers["Content-Disposition"]
    body = response.get_data()
    exported = json.loads(body)
    assert exported["game"] == "troggu"
    assert exported["settings"]["stake"] == 5 and exported["settings"]["threshold"] == "visp"
    assert sorted(exported["hands"][0]["discard"]) == sorted(DISCARD_7)
    page = import_file(tg, body)
    assert page.status == 302, page.errors
    new = page.location.rsplit("/", 1)[1] if page.location else ""
    assert new and new != mid
    shown = tg.follow(page)
    assert "Match imported." in shown.notices
    assert tg.export(new) == exported
    assert tg.balances(shown) == tg.balances(tg.get(f"/m/{mid}")) == [-15, -15, 35, -15, 10]


def test_an_imported_hand_without_its_dealer_keeps_him_through_a_delete(tg: Troggu) -> None:
    """6.1: the dealer is a recorded fact the app only proposes. A file without dealers gets
    them on import, so deleting hand 1 leaves Beat dealing hand 2, and Carla (who speaks first
    after him) its Tappist."""
    end = {"points": 70, "loser_took_trick": True}
    hands = [{"bids": ["pass", "normal", "pass", "pass"], "end": end},
             {"bids": ["normal", "pass", "pass", "pass"], "end": end}]
    body = json.dumps({"format": "referee-match", "version": 1, "game": "troggu",
                       "created": "2026-12-01", "hands": hands,
                       "settings": {"players": NAMES[:4], "first_dealer": 0}}).encode()
    page = import_file(tg, body)
    assert page.status == 302, page.errors
    mid = page.location.rsplit("/", 1)[1] if page.location else ""
    assert [h["dealer"] for h in tg.hands(mid)] == [A, B]
    page = tg.follow(tg.delete(mid, 1))
    assert [h["dealer"] for h in tg.hands(mid)] == [B]
    assert "Carla is Tappist" in tg.explained(page)
    assert tg.balances(page) == [-10, -10, 30, -10]


def test_the_example_evening_imports(tg: Troggu) -> None:
    page = import_file(tg, (DATA / "troggu-evening.json").read_bytes())
    assert page.status == 302, page.errors
    shown = tg.follow(page)
    assert tg.balances(shown) == [-110, 50, 90, -30]
    assert tg.settle(shown) == ["Anna pays Carla 90", "Dario pays Beat 30", "Anna pays Beat 20"]
    assert "Hand 6" in shown.text and "in progress" in shown.classed["summary"]


def test_pdf_scoresheet(tg: Troggu) -> None:
    mid = tg.seed_match(EVENING_5, stake=10, threshold="st-niklaus", misere_least_wins=True)
    text = pdf_text(tg.client, mid, explained=True)
    assert "Troggu scoresheet" in text
    assert "1. Anna, 2. Beat, 3. Carla, 4. Dario, 5. Elsa" in text
    assert "Stake 10 Rappen a unit" in text
    assert "Threshold St Niklaus: ×2 when the losing side has 31 or fewer" in text
    assert "Misère: least wins" in text
    assert "Carla receives 40 (Tappist: 10 from each of 4 opponents) +40" in text
    assert "Elsa receives 40 (10 from Anna, Beat, Carla and Dario) +40" in text
    assert "Balance (Rappen) −10 −10 +40 −60 +40" in text
    assert "Settle-up" in text
    for line in ("Dario pays Carla 40 Rappen", "Dario pays Elsa 20 Rappen",
                 "Anna pays Elsa 10 Rappen", "Beat pays Elsa 10 Rappen"):
        assert line in text, line


# ---------------------------------------------------------------------------------------------
# Bad input: the bidding


@HTMX
@pytest.mark.parametrize(("calls", "kw", "words"), [
    ({C: "normal", D: "normal"}, {},
     "After the normal bid by Carla, later players may only pass or bid Solo, not normal "
     "(Dario)"),
    ({C: "solo", D: "normal"}, {}, "Solo by Carla ends the bidding at once"),
    ({B: "double"}, {}, "Not a valid choice"),
    ({B: "<b>x</b>"}, {}, "Not a valid choice"),
    ({}, {"dealer": "5"}, "Not a valid choice"),
    ({}, {"dealer": "x"}, "Not a valid choice"),
    ({}, {"dealer": ""}, "Who dealt?"),
], ids=["normal-twice", "after-solo", "forged-call", "html-call", "dealer-5", "dealer-text",
        "no-dealer"])
def test_bidding_refused(tg: Troggu, htmx: bool, calls: dict[int, str], kw: dict[str, Any],
                         words: str) -> None:
    mid = tg.seed_match(EVENING_5[:1])
    kw = dict(kw)
    dealer = kw.pop("dealer", B)
    page = refused(tg, mid, htmx, lambda: tg.bids(mid, 2, dealer, calls, htmx=htmx, **kw),
                   words)
    assert "<b>x</b>" not in page.html
    if dealer == B:
        for seat, call in calls.items():
            if call in ("normal", "solo"):
                assert page.checked(f"bids-bid_{seat}") == [call]      # kept to correct


@HTMX
@pytest.mark.parametrize(("kw", "words"), [
    ({}, "Everybody passed: with 7 players the holder of the fool must play"),
    ({"fool": "tapp"}, "The fool lies in the Tapp, so the holder of trump I must play"),
    ({"fool": "9"}, "Not a valid choice"),
    ({"calls": {B: "normal"}, "fool": A},
     "Who holds the fool or trump I matters only when everybody passes"),
], ids=["no-fool", "no-bagatt", "forged-fool", "fool-not-all-passed"])
def test_seven_all_pass_needs_the_fool(tg: Troggu, htmx: bool, kw: dict[str, Any],
                                       words: str) -> None:
    mid = tg.seed_match([], count=7)
    with unchanged(tg, mid):
        page = tg.rejected(tg.bids(mid, 1, A, htmx=htmx, **dict(kw)), htmx)
    assert says(page, words), page.visible_errors
    assert tg.hands(mid) == []


@HTMX
def test_a_new_hand_while_one_is_open(tg: Troggu, htmx: bool) -> None:
    mid = tg.seed_match(EVENING_5[:1] + [{"dealer": B, "bids": ["normal"] + ["pass"] * 4,
                                          "game": "normal", "declarer": C, "end": None}])
    refused(tg, mid, htmx, lambda: tg.bids(mid, 3, C, htmx=htmx),
            "Finish hand 2 first: it is still in progress")


@HTMX
def test_steps_before_the_bidding(tg: Troggu, htmx: bool) -> None:
    mid = tg.seed_match(EVENING_5[:1])
    for action in (lambda: tg.discard(mid, 2, points=9, htmx=htmx),
                   lambda: tg.finish(mid, 2, 60, htmx=htmx),
                   lambda: tg.misere(mid, 2, [20, 20, 20, 20, 20], htmx=htmx)):
        refused(tg, mid, htmx, action, "Record the bidding first: it starts the hand")


@HTMX
@pytest.mark.parametrize("path", ["/hands/3/bids", "/hands/0/finish", f"/hands/{HUGE}/call",
                                  "/hands/1/frobnicate"])
def test_hand_number_out_of_range(tg: Troggu, htmx: bool, path: str) -> None:
    mid = tg.seed_match(EVENING_5[:1])
    with unchanged(tg, mid):
        page = tg.post(f"/m/{mid}{path}", {"bids-dealer": "0"}, htmx=htmx)
    assert page.status == 404


# ---------------------------------------------------------------------------------------------
# Bad input: the call, the discard, the end


def _open(tg: Troggu, count: int = 5, declarer: int = C, **extra: Any) -> str:
    """A match whose hand 1 (Anna deals) is a normal game of ``declarer``, in progress."""
    bids = ["pass"] * count
    bids[(declarer - 1) % count] = "normal"
    return tg.seed_match([{"dealer": A, "bids": bids, "game": "normal", "declarer": declarer,
                           **extra, "end": None}], count=count)


@HTMX
@pytest.mark.parametrize(("trump", "partner", "words"), [
    ("T20", A, "Anna is the Tappist and cannot also be the partner"),
    ("T21", D, "The Tappist calls a trump from I to XX, never Trump XXI (Mund)"),
    ("F", D, "never Fool (Bättler)"),
    ("Zz", D, "“Zz” is not a card of the Swiss tarot pack"),
    ("T20", "12", "Not a valid choice"),
    ("T20", None, "Who held the called trump? Or does the Tappist play alone?"),
], ids=["partner-is-tappist", "xxi", "fool", "forged-card", "forged-partner", "no-partner"])
def test_call_refused(tg: Troggu, htmx: bool, trump: str, partner: int | str | None,
                      words: str) -> None:
    mid = _open(tg, 7, A)
    refused(tg, mid, htmx, lambda: tg.call(mid, 1, trump, partner, htmx=htmx), words)


@HTMX
def test_called_trump_in_the_discard_means_alone(tg: Troggu, htmx: bool) -> None:
    mid = _open(tg, 7, A, discard=["T20", "T2", "T3", "5s", "6s", "7s"])
    refused(tg, mid, htmx, lambda: tg.call(mid, 1, "T20", D, htmx=htmx),
            "Trump XX is in the discard", "the Tappist plays alone")


@HTMX
@pytest.mark.parametrize(("cards", "points", "words"), [
    (DISCARD_7[:6], None, "The Tapp has 7 cards, so the Tappist discards exactly 7, not 6"),
    (DISCARD_7 + ["5s"], None, "discards exactly 7, not 8"),
    (["T21"] + DISCARD_7[1:], None, "Trump XXI (Mund) may never be discarded"),
    (["F"] + DISCARD_7[1:], None, "Fool (Bättler) may never be discarded"),
    (["Kc"] + DISCARD_7[1:], None, "kings are discarded only all four together"),
    (["Zz"] + DISCARD_7[1:], None, "'Zz' is not a valid choice for this field."),
    (DISCARD_7, 20, "is worth 13 card points, not 20"),
    ([], None, "Tap the 7 discarded cards, or enter their card points"),
    ([], 2, "A legal discard of 7 cards is worth"),
    ([], 115, "Card points are 0 to 114"),
    ([], HUGE, "Enter a number of at most 6 digits"),
    ([], BIG, "Enter a number of at most 6 digits"),
    ([], "-3", "Card points are 0 to 114"),
], ids=["six", "eight", "xxi", "fool", "one-king", "forged-card", "points-disagree", "nothing",
        "impossible-value", "115", "huge", "big", "negative"])
def test_discard_refused(tg: Troggu, htmx: bool, cards: list[str], points: int | str | None,
                         words: str) -> None:
    mid = _open(tg)
    page = refused(tg, mid, htmx, lambda: tg.discard(mid, 1, cards, points, htmx=htmx), words)
    if cards and "Zz" not in cards:
        assert sorted(page.checked("discard-cards")) == sorted(cards)      # kept to correct


@HTMX
def test_discard_in_a_solo_is_refused(tg: Troggu, htmx: bool) -> None:
    mid = tg.seed_match([{"dealer": A, "bids": ["solo"], "game": "solo", "declarer": B,
                          "end": None}])
    refused(tg, mid, htmx, lambda: tg.discard(mid, 1, DISCARD_7, htmx=htmx),
            "A Soloist does not exchange")


@HTMX
@pytest.mark.parametrize(("points", "took", "kw", "words"), [
    (115, True, {}, "Card points are 0 to 114"),
    (HUGE, True, {}, "Enter a number of at most 6 digits"),
    (BIG, True, {}, "Enter a number of at most 6 digits"),
    ("", True, {}, "Enter the declarer side's card points"),
    ("sixty", True, {}, "Not a valid integer value."),
    (80, False, {}, "The defenders won no trick, so they have 0 card points|not 34"),
    (57, False, {}, "At 57–57 nobody loses"),
    (30, False, {}, "Carla won no trick: the side has only the discard's 13 card points"),
    (70, True, {"tricks": 0}, "These facts disagree"),
    (70, True, {"tricks": 12}, "With 5 players a hand has 11 tricks"),
    (70, True, {"tricks": 19}, "A hand has at most 18 tricks"),
    (12, True, {}, "The discard alone is worth 13 card points, more than Carla's 12"),
    (70, "maybe", {}, "Not a valid choice"),
    (70, True, {"tapp": 12}, "In a normal game the Tappist's discard counts, not the Tapp"),
    (70, True, {"fool_kept": 9}, "Not a valid choice"),
], ids=["115", "huge", "big", "empty", "text", "no-trick-with-points", "57-no-trick",
        "decl-no-trick", "tricks-disagree", "tricks-12", "tricks-19", "below-discard",
        "forged-took", "tapp-in-normal", "forged-fool-kept"])
def test_finish_refused(tg: Troggu, htmx: bool, points: int | str, took: bool | str,
                        kw: dict[str, Any], words: str) -> None:
    mid = _open(tg, discard=DISCARD_7)
    page = refused(tg, mid, htmx, lambda: tg.finish(mid, 1, points, took, htmx=htmx, **kw),
                   *words.split("|"))
    if isinstance(points, int):
        assert page.value("finish-points") == str(points)            # kept to correct


@HTMX
@pytest.mark.parametrize(("points", "kw", "words"), [
    ([30, 30, 20, 15, 30], {}, "the players' card points add up to"),
    ([30, 30, 20, 15, 10], {"tapp": 20}, "add up to 114 − the Tapp's 20 = 94, not 105"),
    ([30, 30, 20, 15, ""], {}, "Enter Elsa's card points"),
    ([30, 30, 20, 15, 115], {}, "Card points are 0 to 114"),
    ([30, 30, 20, 15, HUGE], {}, "Enter a number of at most 6 digits"),
    ([30, 30, 20, 15, 10], {"tricks": [3, 3, 2, 2, 2]}, "a hand has 11 tricks, not"),
], ids=["sum", "tapp", "missing", "115", "huge", "tricks"])
def test_misere_refused(tg: Troggu, htmx: bool, points: list[int | str], kw: dict[str, Any],
                        words: str) -> None:
    mid = tg.seed_match([{"dealer": A, "bids": ["pass"] * 5, "game": "misere", "end": None}])
    refused(tg, mid, htmx, lambda: tg.misere(mid, 1, points, htmx=htmx, **kw), words)


@HTMX
def test_wrong_end_for_the_game(tg: Troggu, htmx: bool) -> None:
    mid = tg.seed_match([{"dealer": A, "bids": ["pass"] * 5, "game": "misere", "end": None}])
    refused(tg, mid, htmx, lambda: tg.finish(mid, 1, 60, htmx=htmx),
            "In a Misère every player plays alone: give each player's card points")
    other = _open(tg)
    refused(tg, other, htmx, lambda: tg.misere(other, 1, [20] * 5, htmx=htmx),
            "This hand is not a Misère")


# ---------------------------------------------------------------------------------------------
# CSRF


ROUTES = ["new", "bids", "call", "discard", "finish", "misere", "delete", "undo", "import"]


def _csrf_setup(tg: Troggu, route: str) -> str:
    if route == "call":
        return _open(tg, 7, A)
    if route == "misere":
        return tg.seed_match([{"dealer": A, "bids": ["pass"] * 5, "game": "misere",
                               "end": None}])
    if route in ("discard", "finish"):
        return _open(tg)
    mid = tg.seed_match(EVENING_5[:1])
    if route == "undo":
        assert tg.bids(mid, 2, B).status == 302
    return mid


def _csrf_post(tg: Troggu, mid: str, route: str, htmx: bool, token: str | None) -> Page:
    kw: dict[str, Any] = {"htmx": htmx, "token": token}
    if route == "new":
        return tg.post("/new/troggu", tg.new_form(4), **kw)
    if route == "import":
        return import_file(tg, tg.client.get(f"/m/{mid}/match.json").get_data(), **kw)
    return {
        "bids": lambda: tg.bids(mid, 2, B, **kw),
        "call": lambda: tg.call(mid, 1, "T20", D, **kw),
        "discard": lambda: tg.discard(mid, 1, DISCARD_7, **kw),
        "finish": lambda: tg.finish(mid, 1, 70, **kw),
        "misere": lambda: tg.misere(mid, 1, [30, 30, 20, 15, 10], **kw),
        "delete": lambda: tg.delete(mid, 1, **kw),
        "undo": lambda: tg.undo(mid, **kw),
    }[route]()


@HTMX
@pytest.mark.parametrize("kind", CSRF_KINDS)
@pytest.mark.parametrize("route", ROUTES)
def test_csrf_is_checked(tg: Troggu, htmx: bool, kind: str, route: str) -> None:
    mid = _csrf_setup(tg, route)
    csrf_is_checked(tg, mid, kind,
                    lambda token: _csrf_post(tg, mid, route, htmx, token))


def test_csrf_token_is_on_every_form(tg: Troggu) -> None:
    # a call recorded: its own form (until then it is asked in the end of the hand)
    mid = _open(tg, 7, A, call={"trump": "T20", "partner": D})
    page = tg.get(f"/m/{mid}")
    forms = re.findall(r"<form\b.*?</form>", page.html, flags=re.S)
    assert len(forms) >= 5
    for form in forms:
        if 'method="post"' in form:
            assert re.search(r'name="(\w+-)?csrf_token"', form), form[:200]


# ---------------------------------------------------------------------------------------------
# A whole evening through the forms: the payments always add up to 0


@HTMX
def test_an_evening_of_five_hands(tg: Troggu, htmx: bool) -> None:
    """Rules 9, example 12 (4 players): the ledger, the balances and the settle-up."""
    mid = tg.new_match(4)
    steps: list[tuple[Callable[[], Page], list[int]]] = [
        (lambda: tg.bids(mid, 1, A, {B: "normal"}, htmx=htmx), []),
        (lambda: tg.discard(mid, 1, DISCARD_10, htmx=htmx), []),
        (lambda: tg.finish(mid, 1, 71, htmx=htmx), [-10, 30, -10, -10]),
        (lambda: tg.bids(mid, 2, B, {C: "solo"}, htmx=htmx), []),
        (lambda: tg.finish(mid, 2, 70, htmx=htmx), [-20, -20, 60, -20]),
        (lambda: tg.bids(mid, 3, C, htmx=htmx), []),
        (lambda: tg.misere(mid, 3, [40, 25, 20, 15], tapp=14, htmx=htmx), [-30, 10, 10, 10]),
        (lambda: tg.bids(mid, 4, D, {D: "normal"}, htmx=htmx), []),
        (lambda: tg.finish(mid, 4, 50, htmx=htmx), [10, 10, 10, -30]),
        (lambda: tg.bids(mid, 5, A, {A: "normal"}, htmx=htmx), []),
        (lambda: tg.finish(mid, 5, 25, htmx=htmx), [-60, 20, 20, 20]),
    ]
    for action, expected in steps:
        page = tg.done(action(), htmx)
        if expected:
            assert tg.amounts(page) == expected, tg.payments(page)
            assert sum(tg.amounts(page)) == 0
    assert tg.balances(page) == [-110, 50, 90, -30]
    assert tg.settle(page) == ["Anna pays Carla 90", "Dario pays Beat 30", "Anna pays Beat 20"]
    assert "5 hands played" in page.text


def test_a_hand_imported_without_bids_or_dealer_opens_in_the_editor(tg: Troggu) -> None:
    """The bids and the dealer are optional facts: the editor shows what the game implies."""
    hands = [{"game": "solo", "declarer": D, "end": {"points": 70, "loser_took_trick": True}},
             {"game": "forced", "declarer": E, "forced_by": "T1", "call": {"trump": None,
                                                                             "partner": "alone"},
              "end": {"points": 60, "tricks": 4}}]
    mid = tg.seed_match(hands, count=7)
    page = tg.get(f"/m/{mid}/hands/1")
    assert page.status == 200
    assert page.checked("bids-dealer") == ["0"]
    assert page.checked(f"bids-bid_{D}") == ["solo"]
    page = tg.get(f"/m/{mid}/hands/2", htmx=True)
    assert page.checked("bids-dealer") == ["1"]
    assert page.selected("bids-fool") == ["tapp"] and page.selected("bids-bagatt") == ["4"]
    assert page.checked("call-partner") == ["alone"]
    assert page.checked("finish-took") == ["yes"]
    # saving the bidding as shown records it
    page = tg.follow(tg.bids(mid, 2, B, fool="tapp", bagatt=E, editing=True))
    assert tg.hands(mid)[1]["bids"] == ["pass"] * 7
    assert tg.balances(page) == tg.balances(tg.get(f"/m/{mid}"))


# ---------------------------------------------------------------------------------------------
# A hand in progress that fits (issue 11): the optional discard on demand, an edited hand
# landing on how it ended


def test_the_optional_discard_opens_on_demand(tg: Troggu) -> None:
    """The discard may stay unrecorded (6.1): its picker is folded until asked for, or until
    an entry of it is refused."""
    mid = _open(tg)
    page = tg.get(f"/m/{mid}")
    assert re.search(r'<details class="discard"\s*>', page.html)
    refused = tg.discard(mid, 1, points=115, htmx=True)
    assert refused.status == 422
    assert re.search(r'<details class="discard"\s*open>', refused.html)


def test_an_edited_hand_opens_at_how_it_ended(tg: Troggu) -> None:
    """The Edit link lands on the finish (a normal game) or on each player's points (a
    Misère); the match page and the answer to a change do not move the focus."""
    mid = tg.seed_match(EVENING_5)
    normal_game = tg.get(f"/m/{mid}/hands/1").html
    assert re.search(r'<form [^>]*class="finish"[^>]* autofocus>', normal_game)
    misere_game = tg.get(f"/m/{mid}/hands/3").html
    assert re.search(r'<form [^>]*class="finish misere"[^>]* autofocus>', misere_game)
    assert "autofocus" not in tg.get(f"/m/{mid}").html
    answer = tg.finish(mid, 1, 71, htmx=True, editing=True)
    assert answer.status == 200 and "autofocus" not in answer.html
