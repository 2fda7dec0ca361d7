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

from referee.engine.games import get
from referee.engine.matchfile import load
from referee.scoresheet import render_html, render_pdf

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
FILES = ["tartli-complete.json", "marjolet-game.json", "stovkahra-series.json",
         "troggu-evening.json"]
WORD = {"tartli": "Hand", "marjolet": "Deal", "stovkahra": "Deal", "troggu": "Hand"}


def squashed(text: str) -> str:
    return " ".join(text.split())


def rappen(amount: int) -> str:
    return f"+{amount}" if amount > 0 else f"−{-amount}" if amount < 0 else "0"


@pytest.mark.parametrize("name", FILES)
def test_the_sheet_holds_every_line_of_every_hand(name: str) -> None:
    """Each hand's heading and each of its lines, with its points and its rule, as the page
    and the JSON give them (design: results explain themselves)."""
    match = load((DATA / name).read_bytes())
    result = get(match.game).score(match.settings, match.hands)
    reader = PdfReader(io.BytesIO(render_pdf(match)))
    # The pages' text in a row, without the page numbers (a paragraph may go on overleaf).
    text = squashed(" ".join(re.sub(r"page \d+ of \d+", " ", page.extract_text())
                             for page in reader.pages))
    money = match.game == "troggu"
    assert result.hands
    for hand in result.hands:
        assert squashed(f"{WORD[match.game]} {hand.number} — {hand.summary}") in text
        for line in hand.lines:
            points = "" if line.points is None else \
                f" {rappen(line.points) if money else line.points}"
            assert squashed(f"{line.text}{points} §{line.rule}") in text, line


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
