"""Issue 21, item 2: cards tapped for a meld (Marjolet's "Meld or exchange") or a combination
picked (Stovkahra's "Add a combination") and not recorded are never dropped by the score: the
score is refused at the meld's field, with a 422, nothing stored, and everything typed shown
again (the meld's cards, the finish); recorded, the same finish scores them. As a whole page
(no JavaScript) and through htmx. The browser tests: tests/browser/test_unrecorded_browser.py."""

from __future__ import annotations

from typing import Any

import pytest
from webtools import NS, A, Marjolet, Page, Series, refused

HTMX = pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])

# Marjolet, clubs trumps (turn-up 9♣): Anne 50 in aces and tens, trick 10 and the trump 7,
# Bruno the last trick: Anne 50 + 10 + 10 = 70, Bruno 30 + 10 + 10 = 50; with Anne's
# marriage of spades (K♠ Q♠) after trick 3: Anne 90.
FINISH = {"finish-brisques_player": "0", "finish-brisques": "50", "finish-trick10": "0",
          "finish-last": "1", "finish-seven": "0", "finish-sweep": ""}
TURN = {"turn-trick": "3", "turn-winner": "0", "turn-cards": ["Ks", "Qs"]}


def field_error(page: Page, field_id: str) -> str:
    """The messages shown beside field ``field_id`` (the errors macro's ids)."""
    found = [m for m in page.classed["field-error"] if m]
    assert f'id="{field_id}-error-1"' in page.html, (field_id, found)
    return " ".join(found)


@HTMX
def test_marjolet_meld_picked_but_not_recorded(game: Marjolet, htmx: bool) -> None:
    mid = game.seed_game([])
    assert game.turnup(mid, 1, "9c").status == 302
    page = refused(game, mid, htmx, lambda: game.post(
        f"/m/{mid}/hands/1/finish", FINISH | TURN, htmx=htmx, prefix="finish"),
        "picked but not recorded", "Record the turn")
    assert "K♠ Q♠ picked but not recorded" in field_error(page, "turn-cards")
    assert page.html.count('aria-invalid="true"') >= 2         # K♠ and Q♠ marked
    # everything typed is shown again: the meld's cards, its turn, the finish
    assert sorted(page.checked("turn-cards")) == ["Ks", "Qs"] and page.value("turn-trick") == "3"
    assert page.checked("turn-winner") == ["0"]
    assert page.value("finish-brisques") == "50" and page.checked("finish-last") == ["1"]
    assert page.checked("finish-trick10") == ["0"] and page.checked("finish-seven") == ["0"]
    # recorded, then scored: the marriage counts (90–50, not 70–50)
    assert game.turn(mid, 1, 3, A, ["Ks", "Qs"]).status == 302
    game.done(game.post(f"/m/{mid}/hands/1/finish", FINISH, htmx=htmx, prefix="finish"), htmx)
    assert game.export(mid)["hands"][0]["tricks"][2]["melds"] == [["marriage:s"], []]
    assert game.standings(game.get(f"/m/{mid}"))[0] == (90, 50)


@HTMX
def test_marjolet_exchange_ticked_but_not_recorded(game: Marjolet, htmx: bool) -> None:
    mid = game.seed_game([])
    assert game.turnup(mid, 1, "9c").status == 302
    turn = {"turn-trick": "2", "turn-winner": "1", "turn-exchange": "y"}
    page = refused(game, mid, htmx, lambda: game.post(
        f"/m/{mid}/hands/1/finish", FINISH | turn, htmx=htmx, prefix="finish"),
        "exchange of the trump 7 is ticked but not recorded")
    assert "not recorded" in field_error(page, "turn-exchange")
    assert page.checked("turn-exchange") == ["y"] and page.value("finish-brisques") == "50"


@HTMX
def test_marjolet_an_empty_turn_does_not_hold_up_the_score(game: Marjolet, htmx: bool) -> None:
    """The turn's own defaults (its next trick) and a winner alone are no meld: scored."""
    mid = game.seed_game([])
    assert game.turnup(mid, 1, "9c").status == 302
    game.done(game.post(f"/m/{mid}/hands/1/finish",
                        FINISH | {"turn-trick": "1", "turn-winner": "0"}, htmx=htmx,
                        prefix="finish"), htmx)
    assert game.export(mid)["hands"][0]["end"]["brisques"] == [50, None]


def _combination(**picked: Any) -> dict[str, Any]:
    return {"combination-seat": "0", "combination-cards": [], "combination-rank": "",
            "combination-count": ""} | picked


FINISH4 = {"finish-points_team": "0", "finish-points": "40", "finish-tricks": "",
           "finish-last": "1", **{f"finish-seven_{t}": "" for t in range(1, 9)}}
DOST = {"dost-caller": "0", "dost-after": "0", "dost-trick_winner": "", "dost-points_0": "",
        "dost-points_1": "", "dost-tricks_0": "", "dost-tricks_1": "",
        **{f"dost-seven_{t}": "" for t in range(1, 8)}}


@HTMX
@pytest.mark.parametrize(("picked", "field", "words"), [
    ({"combination-rank": "A", "combination-count": "3"}, "combination-rank", "Three aces"),
    ({"combination-cards": ["As", "Ah", "Ad"]}, "combination-cards", "A♠ A♥ A♦"),
    ({"combination-count": "4"}, "combination-count", "Four"),
], ids=["said", "cards", "number only"])
@pytest.mark.parametrize("action", ["finish", "dost"])
def test_stovkahra_combination_picked_but_not_declared(
        series: Series, htmx: bool, picked: dict[str, Any], field: str, words: str,
        action: str) -> None:
    mid = series.seed_series([])
    assert series.start_deal(mid, 1, "h").status == 302
    typed = (FINISH4 if action == "finish" else DOST) | _combination(**picked)
    page = refused(series, mid, htmx, lambda: series.post(
        f"/m/{mid}/hands/1/{action}", typed, htmx=htmx, prefix=action),
        "picked but not declared", "Declare")
    assert f"{words} picked but not declared" in field_error(page, field)
    assert all(page.value(k) == v for k, v in typed.items()
               if k.endswith(("points", "points_0")) and v)
    assert sorted(page.checked("combination-cards")) == sorted(picked.get("combination-cards",
                                                                          []))
    assert page.selected("combination-rank") == [picked.get("combination-rank", "")]
    assert page.selected("combination-count") == [picked.get("combination-count", "")]
    if action == "finish":
        assert page.checked("finish-last") == ["1"]
    else:
        assert page.checked("dost-caller") == ["0"]


@HTMX
def test_stovkahra_declared_then_scored(series: Series, htmx: bool) -> None:
    """Declared, the three aces count: North–South 40 + 30 = 70 (not 40)."""
    mid = series.seed_series([])
    assert series.start_deal(mid, 1, "h").status == 302
    typed = FINISH4 | _combination(**{"combination-rank": "A", "combination-count": "3"})
    series.rejected(series.post(f"/m/{mid}/hands/1/finish", typed, htmx=htmx,
                                prefix="finish"), htmx)
    assert series.declare(mid, 1, 0, rank="A", count=3).status == 302
    series.done(series.finish_deal(mid, 1, 40, team=NS, last=1, htmx=htmx), htmx)
    deal = series.export(mid)["hands"][0]
    assert deal["combinations"] == [{"seat": 0, "rank": "A", "count": 3}]
    assert deal["end"]["points"] == [40, 32]
    assert series.standings(series.get(f"/m/{mid}"))[0] == (70, 38)


@HTMX
def test_stovkahra_a_typed_finish_is_kept_when_a_combination_is_declared(
        series: Series, htmx: bool) -> None:
    """The deal's sections are one form: Declare sends what is typed in the finish, shown
    again with the answer (with htmx: the same request; without, refused sections only)."""
    mid = series.seed_series([])
    assert series.start_deal(mid, 1, "h").status == 302
    typed = FINISH4 | _combination(**{"combination-seat": "9", "combination-rank": "A",
                                      "combination-count": "3"})
    page = series.rejected(series.post(f"/m/{mid}/hands/1/combination", typed, htmx=htmx,
                                       prefix="combination"), htmx)
    assert page.value("finish-points") == "40" and page.checked("finish-last") == ["1"]
