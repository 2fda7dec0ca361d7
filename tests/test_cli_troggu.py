"""``python -m referee score`` and ``... pdf`` on a Troggu evening: tests/data/troggu-evening.json.

The file is the ledger of rules 9, example 12 (4 players, Anna deals first): (1) Beat wins a
normal game, ×1, with his discard as cards; (2) Carla wins a Solo, ×1, the Tapp's points given;
(3) a Misère in which Anna takes most; (4) Dario loses a normal game, ×1, the discard as points;
(5) Anna loses a normal game with 25, ×2; (6) Dario has taken and the hand is being played.
Balances Anna −110, Beat +50, Carla +90, Dario −30; settle-up: Anna pays Carla 90, Dario pays
Beat 30, Anna pays Beat 20.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from pypdf import PdfReader

from referee.engine.matchfile import dumps, load, standings

ROOT = Path(__file__).resolve().parent.parent
EVENING = ROOT / "tests" / "data" / "troggu-evening.json"
NAMES = ["Anna", "Beat", "Carla", "Dario"]


def run(*args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "referee", *args], cwd=ROOT,
                          capture_output=True, timeout=180)


def score(path: Path) -> dict[str, Any]:
    done = run("score", str(path))
    assert done.returncode == 0, done.stderr.decode()
    assert done.stderr == b""
    return dict(json.loads(done.stdout.decode("utf-8")))


def test_the_example_file_is_a_canonical_match_file() -> None:
    raw = EVENING.read_text(encoding="utf-8")
    match = load(raw)
    assert match.game == "troggu"
    assert dumps(match) == raw
    assert [h["game"] for h in match.hands] == ["normal", "solo", "misere", "normal", "normal",
                                                "normal"]
    assert match.hands[-1]["end"] is None


def test_score_gives_the_balances_and_the_settle_up() -> None:
    out = score(EVENING)
    assert out == standings(load(EVENING.read_bytes()))
    assert out["game"] == "troggu"
    assert out["players"] == NAMES
    assert out["standing"] == {
        "totals": {"Anna": -110, "Beat": 50, "Carla": 90, "Dario": -30},
        "victory": {"Anna": -110, "Beat": 50, "Carla": 90, "Dario": -30},
        "dealer": "Beat",
        "phase": "5 hands played; settle-up: Anna pays Carla 90 Rappen; Dario pays Beat 30 "
                 "Rappen; Anna pays Beat 20 Rappen",
        "over": False,
        "winner": None,
    }
    assert ("Settle-up: the largest debt pays the largest credit the smaller of the two, "
            "until every balance is 0 (ties to the earlier seat)") in out["rules"]


def test_score_explains_every_hand() -> None:
    out = score(EVENING)
    hands = out["hands"]
    assert [h["dealer"] for h in hands] == [0, 1, 2, 3, 0]
    assert [h["scores"] for h in hands] == [
        [-10, 30, -10, -10], [-20, -20, 60, -20], [-30, 10, 10, 10], [10, 10, 10, -30],
        [-60, 20, 20, 20],
    ]
    assert hands[-1]["totals_after"] == [-110, 50, 90, -30]
    for hand in hands:
        assert sum(hand["scores"]) == 0
        paid = [line for line in hand["lines"] if line["points"] is not None]
        assert [line["player"] for line in paid] == [0, 1, 2, 3]      # every player, a reason
    texts = [[line["text"] for line in h["lines"]] for h in hands]
    assert "Discard Q♠ 9♠ 8♠ 7♠ 6♠ 5♠ Q♣ 9♣ 8♣ 7♣: 16 card points, counted for Beat's side" \
        in texts[0]
    assert "Tapp: 12 card points, counted for the Soloist" in texts[1]
    assert "Anna has the most points (40): pays 10 to Beat, Carla and Dario" in texts[2]
    assert "Anna 25, defenders 89 (114 − 25): the defenders win with 58 or more" in texts[4]
    assert "Anna has 25 ≤ 29 (Standard): ×2; unit 2 × 10 = 20 Rappen" in texts[4]
    assert out["in_progress"]["complete"] is False
    assert out["in_progress"]["summary"] == "in progress"


def written_pdf(target: Path, *options: str) -> str:
    """``pdf`` of the evening to ``target`` (with ``options``): the PDF's text, whitespace
    squashed."""
    done = run("pdf", str(EVENING), "-o", str(target), *options)
    assert done.returncode == 0, done.stderr.decode()
    assert done.stderr.decode().startswith(f"wrote {target}")
    return " ".join(" ".join(page.extract_text().split())
                    for page in PdfReader(io.BytesIO(target.read_bytes())).pages)


def test_pdf_scoresheet(tmp_path: Path) -> None:
    target = tmp_path / "evening.pdf"
    text = written_pdf(target)
    assert "Troggu scoresheet" in text
    assert "1. Anna, 2. Beat, 3. Carla, 4. Dario" in text
    assert "Stake 10 Rappen a unit" in text
    assert "Threshold Standard" in text
    assert "Variants none" in text
    assert "Balance (Rappen) −110 +50 +90 −30" in text
    for line in ("Anna pays Carla 90 Rappen", "Dario pays Beat 30 Rappen",
                 "Anna pays Beat 20 Rappen"):
        assert line in text, line
    assert "Hand 6 is still in progress and not scored." in text
    # every hand's explanation: an appendix asked for (issue 12)
    assert "How each hand scored" not in text
    assert "Carla receives 60" not in text
    explained = written_pdf(target, "--explained")
    assert explained.index("Balance (Rappen) −110 +50 +90 −30") < explained.index(
        "How each hand scored")
    assert "Carla receives 60 (Soloist: 20 from each of 3 opponents) +60" in explained


def test_score_refuses_a_file_with_an_impossible_hand(tmp_path: Path) -> None:
    data = json.loads(EVENING.read_text(encoding="utf-8"))
    data["hands"][0]["discard"][0] = "T21"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    done = run("score", str(bad))
    assert done.returncode == 2
    assert done.stdout == b""
    assert done.stderr.decode("utf-8") == (
        f"error: {bad}: Hand 1: Trump XXI (Mund) may never be discarded: the fool, XXI and I "
        "stay in play (rule 4.2.2)\n"
    )
