"""The languages' catalogues (issue 22): every message of the code is in every catalogue,
translated (no empty or fuzzy entry), with its placeholders kept; the template of the
catalogues (messages.pot) is what the code marks today; and the plural forms and numbers each
language writes."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from referee.catalogues import TRANSLATIONS, catalogue
from referee.engine.words import LANGUAGES, N, T, say

ROOT = Path(__file__).resolve().parents[1]
PLACEHOLDER = re.compile(r"%\(([a-zA-Z_0-9]+)\)s")
FOREIGN = [language for language in LANGUAGES if language != "en"]


def read(language: str):  # type: ignore[no-untyped-def]
    with open(TRANSLATIONS / language / "LC_MESSAGES" / "messages.po", "rb") as file:
        return read_po(file, locale=language)


def keys(path: Path) -> set[tuple[str | None, str]]:
    with open(path, "rb") as file:
        return {(m.context, m.id if isinstance(m.id, str) else m.id[0])
                for m in read_po(file) if m.id}


@pytest.mark.parametrize("language", FOREIGN)
def test_every_message_is_translated_with_its_placeholders(language: str) -> None:
    problems = []
    for message in read(language):
        if not message.id:
            continue
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        forms = [message.string] if isinstance(message.string, str) else list(message.string)
        allowed = set().union(*(PLACEHOLDER.findall(i) for i in ids))
        if message.fuzzy or not all(forms):
            problems.append(f"untranslated: {ids[0]!r}")
            continue
        for form in forms:
            named = set(PLACEHOLDER.findall(form))
            # a plural form may leave the count to its words ("jedno"), never add a value
            if not named <= allowed or (len(ids) == 1 and named != allowed):
                problems.append(f"placeholders {sorted(named)} for {sorted(allowed)}: {ids[0]!r}")
    assert problems == [], f"{len(problems)} problems, e.g. {problems[:5]}"


@pytest.mark.parametrize("language", FOREIGN)
def test_every_catalogue_holds_every_message_of_the_code(language: str) -> None:
    missing = keys(TRANSLATIONS / "messages.pot") - keys(
        TRANSLATIONS / language / "LC_MESSAGES" / "messages.po")
    assert missing == set()


def test_the_catalogues_template_is_what_the_code_marks(tmp_path: Path) -> None:
    """`make translations` was run after the last change of a marked sentence."""
    extracted = tmp_path / "messages.pot"
    subprocess.run([sys.executable, "-m", "babel.messages.frontend", "-q", "extract",
                    "-F", "babel.cfg", "--no-default-keywords",
                    *[f"-k{k}" for k in ("T", "N:1,2", "P:1c,2", "NP:1c,2,3", "_", "gettext",
                                         "ngettext:1,2", "pgettext:1c,2", "npgettext:1c,2,3",
                                         "lazy_gettext", "lazy_pgettext:1c,2")],
                    "-o", str(extracted), "referee", "templates"], cwd=ROOT, check=True)
    assert keys(extracted) == keys(TRANSLATIONS / "messages.pot")


@pytest.mark.parametrize(("count", "said"), [(1, "1 brčko"), (2, "2 brčka"), (5, "5 brček"),
                                             (22, "22 brček"), (0, "0 brček")])
def test_czech_counts_matchsticks_in_three_forms(count: int, said: str) -> None:
    text = N("%(team)s win the game: %(num)s matchstick, added",
             "%(team)s win the game: %(num)s matchsticks, added", count, team="Anna & Cilka",
             num=count)
    assert said in say(text, catalogue("cs"))


def test_a_sentence_keeps_the_values_it_is_given() -> None:
    text = T("%(first)s and %(last)s", first="Anna", last="Béla")
    for language in FOREIGN:
        said = say(text, catalogue(language))
        assert "Anna" in said and "Béla" in said and said != str(text), language
