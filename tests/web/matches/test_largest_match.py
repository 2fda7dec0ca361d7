"""Every match the app can hold is exported and imported back (issue 12): the largest is one of
1,000 Marjolet deals recorded card by card (a game to 500 that goes on while both totals are
equal at 500 or more, rule 7.2: deals that score the same for both players keep it going),
whose file is larger than the old 2 MB match-file limit and the 1 MB upload limit."""

from __future__ import annotations

import io
import json
import random
import sys
from pathlib import Path
from typing import Any

from flask import Flask
from webtools import Table

from referee.engine import matchfile
from referee.engine.games.marjolet import GAME

sys.path.insert(0, str(Path(__file__).parents[2] / "engine"))
import marjolet_helpers  # noqa: E402


def largest_even_deals(rng: random.Random) -> dict[int, dict[str, Any]]:
    """For each dealer, the largest deal (in bytes) among those played by the rules that score
    the same for both players, recorded card by card."""
    found: dict[int, dict[str, Any]] = {}
    tries = 0
    while len(found) < 2 or tries < 1_500:
        tries += 1
        dealer = tries % 2
        sim = marjolet_helpers.simulate_hand(rng, dealer)
        if sim.scores[0] != sim.scores[1]:
            continue
        facts = GAME.canonical_hand({**sim.facts, "dealer": dealer})
        if dealer not in found or len(json.dumps(facts)) > len(json.dumps(found[dealer])):
            found[dealer] = facts
    return found


def test_the_largest_marjolet_match_is_exported_and_imported_again(
        app: Flask, table: Table) -> None:
    deals = largest_even_deals(random.Random("largest"))
    settings = marjolet_helpers.settings(1, 500)
    hands = [deals[(1 + n) % 2] for n in range(matchfile.MAX_HANDS)]     # 2.1: alternating
    result = GAME.score(settings, hands)
    assert len(result.hands) == matchfile.MAX_HANDS and not result.standing.over
    mid = app.extensions["referee.store"].create("marjolet", settings, hands)

    exported = table.client.get(f"/m/{mid}/match.json")
    assert exported.status_code == 200
    body = exported.get_data()
    assert len(body) > 3_000_000         # over the old limits: 2 MB a file, 1 MB an upload

    page = table.post("/import", {"file": (io.BytesIO(body), "marjolet.json")},
                      content_type="multipart/form-data")
    assert page.status == 302, page.errors
    imported = page.location.rsplit("/", 1)[-1]
    again = table.client.get(f"/m/{imported}/match.json")
    assert json.loads(again.get_data())["hands"] == json.loads(body)["hands"]
