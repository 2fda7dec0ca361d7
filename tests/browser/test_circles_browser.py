"""A circle on a phone (issue 13): made on the home page, a match started from its page with a
new player and one picked from its list, and the match listed on the circle's page; every tap
target at least 44 px, nothing wider than the screen."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from phone import WIDTH, served, touch_phone

from referee import create_app
from referee.engine import matchfile

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.browser
expect = playwright_api.expect
DATA = Path(__file__).parents[1] / "data"


def small_targets(page: Any) -> list[str]:
    """Visible buttons, button links, fields and selects under 44×44 px (a radio counts by its
    label row: tests/browser/test_nothing_small.py)."""
    return list(page.evaluate("""() => [...document.querySelectorAll(
            'main button, main a.button, main select, main summary, '
            + 'main input:not([type=hidden]):not([type=radio]):not([type=checkbox])')]
        .filter(el => el.getClientRects().length)
        .map(el => [el, el.getBoundingClientRect()])
        .filter(([, r]) => r.height < 43.99 || r.width < 43.99)
        .map(([el, r]) => `${el.tagName} ${el.name || el.textContent.trim().slice(0, 30)} `
                          + `${r.width.toFixed(0)}×${r.height.toFixed(0)}`)"""))


def test_a_circle_on_a_phone(chromium: Any, server: str) -> None:
    phone = touch_phone(chromium)
    phone.goto(server)
    phone.fill("#circle_name", "Family")
    phone.locator("button", has_text="New circle").tap()
    expect(phone.locator("h1")).to_have_text("Family")
    circle = phone.url
    assert not small_targets(phone), small_targets(phone)
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= WIDTH

    # a player of the circle, then a Tartli match: her picked from the list, a new name
    phone.fill("#player", "Anna")
    phone.locator("button", has_text="Add the player").tap()
    expect(phone.locator(".circle-players")).to_contain_text("Anna")
    phone.locator("#start a", has_text="Tartli").tap()
    phone.select_option("#who-0", label="Anna")
    phone.fill("#name-1", "Béla")
    assert not small_targets(phone), small_targets(phone)
    phone.locator("button", has_text="Start the match").tap()
    phone.wait_for_selector("#editor")
    expect(phone.locator("h1, .standings").first).to_contain_text("Anna")

    # the circle lists it (newest first), with both players, and links to its page
    phone.goto(circle)
    listed = phone.locator(".circle-matches li").first
    expect(listed).to_contain_text("Tartli: Anna – Béla")
    expect(phone.locator(".circle-players")).to_contain_text("Béla")
    listed.locator("a").tap()
    phone.wait_for_selector("#editor")


LONG = "Maximiliane-Josephine Rüdisühli"              # a long name, to wrap on a phone


@pytest.fixture
def club(tmp_path: Path) -> Iterator[str]:
    """A server whose circle holds a match of each game (tests/data), one player with a long
    name in three of them: the circle's address."""
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'club.sqlite3'}"})
    store = app.extensions["referee.circles"]
    token = store.create("Club")
    for name in ("tartli-complete", "stovkahra-series", "marjolet-game", "troggu-evening"):
        m = matchfile.load((DATA / f"{name}.json").read_bytes())
        names = [LONG if n in ("Zsófi", "Jana", "Anne", "Anna") else n
                 for n in m.settings["players"]]
        ids = {p.name: p.id for p in store.load(token).players}
        store.start_match(token, m.game, dict(m.settings, players=names),
                          [ids.get(n, n) for n in names], m.hands,
                          datetime.fromisoformat(m.created + "T20:00"))
    with served(app) as address:
        yield f"{address}/c/{token}"


def test_a_circles_statistics_on_a_phone(chromium: Any, club: str) -> None:
    """From the circle's page (each player's results over time, a chart per game) to its
    statistics at 390 px: a section per game, each player's
    figures opened, a date range; nothing wider than the screen, every target 44 px, and the
    night colours when the phone asks for them."""
    phone = touch_phone(chromium)
    phone.goto(club)
    for game in ("tartli", "stovkahra", "marjolet", "troggu"):     # each player over time
        phone.locator(f"#chart-{game} > summary").tap()
        expect(phone.locator(f"#chart-{game} svg.chart")).to_be_visible()
    assert not small_targets(phone), small_targets(phone)
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= WIDTH
    phone.locator("#statistics a", has_text="statistics").tap()
    expect(phone.locator("h1")).to_have_text("Statistics of Club")
    for game in ("tartli", "stovkahra", "marjolet", "troggu"):
        expect(phone.locator(f"#stats-{game} table.stats")).to_contain_text(LONG)
    for summary in phone.locator("details.player-figures > summary").all():
        summary.tap()
    expect(phone.locator("#stats-troggu details[open]").first).to_contain_text("Rappen in all")
    assert not small_targets(phone), small_targets(phone)
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= WIDTH
    phone.fill("#from", "2026-11-30")
    phone.fill("#to", "2026-11-30")
    phone.locator("button", has_text="Show these days").tap()
    expect(phone.locator("#counted")).to_contain_text("2 matches of these days")
    assert phone.locator("#stats-tartli").count() == 0
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= WIDTH
    phone.emulate_media(color_scheme="dark")
    background = phone.evaluate(
        "() => getComputedStyle(document.querySelector('#stats-troggu')).backgroundColor")
    assert background == "rgb(28, 33, 39)"                 # night.css's --panel


def test_the_ratings_leaderboard_on_a_phone(chromium: Any, club: str) -> None:
    """The statistics page's ratings at 390 px (issue 24): each rated game's leaderboard with
    the players' names (a long one wrapped) and their numbers, the chart opened, the matches in
    words; nothing wider than the screen, every target 44 px."""
    phone = touch_phone(chromium)
    phone.goto(club + "/statistics")
    board = phone.locator("#ratings-tartli table.leaderboard")
    expect(board).to_be_visible()
    rows = board.locator("tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text(LONG)                    # the winner first
    expect(rows.nth(0).locator("td").nth(1)).to_have_text("1138")
    expect(rows.nth(1)).to_contain_text("Gergő")
    expect(rows.nth(1).locator("td").nth(1)).to_have_text("927")
    expect(rows.nth(0)).to_contain_text("provisional")
    expect(phone.locator("#ratings-troggu table.leaderboard tbody tr")).to_have_count(4)
    assert phone.locator("#ratings-stovkahra").count() == 0      # its series is not over
    phone.locator("#rating-chart-tartli > summary").tap()
    expect(phone.locator("#rating-chart-tartli svg.chart")).to_be_visible()
    expect(phone.locator("#ratings-tartli .rating-lines li")).to_contain_text(
        f"{LONG} +138 after beating Gergő 5–0; Gergő −73")
    assert not small_targets(phone), small_targets(phone)
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= WIDTH
