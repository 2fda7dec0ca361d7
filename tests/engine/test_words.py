"""Every sentence the engine writes for a player is a ``Text`` that a catalogue translates whole
(issue 22): played through the games' worked examples, fixture matches and refusal tables, each
line, summary, verdict and refusal is said through a fake catalogue that writes every message id
in capitals; what stays in lower case after that is English that escaped translation (apart
from the players' names and what the user typed, which the sentences only quote)."""

from __future__ import annotations

import inspect
import random
import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from referee.engine.cards import FRENCH, HUNGARIAN, SWISS_TAROT
from referee.engine.errors import RuleViolation, shown
from referee.engine.games import base, get
from referee.engine.games.base import HandOutcome, MatchResult
from referee.engine.games.dealer import out_of_turn
from referee.engine.ledger import settle_up
from referee.engine.points import ranges_text
from referee.engine.race import RaceRules, award_reason, judge_call
from referee.engine.tricks import recorded_tricks
from referee.engine.words import N, Text, say
from tests.shouting import Upper

DATA = Path(__file__).parent.parent / "data"








def _quoted(value: str, names: set[str]) -> bool:
    """A plain value a sentence may quote as it is: a player's name, what a user typed
    (``shown``: in quotes), or a value without words (a rule number, notation, a card's
    short name, a Roman numeral)."""
    return value in names or value.startswith("“") or not re.search(r"[a-z]", value)


def _plain_values(text: Text) -> Iterator[tuple[str, bool]]:
    """The plain values of ``text`` and its Texts, each with whether the sentence itself
    quotes it (“%(text)s”: what a user typed, shown as typed)."""
    for key, value in text.values.items():
        if isinstance(value, Text):
            yield from _plain_values(value)
        elif isinstance(value, str):
            yield value, f"“%({key})s”" in text.msgid


def escaped(text: object, names: Iterable[str]) -> str | None:
    """What of ``text`` escaped translation (None: nothing did)."""
    known = set(names)
    if not isinstance(text, Text):
        return None if _quoted(str(text), known) else f"not a Text: {text!r}"
    if say(text, None) != str(text):
        return f"said in English differently from its words: {text!r}"
    said = say(text, Upper())
    for value, in_quotes in sorted(_plain_values(text), key=lambda v: len(v[0]), reverse=True):
        if not in_quotes and not _quoted(value, known):
            return f"the plain value {value!r} in {text.msgid!r}"
        said = said.replace(value, "")
    if re.search(r"[a-zà-ž]", said):
        return f"English left in {said!r} (from {text.msgid!r})"
    return None


def assert_translatable(texts: Iterable[object], names: Iterable[str]) -> int:
    known = list(names)
    problems = []
    count = 0
    for text in texts:
        count += 1
        if (problem := escaped(text, known)) is not None:
            problems.append(problem)
    assert not problems, "\n".join(sorted(set(problems))[:40])
    return count


def outcome_texts(outcome: HandOutcome) -> Iterator[object]:
    yield from (line.text for line in outcome.lines)
    if outcome.summary:
        yield outcome.summary
    if outcome.award is not None:
        yield outcome.award.reason


def result_texts(result: MatchResult) -> Iterator[object]:
    for outcome in result.hands:
        yield from outcome_texts(outcome)
    if result.draft is not None:
        yield from outcome_texts(result.draft)
    yield result.standing.phase


def refusals_of(modules: Iterable[ModuleType], monkeypatch: pytest.MonkeyPatch
                ) -> list[RuleViolation]:
    """Every RuleViolation made while each parametrised case of the test modules' tests is
    run (the refusal tables): tests that need no fixture beyond their parameters."""
    made: list[RuleViolation] = []
    init = RuleViolation.__init__

    def recording(self: RuleViolation, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        made.append(self)

    monkeypatch.setattr(RuleViolation, "__init__", recording)
    for module in modules:
        for name, test in vars(module).items():
            if name.startswith("test_") and callable(test):
                for case in _cases(test):
                    test(**case)
    monkeypatch.setattr(RuleViolation, "__init__", init)
    assert made
    return made


def _cases(test: Callable[..., Any]) -> list[dict[str, Any]]:
    marks = [m for m in getattr(test, "pytestmark", []) if m.name == "parametrize"]
    if not marks:
        return []
    cases: list[dict[str, Any]] = [{}]
    for mark in marks:
        names = mark.args[0]
        names = [n.strip() for n in names.split(",")] if isinstance(names, str) else names
        rows = []
        for value in mark.args[1]:
            param = type(value).__name__ == "ParameterSet"      # pytest.param(...)
            values = value.values if param else value
            if len(names) == 1 and not param:
                values = (value,)
            rows.append(dict(zip(names, values)))
        cases = [{**case, **row} for case in cases for row in rows]
    wanted = set(inspect.signature(test).parameters)
    return [case for case in cases if set(case) == wanted]


# -- the shared engine ------------------------------------------------------------------------

def _refused(call: Callable[[], object]) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        call()
    return caught.value


def buli(amount: int) -> Text:
    return N("%(num)s buli", "%(num)s buli", amount, num=amount)


def test_every_shared_sentence_is_translatable() -> None:
    names = ["Anna", "Béla", "Cilka"]
    texts: list[object] = []
    for deck in (HUNGARIAN, FRENCH, SWISS_TAROT):
        texts += [deck.long_name(card) for card in deck.cards]
        texts += list(deck.suit_names.values())
        texts.append(_refused(lambda deck=deck: deck.parse("zz")).message)
        texts.append(_refused(lambda deck=deck: deck.parse(3)).message)
    texts.append(_refused(lambda: HUNGARIAN.parse_many(7)).message)
    texts.append(_refused(lambda: HUNGARIAN.parse_many(["Ah", "Ah"])).message)
    texts.append(shown(10**20))
    texts.append(shown([1]))
    for rules in (RaceRules(501, 1, 2, 250, 1), RaceRules(100, 1, 2, 49, 2, "opponents")):
        for counts in ((600, 100), (600, 400), (400, 100)):
            texts.append(judge_call(rules, 0, counts, buli).reason)
        texts.append(award_reason(rules, 10, buli))
    texts.append(out_of_turn(0, 1, names).text)
    texts.append(_refused(lambda: settle_up([1, 2])).message)
    texts.append(_refused(lambda: settle_up([1, -1.5])).message)       # type: ignore[list-item]
    texts.append(_refused(lambda: settle_up([1, -1] * 9)).message)
    texts.append(_refused(lambda: recorded_tricks([None, None, object()], "6.1")).message)
    texts.append(ranges_text([]))
    texts.append(base.and_list(names))
    for call in (
        lambda: base.require_player(5, base.EVERY_PLAYER),
        lambda: base.require_int("x", base.EVERY_PLAYER, 0, 5),
        lambda: base.require_int(9, base.EVERY_PLAYER, 0, 5),
        lambda: base.require_dict(1, base.EVERY_PLAYER),
        lambda: base.require_list(1, base.EVERY_PLAYER, 2),
        lambda: base.require_list([1, 2, 3], base.EVERY_PLAYER, 2),
        lambda: base.require_bool(1, base.EVERY_PLAYER),
        lambda: base.require_known_keys({"odd": 1}, {"even"}, base.EVERY_PLAYER),
        lambda: base.require_name(1),
        lambda: base.require_name(" "),
        lambda: base.require_name("\ud800"),
        lambda: base.require_name("a\x00b"),
        lambda: base.require_name("a\u202eb"),
        lambda: base.require_name("\u200b"),
        lambda: base.require_name("x" * 50),
        lambda: base.require_names(["Anna", "anna"], 2, 2, base.EVERY_PLAYER),
        lambda: base.require_switches({"long_game": 3}, ("long_game",)),
    ):
        texts.append(_refused(call).message)
    error = _refused(lambda: HUNGARIAN.parse("zz"))
    texts.append(error.explain())
    texts.append(error.in_hand(3, "Hand").explain())
    texts.append(error.in_hand(3, "Deal").explain())
    assert assert_translatable(texts, names) > 150


# -- Tartli -----------------------------------------------------------------------------------

def _tartli_match_texts(raw: dict[str, Any]) -> tuple[list[object], list[str]]:
    game = get("tartli")
    settings = game.settings(raw["settings"])
    texts: list[object] = [*game.rules_in_force(settings), game.victory_label(settings),
                           game.totals_label(settings)]
    try:
        texts += result_texts(game.score(settings, raw["hands"]))
    except RuleViolation as error:
        texts += [error.message, error.explain()]
    return texts, settings["players"]


def test_every_tartli_sentence_is_translatable(monkeypatch: pytest.MonkeyPatch) -> None:
    import json

    from tests.engine import (
        tartli_helpers,
        test_tartli_examples,
        test_tartli_review,
        test_tartli_tables,
    )

    count = 0
    for path in sorted(DATA.glob("tartli-*.json")):
        texts, names = _tartli_match_texts(json.loads(path.read_text()))
        count += assert_translatable(texts, names)
    # matches played by the simulator of the rules: claims, conceded melds, béla, exchanges
    rng = random.Random()
    for _ in range(6):
        model_hands = []
        dealer = rng.randrange(2)
        for _ in range(12):
            sim = tartli_helpers.simulate_hand(rng, dealer, claim_chance=0.2)
            model_hands.append({"dealer": dealer, **sim.facts})
            dealer = 1 - dealer
        raw = {"settings": {"players": ["A", "B"], "target": 10, "first_dealer":
                            model_hands[0]["dealer"]}, "hands": model_hands}
        texts, names = _tartli_match_texts(raw)
        count += assert_translatable(texts, names)
    game = get("tartli")
    for bad in ({"players": ["A"]}, {"players": ["A", "a"]},
                {"players": ["A", "B"], "target": 7},
                {"players": ["A", "B"], "target": 5, "first_dealer": 4}):
        count += assert_translatable([_refused(lambda bad=bad: game.settings(bad)).message],
                                     ["A", "B"])
    refusals = refusals_of([test_tartli_tables, test_tartli_examples, test_tartli_review],
                           monkeypatch)
    messages = [error.message for error in refusals] + [error.explain() for error in refusals]
    count += assert_translatable(messages, tartli_helpers.NAMES)
    assert count > 1000


# -- the match file and the circle file ---------------------------------------------------------

def _file_texts(refusals: Iterable[RuleViolation]) -> list[object]:
    """The messages of the refusals the match and circle files make themselves (codes
    ``file.*``, ``circle.*``, ``game.unknown``; a game's own refusals are its game's test's)."""
    mine = [error for error in refusals
            if error.code.startswith(("file.", "circle.")) or error.code == "game.unknown"]
    return [error.message for error in mine] + [error.explain() for error in mine]


def test_every_file_refusal_is_translatable(monkeypatch: pytest.MonkeyPatch) -> None:
    import json
    from types import SimpleNamespace

    from referee.engine import circlefile, matchfile
    from tests.engine import test_matchfile, test_names_and_numbers

    monkeypatch.syspath_prepend(str(Path(__file__).parent.parent / "web"))  # as its tests run
    from tests.web.circles import test_circles
    from tests.web.store.test_large_import import _file

    names = ["Anna", "Beat", "ANNA", "Anna\ufe0f", "Ágnes", "Tamás"]
    chosen = SimpleNamespace(**{name: getattr(test_names_and_numbers, name) for name in (
        "test_a_lone_surrogate_anywhere_in_a_match_file_is_refused",
        "test_the_refusal_says_where_the_text_is",
        "test_a_match_files_setting_written_as_a_decimal_says_an_integer_is_needed")},
        test_a_circle_file_is_read_strictly=test_circles.test_a_circle_file_is_read_strictly)
    refusals = refusals_of([test_matchfile, chosen], monkeypatch)     # type: ignore[list-item]
    texts = _file_texts(refusals)
    assert {error.code for error in refusals} >= {
        "file.version", "file.format", "file.created", "file.missing",
        "file.json", "file.encoding", "file.depth", "file.number", "file.shape", "file.text",
        "game.unknown", "circle.version", "circle.unknown", "circle.players", "circle.people"}

    short = json.loads((DATA / "tartli-short.json").read_text())
    json_errors = ["", "{", '{"a" 1}', '{"a": 1 "b": 2}', '"abc', '"a\x01"', '"\\q"',
                   '"\\u12"', "1 2", '{"a": NaN}', '{"a": Infinity}', '{"a": -Infinity}',
                   '{"a": 1e999}']
    for data in [*json_errors, " " * (matchfile.MAX_BYTES + 1), b"\x80",
                 {"\ud800": 1}, {**short, "language": "xx"}, {**short, "language": None},
                 {**short, "settings": []}, {**short, "hands": {}},
                 {**short, "settings": {**short["settings"], "target": 1e300}},
                 {**short, "settings": {**short["settings"], "target": 5.5}},
                 {**short, "settings": {**short["settings"], "target": 1e-05}},
                 {**short, "hands": [{}] * (matchfile.MAX_HANDS + 1)},
                 {**short, "version": False}, {**short, "notes": ""}, {**short, "created": [1]},
                 {**short, "created": {}}, {**short, "game": 10**20}]:
        texts += _file_texts([_refused(lambda data=data: matchfile.load(data))])
    with monkeypatch.context() as patched:
        patched.setattr(matchfile, "_read", lambda data, trusted: {}["boom"])
        patched.setattr(circlefile, "_read", lambda data: {}["boom"])
        texts += _file_texts([_refused(lambda: matchfile.load("{}")),
                              _refused(lambda: circlefile.load("{}"))])

    circle = {"format": "referee-circle", "version": 1, "name": "Club",
              "created": "2026-11-30", "players": ["Anna", "Beat"],
              "matches": [{"match": short, "people": [0, 1]}]}
    for data in [b"{", " " * (circlefile.MAX_BYTES + 1), "[" * 100_000 + "]" * 100_000,
                 "[" + "1" * 5000 + "]", [], {**circle, "format": None},
                 {**circle, "version": 0}, {**circle, "name": None},
                 {**circle, "players": {}}, {**circle, "players": ["Anna"] * 501},
                 {**circle, "players": ["Anna", 5]}, {**circle, "matches": 1},
                 {**circle, "matches": [1]}, {**circle, "matches": [{"match": short}]},
                 {**circle, "matches": [{"match": short, "people": [0, 1.0]}]},
                 {**circle, "matches": [{"match": short, "people": [0, "x"]}]},
                 _file(circlefile.MAX_MATCHES + 1, 0), _file(51, 1_000)]:
        texts += _file_texts([_refused(lambda data=data: circlefile.load(data))])
    assert assert_translatable(texts, names) > 200
