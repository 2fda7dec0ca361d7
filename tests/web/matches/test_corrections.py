"""Corrections across the end of a game or a tie (issue 10): a change to one hand that later
hands no longer fit is refused with the list of those hands and why, and offers the ways to
correct them with it (remove them, or convert a hand where the game has a conversion); the
way chosen is stored with the change as one event, which one Undo takes back whole."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from games.test_marjolet_web import DEAL_3A, SEED_1, SEED_2
from games.test_stovkahra_web import THREE_TO_A_GAME
from webtools import (
    HAND_440_71,
    TIE_HANDS,
    A,
    B,
    Marjolet,
    N,
    Page,
    Series,
    Table,
    deal,
    decider,
    hand,
    played,
    unchanged,
)

HTMX = pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])

# After TIE_HANDS (both at 536), hand 2 entered with Ágnes's pile 70 instead of 76: Ágnes
# 450 + 70 + 10 = 530, Tamás 461 + 81 = 542: Tamás wins 1 buli, and no decider follows.
NO_TIE_2 = hand("8h", "", None, played((70, 81), A))
LATER = hand("8h", "", None, played((80, 71), B))        # an ordinary hand: 80–81


def dealt_by(dealer: int, facts: dict[str, Any]) -> dict[str, Any]:
    """A hand as stored once a change has recorded its dealer (rule 6.1.1): a hand seeded
    without one keeps the dealer it had where it was, also when a correction moves it."""
    return {**facts, "dealer": dealer}


TIE_DEALT = [dealt_by(A, TIE_HANDS[0]), dealt_by(B, TIE_HANDS[1])]


def ways(page: Page) -> dict[str, tuple[str, list[tuple[str, str]], str]]:
    """The ways out the page offers: button text → (resolve key, hidden fields, post URL)."""
    found = {}
    section = re.search(r'<section class="corrections.*?</section>', page.html, re.S)
    assert section, "no ways out offered"
    for form in re.findall(r"<form .*?</form>", section.group(0), re.S):
        action = unescape(re.search(r'action="([^"]*)"', form).group(1))
        fields = [(unescape(n), unescape(v)) for n, v in
                  re.findall(r'<input type="hidden" name="([^"]*)" value="([^"]*)">', form)]
        key, label = re.search(
            r'<button type="submit" name="resolve" value="([^"]*)">(.*?)</button>', form, re.S
        ).groups()
        found[" ".join(unescape(label).split())] = (unescape(key), fields, action)
    return found


def choose(table: Table, page: Page, label: str, htmx: bool) -> Page:
    """Press the button ``label``: its form re-posts what was sent, with its way out."""
    offered = ways(page)
    assert label in offered, list(offered)
    key, fields, action = offered[label]
    data: dict[str, Any] = {}
    for name, value in fields + [("resolve", key)]:
        data.setdefault(name, []).append(value)
    # the re-post carries what the first post carried (its CSRF token included)
    return table.post(action, data, htmx=htmx, token=htmx)


def events(table: Table, mid: str) -> int:
    stored = table.app.extensions["referee.store"].load(mid, 1000)
    return len(stored.events)


@HTMX
def test_removing_a_tie_leaves_a_decider_that_is_removed_with_the_edit(
    table: Table, htmx: bool,
) -> None:
    """Hand 2 corrected so that no tie remains: the decider hand 3 no longer fits (7.4). It
    cannot become an ordinary hand (it has no piles), so it is removed, alone or with every
    later hand; one Undo puts everything back."""
    before = TIE_HANDS + [decider(B), LATER]
    mid = table.seed(before)
    with unchanged(table, mid):
        page = table.rejected(table.finish(mid, 2, 70, last=A, htmx=htmx, editing=True), htmx)
    assert any("Nothing was saved: after this change, a later hand no longer fits. Hand 3: A "
               "decider hand follows only a tie of 501 or more (rule 7.4)" in e
               for e in page.errors), page.errors
    assert page.value("finish-pile") == "70"               # what was typed is kept
    offered = ways(page)
    assert list(offered) == ["Save and remove hand 3", "Save and remove hands 3–4"]
    assert ("Remove hand 3: a decider hand records only who scored first, not the trump "
            "indicator and the piles an ordinary hand needs (rules 6.1, 7.4).") in page.text
    count = events(table, mid)

    page = table.done(choose(table, page, "Save and remove hand 3", htmx), htmx)
    # LATER keeps Tamás, who dealt it as hand 4 (Ágnes would be due after hand 2)
    assert table.hands(mid) == [*TIE_DEALT[:1], dealt_by(B, NO_TIE_2), dealt_by(B, LATER)]
    assert events(table, mid) == count + 1                 # one event for all of it
    assert ("Corrected with it: remove hand 3 (Undo takes all of it back)."
            in page.notices), page.notices
    # Tamás won the game at hand 2 (1 buli); hand 3 (was 4) then scores 80–81 from 0–0
    assert page.standings() == ((80, 81), (0, 1))
    assert "Undo: Hand 2 edited (hand finished), with correction: remove hand 3" in page.text

    page = table.done(table.undo(mid, htmx=htmx), htmx)
    assert table.hands(mid) == before
    assert page.standings() == ((80, 81), (0, 1))          # Tamás won the decider: 1 buli
    assert ("Undone: Hand 2 edited (hand finished), with correction: remove hand 3."
            in page.notices)


def test_removing_every_later_hand_instead(table: Table) -> None:
    mid = table.seed(TIE_HANDS + [decider(B), LATER])
    page = table.rejected(table.finish(mid, 2, 70, last=A, editing=True), False)
    page = table.done(choose(table, page, "Save and remove hands 3–4", False), False)
    assert table.hands(mid) == [*TIE_DEALT[:1], dealt_by(B, NO_TIE_2)]
    assert page.standings() == ((0, 0), (0, 1))


@HTMX
def test_deleting_the_decider_hand(table: Table, htmx: bool) -> None:
    """Without its decider the tie still stands, so hand 4, an ordinary hand, would follow
    it: it becomes the decider hand (the table says who scored first, 7.4.2), or goes."""
    before = TIE_HANDS + [decider(B), HAND_440_71]
    mid = table.seed(before)
    with unchanged(table, mid):
        page = table.rejected(table.delete(mid, 3, htmx=htmx), htmx)
    assert any("Hand 3 cannot be deleted alone: once it is gone, a later hand no longer fits. "
               "Hand 4: Both "
               "totals were equal at 536: this is a decider hand, with no claims; record who "
               "scored first (rule 7.4)" in e for e in page.errors), page.errors
    assert list(ways(page)) == [
        "Save and make hand 4 the decider hand, won by Ágnes, who scored first",
        "Save and make hand 4 the decider hand, won by Tamás, who scored first",
        "Save and remove hand 4",
    ]
    assert ("Make hand 4 the decider hand, won by Ágnes, who scored first: its tricks, béla "
            "and piles are dropped: a decider hand stops at the first score (rule 7.4)."
            in page.text)
    count = events(table, mid)
    page = table.done(choose(table, page, list(ways(page))[0], htmx), htmx)
    assert "Hand 3 deleted." in page.notices
    assert table.hands(mid) == TIE_DEALT + [      # hand 4 keeps Tamás, who dealt it
        {"dealer": B, "indicator": "7h", "exchange": None, "tricks": [], "bela": None,
         "end": {"kind": "decider", "first": A}}]
    assert page.standings() == ((0, 0), (1, 0))
    assert events(table, mid) == count + 1

    table.done(table.undo(mid, htmx=htmx), htmx)
    assert table.hands(mid) == before


@HTMX
def test_an_edit_that_creates_a_tie(table: Table, htmx: bool) -> None:
    """Hand 2 corrected to the tie at 536: hand 3 must now be the decider hand."""
    before = [TIE_HANDS[0], NO_TIE_2, LATER, LATER]
    mid = table.seed(before)
    with unchanged(table, mid):
        page = table.rejected(table.finish(mid, 2, 76, last=A, htmx=htmx, editing=True), htmx)
    assert any("after this change, a later hand no longer fits. Hand 3: Both totals were "
               "equal at 536"
               in e for e in page.errors), page.errors
    assert page.value("finish-pile") == "76"
    label = "Save and make hand 3 the decider hand, won by Tamás, who scored first"
    assert label in ways(page)
    page = table.done(choose(table, page, label, htmx), htmx)
    hands = table.hands(mid)
    assert hands[:2] == TIE_DEALT
    assert hands[2] == {"dealer": A, "indicator": "8h", "exchange": None, "tricks": [],
                        "bela": None, "end": {"kind": "decider", "first": B}}
    assert hands[3] == dealt_by(B, LATER)
    assert page.standings() == ((80, 81), (0, 1))
    table.done(table.undo(mid, htmx=htmx), htmx)
    assert table.hands(mid) == before


# A match to 5 buli: Ágnes wins 2 buli (maccs) in hands 2 and 4; after hand 6 she has 470,
# Tamás 71 + 121 + 10 = 202; hand 7 gives Tamás 151 + 10 (363); hand 8 is being played.
TO_530 = hand("8h", "", None, played((80, 71), A))         # 440 + 90 = 530; 71 + 71 = 142
MATCH_4 = [HAND_440_71, TO_530, HAND_440_71, TO_530, HAND_440_71,
           hand("8h", "", None, played((30, 121), B)), hand("8h", "", None, played((0, 151), B)),
           hand("9l")]


@HTMX
def test_an_edit_that_ends_the_match_earlier(table: Table, htmx: bool) -> None:
    """Hand 6 corrected to Ágnes's pile 80 and the last trick: 530 against 142, a maccs,
    and the match to 5 is over (7.5): hands 7 and 8 can only be removed."""
    mid = table.seed(MATCH_4)
    with unchanged(table, mid):
        page = table.rejected(table.finish(mid, 6, 80, last=A, htmx=htmx, editing=True), htmx)
    assert any("after this change, a later hand no longer fits. Hand 7: The match is over: "
               "Ágnes reached "
               "5 buli (rule 7.5)" in e for e in page.errors), page.errors
    assert list(ways(page)) == ["Save and remove hands 7–8"]
    page = table.done(choose(table, page, "Save and remove hands 7–8", htmx), htmx)
    assert table.hands(mid) == [dealt_by(n % 2, h) for n, h in enumerate(MATCH_4[:5] + [TO_530])]
    assert "Match over: Ágnes wins 6–0" in page.text
    table.done(table.undo(mid, htmx=htmx), htmx)
    assert table.hands(mid) == MATCH_4


def test_a_way_out_that_does_not_fit_saves_nothing(table: Table) -> None:
    """A way out is chosen by its key among those that fit what is stored and posted now: a
    forged or outdated one saves nothing and offers the ways that fit."""
    mid = table.seed(TIE_HANDS + [decider(B), LATER])
    with unchanged(table, mid):
        page = table.rejected(table.post(
            f"/m/{mid}/hands/2/finish?editing=1",
            {"finish-pile_player": "0", "finish-pile": "70", "finish-last": "0",
             "finish-stichmatsch": "", "resolve": "decider-0"}, prefix="finish"), False)
    assert list(ways(page)) == ["Save and remove hand 3", "Save and remove hands 3–4"]


def test_a_problem_in_the_changed_hand_itself_offers_no_way_out(table: Table) -> None:
    """Only later hands are corrected with a change: a decider entered where none is due is
    refused as before (7.4), with nothing to choose."""
    mid = table.seed([HAND_440_71])
    with unchanged(table, mid):
        page = table.rejected(table.decider(mid, 2, A), False)
    assert any("A decider hand follows only a tie of 501 or more" in e for e in page.errors)
    assert 'class="corrections' not in page.html


# ---------------------------------------------------------------------------------------------
# Marjolet: one game to 500; the end reached earlier leaves later deals after it


@HTMX
def test_marjolet_game_ends_earlier(game: Marjolet, htmx: bool) -> None:
    """Deal 2 corrected: Anne takes 80 in brisques, trick 10 and the last trick: 330 + 240
    = 570, the game is over (500 reached) and deal 3 comes after its end."""
    before = [SEED_1, SEED_2, DEAL_3A]
    mid = game.seed_game(before)
    with unchanged(game, mid):
        page = game.rejected(game.finish_deal(mid, 2, 80, player=A, trick10=A, last=A,
                                              htmx=htmx, editing=True), htmx)
    assert any("after this change, a later deal no longer fits. Deal 3: The game is over" in e
               for e in page.errors), page.errors
    assert list(ways(page)) == ["Save and remove deal 3"]
    page = game.done(choose(game, page, "Save and remove deal 3", htmx), htmx)
    assert len(game.hands(mid)) == 2
    game.done(game.undo(mid, htmx=htmx), htmx)
    assert game.hands(mid) == before


@HTMX
def test_restoring_a_decider_hand(table: Table, htmx: bool) -> None:
    """The decider hand 3 deleted, with hand 4 made the decider won by Tamás; then hand 3
    restored from the history: hand 4 no longer follows a tie and, being a decider hand, can
    only be removed (rules 6.1, 7.4)."""
    mid = table.seed(TIE_HANDS + [decider(A), LATER])
    page = table.rejected(table.delete(mid, 3), False)
    table.done(choose(table, page, "Save and make hand 4 the decider hand, won by Tamás, who "
                      "scored first", False), False)
    (restore,) = re.findall(rf'action="(/m/{mid}/changes/\d+/restore)"',
                            table.get(f"/m/{mid}").html)
    with unchanged(table, mid):
        page = table.rejected(table.post(restore, htmx=htmx), htmx)
    assert any("Hand 3 cannot be restored alone: once it is back, a later hand no longer fits. "
               "Hand 4: A "
               "decider hand follows only a tie of 501 or more (rule 7.4)" in e
               for e in page.errors), page.errors
    assert list(ways(page)) == ["Save and remove hand 4"]
    page = table.done(choose(table, page, "Save and remove hand 4", htmx), htmx)
    assert "Hand 3 restored." in page.notices
    assert table.hands(mid) == TIE_DEALT + [dealt_by(A, decider(A))]
    assert page.standings() == ((0, 0), (1, 0))


def test_a_correction_that_leads_to_another(table: Table) -> None:
    """Hand 2 corrected to the tie at 536: hand 3 becomes the decider hand, so its 80–81 no
    longer count; hands 4 and 5 then make a new tie at 536 (450–461, then 86–75), and hand
    6 must be a decider hand too. Each way is offered whole, the plain removal included."""
    before = [TIE_HANDS[0], NO_TIE_2, LATER, TIE_HANDS[0], TIE_HANDS[1], LATER]
    mid = table.seed(before)
    with unchanged(table, mid):
        page = table.rejected(table.finish(mid, 2, 76, last=A, editing=True), False)
    offered = ways(page)
    both = ("Save and make hand 3 the decider hand, won by Ágnes, who scored first and make "
            "hand 6 the decider hand, won by Tamás, who scored first")
    assert both in offered, list(offered)
    assert "Save and make hand 3 the decider hand, won by Ágnes, who scored first and remove "\
        "hand 6" in offered
    assert list(offered)[-1] == "Save and remove hands 3–6"
    assert len(offered) == 7
    assert ("Then Hand 6: Both totals were equal at 536: this is a decider hand, with no "
            "claims; record who scored first (rule 7.4); so make hand 6 the decider hand, won "
            "by Tamás, who scored first") in " ".join(page.text.split())
    page = table.done(choose(table, page, both, False), False)
    hands = table.hands(mid)
    assert [h["end"]["kind"] for h in hands] == ["played", "played", "decider", "played",
                                                  "played", "decider"]
    assert [hands[2]["end"]["first"], hands[5]["end"]["first"]] == [A, B]
    assert page.standings() == ((0, 0), (1, 1))
    table.done(table.undo(mid), False)
    assert table.hands(mid) == before


@HTMX
def test_stovkahra_series_ends_earlier(series: Series, htmx: bool) -> None:
    """A series to 1 game: North's three aces, forgotten in deal 1, make NS win the game in
    deal 2, which ends the series (7.3.2): deal 3 is after its end and can only go. (NS's
    "add" is recorded on deal 2, as it would be once they chose: an open choice keeps a series
    from ending, 7.3.1.)"""
    add_ns = deal(end=THREE_TO_A_GAME[1]["end"], sticks="add", sticks_by=0)
    mid = series.seed_series([THREE_TO_A_GAME[0], add_ns, THREE_TO_A_GAME[2]], target=1)
    before = series.hands(mid)
    with unchanged(series, mid):
        page = series.rejected(series.declare(mid, 1, N, rank="A", count=3, htmx=htmx,
                                              editing=True), htmx)
    assert any("after this change, a later deal no longer fits. Deal 3: The series is over"
               in e for e in page.errors), page.errors
    assert page.selected("combination-rank") == ["A"]           # what was typed is kept
    assert list(ways(page)) == ["Save and remove deal 3"]
    page = series.done(choose(series, page, "Save and remove deal 3", htmx), htmx)
    assert series.hands(mid)[2:] == []
    assert len(series.hands(mid)[0]["combinations"]) == len(before[0]["combinations"]) + 1
    series.done(series.undo(mid, htmx=htmx), htmx)
    assert series.hands(mid) == before


@HTMX
def test_a_way_out_offered_before_another_phone_changed_the_match_is_offered_again(
    table: Table, htmx: bool,
) -> None:
    """The ways were worked out on the match as it was; another phone then starts hand 5.
    Pressing "remove hands 3–4" would now remove hand 5 too: nothing is saved, and the ways
    are offered again for the match as it is now."""
    mid = table.seed(TIE_HANDS + [decider(B), LATER])
    page = table.rejected(table.finish(mid, 2, 70, last=A, htmx=htmx, editing=True), htmx)
    assert "Save and remove hands 3–4" in ways(page)
    assert table.indicator(mid, 5, "9h").status == 302             # the other phone
    stored = table.hands(mid)
    with unchanged(table, mid):
        page = table.rejected(choose(table, page, "Save and remove hands 3–4", htmx), htmx)
    assert table.hands(mid) == stored
    assert any("changed on another device since the ways to correct the later hands were "
               "offered, so nothing was saved" in e for e in page.errors), page.errors
    assert list(ways(page)) == ["Save and remove hand 3", "Save and remove hands 3–5"]
    page = table.done(choose(table, page, "Save and remove hands 3–5", htmx), htmx)
    assert len(table.hands(mid)) == 2
