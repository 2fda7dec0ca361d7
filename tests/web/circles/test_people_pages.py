"""The pages of a circle's people (issue 24): a person's page with rename and merge, the
merge's confirmation, a match taken out of the circle, the circle's history with Undo; errors at
the field keeping what was typed; forged posts (another circle's player, match or change, no
CSRF token, a page older than another phone's change) refused with a clear 4xx, nothing
changed."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import datetime

import pytest
from flask import Flask
from flask.testing import FlaskClient
from webtools import Page

from tests.web.circles.test_people_store import all_rows as _rows
from tests.web.circles.test_people_store import circles_of as _circles

TARTLI = {"players": ["Anna", "Béla"], "target": 5, "first_dealer": 0}


def _words(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


@pytest.fixture
def club(app: Flask) -> tuple[str, dict[str, int], dict[str, str]]:
    """A circle: Anna and Béla played twice, "Anna B." and Béla once (its token, player ids,
    match ids)."""
    store = _circles(app)
    token = store.create("Club")
    one = store.start_match(token, "tartli", TARTLI, ["Anna", "Béla"],
                            created=datetime(2026, 11, 1, 19))
    ids = {p.name: p.id for p in store.load(token).players}  # type: ignore[union-attr]
    two = store.start_match(token, "tartli", TARTLI, [ids["Anna"], ids["Béla"]],
                            created=datetime(2026, 11, 8, 19))
    b = store.start_match(token, "tartli", dict(TARTLI, players=["Anna B.", "Béla"]),
                          ["Anna B.", ids["Béla"]],
                          created=datetime(2026, 11, 15, 19))
    ids = {p.name: p.id for p in store.load(token).players}  # type: ignore[union-attr]
    return token, ids, {"one": one, "two": two, "b": b}


def _version(client: FlaskClient, path: str) -> str:
    found = re.search(r'name="version" value="(\d+)"', client.get(path).get_data(as_text=True))
    assert found, path
    return found.group(1)


def test_a_person_renamed_is_named_so_on_every_page_of_the_circle_not_in_the_match_record(
        app: Flask, client: FlaskClient, post: Callable[..., Page],
        club: tuple[str, dict[str, int], dict[str, str]]) -> None:
    token, ids, played = club
    circle = Page.of(client.get(f"/c/{token}"))
    assert f'href="/c/{token}/people/{ids["Anna B."]}"' in circle.html
    person = f"/c/{token}/people/{ids['Anna B.']}"
    page = Page.of(client.get(person))
    assert page.status == 200 and "Anna B. in Club: 1 match." in page.text
    answer = post(f"{person}/name", {"name": "Anna Berger", "version": _version(client, person)})
    assert answer.status == 302, answer.errors
    circle = Page.of(client.get(f"/c/{token}"))
    assert "Anna B. is called Anna Berger now." in circle.notices
    listed = _words(circle.html.split('id="matches"')[1].split("</section>")[0])
    players = _words(circle.html.split('id="players"')[1].split("</section>")[0])
    assert "Anna Berger – Béla" in listed and "Anna B." not in listed + players
    assert "Anna B. renamed Anna Berger" in circle.text          # the history
    stats = Page.of(client.get(f"/c/{token}/statistics"))
    assert "Anna Berger" in stats.text and "Anna B." not in stats.text
    exported = json.loads(client.get(f"/c/{token}/circle.json").get_data(as_text=True))
    assert "Anna Berger" in exported["players"] and "Anna B." not in exported["players"]
    # the match's own record keeps the name its table entered
    record = app.extensions["referee.store"].load(played["b"])
    assert record.settings["players"] == ["Anna B.", "Béla"]


def test_a_rename_to_a_taken_name_is_refused_at_the_field_keeping_what_was_typed(
        app: Flask, client: FlaskClient, post: Callable[..., Page],
        club: tuple[str, dict[str, int], dict[str, str]]) -> None:
    token, ids, _ = club
    person = f"/c/{token}/people/{ids['Anna B.']}"
    version = _version(client, person)
    before = _rows(app)
    page = post(f"{person}/name", {"name": "ANNA", "version": version})
    assert page.status == 422
    assert page.errors == ["Anna is already a player of this circle: pick another name (such "
                           "as Anna B.), or merge the two if they are one person."]
    assert page.value("name") == "ANNA" and 'aria-invalid="true"' in page.html
    page = post(f"{person}/name", {"name": "  ", "version": version})
    assert page.status == 422 and page.errors and page.value("name") == "  "
    assert _rows(app) == before


def test_a_merge_is_confirmed_naming_both_and_their_matches_then_counts_both_and_undoes(
        app: Flask, client: FlaskClient, post: Callable[..., Page],
        club: tuple[str, dict[str, int], dict[str, str]]) -> None:
    token, ids, _ = club
    person = f"/c/{token}/people/{ids['Anna B.']}"
    page = Page.of(client.get(person))
    assert ("Anna (2 matches)" in page.text and "Béla (3 matches)" in page.text)
    before = _rows(app)
    confirm = Page.of(client.get(f"{person}/merge", query_string={"into": ids["Anna"]}))
    assert confirm.status == 200
    assert "Anna B. (1 match) becomes Anna (2 matches)" in confirm.text
    assert "Afterwards Anna has 3 matches in this circle" in confirm.text
    assert _rows(app) == before                                  # asking changes nothing
    version = re.search(r'name="version" value="(\d+)"', confirm.html).group(1)  # type: ignore[union-attr]
    done = post(f"{person}/merge", {"into": ids["Anna"], "version": version})
    assert done.status == 302, done.errors
    circle = Page.of(client.get(f"/c/{token}"))
    assert "Anna B. and Anna are one person now: Anna." in circle.notices
    assert "Anna B. merged into Anna (1 match)" in circle.text
    assert f'href="/c/{token}/people/{ids["Anna B."]}"' not in circle.html
    stats = _words(client.get(f"/c/{token}/statistics").get_data(as_text=True))
    assert "Anna 3 0" in stats and "Anna B." not in stats
    # its undo: Anna B. and the seat back as they were
    undo = re.search(rf'action="(/c/{token}/changes/(\d+)/undo)"', circle.html)
    assert undo is not None
    undone = post(undo.group(1))
    assert undone.status == 302
    circle = Page.of(client.get(f"/c/{token}"))
    assert "Undone: Anna B. merged into Anna (1 match)" in circle.notices
    assert {k: v for k, v in _rows(app).items() if k != "circle_changes"} == {
        k: v for k, v in before.items() if k != "circle_changes"}
    # undone twice: refused with the reason
    again = post(undo.group(1))
    assert again.status == 409 and again.errors == ["This change has been undone already."]


def test_a_merge_of_two_who_sat_in_one_match_is_refused_naming_the_match(
        app: Flask, client: FlaskClient, post: Callable[..., Page],
        club: tuple[str, dict[str, int], dict[str, str]]) -> None:
    token, ids, _ = club
    person = f"/c/{token}/people/{ids['Béla']}"
    before = _rows(app)
    confirm = Page.of(client.get(f"{person}/merge", query_string={"into": ids["Anna"]}))
    assert confirm.status == 422
    assert confirm.errors == ["Béla and Anna both sat at the Tartli match of 2026-11-01 (Anna "
                              "– Béla): a match cannot have one person twice, so they stay two "
                              "people."]
    assert f'action="{person}/merge"' not in confirm.html        # no Merge button
    forced = post(f"{person}/merge", {"into": ids["Anna"],
                                      "version": _version(client, person)})
    assert forced.status == 422 and "both sat at the Tartli match" in forced.errors[0]
    assert _rows(app) == before


def test_a_match_taken_out_of_the_circle_keeps_its_links_and_comes_back_by_undo(
        app: Flask, client: FlaskClient, post: Callable[..., Page],
        club: tuple[str, dict[str, int], dict[str, str]]) -> None:
    token, _, played = club
    remove = f"/c/{token}/matches/{played['two']}/remove"
    circle = Page.of(client.get(f"/c/{token}"))
    assert f'action="{remove}"' in circle.html
    page = Page.of(client.get(remove))
    assert page.status == 200 and "Tartli match of 2026-11-08 : Anna – Béla" in page.text
    done = post(remove, {"version": _version(client, remove)})
    assert done.status == 302, done.errors
    circle = Page.of(client.get(f"/c/{token}"))
    assert f'href="/m/{played["two"]}"' not in circle.html
    assert "Tartli match of 2026-11-08 left the circle: Anna – Béla" in circle.text
    assert Page.of(client.get(f"/m/{played['two']}")).status == 200      # the match stays
    assert Page.of(client.get(remove)).status == 404
    undo = re.search(rf'action="(/c/{token}/changes/\d+/undo)"', circle.html)
    assert undo is not None and post(undo.group(1)).status == 302
    assert f'href="/m/{played["two"]}"' in client.get(f"/c/{token}").get_data(as_text=True)


def test_forged_posts_get_a_clear_4xx_and_change_nothing(
        app: Flask, client: FlaskClient, post: Callable[..., Page],
        club: tuple[str, dict[str, int], dict[str, str]]) -> None:
    token, ids, played = club
    store = _circles(app)
    other = store.create("Other")
    stranger = store.add_player(other, "Zoe")
    elsewhere = store.start_match(other, "tartli", TARTLI, [stranger, "Yves"])
    foreign_change = max(c for c in _rows(app)["circle_changes"] if c[1] == other)[0]
    person = f"/c/{token}/people/{ids['Anna B.']}"
    version = _version(client, person)
    before = _rows(app)
    for path, data, status in (
        (f"/c/{token}/people/{stranger}/name", {"name": "Zora", "version": version}, 404),
        (f"/c/{token}/people/{stranger}/merge", {"into": ids["Anna"], "version": version}, 404),
        (f"{person}/merge", {"into": stranger, "version": version}, 422),
        (f"{person}/merge", {"into": "Anna", "version": version}, 422),
        (f"{person}/merge", {"into": ids["Anna B."], "version": version}, 422),
        (f"/c/{token}/matches/{elsewhere}/remove", {"version": version}, 404),
        (f"/c/{token}/changes/{foreign_change}/undo", {}, 404),
        (f"{person}/name", {"name": "Anni", "version": "7x"}, 409),
        (f"{person}/name", {"name": "Anni"}, 409),
    ):
        answer = post(path, data)
        assert answer.status == status, (path, data, answer.status)
        assert _rows(app) == before, path
    # without the CSRF token: refused
    for path, data in ((f"{person}/name", {"name": "Anni", "version": version}),
                       (f"{person}/merge", {"into": ids["Anna"], "version": version}),
                       (f"/c/{token}/matches/{played['b']}/remove", {"version": version})):
        assert post(path, data, csrf=False).status == 400, path
    assert _rows(app) == before
    assert Page.of(client.get(f"{person}/merge", query_string={"into": stranger})).status == 422
    assert Page.of(client.get(f"/c/{token}/people/{stranger}")).status == 404


def test_a_page_older_than_another_phones_change_is_refused_and_shows_the_circle_now(
        app: Flask, client: FlaskClient, post: Callable[..., Page],
        club: tuple[str, dict[str, int], dict[str, str]]) -> None:
    token, ids, _ = club
    person = f"/c/{token}/people/{ids['Anna B.']}"
    version = _version(client, person)
    _circles(app).add_player(token, "Dora", "Other phone")       # meanwhile, another phone
    before = _rows(app)
    page = post(f"{person}/name", {"name": "Anni", "version": version})
    assert page.status == 409
    assert page.errors == ["This circle was changed on another phone meanwhile, so nothing was "
                           "saved: try again (the lists show the circle as it is now)."]
    assert page.value("name") == "Anni"                          # what was typed, kept
    assert page.value("version") != version
    assert _rows(app) == before
    # with htmx: the page in place, under the person's own address
    answer = client.post(f"{person}/name", data={"name": "Anni", "version": version},
                         headers={"HX-Request": "true", "X-CSRFToken": _csrf(client, person)})
    assert answer.status_code == 409 and answer.headers["HX-Push-Url"] == person


def _csrf(client: FlaskClient, path: str) -> str:
    found = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"',
                      client.get(path).get_data(as_text=True))
    assert found
    return found.group(1)


def test_the_history_is_bounded_on_the_circle_page_and_lists_more_on_its_own(
        app: Flask, client: FlaskClient) -> None:
    store = _circles(app)
    token = store.create("Club")
    for n in range(14):
        store.add_player(token, f"Player {n}", "Phone")
    circle = client.get(f"/c/{token}").get_data(as_text=True)
    history = circle.split('id="changes"')[1].split("</section>")[0]
    assert history.count("<li") == 10 and "Player 13 joined the circle" in history
    assert "Player 3 joined" not in history and f'href="/c/{token}/changes"' in history
    page = Page.of(client.get(f"/c/{token}/changes"))
    assert page.status == 200 and "Player 0 joined the circle" in page.text
    assert page.text.index("Player 13 joined") < page.text.index("Player 0 joined")
