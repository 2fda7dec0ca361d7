"""Where an action's answer lands (issue 11, items 2, 7 and 11): the top of the match page
(#outcome) says what the action did — the hand it scored, with a claim's or a dost's arithmetic,
every "what changed" notice — and announces the end of a game or of the match before the next
hand's editor; without JavaScript the redirect lands on #outcome (or, with nothing to tell, on
the editor where the action was made); with htmx the swap scrolls to #outcome. A delete asks
first: the history's Delete button posts with htmx after the browser's confirmation, and
without JavaScript opens a page that asks, changing nothing until the table confirms."""

from __future__ import annotations

import html
import re

import pytest
from flask import Flask
from webtools import (
    EXAMPLE_1,
    HAND_440_71,
    PLAIN_40_38,
    A,
    B,
    Page,
    Series,
    Table,
    claim,
    deal,
    hand,
)

HTMX = pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
TOP = "outerHTML show:#outcome:top"
CLAIMABLE = hand("8h", "0", {1: (["set:A"], [])})       # Ágnes won trick 1 with Four Aces
CLAIM_HAND = hand("8h", "0", {1: (["set:A"], [])}, claim(A, 1, (21, 0)))


def outcome(page: Page) -> str:
    """The text of the top of the page (#outcome)."""
    found = re.search(r'<div id="outcome"[^>]*>(.*?)</div>', page.html, re.S)  # no inner div
    assert found, page.html[:2000]
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", found.group(1))).split())


def before(page: Page, first: str, then: str) -> bool:
    """``first`` is in the page before ``then`` (or ``then`` is not there at all)."""
    at = page.html.find(first)
    return at >= 0 and (then not in page.html or at < page.html.index(then))


def landed(table: Table, response: Page, htmx: bool, where: str) -> Page:
    """The action's answer lands at ``where``: the redirect's anchor without JavaScript, the
    swap's scroll with htmx (none of its own for the editor: the form's ``show:#editor``)."""
    if htmx:
        assert response.status == 200, response.errors
        assert response.response.headers.get("HX-Reswap") == (TOP if where == "outcome" else None)
        return response
    assert response.status == 302, response.errors
    assert response.location is not None and response.location.endswith(f"#{where}")
    return table.follow(response)


# ---------------------------------------------------------------------------------------------
# A hand scored, a claim, a trick recorded


@HTMX
def test_a_claim_lands_on_its_verdict_with_the_arithmetic(table: Table, htmx: bool) -> None:
    """Rule 7.3.2: the claimant's count is the total, the melds and the piles; the top of the
    page shows it, not only the folded hand in the history."""
    mid = table.seed([HAND_440_71, CLAIMABLE])
    page = landed(table, table.claim(mid, 2, A, 1, (21, 0), htmx=htmx), htmx, "outcome")
    top = outcome(page)
    assert "Hand 2: Ágnes wins" in top
    assert "Ágnes's count: total 440 + melds 100 + piles 21 = 561" in top
    assert "Ágnes claims 501" in top
    assert "Game over after hand 2: Ágnes wins" in top and "Buli (to 5): Ágnes" in top
    assert before(page, 'id="outcome"', 'id="scoreboard"')
    assert before(page, 'id="outcome"', 'id="editor"')


@HTMX
def test_a_trick_recorded_lands_back_at_the_editor(table: Table, htmx: bool) -> None:
    """Nothing to tell at the top (the hand goes on): the answer stays where it was made."""
    mid = table.seed([HAND_440_71, hand("8h")])
    page = landed(table, table.trick(mid, 2, 1, ([], []), B, htmx=htmx), htmx, "editor")
    assert outcome(page) == ""


def test_a_hand_scored_is_told_once(table: Table) -> None:
    mid = table.seed([HAND_440_71, hand("8h")])
    page = landed(table, table.finish(mid, 2, 20, last=B), False, "outcome")
    assert "Hand 2: no one reached 501" in outcome(page)
    assert outcome(table.get(f"/m/{mid}")) == ""            # told once, like a notice


@HTMX
def test_an_edit_lands_on_what_it_changed(table: Table, htmx: bool) -> None:
    mid = table.seed([HAND_440_71, CLAIM_HAND])
    response = table.trick(mid, 1, 2, ([], []), B, htmx=htmx, editing=True)
    if not htmx:
        assert response.location == f"/m/{mid}/hands/1#outcome"
    page = landed(table, response, htmx, "outcome")
    top = outcome(page)
    assert "Hand 1:" in top and "Hand 2 now:" in top
    assert "Editing hand 1" in page.text


# ---------------------------------------------------------------------------------------------
# Delete (asked first), undo, restore


def test_the_history_asks_before_a_delete(table: Table) -> None:
    """The history's Delete posts only with htmx, after hx-confirm's question; without
    JavaScript the same button opens the page that asks (a GET)."""
    mid = table.seed([HAND_440_71, CLAIM_HAND])
    html = table.get(f"/m/{mid}").html
    form = re.search(r'<form method="get" action="/m/[\w-]+/hands/2/delete"[^>]*>', html)
    assert form, html
    assert f'hx-post="/m/{mid}/hands/2/delete?base=' in form.group(0)
    assert 'hx-confirm="Delete hand 2? Everything after it is recomputed."' in form.group(0)


def test_without_javascript_a_delete_asks_on_its_own_page(table: Table) -> None:
    mid = table.seed([HAND_440_71, CLAIM_HAND])
    before_hands = table.hands(mid)
    page = table.get(f"/m/{mid}/hands/2/delete")
    assert page.status == 200 and page.is_full_page
    assert "Delete hand 2?" in page.text and "Ágnes wins" in page.text
    assert table.hands(mid) == before_hands                 # asking changes nothing
    assert f'href="/m/{mid}#hand-2"' in page.html           # Keep it: back to the hand
    delete = re.search(rf'<form method="post" action="(/m/{mid}/hands/2/delete\?base=[^"]+)"',
                       page.html)
    assert delete, page.html
    response = table.post(delete.group(1).replace("&amp;", "&"))
    shown = landed(table, response, False, "outcome")
    assert "Hand 2 deleted." in outcome(shown)
    assert len(table.hands(mid)) == 1


def test_a_delete_page_for_a_hand_gone_meanwhile_says_so(table: Table) -> None:
    mid = table.seed([HAND_440_71])
    page = table.get(f"/m/{mid}/hands/2/delete")
    assert page.status == 302 and page.location == f"/m/{mid}#outcome"
    assert "Hand 2 no longer exists" in outcome(table.follow(page))
    assert len(table.hands(mid)) == 1


def test_the_view_link_cannot_ask_to_delete(app: Flask, table: Table) -> None:
    mid = table.seed([HAND_440_71])
    stored = app.extensions["referee.store"].load(mid)
    assert table.get(f"/m/{stored.view_token}/hands/1/delete").status == 403


@HTMX
def test_delete_undo_and_restore_land_on_their_notices(table: Table, htmx: bool) -> None:
    mid = table.seed([HAND_440_71, CLAIM_HAND])
    page = landed(table, table.delete(mid, 1, htmx=htmx), htmx, "outcome")
    assert "Hand 1 deleted." in outcome(page)
    page = landed(table, table.undo(mid, htmx=htmx), htmx, "outcome")
    assert "Undone: Hand 1 deleted." in outcome(page)
    table.done(table.delete(mid, 1, htmx=htmx), htmx)
    restore = re.search(rf'action="(/m/{mid}/changes/\d+/restore)"', table.get(f"/m/{mid}").html)
    assert restore
    page = landed(table, table.post(restore.group(1), htmx=htmx), htmx, "outcome")
    top = outcome(page)
    assert "Hand 1 restored." in top and "Hand 1: Ágnes 440" not in top
    assert "Hand 1: no one reached 501" in top               # the hand put back, as it scores


# ---------------------------------------------------------------------------------------------
# The end announced


def test_the_end_of_the_match_is_announced_at_the_top(table: Table) -> None:
    """Rule 7.1 of Tartli: the first to the buli target (5) wins the match: Ágnes's third
    right claim after 440 gives her 6 buli."""
    mid = table.seed([HAND_440_71, CLAIM_HAND] * 2 + [HAND_440_71, CLAIMABLE])
    page = landed(table, table.claim(mid, 6, A, 1, (21, 0)), False, "outcome")
    assert "Match over: Ágnes wins 6–0" in outcome(page)
    assert 'id="editor"' not in page.html
    again = table.get(f"/m/{mid}")                          # announced for good
    assert "Match over: Ágnes wins 6–0" in outcome(again)
    assert before(again, 'class="announce"', 'id="scoreboard"')


def test_a_game_over_is_announced_until_the_next_hand_begins(table: Table) -> None:
    mid = table.seed([HAND_440_71, CLAIM_HAND])
    page = table.get(f"/m/{mid}")
    assert "Game over after hand 2: Ágnes wins 2 buli" in outcome(page)
    assert before(page, 'class="announce"', 'id="editor"')
    table.done(table.indicator(mid, 3, "8h"), False)        # the next hand begins
    assert "Game over" not in outcome(table.get(f"/m/{mid}"))


def test_a_dost_and_the_winners_choice_are_asked_at_the_top(series: Series) -> None:
    """Rules 7.2.3–7.2.4 and 7.3.1: the dost's count at the top; the winners choose (add or
    take) before the next deal's editor; their choice lands on its outcome."""
    mid = series.seed_series([EXAMPLE_1, deal()])
    response = series.call_dost(mid, 2, 0, 2, points=(12, 11), tricks=(1, 1), trick_winner=0)
    page = landed(series, response, False, "outcome")
    top = outcome(page)
    assert "Jana & Eva's count: game score 90 + combinations 0 + card points 12" in top
    assert "Game over after deal 2: Jana & Eva win the game: 1 matchstick, not chosen yet" in top
    assert before(page, 'id="decisions"', 'id="editor"')
    assert before(page, 'id="decisions"', 'id="scoreboard"')
    page = landed(series, series.choose_sticks(mid, 2, "add"), False, "outcome")
    assert "Deal 2: Jana & Eva win the game: 1 matchstick, added" in outcome(page)


@HTMX
def test_a_refusal_is_told_at_the_top(table: Table, htmx: bool) -> None:
    """Rule 7.4: a decider hand only after a tie. Refused, and said before the scoreboard and
    the editor: a page without JavaScript opens on it (htmx scrolls to it)."""
    mid = table.seed([HAND_440_71])
    page = table.rejected(table.decider(mid, 2, A, htmx=htmx), htmx)
    assert any("A decider hand follows only a tie of 501 or more" in e for e in page.errors)
    assert before(page, 'id="rule-error"', 'id="scoreboard"')
    assert before(page, 'id="rule-error"', 'id="editor"')
    if htmx:
        assert page.response.headers["HX-Reswap"] == "outerHTML show:#rule-error:top"


def test_an_edit_lands_on_its_outcome_not_on_the_finish(series: Series) -> None:
    """An edited deal's page opens at its end (the finish takes the focus) when opened from
    the history's Edit link; after the edit is saved it opens at the top, where the outcome
    is, even when nothing further down changed."""
    mid = series.seed_series([PLAIN_40_38, PLAIN_40_38])
    assert "autofocus" in series.get(f"/m/{mid}/hands/2").html          # the Edit link
    response = series.finish_deal(mid, 2, 40, tricks=5, editing=True)
    page = landed(series, response, False, "outcome")
    assert "Deal 2: Jana & Eva 80, Petr & Karel 76" in outcome(page)
    assert page.notices == [] and "autofocus" not in page.html
