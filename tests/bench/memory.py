"""The peak memory of the largest allowed circle's statistics, export and CSV (issue 24): goal
under 300 MB each.

Two circles (tests/bench/largest.py): the largest (1,000 Troggu matches, 50,000 hands, 500
players) and the heaviest (15 Marjolet matches of 1,000 deals recorded card by card, 18.9 MB),
each imported once into a SQLite file; then each request is made by a process of its own, which
opens the app on that file, makes the request (reading the whole answer, as a browser does,
a piece at a time where it is streamed) and reports its peak resident memory (``ru_maxrss``):
the process's whole peak, the app and the interpreter included, measured next to the same
process asking for nothing but the home page."""

from __future__ import annotations

import random
import subprocess
import sys
import tempfile
from datetime import datetime
from pathlib import Path

from tests.bench.common import Figure
from tests.bench.peak import peak

GOAL = 300          # MB
ASKED = {"home": "/", "statistics": "/c/{token}/statistics",
         "export": "/c/{token}/circle.json", "csv": "/c/{token}/hands.csv"}
WORDS = {"home": "the home page (the process alone)",
         "statistics": "a circle's statistics",
         "export": "a circle's file (circle.json)",
         "csv": "a circle's hands (hands.csv)"}
CIRCLES = {"largest": "the largest circle: 1,000 matches, 50,000 hands",
           "heaviest": "the heaviest circle: 15 Marjolet matches of 1,000 deals, 18.9 MB"}


def _app(database: Path):  # type: ignore[no-untyped-def]
    from referee import create_app

    return create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{database}"})


def build(database: Path, kind: str) -> str:
    """The largest circle (or the heaviest) imported into ``database``: its token."""
    from tests.bench.largest import heaviest_circle, largest_circle

    c = (largest_circle if kind == "largest" else heaviest_circle)(random.Random(24))
    app = _app(database)
    return str(app.extensions["referee.circles"].import_circle(
        c.name, datetime.fromisoformat(c.created), c.players,
        [(m.game, m.settings, m.hands, datetime.fromisoformat(m.created), people)
         for m, people in c.matches]))


def measure(database: Path, path: str) -> float:
    """Run in a process of its own: its peak memory (MB) after asking for ``path``."""
    client = _app(database).test_client()
    response = client.get(path, buffered=False)
    assert response.status_code == 200, response.status_code
    size = sum(len(piece) for piece in response.response)
    response.close()
    assert size > 0
    return peak()



def figures(baselines: dict[str, float]) -> list[Figure]:
    found: list[Figure] = []
    for circle, words in CIRCLES.items():
        peaks: dict[str, float] = {}
        with tempfile.TemporaryDirectory() as folder:
            database = Path(folder) / "club.sqlite3"
            token = subprocess.run(
                [sys.executable, "-m", "tests.bench.memory", "build", str(database), circle],
                check=True, capture_output=True, text=True).stdout.strip()
            for kind, path in ASKED.items():
                if kind == "home" and found:
                    continue
                peaks[kind] = float(subprocess.run(
                    [sys.executable, "-m", "tests.bench.memory", "measure", str(database),
                     path.format(token=token)],
                    check=True, capture_output=True, text=True).stdout.strip())
        if "home" in peaks:
            found.append(Figure(f"peak memory: {WORDS['home']} (MB)", peaks["home"], "MB"))
        for kind in ("statistics", "export", "csv"):
            found.append(Figure(f"peak memory: {WORDS[kind]}, {words} (MB)", peaks[kind], "MB",
                                None, f"< {GOAL} MB", peaks[kind] < GOAL))
    return found


if __name__ == "__main__":
    if sys.argv[1] == "build":
        print(build(Path(sys.argv[2]), sys.argv[3]))
    else:
        print(round(measure(Path(sys.argv[2]), sys.argv[3]), 1))
