"""Charts as inline SVG, drawn on the server: no script, no style attribute (the pages' CSP
refuses inline styles), colours from the site's style sheets.

``line_chart`` draws labelled series of (x, y) points over time; ``running_totals`` builds on
it the chart of a match: one line per side (``Game.sides``) from 0 before the first hand to its
total after the last, a mark where a side won a game, the target a game is won at
(``Game.points_target``) and the drop back to 0 where the totals reset after a game.

Every line, mark and legend entry carries a class (``series-0`` … ``series-7``) that the site's
CSS colours, in light and in dark mode (static/css/referee.css, night.css); the SVG's own
presentation attributes are the colours of paper (the PDF, a file opened alone). Lines differ
by dash pattern too, shown in the legend beside each side's name and total. A long match is
thinned to what the width can show (the first, lowest, highest and last point per column of
the width), so a chart of 1,000 hands stays a few kilobytes. Text is scaled with the chart:
``PHONE`` keeps it at 14 px or more on a phone, ``PAPER`` suits the sheet.

Pure Python: the web pages, the PDF scoresheet (referee.scoresheet) and the command line use it.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

from .engine.games.base import Game, MatchResult
from .engine.words import N, T, Text
from .numbers import number as written

Say = Callable[[Text], str]
"""How a chart's caller says an engine sentence in its reader's language (default: English,
as written: ``str``)."""

Number = Callable[[float | str], str]
"""How a chart's caller writes a number in its reader's language (default: the request's,
English without one: ``numbers.number``)."""

TITLED_MARKS = 60            # marks beyond this many are drawn without a tooltip each
POINTS = 2400                # about the most points of all lines together (4 per column)

# The lines' colours on paper (the sheet, a file opened alone) and at night: the site's own
# (--chart-0 … --chart-7 in static/css/referee.css and night.css), which override these on a page.
PALETTE = ("#1f5fa8", "#b3261e", "#1f6f5c", "#8f5500", "#6a3d9a", "#0f6b7a", "#9c2a6b", "#4d5560")
NIGHT = ("#8cc4ff", "#ff9c94", "#5fc9ab", "#f2c26b", "#c9a3ff", "#6fd3e3", "#ff8fd0", "#c3cad3")
LINE, UNDER = 2, 2.5    # a line's width; how much wider one drawn under an identical one is
DASHES = ("", "7 4", "2 3", "9 3 2 3", "4 2", "12 4", "1 3", "6 2 1 2")
INK = "#1d232b"
MUTED = "#5b6470"

# A file opened alone has no site CSS: its own dark colours (those of night.css).
STANDALONE_STYLE = """
svg.chart { color: #1d232b; background: #fff; }
@media (prefers-color-scheme: dark) {
  svg.chart { color: #e8eaed; background: #121519; }
""" + "".join(
    f"  .chart .series-{i} {{ stroke: {c}; fill: {c}; }}\n" for i, c in enumerate(NIGHT)
) + """  .chart .grid, .chart .axis { stroke: #b4bcc6; }
  .chart text.tick { fill: #b4bcc6; }
  .chart .rule line { stroke: #e8eaed; }
  .chart .rule text { fill: #e8eaed; }
}
"""


@dataclass(frozen=True)
class Mark:
    """A point to mark on a series (a game won), with what it means (its tooltip)."""

    x: float
    y: float
    text: str


@dataclass(frozen=True)
class Series:
    """A labelled line: its points in order of x, the marks on it, and what its legend says
    after the label (e.g. the total)."""

    label: str
    points: Sequence[tuple[float, float]]
    marks: Sequence[Mark] = ()
    note: str = ""


@dataclass(frozen=True)
class Rule:
    """A horizontal line across the chart: a target, or the zero of balances."""

    y: float
    label: str
    kind: str = "target"          # its class: "target" or "zero"


@dataclass
class _Scale:
    x0: float
    x1: float
    y0: float
    y1: float
    left: float
    right: float
    top: float
    bottom: float

    def x(self, value: float) -> float:
        return self.left + (value - self.x0) / (self.x1 - self.x0) * (self.right - self.left)

    def y(self, value: float) -> float:
        return self.bottom - (value - self.y0) / (self.y1 - self.y0) * (self.bottom - self.top)

    def all(self, points: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
        """``points`` on the screen (``x`` and ``y`` of each, at once)."""
        ax = (self.right - self.left) / (self.x1 - self.x0)
        bx = self.left - self.x0 * ax
        ay = -(self.bottom - self.top) / (self.y1 - self.y0)
        by = self.bottom - self.y0 * ay
        return [(ax * x + bx, ay * y + by) for x, y in points]


def _number(value: float) -> str:
    """A coordinate: one decimal at most, no trailing zero."""
    text = f"{value:.1f}"
    text = text[:-2] if text.endswith(".0") else text
    return "0" if text == "-0" else text


def _text(value: str) -> str:
    """Text or an attribute value, safe in HTML and in XML (quotes included)."""
    return escape(value, quote=True)


def nice_step(span: float, count: int = 5) -> float:
    """A round step (1, 2 or 5 times a power of ten) that cuts ``span`` in about ``count``."""
    if span <= 0:
        return 1.0
    raw = span / count
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if factor * power >= raw:
            return float(factor * power)
    return float(10 * power)   # pragma: no cover


def ticks(low: float, high: float, count: int = 5) -> list[float]:
    step = nice_step(high - low, count)
    first = math.ceil(low / step) * step
    values = []
    value = first
    while value <= high + step * 1e-9:
        values.append(round(value, 9))
        value += step
    return values


def thin(points: Sequence[tuple[float, float]], column: float = 1.0,
         digits: int = 1) -> list[tuple[float, float]]:
    """Screen points thinned to what a column ``column`` units wide shows: per column the
    first, the lowest, the highest and the last point (in their order), rounded to ``digits``
    decimals; then no repeated point and no middle point of a straight horizontal or vertical
    run. The first and the last point are always kept."""
    kept: list[int] = []            # the indices of the points kept
    key: float | None = None
    start = low = high = 0
    for index, (x, y) in enumerate(points):
        column_of = x // column
        if column_of != key:
            if key is not None:
                kept.extend(sorted({start, low, high, index - 1}))
            key, start, low, high = column_of, index, index, index
        elif y > points[low][1]:    # screen y grows downwards
            low = index
        elif y < points[high][1]:
            high = index
    if points:
        kept.extend(sorted({start, low, high, len(points) - 1}))
    out: list[tuple[float, float]] = []
    for index in kept:
        x, y = points[index]
        point = (round(x, digits), round(y, digits))
        if out and out[-1] == point:
            continue
        if len(out) >= 2:
            (ax, ay), (bx, by) = out[-2], out[-1]
            if (ay == by == point[1]) or (ax == bx == point[0]):
                out[-1] = point
                continue
        out.append(point)
    return out


def cut(label: str, room: int) -> str:
    """``label`` in at most ``room`` characters (cut with an ellipsis)."""
    return label if len(label) <= room else label[: max(room - 1, 1)].rstrip() + "…"


@dataclass(frozen=True)
class Layout:
    """The size of a chart in viewBox units, and of its text. Text is scaled with the chart:
    PHONE is drawn about one unit per CSS pixel on a phone (the text at least 14 px), PAPER
    for the sheet and a file of its own, wider with smaller text."""

    width: int
    plot: int                   # the height of the plot with its axes, above the legend
    font: float

    @property
    def char(self) -> float:
        return 0.6 * self.font  # about the width of one character


PHONE = Layout(280, 170, 14)
PAPER = Layout(600, 240, 11)


def _legend_columns(entries: list[str], layout: Layout, sample: float) -> int:
    """The most columns (up to 4) in which every legend entry fits whole; else 1."""
    for columns in range(min(4, len(entries)), 1, -1):
        room = (layout.width - 8) / columns - sample
        if all(len(e) * layout.char <= room for e in entries):
            return columns
    return 1


def line_chart(
    series: Sequence[Series], *, title: str, x_label: str = "", rules: Sequence[Rule] = (),
    x_range: tuple[float, float] | None = None,
    x_ticks: Sequence[tuple[float, str]] | None = None, layout: Layout = PHONE,
    standalone: bool = False, number: Number = written, zero: bool = True,
) -> str:
    """An SVG of ``series`` (labelled lines of (x, y) points) with a legend under it (each
    line's sample, its label and its note), horizontal ``rules`` and ``title`` as its
    accessible name. ``x_ticks``: the (x, text) marked under the time axis (e.g. dates;
    default: a few round numbers). ``standalone``: a file of its own (an XML declaration and
    its own style sheet for dark mode), else an element to put inside a page; ``number``: how
    the value axis writes its numbers; ``zero``: the value axis reaches 0 (False: it spans
    the values and rules alone, e.g. ratings about 1000)."""
    font, char = layout.font, layout.char
    xs = [x for s in series for x, _ in s.points]
    ys = [y for s in series for _, y in s.points] + [r.y for r in rules]
    x0, x1 = x_range if x_range is not None else (min(xs, default=0), max(xs, default=1))
    if x1 <= x0:
        x1 = x0 + 1
    y0, y1 = min(ys, default=0.0), max(ys, default=1.0)
    if zero:
        y0, y1 = min(y0, 0.0), max(y1, 0.0)
    if y1 <= y0:
        y1 = y0 + 1
    pad = (y1 - y0) * 0.05
    y_ticks = ticks(y0, y1, 4)
    y0, y1 = min(y0 - (0 if zero else pad), y_ticks[0]), max(y1 + pad, y_ticks[-1])
    tick_chars = max((len(_tick(v)) for v in y_ticks), default=1)
    left = 6 + tick_chars * char
    right = layout.width - 8.0
    scale = _Scale(x0, x1, y0, y1, left, right, font + 4, layout.plot - font - 8)

    # the legend: one entry per line, in as many columns as fit
    sample = 30.0
    entries = [s.label + (f" {s.note}" if s.note else "") for s in series]
    columns = _legend_columns(entries, layout, sample)
    if columns == 1:
        room = int((layout.width - 8 - sample) / char)
        entries = [cut(s.label, room - len(s.note) - 1 if s.note else room)
                   + (f" {s.note}" if s.note else "") for s in series]
    row = font + 6
    rows = math.ceil(len(series) / columns)
    height = layout.plot + rows * row + 2
    column_width = (layout.width - 8) / columns

    parts: list[str] = []
    parts.append(
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" '
        f'viewBox="0 0 {layout.width} {_number(height)}" width="100%" role="img" '
        f'aria-label="{_text(title)}" font-size="{_number(font)}" font-family="sans-serif" '
        f'color="{INK}">'
    )
    parts.append(f"<title>{_text(title)}</title>")
    if standalone:
        parts.append(f"<style>{STANDALONE_STYLE}</style>")
    # the grid and the value axis
    parts.append(f'<g class="grid" stroke="{MUTED}" stroke-width="0.5" stroke-opacity="0.5">')
    for value in y_ticks:
        y = _number(scale.y(value))
        parts.append(
            f'<line x1="{_number(left)}" x2="{_number(right)}" y1="{y}" y2="{y}" '
            f'data-value="{_tick(value)}"/>'
        )
    parts.append("</g>")
    parts.append(f'<g fill="{MUTED}" text-anchor="end">')
    for value in y_ticks:
        parts.append(
            f'<text class="tick" x="{_number(left - 3)}" '
            f'y="{_number(scale.y(value) + font / 3)}">{number(_tick(value))}</text>'
        )
    parts.append("</g>")
    # the time axis: a few whole numbers, the first named
    if x_ticks is None:
        x_ticks = [(v, _tick(v)) for v in ticks(x0, x1, 4)
                   if v == int(v) and not (x_label and v == x0)]
    below = _number(scale.bottom + font + 2)
    parts.append(f'<g fill="{MUTED}" text-anchor="middle">')
    for value, text in x_ticks:
        parts.append(
            f'<text class="tick" x="{_number(scale.x(value))}" y="{below}">'
            f"{_text(text)}</text>"
        )
    if x_label:
        parts.append(
            f'<text class="tick" x="{_number(left)}" y="{below}" text-anchor="start">'
            f"{_text(x_label)}</text>"
        )
    parts.append("</g>")
    parts.append(
        f'<line class="axis" x1="{_number(left)}" x2="{_number(left)}" '
        f'y1="{_number(scale.top)}" y2="{_number(scale.bottom)}" stroke="{MUTED}"/>'
    )
    for rule in rules:
        y = _number(scale.y(rule.y))
        dash = ' stroke-dasharray="5 3"' if rule.kind == "target" else ""
        parts.append(
            f'<g class="rule {_text(rule.kind)}" data-value="{_tick(rule.y)}">'
            f'<line x1="{_number(left)}" x2="{_number(right)}" y1="{y}" y2="{y}" '
            f'stroke="{INK}" stroke-width="1"{dash}/>'
            + (f'<text x="{_number(left + 3)}" y="{_number(scale.y(rule.y) - 3)}" '
               f'fill="{INK}">{_text(rule.label)}</text>' if rule.label else "")
            + "</g>"
        )
    # the lines with their marks, and each one's entry in the legend
    marks = sum(len(s.marks) for s in series)
    many = marks > TITLED_MARKS
    # the points a width can show, shared by the lines: columns about 1 unit wide for two
    # lines, wider for more; whole units where there are many points, else one decimal
    column = max(1.0, 4 * len(series) * (right - left) / POINTS)
    dense = sum(len(s.points) for s in series) > POINTS // 4
    digits = 0 if dense else 1
    screens = [thin(scale.all(line.points), column, digits) for line in series]
    # lines with the same points (partners in a circle, players level all along): each drawn
    # wider than those drawn on it, so every one shows along its whole length
    later = Counter(tuple(screen) for screen in screens)
    for index, (line, entry) in enumerate(zip(series, entries)):
        colour = PALETTE[index % len(PALETTE)]
        dash = DASHES[index % len(DASHES)]
        dashes = f' stroke-dasharray="{dash}"' if dash else ""
        parts.append(
            f'<g class="series series-{index % len(PALETTE)}" stroke="{colour}" '
            f'fill="{colour}" data-label="{_text(line.label)}">'
        )
        screen = screens[index]
        later[tuple(screen)] -= 1
        width = _number(LINE + UNDER * later[tuple(screen)])
        points = " ".join(f"{_number(x)},{_number(y)}" for x, y in screen)
        parts.append(
            f'<polyline points="{points}" fill="none" stroke-width="{width}" '
            f'stroke-linejoin="round"{dashes}/>'
        )
        parts.append(_marks(line.marks, scale, many, column, digits))
        at = 4 + (index % columns) * column_width
        middle = layout.plot + (index // columns) * row + row / 2
        parts.append(
            f'<line class="sample" x1="{_number(at)}" x2="{_number(at + sample - 6)}" '
            f'y1="{_number(middle)}" y2="{_number(middle)}" stroke-width="2"{dashes}/>'
            f'<text x="{_number(at + sample)}" y="{_number(middle + font / 3)}" stroke="none">'
            f"{_text(entry)}</text>"
        )
        parts.append("</g>")
    parts.append("</svg>")
    svg = "".join(parts)
    if standalone:
        return '<?xml version="1.0" encoding="UTF-8"?>\n' + svg + "\n"
    return svg


def _marks(marks: Sequence[Mark], scale: _Scale, many: bool, column: float, digits: int) -> str:
    """A series' marks: a dot each with its tooltip; where there are many, dots without
    tooltips in one path (a round cap on a line of length 0), one per spot of the width."""
    if not many:
        return "".join(
            f'<circle class="mark" cx="{_number(round(scale.x(m.x), digits))}" '
            f'cy="{_number(round(scale.y(m.y), digits))}" r="3.5" stroke-width="1.5">'
            f"<title>{_text(m.text)}</title></circle>"
            for m in marks
        )
    spots: dict[tuple[int, int], tuple[float, float]] = {}
    for mark in marks:
        x, y = scale.x(mark.x), scale.y(mark.y)
        spots.setdefault((math.floor(x / column), math.floor(y / 3)), (x, y))
    if not spots:
        return ""
    d = "".join(f"M{_number(round(x, digits))} {_number(round(y, digits))}h0"
                for x, y in spots.values())
    return (f'<path class="mark" d="{d}" fill="none" stroke-width="7" '
            'stroke-linecap="round"/>')


def _tick(value: float) -> str:
    return str(int(value)) if value == int(value) else _number(value)


def totals_series(
    game: Game, settings: dict[str, Any], result: MatchResult, *, say: Say = str,
    number: Number = written,
) -> tuple[list[Series], list[Rule], str]:
    """Each side's running total hand by hand (0 before the first hand; where a hand won a
    game and the totals reset, the line drops back to 0 at that hand), the marks of the games
    won, the target line (or the zero line where there is none) and the chart's title; its
    words said by ``say``, its numbers written by ``number``."""
    sides = game.sides(settings)
    deal = game.hand_word == "deal"
    points: list[list[tuple[float, float]]] = [[(0, 0)] for _ in sides]
    marks: list[list[Mark]] = [[] for _ in sides]
    for hand in result.hands:
        for side, total in enumerate(hand.totals_after):
            points[side].append((hand.number, total))
        if hand.award is not None:
            winner = hand.award.winner
            mark = (T("Deal %(number)s: %(summary)s", number=number(hand.number),
                      summary=hand.summary) if deal else
                    T("Hand %(number)s: %(summary)s", number=number(hand.number),
                      summary=hand.summary))
            marks[winner].append(Mark(hand.number, hand.totals_after[winner], say(mark)))
        if hand.reset:
            for side in range(len(sides)):
                points[side].append((hand.number, 0))
    totals = result.standing.totals
    series = [
        Series(say(name) if isinstance(name, Text) else name, tuple(points[side]),
               tuple(marks[side]), number(totals[side]))
        for side, name in enumerate(sides)
    ]
    target = game.points_target(settings)
    what = game.totals_label(settings) or game.victory_label(settings)
    said = say(what) if isinstance(what, Text) else what
    if said == what:      # English, as written: in the middle of the sentence (others as said)
        said = f"{said[:1].lower()}{said[1:]}"
    count = len(result.hands)
    values = ", ".join(f"{series[side].label} {number(totals[side])}"
                       for side in range(len(sides)))
    clauses = [
        T("Chart of the running totals after deal %(count)s, %(what)s: %(values)s",
          count=number(count), what=said, values=values) if deal else
        T("Chart of the running totals after hand %(count)s, %(what)s: %(values)s",
          count=number(count), what=said, values=values)
    ]
    won = sum(len(m) for m in marks)
    if won:
        clauses.append(N("%(num)s game won, marked", "%(num)s games won, marked", won,
                         num=number(won)))
    if target is not None:
        clauses.append(T("a game is won at %(target)s", target=number(target)))
        rules = [Rule(target, say(T("Target %(target)s", target=number(target))), "target")]
    else:
        rules = [Rule(0, "", "zero")]
    return series, rules, "; ".join(say(clause) for clause in clauses)


def running_totals(
    game: Game, settings: dict[str, Any], result: MatchResult, *, layout: Layout = PHONE,
    standalone: bool = False, say: Say = str, number: Number = written,
) -> str:
    """The chart of a match's running totals as SVG ('' before its first hand is scored): its
    words said by ``say`` (an engine sentence in the reader's language; default English), its
    numbers written by ``number``."""
    if not result.hands:
        return ""
    series, rules, title = totals_series(game, settings, result, say=say, number=number)
    x_label = say(T("Deals") if game.hand_word == "deal" else T("Hands"))
    return line_chart(
        series, title=title, x_label=x_label, rules=rules,
        x_range=(0, len(result.hands)), layout=layout, standalone=standalone, number=number,
    )
