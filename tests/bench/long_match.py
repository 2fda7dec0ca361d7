"""Long matches for the benchmarks, made in an instant: the Troggu evening of tests/data (the
match the issue measured) with its four first hands, one per dealer in turn, played again and
again. Money games have no end, so a match of any length is a valid one."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from referee.engine import matchfile

EVENING = Path(__file__).resolve().parents[1] / "data" / "troggu-evening.json"


def troggu_file(hands: int) -> dict[str, Any]:
    """The match file (as JSON data) of a Troggu match of ``hands`` hands."""
    data = json.loads(EVENING.read_text(encoding="utf-8"))
    cycle = data["hands"][:4]                  # dealers 0, 1, 2, 3: the rotation goes on
    return {**data, "hands": [dict(cycle[n % len(cycle)]) for n in range(hands)]}


def troggu_match(hands: int) -> matchfile.MatchFile:
    return matchfile.load(json.dumps(troggu_file(hands)).encode())
