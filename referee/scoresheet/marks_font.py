"""The suits' marks as a font, for the scoresheet (issue 12).

An ``<img>`` per card was the sheet's dearest part: WeasyPrint lays out each image as a box of
its own and draws its SVG anew each time (a third of the explanations' time). The same marks,
drawn from the same SVG files (static/img/suits/), as the glyphs of a small font are laid out and
drawn as text: ``card`` writes a card as its rank followed by its suit's character, a code point
of Unicode's private use area that the sheet's other font (DejaVu Sans) leaves empty.

``build`` makes the font from the SVG files with fontTools (WeasyPrint's own dependency);
``python -m referee.scoresheet.marks_font`` writes it to static/fonts/ (the test checks that the
file there is what the SVG files make). The glyphs have the images' size and place: one em
wide and tall, their foot 0.12 em below the baseline."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

STATIC = Path(__file__).resolve().parents[2] / "static"
FONT = STATIC / "fonts" / "suit-marks.ttf"
FAMILY = "Referee suit marks"

# Every suit with a mark, in a fixed order: its character is FIRST + its index.
SUITS = ("acorns", "leaves", "hearts", "bells", "cups", "coins", "swords", "batons", "spades",
         "diamonds", "clubs")
FIRST = 0xE000
UNITS = 1000                        # font units per em
BOX = 24                            # the SVG files' viewBox: 0 0 24 24
DROP = 120                          # the foot below the baseline (the image's -0.12em)
# SVG units (y downwards) to font units (y upwards, the baseline at 0)
MADE = 3_850_070_400                # 2026-01-01 in the font's clock (seconds since 1904)
PLACE = (UNITS / BOX, 0, 0, -UNITS / BOX, 0, UNITS - DROP)


def character(suit: str) -> str:
    """The character that prints ``suit``'s mark in this font."""
    return chr(FIRST + SUITS.index(suit))


def _contours(d: str) -> list[list[tuple[str, tuple[tuple[float, float], ...]]]]:
    """The SVG path ``d`` as the pen calls of each contour, in font units (y upwards)."""
    from fontTools.pens.recordingPen import RecordingPen
    from fontTools.pens.transformPen import TransformPen
    from fontTools.svgLib.path import parse_path

    recorded = RecordingPen()
    parse_path(d, TransformPen(recorded, PLACE))
    contours: list[list[tuple[str, tuple[tuple[float, float], ...]]]] = []
    for operator, points in recorded.value:
        if operator == "moveTo":
            contours.append([])
        contours[-1].append((operator, tuple(points)))
    return contours


def _replay(contour: list[tuple[str, tuple[tuple[float, float], ...]]], pen: object) -> None:
    for operator, points in contour:
        getattr(pen, operator)(*points)


Point = tuple[float, float]


def outlines(d: str, transform: tuple[float, ...] = (1, 0, 0, 1, 0, 0)) -> list[list[Point]]:
    """The SVG path ``d`` as polygons, one per contour, its curves cut into short lines: for
    telling which contour lies inside which."""
    from fontTools.pens.transformPen import TransformPen
    from fontTools.svgLib.path import parse_path

    return flattened(lambda pen: parse_path(d, TransformPen(pen, transform)))


def flattened(draw: Callable[[Any], object]) -> list[list[Point]]:
    """What ``draw`` draws on a pen (an SVG path, a glyph) as polygons, one per contour."""
    from fontTools.pens.basePen import BasePen

    polygons: list[list[Point]] = []

    class Flat(BasePen):  # type: ignore[misc]
        def _moveTo(self, point: Point) -> None:
            polygons.append([point])

        def _lineTo(self, point: Point) -> None:
            polygons[-1].append(point)

        def _curveToOne(self, a: Point, b: Point, c: Point) -> None:
            (x0, y0) = polygons[-1][-1]
            for step in range(1, 17):
                t = step / 16
                u = 1 - t
                polygons[-1].append((
                    u ** 3 * x0 + 3 * u * u * t * a[0] + 3 * u * t * t * b[0] + t ** 3 * c[0],
                    u ** 3 * y0 + 3 * u * u * t * a[1] + 3 * u * t * t * b[1] + t ** 3 * c[1]))

        def _qCurveToOne(self, a: Point, b: Point) -> None:
            (x0, y0) = polygons[-1][-1]
            for step in range(1, 17):
                t = step / 16
                u = 1 - t
                polygons[-1].append((u * u * x0 + 2 * u * t * a[0] + t * t * b[0],
                                     u * u * y0 + 2 * u * t * a[1] + t * t * b[1]))

    draw(Flat(None))
    return polygons


def winding(polygon: list[Point], point: Point) -> int:
    """How many times ``polygon`` turns around ``point`` (0: outside)."""
    x, y = point
    turns = 0
    for (x0, y0), (x1, y1) in zip(polygon, polygon[1:] + polygon[:1], strict=True):
        if (y0 <= y) != (y1 <= y):
            crossing = x0 + (y - y0) * (x1 - x0) / (y1 - y0)
            if crossing > x:
                turns += 1 if y1 > y0 else -1
    return turns


def _glyph(svg: str) -> object:
    """A TrueType glyph of the SVG file's path. An even-odd path's holes (the bell's band, the
    coin's ring) are turned against the contours around them, so that TrueType's non-zero fill
    leaves them open."""
    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.reverseContourPen import ReverseContourPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen

    path = re.search(r'<path[^>]*\sd="([^"]+)"', svg)
    assert path is not None, "a suit's mark is one SVG path"
    even_odd = 'fill-rule="evenodd"' in svg
    contours = _contours(path.group(1))
    polygons = outlines(path.group(1), PLACE)

    def clockwise(polygon: list[Point]) -> bool:
        return sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1)
                   in zip(polygon, polygon[1:] + polygon[:1], strict=True)) < 0

    def depth(index: int) -> int:
        # a point just inside the contour, off its edge: a twentieth of the way from its start
        # to the mean of its points (the bell's band starts a hair outside the bell)
        points = polygons[index]
        (x, y), n = points[0], len(points)
        mean = (sum(p[0] for p in points) / n, sum(p[1] for p in points) / n)
        probe = (x + (mean[0] - x) / 20, y + (mean[1] - y) / 20)
        return sum(winding(other, probe) != 0 for i, other in enumerate(polygons) if i != index)

    glyph_pen = TTGlyphPen(None)
    quadratic = Cu2QuPen(glyph_pen, max_err=1.0, reverse_direction=False)
    for index, contour in enumerate(contours):
        turns = clockwise(polygons[index])
        wanted = depth(index) % 2 == 0 if even_odd else turns
        _replay(contour, quadratic if turns == wanted else ReverseContourPen(quadratic))
    return glyph_pen.glyph()


def build() -> bytes:
    """The font file of every suit's mark."""
    import io

    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.ttGlyphPen import TTGlyphPen

    names = [".notdef", *SUITS]
    builder = FontBuilder(UNITS, isTTF=True)
    builder.setupGlyphOrder(names)
    builder.setupCharacterMap({ord(character(suit)): suit for suit in SUITS})
    glyphs = {".notdef": TTGlyphPen(None).glyph()}
    for suit in SUITS:
        glyphs[suit] = _glyph((STATIC / "img" / "suits" / f"{suit}.svg").read_text("utf-8"))
    builder.setupGlyf(glyphs)
    glyf = builder.font["glyf"]
    for name in SUITS:
        glyf[name].recalcBounds(glyf)
    # each glyph's left side bearing is where its outline starts (its place in the em)
    builder.setupHorizontalMetrics({name: (UNITS if name in SUITS else 0,
                                           getattr(glyf[name], "xMin", 0)) for name in names})
    # Within DejaVu Sans's own ascent and descent: a line holding a mark is no taller.
    builder.setupHorizontalHeader(ascent=UNITS - DROP, descent=-DROP)
    builder.setupNameTable({"familyName": FAMILY, "styleName": "Regular"})
    builder.setupOS2(sTypoAscender=UNITS - DROP, sTypoDescender=-DROP, sTypoLineGap=0,
                     usWinAscent=UNITS - DROP, usWinDescent=DROP)
    builder.setupPost()
    head = builder.font["head"]
    head.created = head.modified = MADE          # the same file from the same marks
    builder.font.recalcTimestamp = False
    out = io.BytesIO()
    builder.save(out)
    return out.getvalue()


if __name__ == "__main__":
    FONT.parent.mkdir(exist_ok=True)
    FONT.write_bytes(build())
    print(f"wrote {FONT}")
