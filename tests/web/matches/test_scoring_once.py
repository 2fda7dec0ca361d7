"""A request scores its match once (issue 12): the stored hands are folded from the cached fold
(``referee.engine.scoring``), so a change folds the hands it changed, each once, however many
times the request reads the match (before the change, after it, for the answer), and of the
hands after them only those whose fold state is not last time's (Troggu's balances apart: its
later outcomes are shifted, not folded); a hand in progress is not folded again when it is read
back as stored. Nothing folds
a whole match from scratch (``Game.score``): not the ways to correct later hands, not the
scoresheet.

Counted: the hands the scoring's folds add (``add`` of the game's fold class)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from webtools import Table

from matches.test_heavy import PLAYERS, finish, long_evening, seen_evening, store_of
from referee.engine import matchfile, scoring
from referee.engine.games.base import Game
from referee.engine.games.troggu import GAME as TROGGU
from referee.engine.games.troggu.match import MatchFold
from referee.engine.games.troggu.values import HALF
from referee.scoresheet import render_html

HTMX = pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
HANDS = 40


class Folds:
    """The hands folded by the scoring (each call of its fold's ``add``), by hand number."""

    def __init__(self) -> None:
        self.added: list[int] = []

    def clear(self) -> None:
        self.added.clear()


@pytest.fixture
def folds(monkeypatch: pytest.MonkeyPatch) -> Iterator[Folds]:
    counted = Folds()
    add = MatchFold.add

    def spy(self: MatchFold, number: int, raw: object, last: bool = False) -> None:
        counted.added.append(number)
        add(self, number, raw, last)

    def from_scratch(self: Game, settings: dict[str, Any], hands: list[Any]) -> Any:
        raise AssertionError("a whole match folded from scratch (Game.score)")

    monkeypatch.setattr(MatchFold, "add", spy)
    monkeypatch.setattr(Game, "score", from_scratch)
    yield counted


@pytest.fixture
def evening(table: Table) -> str:
    """A Troggu evening of HANDS hands, its page seen once (its hands checked, then cached)."""
    return seen_evening(table, HANDS)


def bids(table: Table, mid: str, n: int, htmx: bool) -> Any:
    """Hand ``n`` started: its bidding, the first player after the dealer plays normal."""
    dealer = (n - 1) % len(PLAYERS)
    data: dict[str, Any] = {"bids-dealer": str(dealer), "bids-fool": "", "bids-bagatt": ""}
    for seat in range(8):
        data[f"bids-bid_{seat}"] = "normal" if seat == (dealer + 1) % len(PLAYERS) else "pass"
    return table.post(f"/m/{mid}/hands/{n}/bids", data, htmx=htmx, prefix="bids")


@HTMX
def test_editing_the_last_hand_folds_it_once(
        table: Table, evening: str, folds: Folds, htmx: bool) -> None:
    response = finish(table, evening, HANDS, 61, htmx)
    assert folds.added == [HANDS]
    table.done(response, htmx)
    assert table.hands(evening)[-1]["end"]["points"] == 61


@HTMX
def test_editing_the_first_hand_folds_that_hand_once(
        table: Table, evening: str, folds: Folds, htmx: bool) -> None:
    """The later hands are dealt by the same players after it: only the balances before them
    moved, so their outcomes are last time's, shifted (scoring's ``shifts``)."""
    response = finish(table, evening, 1, 61, htmx)
    assert folds.added == [1]
    table.done(response, htmx)
    assert table.hands(evening)[0]["end"]["points"] == 61


@HTMX
def test_a_hand_started_is_folded_once_though_read_back_in_progress(
        table: Table, evening: str, folds: Folds, htmx: bool) -> None:
    response = bids(table, evening, HANDS + 1, htmx)
    table.done(response, htmx)
    assert folds.added == [HANDS + 1]
    assert table.hands(evening)[-1]["end"] is None
    folds.clear()
    assert table.get(f"/m/{evening}").status == 200        # the page again: nothing folded
    assert folds.added == []


@HTMX
def test_a_delete_folds_the_hands_after_it_once_and_an_undo_those_again(
        table: Table, evening: str, folds: Folds, htmx: bool) -> None:
    table.done(table.post(f"/m/{evening}/hands/{HANDS - 2}/delete", htmx=htmx), htmx)
    # the hand after the one deleted, once, at its new place: another dealer was due before
    # it (2.4); the next one's dealer is due as before: taken as it was, shifted
    assert folds.added == [HANDS - 2]
    folds.clear()
    table.done(table.undo(evening, htmx=htmx), htmx)
    assert folds.added == [HANDS - 2, HANDS - 1, HANDS]


def test_the_scoresheet_of_a_match_scored_already_folds_nothing(
        app: Flask, table: Table, evening: str, folds: Folds) -> None:
    stored = app.extensions["referee.store"].load(evening)
    m = matchfile.MatchFile("troggu", stored.settings, stored.hands, "2026-12-01")
    assert "Anna" in render_html(m, match=evening)         # as the app makes it (pdf.py)
    assert folds.added == []


def test_matches_of_the_same_settings_seen_in_turns_fold_nothing_again(
        table: Table, evening: str, folds: Folds) -> None:
    """Two evenings of the same settings (a club's tables, issue 24), their pages asked for in
    turns: each match keeps its own fold, so no page folds a hand again."""
    settings = TROGGU.settings({"players": PLAYERS, "first_dealer": 0})
    other = store_of(table.app).create("troggu", settings, long_evening(HANDS // 4))
    assert table.get(f"/m/{other}").status == 200
    folds.clear()
    for _ in range(2):
        for mid in (evening, other):
            assert table.get(f"/m/{mid}").status == 200
    assert folds.added == []


def test_the_scoresheet_of_a_match_file_folds_it_once(folds: Folds) -> None:
    """``python -m referee pdf``: the file is read and checked (one fold), then the sheet made
    from that fold."""
    from matches.test_heavy import long_evening

    scoring.forget()
    settings = TROGGU.settings({"players": PLAYERS, "first_dealer": 0})
    text = matchfile.dumps(matchfile.MatchFile("troggu", settings, long_evening(12),
                                               "2026-12-01"))
    render_html(matchfile.load(text))
    assert folds.added == list(range(1, 13))


@HTMX
def test_a_restore_folds_the_hands_from_its_place_once(
        app: Flask, table: Table, evening: str, folds: Folds, htmx: bool) -> None:
    table.done(table.post(f"/m/{evening}/hands/{HANDS - 1}/delete", htmx=htmx), htmx)
    event = app.extensions["referee.store"].load(evening, events=1).events[0].id
    folds.clear()
    table.done(table.post(f"/m/{evening}/changes/{event}/restore", htmx=htmx), htmx)
    assert folds.added == [HANDS - 1, HANDS]


@pytest.mark.parametrize("change", ["forged", "changed"])
def test_a_stored_hand_changed_behind_the_apps_back_is_checked_again(
        app: Flask, table: Table, evening: str, change: str) -> None:
    """The cached fold is reused only for hands equal to those it folded: a hand written into
    the database by other means is read, found different and checked in full, whatever the
    cache held (a fact the rules refuse: the match cannot be scored, 409; a fact they allow:
    scored as it now stands). (With a new version of the match, as every write gives it: at
    the version it read, a process takes the match's hands as it kept them,
    test_kept_hands.py.)"""
    from sqlalchemy import update

    from referee.web.store import hands as rows
    from referee.web.store import matches

    facts = table.hands(evening)[4]
    if change == "forged":
        facts["dealer"] = 9                          # no such seat at a table of five
    else:
        facts["end"]["points"] = HALF                # 57–57: nobody wins, nobody pays
    with app.extensions["referee.store"].engine.begin() as conn:
        conn.execute(update(rows).where(rows.c.match_id == evening, rows.c.position == 4)
                     .values(facts=json.dumps(facts)))
        conn.execute(update(matches).where(matches.c.id == evening)
                     .values(version=matches.c.version + 1))
    page = table.get(f"/m/{evening}")
    if change == "forged":
        assert page.status == 409
        assert "Hand 5" in page.text
    else:
        assert page.status == 200
        assert f"{HALF}–{HALF}, nobody wins and nobody pays" in table.get(
            f"/m/{evening}/explained/5", htmx=True).text      # its row's explanation
