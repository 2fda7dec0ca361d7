"""The languages' catalogues (``referee/translations``), read without Flask: what a match's
scoresheet and CSV are written in (its own language, whichever phone asks) and the command
line's ``--lang``."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import cast

from babel.support import Translations

from .engine.words import LANGUAGES, Catalogue

TRANSLATIONS = Path(__file__).resolve().parent / "translations"


@cache
def catalogue(language: str) -> Catalogue | None:
    """The messages of ``language`` (a code of ``LANGUAGES``); None for English, the language
    the code is written in."""
    if language not in LANGUAGES:
        raise ValueError(f"no such language: {language!r} (one of {', '.join(LANGUAGES)})")
    if language == "en":
        return None
    return cast(Catalogue, Translations.load(str(TRANSLATIONS), [language]))
