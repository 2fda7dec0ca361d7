"""The scoresheet (issue 12): every hand's explanation stays on the sheet, as one flowing
paragraph per hand; the command line makes it with Jinja and WeasyPrint, without Flask."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader

from referee.engine.cards import HUNGARIAN, Deck
from referee.engine.games import get
from referee.engine.matchfile import load
from referee.marks import stand_ins
from referee.scoresheet import environment, html_to_pdf, render_html, render_pdf

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
    pack's suits, each card's rank followed by its suit's mark, a picture and not text."""
    return CARD.sub(r"\1 ", text) if stand_ins(deck) else text


def pdf_text(pdf: bytes) -> str:
    """The pages' text in a row, without the page numbers (a paragraph may go on overleaf)."""
    reader = PdfReader(io.BytesIO(pdf))
    return squashed(" ".join(re.sub(r"page \d+ of \d+", " ", page.extract_text())
                             for page in reader.pages))


def rappen(amount: int) -> str:
    return f"+{amount}" if amount > 0 else f"−{-amount}" if amount < 0 else "0"


@pytest.mark.parametrize("name", FILES)
def test_the_sheet_holds_every_line_of_every_hand(name: str) -> None:
    """Each hand's heading and each of its lines, with its points and its rule, as the page
    and the JSON give them (design: results explain themselves); a Hungarian or tarot card by
    its rank and its suit's mark (issue 11)."""
    match = load((DATA / name).read_bytes())
    deck = get(match.game).deck
    result = get(match.game).score(match.settings, match.hands)
    text = pdf_text(render_pdf(match))
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
    now flow in one paragraph, the hand's summary at its head."""
    match = load((DATA / name).read_bytes())
    result = get(match.game).score(match.settings, match.hands)
    page = render_html(match)
    explained = page[page.index("<h2>How each"):]
    paragraphs = re.findall(r'<p class="explain">(.*?)</p>', explained, re.S)
    assert len(paragraphs) == len(result.hands)
    for hand, paragraph in zip(result.hands, paragraphs, strict=True):
        assert paragraph.startswith(f"<b>{WORD[match.game]} {hand.number} — ")
        assert paragraph.count(" §") == len(hand.lines)
    assert "<li>" not in explained


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


# -- each pack's own marks (issue 11) ----------------------------------------------------------

MARKS = re.compile(r'<img class="suit" src="img/suits/(\w+)\.svg" alt=" (\w+)">')


def test_tarot_cards_print_with_the_swiss_marks_not_the_french_symbols() -> None:
    """Troggu's discards are cups, coins, swords and batons: the sheet prints each card's rank
    and then its suit's mark (an image WeasyPrint draws, its alternative the suit's name),
    never the French symbol the engine writes in its place."""
    match = load((DATA / "troggu-evening.json").read_bytes())
    deck = get(match.game).deck
    result = get(match.game).score(match.settings, match.hands)
    written = [deck.suit_names[suit] for hand in result.hands
               for text in (hand.summary, *(line.text for line in hand.lines))
               for _, symbol in CARD.findall(text)
               for suit, stand_in in deck.suit_symbols.items() if stand_in == symbol]
    assert written, "the evening's lines name some cards"
    page = render_html(match)
    marks = MARKS.findall(page)
    assert [suit for suit, _ in marks] == written
    assert all(file == alt for file, alt in marks)
    assert not FRENCH_SYMBOLS.search(page)
    text = pdf_text(html_to_pdf(page))
    assert not FRENCH_SYMBOLS.search(text)
    # Drawn as marks: had WeasyPrint not drawn one, its alternative would be printed instead.
    assert not re.search(r"\b(cups|coins|swords|batons)\b", text)


def test_hungarian_cards_print_with_acorns_leaves_hearts_and_bells() -> None:
    """The sheet's own filter, without Flask: a Tartli card written ``K♣`` by the engine
    prints as K and the acorn; a French game's symbols are its own suits and stay."""
    cards = [HUNGARIAN.parse(code) for code in ("Ka", "Ol", "10h", "7b")]
    written = " ".join(HUNGARIAN.short_name(card) for card in cards)
    sheet = environment().from_string("<p>{{ text | marked }}</p>")
    page = sheet.render(game=get("tartli"), text=f"{written} is not a meld")
    assert MARKS.findall(page) == [(s, s) for s in ("acorns", "leaves", "hearts", "bells")]
    text = pdf_text(html_to_pdf(page))
    assert not FRENCH_SYMBOLS.search(text)
    assert "K O 10 7 is not a meld" in text
    french = sheet.render(game=get("marjolet"), text="K♣ Q♠ is not a meld")
    assert "K♣ Q♠ is not a meld" in french and "<img" not in french

