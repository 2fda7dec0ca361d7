"""A club's circle (issue 24): the example matches of tests/data (a Tartli match, a Stovkahra
series, a Marjolet game, a Troggu evening) in turns, one a day, eight people taking the seats
in turns, in a circle of 10 and one of 1,000 matches (written through the store, as the
circle's pages start them). Measured warm (each page seen once first, as a club's phones see
it all evening): the circle's page and its statistics, each the median of the process's CPU
time, the 1,000 against the 10 (at most 1.5×) and at most 50 ms; then a hand POST in a Troggu
match of 100 hands of the 1,000-match circle against the same in a match outside any circle,
in turns (at most 1.5×), and the circle's page and statistics right after that hand (what a
changed match costs the next view: the circle's stamps read again, the one match folded)."""

from __future__ import annotations

import tempfile
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from referee import create_app
from referee.engine import matchfile
from referee.engine.games import get
from tests.bench.common import Figure, median
from tests.bench.pages import FLASK, MISERE, Bench, _cpu_ms

DATA = Path(__file__).resolve().parents[1] / "data"
EXAMPLES = ("tartli-complete", "stovkahra-series", "marjolet-game", "troggu-evening")
PEOPLE = ("Anna", "Bela", "Carla", "Dario", "Eva", "Feri", "Gabi", "Hugo")
SIZES = (10, 1000)
REPEAT = 20             # views measured per figure
ROUNDS = 12             # hand POSTs measured in and outside the circle, in turns
DAY = datetime(2024, 1, 1, 20)


def _examples() -> list[tuple[str, dict[str, Any], list[dict[str, Any]]]]:
    out = []
    for name in EXAMPLES:
        loaded = matchfile.load((DATA / f"{name}.json").read_bytes())
        game = get(loaded.game)
        out.append((loaded.game, loaded.settings,
                    game.complete(loaded.settings,
                                  [game.canonical_hand(h) for h in loaded.hands])))
    return out


def build(app: Any, size: int) -> str:
    """A circle of ``size`` matches of the examples, one a day: its token."""
    circles = app.extensions["referee.circles"]
    token = circles.create(f"Club of {size}")
    ids: dict[str, int] = {}
    examples = _examples()
    for n in range(size):
        game, settings, hands = examples[n % len(examples)]
        seats = len(settings["players"])
        names = [PEOPLE[(n + k) % len(PEOPLE)] for k in range(seats)]
        people = [ids.get(name, name) for name in names]
        circles.start_match(token, game, settings, people, hands, DAY + timedelta(days=n))
        if len(ids) < len(PEOPLE):
            ids = {p.name: p.id for p in circles.load(token).players}
    return token


def _views(client: Any, token: str) -> dict[str, float]:
    found: dict[str, list[float]] = {}
    for _ in range(REPEAT):
        for kind, path in (("page", f"/c/{token}"), ("statistics", f"/c/{token}/statistics")):
            cpu, response = _cpu_ms(lambda path=path: client.get(path))
            assert response.status_code == 200, (path, response.status_code)
            found.setdefault(kind, []).append(cpu)
    return {kind: median(runs) for kind, runs in found.items()}


WORDS = {"page": "circle page", "statistics": "circle statistics page"}


def figures(baselines: dict[str, float]) -> list[Figure]:
    found: list[Figure] = []
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False,
                          "DATABASE_URL": f"sqlite:///{folder}/circle.sqlite3"})
        client = app.test_client()
        tokens = {size: build(app, size) for size in SIZES}
        values: dict[int, dict[str, float]] = {}
        for size in SIZES:
            for path in (f"/c/{tokens[size]}", f"/c/{tokens[size]}/statistics"):
                client.get(path)                                 # the first view: folded
            values[size] = _views(client, tokens[size])
        small, large = SIZES
        for kind, words in WORDS.items():
            base = f"{words}, a circle of {small} matches, warm (CPU ms)"
            found.append(Figure(base, values[small][kind], "ms", FLASK))
            value = values[large][kind]
            found.append(Figure(
                f"{words}, a circle of {large:,} matches, warm (CPU ms)", value, "ms", base,
                "≤ 1.5× 10 matches and ≤ 50 ms",
                value <= 1.5 * values[small][kind] and value <= 50))

        # a hand POST in a Troggu match of the large circle, and in one outside any circle
        outside = Bench(Path(folder), 100, app)
        inside = Bench(Path(folder), 100, app)
        circles = app.extensions["referee.circles"]
        match = app.extensions["referee.store"].load(inside.mid)
        people = [p.id for p in circles.load(tokens[large]).players][:4]
        inside.mid = circles.start_match(tokens[large], "troggu", match.settings, people,
                                         match.hands, DAY + timedelta(days=large))
        inside.client.get(f"/m/{inside.mid}")
        hands: dict[str, list[float]] = {}
        after: dict[str, list[float]] = {}
        for _ in range(ROUNDS):
            for where, table in (("outside", outside), ("inside", inside)):
                cpu, _ = _cpu_ms(table.bids)
                hands.setdefault(where, []).append(cpu)
                table.misere(table.hands + 1, MISERE[0])
                table.hands += 1
            for kind, path in (("page", f"/c/{tokens[large]}"),
                               ("statistics", f"/c/{tokens[large]}/statistics")):
                cpu, _ = _cpu_ms(lambda path=path: client.get(path))
                after.setdefault(kind, []).append(cpu)
                inside.bids()                                    # the next change to see
                inside.misere(inside.hands + 1, MISERE[0])
                inside.hands += 1
        base = "a hand POST, a Troggu match of 100 hands outside any circle (CPU ms)"
        found.append(Figure(base, median(hands["outside"]), "ms", FLASK))
        value = median(hands["inside"])
        found.append(Figure(
            f"a hand POST, a Troggu match of 100 hands in a circle of {large:,} matches "
            "(CPU ms)", value, "ms", base, "≤ 1.5× outside a circle",
            value <= 1.5 * median(hands["outside"])))
        for kind, words in WORDS.items():
            found.append(Figure(
                f"{words}, a circle of {large:,} matches, after a hand entered in one of its "
                "matches (CPU ms)", median(after[kind]), "ms",
                f"{words}, a circle of {large:,} matches, warm (CPU ms)"))
        cache = app.extensions["referee.circle_cache"]
        found.append(Figure("circles and match summaries kept by the circle cache",
                            float(cache.held()[1]), "matches"))
        app.extensions["referee.store"].engine.dispose()
    return found
