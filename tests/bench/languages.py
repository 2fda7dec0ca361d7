"""Issue 22's figures: a page and a scoresheet in Hungarian cost at most 1.1× the same in
English (a 100-hand Troggu match; every sentence of the Hungarian ones goes through its
catalogue, the English ones are written as the code has them). Measured in turns, so that a
busy moment of the machine falls on both."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from referee.catalogues import catalogue
from referee.scoresheet import in_language, render_pdf
from tests.bench.common import Figure, median
from tests.bench.long_match import troggu_match
from tests.bench.pages import HTMX, Bench, _cpu_ms

ROUNDS = 15
GOAL = "≤ 1.1× the same in English"


def figures(baselines: dict[str, float]) -> list[Figure]:
    found: list[Figure] = []
    runs: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as folder:
        bench = Bench(Path(folder), 100)
        middle = bench.hands // 2 + 1
        clients = {}
        for language in ("en", "hu"):
            clients[language] = bench.app.test_client()
            clients[language].set_cookie("lang", language)
            clients[language].get(f"/m/{bench.mid}")                  # warm
        for _ in range(ROUNDS):
            for language, client in clients.items():
                ms, _ = _cpu_ms(lambda c=client: c.get(f"/m/{bench.mid}"))
                runs.setdefault(f"page {language}", []).append(ms)
                ms, _ = _cpu_ms(lambda c=client: c.get(f"/m/{bench.mid}/explained/{middle}",
                                                        headers=HTMX))
                runs.setdefault(f"explained {language}", []).append(ms)
    match = troggu_match(100)
    for _ in range(3):
        for language in ("en", "hu"):
            with in_language(language, catalogue(language)):
                start = time.process_time()
                render_pdf(match)
                runs.setdefault(f"pdf {language}", []).append(
                    (time.process_time() - start) * 1000)
    for what, words in (("page", "match page, 100 hands"),
                        ("explained", "a hand's explanation (htmx), 100 hands"),
                        ("pdf", "PDF scoresheet, 100 hands")):
        english, hungarian = median(runs[f"{what} en"]), median(runs[f"{what} hu"])
        name = f"{words}, in English (CPU ms)"
        found.append(Figure(name, english, "ms"))
        found.append(Figure(f"{words}, in Hungarian (CPU ms)", hungarian, "ms", name, GOAL,
                            hungarian <= 1.1 * english))
    return found
