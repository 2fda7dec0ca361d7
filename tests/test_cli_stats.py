"""The command line: ``python -m referee stats MATCH.json…`` and ``python -m referee csv``."""

from __future__ import annotations

import csv
import datetime
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from referee.cli import main
from referee.engine.circlefile import CircleFile, dumps
from referee.engine.matchfile import load
from referee.stats import Played, statistics
from referee.stats.ratings import as_json, rated_matches, ratings

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
SHORT = DATA / "tartli-short.json"
COMPLETE = DATA / "tartli-complete.json"
TROGGU = DATA / "troggu-evening.json"
BAD = DATA / "tartli-bad-piles.json"


def run(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "referee", *args], cwd=ROOT, input=stdin,
        capture_output=True, timeout=120,
    )


def played(path: Path) -> Played:
    m = load(path.read_bytes())
    return Played(m.game, datetime.date.fromisoformat(m.created), m.settings, m.hands,
                  tuple(m.settings["players"]))


def test_stats_prints_the_statistics_of_every_file_keyed_by_the_names_as_written() -> None:
    done = run("stats", str(SHORT), str(COMPLETE), str(TROGGU))
    assert done.returncode == 0, done.stderr.decode()
    assert done.stderr == b""
    text = done.stdout.decode("utf-8")
    assert "Ágnes" in text                                   # ensure_ascii=False
    out = json.loads(text)
    rated = out.pop("ratings")               # the statistics, and the ratings beside them
    assert out == statistics([played(SHORT), played(COMPLETE), played(TROGGU)])
    assert rated == as_json(ratings(rated_matches([played(SHORT), played(COMPLETE),
                                                   played(TROGGU)])))
    # the short match is not over: only Zsófi and Gergő's match is rated in Tartli
    assert [p["person"] for p in rated["games"]["tartli"]["players"]] == ["Zsófi", "Gergő"]
    assert [p["person"] for p in rated["games"]["troggu"]["players"]] == [
        "Carla", "Beat", "Dario", "Anna"]                    # by balance: +90, +50, −30, −110
    assert rated["games"]["tartli"]["players"][0]["provisional"] is True
    assert out["matches"] == 3
    assert sorted(out["players"]) == sorted(
        ["Ágnes", "Tamás", "Zsófi", "Gergő", "Anna", "Beat", "Carla", "Dario"])
    agnes = out["players"]["Ágnes"]
    assert (agnes["matches"], agnes["won"], agnes["hands"]) == (1, 0, 4)
    assert agnes["points"] == 253 + 271 + 230 + 14
    assert agnes["games"]["tartli"]["buli"] == 3                 # 2 (maccs) and 1
    assert out["players"]["Carla"]["games"]["troggu"]["rappen"]["balance"] == 90


def test_stats_of_a_circle_file_keys_its_people_by_the_circles_names(tmp_path: Path) -> None:
    """A circle file: each seat is the circle's person, whatever name the match gave it; two
    Tartli matches in which Anna beats Béla and then Béla beats Carla, and the ratings the
    export writes beside them are read and ignored."""
    complete = load(COMPLETE.read_bytes())                 # seat 0 wins 5 buli to 0
    circle = CircleFile("Club", "2026-11-01", ["Anna", "Béla", "Carla"],
                        [(complete, [0, 1]), (complete, [1, 2])])
    path = tmp_path / "circle.json"
    data = json.loads(dumps(circle, ratings={"scale": "whatever the export wrote"}))
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    done = run("stats", str(path), str(SHORT))
    assert done.returncode == 0, done.stderr.decode()
    out = json.loads(done.stdout)
    assert sorted(out["players"]) == ["Anna", "Béla", "Carla", "Tamás", "Ágnes"]
    assert out["players"]["Béla"]["matches"] == 2 and out["players"]["Béla"]["won"] == 1
    tartli = out["ratings"]["games"]["tartli"]
    assert [m["sides"] for m in tartli["matches"]] == [[["Anna"], ["Béla"]],
                                                       [["Béla"], ["Carla"]]]
    assert {p["person"]: p["matches"] for p in tartli["players"]} == {
        "Anna": 1, "Béla": 2, "Carla": 1}
    assert out["ratings"]["scale"] == "1000 + 40 × (mu − 3 × sigma)"
    bad = tmp_path / "bad.json"
    data["players"] = ["Anna", "Anna", "Carla"]
    bad.write_text(json.dumps(data), encoding="utf-8")
    done = run("stats", str(bad))
    assert done.returncode == 2 and done.stderr.decode().startswith(f"error: {bad}: Player 2")


def test_stats_filters_by_the_day_each_match_was_created(tmp_path: Path) -> None:
    data = json.loads(SHORT.read_text(encoding="utf-8"))
    data["created"] = "2026-12-24"
    later = tmp_path / "later.json"
    later.write_text(json.dumps(data), encoding="utf-8")
    done = run("stats", str(SHORT), str(later), "--since", "2026-12-01")
    assert done.returncode == 0, done.stderr.decode()
    out = json.loads(done.stdout)
    assert out["matches"] == 1 and out["since"] == "2026-12-01"
    assert out["players"]["Ágnes"]["matches"] == 1
    out = json.loads(run("stats", str(SHORT), str(later), "--until", "2026-12-23").stdout)
    assert out["matches"] == 1 and out["until"] == "2026-12-23"


def test_stats_refuses_a_bad_file_naming_it() -> None:
    done = run("stats", str(SHORT), str(BAD))
    err = done.stderr.decode("utf-8")
    assert done.returncode == 2 and done.stdout == b""
    assert err == (f"error: {BAD}: Hand 1: The two pile counts must add up to 151, not 63 + 87 "
                   "= 150 (rule 6.3.1)\n")


def test_stats_refuses_a_missing_file_and_a_wrong_date(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", str(SHORT), "tests/data/no-such-match.json"]) == 2
    assert capsys.readouterr().err.startswith("error: cannot read tests/data/no-such-match.json")
    with pytest.raises(SystemExit) as info:
        main(["stats", str(SHORT), "--since", "2026-13-01"])
    assert info.value.code == 2
    assert "not a date written YYYY-MM-DD: '2026-13-01'" in capsys.readouterr().err
    with pytest.raises(SystemExit) as info:
        main(["stats"])
    assert info.value.code == 2


def test_csv_prints_one_row_per_hand() -> None:
    done = run("csv", str(SHORT))
    assert done.returncode == 0, done.stderr.decode()
    rows = list(csv.reader(io.StringIO(done.stdout.decode("utf-8"), newline="")))
    assert rows[0] == ["Hand", "Dealer", "Ágnes score", "Ágnes total", "Tamás score",
                       "Tamás total", "Summary"]
    assert [row[0] for row in rows[1:]] == ["1", "2", "3", "4"]
    assert rows[-1] == ["4", "Tamás", "14", "244", "270", "491", "Ágnes wins 1 buli"]


def test_csv_reads_stdin_and_refuses_a_bad_file() -> None:
    done = run("csv", "-", stdin=TROGGU.read_bytes())
    assert done.returncode == 0
    assert done.stdout.decode("utf-8").splitlines()[-1].startswith("5,Anna,-60,-110,")
    done = run("csv", str(BAD))
    assert done.returncode == 2 and done.stdout == b""
    assert done.stderr.decode("utf-8").startswith(f"error: {BAD}: Hand 1: ")


def test_stats_and_csv_do_not_load_the_web_layer() -> None:
    code = (
        "import sys\n"
        "from referee.cli import main\n"
        f"assert main(['stats', {str(SHORT)!r}, {str(TROGGU)!r}]) == 0\n"
        f"assert main(['csv', {str(SHORT)!r}]) == 0\n"
        "bad = [m for m in ('flask', 'weasyprint', 'wtforms', 'sqlalchemy', 'referee.web')\n"
        "       if m in sys.modules]\n"
        "assert not bad, bad\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr.decode()
