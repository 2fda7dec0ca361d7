"""``python -m referee score`` on a Stovkahra series: tests/data/stovkahra-series.json.

The file (W deals first): deal 1 is example 1 of rules section 9 (90–44); deal 2 example 3,
N's right dost (NS 1 matchstick, added); deal 3 example 2, sevens on tricks 1 and 8 (53–97);
deal 4 W declares three kings and calls dost at once, EW counting 103 (EW 1, added); deal 5
N's three aces and 50 card points (80–28); deal 6 S declares three aces and calls dost at once
with NS at 110 and EW under 50 (NS 2, taken off EW, who have only 1); deal 7 in progress.
Every deal records its dealer, and every choice the team that made it
(and, for a take, the pile it was made against).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from referee.engine.matchfile import dumps, load, standings

ROOT = Path(__file__).resolve().parent.parent
SERIES = ROOT / "tests" / "data" / "stovkahra-series.json"
NS, EW = "Jana & Eva", "Petr & Karel"


def score(path: Path) -> tuple[subprocess.CompletedProcess[bytes], dict[str, Any]]:
    done = subprocess.run(
        [sys.executable, "-m", "referee", "score", str(path)], cwd=ROOT, capture_output=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr.decode()
    return done, json.loads(done.stdout.decode("utf-8"))


def texts(hand: dict[str, Any]) -> list[str]:
    return [line["text"] for line in hand["lines"]]


def test_the_example_file_is_a_canonical_match_file() -> None:
    raw = SERIES.read_text(encoding="utf-8")
    match = load(raw)
    assert match.game == "stovkahra"
    assert dumps(match) == raw
    assert len(match.hands) == 7
    assert [h["end"] and h["end"]["kind"] for h in match.hands] == [
        "played", "dost", "played", "dost", "played", "dost", None,
    ]


def test_score_gives_the_standings() -> None:
    done, out = score(SERIES)
    assert done.stderr == b""
    assert out == standings(load(SERIES.read_bytes()))
    assert out["game"] == "stovkahra"
    assert out["players"] == ["Jana", "Petr", "Eva", "Karel"]
    assert out["standing"] == {
        "totals": {NS: 0, EW: 0},
        "victory": {NS: 1, EW: 0},
        "dealer": "Petr",
        "phase": "Game in progress",
        "over": False,
        "winner": None,
    }
    assert f"Stovkahra, two teams: {NS} (North–South) against {EW} (East–West)" in out["rules"]


def test_score_explains_every_deal() -> None:
    _, out = score(SERIES)
    hands = out["hands"]
    assert [h["hand"] for h in hands] == [1, 2, 3, 4, 5, 6]
    assert [h["dealer"] for h in hands] == [3, 0, 1, 2, 3, 0]
    assert [h["scores"] for h in hands] == [
        [90, 44], [12, 11], [53, 97], [0, 6], [80, 28], [30, 0],
    ]
    assert [h["totals_after"] for h in hands] == [
        [90, 44], [102, 55], [53, 97], [53, 103], [80, 28], [110, 28],
    ]
    assert [h["reset"] for h in hands] == [False, True, False, True, False, True]
    assert [h["award"] and (h["award"]["winner"], h["award"]["amount"]) for h in hands] == [
        None, (0, 1), None, (1, 1), None, (0, 2),
    ]
    one, two, three, four, _, six = hands
    assert [line["points"] for line in one["lines"]] == [30, 6, 10, 40, 32, 10, 6, 90, 44]
    assert two["award"]["reason"] == (
        "Jana calls dost on winning trick 2 — 102 ≥ 100: right; opponents 55 ≥ 50 → "
        "1 matchstick"
    )
    assert f"{EW}: trick 1 won with a seven" in texts(three)
    assert f"{NS}: last trick won with a seven (26, including the 6)" in texts(three)
    assert four["award"]["reason"].startswith(
        "Karel calls dost right after declaring — 103 ≥ 100: right"
    )
    assert f"{EW} add 1 matchstick to their pile: matchsticks {NS} 1, {EW} 1" in texts(four)
    assert six["award"]["reason"].endswith("opponents 28 ≤ 49 → 2 matchsticks")
    assert texts(six)[-1] == (
        f"{NS} take 2 matchsticks off {EW}'s pile (only 1 could be taken; 1 lost): "
        f"matchsticks {NS} 1, {EW} 0"
    )
    assert six["summary"] == (
        f"{NS} win the game: 2 matchsticks, taken away (1 lost: {EW} had only 1)"
    )
    assert out["in_progress"]["complete"] is False
    assert out["in_progress"]["scores"] == [0, 10]
    assert out["in_progress"]["summary"] == "in progress"


def test_score_refuses_the_file_with_an_impossible_deal(tmp_path: Path) -> None:
    data = json.loads(SERIES.read_text(encoding="utf-8"))
    data["hands"][2]["end"]["sevens"].append({"trick": 1, "team": 0})     # trick 1 twice
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "referee", "score", str(bad)], cwd=ROOT,
                          capture_output=True, timeout=120)
    assert done.returncode == 2
    assert done.stdout == b""
    err = done.stderr.decode("utf-8")
    assert err == (
        f"error: {bad}: Deal 3: Trick 1 is recorded more than once as won with a seven "
        "(rule 6.3.4)\n"
    )


def test_score_says_not_chosen_yet_when_an_edit_gives_a_game_to_the_other_team(
    tmp_path: Path,
) -> None:
    # Deal 1's card points 40–32 become 20–52: deal 2's dost is wrong (82 < 100), so Petr &
    # Karel win that game. Jana & Eva's "add" was theirs, not Petr & Karel's (7.3.1).
    data = json.loads(SERIES.read_text(encoding="utf-8"))
    data["hands"][0]["end"]["points"] = [20, 52]
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(data), encoding="utf-8")
    _, out = score(edited)
    two = out["hands"][1]
    assert two["award"]["winner"] == 1 and two["award"]["amount"] == 2
    assert two["summary"] == f"{EW} win the game: 2 matchsticks, not chosen yet"
    assert f"{EW} add" not in " ".join(texts(two))
    assert (f"{NS} chose to add the matchsticks, but after a change to an earlier deal {EW} "
            f"win this game: that choice is void and {EW} choose") in texts(two)
    assert texts(two)[-1] == (
        f"{EW} choose to add 2 matchsticks to their pile or take them off {NS}'s: not chosen "
        f"yet, so the matchsticks shown leave this award out ({NS} 0, {EW} 0)"
    )
    assert out["standing"]["victory"] == {NS: 0, EW: 0}
    assert out["standing"]["phase"] == (
        "Game in progress · matchsticks of deal 2 not chosen yet (not counted)"
    )
