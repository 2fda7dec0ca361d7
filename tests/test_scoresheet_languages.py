"""The scoresheet in each language (issue 22): the PDF carries the letters of every table's
language (ő, ű, ř, ů, œ) and the Swiss group separator, and is written in the match's
language."""

from __future__ import annotations

import dataclasses
import io
import json
from pathlib import Path

import pytest
from pypdf import PdfReader

from referee.catalogues import catalogue
from referee.engine import matchfile

pytest.importorskip("weasyprint")

from referee.scoresheet import in_language, render_pdf  # noqa: E402

DATA = Path(__file__).resolve().parent / "data"


def text_of(pdf: bytes) -> str:
    return " ".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)


def test_the_pdf_holds_every_table_s_letters() -> None:
    raw = json.loads((DATA / "tartli-short.json").read_text(encoding="utf-8"))
    raw["settings"]["players"] = ["Ődön Űrhajós", "Řehoř Ůlehla-Œuvre"]
    m = matchfile.load(raw)
    with in_language("hu", catalogue("hu")):
        text = text_of(render_pdf(m))
    for letters in ("Ődön Űrhajós", "Řehoř Ůlehla-Œuvre"):
        assert letters in text


@pytest.mark.parametrize("language", ["hu", "de_CH", "cs", "fr"])
def test_a_troggu_sheet_in_each_language_has_its_money_and_no_english(language: str) -> None:
    m = matchfile.load((DATA / "troggu-evening.json").read_bytes())
    m = dataclasses.replace(m, language=language)
    with in_language(language, catalogue(language)):
        text = text_of(render_pdf(m))
    for english in ("Hand ", "Dealer", "Balance", " deals", "page 1 of"):
        assert english not in text, (language, english)
