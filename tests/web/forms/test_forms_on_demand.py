"""An editor's forms are made when its template first asks for each (issue 12:
games/base.py ``Forms``): the page is the one made with every form, for every game."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask_wtf import FlaskForm

from referee.engine import matchfile
from referee.web.games import WEB_GAMES
from referee.web.games.base import ActionContext, Forms, WebGame

DATA = Path(__file__).parents[2] / "data"


def test_each_form_is_made_once_when_asked_for() -> None:
    made: list[str] = []

    def make(name: str) -> Any:
        made.append(name)
        return f"the {name} form"

    forms = Forms(make, ["bids", "finish"])
    assert list(forms.values()) == [] and made == []
    assert forms["finish"] == forms["finish"] == "the finish form"
    assert made == ["finish"] and list(forms.values()) == ["the finish form"]
    with pytest.raises(KeyError):
        forms["nonsense"]


def every_form(web: WebGame, ctx: ActionContext) -> dict[str, FlaskForm]:
    """The forms as a page made them before: all of them at once."""
    forms = ORIGINAL(web, ctx)
    for name in web.form_classes:
        forms[name]
    return dict(forms)


ORIGINAL = WebGame.forms


FILES = {"marjolet": "marjolet-game.json", "stovkahra": "stovkahra-series.json",
         "tartli": "tartli-short.json", "troggu": "troggu-evening.json"}
# a CSRF token is signed with the time: two pages a second apart differ in it
TOKENS = re.compile(r'csrf_token"[^>]*?value="[^"]*"|value="[^"]*" id="csrf_token"'
                    r'|"X-CSRFToken": "[^"]*"')


@pytest.mark.parametrize("game", sorted(FILES))
@pytest.mark.parametrize("hands", [0, 1, None], ids=["new", "one hand", "all hands"])
def test_the_page_is_the_one_made_with_every_form(
        app: Flask, monkeypatch: pytest.MonkeyPatch, game: str, hands: int | None) -> None:
    loaded = matchfile.load((DATA / FILES[game]).read_bytes())
    web = WEB_GAMES[game]
    mid = app.extensions["referee.store"].create(game, loaded.settings, loaded.hands[:hands])
    client = app.test_client()

    def page() -> str:
        return TOKENS.sub("", client.get(f"/m/{mid}").get_data(as_text=True))

    on_demand = page()
    monkeypatch.setattr(type(web), "forms", every_form)
    assert page() == on_demand
