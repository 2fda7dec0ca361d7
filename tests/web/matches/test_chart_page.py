"""The chart of the running totals on the match page, on the view link and on the scoresheet
(issue 13): inline SVG within the CSP, coloured by the site's style sheets in light and dark.
On the pages it is loaded when its folded panel is opened (issue 12), or shown on a page of its
own without JavaScript."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from pypdf import PdfReader

from referee import charts
from referee.engine.games import get
from referee.engine.matchfile import load
from referee.numbers import number
from referee.web.store import Store

ROOT = Path(__file__).resolve().parents[3]
DATA = ROOT / "tests" / "data"
NS = {"svg": "http://www.w3.org/2000/svg"}
FILES = ["tartli-short", "stovkahra-series", "marjolet-game", "troggu-evening"]


def stored(app: Flask, name: str, hands: int | None = None) -> tuple[str, str]:
    """A match of tests/data stored as the app stores it: (edit id, view token)."""
    m = load((DATA / f"{name}.json").read_bytes())
    store: Store = app.extensions["referee.store"]
    match_id = store.create(m.game, m.settings, m.hands[:hands])
    found = store.load(match_id)
    assert found is not None
    return match_id, found.view_token


LOADER = re.compile(r'<div class="chart-body" hx-get="([^"]+)" hx-trigger="toggle once from:'
                    r'closest details, intersect once" hx-swap="outerHTML"><a href="\1">Show '
                    r'the chart</a></div>')


def chart_of(html: str) -> ET.Element | None:
    """The SVG inside a page's chart panel, read as XML (None: no chart)."""
    panel = re.search(r'class="chart panel" id="chart">(.*?)</(details|div)>', html, re.S)
    if panel is None:
        return None
    svg = re.search(r"<svg\b.*</svg>", panel.group(1), re.S)
    assert svg is not None
    return ET.fromstring(svg.group(0))


def chart_loaded(client: FlaskClient, html: str) -> ET.Element | None:
    """The chart that the page's folded panel loads when it is opened (htmx), checked to be
    the one the panel's link shows on a page of its own (without JavaScript); None: no
    panel."""
    panel = re.search(r'<details class="chart panel" id="chart"[^>]*>(.*?)</details>', html, re.S)
    if panel is None:
        return None
    assert "<svg" not in panel.group(1)                   # not drawn for a folded panel
    loader = LOADER.search(panel.group(1))
    assert loader is not None
    loaded = client.get(loader.group(1), headers={"HX-Request": "true"})
    assert loaded.status_code == 200
    root = ET.fromstring(loaded.get_data(as_text=True))
    page = client.get(loader.group(1))
    assert page.status_code == 200 and "Back to the match" in page.text
    own = chart_of(page.text)
    assert own is not None and ET.tostring(own) == ET.tostring(root)
    return root


def series_labels(root: ET.Element) -> list[str | None]:
    return [g.get("data-label") for g in root.iterfind("svg:g", NS)
            if "series" in g.get("class", "").split()]


@pytest.mark.parametrize("name", FILES)
def test_the_match_page_and_the_view_link_show_the_chart(
    app: Flask, client: FlaskClient, name: str
) -> None:
    match_id, view = stored(app, name)
    m = load((DATA / f"{name}.json").read_bytes())
    sides = get(m.game).sides(m.settings)
    for token in (match_id, view):
        response = client.get(f"/m/{token}")
        assert response.status_code == 200
        html = response.get_data(as_text=True)
        root = chart_loaded(client, html)
        assert root is not None, token
        assert series_labels(root) == sides
        assert "<summary>Chart</summary>" in html
        # folded, after the scoreboard: the first screen stays the scoreboard's and editor's
        assert html.index('id="chart"') > html.index('id="standings"')


def test_the_chart_comes_with_the_htmx_answer_too(app: Flask, client: FlaskClient) -> None:
    match_id, _ = stored(app, "tartli-short", 2)
    response = client.get(f"/m/{match_id}", headers={"HX-Request": "true"})
    root = chart_loaded(client, response.get_data(as_text=True))
    assert root is not None and series_labels(root) == ["Ágnes", "Tamás"]


def test_no_chart_before_the_first_hand(app: Flask, client: FlaskClient) -> None:
    match_id, view = stored(app, "tartli-short", 0)
    for token in (match_id, view):
        html = client.get(f"/m/{token}").get_data(as_text=True)
        assert 'id="chart"' not in html and "<svg" not in html.split('id="live"', 1)[1]
        chart = client.get(f"/m/{token}/chart")          # and no chart page: the match's
        assert chart.status_code == 302 and chart.location == f"/m/{token}"


def test_the_chart_needs_nothing_the_csp_refuses(app: Flask, client: FlaskClient) -> None:
    match_id, _ = stored(app, "troggu-evening")
    response = client.get(f"/m/{match_id}")
    csp = response.headers["Content-Security-Policy"]
    assert "style-src 'self'" in csp and "unsafe-inline" not in csp
    root = chart_loaded(client, response.get_data(as_text=True))
    assert root is not None
    for element in root.iter():
        assert "style" not in element.attrib                  # refused by style-src 'self'
        assert element.tag.split("}")[-1] not in ("script", "style")
        assert not any(key.startswith("on") for key in element.attrib)


def test_a_name_with_markup_cannot_break_the_page(app: Flask, client: FlaskClient) -> None:
    m = load((DATA / "tartli-short.json").read_bytes())
    name = "</svg><b>\"A\"'"
    settings = get("tartli").settings({**m.settings, "players": [name, "Tamás"]})
    store: Store = app.extensions["referee.store"]
    match_id = store.create("tartli", settings, m.hands[:1])
    html = client.get(f"/m/{match_id}").get_data(as_text=True)
    assert "</svg><b>" not in html
    page = client.get(f"/m/{match_id}/chart").get_data(as_text=True)
    assert "</svg><b>" not in page
    root = chart_loaded(client, html)
    assert root is not None and series_labels(root) == [name, "Tamás"]


# -- colours: the site's CSS, light and dark -------------------------------------------------

def _variables(css: str) -> dict[str, str]:
    found = re.findall(r"--([\w-]+):\s*#([0-9a-fA-F]{6}|[0-9a-fA-F]{3})\b", css)
    return {name: "#" + (value if len(value) == 6 else "".join(c * 2 for c in value))
            for name, value in found}


def _luminance(colour: str) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: str, b: str) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_every_line_colour_comes_from_the_css_and_reads_in_light_and_dark() -> None:
    # Each line's name is written in its colour: text contrast (WCAG AA, 4.5:1) on the panel
    # and on the paper, with the light colours and with night.css's dark ones.
    css = (ROOT / "static" / "css" / "referee.css").read_text("utf-8")
    night = (ROOT / "static" / "css" / "night.css").read_text("utf-8")
    light, dark = _variables(css), {**_variables(css), **_variables(night)}
    for index in range(8):
        assert f"svg.chart .series-{index} {{ stroke: var(--chart-{index}); " \
               f"fill: var(--chart-{index}); }}" in css
        for colours in (light, dark):
            for ground in ("panel", "paper"):
                assert contrast(colours[f"chart-{index}"], colours[ground]) >= 4.5, (
                    index, colours[f"chart-{index}"], colours[ground])
        assert dark[f"chart-{index}"] != light[f"chart-{index}"]     # night.css has its own


def test_paper_and_a_file_of_its_own_use_the_sites_colours() -> None:
    # the sheet and the CLI's SVG have no site CSS: their colours are the site's, light and dark
    css = _variables((ROOT / "static" / "css" / "referee.css").read_text("utf-8"))
    night = _variables((ROOT / "static" / "css" / "night.css").read_text("utf-8"))
    assert list(charts.PALETTE) == [css[f"chart-{i}"] for i in range(8)]
    assert list(charts.NIGHT) == [night[f"chart-{i}"] for i in range(8)]
    assert (css["ink"], css["muted"]) == (charts.INK, charts.MUTED)


# -- the scoresheet ----------------------------------------------------------------------------

@pytest.mark.parametrize("name", FILES)
def test_the_scoresheet_draws_the_chart(name: str) -> None:
    from referee.scoresheet import render_html, render_pdf

    m = load((DATA / f"{name}.json").read_bytes())
    game = get(m.game)
    result = game.score(m.settings, m.hands)
    html = render_html(m)
    assert "<h2>Running totals</h2>" in html
    svg = re.search(r"<svg\b.*?</svg>", html, re.S)
    assert svg is not None
    root = ET.fromstring(svg.group(0))
    labels = [t.text for g in root.iterfind("svg:g", NS)
              if "series" in g.get("class", "").split()
              for t in g.iterfind("svg:text", NS)]
    sides = game.sides(m.settings)
    assert labels == [f"{side} {number(result.standing.totals[i])}" for i, side in enumerate(sides)]
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(render_pdf(m))).pages)
    for label in labels:                            # drawn on the sheet as text
        assert label is not None and label in text


def test_the_chart_is_drawn_once_per_version_of_its_match(
        app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 12: the chart opened again (by this phone or another, edit or view link) is the
    one drawn for the match as it stands; a change draws it again, when it is opened; the
    match page draws none."""
    from referee.web.matches import exports as chartcache

    drawn: list[int] = []

    def counted(*args: object, **kwargs: object) -> str:
        drawn.append(1)
        return charts.running_totals(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(chartcache, "running_totals", counted)
    match_id, view = stored(app, "tartli-short")
    client.get(f"/m/{match_id}")
    assert drawn == []
    first = chart_loaded(client, client.get(f"/m/{match_id}").text)
    again = chart_loaded(client, client.get(f"/m/{view}").text)
    assert first is not None and again is not None
    assert ET.tostring(first) == ET.tostring(again)
    assert len(drawn) == 1
    store: Store = app.extensions["referee.store"]
    now = store.load(match_id)
    assert now is not None
    store.save_hands(match_id, now.hands, now.hands[:-1], "Hand deleted", version=now.version)
    client.get(f"/m/{match_id}")
    assert len(drawn) == 1
    assert chart_loaded(client, client.get(f"/m/{match_id}").text) is not None
    assert len(drawn) == 2


def test_the_answer_to_a_change_loads_the_chart_when_it_is_opened(
        app: Flask, table: Any) -> None:
    """Issue 12: the answer to a change carries the folded panel, which loads the chart when
    opened (htmx), rather than the chart of every hand; what it loads is the page's chart."""
    match_id, view = stored(app, "tartli-short")
    answer = table.post(f"/m/{match_id}/hands/2/delete", htmx=True)
    assert answer.status == 200 and answer.is_partial
    panel = re.search(r'<details class="chart panel" id="chart"[^>]*>(.*?)</details>',
                      answer.html, re.S)
    assert panel is not None and "<svg" not in panel.group(1)
    # loaded when the fold is opened (or scrolled into view open)
    loader = re.search(r'hx-get="([^"]+)" hx-trigger="toggle once from:closest details, '
                       r'intersect once"', panel.group(1))
    assert loader is not None and loader.group(1) == f"/m/{match_id}/chart"
    loaded = table.get(loader.group(1), htmx=True)
    page = table.get(loader.group(1))                      # the chart's own page
    assert loaded.status == 200
    assert ET.tostring(ET.fromstring(loaded.html)) == ET.tostring(chart_of(page.html))  # type: ignore[arg-type]
    assert table.get(f"/m/{view}/chart", htmx=True).html == loaded.html    # the view link too
    # without JavaScript: the chart on a page of its own, with the way back
    assert page.status == 200 and f'href="/m/{match_id}"' in page.html
