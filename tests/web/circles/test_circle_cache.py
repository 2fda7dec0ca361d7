"""A circle's pages from its matches folded once per version (issue 24, referee/web/circles/
derived.py): a hand entered (through this app or another on the same database: another
server process) is counted at the next view, folding only its match again; the list of
matches a page at a time; the CSV sent as it is made, the same bytes as the whole file; the
kept circles bounded; a database made before the circle's version upgraded."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any

import pytest
from flask import Flask
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import inspect, text
from webtools import Page

from referee import create_app
from referee.stats import statistics
from referee.stats.circlecsv import circle_csv
from referee.web.circles import derived as derived_module
from referee.web.circles.derived import CircleCache
from referee.web.circles.stats import circle_played
from referee.web.languages import say
from referee.web.store import Store
from tests.web.circles.test_circle_stats import (
    TARTLI,
    TARTLI_HANDS,
    TROGGU,
    _circles,
    section,
    small_circle,
)


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The ids of the matches folded from now on (each call of ``derived.summary``)."""
    folded: list[str] = []
    fold = derived_module.summary

    def counted(m: Any) -> Any:
        folded.append(m.id)
        return fold(m)

    monkeypatch.setattr(derived_module, "summary", counted)
    return folded


def test_a_hand_entered_through_another_process_is_counted_folding_only_its_match(
        db_app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    token, ids, (tartli, stovkahra) = small_circle(db_app)
    store: Store = db_app.extensions["referee.store"]
    store.save_hands(tartli, TARTLI_HANDS, TARTLI_HANDS[:3], "Hands 4–5 taken out")
    folded = _counting(monkeypatch)
    client = db_app.test_client()
    assert "1 match, 0 finished, 3 hands" in section(
        Page.of(client.get(f"/c/{token}/statistics")), "tartli")
    assert sorted(folded) == sorted([tartli, stovkahra])
    client.get(f"/c/{token}")
    client.get(f"/c/{token}/statistics")
    assert len(folded) == 2                                    # kept: nothing folded again

    # another server process on the same database puts the hands back
    other = create_app({"TESTING": True, "DATABASE_URL": db_app.config["DATABASE_URL"]})
    other.extensions["referee.store"].save_hands(tartli, TARTLI_HANDS[:3], TARTLI_HANDS,
                                                 "Hands 4–5 entered")
    page = Page.of(client.get(f"/c/{token}/statistics"))
    assert "1 match, 0 finished, 5 hands" in section(page, "tartli")   # the hands counted
    assert folded[2:] == [tartli]                               # only the changed match

    # a player added changes the circle's version: seen, and nothing folded again
    other.extensions["referee.circles"].add_player(token, "Zoe")
    assert "Zoe" in Page.of(client.get(f"/c/{token}")).text
    assert folded[2:] == [tartli]
    other.extensions["referee.store"].engine.dispose()


def test_the_list_of_matches_shows_twenty_a_page_newest_first(db_app: Flask) -> None:
    circles = _circles(db_app)
    token = circles.create("Club")
    day = datetime(2026, 1, 1, 20)
    made = []
    for n in range(25):
        people = ["Anna", "Bela"] if n == 0 else [p.id for p in circles.load(token).players]
        made.append(circles.start_match(token, "tartli", TARTLI, people, TARTLI_HANDS[:n % 3],
                                        day + timedelta(days=n)))
    client = db_app.test_client()

    def listed(query: str = "") -> tuple[list[str], Page]:
        page = Page.of(client.get(f"/c/{token}{query}"))
        assert page.status == 200
        matches = page.html.split('id="matches"')[1].split("</section>")[0]
        return re.findall(r'href="/m/([^"]+)"', matches), page

    first, page = listed()
    assert first == made[::-1][:20]
    assert "Matches 1 to 20 of 25" in page.text
    assert f'href="/c/{token}?page=2#matches"' in page.html and "Newer matches" not in page.text
    second, page = listed("?page=2")
    assert second == made[::-1][20:]
    assert "Matches 21 to 25 of 25" in page.text
    assert f'href="/c/{token}#matches"' in page.html and "Older matches" not in page.text
    for bad, shown in (("?page=0", first), ("?page=x", first), ("?page=99999", second),
                       ("?page=" + "9" * 400, second), ("?page=-1", first),
                       ("?page=\u00b2", first), ("?page=\u0661", first)):   # digits, not ASCII
        assert listed(bad)[0] == shown, bad


def test_the_hands_csv_is_sent_as_it_is_made_with_the_bytes_of_the_whole_file(
        db_app: Flask) -> None:
    token, ids, _ = small_circle(db_app)
    # a match of four sides after the two-side and team matches: the widest comes last
    _circles(db_app).start_match(token, "troggu", TROGGU.settings,
                                 [ids["Anna"], ids["Bela"], ids["Eva"], ids["Petr"]],
                                 TROGGU.hands, datetime(2026, 12, 1, 20))
    for n in range(45):                      # more matches than the CSV reads at a time
        _circles(db_app).start_match(token, "tartli", TARTLI, [ids["Anna"], ids["Bela"]],
                                     TARTLI_HANDS[:n % 4], datetime(2026, 12, 2, 20))
    response = db_app.test_client().get(f"/c/{token}/hands.csv")
    assert response.status_code == 200 and response.is_streamed
    with db_app.test_request_context(f"/c/{token}/hands.csv"):
        found = _circles(db_app).load(token)
        assert found is not None
        whole = "\ufeff" + circle_csv(reversed(circle_played(found)),
                                      say=lambda t: str(say(t)))
    assert response.get_data() == whole.encode()


def test_the_kept_circles_are_bounded_in_circles_and_matches(app: Flask) -> None:
    circles = _circles(app)
    tokens = []
    for size in (3, 2, 2, 6):
        token = circles.create("Circle")
        tokens.append(token)
        for n in range(size):
            circles.start_match(token, "tartli", TARTLI, [f"A{n}", f"B{n}"], TARTLI_HANDS[:1])
    cache = CircleCache(circles=2, matches=5)
    with app.test_request_context("/"):
        for token in tokens[:3]:
            cache.derived(token)
            assert cache.held()[0] <= 2 and cache.held()[1] <= 5
        assert cache.held() == (2, 4)                 # the two latest: 2 + 2 matches
        big = cache.derived(tokens[3])
        assert big is not None and len(big.matches) == 6
        assert cache.held() == (1, 6)                 # larger than the bound: kept alone
        assert cache.derived("x" * 22) is None


def test_a_database_made_before_the_circles_version_is_upgraded(database_url: str) -> None:
    store = Store(database_url)
    with store.writing(None) as conn:
        conn.execute(text("ALTER TABLE circles DROP COLUMN version"))
        conn.execute(text("DROP INDEX ix_circle_matches_circle_match"))
        conn.execute(text("INSERT INTO circles (id, name, created) VALUES "
                          "('aaaaaaaaaaaaaaaaaaaaaa', 'Old', '2026-11-01 20:00:00')"))
    store.engine.dispose()
    app = create_app({"TESTING": True, "DATABASE_URL": database_url})
    circles = _circles(app)
    assert "ix_circle_matches_circle_match" in {
        i["name"] for i in inspect(circles.store.engine).get_indexes("circle_matches")}
    assert circles.version("aaaaaaaaaaaaaaaaaaaaaa") == (0, 0, 0, 0)
    circles.add_player("aaaaaaaaaaaaaaaaaaaaaa", "Anna")
    assert circles.version("aaaaaaaaaaaaaaaaaaaaaa") == (1, 0, 0, 0)
    assert "Anna" in Page.of(app.test_client().get("/c/aaaaaaaaaaaaaaaaaaaaaa")).text
    app.extensions["referee.store"].engine.dispose()


STEPS = st.lists(st.tuples(st.sampled_from(["start", "hands", "player", "view"]),
                           st.integers(0, 20)), min_size=1, max_size=8)


@settings(max_examples=12, deadline=None)
@given(steps=STEPS)
def test_the_kept_statistics_are_the_statistics_from_scratch_after_any_changes(
        tmp_path_factory: pytest.TempPathFactory, steps: list[tuple[str, int]]) -> None:
    """Matches started, hands taken out and put back, players added, the pages viewed in
    between (or not): the kept statistics and evenings are those folded from scratch."""
    folder = tmp_path_factory.mktemp("kept")
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{folder}/k.sqlite3"})
    circles, store = _circles(app), app.extensions["referee.store"]
    token = circles.create("Club")
    full: dict[str, list[dict[str, Any]]] = {}
    client = app.test_client()
    for step, n in steps:
        players = [p.id for p in circles.load(token).players]   # type: ignore[union-attr]
        if step == "start":
            settings_, hands = ((TARTLI, TARTLI_HANDS) if n % 2 else
                                (TROGGU.settings, TROGGU.hands))
            seats = len(settings_["players"])
            people: list[Any] = [*players[:seats]]
            people += [f"P{n}-{k}" for k in range(seats - len(people))]
            mid = circles.start_match(token, "tartli" if n % 2 else "troggu", settings_, people,
                                      hands[:n % (len(hands) + 1)],
                                      datetime(2026, 11, 28 + n % 3, 20))
            full[mid] = hands
        elif step == "hands" and full:
            mid = sorted(full)[n % len(full)]
            now = store.load(mid).hands
            store.save_hands(mid, now, full[mid][:n % (len(full[mid]) + 1)], "Hands changed")
        elif step == "player":
            if f"Q{n}" not in {p.name for p in circles.load(token).players}:  # type: ignore
                circles.add_player(token, f"Q{n}")
        else:
            assert client.get(f"/c/{token}").status_code == 200
            assert client.get(f"/c/{token}/statistics").status_code == 200
        with app.test_request_context(f"/c/{token}"):
            found = circles.load(token)
            assert found is not None
            kept = derived_module.derived(token)
            assert kept.statistics() == statistics(circle_played(found))
            for since in (None, date(2026, 11, 29)):
                assert kept.statistics(since) == statistics(circle_played(found), since=since)
            assert [(m.id, m.version) for m in kept.matches] == [
                (m.id, m.version) for m in circles.matches(token)]
    store.engine.dispose()
