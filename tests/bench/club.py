"""A club evening (issue 24): 50 Troggu matches of the same settings (every default match of a
club's tables), 100 hands each, in one store of one process, asked for in rotation: at each
table in turn, a phone's live poll answered 304 (nothing changed), the match page, a hand POST
(the bidding of a new hand), then the other phones' polls answered 200 (the first rendering
the new version, the next sharing it), and the hand finished (not measured). Next to it, in
the same turns (a busy moment of the machine falls on both), the same requests to one match
alone in a store of its own. Each figure is the median of the process's CPU time (the test
client runs the app in this process), and its ratio to the same figure of the match alone:
at most 1.5× (a table must not pay for the others' tables). From the rotation's figures, the
tables a 2-core machine could hold, as tests/bench/pages.py estimates them."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from referee import create_app
from tests.bench.common import Figure, median
from tests.bench.pages import FLASK, HTMX, MISERE, Bench, _cpu_ms

TABLES = 50
HANDS = 100
ROUNDS = 3              # each table's turn this many times
ALONE = 8               # the match alone's turn this many times per round
KINDS = ("poll 304", "page", "hand", "poll 200 rendered", "poll 200 shared")
WORDS = {"poll 304": "a live poll answered 304",
         "page": "the match page",
         "hand": "a hand POST",
         "poll 200 rendered": "a live poll answered 200, rendering the version",
         "poll 200 shared": "a live poll answered 200, shared with another phone's"}


class Table(Bench):
    """A match of the club: its requests in one turn, measured."""

    def __init__(self, folder: Path, app: Any) -> None:
        super().__init__(folder, HANDS, app)
        self.etag = self._live().headers["ETag"]

    def _live(self, etag: str | None = None) -> Any:
        headers = {**HTMX, **({"If-None-Match": etag} if etag else {})}
        return self.client.get(f"/m/{self.mid}/live", headers=headers)

    def turn(self, found: dict[str, list[float]]) -> None:
        def measure(kind: str, request: Any, status: int) -> Any:
            cpu, response = _cpu_ms(request)
            assert response.status_code == status, (kind, response.status_code)
            found.setdefault(kind, []).append(cpu)
            return response

        measure("poll 304", lambda: self._live(self.etag), 304)
        measure("page", lambda: self.client.get(f"/m/{self.mid}"), 200)
        measure("hand", self.bids, 200)
        measure("poll 200 rendered", self._live, 200)
        self.etag = measure("poll 200 shared", self._live, 200).headers["ETag"]
        self.misere(self.hands + 1, MISERE[0])          # the hand finished: the next one's turn
        self.hands += 1
        self.etag = self._live().headers["ETag"]


def figures(baselines: dict[str, float]) -> list[Figure]:
    club: dict[str, list[float]] = {}
    alone: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False,
                          "DATABASE_URL": f"sqlite:///{folder}/club.sqlite3"})
        tables = [Table(Path(folder), app) for _ in range(TABLES)]
        one = Table(Path(folder), None)
        for _ in range(ROUNDS):
            for table in tables:
                table.turn(club)
            for _ in range(ALONE):
                one.turn(alone)
    found: list[Figure] = []
    for kind in KINDS:
        name = f"{WORDS[kind]}, one match alone, {HANDS} hands (CPU ms)"
        found.append(Figure(name, median(alone[kind]), "ms", FLASK))
    values = {kind: median(club[kind]) for kind in KINDS}
    for kind in KINDS:
        base = f"{WORDS[kind]}, one match alone, {HANDS} hands (CPU ms)"
        value = values[kind]
        found.append(Figure(
            f"{WORDS[kind]}, a club evening of {TABLES} matches, {HANDS} hands (CPU ms)",
            value, "ms", base, "≤ 1.5× one match alone", value <= 1.5 * median(alone[kind])))
    # as tests/bench/pages.py: 4 phones polling every second, a hand every two minutes
    per_second = 4 * values["poll 304"] + (values["hand"] + values["poll 200 rendered"]
                                           + 2 * values["poll 200 shared"]) / 120
    estimate = 2000 / per_second if per_second else 0.0
    found.append(Figure(f"tables a 2-core machine holds (estimate, a club evening of {TABLES} "
                        f"matches)", estimate, "tables", None, "≥ 1,000", estimate >= 1000))
    return found
