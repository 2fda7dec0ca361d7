"""What every benchmark module shares: a figure with its goal and the baseline it is compared
with, and a timer. Figures are measured, never asserted (issue 12): `make bench` prints them."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Figure:
    """One measured figure. ``baseline`` names a figure of the same run (``BASELINES``) it is
    divided by, so that the ratio means the same on a slower machine; ``goal`` is the issue's
    goal in words, and ``met`` whether this run reached it (None where no goal is set)."""

    name: str
    value: float
    unit: str
    baseline: str | None = None
    goal: str = ""
    met: bool | None = None


def timed(action: Callable[[], object], *, repeat: int = 20, warmup: int = 2,
          clock: Callable[[], float] = time.perf_counter) -> list[float]:
    """Each run's time in milliseconds by ``clock`` (wall time, or ``time.process_time``:
    this process's CPU time), after ``warmup`` unmeasured runs."""
    for _ in range(warmup):
        action()
    runs = []
    for _ in range(repeat):
        start = clock()
        action()
        runs.append((clock() - start) * 1000)
    return runs


def median(runs: list[float]) -> float:
    return statistics.median(runs)


def p95(runs: list[float]) -> float:
    ordered = sorted(runs)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
