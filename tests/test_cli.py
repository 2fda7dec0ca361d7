"""The command line: ``python -m referee score`` and ``python -m referee pdf``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from referee.cli import main
from referee.engine.matchfile import load, standings

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
SHORT = DATA / "tartli-short.json"
BAD = DATA / "tartli-bad-piles.json"


def run(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "referee", *args], cwd=ROOT, input=stdin,
        capture_output=True, timeout=120,
    )


def texts(hand: dict[str, object]) -> list[str]:
    lines = hand["lines"]
    assert isinstance(lines, list)
    return [line["text"] for line in lines]


def test_score_prints_the_standings_and_every_explanation() -> None:
    done = run("score", "tests/data/tartli-short.json")
    assert done.returncode == 0, done.stderr.decode()
    assert done.stderr == b""
    out = json.loads(done.stdout.decode("utf-8"))
    assert "Ágnes" in done.stdout.decode("utf-8")           # ensure_ascii=False
    assert out == standings(load(SHORT.read_bytes()))
    assert out["standing"]["victory"] == {"Ágnes": 3, "Tamás": 0}
    assert out["standing"]["totals"] == {"Ágnes": 0, "Tamás": 0}
    assert out["standing"]["phase"] == "Game in progress"
    assert out["standing"]["dealer"] == "Ágnes"
    one, two, three, four = out["hands"]
    assert texts(one) == [
        "Trick 1: Tamás, Kvart to the King of acorns",
        "Trick 3: Ágnes, Four Nines",
        "Béla (King and Over of hearts) by Ágnes",
        "Ágnes: pile count",
        "Tamás: pile count",
        "Tamás: last trick",
        "Ágnes: hand score",
        "Tamás: hand score",
    ]
    assert [line["points"] for line in one["lines"]] == [50, 150, 40, 63, 88, 10, 253, 148]
    assert "Ágnes's count: total 253 + melds 250 + piles 21 = 524" in texts(two)
    assert two["award"] == {
        "winner": 0, "amount": 2,
        "reason": "Ágnes claims 501 — 524 ≥ 501: right; opponent 148 ≤ 250 → 2 buli",
    }
    assert texts(three)[0] == (
        "Trick 1: Ágnes's Four Nines outranks Tamás's Kvint to the Ace of hearts "
        "— any set beats any sequence (4.2.1)"
    )
    assert four["award"]["winner"] == 0 and four["award"]["amount"] == 1
    assert "491 < 501: wrong" in texts(four)[-1]
    assert [h["totals_after"] for h in out["hands"]] == [
        [253, 148], [524, 148], [230, 221], [244, 491],
    ]


def test_score_reads_stdin() -> None:
    done = run("score", "-", stdin=SHORT.read_bytes())
    assert done.returncode == 0
    assert json.loads(done.stdout)["standing"]["victory"] == {"Ágnes": 3, "Tamás": 0}


def test_score_does_not_load_the_web_layer() -> None:
    code = (
        "import sys\n"
        "from referee.cli import main\n"
        f"assert main(['score', {str(SHORT)!r}]) == 0\n"
        "bad = [m for m in ('flask', 'weasyprint', 'wtforms', 'sqlalchemy', 'referee.web')\n"
        "       if m in sys.modules]\n"
        "assert not bad, bad\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr.decode()


@pytest.mark.parametrize(("content", "message"), [
    (BAD.read_bytes(), "Hand 1: The two pile counts must add up to 151"),
    (b"{not json", "not valid JSON"),
    (b"\xff\xfe", "not UTF-8"),
    (b'{"format": "referee-match", "version": 2}', "version 2"),
    (b"[" * 50_000, "nests"),
], ids=["bad-piles", "not-json", "not-utf8", "version-2", "deep"])
def test_score_refuses_a_bad_file(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "match.json"
    path.write_bytes(content)
    done = run("score", str(path))
    err = done.stderr.decode("utf-8")
    assert done.returncode == 2
    assert done.stdout == b""
    assert err.startswith("error: ")
    assert message in err
    assert "Traceback" not in err
    assert err.count("\n") == 1


def test_score_refuses_a_missing_file() -> None:
    done = run("score", "tests/data/no-such-match.json")
    assert done.returncode == 2
    assert done.stderr.decode().startswith("error: cannot read tests/data/no-such-match.json")


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main([])
    assert info.value.code == 2
    with pytest.raises(SystemExit) as info:
        main(["frobnicate", "x.json"])
    assert info.value.code == 2


def test_main_in_process(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", str(BAD)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        f"error: {BAD}: Hand 1: The two pile counts must add up to 151, not 63 + 87 = 150 "
        "(rule 6.3.1)\n"
    )


def test_pdf_refuses_a_bad_file_and_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "sheet.pdf"
    done = run("pdf", str(BAD), "-o", str(out))
    err = done.stderr.decode("utf-8")
    assert done.returncode == 2
    assert err.startswith("error: ") and "151" in err
    assert "Traceback" not in err
    assert not out.exists()


def test_pdf_writes_the_scoresheet(tmp_path: Path) -> None:
    pytest.importorskip("referee.web.matches.exports")
    out = tmp_path / "sheet.pdf"
    done = run("pdf", "tests/data/tartli-short.json", "-o", str(out))
    assert done.returncode == 0, done.stderr.decode()
    assert out.read_bytes().startswith(b"%PDF")
