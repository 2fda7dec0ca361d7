"""The scoresheet (issue 12): every hand's explanation stays on the sheet, as one flowing
paragraph per hand; the command line makes it with Jinja and WeasyPrint, without Flask."""

from __future__ import annotations

import gc
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont
from pypdf import PdfReader
from pypdf.generic import ContentStream

from referee.engine.cards import HUNGARIAN, Deck
from referee.engine.games import get
from referee.engine.matchfile import MatchFile, load
from referee.marks import stand_ins
from referee.scoresheet import (
    cyclic_gc_paused,
    environment,
    html_to_pdf,
    marks_font,
    render_html,
    render_pdf,
)
from referee.scoresheet.marks_font import FAMILY, FONT, SUITS, build, character

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
FILES = ["tartli-complete.json", "marjolet-game.json", "stovkahra-series.json",
         "troggu-evening.json"]
WORD = {"tartli": "Hand", "marjolet": "Deal", "stovkahra": "Deal", "troggu": "Hand"}


def squashed(text: str) -> str:
    return " ".join(text.split())


# A card as the engine writes it: rank and French symbol (the symbol may stand in for a suit).
CARD = re.compile(r"(?<![\w♠♥♦♣])(10|[1-9AKQJOUN])([♠♥♦♣])")
FRENCH_SYMBOLS = re.compile("[♠♥♦♣]")


def printed(text: str, deck: Deck) -> str:
    """An engine line as the sheet prints it: where the French symbols only stand in for the
    pack's suits, each card's rank followed by its suit's mark, a character of the sheet's font
    of marks (issue 12; it was an image)."""
    if not stand_ins(deck):
        return text
    by_symbol = {symbol: suit for suit, symbol in deck.suit_symbols.items()}
    return CARD.sub(lambda m: m.group(1) + character(deck.suit_names[by_symbol[m.group(2)]]),
                    text)


# every page's foot: the sheet's line ("Referee · Tartli · 2026-11-29") and the page's number
PAGE_FOOT = re.compile(r"Referee · [^·\n]+ · \d{4}-\d\d-\d\d|page \d+ of \d+")


def pdf_text(pdf: bytes) -> str:
    """The pages' text in a row, without their feet (a paragraph may go on overleaf)."""
    reader = PdfReader(io.BytesIO(pdf))
    return squashed(" ".join(PAGE_FOOT.sub(" ", page.extract_text()) for page in reader.pages))


def rappen(amount: int) -> str:
    return f"+{amount}" if amount > 0 else f"−{-amount}" if amount < 0 else "0"


@pytest.mark.parametrize("name", FILES)
def test_the_sheet_with_explanations_holds_every_line_of_every_hand(name: str) -> None:
    """Asked for with its explanations (an appendix): each hand's heading and each of its
    lines, with its points and its rule, as the page and the JSON give them (design: results
    explain themselves); a Hungarian or tarot card by its rank and its suit's mark (issue
    11)."""
    match = load((DATA / name).read_bytes())
    deck = get(match.game).deck
    result = get(match.game).score(match.settings, match.hands)
    text = pdf_text(render_pdf(match, explained=True))
    money = match.game == "troggu"
    assert result.hands
    for hand in result.hands:
        summary = printed(hand.summary, deck)
        assert squashed(f"{WORD[match.game]} {hand.number} — {summary}") in text
        for line in hand.lines:
            points = "" if line.points is None else \
                f" {rappen(line.points) if money else line.points}"
            assert squashed(f"{printed(line.text, deck)}{points} §{line.rule}") in text, line


@pytest.mark.parametrize("name", FILES)
def test_each_hand_is_explained_in_one_paragraph_not_a_list(name: str) -> None:
    """Issue 12: a list item per line was three quarters of the PDF's time; a hand's lines
    now flow in one paragraph of plain text, the hand's summary at its head (no bold heading:
    a box more per hand to lay out and draw)."""
    match = load((DATA / name).read_bytes())
    result = get(match.game).score(match.settings, match.hands)
    page = render_html(match, explained=True)
    explained = page[page.index("<h2>How each"):]
    paragraphs = re.findall(r'<p class="explain">(.*?)</p>', explained, re.S)
    assert len(paragraphs) == len(result.hands)
    for hand, paragraph in zip(result.hands, paragraphs, strict=True):
        assert paragraph.startswith(f"{WORD[match.game]} {hand.number} — ")
        assert paragraph.count(" §") == len(hand.lines)
        assert "<" not in paragraph
    assert "<li>" not in explained


@pytest.mark.parametrize("name", FILES)
def test_a_tables_cells_and_rows_follow_each_other_without_whitespace(name: str) -> None:
    """The whitespace that lays a template's table out line by line is no text of the sheet
    (HTML drops it between a table's cells and rows): each run of it was a node and a box more
    for the parser and WeasyPrint to make and then drop (issue 12). The text in a cell keeps
    its spaces (the first dealer's row: label, then the name)."""
    match = load((DATA / name).read_bytes())
    page = render_html(match)
    dealer = match.settings["players"][match.settings["first_dealer"]]
    assert f"<tr><th>First dealer</th><td>{dealer}</td></tr>" in page
    assert page.count("<td") > 20
    assert re.findall(r"</t[dh]>\s+<t[dh]|</tr>\s+<tr|<tr[^>]*>\s+<t[dh]|</t[dh]>\s+</tr>",
                      page) == []
    assert "Rules in force" in page


@pytest.mark.parametrize("name", FILES)
def test_the_explanations_are_an_appendix_the_table_asks_for(name: str) -> None:
    """Issue 12: every hand's explanation is seven of a 100-hand sheet's ten pages and half
    its time. The sheet is the record (the match's facts, a row per hand, the result, the
    chart); asked for, the explanations follow it all, the chart included."""
    match = load((DATA / name).read_bytes())
    plain, explained = render_html(match), render_html(match, explained=True)
    assert "How each" not in plain and 'class="explain"' not in plain
    assert explained.index("How each") > explained.index('class="chart"')
    # the same sheet before the appendix
    assert explained[:explained.index("<h2>How each")].rstrip() == \
        plain[:plain.index("</body>")].rstrip()


FLASK = ("flask", "flask_wtf", "flask_htmx", "werkzeug", "wtforms", "referee.web")


def test_the_command_line_makes_the_pdf_without_flask(tmp_path: Path) -> None:
    """``python -m referee pdf`` loads the engine, Jinja and WeasyPrint, never Flask or the web
    layer (issue 12): Python's own record of each import it made."""
    out = tmp_path / "sheet.pdf"
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "referee", "pdf",
         str(DATA / "troggu-evening.json"), "-o", str(out)],
        cwd=ROOT, capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    assert out.read_bytes().startswith(b"%PDF")
    imported = [line.rsplit("|", 1)[1].strip() for line in done.stderr.decode().splitlines()
                if line.startswith("import time:") and "|" in line]
    assert "jinja2" in imported and "weasyprint" in imported and "referee.scoresheet" in imported
    assert [name for name in imported if name.startswith(FLASK)] == []


# -- each pack's own marks (issue 11), a font's characters (issue 12) -------------------------

MARKS = re.compile("[\ue000-\uf8ff]")           # the private use area: the font's marks


def marks_in(text: str) -> list[str]:
    return [SUITS[ord(mark) - ord(character(SUITS[0]))] for mark in MARKS.findall(text)]


def pdf_fonts(pdf: bytes) -> set[str]:
    reader = PdfReader(io.BytesIO(pdf))
    return {str(font.get_object()["/BaseFont"]) for page in reader.pages
            for font in page["/Resources"]["/Font"].values()}


def test_tarot_cards_print_with_the_swiss_marks_not_the_french_symbols() -> None:
    """Troggu's discards are cups, coins, swords and batons: the sheet prints each card's rank
    and then its suit's mark (a character of the sheet's font of marks, issue 12), never the
    French symbol the engine writes in its place."""
    match = load((DATA / "troggu-evening.json").read_bytes())
    deck = get(match.game).deck
    result = get(match.game).score(match.settings, match.hands)
    written = [deck.suit_names[suit] for hand in result.hands
               for text in (hand.summary, *(line.text for line in hand.lines))
               for _, symbol in CARD.findall(text)
               for suit, stand_in in deck.suit_symbols.items() if stand_in == symbol]
    assert written, "the evening's lines name some cards"
    page = render_html(match, explained=True)       # the cards: in the explanations
    assert marks_in(page) == written
    assert not FRENCH_SYMBOLS.search(page) and "<img" not in page
    pdf = html_to_pdf(page)
    text = pdf_text(pdf)
    assert not FRENCH_SYMBOLS.search(text)
    assert marks_in(text) == written
    # Drawn by the font of marks, not by a fallback's empty box.
    assert any(font.endswith("+" + FAMILY.replace(" ", "-")) for font in pdf_fonts(pdf))


def test_hungarian_cards_print_with_acorns_leaves_hearts_and_bells() -> None:
    """The sheet's own filter, without Flask: a Tartli card written ``K♣`` by the engine
    prints as K and the acorn; a French game's symbols are its own suits and stay."""
    cards = [HUNGARIAN.parse(code) for code in ("Ka", "Ol", "10h", "7b")]
    written = " ".join(HUNGARIAN.short_name(card) for card in cards)
    sheet = environment().from_string("<p>{{ text | marked }}</p>")
    page = sheet.render(game=get("tartli"), text=f"{written} is not a meld")
    assert marks_in(page) == ["acorns", "leaves", "hearts", "bells"]
    text = pdf_text(html_to_pdf(f'<link rel="stylesheet" href="css/print.css">{page}'))
    assert not FRENCH_SYMBOLS.search(text)
    marks = "".join(character(suit) for suit in ("acorns", "leaves", "hearts", "bells"))
    assert f"K{marks[0]} O{marks[1]} 10{marks[2]} 7{marks[3]} is not a meld" in text
    french = sheet.render(game=get("marjolet"), text="K♣ Q♠ is not a meld")
    assert "K♣ Q♠ is not a meld" in french and not MARKS.search(french)


def test_the_font_of_marks_is_made_from_the_marks_svg_files() -> None:
    """static/fonts/suit-marks.ttf is what referee.scoresheet.marks_font makes of the SVG files
    under static/img/suits/ (run ``python -m referee.scoresheet.marks_font`` after changing a
    mark), with a character for every suit there."""
    assert FONT.read_bytes() == build(), "run python -m referee.scoresheet.marks_font"
    files = sorted(path.stem for path in (ROOT / "static" / "img" / "suits").glob("*.svg"))
    assert sorted(SUITS) == files
    assert TTFont(FONT).getBestCmap() == {ord(character(suit)): suit for suit in SUITS}


def fills(polygons: list[list[marks_font.Point]], point: marks_font.Point, even_odd: bool
          ) -> bool:
    turns = [marks_font.winding(polygon, point) for polygon in polygons]
    return sum(turn != 0 for turn in turns) % 2 == 1 if even_odd else sum(turns) != 0


@pytest.mark.parametrize("suit", SUITS)
def test_each_glyph_covers_what_its_svg_mark_covers(suit: str) -> None:
    """The glyph fills what the SVG fills (its own fill rule), at the image's size and place
    (one em, its foot 0.12 em below the baseline): the holes of an even-odd mark (the bell's
    band and slit, the coin's ring, the leaf's vein) stay open under the font's non-zero fill.
    Checked on a grid of points, away from the outline (where the font's quadratic curves and
    the SVG's cubic ones differ by a hair)."""
    svg = (ROOT / "static" / "img" / "suits" / f"{suit}.svg").read_text("utf-8")
    found = re.search(r'\sd="([^"]+)"', svg)
    assert found is not None
    mark, even_odd = marks_font.outlines(found.group(1)), 'fill-rule="evenodd"' in svg
    glyphs = TTFont(FONT).getGlyphSet()
    assert glyphs[suit].width == 1000
    glyph = marks_font.flattened(glyphs[suit].draw)
    filled = 0
    for row in range(40):
        for column in range(40):
            x, y = (column + 0.5) * 0.6, (row + 0.5) * 0.6        # SVG units, y downwards
            inside = fills(mark, (x, y), even_odd)
            if any(fills(mark, (x + dx, y + dy), even_odd) != inside
                   for dx, dy in ((-0.15, 0), (0.15, 0), (0, -0.15), (0, 0.15))):
                continue                                         # at the outline
            at = (x * 1000 / 24, (24 - y) * 1000 / 24 - 120)
            assert fills(glyph, at, even_odd=False) == inside, (x, y)
            filled += inside
    assert filled > 100


# -- the score table's lines (issue 12) ---------------------------------------------------------

def long_troggu(hands: int) -> MatchFile:
    """The evening's first four hands over and over, ``hands`` in all."""
    data = json.loads((DATA / "troggu-evening.json").read_text(encoding="utf-8"))
    cycle = data["hands"][:4]                     # dealers 0, 1, 2, 3: the rotation goes on
    return load(json.dumps({**data, "hands": [cycle[n % 4] for n in range(hands)]}).encode())


def test_a_troggu_row_is_one_line_with_balances_of_four_figures() -> None:
    """Every line more in each row of a long match is more for WeasyPrint to lay out: the
    columns of a four-player Troggu sheet leave a row whole on one line (its number, dealer,
    game, declarer, card points, multiplier and each player's "payment = balance") while the
    balances have up to four figures. A Misère's four card counts may take a second line."""
    match = long_troggu(64)
    result = get("troggu").score(match.settings, match.hands)
    assert len(match.settings["players"]) == 4
    assert max(abs(total) for hand in result.hands for total in hand.totals_after) >= 1000
    reader = PdfReader(io.BytesIO(render_pdf(match)))
    lines = [squashed(line) for page in reader.pages for line in page.extract_text().splitlines()]
    for hand in result.hands:
        cells = " ".join(f"{rappen(payment)} = {rappen(balance)}"
                         for payment, balance in zip(hand.scores, hand.totals_after, strict=True))
        assert any(line.endswith(cells) for line in lines), (hand.number, cells)
        if hand.detail["game"] != "misere":
            assert any(line.startswith(f"{hand.number} ") and
                       line.endswith(f" {hand.detail['multiplier']} {cells}") for line in lines)


def test_the_grid_is_the_tables_grey_between_white_rows_not_a_frame_per_cell() -> None:
    """The score table's half-point rules are the table's grey showing through the spacing
    between its cells, each row white behind its cells: WeasyPrint fills one shape a row on a
    page of rows, where it framed every cell (a thousand frames for 100 hands, issue 12)."""
    reader = PdfReader(io.BytesIO(render_pdf(long_troggu(64))))
    page = reader.pages[1]                   # rows 26 to 64 of the table, the note after it
    operations = ContentStream(page.get_contents(), reader).operations
    texts = [op for _, op in operations if op == b"TJ"]         # a cell's text each
    fills = [op for _, op in operations if op in (b"f", b"f*")]
    colours = {tuple(round(float(x), 3) for x in operands) for operands, op in operations
               if op == b"rg"}
    assert len(texts) > 300
    assert {(0.533, 0.533, 0.533), (1.0, 1.0, 1.0)} <= colours        # #888 and white
    assert len(fills) < len(texts) / 5


def test_every_page_ends_with_the_sheets_line_and_its_number_in_the_sheets_font() -> None:
    """A page of a long sheet, taken alone, says what it is: the sheet's line ("Referee ·
    Troggu · date") and "page n of m", in the sheet's font (the page's margins inherit from
    the root, not the body: they were in a fourth font, DejaVu Serif). The balance is the
    table's last row only: repeated at the foot of each page, it stood under the first
    page's hands with the match's final balances."""
    match = long_troggu(64)
    pdf = render_pdf(match)
    reader = PdfReader(io.BytesIO(pdf))
    pages = [squashed(page.extract_text()) for page in reader.pages]
    assert len(pages) >= 2
    for number, text in enumerate(pages, 1):
        assert f"Referee · Troggu · {match.created}" in text, number
        assert f"page {number} of {len(pages)}" in text
    assert sum(text.count("Balance (Rappen)") for text in pages) == 1
    assert "Balance (Rappen)" in pages[-1] or "Balance (Rappen)" in pages[-2]
    assert not any("Serif" in font for font in pdf_fonts(pdf))


@pytest.mark.parametrize("name", FILES)
def test_no_table_of_the_sheet_is_sized_by_measuring_its_text(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The match's facts and the score table take their columns' widths from the sheet's
    style: WeasyPrint's automatic layout measured the shortest and longest line of every cell
    first (every rule in force, every row of a long match; issue 12)."""
    from weasyprint.layout import table

    measured: list[object] = []
    monkeypatch.setattr(table, "auto_table_layout", lambda *args: measured.append(args))
    text = pdf_text(render_pdf(load((DATA / name).read_bytes())))
    assert "Rules in force" in text
    assert measured == []


def test_a_tartli_decider_hand_prints_no_card_points() -> None:
    """A decider hand (7.4) is not played out: its row leaves the card points empty, where a
    played hand prints its own."""
    import random

    sys.path.insert(0, str(ROOT / "tests" / "engine"))
    import tartli_helpers as h

    from referee.engine.games.tartli.match import MatchFold

    settings = h.settings(1, 5)
    rng = random.Random(78)                      # four hands to a tie at 501 or more
    fold, hands = MatchFold(settings), []
    while not fold.decider:
        hand = h.simulate_hand(rng, fold.next_dealer).facts
        hand["dealer"] = fold.next_dealer
        fold.add(len(hands) + 1, hand)
        hands.append(hand)
    hands.append({**h.hand(end=h.decider(0)), "indicator": None, "dealer": fold.next_dealer})
    text = json.dumps({"format": "referee-match", "version": 1, "game": "tartli",
                       "created": "2026-12-01", "settings": settings, "hands": hands})
    html = render_html(load(text))
    rows = re.findall(r"<tr[^>]*>\s*<td>(\d+)</td>(.*?)</tr>", html, re.S)
    cells = {int(n): re.findall(r'<td class="n">([^<]*)</td>', row) for n, row in rows}
    decider = len(hands)
    assert [cells[decider][0], cells[decider][3]] == ["", ""]     # card points, each player
    assert cells[1][0] != "" and cells[1][3] != ""


# -- the cyclic garbage collector while WeasyPrint works (issue 12) ---------------------------

def test_the_collector_rests_while_the_pdf_is_made_and_runs_again_after(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Its full passes went again and again through WeasyPrint's growing tree of boxes, which
    stays alive until the PDF is written: held while WeasyPrint works, running again after."""
    from weasyprint import Document

    seen: list[bool] = []
    write = Document.write_pdf

    def watched(self: Document, *args: object, **kwargs: object) -> object:
        seen.append(gc.isenabled())
        return write(self, *args, **kwargs)

    monkeypatch.setattr(Document, "write_pdf", watched)
    assert gc.isenabled()
    assert html_to_pdf("<p>Hand 1</p>").startswith(b"%PDF")
    assert seen == [False]
    assert gc.isenabled()


def test_the_collector_is_left_as_the_caller_had_it() -> None:
    """Stopped by the caller, it stays stopped; a PDF made while another is being made (two
    requests of the web app) does not start it again before both are done; a failed PDF
    starts it again like a finished one."""
    gc.disable()
    try:
        html_to_pdf("<p>Hand 1</p>")
        assert not gc.isenabled()
    finally:
        gc.enable()
    with cyclic_gc_paused():
        with cyclic_gc_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(ValueError), cyclic_gc_paused():
        raise ValueError("WeasyPrint failed")
    assert gc.isenabled()
