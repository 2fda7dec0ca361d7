"""The phone's language (issue 22): chosen from a link, the cookie or the browser, kept in the
cookie, said in every page's ``<html lang>``, switchable from every page's menu; a catalogue's
words and the engine's sentences said in it; numbers and Swiss francs as each language writes
them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from flask import Flask, render_template
from flask.testing import FlaskClient

from referee.engine.words import N, T
from referee.numbers import format_chf, number, signed
from referee.web import create_app
from referee.web.languages import LANGUAGES

NBSP = "\u00a0"
NNBSP = "\u202f"


@pytest.mark.parametrize(("accept", "expected"), [
    ("hu", "hu"), ("hu-HU,hu;q=0.9,en;q=0.8", "hu"),
    ("gsw", "de_CH"), ("gsw-CH", "de_CH"), ("de", "de_CH"), ("de-AT", "de_CH"),
    ("de-DE", "de_CH"), ("de-CH", "de_CH"), ("de_CH", "de_CH"),
    ("sk", "cs"), ("sk-SK,en;q=0.5", "cs"), ("cs-CZ", "cs"), ("cs", "cs"),
    ("fr", "fr"), ("fr-FR,fr;q=0.9", "fr"), ("fr-CH", "fr"),
    ("en-US,en;q=0.9", "en"), ("it", "en"), ("it,de;q=0.5", "de_CH"), ("", "en"),
    ("ja,hu;q=0.3,fr;q=0.8", "fr"), ("*", "en"), ("hu;q=0", "en"),
])
def test_the_browser_s_language_is_read_as_one_of_ours(client: FlaskClient, accept: str,
                                                       expected: str) -> None:
    page = client.get("/", headers={"Accept-Language": accept}).get_data(as_text=True)
    assert f'<html lang="{expected.replace("_", "-")}">' in page


def test_a_link_s_language_is_kept_in_the_cookie_and_later_requests_keep_it(
        client: FlaskClient) -> None:
    first = client.get("/?lang=hu", headers={"Accept-Language": "fr"})
    cookie = first.headers["Set-Cookie"]
    assert cookie.startswith("lang=hu;")
    assert "Max-Age=31536000" in cookie and "SameSite=Lax" in cookie
    assert '<html lang="hu">' in first.get_data(as_text=True)
    # the cookie now speaks louder than the browser
    later = client.get("/", headers={"Accept-Language": "fr"})
    assert '<html lang="hu">' in later.get_data(as_text=True)
    assert "Set-Cookie" not in later.headers            # nothing new to keep
    # an htmx request carries the cookie too
    htmx = client.get("/new/tartli", headers={"HX-Request": "true", "Accept-Language": "fr"})
    assert htmx.request.headers.get("Cookie", "").count("lang=hu") == 1
    assert '<html lang="hu">' in htmx.get_data(as_text=True)
    # another link changes it
    assert client.get("/?lang=cs").headers["Set-Cookie"].startswith("lang=cs;")
    assert '<html lang="cs">' in client.get("/").get_data(as_text=True)


@pytest.mark.parametrize("asked", ["xx", "de-CH", "de", "", "hu;", "EN"])
def test_an_unknown_language_on_a_link_is_ignored(client: FlaskClient, asked: str) -> None:
    answer = client.get("/", query_string={"lang": asked}, headers={"Accept-Language": "cs"})
    assert answer.status_code == 200
    assert "Set-Cookie" not in answer.headers or "lang=" not in answer.headers["Set-Cookie"]
    assert '<html lang="cs">' in answer.get_data(as_text=True)


def test_an_unknown_language_in_the_cookie_is_ignored(client: FlaskClient) -> None:
    client.set_cookie("lang", "klingon")
    page = client.get("/", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert '<html lang="fr">' in page


@pytest.mark.parametrize("url", ["/", "/new/tartli", "/no-such-page", "/static/none.css"])
def test_every_answer_varies_by_the_cookie_and_the_browser_s_languages(
        client: FlaskClient, url: str) -> None:
    vary = {v.strip() for v in client.get(url).headers.get("Vary", "").split(",")}
    assert {"Cookie", "Accept-Language"} <= vary


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_every_page_says_its_language_and_error_pages_too(client: FlaskClient,
                                                          code: str) -> None:
    bcp47 = code.replace("_", "-")
    for url in ("/", "/new/troggu", "/m/no-such-match"):
        page = client.get(url, query_string={"lang": code}).get_data(as_text=True)
        assert f'<html lang="{bcp47}">' in page, url


def _menu(page: str) -> list[tuple[str, str, bool]]:
    """The language menu's links: (href, name, current)."""
    footer = page[page.index('<footer class="languages">'):]
    return [(href.replace("&amp;", "&"), name, bool(current)) for href, current, name in
            re.findall(r'<a href="([^"]*)" lang="[^"]*" hreflang="[^"]*"'
                       r'( aria-current="true")?>([^<]*)</a>', footer)]


def test_the_menu_names_each_language_in_itself_and_links_to_the_same_page(
        client: FlaskClient) -> None:
    page = client.get("/new/stovkahra?x=1&lang=de_CH").get_data(as_text=True)
    assert _menu(page) == [
        ("/new/stovkahra?x=1&lang=en", "English", False),
        ("/new/stovkahra?x=1&lang=hu", "Magyar", False),
        ("/new/stovkahra?x=1&lang=de_CH", "Deutsch (Schweiz)", True),
        ("/new/stovkahra?x=1&lang=cs", "Čeština", False),
        ("/new/stovkahra?x=1&lang=fr", "Français", False),
    ]
    # each link, followed, shows its page in its language
    for href, _name, _current in _menu(page):
        code = href.rsplit("=", 1)[1]
        shown = client.get(href).get_data(as_text=True)
        assert f'<html lang="{code.replace("_", "-")}">' in shown
        assert [current for *_, current in _menu(shown)] == [c == code for c in LANGUAGES]


def test_a_page_answering_a_form_links_its_menu_to_the_home_page(
        client: FlaskClient, csrf_token: object) -> None:
    token = csrf_token("/new/tartli")  # type: ignore[operator]
    answer = client.post("/new/tartli", data={"csrf_token": token, "player_a": "",
                                              "player_b": "Béla", "target": "5"})
    assert answer.status_code == 422
    assert [href for href, *_ in _menu(answer.get_data(as_text=True))] == [
        f"/?lang={code}" for code in LANGUAGES]


@pytest.fixture
def translated(tmp_path: Path) -> Flask:
    """The app with a small Hungarian catalogue of its own (a template's word, an engine
    sentence with a count)."""
    catalog = Catalog(locale="hu")
    catalog.add("Language", "Nyelv")
    catalog.add("Back to the matches", "Vissza a meccsekhez")
    catalog.add("%(name)s wins", "%(name)s nyert")
    catalog.add(("%(num)s matchstick", "%(num)s matchsticks"),
                ("%(num)s gyufa", "%(num)s gyufa"))
    folder = tmp_path / "translations" / "hu" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    with (folder / "messages.mo").open("wb") as out:
        write_mo(out, catalog)
    return create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path}/t.sqlite3",
                       "BABEL_TRANSLATION_DIRECTORIES": str(tmp_path / "translations")})


def test_a_template_s_words_and_an_engine_sentence_are_said_in_the_catalogue_s_language(
        translated: Flask) -> None:
    message = N("%(num)s matchstick", "%(num)s matchsticks", 1234, num=1234)
    title = T("%(name)s wins", name="Anna")
    with translated.test_request_context("/?lang=hu"):
        page = render_template("error.html", title=title, message=message)
    assert '<html lang="hu">' in page
    assert "<h1>Anna nyert</h1>" in page
    assert f"1{NBSP}234 gyufa" in page                  # its number as Hungarian writes it
    assert 'aria-label="Nyelv"' in page and "Vissza a meccsekhez" in page
    assert "Language" not in page and "wins" not in page
    # the same page in English: as the engine and the templates write it
    with translated.test_request_context("/?lang=en"):
        page = render_template("error.html", title=title, message=message)
    assert "<h1>Anna wins</h1>" in page and "1234 matchsticks" in page
    assert 'aria-label="Language"' in page
    # a language without a catalogue: English words, its own numbers
    with translated.test_request_context("/?lang=cs"):
        page = render_template("error.html", title=title, message=message)
    assert "<h1>Anna wins</h1>" in page and f"1{NBSP}234 matchsticks" in page


def test_the_say_filter_says_a_sentence_where_a_template_needs_it_as_a_string(
        translated: Flask) -> None:
    with translated.test_request_context("/?lang=hu"):
        said = translated.jinja_env.from_string("{{ t|say|upper }}|{{ say(t) }}|{{ n|say }}")
        assert said.render(t=T("%(name)s wins", name="Anna"), n=7) == (
            "ANNA NYERT|Anna nyert|7")


@pytest.mark.parametrize(("locale", "value", "expected"), [
    ("en", 1234, "1234"), ("en", -1234567, "\u22121234567"), ("en", 2.5, "2.5"),
    ("en", "6.2", "6.2"),
    ("hu", 1234, f"1{NBSP}234"), ("hu", 999, "999"), ("hu", -30, "\u221230"),
    ("hu", 2.5, "2,5"), ("hu", "6.2", "6,2"),
    ("cs", 1234, f"1{NBSP}234"), ("cs", 22, "22"),
    ("fr", 1234, f"1{NNBSP}234"), ("fr", -1234567, f"\u22121{NNBSP}234{NNBSP}567"),
    ("de_CH", 1234, "1'234"), ("de_CH", 1234567, "1'234'567"), ("de_CH", 2.5, "2.5"),
    ("de_CH", -999999, "\u2212999'999"),
])
def test_numbers_as_each_language_writes_them(locale: str, value: float | str,
                                              expected: str) -> None:
    assert number(value, locale) == expected


def test_signed_numbers_keep_their_sign_in_every_language() -> None:
    assert signed(1234, "de_CH") == "+1'234"
    assert signed(-1234, "hu") == f"\u22121{NBSP}234"
    assert signed(0, "fr") == "0"


@pytest.mark.parametrize(("locale", "rappen", "expected"), [
    ("de_CH", 30, f"CHF{NBSP}0.30"), ("de_CH", 123450, f"CHF{NBSP}1'234.50"),
    ("de_CH", 123456700, f"CHF{NBSP}1'234'567.00"), ("de_CH", -3000, "CHF\u221230.00"),
    ("fr", 1250, f"12,50{NBSP}CHF"), ("fr", 123456750, f"1{NNBSP}234{NNBSP}567,50{NBSP}CHF"),
    ("en", 1250, f"CHF{NBSP}12.50"), ("en", 123456700, f"CHF{NBSP}1'234'567.00"),
    ("hu", 123450, f"1{NBSP}234,50{NBSP}CHF"), ("cs", 30, f"0,30{NBSP}CHF"),
])
def test_swiss_francs_as_each_language_writes_them(locale: str, rappen: int,
                                                  expected: str) -> None:
    assert format_chf(rappen, locale) == expected


def test_numbers_follow_the_request_s_language(app: Flask) -> None:
    with app.test_request_context("/?lang=de_CH"):
        assert number(1234567) == "1'234'567" and format_chf(30) == f"CHF{NBSP}0.30"
    with app.test_request_context("/", headers={"Accept-Language": "hu"}):
        assert number(1234) == f"1{NBSP}234"
    with app.test_request_context("/"):
        assert number(1234) == "1234"
    assert number(1234) == "1234"                       # no request: English
