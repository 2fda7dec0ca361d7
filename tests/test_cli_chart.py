"""``python -m referee chart MATCH.json -o chart.svg``: the chart of the running totals."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from referee.charts import PAPER, running_totals
from referee.cli import main
from referee.engine.games import get
from referee.engine.matchfile import load

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
SHORT = DATA / "tartli-short.json"
BAD = DATA / "tartli-bad-piles.json"
NS = {"svg": "http://www.w3.org/2000/svg"}


def run(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "referee", *args], cwd=ROOT, input=stdin,
        capture_output=True, timeout=120,
    )


def expected(path: Path) -> str:
    m = load(path.read_bytes())
    game = get(m.game)
    return running_totals(game, m.settings, game.score(m.settings, m.hands), layout=PAPER,
                          standalone=True)


def labels(svg: bytes) -> list[str | None]:
    root = ET.fromstring(svg)
    return [g.get("data-label") for g in root.iterfind("svg:g", NS)
            if "series" in g.get("class", "").split()]


@pytest.mark.parametrize("name", ["tartli-short", "stovkahra-series", "marjolet-game",
                                  "troggu-evening"])
def test_chart_writes_the_svg(tmp_path: Path, name: str) -> None:
    out = tmp_path / "chart.svg"
    done = run("chart", f"tests/data/{name}.json", "-o", str(out))
    assert done.returncode == 0, done.stderr.decode()
    svg = out.read_bytes()
    assert svg.decode("utf-8") == expected(DATA / f"{name}.json")
    m = load((DATA / f"{name}.json").read_bytes())
    assert labels(svg) == get(m.game).sides(m.settings)
    assert done.stderr.decode() == f"wrote {out} ({len(svg):,} bytes)\n"


def test_chart_writes_next_to_the_match_file_by_default(tmp_path: Path) -> None:
    source = tmp_path / "evening.json"
    shutil.copy(DATA / "troggu-evening.json", source)
    assert main(["chart", str(source)]) == 0
    assert (tmp_path / "evening.svg").read_text("utf-8") == expected(source)


def test_chart_reads_stdin_and_writes_stdout() -> None:
    done = run("chart", "-", "-o", "-", stdin=SHORT.read_bytes())
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout.decode("utf-8") == expected(SHORT)
    assert done.stderr == b""


def test_chart_refuses_a_bad_file_and_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "chart.svg"
    done = run("chart", str(BAD), "-o", str(out))
    err = done.stderr.decode("utf-8")
    assert done.returncode == 2
    assert err.startswith("error: ") and "151" in err
    assert "Traceback" not in err
    assert not out.exists()


def test_chart_refuses_a_missing_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["chart", "tests/data/no-such-match.json"]) == 2
    assert capsys.readouterr().err.startswith(
        "error: cannot read tests/data/no-such-match.json")


def test_chart_of_a_match_without_hands_is_not_made(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(SHORT.read_text("utf-8"))
    source = tmp_path / "new.json"
    source.write_text(json.dumps({**data, "hands": []}), "utf-8")
    assert main(["chart", str(source)]) == 1
    assert capsys.readouterr().err == f"error: {source} has no hand scored yet: no chart to draw\n"
    assert not (tmp_path / "new.svg").exists()


def test_chart_cannot_write(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "missing-folder" / "chart.svg"
    assert main(["chart", str(SHORT), "-o", str(out)]) == 1
    assert capsys.readouterr().err.startswith(f"error: cannot write {out}")


def test_chart_does_not_load_the_web_layer(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from referee.cli import main\n"
        f"assert main(['chart', {str(SHORT)!r}, '-o', {str(tmp_path / 'c.svg')!r}]) == 0\n"
        "bad = [m for m in ('flask', 'weasyprint', 'wtforms', 'sqlalchemy', 'jinja2',\n"
        "                   'referee.web') if m in sys.modules]\n"
        "assert not bad, bad\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr.decode()
