"""``python -m referee score`` and ``pdf`` on a Marjolet game: tests/data/marjolet-game.json.

The file (default rules, Bruno deals first): deal 1 recorded card by card, Bruno exchanges
after trick 6 (30–90); deal 2 Anne turns up 7♣ (+7), Bruno's marriage in hearts (67–70); deal 3
Anne exchanges after trick 2, only Bruno's aces and tens given (70–50); deal 4 Anne's two
marriages and two marjolets, Bruno's trump 7 in trick 2 and his sweep (150–100); deal 5
(60–100); deal 6 Anne turns up 7♥ and melds the trump marjolet (87–70): 464–480; deal 7 Anne's
trump marjolet after trick 10 and her sweep (170–40): 634–520, both over 500, Anne wins.
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
GAME_FILE = ROOT / "tests" / "data" / "marjolet-game.json"


def run(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "referee", *args], cwd=ROOT, input=stdin,
                          capture_output=True, timeout=120)


def score(path: Path) -> dict[str, Any]:
    done = run("score", str(path))
    assert done.returncode == 0, done.stderr.decode()
    assert done.stderr == b""
    return dict(json.loads(done.stdout.decode("utf-8")))


def texts(hand: dict[str, Any]) -> list[str]:
    return [line["text"] for line in hand["lines"]]


def pdf_text(data: bytes) -> str:
    reader = PdfReader(io.BytesIO(data))
    return " ".join(" ".join(p.extract_text().split()) for p in reader.pages)


def test_the_example_file_is_a_canonical_match_file() -> None:
    raw = GAME_FILE.read_text(encoding="utf-8")
    match = load(raw)
    assert match.game == "marjolet"
    written = json.loads(dumps(match))    # version 1, written back with each deal's dealer
    assert written == {**json.loads(raw), "hands": [
        {**deal, "dealer": (1 + number) % 2} for number, deal in enumerate(json.loads(raw)["hands"])
    ]}
    assert len(match.hands) == 7
    assert [h["turnup"] for h in match.hands] == ["9h", "7c", "9c", "Kd", "Kd", "7h", "9h"]
    assert all(h["end"] is not None for h in match.hands)
    # deal 1 is recorded card by card, the others by their facts only
    assert all("cards" in t for t in match.hands[0]["tricks"])
    assert not any("cards" in t for h in match.hands[1:] for t in h["tricks"])


def test_score_gives_the_standings_and_the_rules() -> None:
    out = score(GAME_FILE)
    assert out == standings(load(GAME_FILE.read_bytes()))
    assert out["game"] == "marjolet"
    assert out["players"] == ["Anne", "Bruno"]
    assert out["settings"]["rules"] == "default" and out["settings"]["target"] == 500
    assert out["standing"] == {
        "totals": {"Anne": 634, "Bruno": 520},
        "victory": {"Anne": 1, "Bruno": 0},
        "dealer": "Anne",
        "phase": "Game over: Anne wins 634–520",
        "over": True,
        "winner": "Anne",
    }
    assert out["rules"][:2] == ["Marjolet for two players, one game to 500 points",
                                "Rule set: default (the seed's values)"]
    assert ("Traditional melds: off — four aces 100, four kings 80, four queens 60, four jacks "
            "40; four tens are not a meld; marriages and marjolets 40 in trumps, 20 otherwise"
            in out["rules"])
    assert "Sweep 40: off — winning all of tricks 11–16 adds 50 to the last trick's 10" \
        in out["rules"]


def test_score_explains_every_deal() -> None:
    hands = score(GAME_FILE)["hands"]
    assert [h["hand"] for h in hands] == [1, 2, 3, 4, 5, 6, 7]
    assert [h["dealer"] for h in hands] == [1, 0, 1, 0, 1, 0, 1]
    assert [h["scores"] for h in hands] == [
        [30, 90], [67, 70], [70, 50], [150, 100], [60, 100], [87, 70], [170, 40],
    ]
    assert [h["totals_after"] for h in hands] == [
        [30, 90], [97, 160], [167, 210], [317, 310], [377, 410], [464, 480], [634, 520],
    ]
    # every deal: the scores sum to 80 + the bonuses + the melds (rule 6.2)
    for h in hands:
        points = sum(line["points"] for line in h["lines"]
                     if line["points"] is not None and "deal score" not in line["text"])
        assert points == sum(h["scores"]), h["hand"]
    one, two, three, four, _, six, seven = hands
    assert "After trick 6: Bruno exchanges the 7♥ for the turn-up 9♥" in texts(one)
    assert "Bruno takes the turn-up (7♥) after trick 10" in texts(one)
    assert [line["points"] for line in two["lines"]][:2] == [7, 20]
    assert texts(two)[:2] == ["The turn-up is the 7♣: Anne, the dealer, scores it",
                              "After trick 9: Bruno melds the marriage in hearts (K♥ Q♥)"]
    assert "Anne: aces and tens (80 − 30)" in texts(three)
    assert "After trick 8: Anne melds the marjolet with the queen of hearts (J♦ Q♥)" \
        in texts(four)
    assert "Bruno plays the 7♦ to trick 2, never exchanged" in texts(four)
    assert "Bruno wins all of tricks 11–16: sweep, on top of the last trick" in texts(four)
    assert "After trick 2: Anne melds the marjolet with the trump queen (Q♥ J♥)" in texts(six)
    assert seven["summary"] == "Anne wins the game 634–520"
    assert seven["award"] == {"winner": 0, "amount": 1,
                              "reason": "both at 500 or more: Anne's 634 beats 520"}
    assert texts(seven)[-1] == "both at 500 or more: Anne's 634 beats 520: Anne wins the game"


def test_score_reads_stdin() -> None:
    done = run("score", "-", stdin=GAME_FILE.read_bytes())
    assert done.returncode == 0, done.stderr.decode()
    assert json.loads(done.stdout) == score(GAME_FILE)


def test_score_refuses_a_file_with_an_impossible_deal(tmp_path: Path) -> None:
    data = json.loads(GAME_FILE.read_text(encoding="utf-8"))
    data["hands"][2]["seven_played"] = {"player": 0, "trick": None}   # exchanged after trick 2
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    done = run("score", str(bad))
    assert done.returncode == 2
    assert done.stdout == b""
    assert done.stderr.decode("utf-8") == (
        f"error: {bad}: Deal 3: The 7♣ was exchanged after trick 2: an exchanged trump 7 earns "
        "no bonus when it is played (rule 6.3.9)\n"
    )


def test_score_refuses_both_players_melding_four_aces(tmp_path: Path) -> None:
    data = json.loads(GAME_FILE.read_text(encoding="utf-8"))
    tricks = data["hands"][3]["tricks"]
    tricks[2]["melds"][0].append("four:A")           # Anne won trick 3
    tricks[6]["melds"][1].append("four:A")           # Bruno won trick 7
    bad = tmp_path / "aces.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    done = run("score", str(bad))
    assert done.returncode == 2
    assert "Deal 4: After trick 7, Bruno melds four aces (A♣ A♦ A♥ A♠), which Anne melded " \
           "after trick 3" in done.stderr.decode("utf-8")


def test_pdf_writes_the_scoresheet(tmp_path: Path) -> None:
    out = tmp_path / "sheet.pdf"
    done = run("pdf", str(GAME_FILE), "-o", str(out), "--explained")
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout == b""
    assert done.stderr.decode().startswith(f"wrote {out} (")
    data = out.read_bytes()
    assert data.startswith(b"%PDF")
    text = pdf_text(data)
    assert "Marjolet scoresheet" in text
    assert "Players Anne – Bruno" in text
    assert "Date 2026-03-14" in text
    assert "Game to 500 points" in text and "First dealer Bruno" in text
    assert "Rule set: default (the seed's values)" in text
    assert "Traditional melds: off — four aces 100, four kings 80" in text
    assert "Game over: Anne wins 634–520. Totals: Anne 634, Bruno 520." in text
    assert "the marriage in hearts 20" in text
    assert "the marjolet with the trump queen 40" in text
    assert "After trick 8: Anne melds the marjolet with the queen of hearts (J♦ Q♥) 20" in text
    assert "Deal 7 — Anne wins the game 634–520" in text
    assert "both at 500 or more: Anne's 634 beats 520: Anne wins the game" in text


def test_pdf_to_stdout_and_default_name(tmp_path: Path) -> None:
    done = run("pdf", str(GAME_FILE), "-o", "-")
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout.startswith(b"%PDF")
    assert "Marjolet scoresheet" in pdf_text(done.stdout)
    copy = tmp_path / "game.json"
    copy.write_bytes(GAME_FILE.read_bytes())
    done = run("pdf", str(copy))
    assert done.returncode == 0, done.stderr.decode()
    assert (tmp_path / "game.pdf").read_bytes().startswith(b"%PDF")


def test_pdf_refuses_an_impossible_file(tmp_path: Path) -> None:
    data = json.loads(GAME_FILE.read_text(encoding="utf-8"))
    data["hands"][6]["end"]["last"] = 1                  # Anne's sweep, Bruno's last trick
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    out = tmp_path / "bad.pdf"
    done = run("pdf", str(bad), "-o", str(out))
    assert done.returncode == 2
    assert done.stderr.decode("utf-8") == (
        f"error: {bad}: Deal 7: A sweep by Anne includes the last trick, which cannot then be "
        "Bruno's (rule 6.3.9)\n"
    )
    assert not out.exists()
