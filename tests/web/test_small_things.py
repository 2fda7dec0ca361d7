"""Small things seen at the table (issue 21, item 9), as the pages send them: no notation left
(seat letters, a bare trick number, the tarot's N), one minus sign, the history's lines, the
matchstick choice, and refusals said at their field."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient
from games.test_card_marks import _toggles
from games.test_stovkahra_web import EXAMPLE_4, WRONG_DOST_BY_W
from matches.test_in_view import CLAIM_HAND, HAND_440_71
from test_plain_words import _store, _text
from webtools import EXAMPLE_1, Series, Table, deal

from referee.engine.games import get
from referee.web.matches.notices import describe_changes

HYPHEN_MINUS = re.compile(r"(?<![\w-])-\d")


def _first_dealer_labels(html: str) -> list[str]:
    block = re.search(r"<legend>First dealer</legend>(.*?)</fieldset>", html, re.S)
    assert block, "the first dealer is asked"
    return [re.sub(r"<[^>]+>", "", label).strip()
            for label in re.findall(r"<label>(.*?)</label>", block.group(1), re.S)]


def test_the_new_stovkahra_series_asks_the_first_dealer_by_seat_then_by_name(
        table: Table) -> None:
    """Before the names are typed, each seat in words; a form sent back (refused) names them."""
    assert _first_dealer_labels(table.client.get("/new/stovkahra").get_data(as_text=True)) == [
        "North", "East", "South", "West"]
    page = table.post("/new/stovkahra", {
        "north": "Jana", "east": "Petr", "south": "Eva", "west": "Karel", "target": "999",
        "first_dealer": "3", "shuffle_reminder": "each game"})
    assert page.status == 422 or page.errors, "a target of 999 is refused"
    assert _first_dealer_labels(page.html) == ["Jana", "Petr", "Eva", "Karel"]


def test_a_marjolet_turn_says_after_which_trick(app: Flask, client: FlaskClient) -> None:
    mid, _, count = _store(app, "marjolet")
    text = _text(client, f"/m/{mid}/hands/{count}")
    assert "After trick 2 Anne’s turn: the marriage in spades" in text
    # no bare number before a turn ("2 Anne’s turn")
    assert not re.search(r"(?<!trick )\b\d+ \w+’s turn", text), text


def test_the_tarot_cavalier_shows_c_not_n(app: Flask, client: FlaskClient) -> None:
    mid, _, count = _store(app, "troggu-5")
    toggles = _toggles(_text_html(client, f"/m/{mid}/hands/{count}"))
    assert toggles["Nb"] == ("Cavalier of batons", 'C<span class="suit suit-batons"></span>')
    assert toggles["Nc"][1].startswith("C<")
    # a cavalier in running text (the discard of hand 1 holds the cavalier of coins)
    explained = client.get(f"/m/{mid}/explained/1").get_data(as_text=True)
    assert 'aria-label="Cavalier of coins">C<' in explained
    assert 'aria-label="Cavalier of coins">N<' not in explained


def _text_html(client: FlaskClient, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return response.get_data(as_text=True)


def test_every_negative_number_has_the_minus_sign(app: Flask, client: FlaskClient) -> None:
    """Troggu's balances go below 0: the hands' rows, their scores and explanations, the
    standings, the hand's own page, its delete page and the chart all write −10, never -10."""
    mid, view, count = _store(app, "troggu-5")
    urls = [f"/m/{mid}", f"/m/{view}", f"/m/{mid}/live", f"/m/{mid}/chart",
            *(f"/m/{mid}/hands/{n}" for n in range(1, count + 1)),
            *(f"/m/{mid}/explained/{n}" for n in range(1, count)),
            *(f"/m/{mid}/hands/{n}/delete" for n in range(1, count))]
    shown = {url: _text(client, url) for url in urls}
    assert "−10" in shown[f"/m/{mid}"] and "total −30" in shown[f"/m/{mid}"]
    assert "Anna −30" in shown[f"/m/{mid}/chart"]
    assert {url: HYPHEN_MINUS.findall(text) for url, text in shown.items()
            if HYPHEN_MINUS.search(text)} == {}
    # rows kept from an earlier page (referee/web/matches/rows.py) put in their totals alike
    assert "total −30" in _text(client, f"/m/{mid}")


def test_a_lost_game_and_the_totals_told_after_an_edit_have_the_minus_sign(
        app: Flask, client: FlaskClient) -> None:
    """Hand 1 edited so that Beat loses: its summary ("… (×1): −40") and the notice of the
    totals after the later hands ("Anna −…") write the minus sign."""
    mid, _, _ = _store(app, "troggu-5")
    game = get("troggu")
    store = app.extensions["referee.store"]
    match = store.load(mid)
    assert match is not None
    result = game.score(match.settings, [
        {**match.hands[0], "end": {"points": 40, "tricks": 3, "loser_took_trick": True}},
        *match.hands[1:]])
    assert result.hands[0].summary.endswith("(×1): −40"), result.hands[0].summary
    told = describe_changes(game.score(match.settings, match.hands), result,
                            match.settings["players"], 1)
    assert told and not any(HYPHEN_MINUS.search(line) for line in told), told
    assert any("−" in line for line in told), told


def test_the_history_tells_one_trick_recorded_twice_apart(table: Table) -> None:
    """Trick 1's declarations checked before it is won, the trick won, then its winner
    changed: three lines in the history of changes, none the same."""
    mid = table.new_match(["Anna", "Béla"])
    table.indicator(mid, 1, "8h")
    table.trick(mid, 1, 1, (["Al", "Kl", "Ol"], []), None)
    table.trick(mid, 1, 1, (["Al", "Kl", "Ol"], []), 0)
    table.trick(mid, 1, 1, (["Al", "Kl", "Ol"], []), 1)
    history = table.get(f"/m/{mid}/changes").text
    for label in ("Declarations in trick 1 of hand 1", "Trick 1 of hand 1",
                  "Change to trick 1 of hand 1"):
        assert history.count(label) == 1, (label, history)


def _announce(html: str) -> str | None:
    """The end announced in a page or a poll's answer (None: no #announce in it at all)."""
    found = re.search(r'<p[^>]*id="announce"[^>]*>(.*?)</p>', html, re.S)
    return None if found is None else " ".join(re.sub(r"<[^>]+>", " ", found.group(1)).split())


def test_a_game_over_goes_from_every_phone_once_the_next_hand_begins(table: Table) -> None:
    """The live scoreboard's answer brings the announcement as it stands: another phone that
    shows "Game over after hand 2" loses it once the next hand begins, and a phone polling
    meanwhile has it."""
    mid = table.seed([HAND_440_71, CLAIM_HAND])
    poll = table.client.get(f"/m/{mid}/live", headers={"HX-Request": "true"})
    assert (_announce(poll.get_data(as_text=True)) or "").startswith("Game over after hand 2")
    table.done(table.indicator(mid, 3, "8h"), False)         # another phone begins hand 3
    poll = table.client.get(f"/m/{mid}/live", headers={"HX-Request": "true"})
    answer = poll.get_data(as_text=True)
    assert _announce(answer) == ""
    assert re.search(r'<p id="announce" hidden hx-swap-oob="true">', answer), answer[-800:]


def _sticks_buttons(html: str) -> list[str]:
    return [" ".join(b.split()) for b in re.findall(
        r'<button type="submit" name="sticks-choice" value="\w+"[^>]*>(.*?)</button>', html, re.S)]


def test_take_off_is_offered_only_when_the_other_team_has_matchsticks(series: Series) -> None:
    """Rule 7.3.1: a pile never goes below 0. Jana & Eva win deal 2 while Petr & Karel have
    none: only "Add" is offered, at the top and in the deal's row. Once Petr & Karel have 2,
    Jana & Eva's next win may take them off."""
    mid = series.seed_series([EXAMPLE_1, deal()])
    series.call_dost(mid, 2, 0, 2, points=(12, 11), tricks=(1, 1), trick_winner=0)
    html = series.get(f"/m/{mid}").html
    buttons = _sticks_buttons(html)
    assert buttons and all(b.startswith("Add to") for b in buttons), buttons
    assert "Petr &amp; Karel have no matchsticks to take." in html
    mid = series.seed_series([EXAMPLE_1, deal(end=EXAMPLE_4["end"], sticks="add"),
                              WRONG_DOST_BY_W])
    assert any(b.startswith("Take off") for b in _sticks_buttons(series.get(f"/m/{mid}").html))


def test_a_combination_said_with_the_dropdowns_is_refused_at_the_dropdowns(
        series: Series) -> None:
    """Jana says three aces, then Petr says three aces (six aces: rule 4.5): the refusal marks
    the rank and the number Petr chose, not the 32 cards of a picker nobody opened."""
    mid = series.new_series()
    series.start_deal(mid, 1)
    series.declare(mid, 1, 0, rank="A", count=3)
    page = series.rejected(series.declare(mid, 1, 1, rank="A", count=3, htmx=True), True)
    assert any("the pack has only four" in e for e in page.errors), page.errors
    invalid = re.findall(r'<(?:input|select)[^>]*aria-invalid="true"[^>]*>', page.html)
    names = sorted({re.search(r'name="([^"]+)"', tag).group(1) for tag in invalid})  # type: ignore[union-attr]
    assert names == ["combination-count", "combination-rank"], names
    assert not re.search(r'<details class="cards" open', page.html)


def test_every_page_has_a_favicon_served_by_the_app(client: FlaskClient) -> None:
    """The icon is the app's own file (no request leaves the table's network)."""
    for url in ("/", "/new/tartli", "/new/troggu"):
        html = client.get(url).get_data(as_text=True)
        found = re.search(r'<link rel="icon" href="(/static/[^"]+)" type="image/svg\+xml">', html)
        assert found, url
        icon = client.get(found.group(1))
        assert icon.status_code == 200 and icon.mimetype == "image/svg+xml"
        assert icon.get_data(as_text=True).lstrip().startswith("<svg")
