"""The engine is pure Python: importing and using it loads no web, PDF or database library
(design notes: two layers, one direction of dependence)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WEB_MODULES = ["flask", "wtforms", "flask_wtf", "weasyprint", "sqlalchemy", "jinja2"]

SCORE_A_HAND = """
import json, sys
import referee.engine
import referee.engine.games
from referee.engine.games import get

game = get("tartli")
settings = game.settings({"players": ["A", "B"], "target": 5, "first_dealer": 1})
hand = {
    "indicator": "8h", "exchange": None,
    "tricks": [{"winner": w, "melds": [[], []]} for w in
               [0, 1, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 1, 0, 1, 0]],
    "bela": None,
    "end": {"kind": "played", "piles": [88, 63], "last": 0, "stichmatsch": None},
}
result = game.score(settings, [hand])
print(json.dumps({
    "totals": list(result.standing.totals),
    "loaded": sorted(m for m in WEB_MODULES if m in sys.modules),
}))
""".replace("WEB_MODULES", repr(WEB_MODULES))


def _run(code: str) -> dict:
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_engine_scores_a_hand_without_loading_web_pdf_or_database_modules():
    out = _run(SCORE_A_HAND)
    assert out["totals"] == [98, 63]          # the hand really was scored
    assert out["loaded"] == []


@pytest.mark.parametrize("module", ["referee", "referee.engine.games.tartli.match"])
def test_importing_the_package_alone_does_not_load_flask(module):
    out = _run(
        f"import json, sys, {module}\n"
        f"print(json.dumps({{'loaded': sorted(m for m in {WEB_MODULES!r} if m in sys.modules)}}))"
    )
    assert out["loaded"] == []


def test_the_check_would_notice_a_web_import():
    """Guard against a vacuous test: loading flask in the child is seen."""
    pytest.importorskip("flask")
    out = _run(
        "import json, sys, flask\n"
        f"print(json.dumps({{'loaded': sorted(m for m in {WEB_MODULES!r} if m in sys.modules)}}))"
    )
    assert "flask" in out["loaded"]
