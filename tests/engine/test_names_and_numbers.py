"""Names that can always be shown, and whole numbers where the match file says so.

A name is valid Unicode text in its composed form (NFC), with something visible in it, no
control character (PostgreSQL cannot store a NUL) and nothing that turns the direction of the
text around; two names that differ only by case or invisible characters are the same name. A
match file holds only valid Unicode text (a JSON ``"\\ud800"`` escape is half a character),
and a number the format says is whole is a whole number, not ``5.0``."""

from __future__ import annotations

import copy
import json
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.engine import matchfile
from referee.engine.errors import RuleViolation, shown
from referee.engine.games import get
from referee.engine.games.base import BIDI_CONTROLS, different_names, name_key, require_name

DATA = Path(__file__).parents[1] / "data"
FILES = sorted(p.name for p in DATA.glob("*.json") if p.name != "tartli-bad-piles.json")

SETTINGS: dict[str, dict[str, Any]] = {
    "tartli": {"players": ["Ágnes", "Tamás"], "target": 5, "first_dealer": 0},
    "marjolet": {"players": ["Anne", "Bruno"], "target": 500, "first_dealer": 0},
    "stovkahra": {"players": ["Jana", "Petr", "Eva", "Karel"], "teams": ["Us", "Them"],
                  "target": 5, "first_dealer": 0},
    "troggu": {"players": ["Beat", "Zoë", "Urs", "Vreni"], "first_dealer": 0},
}
LONE = ["\ud800", "\udfff", "Anna\udc00"]
CONTROLS = ["Anna\x00phone", "\x00", "A\x01B", "A\x7fB", "A\x9bB", "A\x1bB"]
BIDI = [f"Anna{chr(c)}Bob" for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))]
BLANK = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u2800", "\u3164", "\uffa0",
         "\u200b \u2800 \ufeff", "\u00ad"]


def refused(settings: dict[str, Any], game: str = "tartli") -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        get(game).settings(settings)
    return caught.value


def with_player(game: str, seat: int, name: str) -> dict[str, Any]:
    settings = copy.deepcopy(SETTINGS[game])
    settings["players"][seat] = name
    return settings


# ---------------------------------------------------------------------------------------------
# Names


@pytest.mark.parametrize("game", sorted(SETTINGS))
@pytest.mark.parametrize("name", LONE, ids=["high", "low", "inside"])
def test_a_name_that_is_not_valid_unicode_text_is_refused(game: str, name: str) -> None:
    error = refused(with_player(game, 1, name), game)
    assert error.code == "settings.players"
    assert "valid Unicode text" in error.message
    error.message.encode("utf-8")                 # the message itself can be shown


@pytest.mark.parametrize("name", CONTROLS)
def test_a_name_with_a_control_character_is_refused(name: str) -> None:
    error = refused(with_player("tartli", 0, name))
    assert "control characters" in error.message


@pytest.mark.parametrize("name", BIDI, ids=[f"U+{ord(n[4]):04X}" for n in BIDI])
def test_a_name_that_turns_the_text_around_is_refused(name: str) -> None:
    error = refused(with_player("marjolet", 0, name), "marjolet")
    assert "direction of the text" in error.message


@pytest.mark.parametrize("name", BLANK, ids=[f"U+{ord(n[0]):04X}" for n in BLANK])
def test_a_name_with_nothing_visible_is_refused(name: str) -> None:
    error = refused(with_player("tartli", 1, name))
    assert error.message == "Every player needs a name with a visible character in it"


def test_a_team_with_nothing_visible_in_its_name_is_refused() -> None:
    settings = copy.deepcopy(SETTINGS["stovkahra"])
    settings["teams"][1] = "\u3164"
    error = refused(settings, "stovkahra")
    assert (error.code, error.message) == (
        "settings.teams", "Every team needs a name with a visible character in it")


@pytest.mark.parametrize("game", sorted(SETTINGS))
@pytest.mark.parametrize("twin", ["ágnes", "Ág\u200bnes", "\ufeffÁGNES", "A\u0301gnes\u2060"],
                         ids=["case", "zero-width", "bom", "decomposed"])
def test_names_that_differ_only_by_case_or_invisible_characters_are_the_same(
        game: str, twin: str) -> None:
    settings = with_player(game, 0, "Ágnes")
    settings["players"][1] = twin
    assert "different names" in refused(settings, game).message


@pytest.mark.parametrize("twin", ["us", "U\u200bs", "\u2060US"])
def test_teams_that_differ_only_by_case_or_invisible_characters_are_the_same(twin: str) -> None:
    settings = copy.deepcopy(SETTINGS["stovkahra"])
    settings["teams"] = ["Us", twin]
    error = refused(settings, "stovkahra")
    assert (error.code, error.message) == ("settings.teams", "Give the two teams different names")


def test_names_are_kept_in_their_composed_form() -> None:
    settings = get("tartli").settings(with_player("tartli", 0, "Zoe\u0308  A\u0301gi"))
    assert settings["players"][0] == "Zoë Ági"
    assert len(settings["players"][0]) == 7


def test_a_name_of_forty_composed_characters_is_not_too_long() -> None:
    assert require_name("e\u0301" * 40) == "é" * 40
    with pytest.raises(RuleViolation, match="at most 40 characters"):
        require_name("é" * 41)


@pytest.mark.parametrize("name", ["👩\u200d👩\u200d👧", "Mi\u200cchael", "O'Brien",
                                  "Ágnes ❤", "李小龙", "عمر", "שרה"])
def test_names_with_joiners_and_any_script_are_kept_as_typed(name: str) -> None:
    assert require_name(name) == name


def test_invisible_characters_do_not_make_another_name() -> None:
    assert name_key("Ág\u200bnes") == name_key("ÁGNES") == name_key("A\u0301gnes")
    assert name_key("Ágnes") != name_key("Agnes")


# ---------------------------------------------------------------------------------------------
# Match files: valid Unicode text everywhere


def _strings(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], bool]]:
    """Every string of a JSON value: (its path, whether it is a key)."""
    if isinstance(value, str):
        yield path, False
    elif isinstance(value, dict):
        for key, item in value.items():
            yield (*path, key), True
            yield from _strings(item, (*path, key))
    elif isinstance(value, list):
        for n, item in enumerate(value):
            yield from _strings(item, (*path, n))


def _with_surrogate(document: Any, path: tuple[Any, ...], key: bool) -> Any:
    changed = copy.deepcopy(document)
    node = changed
    for step in path[:-1]:
        node = node[step]
    if key:
        node[path[-1] + "\udc80"] = node.pop(path[-1])
    else:
        node[path[-1]] = node[path[-1]] + "\udc80"
    return changed


@pytest.mark.parametrize("name", FILES)
def test_a_lone_surrogate_anywhere_in_a_match_file_is_refused(name: str) -> None:
    """Every string of every sample file, value or key, with a lone surrogate added: refused
    as text that is not valid Unicode, from a dict or from the file's JSON text (where it
    arrives as a "\\udc80" escape), with a message that can be shown."""
    document = json.loads((DATA / name).read_text())
    places = list(_strings(document))
    assert len(places) > 20
    for path, key in places:
        changed = _with_surrogate(document, path, key)
        for data in (changed, json.dumps(changed), json.dumps(changed).encode()):
            with pytest.raises(RuleViolation) as caught:
                matchfile.load(data)
            assert caught.value.code == "file.text", (path, key, caught.value)
            caught.value.explain().encode("utf-8")


def test_the_refusal_says_where_the_text_is() -> None:
    document = json.loads((DATA / "tartli-short.json").read_text())
    document["settings"]["players"][1] = "\ud800"
    with pytest.raises(RuleViolation) as caught:
        matchfile.load(json.dumps(document))
    assert caught.value.message == (
        "The file holds text that is not valid Unicode in “settings” → “players” → 2: a lone "
        "surrogate (such as \\ud800), half of a character that cannot be shown")


def test_a_refusal_never_quotes_half_a_character() -> None:
    assert shown("Anna\ud800") == "“Anna\\ud800”"
    with pytest.raises(RuleViolation) as caught:
        matchfile.load('{"format": "referee-match", "\\ud800": 1, "\\ud800": 2}')
    caught.value.explain().encode("utf-8")
    assert "\\ud800" in caught.value.explain()


# ---------------------------------------------------------------------------------------------
# Whole numbers


def _integers(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        yield path
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _integers(item, (*path, key))
    elif isinstance(value, list):
        for n, item in enumerate(value):
            yield from _integers(item, (*path, n))


@pytest.mark.parametrize("name", FILES)
def test_a_whole_number_written_as_a_decimal_is_refused(name: str) -> None:
    """Every whole number of every sample file, written as ``5.0``, is refused: the format
    says whole number, and a match file read back is what was written."""
    document = json.loads((DATA / name).read_text())
    places = list(_integers(document))
    assert len(places) > 10
    for path in places:
        changed = copy.deepcopy(document)
        node = changed
        for step in path[:-1]:
            node = node[step]
        node[path[-1]] = float(node[path[-1]])
        with pytest.raises(RuleViolation):
            matchfile.load(json.dumps(changed))
            pytest.fail(f"{path} = {float(node[path[-1]])} was read")


@pytest.mark.parametrize(("game", "target"), [("tartli", 5.0), ("tartli", 10.0),
                                              ("marjolet", 500.0), ("marjolet", 1000.0)])
def test_a_target_written_as_a_decimal_is_refused(game: str, target: float) -> None:
    settings = copy.deepcopy(SETTINGS[game])
    settings["target"] = target
    assert refused(settings, game).code == "settings.target"


@pytest.mark.parametrize(("game", "key", "value"), [
    ("tartli", "target", 5.0), ("marjolet", "target", 500.0), ("stovkahra", "target", 5.0),
    ("tartli", "first_dealer", 1.0), ("troggu", "first_dealer", 0.0)])
def test_a_match_files_setting_written_as_a_decimal_says_an_integer_is_needed(
        game: str, key: str, value: float) -> None:
    document = {"format": "referee-match", "version": 1, "game": game,
                "created": "2026-11-30", "settings": {**SETTINGS[game], key: value},
                "hands": []}
    with pytest.raises(RuleViolation) as caught:
        matchfile.load(json.dumps(document))
    assert caught.value.code == "file.number"
    assert f"“{key}” in “settings” must be a whole number written without a decimal point " \
           f"(an integer, such as {int(value)}), not {value!r}" == caught.value.message


# ---------------------------------------------------------------------------------------------
# What shows in a name, by Unicode's properties (issue 21)

# Unicode's own lists (PropList.txt), read here from the characters' names: every variation
# selector is named so, every Hangul filler too
NAMED = {c: unicodedata.name(c, "") for c in map(chr, range(0x110000))}
VARIATION = sorted(c for c, n in NAMED.items() if "VARIATION SELECTOR" in n)
FILLERS = sorted(c for c, n in NAMED.items() if n.startswith(("HANGUL", "HALFWIDTH HANGUL"))
                 and n.endswith("FILLER"))
FORMAT = st.characters(categories=["Cf"]).filter(lambda c: c not in BIDI_CONTROLS)
IGNORABLE = st.one_of(FORMAT, st.sampled_from(VARIATION), st.sampled_from(FILLERS),
                      st.sampled_from(["\u034f", "\u2800", "\U000e0001", "\U000e0041"]))
MARKS = st.characters(categories=["Mn", "Me", "Mc"])
BLANKS = {*FILLERS, "\u2800"}
SHOWN = st.characters(categories=["L", "N", "P", "S"]).filter(lambda c: c not in BLANKS)


def test_the_variation_selectors_and_fillers_are_unicodes() -> None:
    assert len(VARIATION) == 4 + 16 + 240 and "\u180f" in VARIATION      # Unicode 14
    assert FILLERS == ["\u115f", "\u1160", "\u3164", "\uffa0"]


@pytest.mark.parametrize("name", ["\ufe0f", "\u034f", "\u180b", "\U000e0100", "\u0301",
                                  "\u0301\u0308\u20dd", "\ufe0f \u034f", "\u0903"])
def test_a_name_of_selectors_joiners_or_combining_marks_only_is_refused(name: str) -> None:
    with pytest.raises(RuleViolation, match="needs a name with a visible character"):
        require_name(name)


@pytest.mark.parametrize("game", sorted(SETTINGS))
def test_a_name_and_the_same_name_with_a_variation_selector_are_the_same(game: str) -> None:
    settings = copy.deepcopy(SETTINGS[game])
    settings["players"][1] = settings["players"][0] + "\ufe0f"
    assert "different names" in refused(settings, game).message
    if game == "stovkahra":
        settings = copy.deepcopy(SETTINGS[game])
        settings["teams"] = ["Us", "U\U000e0100s\u034f"]
        assert refused(settings, game).message == "Give the two teams different names"


@given(st.lists(st.one_of(IGNORABLE, MARKS, st.sampled_from(" \u3000\u00a0")), min_size=1,
                max_size=12))
def test_a_name_with_nothing_that_shows_on_its_own_is_refused(chars: list[str]) -> None:
    with pytest.raises(RuleViolation):
        require_name("".join(chars))


@given(st.lists(SHOWN, min_size=1, max_size=8), st.data())
def test_invisible_characters_anywhere_leave_the_same_name(shown: list[str],
                                                           data: st.DataObject) -> None:
    """A name that shows is accepted; the same name with default-ignorable characters (format
    characters, variation selectors, the grapheme joiner, fillers) put anywhere in it is the
    same name, and so is accepted or refused alike."""
    name = "".join(shown)
    with_ignored = "".join(c + "".join(data.draw(st.lists(IGNORABLE, max_size=2)))
                           for c in data.draw(st.sampled_from([shown, [""] + shown])))
    assert require_name(name) == unicodedata.normalize("NFC", name)
    assert name_key(with_ignored) == name_key(name)
    assert not different_names([require_name(name), require_name(with_ignored)])


@given(st.lists(SHOWN, min_size=1, max_size=6), st.lists(MARKS, min_size=1, max_size=3))
def test_a_name_with_a_combining_mark_shows(shown: list[str], marks: list[str]) -> None:
    """A combining mark on something that shows is part of a name (Zoë, Ágnes)."""
    assert require_name("".join(shown) + "".join(marks))
