"""The chart of a match's running totals (issue 13): inline SVG drawn from the engine's results.

The SVG is read back as XML: a point's value comes from the grid lines (each carries the value
it stands for), so the tests hold the drawing against the standings, not against the code's own
arithmetic."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from referee.charts import (
    PAPER,
    PHONE,
    Layout,
    Mark,
    Rule,
    Series,
    line_chart,
    running_totals,
    thin,
)
from referee.engine import matchfile
from referee.engine.games import get
from referee.engine.games.base import MatchResult
from referee.numbers import number
from tests.bench.long_match import troggu_file

DATA = Path(__file__).resolve().parent / "data"
NS = {"svg": "http://www.w3.org/2000/svg"}
FILES = ["tartli-short", "tartli-complete", "stovkahra-series", "marjolet-game",
         "troggu-evening"]


def match(name: str) -> matchfile.MatchFile:
    return matchfile.load((DATA / f"{name}.json").read_bytes())


def scored(m: matchfile.MatchFile, hands: int | None = None) -> tuple[Any, MatchResult]:
    game = get(m.game)
    return game, game.score(m.settings, m.hands[:hands])


class Chart:
    """An SVG chart read back: its lines by label, and values from screen y."""

    def __init__(self, svg: str) -> None:
        self.root = ET.fromstring(svg)
        grid = [(float(line.get("data-value", "")), float(line.get("y1", "")))
                for line in self.root.iterfind("svg:g[@class='grid']/svg:line", NS)]
        assert len(grid) >= 2
        (v0, y0), (v1, y1) = grid[0], grid[-1]
        self.per_unit = (y1 - y0) / (v1 - v0)          # screen units per point (negative)
        self.y_of_zero = y0 - v0 * self.per_unit

    def value(self, y: float) -> float:
        return (y - self.y_of_zero) / self.per_unit

    @property
    def tolerance(self) -> float:
        """Half a screen unit in points: what rounding the coordinates may lose."""
        return 0.6 / abs(self.per_unit)

    def series(self) -> list[ET.Element]:
        return [g for g in self.root.iterfind("svg:g", NS)
                if "series" in g.get("class", "").split()]

    @staticmethod
    def points(group: ET.Element) -> list[tuple[float, float]]:
        polyline = group.find("svg:polyline", NS)
        assert polyline is not None
        return [(float(x), float(y)) for x, y in
                (pair.split(",") for pair in polyline.get("points", "").split())]

    def rules(self, kind: str) -> list[float]:
        return [float(g.get("data-value", "")) for g in self.root.iterfind("svg:g", NS)
                if g.get("class", "").split() == ["rule", kind]]


@pytest.mark.parametrize("name", FILES)
def test_each_line_ends_at_the_standings_after_every_hand(name: str) -> None:
    m = match(name)
    for count in range(1, len(m.hands) + 1):
        game, result = scored(m, count)
        chart = Chart(running_totals(game, m.settings, result))
        groups = chart.series()
        sides = game.sides(m.settings)
        assert [g.get("data-label") for g in groups] == sides        # one line per side
        for side, group in enumerate(groups):
            total = result.standing.totals[side]
            x, y = chart.points(group)[-1]
            assert chart.value(y) == pytest.approx(total, abs=chart.tolerance)
            label = group.find("svg:text", NS)
            assert label is not None and label.text == f"{sides[side]} {number(total)}"


def test_every_line_starts_at_zero_before_the_first_hand() -> None:
    game, result = scored(match("troggu-evening"))
    chart = Chart(running_totals(game, match("troggu-evening").settings, result))
    starts = {chart.points(g)[0] for g in chart.series()}
    assert len(starts) == 1
    assert chart.value(starts.pop()[1]) == pytest.approx(0, abs=chart.tolerance)


@pytest.mark.parametrize(("name", "target"), [
    ("tartli-short", 501),          # Tartli 7.1.2: a game is won at 501
    ("stovkahra-series", 100),      # Stovkahra 7.1: the game to 100
    ("marjolet-game", 500),         # Marjolet 7.2, the target of the match's settings
])
def test_the_target_a_game_is_won_at_is_drawn(name: str, target: int) -> None:
    m = match(name)
    game, result = scored(m)
    svg = running_totals(game, m.settings, result)
    chart = Chart(svg)
    assert chart.rules("target") == [target]
    assert chart.rules("zero") == []
    assert f"a game is won at {target}" in chart.root.get("aria-label", "")


def test_marjolet_to_1000_draws_its_own_target() -> None:
    m = match("marjolet-game")
    settings = get("marjolet").settings({**m.settings, "target": 1000})
    game, result = get("marjolet"), get("marjolet").score(settings, m.hands[:2])
    assert Chart(running_totals(game, settings, result)).rules("target") == [1000]


def test_troggu_balances_have_a_zero_line_and_no_target() -> None:
    m = match("troggu-evening")
    game, result = scored(m)
    chart = Chart(running_totals(game, m.settings, result))
    assert chart.rules("target") == []
    assert chart.rules("zero") == [0]
    assert len(chart.series()) == len(m.settings["players"])
    assert any(chart.value(y) < 0 for g in chart.series() for _, y in chart.points(g))


@pytest.mark.parametrize("name", ["tartli-short", "tartli-complete", "stovkahra-series",
                                  "marjolet-game"])
def test_a_mark_where_each_game_was_won_on_the_winners_line(name: str) -> None:
    m = match(name)
    game, result = scored(m)
    chart = Chart(running_totals(game, m.settings, result))
    groups = chart.series()
    won = [hand for hand in result.hands if hand.award is not None]
    assert won                                              # the files hold games won
    for side, group in enumerate(groups):
        marks = group.findall("svg:circle", NS)
        mine = [hand for hand in won if hand.award is not None and hand.award.winner == side]
        assert len(marks) == len(mine)
        line = chart.points(group)
        for mark, hand in zip(marks, mine):
            x, y = float(mark.get("cx", "")), float(mark.get("cy", ""))
            assert (x, y) in line                           # on the winner's line
            assert chart.value(y) == pytest.approx(hand.totals_after[side],
                                                   abs=chart.tolerance)
            tip = mark.find("svg:title", NS)
            assert tip is not None and tip.text == (
                f"{game.hand_word.capitalize()} {hand.number}: {hand.summary}")


def test_after_a_game_is_won_the_totals_drop_back_to_zero() -> None:
    # Tartli 7.1.3: when buli are awarded both running totals are reset to 0
    m = match("tartli-short")
    game, result = scored(m, 2)
    assert result.hands[1].reset
    chart = Chart(running_totals(game, m.settings, result))
    for side, group in enumerate(chart.series()):
        line = chart.points(group)
        peak = next(p for p in line if chart.value(p[1]) == pytest.approx(
            result.hands[1].totals_after[side], abs=chart.tolerance) and p != line[0]
            and p[0] > line[1][0])
        after = line[line.index(peak) + 1]
        assert after[0] == peak[0]                          # straight down, at that hand
        assert chart.value(after[1]) == pytest.approx(0, abs=chart.tolerance)


def test_no_chart_before_the_first_hand() -> None:
    m = match("tartli-short")
    game, result = scored(m, 0)
    assert running_totals(game, m.settings, result) == ""


def test_names_with_markup_and_quotes_are_escaped() -> None:
    m = match("tartli-short")
    name = "<i>\"Á\"&'B'</i>"           # 15 characters: the label shows it whole
    settings = get("tartli").settings({**m.settings, "players": [name, "x<y"]})
    game = get("tartli")
    result = game.score(settings, m.hands[:1])
    svg = running_totals(game, settings, result)
    assert "<i>" not in svg and "x<y" not in svg
    chart = Chart(svg)                                      # still well-formed XML
    assert [g.get("data-label") for g in chart.series()] == [name, "x<y"]
    labels = [g.find("svg:text", NS) for g in chart.series()]
    assert [t.text for t in labels if t is not None] == [
        f"{name} {result.standing.totals[0]}", f"x<y {result.standing.totals[1]}"]
    assert name in chart.root.get("aria-label", "")
    title = chart.root.find("svg:title", NS)
    assert title is not None and name in (title.text or "")


@pytest.mark.parametrize("layout", [PHONE, PAPER])
def test_a_long_name_is_cut_in_the_legend_but_whole_in_the_title(layout: Layout) -> None:
    m = match("tartli-short")
    name = "Maximilian-Alexander von Habsburg-Lothr"          # 40 characters, the most
    settings = get("tartli").settings({**m.settings, "players": [name, "Tamás"]})
    game = get("tartli")
    result = game.score(settings, m.hands[:1])
    chart = Chart(running_totals(game, settings, result, layout=layout))
    total = result.standing.totals[0]
    for group in chart.series():
        text = group.find("svg:text", NS)
        assert text is not None and text.text
        assert float(text.get("x", "")) + len(text.text) * layout.char <= layout.width
    label = chart.series()[0].find("svg:text", NS)
    assert label is not None and label.text
    shown, _, end = label.text.rpartition(" ")
    assert end == str(total)
    if len(name) * layout.char + 30 > layout.width - 8:
        assert shown.endswith("…") and name.startswith(shown[:-1])
    else:
        assert shown == name
    assert f"{name} {total}" in chart.root.get("aria-label", "")


def test_the_chart_has_an_accessible_name_with_every_total() -> None:
    m = match("marjolet-game")
    game, result = scored(m)
    root = ET.fromstring(running_totals(game, m.settings, result))
    assert root.get("role") == "img"
    label = root.get("aria-label", "")
    for side, name in enumerate(game.sides(m.settings)):
        assert f"{name} {result.standing.totals[side]}" in label


@pytest.mark.parametrize("name", FILES)
def test_no_script_no_style_attribute_and_colours_by_class(name: str) -> None:
    # The page's CSP refuses inline styles and scripts; the site's CSS colours each line
    m = match(name)
    game, result = scored(m)
    root = ET.fromstring(running_totals(game, m.settings, result))
    for element in root.iter():
        assert "style" not in element.attrib
        assert element.tag.split("}")[-1] not in ("script", "style", "foreignObject")
        assert not any(key.startswith("on") for key in element.attrib)
    classes = [g.get("class", "").split() for g in Chart(ET.tostring(root, "unicode")).series()]
    assert [c[1] for c in classes] == [f"series-{i}" for i in range(len(classes))]
    assert root.get("viewBox") and root.get("width") == "100%"


def test_lines_differ_by_dash_pattern_not_only_by_colour() -> None:
    m = match("troggu-evening")
    game, result = scored(m)
    chart = Chart(running_totals(game, m.settings, result))
    dashes = []
    for group in chart.series():
        polyline = group.find("svg:polyline", NS)
        assert polyline is not None
        dashes.append(polyline.get("stroke-dasharray", "solid"))
    assert len(set(dashes)) == len(dashes)


def test_the_standalone_file_carries_its_own_dark_mode() -> None:
    m = match("tartli-short")
    game, result = scored(m)
    svg = running_totals(game, m.settings, result, standalone=True)
    assert svg.startswith("<?xml")
    root = ET.fromstring(svg.encode())
    style = root.find("svg:style", NS)
    assert style is not None and "prefers-color-scheme: dark" in (style.text or "")


def test_a_chart_of_1000_hands_stays_small_and_ends_at_the_standings() -> None:
    data = troggu_file(1000)
    m = matchfile.load(json.dumps(data).encode())
    game, result = scored(m)
    svg = running_totals(game, m.settings, result)
    assert len(svg.encode()) < 30_000
    chart = Chart(svg)
    for side, group in enumerate(chart.series()):
        assert len(chart.points(group)) < 1000
        assert chart.value(chart.points(group)[-1][1]) == pytest.approx(
            result.standing.totals[side], abs=chart.tolerance)


def test_a_chart_of_one_hand() -> None:
    m = match("troggu-evening")
    game, result = scored(m, 1)
    chart = Chart(running_totals(game, m.settings, result))
    for group in chart.series():
        assert len(chart.points(group)) == 2                # from 0 to the first hand


def test_line_chart_draws_any_series_over_time() -> None:
    svg = line_chart(
        [Series("Anna", [(1, 3), (2, 5), (3, 12)]), Series("Beat", [(1, 7), (2, -4)])],
        title="Results over time", x_label="Evenings",
    )
    chart = Chart(svg)
    anna, beat = chart.series()
    assert chart.value(chart.points(anna)[-1][1]) == pytest.approx(12, abs=chart.tolerance)
    assert chart.value(chart.points(beat)[-1][1]) == pytest.approx(-4, abs=chart.tolerance)
    assert chart.root.get("aria-label") == "Results over time"


def test_line_chart_marks_the_time_axis_as_told() -> None:
    svg = line_chart([Series("Anna", [(0, 3), (1, 5), (2, 4)])], title="Evenings",
                     x_ticks=[(0, "1 Dec"), (2, "<3 Dec>")])
    ticks = [t.text for t in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}text")
             if t.get("class") == "tick"]
    assert "1 Dec" in ticks and "<3 Dec>" in ticks                  # escaped, read back


@pytest.mark.parametrize("points", [
    [],                                           # nothing yet
    [(1, 0)],                                     # one point
    [(1, 7), (2, 7), (3, 7)],                     # flat
    [(1, -5), (2, -250), (3, -40)],               # below zero only
    [(1, 0.5), (2, 1_000_000)],                   # far apart, not whole
])
def test_line_chart_draws_any_values(points: list[tuple[float, float]]) -> None:
    chart = Chart(line_chart([Series("A", points), Series("B", [(1, 1)])], title="t"))
    line = chart.points(chart.series()[0])
    assert min(len(points), 2) <= len(line) <= len(points)     # a flat run drawn end to end
    if points:
        assert chart.value(line[-1][1]) == pytest.approx(points[-1][1], abs=chart.tolerance)
    width, height = map(float, chart.root.get("viewBox", "").split()[2:])
    assert all(0 <= x <= width and 0 <= y <= height for x, y in line)


def test_totals_that_do_not_move_still_draw_a_line() -> None:
    # a Troggu hand in which nobody pays (every balance stays 0)
    series = [Series(n, [(0, 0), (1, 0)]) for n in ("A", "B", "C")]
    chart = Chart(line_chart(series, title="t", rules=[Rule(0, "", "zero")]))
    for group in chart.series():
        assert [chart.value(y) for _, y in chart.points(group)] == pytest.approx([0, 0],
                                                                                abs=0.01)


def test_thinning_keeps_the_ends_and_every_peak() -> None:
    import random

    rng = random.Random(13)
    y = 100.0
    points = []
    for n in range(5000):
        y += rng.uniform(-3, 3)
        points.append((n * 0.05, y))                 # 20 points to a unit of width
    kept = thin(points, 1.0, 1)
    assert len(kept) <= 4 * 251
    assert kept[0] == (0.0, round(points[0][1], 1))
    assert kept[-1] == (round(points[-1][0], 1), round(points[-1][1], 1))
    assert min(p[1] for p in kept) == round(min(p[1] for p in points), 1)
    assert max(p[1] for p in kept) == round(max(p[1] for p in points), 1)
    assert [p[0] for p in kept] == sorted(p[0] for p in kept)


def test_many_marks_are_dots_in_one_path_each_on_its_line() -> None:
    points = [(n, (n * 37) % 101) for n in range(200)]
    marks = [Mark(x, y, f"game {x}") for x, y in points[::2]]        # 100 marks
    chart = Chart(line_chart([Series("A", points, marks)], title="t"))
    group = chart.series()[0]
    assert group.findall("svg:circle", NS) == []                       # no tooltip each
    path = group.find("svg:path[@class='mark']", NS)
    assert path is not None
    dots = re.findall(r"M([\d.]+) ([\d.]+)h0", path.get("d", ""))
    assert 0 < len(dots) <= len(marks)
    for _x, y in dots:                 # each dot at a mark's value, within rounding
        value = chart.value(float(y))
        assert any(abs(value - m.y) <= chart.tolerance * 2 for m in marks)


def test_lines_with_the_same_points_all_show() -> None:
    """Partners in a circle have equal results day by day: of three identical lines each is
    drawn wider than the one drawn on it (the first the widest), so every colour shows along
    the whole line, each with its own dash pattern and legend entry; the points stay the
    data's (issue 21, item 9)."""
    points = ((0.0, 0.0), (1.0, 2.0), (2.0, 1.0), (3.0, 3.0))
    svg = line_chart([Series(name, points) for name in ("Jana", "Eva", "Petr")]
                     + [Series("Karel", ((0.0, 0.0), (3.0, -1.0)))], title="t")
    root = ET.fromstring(svg)
    polylines = list(root.iter("{http://www.w3.org/2000/svg}polyline"))
    assert len({p.get("points") for p in polylines[:3]}) == 1
    widths = [float(p.get("stroke-width", "")) for p in polylines]
    assert widths[0] > widths[1] > widths[2] == widths[3] == 2
    assert widths[1] - widths[2] >= 2 and widths[0] - widths[1] >= 2   # a colour seen each side
    dashes = [p.get("stroke-dasharray") for p in polylines]
    assert len(set(dashes)) == len(dashes)
    legend = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert {"Jana", "Eva", "Petr", "Karel"} <= set(legend)


def test_a_chart_of_ratings_spans_their_values_not_zero() -> None:
    """Ratings about 1000 (referee.stats.ratings): ``zero=False`` keeps the value axis to the
    values and rules, so a change of 40 is not a hair's breadth at the top of the chart."""
    series = [Series("Anna", [(0, 1000), (1, 1138), (2, 1066)]),
              Series("Béla", [(0, 1000), (1, 927)])]
    chart = Chart(line_chart(series, title="t", rules=[Rule(1000, "", "zero")], zero=False))
    anna, _ = chart.series()
    assert chart.value(chart.points(anna)[-1][1]) == pytest.approx(1066, abs=chart.tolerance)
    grid = _grid(chart)
    assert min(grid) >= 900 and max(grid) <= 1200, grid
    assert min(_grid(Chart(line_chart(series, title="t")))) == 0     # the default: from 0


def _grid(chart: Chart) -> list[float]:
    return [float(line.get("data-value", "")) for line in
            chart.root.iterfind("svg:g[@class='grid']/svg:line", NS)]
