"""`make bench`: measures every figure of issue 12 in one run, next to baselines taken in the
same run, prints one table and writes it as JSON (``bench.json``, or the path given).

Each module listed in ``MODULES`` has ``figures(baselines) -> list[Figure]``; ``baselines``
maps a baseline's name to its value, measured here first."""

from __future__ import annotations

import importlib
import json
import sys
import time
from pathlib import Path

from tests.bench.common import Figure, median, timed

MODULES = ["tests.bench.engine", "tests.bench.pages", "tests.bench.club", "tests.bench.circle",
           "tests.bench.pdf", "tests.bench.languages", "tests.bench.memory"]


def flask_baseline() -> float:
    """A bare Flask route returning 1 kB, through the test client (ms per request)."""
    from flask import Flask

    app = Flask("baseline")
    body = "x" * 1024

    @app.get("/")
    def index() -> str:
        return body

    client = app.test_client()
    return median(timed(lambda: client.get("/"), repeat=200))


def baselines() -> dict[str, float]:
    return {"flask 1 kB route (ms)": flask_baseline()}


def main(argv: list[str]) -> int:
    out = Path(argv[1]) if len(argv) > 1 else Path("bench.json")
    started = time.perf_counter()
    base = baselines()
    figures: list[Figure] = []
    for name in MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as missing:
            if missing.name != name:
                raise
            continue
        module_figures = module.figures(base)
        figures.extend(module_figures)
        base.update({figure.name: figure.value for figure in module_figures})
    rows = []
    for figure in figures:
        ratio = (figure.value / base[figure.baseline]
                 if figure.baseline and base.get(figure.baseline) else None)
        rows.append({"figure": figure.name, "value": round(figure.value, 3), "unit": figure.unit,
                     "baseline": figure.baseline,
                     "baseline value": None if figure.baseline is None
                     else round(base[figure.baseline], 3),
                     "ratio": None if ratio is None else round(ratio, 2),
                     "goal": figure.goal, "met": figure.met})
    width = max([len(row["figure"]) for row in rows] + [10])
    print(f"{'figure':<{width}}  {'value':>10} unit  {'ratio':>7}  goal")
    for name, value in base.items():
        if not any(row["figure"] == name for row in rows):
            print(f"{name:<{width}}  {value:>10.3f}       (baseline)")
    for row in rows:
        ratio = "" if row["ratio"] is None else f"×{row['ratio']}"
        met = {True: "met", False: "NOT MET", None: ""}[row["met"]]
        print(f"{row['figure']:<{width}}  {row['value']:>10} {row['unit']:<4} {ratio:>7}  "
              f"{row['goal']} {met}")
    out.write_text(json.dumps({"baselines": base, "figures": rows,
                               "seconds": round(time.perf_counter() - started, 1)},
                              indent=2, ensure_ascii=False))
    print(f"written {out} in {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
