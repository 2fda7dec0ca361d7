"""Every match the app can hold is exported and imported back (issue 12): the largest is one of
1,000 Marjolet deals recorded card by card (a game to 500 that goes on while both totals are
equal at 500 or more, rule 7.2: deals that score the same for both players keep it going),
whose file is larger than the old 2 MB match-file limit and the 1 MB upload limit."""

from __future__ import annotations

import io
import random

import pytest
from flask import Flask
from webtools import Table

from referee.engine import matchfile
from tests.bench import largest


@pytest.mark.parametrize("game", largest.GAMES)
def test_the_largest_match_of_each_game_goes_out_and_comes_back(
        app: Flask, table: Table, game: str) -> None:
    """As a match file and in a circle's file (issue 24): the same facts, the same scores."""
    settings, hands = largest.largest_match(game, random.Random())
    assert len(hands) == (133 if game == "tartli" else matchfile.MAX_HANDS)
    store, circles = app.extensions["referee.store"], app.extensions["referee.circles"]
    mid = store.create(game, settings, hands)
    scored = matchfile.standings(matchfile.MatchFile(game, settings, hands, "2026-12-01"))

    def same(match_id: str) -> None:
        stored = store.load(match_id)
        assert stored.hands == hands
        assert matchfile.standings(matchfile.MatchFile(
            game, stored.settings, stored.hands, "2026-12-01")) == scored

    body = table.client.get(f"/m/{mid}/match.json").get_data()
    page = table.post("/import", {"file": (io.BytesIO(body), "match.json")},
                      content_type="multipart/form-data")
    assert page.status == 302, page.errors
    same(page.location.rsplit("/", 1)[-1])

    circle = circles.create("Club")
    circles.add_match(circle, mid, list(settings["players"]))
    body = table.client.get(f"/c/{circle}/circle.json").get_data()
    page = table.post("/circles/import", {"circle_file": (io.BytesIO(body), "circle.json")},
                      content_type="multipart/form-data")
    assert page.status == 302, page.errors
    copy = page.location.rsplit("/", 1)[-1]
    [imported] = circles.matches(copy)
    same(imported.id)
    assert table.client.get(f"/c/{copy}/circle.json").get_data() == body
