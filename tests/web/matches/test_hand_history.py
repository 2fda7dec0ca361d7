"""The match page's hand history stays the same size however long the match (issue 12): a
compact scoresheet row per hand (who dealt, each player's points and total after the hand, by
name), the latest hands on the match page and the older ones a page at a time ("Earlier
hands"), a hand's explanation loaded on demand; without JavaScript each is a page of its own."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from flask import Flask
from webtools import HAND_440_71, NAMES, Page, Table

from referee.engine.games.base import MatchResult
from referee.engine.games.troggu import GAME as TROGGU
from referee.numbers import number, signed
from referee.web.matches.history import PAGE
from tests.bench.long_match import troggu_file

HANDS = 60                   # three pages of the history


def troggu(app: Flask, hands: int) -> tuple[str, str, MatchResult]:
    """A Troggu match of ``hands`` hands stored as the app stores it: (edit token, view token,
    its scores)."""
    data = troggu_file(hands)
    settings = TROGGU.settings(data["settings"])
    facts = TROGGU.complete(settings, [TROGGU.canonical_hand(h) for h in data["hands"]])
    store = app.extensions["referee.store"]
    mid = str(store.create("troggu", settings, facts))
    stored = store.load(mid)
    assert stored is not None
    return mid, stored.view_token, TROGGU.score(settings, facts)


def rows(page: Page) -> list[int]:
    """The numbers of the hands whose rows the page shows, in order."""
    return [int(n) for n in re.findall(r'<li class="hand[^"]*" id="hand-(\d+)"', page.html)]


def earlier(page: Page) -> str | None:
    found = re.search(r'<li class="earlier"[^>]*><a class="button" href="([^"]+)"', page.html)
    return found.group(1).replace("&amp;", "&") if found else None


def row_text(page: Page, number: int) -> str:
    found = re.search(r"<summary>(.*?)</summary>", page.html.split(f'id="hand-{number}"')[1],
                      re.DOTALL)
    assert found
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", found.group(1))).split())


# ---------------------------------------------------------------------------------------------
# The row: like the paper scoresheet, in words


def test_a_row_names_the_dealer_and_each_players_points_and_total(app: Flask,
                                                                   table: Table) -> None:
    mid, _, result = troggu(app, 6)
    page = table.get(f"/m/{mid}")
    names = ["Anna", "Beat", "Carla", "Dario"]
    for hand in result.hands:
        sides = " ".join(f"{name} {signed(points)} total {number(total)}"
                         for name, points, total in zip(names, hand.scores, hand.totals_after,
                                                        strict=True))
        assert row_text(page, hand.number) == (
            f"#{hand.number} {names[hand.dealer]} deals {sides} {hand.summary}")


def test_a_row_says_its_totals_in_words_not_notation(table: Table) -> None:
    mid = table.seed([HAND_440_71])
    text = row_text(table.get(f"/m/{mid}"), 1)
    assert text == "#1 Ágnes deals Ágnes +440 total 440 Tamás +71 total 71 no one reached 501"
    assert "→" not in text and " : " not in text


# ---------------------------------------------------------------------------------------------
# A hand's explanation on demand


def test_the_match_page_leaves_the_explanations_to_their_route(table: Table) -> None:
    mid = table.seed([HAND_440_71])
    page = table.get(f"/m/{mid}")
    assert "Four Nines" not in page.text
    url = f"/m/{mid}/explained/1"
    assert f'hx-get="{url}"' in page.html and f'href="{url}"' in page.html
    part = table.get(url, htmx=True)
    assert part.status == 200 and part.html.lstrip().startswith('<ul class="lines">')
    assert "Four Nines" in part.text and "§" in part.text
    assert "Edit" not in part.text and "<html" not in part.html


def test_without_javascript_a_hands_explanation_is_a_page_with_edit_and_delete(
        table: Table) -> None:
    mid = table.seed([HAND_440_71])
    page = table.get(f"/m/{mid}/explained/1")
    assert page.is_full_page and "Four Nines" in page.text
    assert f'href="/m/{mid}/hands/1"' in page.html                     # Edit
    assert f'action="/m/{mid}/hands/1/delete"' in page.html            # Delete asks first
    assert f'href="/m/{mid}#hand-1"' in page.html                      # back to the hand
    assert "hx-disable" in page.html            # plain links and forms: no #live to swap


def test_a_view_link_shows_the_explanation_without_edit_or_delete(app: Flask,
                                                                  table: Table) -> None:
    mid = table.seed([HAND_440_71])
    view = app.extensions["referee.store"].load(mid).view_token
    for htmx in (True, False):
        page = table.get(f"/m/{view}/explained/1", htmx=htmx)
        assert page.status == 200 and "Four Nines" in page.text
        assert "Edit" not in page.text and "Delete" not in page.text
        assert mid not in page.html
    assert "Delete" not in table.get(f"/m/{view}").text
    assert table.get(f"/m/{view}/hands/1/delete").status == 403
    assert table.post(f"/m/{view}/hands/1/delete").status == 403
    assert len(table.hands(mid)) == 1


@pytest.mark.parametrize("htmx", [True, False])
def test_the_explanation_route_knows_only_its_own_matchs_hands(app: Flask, table: Table,
                                                               htmx: bool) -> None:
    long, _, _ = troggu(app, 6)
    short = table.seed([HAND_440_71])
    assert table.get(f"/m/{long}/explained/6", htmx=htmx).status == 200
    for url in (f"/m/{short}/explained/6", f"/m/{short}/explained/2",
                f"/m/{short}/explained/0", "/m/nosuchmatch/explained/1"):
        assert table.get(url, htmx=htmx).status == 404, url


def test_the_hand_in_progress_is_explained_too(table: Table) -> None:
    from webtools import hand

    mid = table.seed([HAND_440_71, hand("8h", "1")])
    page = table.get(f"/m/{mid}")
    assert rows(page) == [1, 2] and 'class="hand draft" id="hand-2"' in page.html
    assert table.get(f"/m/{mid}/explained/2", htmx=True).status == 200
    assert table.get(f"/m/{mid}/explained/3", htmx=True).status == 404


# ---------------------------------------------------------------------------------------------
# The history paged


def test_the_match_page_shows_the_latest_hands_and_earlier_ones_a_page_at_a_time(
        app: Flask, table: Table) -> None:
    mid, _, _ = troggu(app, HANDS)
    page = table.get(f"/m/{mid}")
    assert rows(page) == list(range(HANDS - PAGE + 1, HANDS + 1))
    assert "hand-1" not in page.ids and "hand-40" not in page.ids
    assert earlier(page) == f"/m/{mid}/history?before=41"
    assert "Earlier hands (21 to 40)" in page.text
    # with htmx: the rows alone, in place of the link (with the next link first)
    part = table.get(f"/m/{mid}/history?before=41", htmx=True)
    assert rows(part) == list(range(21, 41)) and "<html" not in part.html
    assert earlier(part) == f"/m/{mid}/history?before=21"
    part = table.get(f"/m/{mid}/history?before=21", htmx=True)
    assert rows(part) == list(range(1, 21)) and earlier(part) is None


def test_hand_1_of_a_long_match_is_only_on_the_oldest_page(app: Flask, table: Table) -> None:
    mid, view, _ = troggu(app, HANDS)
    for token in (mid, view):
        assert "hand-1" not in table.get(f"/m/{token}").ids
        assert "hand-1" not in table.get(f"/m/{token}/live", htmx=True).ids     # the poll's too
        assert "hand-1" not in table.get(f"/m/{token}/history?before=41").ids
        assert "hand-1" in table.get(f"/m/{token}/history?before=21").ids


def test_without_javascript_every_hand_is_reached_by_links(app: Flask, table: Table) -> None:
    """From the match page, "Earlier hands" down to hand 1, its explanation, its Edit and
    Delete; "Later hands" back up, then the match page."""
    mid, _, result = troggu(app, HANDS)
    page = table.get(f"/m/{mid}")
    seen = set(rows(page))
    while (url := earlier(page)) is not None:
        page = table.get(url)
        assert page.is_full_page and page.status == 200
        seen |= set(rows(page))
    assert seen == set(range(1, HANDS + 1))
    link = re.search(rf'href="(/m/{mid}/explained/1)"', page.html)
    assert link
    hand = table.get(link.group(1))
    assert hand.is_full_page and f"§{result.hands[0].lines[0].rule}" in hand.text
    assert f'href="/m/{mid}/hands/1"' in hand.html
    assert f'href="/m/{mid}/history?before=21#hand-1"' in hand.html         # back to its page
    # the Delete's question, and Keep it back to the hand where it is in the history
    confirm = table.get(f"/m/{mid}/hands/1/delete")
    assert f'href="/m/{mid}/history?before=21#hand-1"' in confirm.html
    later = re.search(r'href="([^"]+)">Later hands', page.html)
    assert later and later.group(1).replace("&amp;", "&") == f"/m/{mid}/history?before=41"
    last = table.get(f"/m/{mid}/history?before=41")
    assert rows(last) == list(range(21, 41))
    assert f'href="/m/{mid}#history"' in last.html and "Later hands" not in last.text


def test_an_older_page_holds_no_more_than_its_hands(app: Flask, table: Table) -> None:
    mid, _, _ = troggu(app, 5)
    assert rows(table.get(f"/m/{mid}")) == [1, 2, 3, 4, 5]
    page = table.get(f"/m/{mid}/history")
    assert page.status == 200 and rows(page) == []
    assert "No earlier hands" in page.text
    for before in ("0", "-3", "9999", "x"):
        page = table.get(f"/m/{mid}/history?before={before}")
        assert page.status == 200 and rows(page) == [], before


def test_the_match_page_is_as_long_at_60_hands_as_at_20(app: Flask, table: Table) -> None:
    sizes: dict[int, Any] = {}
    for hands in (PAGE, HANDS):
        mid, _, _ = troggu(app, hands)
        page = table.get(f"/m/{mid}")
        assert len(rows(page)) == PAGE
        sizes[hands] = len(page.html)
    # the same rows (20), the same forms; an "Earlier hands" link more, longer numbers
    assert sizes[HANDS] < 1.1 * sizes[PAGE], sizes


def test_names_are_players_names(table: Table) -> None:
    mid = table.seed([HAND_440_71])
    assert all(name in row_text(table.get(f"/m/{mid}"), 1) for name in NAMES)
