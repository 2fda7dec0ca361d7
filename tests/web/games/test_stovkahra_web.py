"""Stovkahra through the Flask test client (CSRF on, real SQLite): a new series, deals with
combinations, finishing a deal, dost, the matchstick choice, editing the past, the match file
and the scoresheet; then bad input, each refused with a visible message, 422 and nothing
stored. Every action runs as a whole page and through htmx.

Players Jana (N), Petr (E), Eva (S), Karel (W); teams "Jana & Eva" (NS) and "Petr & Karel"
(EW). West deals first, so deal 1 is the deal of the worked examples of rules section 9."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

import pytest
from webtools import (
    CSRF_KINDS,
    EW,
    EXAMPLE_1,
    NS,
    PLAIN_40_38,
    PLAYERS4,
    TEAMS4,
    E,
    N,
    Page,
    S,
    Series,
    W,
    combo,
    csrf_is_checked,
    deal,
    deal_dost,
    deal_played,
    import_file,
    pdf_text,
    posts_to,
    refused,
    says,
    sevens,
    unchanged,
)

HTMX = pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
DATA = Path(__file__).parents[2] / "data"
HUGE = "9" * 5000            # more digits than Python turns into an int
BIG = "9" * 400              # an int, but too large for a float
NS_NAME, EW_NAME = TEAMS4

# Example 3 of section 9, after example 1: E wins trick 1 (11 card points), N wins trick 2
# (12) and calls dost: NS count 102, EW 55: right, NS win 1 matchstick.
EXAMPLE_3 = deal(end=deal_dost(N, 2, (12, 11), (1, 1), N))
# Example 4: trick 2 held only 8: NS count 98: wrong, EW win 2 matchsticks.
EXAMPLE_4 = deal(end=deal_dost(N, 2, (8, 11), (1, 1), N))


def started(series: Series, deals: list[dict[str, Any]] | None = None,
            trumps: str = "h", **kw: Any) -> str:
    """A series (seeded with ``deals``) whose next deal is started."""
    mid = series.seed_series(list(deals or []), **kw)
    n = len(deals or []) + 1
    assert series.start_deal(mid, n, trumps).status == 302
    return mid




def match_file(deals: list[dict[str, Any]], **settings: Any) -> dict[str, Any]:
    return {
        "format": "referee-match", "version": 1, "game": "stovkahra", "created": "2026-11-30",
        "settings": {"players": list(PLAYERS4), "teams": list(TEAMS4), "target": 10,
                     "first_dealer": W, **settings},
        "hands": deals,
    }


# ---------------------------------------------------------------------------------------------
# A new series


def test_new_series_form(series: Series) -> None:
    page = series.get("/new/stovkahra")
    assert page.status == 200
    assert "New Stovkahra series" in page.text
    for name in ("north", "east", "south", "west", "team_ns", "team_ew", "target"):
        assert any(i.get("name") == name for i in page.inputs), name
    assert page.value("target") == "10"
    assert page.checked("first_dealer") == ["3"]
    assert page.checked("shuffle_reminder") == ["each game"]
    assert "partners sit opposite" in page.text


def test_new_series_with_default_team_names(series: Series) -> None:
    mid = series.new_series()
    settings = series.export(mid)["settings"]
    assert settings["players"] == PLAYERS4
    assert settings["teams"] == ["Jana & Eva", "Petr & Karel"]
    assert settings["target"] == 10 and settings["first_dealer"] == W
    assert settings["continue_to_20"] is False and settings["german_letters"] is False
    page = series.get(f"/m/{mid}")
    assert page.status == 200
    assert "Stovkahra: Jana – Petr – Eva – Karel" in page.text
    assert "Jana & Eva Petr & Karel Points this game 0 0" in page.text
    assert series.standings(page) == ((0, 0), (0, 0))
    assert "Matchsticks (to 10)" in page.text
    assert "Deal 1 Karel deals · Jana declares first and leads" in page.text
    assert "New game: shuffle before this deal (rule 2.1)." in page.notices
    assert "next deal: Karel" in page.text


def test_new_series_with_named_teams_and_house_rules(series: Series) -> None:
    mid = series.new_series(teams=("Sokoli", "Orli"), target=5, first_dealer=N,
                            continue_to_20="y", german_letters="y",
                            shuffle_reminder="first deal")
    settings = series.export(mid)["settings"]
    assert settings["teams"] == ["Sokoli", "Orli"]
    assert settings["target"] == 5 and settings["first_dealer"] == N
    assert settings["continue_to_20"] is True and settings["german_letters"] is True
    assert settings["shuffle_reminder"] == "first deal"
    page = series.get(f"/m/{mid}")
    assert "Sokoli Orli Points this game 0 0" in page.text
    assert "Jana & Eva" not in page.text
    assert "Matchsticks (to 5)" in page.text
    assert "Deal 1 Jana deals · Petr declares first and leads" in page.text


@pytest.mark.parametrize(("data", "message"), [
    ({"south": "jana"}, "Give the four players different names"),
    ({"east": "   "}, "Every player needs a name"),
    ({"west": ""}, "This field is required."),
    ({"north": "a" * 41}, "Field cannot be longer than 40 characters"),
    ({"team_ns": "Orli", "team_ew": "orli"}, "Give the two teams different names"),
    ({"team_ew": "t" * 41}, "Field cannot be longer than 40 characters"),
    ({"target": "0"}, "Number must be between 1 and 50."),
    ({"target": "51"}, "Number must be between 1 and 50."),
    ({"target": "ten"}, "Not a valid integer value."),
    ({"target": HUGE}, "Enter a number of at most 6 digits"),
    ({"first_dealer": "4"}, "Not a valid choice."),
    ({"shuffle_reminder": "never"}, "Not a valid choice."),
], ids=["same", "blank", "empty", "long", "same-teams", "long-team", "target-0", "target-51",
        "target-text", "target-huge", "dealer", "reminder"])
def test_new_series_refused(series: Series, data: dict[str, str], message: str) -> None:
    form = {"north": "Jana", "east": "Petr", "south": "Eva", "west": "Karel",
            "team_ns": "", "team_ew": "", "target": "10", "first_dealer": "3",
            "shuffle_reminder": "each game"}
    form.update(data)
    before = series.match_count()
    page = series.post("/new/stovkahra", form)
    assert page.status == 422
    assert page.is_full_page
    assert says(page, message), page.errors
    assert series.match_count() == before
    for name in ("north", "east", "south", "west", "team_ns", "team_ew"):
        assert page.value(name) == form[name], name          # nothing typed is lost


def test_new_series_with_long_names_and_default_teams(series: Series) -> None:
    names = ["Bartoloměj Novotný ml.", "Petr", "Maximiliána Dvořáková", "Karel"]
    form = {"north": names[0], "east": names[1], "south": names[2], "west": names[3],
            "team_ns": "", "team_ew": "", "target": "10", "first_dealer": "3",
            "shuffle_reminder": "each game"}
    page = series.post("/new/stovkahra", form)
    assert page.status == 302 or says(page, "team"), page.errors


# ---------------------------------------------------------------------------------------------
# A deal: trumps and combinations


@HTMX
def test_start_a_deal(series: Series, htmx: bool) -> None:
    mid = series.new_series()
    page = series.done(series.start_deal(mid, 1, "h", htmx=htmx), htmx)
    assert "Trumps: hearts" in page.text
    assert '<span class="suit suit-hearts" aria-hidden="true"></span> hearts' in page.html
    assert "Add a combination (before trick 1 is led)" in page.text
    assert "Undo: Deal started (deal 1)" in page.text
    assert series.hands(mid) == [deal(dealer=W)]             # the proposed dealer (6.1)
    # trumps are optional
    other = series.new_series()
    series.done(series.start_deal(other, 1, "", htmx=htmx), htmx)
    assert series.hands(other) == [deal(trumps=None, dealer=W)]


@HTMX
def test_combinations_picked_and_said(series: Series, htmx: bool) -> None:
    """Example 1: N shows three aces, E says three kings, S says three sevens; the teams'
    points show at once."""
    mid = started(series)
    page = series.done(series.declare(mid, 1, N, cards=["Ah", "Ad", "Ac"], htmx=htmx), htmx)
    assert f"So far: {NS_NAME} 30 · {EW_NAME} 0" in page.verdicts
    assert "Jana: three aces (A♥ A♦ A♣)" in series.explained(page)
    page = series.done(series.declare(mid, 1, E, rank="K", count=3, htmx=htmx), htmx)
    assert f"So far: {NS_NAME} 30 · {EW_NAME} 6" in page.verdicts
    page = series.done(series.declare(mid, 1, S, rank="7", count=3, htmx=htmx), htmx)
    assert f"So far: {NS_NAME} 40 · {EW_NAME} 6" in page.verdicts
    assert "Petr: three kings" in page.text and "Eva: three sevens" in page.text
    assert "Undo: Combination (deal 1)" in page.text
    # the deal in progress in the history, with its lines
    assert "in progress" in page.classed["summary"]
    # (its lines: the explanation its row loads when opened)
    explained = series.explained(page)
    assert "Jana: three aces (A♥ A♦ A♣) +30" in explained
    assert f"{NS_NAME}: deal score so far +40" in explained
    assert series.hands(mid)[0]["combinations"] == [
        combo(N, "A", 3, ["Ah", "Ad", "Ac"]), combo(E, "K", 3), combo(S, "7", 3),
    ]
    # the game score waits for the end of the deal
    assert series.standings(page) == ((0, 0), (0, 0))


@HTMX
def test_four_of_a_rank_and_several_ranks(series: Series, htmx: bool) -> None:
    mid = started(series)
    series.done(series.declare(mid, 1, E, cards=["10h", "10d", "10c", "10s"], htmx=htmx), htmx)
    page = series.done(series.declare(mid, 1, W, rank="Q", count=4, htmx=htmx), htmx)
    page = series.done(series.declare(mid, 1, W, rank="J", count=3, htmx=htmx), htmx)
    assert f"So far: {NS_NAME} 0 · {EW_NAME} 38" in page.verdicts     # 20 + 12 + 6
    assert series.hands(mid)[0]["combinations"][0]["count"] == 4


@HTMX
def test_remove_a_combination(series: Series, htmx: bool) -> None:
    mid = started(series)
    for seat, rank in ((N, "A"), (E, "K"), (S, "7")):
        assert series.declare(mid, 1, seat, rank=rank, count=3).status == 302
    page = series.done(series.remove_combination(mid, 1, 1, htmx=htmx), htmx)
    assert f"So far: {NS_NAME} 40 · {EW_NAME} 0" in page.verdicts
    assert "Petr: three × K" not in page.text
    assert series.hands(mid)[0]["combinations"] == [combo(N, "A", 3), combo(S, "7", 3)]
    assert "Undo: Combination removed (deal 1)" in page.text


# ---------------------------------------------------------------------------------------------
# Finishing a deal


@HTMX
def test_example_1(series: Series, htmx: bool) -> None:
    """Rules 9, example 1: NS 30 + 10 + 40 + 10 = 90; EW 6 + 32 + 6 = 44."""
    mid = started(series)
    series.done(series.declare(mid, 1, N, cards=["Ah", "Ad", "Ac"], htmx=htmx), htmx)
    series.done(series.declare(mid, 1, E, rank="K", count=3, htmx=htmx), htmx)
    series.done(series.declare(mid, 1, S, rank="7", count=3, htmx=htmx), htmx)
    page = series.done(series.finish_deal(mid, 1, 40, team=NS, tricks=5, last=EW,
                                          seven={4: NS}, htmx=htmx), htmx)
    assert series.standings(page) == ((90, 44), (0, 0))
    assert f"{NS_NAME} 90, {EW_NAME} 44" in page.classed["summary"]
    for line in (f"{NS_NAME}: card points (5 tricks) +40", f"{EW_NAME}: card points (3 tricks) +32",
                 f"{NS_NAME}: trick 4 won with a seven +10", f"{EW_NAME}: last trick +6",
                 f"{NS_NAME}: deal score +90", f"{EW_NAME}: deal score +44"):
        assert line in series.explained(page), line
    assert "Deal 2 Jana deals · Petr declares first and leads" in page.text
    assert "New game: shuffle" not in page.text          # no shuffle within a game (2.1)
    assert "Undo: Deal finished (deal 1)" in page.text
    stored = series.hands(mid)[0]
    assert stored["end"] == deal_played((40, 32), EW, (5, 3), sevens(t4=NS))
    assert stored["sticks"] is None


@HTMX
def test_finish_with_the_other_teams_points(series: Series, htmx: bool) -> None:
    """One team's card points and tricks are entered; the other's are 72 and 8 minus them."""
    mid = started(series)
    page = series.done(series.finish_deal(mid, 1, 32, team=EW, tricks=3, last=EW, htmx=htmx),
                       htmx)
    assert series.standings(page) == ((40, 38), (0, 0))
    assert series.hands(mid)[0]["end"] == deal_played((40, 32), EW, (5, 3))


@HTMX
def test_finish_without_tricks(series: Series, htmx: bool) -> None:
    mid = started(series)
    page = series.done(series.finish_deal(mid, 1, 72, last=NS, htmx=htmx), htmx)
    assert series.standings(page) == ((78, 0), (0, 0))
    assert series.hands(mid)[0]["end"] == deal_played((72, 0), NS)


@HTMX
def test_example_2_sevens_on_the_first_and_last_tricks(series: Series, htmx: bool) -> None:
    """E wins trick 1 with 7h (EW +52), N wins trick 8 with 7s (NS +26, not 32): EW 97, NS 53."""
    mid = started(series)
    page = series.done(series.finish_deal(mid, 1, 45, team=EW, tricks=5, last=NS,
                                          seven={1: EW, 8: NS}, htmx=htmx), htmx)
    assert series.standings(page) == ((53, 97), (0, 0))
    explained = series.explained(page)
    assert f"{EW_NAME}: trick 1 won with a seven +52" in explained
    assert f"{NS_NAME}: last trick won with a seven (26, including the 6) +26" in explained
    assert f"{NS_NAME}: last trick +6" not in explained
    assert series.hands(mid)[0]["end"]["sevens"] == sevens(t1=EW, t8=NS)


def test_edit_page_shows_the_stored_deal(series: Series) -> None:
    mid = series.seed_series([EXAMPLE_1, EXAMPLE_3])
    page = series.get(f"/m/{mid}/hands/1")
    assert page.status == 200
    assert "Editing deal 1" in page.text
    assert page.value("finish-points") == "40"
    assert page.value("finish-tricks") == "5"
    assert page.checked("finish-points_team") == ["0"]
    assert page.checked("finish-last") == ["1"]
    assert page.selected("finish-seven_4") == ["0"]
    assert page.selected("finish-seven_3") == [""]
    assert "Trumps: hearts" in page.text
    assert '<span class="suit suit-hearts" aria-hidden="true"></span> hearts' in page.html
    assert posts_to(page, f"/m/{mid}/hands/1/finish", editing=True)
    part = series.get(f"/m/{mid}/hands/2", htmx=True)
    assert part.is_partial and "Editing deal 2" in part.text
    assert part.checked("dost-caller") == ["0"]
    assert part.selected("dost-after") == ["2"]
    assert part.selected("dost-trick_winner") == ["0"]
    assert (part.value("dost-points_0"), part.value("dost-points_1")) == ("12", "11")
    assert (part.value("dost-tricks_0"), part.value("dost-tricks_1")) == ("1", "1")


# ---------------------------------------------------------------------------------------------
# Dost


@HTMX
def test_right_dost_example_3(series: Series, htmx: bool) -> None:
    mid = started(series, [EXAMPLE_1])
    page = series.done(series.call_dost(mid, 2, N, 2, points=(12, 11), tricks=(1, 1),
                                        trick_winner=N, htmx=htmx), htmx)
    assert series.standings(page) == ((0, 0), (0, 0))         # not chosen yet (7.3.1)
    assert f"{NS_NAME} win the game: 1 matchstick, not chosen yet" in page.classed["summary"]
    assert "Undo: Dost (deal 2)" in page.text
    page = series.done(series.choose_sticks(mid, 2, "add", htmx=htmx), htmx)
    assert series.standings(page) == ((0, 0), (1, 0))
    assert f"{NS_NAME}'s count: game score 90 + combinations 0 + card points 12 + sevens 0 " \
           "= 102" in page.text
    assert f"{EW_NAME}'s count: game score 44 + combinations 0 + card points 11 + sevens 0 " \
           "= 55" in page.text
    assert ("Jana calls dost on winning trick 2 — 102 ≥ 100: right; opponents 55 ≥ 50 → "
            f"1 matchstick: {NS_NAME} win the game and 1 matchstick") in page.text
    assert f"{NS_NAME} win the game: 1 matchstick, added" in page.classed["summary"]
    assert (f"Match score now {NS_NAME} 1, {EW_NAME} 0 (was {NS_NAME} 0, {EW_NAME} 0)."
            in page.notices)
    # a new game: scores 0, the deal passes to the left, shuffled
    assert "Deal 3 Petr deals · Eva declares first and leads" in page.text
    assert "New game: shuffle before this deal (rule 2.1)." in page.notices
    assert series.hands(mid)[1]["end"] == deal_dost(N, 2, (12, 11), (1, 1), N)
    assert "Undo: Matchstick choice (deal 2)" in page.text


@HTMX
def test_wrong_dost_example_4(series: Series, htmx: bool) -> None:
    mid = started(series, [EXAMPLE_1])
    page = series.done(series.call_dost(mid, 2, N, 2, points=(8, 11), tricks=(1, 1),
                                        trick_winner=N, htmx=htmx), htmx)
    assert series.standings(page) == ((0, 0), (0, 0))         # not chosen yet (7.3.1)
    page = series.done(series.choose_sticks(mid, 2, "add", htmx=htmx), htmx)
    assert series.standings(page) == ((0, 0), (0, 2))
    assert ("Jana calls dost on winning trick 2 — 98 < 100: wrong; 2 matchsticks to the "
            f"opponents: {EW_NAME} win the game and 2 matchsticks") in page.text
    assert f"{EW_NAME} win the game: 2 matchsticks, added" in page.classed["summary"]
    assert (f"Match score now {NS_NAME} 0, {EW_NAME} 2 (was {NS_NAME} 0, {EW_NAME} 0)."
            in page.notices)


@HTMX
def test_dost_right_after_a_combination(series: Series, htmx: bool) -> None:
    """Like example 5 (whose 75–48 no deal can give: every game score sum is even): before
    this deal NS 48, EW 76; W deals, N declares nothing, E four aces (EW 116) and calls dost
    at once: right; NS 48 < 50: EW win 2. Had N declared three kings first: 1."""
    first = deal(combo(E, "A", 3), combo(W, "10", 3), combo(W, "K", 3),
                 end=deal_played((42, 30), NS))
    mid = started(series, [first], first_dealer=S)
    assert series.standings(series.get(f"/m/{mid}")) == ((48, 76), (0, 0))
    series.done(series.declare(mid, 2, E, rank="A", count=4, htmx=htmx), htmx)
    series.done(series.call_dost(mid, 2, E, 0, htmx=htmx), htmx)
    page = series.done(series.choose_sticks(mid, 2, "add", htmx=htmx), htmx)
    assert series.standings(page) == ((0, 0), (0, 2))
    assert ("Petr calls dost right after declaring — 116 ≥ 100: right; opponents "
            "48 ≤ 49 → 2 matchsticks") in page.text
    # N's three kings, declared before E: NS count 54, EW win 1
    series.done(series.declare(mid, 2, N, rank="K", count=3, htmx=htmx, editing=True), htmx)
    page = series.get(f"/m/{mid}")
    assert series.standings(page) == ((0, 0), (0, 1))
    assert "opponents 54 ≥ 50 → 1 matchstick" in series.explained(page)


@HTMX
def test_example_6_both_teams_over_100(series: Series, htmx: bool) -> None:
    """NS 92, EW 90; NS 38, EW 34 + 6: 130–130, another deal with the scores kept, no
    shuffle. Corrected to NS 40, EW 32 + 6: 132–128, NS win 1 (EW have 50 or more)."""
    to_92_90 = [deal(combo(N, "K", 3), end=deal_played((40, 32), EW)),          # 46–38
                deal(combo(E, "10", 4), end=deal_played((46, 26), EW))]         # 92–90
    mid = series.seed_series(to_92_90)
    assert series.standings(series.get(f"/m/{mid}")) == ((92, 90), (0, 0))
    series.done(series.start_deal(mid, 3, htmx=htmx), htmx)
    page = series.done(series.finish_deal(mid, 3, 38, last=EW, htmx=htmx), htmx)
    assert series.standings(page) == ((130, 130), (0, 0))
    assert "Both teams at 130: another deal with the scores kept, no shuffle" in page.text
    assert "Deal 4 Eva deals" in page.text
    assert "New game: shuffle" not in page.text
    series.done(series.finish_deal(mid, 3, 40, last=EW, htmx=htmx, editing=True), htmx)
    page = series.done(series.choose_sticks(mid, 3, "add", htmx=htmx), htmx)
    assert series.standings(page) == ((0, 0), (1, 0))
    assert (f"both teams at 100 or more: {NS_NAME}'s 132 beats 128 → 1 matchstick"
            in page.text)


# ---------------------------------------------------------------------------------------------
# The matchstick choice


# Deal 3 (E deals; S, W, N, E declare): W declares three kings and calls dost at once with
# EW counting 6: wrong, NS win 2. Before it EW have 2 (example 4), NS none.
WRONG_DOST_BY_W = deal(combo(W, "K", 3), end=deal_dost(W, 0))


@HTMX
def test_matchstick_choice_take_then_add(series: Series, htmx: bool) -> None:
    mid = series.seed_series([EXAMPLE_1, deal(end=EXAMPLE_4["end"], sticks="add"),
                              WRONG_DOST_BY_W])
    page = series.get(f"/m/{mid}")
    assert series.standings(page) == ((0, 0), (0, 2))             # no choice: not counted
    assert "add or take: not chosen yet" in page.classed["warn"]
    page = series.done(series.choose_sticks(mid, 3, "take", htmx=htmx), htmx)
    assert series.standings(page) == ((0, 0), (0, 0))
    assert (f"{NS_NAME} take 2 matchsticks off {EW_NAME}'s pile: matchsticks {NS_NAME} 0, "
            f"{EW_NAME} 0") in page.text
    assert f"{NS_NAME} won 2 matchsticks: they chose to take them off the opponents." \
        in page.text
    assert (f"Match score now {NS_NAME} 0, {EW_NAME} 0 (was {NS_NAME} 0, {EW_NAME} 2)."
            in page.notices)
    assert series.hands(mid)[2]["sticks"] == "take"
    assert "Undo: Matchstick choice (deal 3)" in page.text
    # corrected: add after all
    page = series.done(series.choose_sticks(mid, 3, "add", htmx=htmx), htmx)
    assert series.standings(page) == ((0, 0), (2, 2))
    assert f"{NS_NAME} won 2 matchsticks: they chose to add them to their pile." in page.text
    assert series.hands(mid)[2]["sticks"] == "add"
    assert "not chosen yet" not in page.text
    # the earlier choice is untouched
    assert series.hands(mid)[1]["sticks"] == "add"


@HTMX
def test_taking_more_than_the_opponents_have(series: Series, htmx: bool) -> None:
    """Example 7: only what is there can be taken; the rest is lost."""
    mid = series.seed_series([EXAMPLE_1, deal(end=EXAMPLE_3["end"], sticks="add"),
                              WRONG_DOST_BY_W, deal(combo(N, "K", 3), end=deal_dost(N, 0))])
    # NS 1 + 2 = 3; deal 4 (S deals; W, N, E, S declare): N's wrong dost gives EW 2
    page = series.done(series.choose_sticks(mid, 4, "take", htmx=htmx), htmx)
    assert series.standings(page) == ((0, 0), (0, 0))             # deal 3 not chosen yet
    page = series.done(series.choose_sticks(mid, 3, "take", htmx=htmx), htmx)
    # deal 3: NS take 2 off EW's 0: both lost; deal 4: EW take 2 off NS's 1
    assert series.standings(page) == ((0, 0), (0, 0))
    explained = series.explained(page)
    assert "(only 0 could be taken; 2 lost)" in explained
    assert "(only 1 could be taken; 1 lost)" in explained


def test_the_matchstick_choice_is_asked_for_visibly(series: Series) -> None:
    mid = started(series, [EXAMPLE_1])
    page = series.follow(series.call_dost(mid, 2, N, 2, points=(12, 11), tricks=(1, 1),
                                          trick_winner=N))
    assert any("not chosen yet" in w for w in page.shown("warn")), page.shown("warn")


def test_series_end_and_a_deal_after_it(series: Series) -> None:
    """Target 1: NS's right dost ends the series; no deal follows."""
    mid = series.seed_series([EXAMPLE_1, {**EXAMPLE_3, "sticks": "add"}], target=1)
    page = series.get(f"/m/{mid}")
    assert f"Series over: {NS_NAME} win 1–0" in page.text
    assert "Start deal 3" not in page.text
    with unchanged(series, mid):
        rejected = series.rejected(series.start_deal(mid, 3), False)
    assert says(rejected, "Deal 3: The series is over")


# ---------------------------------------------------------------------------------------------
# Editing an earlier deal


# Three plain deals: 40–38, 80–76, 120–114 (both past 100: NS win 1, who chose "take"), then
# the first deal of the next game: 40–38.
THREE_TO_A_GAME = [PLAIN_40_38, PLAIN_40_38, deal(end=PLAIN_40_38["end"], sticks="take"),
                   PLAIN_40_38]


@HTMX
def test_edit_moves_the_end_of_a_game(series: Series, htmx: bool) -> None:
    """N's three aces, forgotten in deal 1, make NS reach 110 in deal 2: the game now ends
    there, and the choice recorded for deal 3 no longer applies."""
    mid = series.seed_series(THREE_TO_A_GAME)
    # "take" with EW at 0: the matchstick is lost
    assert series.standings(series.get(f"/m/{mid}")) == ((40, 38), (0, 0))
    response = series.declare(mid, 1, N, rank="A", count=3, htmx=htmx, editing=True)
    if not htmx:
        assert response.location == f"/m/{mid}/hands/1#outcome"      # the notices, in view
    page = series.done(response, htmx)
    assert "Editing deal 1" in page.text
    notices = " ".join(page.notices)
    assert f"2 now: {NS_NAME} win the game: 1 matchstick, not chosen yet (was: {NS_NAME} " \
           f"80, {EW_NAME} 76)." in notices
    assert f"3 now: {NS_NAME} 40, {EW_NAME} 38 (was: {NS_NAME} win the game: 1 " \
           f"matchstick, taken away (1 lost: {EW_NAME} had only 0))." in notices
    assert series.standings(page) == ((80, 76), (0, 0))
    # deal 2 now asks for a choice; deal 3's recorded choice is pointed out as not applying
    assert "add or take: not chosen yet" in page.classed["warn"]
    assert ("A matchstick choice is recorded for this deal, but it no longer ends a game: the "
            "choice does not apply.") in page.classed["warn"]
    hands = series.hands(mid)
    assert hands[0]["combinations"] == [combo(N, "A", 3)]
    assert [h["sticks"] for h in hands] == [None, None, "take", None]
    # the notices are shown once
    assert not [n for n in series.get(f"/m/{mid}").notices if "now" in n]


def test_edit_notices_speak_of_deals(series: Series) -> None:
    mid = series.seed_series(THREE_TO_A_GAME)
    page = series.follow(series.declare(mid, 1, N, rank="A", count=3, editing=True))
    assert any(n.startswith("Deal 2 now:") for n in page.notices), page.notices


def test_a_choice_that_no_longer_applies_is_visible(series: Series) -> None:
    mid = series.seed_series(THREE_TO_A_GAME)
    series.follow(series.declare(mid, 1, N, rank="A", count=3, editing=True))
    page = series.get(f"/m/{mid}")
    assert any("no longer ends a game" in w for w in page.shown("warn")), page.shown("warn")


@HTMX
def test_edit_that_would_leave_a_deal_after_the_series_is_refused(series: Series,
                                                                  htmx: bool) -> None:
    # NS's "add" is recorded on deal 2 (an earlier edit had moved the end of the game), so
    # once deal 2 ends the game again it stands and ends the series: deal 3 cannot follow.
    deals = [*THREE_TO_A_GAME[:3]]
    deals[1] = deal(end=PLAIN_40_38["end"], sticks="add")
    mid = series.seed_series(deals, target=1)
    page = refused(series, mid, htmx,
                   lambda: series.declare(mid, 1, N, rank="A", count=3, htmx=htmx,
                                          editing=True),
                   "Deal 3: The series is over")
    assert "Editing deal 1" in page.text
    assert page.checked("combination-seat") == ["0"]          # the entry is kept to correct
    assert page.selected("combination-rank") == ["A"]


@HTMX
def test_edit_a_finish(series: Series, htmx: bool) -> None:
    mid = series.seed_series([EXAMPLE_1, deal(end=PLAIN_40_38["end"], sticks="add")])
    page = series.done(series.finish_deal(mid, 1, 44, tricks=5, last=EW, seven={4: NS},
                                          htmx=htmx, editing=True), htmx)
    # deal 1 was 90–44, is 94–40; deal 2 still ends the game, now at 134–78
    assert (f"2: totals after it now {NS_NAME} 134, {EW_NAME} 78 (were {NS_NAME} 130, "
            f"{EW_NAME} 82).") in " ".join(page.notices), \
        page.notices
    assert not [n for n in page.notices if "now:" in n or "Match score" in n]
    assert series.standings(series.get(f"/m/{mid}")) == ((0, 0), (1, 0))
    assert series.hands(mid)[0]["end"] == deal_played((44, 28), EW, (5, 3), sevens(t4=NS))


# ---------------------------------------------------------------------------------------------
# The match file and the scoresheet


def test_json_export_import_round_trip(series: Series) -> None:
    deals = [EXAMPLE_1, deal(end=EXAMPLE_3["end"], sticks="take"),
             deal(combo(S, "A", 4, ["Ah", "Ad", "Ac", "As"]), end=deal_played((45, 27), NS,
                  (5, 3), sevens(t1=EW, t8=NS))),
             deal(trumps=None)]
    mid = series.seed_series(deals, teams=["Sokoli", "Orli"], target=7)
    response = series.client.get(f"/m/{mid}/match.json")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    assert 'filename="stovkahra-' in response.headers["Content-Disposition"]
    body = response.get_data()
    exported = json.loads(body)
    assert exported["game"] == "stovkahra"
    # every deal records its dealer, the choice its team and the pile a take was made against
    deals[1].update(sticks_by=NS, sticks_against=0)       # NS took against EW's empty pile
    assert exported["hands"] == [{**d, "dealer": seat} for d, seat in zip(deals, [W, N, E, S])]
    assert exported["settings"]["teams"] == ["Sokoli", "Orli"]
    before = series.match_count()
    page = import_file(series, body)
    assert page.status == 302, page.errors
    assert series.match_count() == before + 1
    new = page.location.rsplit("/", 1)[1] if page.location else ""
    assert new and new != mid
    shown = series.follow(page)
    assert "Match imported." in shown.notices
    assert series.export(new) == exported
    assert series.standings(shown) == series.standings(series.get(f"/m/{mid}"))
    assert "Sokoli Orli" in shown.text and "Matchsticks (to 7)" in shown.text


def test_pdf_scoresheet(series: Series) -> None:
    mid = series.seed_series([EXAMPLE_1, deal(end=EXAMPLE_3["end"], sticks="take"),
                              WRONG_DOST_BY_W], teams=["Sokoli", "Orli"])
    text = pdf_text(series.client, mid)
    assert "Stovkahra scoresheet" in text
    assert "Teams Sokoli (Jana, Eva) – Orli (Petr, Karel)" in text
    assert "Jana: three aces" in text and "Petr: three kings" in text
    assert "Eva: three sevens" in text
    assert "Karel: three kings" in text
    assert "Sokoli +1 (taken off Orli)" in text
    assert "Jana calls dost on winning trick 2 — 102 ≥ 100: right" in text
    # deal 3's award has no choice: not chosen yet, and on no pile (7.3.1)
    assert "Sokoli +2 (add or take: not chosen yet, not counted)" in text
    assert "added" not in text
    assert "Matchsticks: Sokoli 0, Orli 0." in text
    assert "Series to 10 matchsticks" in text


# ---------------------------------------------------------------------------------------------
# Bad input: combinations


@HTMX
@pytest.mark.parametrize("picked", [False, True], ids=["said", "picked"])
def test_a_fifth_ace(series: Series, htmx: bool, picked: bool) -> None:
    mid = started(series)
    assert series.declare(mid, 1, N, rank="A", count=4).status == 302
    action = (lambda: series.declare(mid, 1, S, cards=["Ah", "Ad", "Ac"], htmx=htmx)) \
        if picked else (lambda: series.declare(mid, 1, S, rank="A", count=3, htmx=htmx))
    page = refused(series, mid, htmx, action,
                   "Deal 1: Aces declared: Jana 4 and Eva 3, that is 7, but the pack "
                   "has only four (rule 4.5)")
    assert page.checked("combination-seat") == ["2"]
    if picked:
        assert sorted(page.checked("combination-cards")) == ["Ac", "Ad", "Ah"]
    else:
        assert page.selected("combination-rank") == ["A"]
        assert page.selected("combination-count") == ["3"]
    assert f"So far: {NS_NAME} 40 · {EW_NAME} 0" in page.verdicts


@HTMX
@pytest.mark.parametrize("picked", [False, True], ids=["said", "picked"])
@pytest.mark.parametrize(("rank", "plural"), [("9", "nines"), ("8", "eights")])
def test_three_nines(series: Series, htmx: bool, picked: bool, rank: str, plural: str) -> None:
    mid = started(series)
    cards = [f"{rank}{s}" for s in "hdc"]
    action = (lambda: series.declare(mid, 1, S, cards=cards, htmx=htmx)) if picked \
        else (lambda: series.declare(mid, 1, S, rank=rank, count=3, htmx=htmx))
    refused(series, mid, htmx, action,
            f"{plural} form no combination; only aces, kings, queens, jacks, tens and sevens "
            "do (rule 4.5)")


def test_three_nines_names_the_player(series: Series) -> None:
    mid = started(series)
    page = series.declare(mid, 1, S, rank="9", count=3)
    assert says(page, "Eva", "nines form no combination"), page.errors


@HTMX
@pytest.mark.parametrize(("data", "words"), [
    ({"cards": ["Kh", "Kd", "Qc"]}, "A combination is three or four cards of one rank"),
    ({"cards": ["Kh", "Kd"]}, "A combination is three or four cards of one rank"),
    ({}, "Pick the cards shown, or choose the rank and the number"),
    ({"rank": "K"}, "Pick the cards shown, or choose the rank and the number"),
    ({"cards": ["Kh", "Kd", "Kc"], "rank": "K", "count": 3},
     "Either pick the cards or say the rank and number, not both"),
    ({"cards": ["Zz"]}, "'Zz' is not a valid choice for this field."),
    ({"rank": "<b>Z</b>", "count": 3}, "Not a valid choice."),
    ({"rank": "K", "count": 5}, "Not a valid choice."),
], ids=["mixed", "two", "nothing", "no-count", "both", "forged-card", "forged-rank", "five"])
def test_combination_that_is_none(series: Series, htmx: bool, data: dict[str, Any],
                                  words: str) -> None:
    mid = started(series)
    page = refused(series, mid, htmx, lambda: series.declare(mid, 1, S, htmx=htmx, **data),
                   words)
    assert "<b>Z</b>" not in page.html


@HTMX
@pytest.mark.parametrize("seat", [None, "4", "<i>x</i>"], ids=["none", "4", "html"])
def test_combination_without_a_declarer(series: Series, htmx: bool, seat: str | None) -> None:
    mid = started(series)
    page = refused(series, mid, htmx,
                   lambda: series.declare(mid, 1, seat, rank="K", count=3, htmx=htmx),
                   "Who declared the combination?" if seat is None else "Not a valid choice")
    assert "<i>x</i>" not in page.html


@HTMX
def test_the_same_rank_twice(series: Series, htmx: bool) -> None:
    mid = started(series)
    assert series.declare(mid, 1, E, rank="K", count=3).status == 302
    refused(series, mid, htmx, lambda: series.declare(mid, 1, E, rank="K", count=4, htmx=htmx),
            "Petr declared kings twice: a player declares at most one combination of each "
            "rank")


@HTMX
def test_more_than_eight_declared_cards(series: Series, htmx: bool) -> None:
    mid = started(series)
    for rank in ("A", "K"):
        assert series.declare(mid, 1, W, rank=rank, count=4).status == 302
    refused(series, mid, htmx, lambda: series.declare(mid, 1, W, rank="Q", count=3, htmx=htmx),
            "Karel declared 11 cards, but holds only 8")


@HTMX
def test_declaring_after_a_dost_is_refused(series: Series, htmx: bool) -> None:
    """E declared four aces and called dost at once (deal over); S, who declares after E,
    cannot declare any more (7.2.1)."""
    mid = series.seed_series([deal(combo(E, "A", 4), end=deal_dost(E, 0))])
    for editing in (False, True):
        refused(series, mid, htmx,
                lambda e=editing: series.declare(mid, 1, S, rank="K", count=3, htmx=htmx,
                                                 editing=e),
                "Deal 1: Petr called dost right after declaring, so Eva, who "
                "declares after Petr, could not declare three kings (rule 7.2.1)")


def test_the_form_is_not_offered_after_the_deal(series: Series) -> None:
    mid = series.seed_series([EXAMPLE_1])
    page = series.get(f"/m/{mid}")
    assert "Add a combination" not in page.text
    assert "Add a combination" in series.get(f"/m/{mid}/hands/1").text    # to correct it


def test_a_declaration_after_trick_1_in_a_file_is_refused(series: Series) -> None:
    late = deal({"seat": N, "rank": "A", "count": 3, "trick": 3})
    before = series.match_count()
    page = import_file(series, json.dumps(match_file([late])).encode())
    assert page.status == 422
    assert says(page, "three aces declared after trick 3 was led — combinations are declared "
                "only before the lead to trick 1 (rule 4.5)"), page.errors
    assert series.match_count() == before


def test_import_errors_speak_of_deals(series: Series) -> None:
    late = deal({"seat": N, "rank": "A", "count": 3, "trick": 3})
    page = import_file(series, json.dumps(match_file([late])).encode())
    assert page.status == 422
    assert says(page, "Deal 1:"), page.errors


def test_german_letters_on_screen(series: Series) -> None:
    mid = series.new_series(german_letters="y")
    series.start_deal(mid, 1, "h")
    page = series.follow(series.declare(mid, 1, N, cards=["Qh", "Qd", "Qc"]))
    listed = re.search(r"Jana: three (\S+) \(([^)]*)\)", page.text)
    assert listed, page.text[:2000]
    assert listed[1] == "obers" and listed[2].split() == ["O"] * 3, listed[0]  # and marks
    for suit in ("hearts", "diamonds", "clubs"):
        assert f'aria-label="Ober of {suit}">O<span class="suit suit-{suit}"' in page.html


# ---------------------------------------------------------------------------------------------
# Bad input: finishing a deal


@HTMX
@pytest.mark.parametrize(("points", "words"), [
    ("73", "A team takes 0 to 72 card points (rule 3)"),
    ("-1", "A team takes 0 to 72 card points (rule 3)"),
    ("99999999999999999999", "Enter a number of at most 6 digits"),
    (HUGE, "Enter a number of at most 6 digits"),
    ("forty", "Not a valid integer value"),
    ("40.5", "Not a valid integer value"),
    ("", "Enter one team's card points"),
    ("71", "Jana & Eva cannot have taken 71 card points in any number of tricks from 0 to 7 "
     "(card points are never 1, 2, 70 or 71) (rule 6.3.2)"),
], ids=["73", "negative", "20-digits", "huge", "text", "fraction", "empty", "71"])
def test_card_points_refused(series: Series, htmx: bool, points: str, words: str) -> None:
    mid = started(series)
    page = refused(series, mid, htmx,
                   lambda: series.finish_deal(mid, 1, points, tricks=None, last=EW, htmx=htmx),
                   words)
    assert page.value("finish-points") == points                     # kept to correct
    assert page.checked("finish-last") == ["1"]


@HTMX
@pytest.mark.parametrize(("kw", "words"), [
    ({"points": 40, "tricks": 9}, ("Number must be between 0 and 8.",)),
    ({"points": 40, "tricks": 0}, ("Jana & Eva won no trick, so they have no card points, "
                                   "not 40",)),
    ({"points": 72, "tricks": 8}, ("Petr & Karel won no trick, so they cannot have won the "
                                   "last trick",)),
    ({"points": 72, "tricks": 3}, ("Jana & Eva cannot have taken 72 card points in 3 tricks: "
                                   "3 tricks hold 0, 3–60",)),
    ({"points": 40, "last": None}, ("Which team won the last trick? (rule 5)",)),
    ({"points": 40, "last": "2"}, ("Not a valid choice",)),
    ({"points": 40, "team": "2"}, ("Not a valid choice",)),
    ({"points": 40, "last": NS, "seven": {8: EW}},
     ("The last trick is recorded as won by Jana & Eva, so Petr & Karel cannot have won it "
      "with a seven",)),
    ({"points": 40, "seven": {1: NS, 2: EW, 3: NS, 5: EW, 6: NS}},
     ("5 tricks are recorded as won with a seven", "the pack has only four sevens")),
    ({"points": 40, "tricks": 1, "seven": {1: NS, 2: NS}},
     ("Jana & Eva won 1 trick, but 2 are recorded as theirs",)),
], ids=["tricks-9", "no-trick-points", "no-trick-last", "72-in-3", "no-last", "last-forged",
        "team-forged", "seven-8-other", "five-sevens", "sevens-tricks"])
def test_finish_refused(series: Series, htmx: bool, kw: dict[str, Any],
                        words: tuple[str, ...]) -> None:
    mid = started(series)
    kw = {"last": EW, **kw}
    refused(series, mid, htmx, lambda: series.finish_deal(mid, 1, htmx=htmx, **kw), *words)


@HTMX
@pytest.mark.parametrize("value", ["2", "-1", "<b>x</b>", "NS"])
def test_forged_seven_team(series: Series, htmx: bool, value: str) -> None:
    mid = started(series)
    page = refused(series, mid, htmx,
                   lambda: series.finish_deal(mid, 1, 40, seven={3: value}, htmx=htmx),
                   "Not a valid choice")
    assert "<b>x</b>" not in page.html


@HTMX
def test_four_sevens_against_a_seven_won_by_the_other_team(series: Series, htmx: bool) -> None:
    mid = started(series)
    assert series.declare(mid, 1, S, rank="7", count=4).status == 302
    refused(series, mid, htmx,
            lambda: series.finish_deal(mid, 1, 40, seven={5: EW}, htmx=htmx),
            "Eva declared four sevens, so every trick won with a seven is Jana & Eva's; "
            "Petr & Karel cannot have won trick 5 with one (rule 6.3.5)")


def test_two_teams_winning_trick_1_with_a_seven_in_a_file(series: Series) -> None:
    both = deal(end=deal_played((40, 32), EW, None, [{"trick": 1, "team": NS},
                                                     {"trick": 1, "team": EW}]))
    before = series.match_count()
    page = import_file(series, json.dumps(match_file([EXAMPLE_1, both])).encode())
    assert page.status == 422
    assert page.is_full_page
    assert says(page, "Deal 2: Trick 1 is recorded more than once as won with a seven "
                "(rule 6.3.4)"), page.errors
    assert series.match_count() == before


@pytest.mark.parametrize(("deals", "words"), [
    ([deal(end=deal_played((40, 32), EW, None, [{"trick": 2, "team": NS, "bonus": 52}]))],
     "Trick 2 won with a seven is worth 10, not 52"),
    ([deal(combo(N, "A", 3), combo(S, "A", 3))], "Aces declared: Jana 3 and Eva 3"),
    ([deal(combo(W, "9", 4))], "nines form no combination"),
    ([deal(end=deal_played((71, 1), NS))], "never 1, 2, 70 or 71"),
    ([deal(end=deal_dost(S, 3, (20, 0), None, N))],
     "Only the winner of trick 3 may call dost: Jana won it, not Eva"),
    ([deal(end=None, sticks="both")], "either add the matchsticks or take them away"),
    ([deal(), PLAIN_40_38], "Only the last deal can still be in progress"),
], ids=["bonus-52-on-2", "six-aces", "four-nines", "71-1", "dost-by-partner", "sticks",
        "open-deal"])
def test_section_9_example_9_in_a_file(series: Series, deals: list[dict[str, Any]],
                                       words: str) -> None:
    before = series.match_count()
    page = import_file(series, json.dumps(match_file(deals)).encode())
    assert page.status == 422
    assert says(page, words), page.errors
    assert series.match_count() == before


# ---------------------------------------------------------------------------------------------
# Bad input: dost


@HTMX
def test_dost_by_a_player_who_did_not_win_the_trick(series: Series, htmx: bool) -> None:
    mid = started(series, [EXAMPLE_1])
    page = refused(series, mid, htmx,
                   lambda: series.call_dost(mid, 2, N, 2, points=(12, 11), tricks=(1, 1),
                                            trick_winner=S, htmx=htmx),
                   "Deal 2: Only the winner of trick 2 may call dost: Eva won it, not "
                   "Jana (a partner cannot call for Eva) (rule 7.2.1)")
    assert page.checked("dost-caller") == ["0"]
    assert page.selected("dost-trick_winner") == ["2"]
    assert page.value("dost-points_0") == "12"
    refused(series, mid, htmx,
            lambda: series.call_dost(mid, 2, N, 2, points=(12, 11), tricks=(1, 1),
                                     trick_winner=E, htmx=htmx),
            "Petr won it, not Jana (rule 7.2.1)")


@HTMX
def test_dost_before_trick_1_without_a_combination(series: Series, htmx: bool) -> None:
    mid = started(series, [EXAMPLE_1])
    assert series.declare(mid, 2, E, rank="K", count=3).status == 302
    refused(series, mid, htmx, lambda: series.call_dost(mid, 2, S, 0, htmx=htmx),
            "Deal 2: Eva declared no combination, so Eva cannot call dost before trick 1")
    # Petr did declare, but before trick 1 nobody has won a trick or taken card points
    refused(series, mid, htmx,
            lambda: series.call_dost(mid, 2, E, 0, trick_winner=E, htmx=htmx),
            "This dost came before trick 1: no trick was won, so leave the trick's winner empty")
    refused(series, mid, htmx,
            lambda: series.call_dost(mid, 2, E, 0, points=(10, 0), htmx=htmx),
            "This dost came before trick 1: both teams have 0 card points and 0 tricks")
    page = series.done(series.call_dost(mid, 2, E, 0, htmx=htmx), htmx)
    assert "Petr calls dost right after declaring — 50 < 100: wrong" in page.text


@HTMX
@pytest.mark.parametrize(("kw", "words"), [
    ({"caller": N, "after": 3, "points": (30, 20), "tricks": (1, 1)},
     ("The teams won 1 + 1 = 2 tricks, but dost was called after trick 3",)),
    ({"caller": N, "after": 1, "points": (30, 0)},
     ("The 4 cards of the 1 trick completed before the dost hold 0, 3–24 card points",)),
    ({"caller": N, "after": 1, "points": (0, 10), "tricks": (1, 0)},
     ("Petr & Karel won no trick, so they have no card points, not 10",)),
    ({"caller": N, "after": 8}, ("Not a valid choice",)),
    ({"caller": "4", "after": 1}, ("Not a valid choice",)),
    ({"caller": N, "after": 2, "points": ("73", 0)}, ("Number must be between 0 and 72.",)),
    ({"caller": N, "after": 2, "points": (HUGE, 0)}, ("Enter a number of at most 6 digits",)),
    ({"caller": N, "after": 2, "points": (10, 5), "tricks": ("8", 0)},
     ("Number must be between 0 and 7.",)),
    ({"caller": N, "after": 2, "points": (10, 5), "seven": {2: EW}},
     ("Jana called dost on winning trick 2, so Petr & Karel cannot have won it with a "
      "seven",)),
    ({"caller": N, "after": 0}, ("Jana declared no combination",)),
], ids=["tricks-sum", "points-1-trick", "no-trick-points", "after-8", "caller-4",
        "points-73", "points-huge", "tricks-8", "seven-other-team", "after-0"])
def test_dost_refused(series: Series, htmx: bool, kw: dict[str, Any],
                      words: tuple[str, ...]) -> None:
    mid = started(series)
    refused(series, mid, htmx, lambda: series.call_dost(mid, 1, htmx=htmx, **kw), *words)


@HTMX
def test_dost_with_a_seven_after_the_dost_trick(series: Series, htmx: bool) -> None:
    mid = started(series, [EXAMPLE_1])
    refused(series, mid, htmx,
            lambda: series.call_dost(mid, 2, N, 2, points=(12, 11), tricks=(1, 1),
                                     trick_winner=N, seven={5: NS}, htmx=htmx),
            "only completed tricks count")


# ---------------------------------------------------------------------------------------------
# Bad input: order of entries, the matchstick choice, removing


@HTMX
def test_actions_on_a_deal_not_started(series: Series, htmx: bool) -> None:
    mid = series.seed_series([EXAMPLE_1])
    for action in (lambda: series.declare(mid, 2, N, rank="A", count=3, htmx=htmx),
                   lambda: series.finish_deal(mid, 2, 40, htmx=htmx),
                   lambda: series.call_dost(mid, 2, N, 1, points=(10, 0), htmx=htmx),
                   lambda: series.remove_combination(mid, 2, 0, htmx=htmx)):
        refused(series, mid, htmx, action, "Start the deal first")


@HTMX
def test_a_new_deal_while_one_is_open(series: Series, htmx: bool) -> None:
    mid = started(series, [EXAMPLE_1])
    refused(series, mid, htmx, lambda: series.start_deal(mid, 3, htmx=htmx),
            "Finish the deal in progress first (rule 6.1)")


@HTMX
@pytest.mark.parametrize("path", ["/hands/3/start", "/hands/0/finish", f"/hands/{HUGE}/dost",
                                  "/hands/1/frobnicate", "/hands/1/decider"])
def test_deal_number_out_of_range(series: Series, htmx: bool, path: str) -> None:
    mid = series.seed_series([EXAMPLE_1])
    with unchanged(series, mid):
        page = series.post(f"/m/{mid}{path}", {"start-trumps": "h"}, htmx=htmx)
    assert page.status == 404
    assert "There is no such page or match." in page.text


@HTMX
def test_remove_a_combination_that_is_not_there(series: Series, htmx: bool) -> None:
    mid = started(series)
    assert series.declare(mid, 1, N, rank="A", count=3).status == 302
    refused(series, mid, htmx, lambda: series.remove_combination(mid, 1, 1, htmx=htmx),
            "There is no such combination")


@HTMX
@pytest.mark.parametrize("index", ["64", "-1", "x"])
def test_remove_with_a_forged_index(series: Series, htmx: bool, index: str) -> None:
    mid = started(series)
    assert series.declare(mid, 1, N, rank="A", count=3).status == 302
    with unchanged(series, mid):
        page = series.rejected(series.remove_combination(mid, 1, index, htmx=htmx), htmx)
    assert page.visible_errors, page.html[:500]


@HTMX
@pytest.mark.parametrize("choice", ["", "both"])
def test_forged_matchstick_choice(series: Series, htmx: bool, choice: str) -> None:
    mid = series.seed_series([EXAMPLE_1, EXAMPLE_3])
    with unchanged(series, mid):
        page = series.rejected(series.choose_sticks(mid, 2, choice, htmx=htmx), htmx)
    assert page.visible_errors, page.html[:500]


@HTMX
def test_matchstick_choice_for_a_deal_that_ends_no_game(series: Series, htmx: bool) -> None:
    mid = series.seed_series([EXAMPLE_1])
    with unchanged(series, mid):
        page = series.rejected(series.choose_sticks(mid, 1, "take", htmx=htmx), htmx)
    assert page.visible_errors


# ---------------------------------------------------------------------------------------------
# Huge numbers: never a 500


@pytest.mark.parametrize("field", ["finish-points", "finish-tricks", "dost-points_0",
                                   "dost-tricks_1", "remove-index", "target"])
def test_a_number_too_large_for_a_float(series: Series, field: str) -> None:
    mid = started(series)
    action = field.partition("-")[0]
    if field == "target":
        url, data = "/new/stovkahra", {"north": "A", "east": "B", "south": "C", "west": "D",
                                       "first_dealer": "3", "shuffle_reminder": "each game",
                                       "target": BIG}
    else:
        url = f"/m/{mid}/hands/1/{action}"
        data = {"finish-points_team": "0", "finish-points": "40", "finish-last": "1",
                "dost-caller": "0", "dost-after": "1", "dost-points_0": "0",
                "dost-points_1": "0", "remove-index": "0", field: BIG}
    with unchanged(series, mid):
        page = series.post(url, data)
    assert page.status == 422
    assert page.visible_errors


# ---------------------------------------------------------------------------------------------
# CSRF


ROUTES = ["new", "start", "combination", "remove", "finish", "dost", "sticks", "import"]


def _csrf_setup(series: Series, route: str) -> str:
    """A series in which ``route``, posted with a good token, changes something."""
    if route == "sticks":
        return series.seed_series([EXAMPLE_1, EXAMPLE_3])
    if route == "start":
        return series.seed_series([EXAMPLE_1])
    mid = started(series, [EXAMPLE_1])
    if route == "remove":
        assert series.declare(mid, 2, E, rank="K", count=3).status == 302
    return mid


def _csrf_post(series: Series, mid: str, route: str, htmx: bool, token: str | None) -> Page:
    kw: dict[str, Any] = {"htmx": htmx, "token": token}
    if route == "new":
        return series.post("/new/stovkahra", {
            "north": "A", "east": "B", "south": "C", "west": "D", "target": "10",
            "first_dealer": "3", "shuffle_reminder": "each game"}, **kw)
    if route == "import":
        return import_file(series, series.client.get(f"/m/{mid}/match.json").get_data(), **kw)
    return {
        "start": lambda: series.start_deal(mid, 2, "s", **kw),
        "combination": lambda: series.declare(mid, 2, E, rank="K", count=3, **kw),
        "remove": lambda: series.remove_combination(mid, 2, 0, **kw),
        "finish": lambda: series.finish_deal(mid, 2, 40, **kw),
        "dost": lambda: series.call_dost(mid, 2, N, 2, points=(12, 11), trick_winner=N, **kw),
        "sticks": lambda: series.choose_sticks(mid, 2, "take", **kw),
    }[route]()


@HTMX
@pytest.mark.parametrize("kind", CSRF_KINDS)
@pytest.mark.parametrize("route", ROUTES)
def test_csrf_is_checked(series: Series, htmx: bool, kind: str, route: str) -> None:
    mid = _csrf_setup(series, route)
    csrf_is_checked(series, mid, kind,
                    lambda token: _csrf_post(series, mid, route, htmx, token))


def test_csrf_token_is_on_every_form(series: Series) -> None:
    mid = started(series, [EXAMPLE_1, EXAMPLE_3])
    assert series.declare(mid, 3, S, rank="K", count=3).status == 302
    page = series.get(f"/m/{mid}")
    forms = re.findall(r"<form\b.*?</form>", page.html, flags=re.S)
    assert len(forms) >= 8
    for form in forms:
        if 'method="post"' in form:
            assert re.search(r'name="(\w+-)?csrf_token"', form), form[:200]


# ---------------------------------------------------------------------------------------------
# Names with HTML in them

# short enough for the default team name "North & South" (40 characters at most)
EVIL = ["<script>alert(1)</script>", "Petr", "<img src=x>", "Karel"]
EVIL_TEAM = "<b onmouseover=alert(2)>Orli</b>"


@pytest.fixture
def evil(series: Series) -> str:
    return series.new_series(EVIL, teams=("", EVIL_TEAM))


def test_html_in_names_is_escaped_everywhere(series: Series, evil: str) -> None:
    mid = evil
    settings = series.export(mid)["settings"]
    assert settings["players"] == EVIL
    assert settings["teams"] == [f"{EVIL[0]} & {EVIL[2]}", EVIL_TEAM]
    series.done(series.start_deal(mid, 1, "h"), False)
    assert series.declare(mid, 1, N, rank="A", count=4).status == 302
    pages = [series.get("/"), series.get(f"/m/{mid}"), series.get(f"/m/{mid}", htmx=True),
             series.declare(mid, 1, S, rank="A", count=3),
             series.declare(mid, 1, S, rank="A", count=3, htmx=True),
             series.done(series.call_dost(mid, 1, N, 1, points=(20, 0), htmx=True), True),
             series.get(f"/m/{mid}/hands/1"),
             series.done(series.choose_sticks(mid, 1, "add", htmx=True), True)]
    for page in pages:
        assert "<script>alert" not in page.html
        assert "<img src=x" not in page.html
        assert "<b onmouseover" not in page.html
        assert "&lt;script&gt;" in page.html or "&lt;img" in page.html
    main = series.get(f"/m/{mid}")
    assert EVIL[0] in main.text and EVIL[2] in main.text and EVIL_TEAM in main.text
    assert says(pages[3], f"Aces declared: {EVIL[0]} 4 and {EVIL[2]} 3")
    assert "not chosen yet" in pages[5].text
    assert f"Match score now {EVIL[0]} & {EVIL[2]} 0, {EVIL_TEAM} 2" in " ".join(pages[7].notices)
    text = pdf_text(series.client, mid)
    assert "<script>alert(1)</script>" in text and "<img src=x>" in text  # printed, not run


# ---------------------------------------------------------------------------------------------
# Records that stay right when an earlier deal is edited or deleted (issue 10)


def decisions(page: Page) -> str:
    """The text of the open decisions asked at the top of the match page ('' if none)."""
    found = re.search(r'<section class="decisions panel" id="decisions">(.*?)</section>',
                      page.html, re.S)
    if found is None:
        return ""
    return html.unescape(" ".join(re.sub(r"<[^>]+>", " ", found[1]).split()))


def series_file_deals() -> list[dict[str, Any]]:
    return list(json.loads((DATA / "stovkahra-series.json").read_text("utf-8"))["hands"])


@HTMX
def test_a_choice_stays_with_the_team_that_made_it_7_3_1(series: Series, htmx: bool) -> None:
    """Deal 1's card points 40–32 become 20–52: deal 2's dost is wrong, so the game goes to
    Petr & Karel. Jana & Eva's "add" was theirs: void, and Petr & Karel are asked."""
    mid = series.seed_series(series_file_deals())
    assert series.standings(series.get(f"/m/{mid}")) == ((0, 0), (1, 0))
    page = series.done(series.finish_deal(mid, 1, 20, tricks=5, last=EW, seven={4: NS},
                                          htmx=htmx, editing=True), htmx)
    page = series.get(f"/m/{mid}")
    asked = decisions(page)
    assert (f"Deal 2: {NS_NAME} chose to add the matchsticks, but after a change to an "
            f"earlier deal {EW_NAME} win this game: that choice is void and {EW_NAME} "
            "choose.") in asked
    assert f"Deal 2: {EW_NAME} won 2 matchsticks — not chosen yet." in asked
    # Jana & Eva's pile is empty: nothing to take off it (issue 21, item 9)
    assert f"Add to {EW_NAME}" in asked and f"{NS_NAME} have no matchsticks to take." in asked
    assert page.html.index('id="decisions"') < page.html.index('id="editor"')
    assert f"{EW_NAME} win the game: 2 matchsticks, not chosen yet" in page.classed["summary"]
    assert f"{EW_NAME} add 2 matchsticks" not in page.text
    assert "matchsticks of deal 2 not chosen yet (not counted)" in page.text
    assert series.standings(page) == ((0, 0), (0, 0))
    stored = series.hands(mid)[1]
    assert (stored["sticks"], stored["sticks_by"]) == ("add", NS)    # kept, not applied
    # Petr & Karel add: their 2, then deal 4's 1 → 3. Deal 6's take was made by Jana & Eva
    # against a pile of 1, which now holds 3: void too, and asked again at the top.
    page = series.done(series.choose_sticks(mid, 2, "add", htmx=htmx), htmx)
    stored = series.hands(mid)[1]
    assert (stored["sticks"], stored["sticks_by"], stored["sticks_against"]) == ("add", EW, None)
    page = series.get(f"/m/{mid}")
    asked = decisions(page)
    assert "Deal 2" not in asked
    assert (f"Deal 6: {NS_NAME} chose to take 2 matchsticks off {EW_NAME}'s pile when it held "
            "1; after a change to an earlier deal it holds 3: that choice is void and they "
            "choose again.") in asked
    assert series.standings(page) == ((0, 0), (0, 3))
    page = series.done(series.choose_sticks(mid, 6, "take", htmx=htmx), htmx)
    assert series.hands(mid)[5]["sticks_against"] == 3
    assert series.standings(page) == ((0, 0), (0, 1))
    assert decisions(series.get(f"/m/{mid}")) == ""


def test_the_scoresheet_says_not_chosen_yet_7_3_1(series: Series) -> None:
    deals = series_file_deals()
    deals[0]["end"]["points"] = [20, 52]              # deal 2 now goes to Petr & Karel
    mid = series.seed_series(deals, teams=["Sokoli", "Orli"])
    text = pdf_text(series.client, mid)
    assert "Orli +2 (add or take: not chosen yet, not counted)" in text
    assert "Orli +2 (added)" not in text
    text = pdf_text(series.client, mid, explained=True)
    assert "Sokoli chose to add the matchsticks, but after a change to an earlier deal Orli " \
        "win this game: that choice is void and Orli choose" in text


def test_a_take_against_a_pile_an_edit_emptied_is_asked_again_7_3_1(series: Series) -> None:
    # Deal 2: EW win 2 and add; deal 3: NS win 2 and take them off EW's 2.
    mid = series.seed_series([EXAMPLE_1, {**EXAMPLE_4, "sticks": "add"},
                              {**WRONG_DOST_BY_W, "sticks": "take"}])
    assert series.standings(series.get(f"/m/{mid}")) == ((0, 0), (0, 0))
    assert series.hands(mid)[2]["sticks_against"] == 2
    # EW's choice corrected to a take off NS's empty pile: EW hold 0 when NS take.
    series.follow(series.choose_sticks(mid, 2, "take"))
    page = series.get(f"/m/{mid}")
    assert (f"Deal 3: {NS_NAME} chose to take 2 matchsticks off {EW_NAME}'s pile when it held "
            "2; after a change to an earlier deal it holds 0: that choice is void and they "
            "choose again.") in decisions(page)
    assert f"{NS_NAME} take 2 matchsticks" not in page.text
    series.follow(series.choose_sticks(mid, 3, "add"))
    assert series.standings(series.get(f"/m/{mid}")) == ((0, 0), (2, 0))


def test_no_new_deal_while_an_open_choice_decides_the_series_7_3_2(series: Series) -> None:
    # Target 1: deal 2's award is not chosen; deal 3 brings NS to 2 on the piles shown, but
    # whether the series ended depends on deal 2's choice.
    mid = series.seed_series([EXAMPLE_1, EXAMPLE_3, {**WRONG_DOST_BY_W, "sticks": "add"}],
                             target=1)
    page = series.get(f"/m/{mid}")
    assert "Series over" not in page.text
    assert (f"{NS_NAME} reach 2 on the matchsticks shown, but the award of deal 2 is not "
            "chosen yet: the series is decided once it is") in series.explained(page)
    refused(series, mid, False, lambda: series.start_deal(mid, 4),
            "choose add or take first", "rule 7.3.2")
    # NS take (EW have none): the series ends with deal 3.
    page = series.follow(series.choose_sticks(mid, 2, "take"))
    assert f"Series over: {NS_NAME} win 2–0" in page.text


def test_a_dost_after_a_trick_needs_both_teams_card_points_6_1(series: Series) -> None:
    mid = started(series, [EXAMPLE_1])
    page = refused(series, mid, False,
                   lambda: series.call_dost(mid, 2, N, 2, points=("", ""), trick_winner=N),
                   "Dost was called after trick 2: give both teams' card points of the "
                   "completed tricks", "rule 6.1")
    assert page.selected("dost-after") == ["2"]                   # what was typed is kept
    refused(series, mid, False,
            lambda: series.call_dost(mid, 2, N, 2, points=("12", ""), trick_winner=N),
            "give both teams' card points", "rule 6.1")


def test_a_dost_before_trick_1_needs_no_card_points(series: Series) -> None:
    mid = started(series)
    series.follow(series.declare(mid, 1, N, rank="A", count=3))
    series.follow(series.call_dost(mid, 1, N, 0, points=("", "")))
    assert series.hands(mid)[0]["end"]["points"] == [0, 0]


# -- Who dealt (2.5, 6.1) --------------------------------------------------------------------

@HTMX
def test_the_dealer_is_proposed_and_the_table_may_correct_it_6_1(series: Series,
                                                                  htmx: bool) -> None:
    mid = series.new_series()
    assert series.get(f"/m/{mid}").checked("start-dealer") == [str(W)]   # first dealer
    page = series.done(series.start_deal(mid, 1, "h", dealer=E, htmx=htmx), htmx)
    assert "Deal 1 Petr deals · Eva declares first and leads" in page.text
    assert series.hands(mid)[0]["dealer"] == E
    page = series.done(series.finish_deal(mid, 1, 40, last=EW, htmx=htmx), htmx)
    assert ("Petr dealt, out of turn: the deal passes to the left, so Karel was due to deal "
            "(recorded as dealt)") in series.explained(page)
    assert series.get(f"/m/{mid}").checked("start-dealer") == [str(S)]   # left of Petr
    # corrected where the deal is edited: Karel dealt after all
    page = series.done(series.start_deal(mid, 1, "h", dealer=W, htmx=htmx, editing=True), htmx)
    assert series.hands(mid)[0]["dealer"] == W
    assert "out of turn" not in series.get(f"/m/{mid}").text
    assert series.get(f"/m/{mid}/hands/1").checked("start-dealer") == [str(W)]


def test_deleting_a_deal_keeps_who_dealt_the_others_6_1(series: Series) -> None:
    mid = started(series, [PLAIN_40_38, PLAIN_40_38])
    assert [h["dealer"] for h in series.hands(mid)] == [W, N, E]
    series.follow(series.delete(mid, 1))
    assert [h["dealer"] for h in series.hands(mid)] == [N, E]
    page = series.get(f"/m/{mid}")
    assert "Deal 2 Petr deals · Eva declares first and leads" in page.text


def test_deleting_a_deal_of_a_match_stored_without_dealers_keeps_them_6_1(
    series: Series,
) -> None:
    # A match stored before the dealer was recorded: its deals have no "dealer".
    from referee.engine.games.stovkahra import GAME

    settings = GAME.settings({"players": PLAYERS4, "teams": TEAMS4, "first_dealer": W})
    old = [GAME.canonical_hand(PLAIN_40_38) for _ in range(3)]
    assert [h["dealer"] for h in old] == [None, None, None]
    mid = str(series.app.extensions["referee.store"].create("stovkahra", settings, old))
    series.follow(series.delete(mid, 1))
    assert [h["dealer"] for h in series.hands(mid)] == [N, E]


# ---------------------------------------------------------------------------------------------
# Fewer taps (issue 11): the next declarer proposed, an edited deal landing on its end


def test_the_next_declarer_in_turn_is_proposed_4_1(series: Series) -> None:
    """Karel (W) deals: Jana declares first, then Petr, Eva and Karel last (4.1); after the
    dealer's own declaration nobody is next, so nobody is proposed."""
    mid = started(series)
    page = series.get(f"/m/{mid}")
    assert page.checked("combination-seat") == [str(N)]
    for seat, rank, then in ((N, "A", [str(E)]), (S, "K", [str(W)]), (W, "7", [])):
        assert series.declare(mid, 1, seat, rank=rank, count=3).status == 302
        assert series.get(f"/m/{mid}").checked("combination-seat") == then, seat


def _lands(page: Any, section: str) -> bool:
    """The section that takes the focus when the page opens."""
    return re.search(rf'<details class="[^"]*" id="{section}"[^>]* autofocus', page.html) \
        is not None


def test_an_edited_deal_opens_at_how_it_ended(series: Series) -> None:
    """The Edit link lands on the finish of a played deal, on the dost of a stopped one;
    the match page and the answer to a change do not move the focus."""
    mid = series.seed_series([EXAMPLE_1, EXAMPLE_3])
    played, stopped = series.get(f"/m/{mid}/hands/1"), series.get(f"/m/{mid}/hands/2")
    assert _lands(played, "finish") and not _lands(played, "dost")
    assert _lands(stopped, "dost") and not _lands(stopped, "finish")
    assert "autofocus" not in series.get(f"/m/{mid}").html
    answer = series.finish_deal(mid, 1, 40, tricks=5, last=EW, seven={4: NS}, htmx=True,
                                editing=True)
    assert answer.status == 200 and "autofocus" not in answer.html


def test_the_first_deal_s_dealer_is_never_said_to_sit_left_of_a_last_dealer(
        series: Series) -> None:
    """Issue 22: deal 1 has no last dealer; its proposal is the series' first dealer."""
    mid = series.new_series()
    text = series.get(f"/m/{mid}").text
    assert "to the left of the last dealer" not in text
    assert "the first dealer chosen for the series" in text
    later = series.seed_series([EXAMPLE_3])
    assert "to the left of the last dealer (rule 2.5)" in series.get(f"/m/{later}").text
