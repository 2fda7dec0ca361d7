"""The match file (referee.engine.matchfile): round trips, the version rule, and no input that
makes the reader fail with anything but a RuleViolation."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from referee.engine.cards import HUNGARIAN
from referee.engine.errors import RuleViolation
from referee.engine.games import get
from referee.engine.games.tartli.values import possible_pile
from referee.engine.matchfile import MAX_BYTES, MatchFile, dump, dumps, load, standings

DATA = Path(__file__).resolve().parent.parent / "data"
TARTLI = get("tartli")


def read(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / name).read_text(encoding="utf-8"))
    return data


def with_dealers(data: dict[str, Any]) -> dict[str, Any]:
    """A version 1 file as it is written back: every hand without a dealer gets the one the
    deal alternation gives it, from the first dealer (rules 2.1, 6.1.1)."""
    data = copy.deepcopy(data)
    first = data["settings"]["first_dealer"]
    for number, hand in enumerate(data["hands"]):
        hand.setdefault("dealer", (first + number) % 2)
    return data


def refused(data: object) -> RuleViolation:
    with pytest.raises(RuleViolation) as info:
        load(data)
    assert info.value.code != "file.internal", info.value.__cause__
    return info.value


# -- the example files -------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["tartli-short.json", "tartli-complete.json"])
def test_example_round_trips(name: str) -> None:
    text = (DATA / name).read_text(encoding="utf-8")
    m = load(text)
    assert dump(m) == with_dealers(json.loads(text))     # written back with its dealers
    assert load(dumps(m)) == m
    assert dumps(load(dumps(m))) == dumps(m)
    assert load((DATA / name).read_bytes()) == m


def test_short_standings() -> None:
    s = standings(load(read("tartli-short.json")))
    assert s["game"] == "tartli"
    assert s["players"] == ["Ágnes", "Tamás"]
    assert s["rules"][0] == "Tartli (Hungarian rules), target 5 buli"
    assert s["standing"] == {
        "totals": {"Ágnes": 0, "Tamás": 0}, "victory": {"Ágnes": 3, "Tamás": 0},
        "dealer": "Ágnes", "phase": "Game in progress", "over": False, "winner": None,
    }
    assert [h["scores"] for h in s["hands"]] == [[253, 148], [271, 0], [230, 221], [14, 270]]
    assert [h["summary"] for h in s["hands"]] == [
        "no one reached 501", "Ágnes wins 2 buli (maccs)", "no one reached 501",
        "Ágnes wins 1 buli",
    ]
    assert "in_progress" not in s
    json.dumps(s)       # plain JSON all the way down


def test_complete_match_is_over_and_refuses_another_hand() -> None:
    data = read("tartli-complete.json")
    s = standings(load(data))
    assert s["standing"]["over"] is True
    assert s["standing"]["winner"] == "Zsófi"
    assert s["standing"]["victory"] == {"Zsófi": 5, "Gergő": 0}
    data["hands"].append(copy.deepcopy(data["hands"][1]))
    error = refused(data)
    assert error.code == "match.over"
    assert error.hand == 4
    assert "Hand 4" in str(error)


def test_bad_piles_file_is_refused_naming_the_hand_and_rule() -> None:
    error = refused((DATA / "tartli-bad-piles.json").read_bytes())
    assert error.code == "piles.sum"
    assert error.hand == 1
    assert str(error) == (
        "Hand 1: The two pile counts must add up to 151, not 63 + 87 = 150 (rule 6.3.1)"
    )


def test_impossible_hand_in_the_middle_names_its_number() -> None:
    data = read("tartli-short.json")
    data["hands"][2]["end"]["piles"] = [150, 1]          # 1 is never a pile count (6.3.2)
    error = refused(data)
    assert (error.code, error.hand) == ("piles.impossible", 3)


def test_unreadable_hand_names_its_number() -> None:
    data = read("tartli-short.json")
    data["hands"][1]["tricks"][0]["melds"][0] = ["seq:l/A/9"]
    error = refused(data)
    assert error.hand == 2


def test_hand_in_progress_is_shown_only_as_the_last_hand() -> None:
    data = read("tartli-short.json")
    progress = {"indicator": "Kl", "exchange": None,
                "tricks": [{"winner": 1, "melds": [[], ["seq:b/A/3"]]}],
                "bela": None, "end": None}
    data["hands"].append(progress)
    m = load(data)
    assert m.hands[-1] == {**progress, "dealer": 0}     # hand 5: Ágnes deals, as in hand 1
    s = standings(m)
    assert s["in_progress"]["complete"] is False
    assert s["in_progress"]["scores"] == [0, 20]
    data["hands"].append(copy.deepcopy(data["hands"][0]))
    assert refused(data).code == "hand.unfinished"


def test_load_keeps_the_canonical_form() -> None:
    data = read("tartli-short.json")
    data["settings"]["players"] = ["  Ágnes ", "Tamás"]
    del data["hands"][0]["exchange"]
    data["hands"][0]["tricks"][10] = {"winner": 1}
    m = load(data)
    assert m.settings["players"] == ["Ágnes", "Tamás"]
    assert dump(m) == with_dealers(read("tartli-short.json"))


def test_dump_is_a_copy() -> None:
    m = load(read("tartli-short.json"))
    out = dump(m)
    out["hands"].clear()
    out["settings"]["players"][0] = "X"
    assert len(m.hands) == 4
    assert m.settings["players"][0] == "Ágnes"
    with pytest.raises(AttributeError):
        m.game = "other"  # type: ignore[misc]


def test_dumps_keeps_non_ascii_letters_and_indents() -> None:
    text = dumps(load(read("tartli-short.json")))
    assert '"Ágnes"' in text
    assert text.startswith('{\n  "format": "referee-match",\n  "version": 1,')


# -- the header: format, version, game, created, fields ---------------------------------------

@pytest.mark.parametrize("version", [2, 0, -1, 99, "1", 1.0, True, None, [1]])
def test_unknown_version_is_refused(version: object) -> None:
    data = read("tartli-short.json")
    data["version"] = version
    error = refused(data)
    assert error.code == "file.version"
    assert "version 1" in error.message


def test_newer_version_says_so_before_anything_else() -> None:
    error = refused({"format": "referee-match", "version": 2, "anything": "new"})
    assert error.message == (
        "This match file is version 2: it was written by a newer Referee; this Referee reads "
        "only version 1"
    )


@pytest.mark.parametrize("game", ["chess", "Tartli", "", 5, None, ["tartli"], {"a": 1}])
def test_wrong_game_is_refused(game: object) -> None:
    data = read("tartli-short.json")
    data["game"] = game
    assert refused(data).code == "game.unknown"


@pytest.mark.parametrize("fmt", [None, "referee", "referee-match ", 1])
def test_wrong_format_is_refused(fmt: object) -> None:
    data = read("tartli-short.json")
    data["format"] = fmt
    error = refused(data)
    assert error.code == "file.format"
    assert "not a Referee match file" in error.message


@pytest.mark.parametrize("created", [
    None, 20261130, "2026-02-30", "30/11/2026", "20261130", "2026-11-30T10:00", " 2026-11-30",
])
def test_created_must_be_an_iso_date(created: object) -> None:
    data = read("tartli-short.json")
    data["created"] = created
    assert refused(data).code == "file.created"


@pytest.mark.parametrize("field", ["format", "version", "game", "created", "settings", "hands"])
def test_every_field_is_required(field: str) -> None:
    data = read("tartli-short.json")
    del data[field]
    assert refused(data).code.startswith(("file.", "game."))


def test_unknown_field_is_refused() -> None:
    data = read("tartli-short.json")
    data["notes"] = "nice game"
    error = refused(data)
    assert error.code == "file.unknown"
    assert "“notes”" in error.message


@pytest.mark.parametrize(("change", "code"), [
    ({"target": 7}, "settings.target"),
    ({"players": ["Ann"]}, "settings.players"),
    ({"players": ["Ann", "ann"]}, "settings.players"),
    ({"first_dealer": 2}, "fact.player"),
])
def test_settings_are_checked_by_the_game(change: dict[str, Any], code: str) -> None:
    data = read("tartli-short.json")
    data["settings"].update(change)
    assert refused(data).code == code


# -- junk never crashes the reader ---------------------------------------------------------------

def short_id(value: object) -> str:
    if isinstance(value, int) and abs(value) > 10**20:
        return "huge-int"
    if isinstance(value, (list, dict, tuple, set)) or len(repr(value)) > 30:
        return type(value).__name__
    return repr(value)


def deep(levels: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(levels):
        value = [value]
    return value


def cyclic() -> dict[str, Any]:
    data = read("tartli-short.json")
    data["hands"][0]["tricks"][0]["melds"][0].append(data)
    return data


@pytest.mark.parametrize("junk", [
    "", "   ", "not json", "{", "[1, 2", "null", "[]", "42", '"text"', "{}",
    b"\xff\xfe\x00garbage", b"\x80abc", bytearray(b"{}"),
    "[" * 100_000 + "]" * 100_000,
    '{"format": "referee-match", "version": ' + "9" * 5000 + "}",
    '{"format": "referee-match", "version": NaN}',
    '{"format": "referee-match", "version": 1e999}',
    '{"format": "referee-match", "format": "referee-match"}',
    None, 1, 1.5, True, [], [read("tartli-short.json")], object(),
    {1: "x"}, {"format": ("referee-match",)},
], ids=short_id)
def test_junk_raises_only_rule_violations(junk: object) -> None:
    refused(junk)


def test_oversized_text_is_refused_without_parsing() -> None:
    # issue 12: the limit is the largest match the app holds (6,000,000 bytes; it was 2 MB)
    assert refused(" " * (MAX_BYTES + 1)).code == "file.size"


@pytest.mark.parametrize("path,value", [
    (("settings", "target"), 10**5000),
    (("settings", "first_dealer"), -(10**20)),
    (("hands", 0, "end", "piles", 0), 10**100),
    (("hands", 0, "tricks", 0, "melds", 0), [deep(10_000)]),
    (("hands", 0, "tricks", 0), {7: 1}),
    (("hands", 0, "tricks", 0, "melds"), ({"a"}, [])),
    (("settings", "players", 0), b"Agnes"),
], ids=short_id)
def test_python_values_that_json_cannot_hold(path: tuple[Any, ...], value: object) -> None:
    data: Any = read("tartli-short.json")
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    refused(data)


def test_cyclic_value_is_refused() -> None:
    assert refused(cyclic()).code == "file.depth"


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=20,
)


@given(st.one_of(json_values, st.text(), st.binary()))
@settings(max_examples=300)
def test_arbitrary_input_raises_only_rule_violations(junk: object) -> None:
    try:
        load(junk)
    except RuleViolation as error:
        assert error.code != "file.internal", error.__cause__


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, item in value.items():
            found += paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += paths(item, (*prefix, index))
    return found


SHORT_PATHS = paths(read("tartli-short.json"))


@given(st.sampled_from(SHORT_PATHS), json_values)
@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
def test_a_mutated_file_loads_or_is_refused(path: tuple[Any, ...], junk: object) -> None:
    data: Any = read("tartli-short.json")
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = junk
    try:
        m = load(json.dumps(data))
    except RuleViolation as error:
        assert error.code != "file.internal", error.__cause__
    else:
        assert load(dumps(m)) == m


def test_engine_import_stays_pure() -> None:
    code = (
        "import sys, referee.engine.matchfile\n"
        "bad = [m for m in ('flask', 'wtforms', 'weasyprint', 'sqlalchemy') if m in sys.modules]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


# -- the round-trip property over generated valid matches --------------------------------------

CARDS = [str(card) for card in HUNGARIAN.cards]
MELDS = [
    "set:O", "set:9", "set:A", "set:10", "set:K", "set:U",
    *(f"seq:{s}/{t}/{n}" for s in "alhb" for t, n in (("A", 3), ("K", 4), ("O", 5), ("10", 3))),
]
PILES = {w: [c for c in range(152) if possible_pile(c, w)] for w in range(17)}
PLAYED_PILES = {
    w: [c for c in PILES[w] if possible_pile(151 - c, 16 - w)] for w in range(17)
}


@st.composite
def meld_lists(draw: st.DrawFn, tricks: int) -> list[list[list[str]]]:
    result: list[list[list[str]]] = []
    for number in range(1, tricks + 1):
        sides: list[list[str]] = [[], []]
        if number <= 8 and draw(st.integers(0, 4)) == 0:
            sides[draw(st.integers(0, 1))] = [draw(st.sampled_from(MELDS))]
        result.append(sides)
    return result


@st.composite
def hands(draw: st.DrawFn, in_progress: bool = False) -> dict[str, Any]:
    indicator = draw(st.sampled_from(CARDS))
    exchange = draw(st.none() | st.integers(1, 7))
    bela = draw(st.none() | st.fixed_dictionaries(
        {"player": st.integers(0, 1), "trick": st.integers(1, 8)}
    ))
    kind = "progress" if in_progress else draw(st.sampled_from(["played", "claim"]))
    end: dict[str, Any] | None
    if kind == "played":
        winners: list[int | None] = list(draw(st.lists(st.integers(0, 1), min_size=16,
                                                       max_size=16)))
        late = set(winners[7:])
        won = winners.count(0)
        pile = draw(st.sampled_from(PLAYED_PILES[won]))
        end = {
            "kind": "played", "piles": [pile, 151 - pile], "last": winners[15],
            "stichmatsch": winners[15] if len(late) == 1 else None,
        }
    elif kind == "claim":
        completed = draw(st.integers(0, 15))
        winners = list(draw(st.lists(st.integers(0, 1), min_size=completed,
                                     max_size=completed)))
        step7 = draw(st.booleans())
        if draw(st.booleans()):
            winners.append(None)          # the trick in progress at the claim
        piles = [draw(st.sampled_from(PILES[winners.count(p)])) for p in (0, 1)]
        end = {
            "kind": "claim", "claimant": draw(st.integers(0, 1)), "completed": completed,
            "step7": step7, "piles": piles,
        }
    else:
        winners = list(draw(st.lists(st.integers(0, 1), max_size=16)))
        if draw(st.booleans()):
            winners.append(None)
        end = None
    melds = draw(meld_lists(len(winners)))
    dealer = draw(st.sampled_from([None, 0, 1]))     # not recorded, or either (out of turn)
    return {
        **({} if dealer is None else {"dealer": dealer}),
        "indicator": indicator, "exchange": exchange,
        "tricks": [{"winner": w, "melds": m} for w, m in zip(winners, melds)],
        "bela": bela, "end": end,
    }


names = st.text(st.sampled_from("AaÁáEeÉéGgŐőŰűZzSs -"), min_size=1, max_size=12).filter(
    lambda name: name.strip() != ""
)


@st.composite
def matches(draw: st.DrawFn) -> MatchFile:
    players = draw(st.lists(
        names, min_size=2, max_size=2, unique_by=lambda n: " ".join(n.split()).casefold()
    ))
    match_settings = TARTLI.settings({
        "players": players, "target": draw(st.sampled_from([5, 10])),
        "first_dealer": draw(st.integers(0, 1)),
    })
    kept: list[dict[str, Any]] = []
    candidates = draw(st.lists(hands(), min_size=1, max_size=12))
    if draw(st.booleans()):
        candidates.append(draw(hands(in_progress=True)))
    for hand in candidates:
        try:
            result = TARTLI.score(match_settings, [*kept, hand])
        except RuleViolation:
            continue
        kept.append(TARTLI.canonical_hand(hand))
        if result.standing.over or hand["end"] is None:
            break
    created = draw(st.dates()).isoformat()
    return MatchFile(game="tartli", settings=match_settings,
                     hands=TARTLI.complete(match_settings, kept), created=created)


@given(matches())
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_a_valid_match_round_trips(m: MatchFile) -> None:
    event(f"{len(m.hands)} hands")
    text = dumps(m)
    again = load(text)
    assert again == m
    assert dumps(again) == text
    assert load(dump(m)) == m
    assert standings(again) == standings(m)
