"""A circle's statistics page and its hands as one CSV file (issue 13): the figures counted by
hand for a small circle (a Tartli match and a Stovkahra series, the hands of
tests/stats/test_stats_games.py), by the circle's names; the date range; an edited hand; and
who sees what. Every test runs on SQLite and PostgreSQL (``db_app``)."""

from __future__ import annotations

import csv
import io
import re
import sys
from datetime import datetime, time
from html import unescape
from pathlib import Path

import pytest
from flask import Flask
from webtools import Page

TESTS = Path(__file__).resolve().parents[2]
for folder in ("engine", "stats"):
    if str(TESTS / folder) not in sys.path:
        sys.path.insert(0, str(TESTS / folder))

import stovkahra_helpers as sk  # noqa: E402
from stats_helpers import canonical  # noqa: E402
from test_stats_games import (  # noqa: E402
    B_CLAIMS,
    BIG,
    CONTEST,
    EXAMPLE_1,
    EXAMPLE_2,
    EXAMPLE_3,
    WRONG_DOST,
    marjolet_game,
    troggu_evenings,
)

from referee.engine import matchfile  # noqa: E402
from referee.engine.games import get  # noqa: E402
from referee.stats import Played  # noqa: E402
from referee.web.store import Circles  # noqa: E402

TARTLI = get("tartli").settings({"players": ["Anna", "Bela"], "target": 5, "first_dealer": 1})
TARTLI_HANDS = canonical("tartli", TARTLI, [CONTEST, CONTEST, B_CLAIMS, BIG, BIG])
# The Stovkahra series of the statistics tests, Anna at North in Jana's place.
STOVKAHRA = sk.settings()
STOVKAHRA_HANDS = canonical("stovkahra", STOVKAHRA, [EXAMPLE_1, EXAMPLE_3, EXAMPLE_2,
                                                     WRONG_DOST])
TROGGU = matchfile.load((TESTS / "data" / "troggu-evening.json").read_bytes())


def _circles(app: Flask) -> Circles:
    found: Circles = app.extensions["referee.circles"]
    return found


def small_circle(app: Flask, name: str = "Family") -> tuple[str, dict[str, int], list[str]]:
    """A Tartli match of 28 November (Anna, Bela) and a Stovkahra series of 30 November (Anna
    and Eva North–South against Petr and Karel): the circle's token, its players' ids, the
    matches' ids (oldest first)."""
    store = _circles(app)
    token = store.create(name)
    tartli = store.start_match(token, "tartli", TARTLI, ["Anna", "Bela"], TARTLI_HANDS,
                               datetime(2026, 11, 28, 20))
    ids = {p.name: p.id for p in store.load(token).players}   # type: ignore[union-attr]
    stovkahra = store.start_match(token, "stovkahra", STOVKAHRA,
                                  [ids["Anna"], "Petr", "Eva", "Karel"], STOVKAHRA_HANDS,
                                  datetime(2026, 11, 30, 21))
    ids = {p.name: p.id for p in store.load(token).players}   # type: ignore[union-attr]
    return token, ids, [tartli, stovkahra]


def words(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def section(page: Page, game: str) -> str:
    """The words of a game's section of the statistics page."""
    assert f'id="stats-{game}"' in page.html, game
    return words(page.html.split(f'id="stats-{game}"')[1].split("</section>")[0])


def test_the_statistics_of_a_small_circle_as_counted_by_hand(db_app: Flask) -> None:
    """Tartli (5 hands, target 5, not over): Anna 258 + 258 + 25 + 450 + 450 = 1441 points,
    Bela 213 + 213 + 30 + 51 + 51 = 558; Anna 6 sets (K and A-sequence twice, then Overs and
    Aces twice), 2 sequences, 2 contests won, 4 bélas, 4 buli, 1 maccs; Bela 4 sets (Unders
    and Nines twice), 1 501 claim wrong. Stovkahra (4 deals, not over): Anna and Eva 90 + 12 +
    53 + 0 = 155, Petr and Karel 44 + 11 + 97 + 0 = 152; Anna three Aces (30), Petr three
    Kings (6), Eva three Sevens (10); sevens North–South 2, East–West 1; Anna's dost right,
    Petr's wrong; North–South 2 games, 3 matchsticks."""
    token, _, _ = small_circle(db_app)
    client = db_app.test_client()
    page = Page.of(client.get(f"/c/{token}/statistics"))
    assert page.status == 200
    assert page.response.headers["Cache-Control"] == "no-store"
    assert "2 matches" in page.text
    tartli = section(page, "tartli")
    assert "1 match, 0 finished, 5 hands" in tartli
    #                          played won rate  average
    assert ("Anna 1 0 — 288.2 points a hand" in tartli
            and "Bela 1 0 — 111.6 points a hand" in tartli)      # no match finished: no rate
    assert ("Anna Sets declared 6 Sequences declared 2 Meld contests won 2 Bélas 4 "
            "501 claims right 0 501 claims wrong 0 Buli won 4 Maccs (2 buli at once) 1") in tartli
    assert ("Bela Sets declared 4 Sequences declared 0 Meld contests won 0 Bélas 0 "
            "501 claims right 0 501 claims wrong 1 Buli won 0 Maccs (2 buli at once) 0") in tartli
    assert ("Head to head Anna 0 – 0 Bela: matches won of 1; points 1441 – 558 in 5 hands"
            in tartli)
    assert "Partners" not in tartli
    stovkahra = section(page, "stovkahra")
    assert "1 match, 0 finished, 4 deals" in stovkahra
    for name, points in (("Anna", "38.8"), ("Eva", "38.8"), ("Karel", "38.0"),
                         ("Petr", "38.0")):
        assert f"{name} 1 0 — {points} points a deal" in stovkahra
    for name, own in (("Anna", (1, 30, 2, 1, 0, 2, 3)), ("Eva", (1, 10, 2, 0, 0, 2, 3)),
                      ("Petr", (1, 6, 1, 0, 1, 0, 0)), ("Karel", (0, 0, 1, 0, 0, 0, 0))):
        assert (f"{name} Combinations declared {own[0]} Points of combinations {own[1]} "
                f"Tricks won with a seven (by the team) {own[2]} Dosts called right {own[3]} "
                f"Dosts called wrong {own[4]} Games won (by the team) {own[5]} "
                f"Matchsticks (by the team) {own[6]}") in stovkahra, name
    assert ("Partners Anna & Eva: 1 match, 0 won; 2 games won, 3 matchsticks; 155 points in "
            "4 deals Karel & Petr: 1 match, 0 won; 0 games won, 0 matchsticks; 152 points in "
            "4 deals") in stovkahra
    assert "Head to head" not in stovkahra
    assert ("By team EW: 0 games won, 0 matchsticks, 1 seven NS: 2 games won, 3 matchsticks, "
            "2 sevens") in stovkahra
    # the page shows the circle's names, never its player ids
    assert not re.search(r"<(th|summary|li)[^>]*>\s*\d+\s*<", page.html)
    circle = Page.of(client.get(f"/c/{token}"))
    assert f'href="/c/{token}/statistics"' in circle.html
    assert f'href="/c/{token}/hands.csv" download' in circle.html


@pytest.mark.parametrize(("since", "until", "shown", "hidden"), [
    ("2026-11-29", "", "stovkahra", "tartli"),
    ("", "2026-11-28", "tartli", "stovkahra"),
    ("2026-11-28", "2026-11-28", "tartli", "stovkahra"),
])
def test_the_date_range_keeps_the_matches_of_those_days(
        db_app: Flask, since: str, until: str, shown: str, hidden: str) -> None:
    token, _, _ = small_circle(db_app)
    page = Page.of(db_app.test_client().get(
        f"/c/{token}/statistics", query_string={"from": since, "to": until}))
    assert page.status == 200
    assert f'id="stats-{shown}"' in page.html and f'id="stats-{hidden}"' not in page.html
    assert "1 match of these days" in page.text
    assert ("from", since) in [(i.get("name"), i.get("value")) for i in page.inputs]
    empty = Page.of(db_app.test_client().get(
        f"/c/{token}/statistics", query_string={"from": "2026-12-01"}))
    assert empty.status == 200 and "No matches to count on these days" in empty.text


@pytest.mark.parametrize(("since", "until", "says"), [
    ("30.11.2026", "", "The first day must be a day written as year-month-day, such as "
                       "2026-11-30, not “30.11.2026”"),
    ("", "2026-02-30", "The last day must be a day written as year-month-day"),
    ("2026-12-01", "2026-11-01", "The first day comes after the last day"),
    ("x" * 5000, "\x00", "The first day must be"),
    ("2026-11-30T20:00", "", "The first day must be"),
])
def test_a_bad_date_says_so_and_keeps_what_was_typed(
        db_app: Flask, since: str, until: str, says: str) -> None:
    token, _, _ = small_circle(db_app)
    page = Page.of(db_app.test_client().get(
        f"/c/{token}/statistics", query_string={"from": since, "to": until}))
    assert page.status == 422
    assert any(says in e for e in page.errors), page.errors
    assert ("from", since[:40]) in [(i.get("name"), i.get("value")) for i in page.inputs]
    assert 'id="stats-' not in page.html


def test_an_edited_hand_changes_the_statistics_at_once(db_app: Flask) -> None:
    """The Tartli match's last hand (BIG: 2 sets, a béla, the maccs) taken out: Anna 4 sets,
    3 bélas, 2 buli, no maccs, 991 points in 4 hands; Bela 507."""
    token, _, (tartli, _) = small_circle(db_app)
    client = db_app.test_client()
    before = section(Page.of(client.get(f"/c/{token}/statistics")), "tartli")
    assert "Anna Sets declared 6" in before
    db_app.extensions["referee.store"].save_hands(tartli, TARTLI_HANDS, TARTLI_HANDS[:4],
                                                  "Hand 5 deleted")
    after = section(Page.of(client.get(f"/c/{token}/statistics")), "tartli")
    assert "1 match, 0 finished, 4 hands" in after
    assert "Anna 1 0 — 247.8 points a hand" in after            # 991 / 4
    assert ("Anna Sets declared 4 Sequences declared 2 Meld contests won 2 Bélas 3 "
            "501 claims right 0 501 claims wrong 0 Buli won 2 Maccs (2 buli at once) 0") in after
    assert "points 991 – 507" in after


def _csv(body: bytes) -> list[list[str]]:
    assert body.startswith("\ufeff".encode())
    return list(csv.reader(io.StringIO(body.decode("utf-8-sig"), newline="")))


def test_every_hand_of_the_circle_as_one_csv(db_app: Flask) -> None:
    """Oldest match first, each hand row led by its match's day, game and players; the Troggu
    match's four sides widen the file, the two-sided matches' rows leave those cells empty."""
    token, ids, _ = small_circle(db_app)
    _circles(db_app).start_match(token, "troggu", TROGGU.settings,
                                 [ids["Anna"], ids["Bela"], ids["Eva"], ids["Petr"]],
                                 TROGGU.hands, datetime(2026, 12, 1, 20))
    response = db_app.test_client().get(f"/c/{token}/hands.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    assert response.headers["Content-Disposition"].startswith("attachment; filename=")
    assert response.headers["Cache-Control"] == "no-store"
    rows = _csv(response.data)
    assert rows[0] == ["Date", "Game", "Players", "Hand", "Dealer",
                       *[f"Side {n}{what}" for n in range(1, 5)
                         for what in ("", " score", " total")], "Summary"]
    assert {len(row) for row in rows} == {18}
    games = [row[1] for row in rows[1:]]
    troggu = len(get("troggu").score(TROGGU.settings, TROGGU.hands).hands)
    assert games == ["Tartli"] * 5 + ["Stovkahra"] * 4 + ["Troggu"] * troggu
    first = rows[1]
    assert first[:11] == ["2026-11-28", "Tartli", "Anna – Bela", "1", "Bela",
                          "Anna", "258", "258", "Bela", "213", "213"]
    assert first[11:17] == [""] * 6
    deal = rows[6]
    assert deal[:11] == ["2026-11-30", "Stovkahra", "North – East – South – West", "1",
                         deal[4], "NS", "90", "90", "EW", "44", "44"]
    assert rows[-1][0] == "2026-12-01" and rows[-1][2] == " – ".join(
        TROGGU.settings["players"])
    # each match's sides' totals end at its standing
    tartli = get("tartli").score(TARTLI, TARTLI_HANDS).hands[-1].totals_after
    assert (int(rows[5][7]), int(rows[5][10])) == tuple(tartli)


def test_another_circle_sees_only_its_own(db_app: Flask) -> None:
    token, _, _ = small_circle(db_app)
    store = _circles(db_app)
    other = store.create("Neighbours")
    store.start_match(other, "tartli", dict(TARTLI, players=["Nina", "Otto"]), ["Nina", "Otto"],
                      TARTLI_HANDS, datetime(2026, 11, 28, 20))
    client = db_app.test_client()
    mine = Page.of(client.get(f"/c/{token}/statistics"))
    theirs = Page.of(client.get(f"/c/{other}/statistics"))
    assert "Nina" not in mine.text and "Otto" not in mine.text and other not in mine.html
    assert "Anna" not in theirs.text and "Bela" not in theirs.text and token not in theirs.html
    assert "Nina 1 0 — 288.2 points a hand" in section(theirs, "tartli")
    body = client.get(f"/c/{token}/hands.csv").get_data(as_text=True)
    assert "Nina" not in body
    for bad in ("A" * 22, token[:-1], token + "x", "..", "x" * 500):
        assert client.get(f"/c/{bad}/statistics").status_code == 404
        assert client.get(f"/c/{bad}/hands.csv").status_code == 404


def seat_all(app: Flask, token: str, games: list[Played]) -> None:
    """Store these matches in the circle, each name its player (a new one joins the list)."""
    store = _circles(app)
    for played in games:
        circle = store.load(token)
        assert circle is not None
        ids = {p.name: p.id for p in circle.players}
        store.start_match(token, played.game, played.settings,
                          [ids.get(name, name) for name in played.people], played.hands,
                          datetime.combine(played.created, time(20)))


def test_marjolet_and_troggu_figures_as_counted_by_hand(db_app: Flask) -> None:
    """The Marjolet game and the two Troggu evenings of the statistics tests: Anne wins the
    game 537 to 270 in 4 deals (two four Kings, two plain marriages, a turned-up and two
    exchanged trump sevens, a sweep; Bruno two trump marjolets, a trump seven played). Troggu:
    Anna −30 on 30 November (−110 + 80), −10 on 1 December: 40 Rappen lost; Beat +10 and +30;
    Anna declared a normal game (lost) and a Solo (won), Beat two normal games (won)."""
    store = _circles(db_app)
    token = store.create("Club")
    seat_all(db_app, token, [marjolet_game(), *troggu_evenings()])
    client = db_app.test_client()
    page = Page.of(client.get(f"/c/{token}/statistics"))
    assert page.status == 200 and "4 matches" in page.text
    marjolet = section(page, "marjolet")
    assert ("Anne 1 1 100 % 134.2 points a deal" in marjolet
            and "Bruno 1 0 0 % 67.5 points a deal" in marjolet)
    assert ("Anne Melds 4 Four Kings 2 Plain marriages 2 Trump sevens turned up (as dealer) 1 "
            "Trump sevens exchanged 2 Trump sevens played 0 Sweeps 1") in marjolet
    assert ("Bruno Melds 2 Marjolets in trumps 2 Trump sevens turned up (as dealer) 0 "
            "Trump sevens exchanged 0 Trump sevens played 1 Sweeps 0") in marjolet
    assert "Anne 1 – 0 Bruno: matches won of 1; points 537 – 270 in 4 deals" in marjolet
    troggu = section(page, "troggu")
    assert "3 matches, 0 finished, 7 hands" in troggu
    assert "Win rate" not in troggu and "no winner" in troggu
    assert "Anna 3 −5.7" in troggu                               # −40 Rappen in 7 hands
    assert ("Anna Normal games played 4 Solos played 2 Misères played 1 "
            "Normal games won as declarer 0 of 1 Solos won as declarer 1 of 1 "
            "Rappen won (evenings ended up) 0 Rappen lost (evenings ended down) 40 "
            "Rappen in all −40 Evening of 2026-12-01 −10 Evening of 2026-11-30 −30") in troggu
    assert ("Normal games won as declarer 2 of 2 Rappen won (evenings ended up) 40 "
            "Rappen lost (evenings ended down) 0 Rappen in all +40 "
            "Evening of 2026-12-01 +30 Evening of 2026-11-30 +10") in troggu
    assert "The whole circle Normal games 4 Solos 2 Misères 1 Evenings 2" in troggu
    later = section(Page.of(client.get(f"/c/{token}/statistics?from=2026-12-01")), "troggu")
    assert "Rappen in all −10 Evening of 2026-12-01 −10 Beat" in later
    assert "2026-11-30" not in later


def test_a_match_that_no_longer_scores_is_said_not_counted(db_app: Flask) -> None:
    """A Tartli match to 1 buli is over after its second hand (CONTEST twice: 516 to 426,
    rule 7.1), so a third hand stored after it no longer scores: the statistics leave the
    match out and say so by its players' names; the CSV has one row that says so."""
    store = _circles(db_app)
    token = store.create("Family")
    settings = dict(TARTLI, target=1, players=["=Anna", "Bela"])
    store.start_match(token, "tartli", settings, ["=Anna", "Bela"],
                      canonical("tartli", TARTLI, [CONTEST, CONTEST, B_CLAIMS]),
                      datetime(2026, 11, 28, 20))
    client = db_app.test_client()
    page = Page.of(client.get(f"/c/{token}/statistics"))
    assert page.status == 200 and "0 matches" in page.text
    assert 'id="stats-tartli"' not in page.html
    skipped = words(page.html.split('id="not-counted"')[1].split("</section>")[0])
    assert "Tartli of 2026-11-28 (=Anna – Bela): Hand 3" in skipped, skipped
    rows = _csv(client.get(f"/c/{token}/hands.csv").data)
    assert len(rows) == 2
    assert rows[1][:5] == ["2026-11-28", "Tartli", "'=Anna – Bela", "", ""]  # no formula
    assert rows[1][-1].startswith("Its stored hands no longer score: Hand 3")


def _lines(html: str, game: str) -> dict[str, list[tuple[float, float]]]:
    """Each player's line of a game's chart on the circle's page: its points on the screen."""
    chart = html.split(f'id="chart-{game}"')[1].split("</details>")[0]
    return {unescape(label): [tuple(map(float, p.split(","))) for p in points.split()]  # type: ignore[misc]
            for label, points in re.findall(
                r'<g class="series[^"]*"[^>]*data-label="([^"]+)"><polyline points="([^"]+)"',
                chart)}


def test_each_players_results_over_time_on_the_circles_page(db_app: Flask) -> None:
    """Troggu on two days (tests/data/troggu-evening.json: −110, +50, +90, −30 by seat):
    Anna, Beat, Carla, Dario on 30 November, the other way round on 1 December. So far:
    Anna −110 then −110 − 30 = −140, Beat +50 then +140, Carla +90 then +140, Dario −30 then
    −140. Tartli (tests/data/tartli-complete.json): the winner's line ends at 1 match won."""
    store = _circles(db_app)
    token = store.create("Family")
    first = ["Anna", "Beat", "Carla", "Dario"]
    store.start_match(token, "troggu", TROGGU.settings, first, TROGGU.hands,
                      datetime(2026, 11, 30, 20))
    ids = {p.name: p.id for p in store.load(token).players}   # type: ignore[union-attr]
    store.start_match(token, "troggu", dict(TROGGU.settings, players=first[::-1]),
                      [ids[n] for n in first[::-1]], TROGGU.hands, datetime(2026, 12, 1, 20))
    tartli = matchfile.load((TESTS / "data" / "tartli-complete.json").read_bytes())
    store.start_match(token, "tartli", tartli.settings, list(tartli.settings["players"]),
                      tartli.hands, datetime(2026, 12, 1, 21))
    page = Page.of(db_app.test_client().get(f"/c/{token}"))
    assert ("Troggu: Rappen won or lost by each player, day by day, 2026-11-30 to 2026-12-01: "
            "Anna −140, Beat +140, Carla +140, Dario −140") in unescape(page.html)
    lines = _lines(page.html, "troggu")
    assert list(lines) == first
    assert all(len(points) == 3 for points in lines.values())        # before, two days
    ends = {name: points[-1][1] for name, points in lines.items()}   # y on the screen
    assert ends["Anna"] == ends["Dario"] > ends["Beat"] == ends["Carla"]
    middles = {name: points[1][1] for name, points in lines.items()}
    assert middles["Anna"] > middles["Dario"] > middles["Beat"] > middles["Carla"]
    winner = tartli.settings["players"][
        get("tartli").score(tartli.settings, tartli.hands).standing.winner]
    assert "Tartli: matches won by each player, day by day, 2026-12-01: " in unescape(page.html)
    assert f"{winner} 1" in unescape(page.html.split('id="chart-tartli"')[1].split("</svg>")[0])
