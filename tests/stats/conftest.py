"""The statistics tests build their matches with the engine tests' helpers (tests/engine)."""

from __future__ import annotations

import sys
from pathlib import Path

ENGINE_TESTS = str(Path(__file__).resolve().parent.parent / "engine")
if ENGINE_TESTS not in sys.path:
    sys.path.insert(0, ENGINE_TESTS)
