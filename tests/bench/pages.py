"""The pages (issue 12): a Troggu match of 10, 100 and 1,000 hands (less the one posted) in a
temporary SQLite store, driven through Flask's test client as htmx drives it. The long matches
are written straight into the store.

For each length, the lengths in turns (a busy moment of a shared machine falls on all three,
not on one): a hand POST (the bidding of a new hand, everybody passing), an edit (the points
of a Misère in the middle of the match), a delete (of the last hand) and an undo (of that
delete), each as the p95 of the process's CPU time (the test client runs the app in this
process: its CPU time is the server's work, whatever else the machine is doing); the match
page's CPU time and size (it shows the latest hands: the history is paged); a hand's explanation as
its row loads it; the size of the htmx answers (the browser takes gzip: the size on the wire
and the HTML's own size). At 100 hands: a live poll answered 304, a 200 that renders the new
version and one that shares what another phone's poll rendered (CPU ms), and from these the
tables a 2-core machine could hold."""

from __future__ import annotations

import gzip
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from referee import create_app
from referee.engine.games.troggu import GAME
from referee.web.matches.live import Boards
from tests.bench.common import Figure, median, p95, timed
from tests.bench.long_match import troggu_file

LENGTHS = (10, 100, 1000)
FLASK = "flask 1 kB route (ms)"
HTMX = {"HX-Request": "true", "Accept-Encoding": "gzip"}
ACTIONS = ("hand", "edit", "delete", "undo")
MISERE = ([40, 25, 20, 15], [25, 40, 20, 15])          # a Misère's points, and another
ROUNDS = 12             # each action measured this many times at each length, in turns


def _sizes(response: Any) -> tuple[int, int]:
    """An answer's size on the wire and its HTML's own size (bytes)."""
    wire = response.get_data()
    raw = gzip.decompress(wire) if response.headers.get("Content-Encoding") == "gzip" else wire
    return len(wire), len(raw)


def _cpu_ms(action: Callable[[], Any]) -> tuple[float, Any]:
    start = time.process_time()
    result = action()
    return (time.process_time() - start) * 1000, result


class Bench:
    """A match of ``hands`` − 1 hands (a match holds at most 1,000: the hand POST makes the
    ``hands``-th) and the requests that measure it."""

    def __init__(self, folder: Path, hands: int, app: Flask | None = None) -> None:
        """``app``: the app (and store) to add the match to; else an app of its own, with a
        store in ``folder``."""
        hands -= 1
        self.app = app or create_app({
            "TESTING": True, "WTF_CSRF_ENABLED": False,
            "DATABASE_URL": f"sqlite:///{folder}/bench-{hands}.sqlite3"})
        data = troggu_file(hands)
        settings = GAME.settings(data["settings"])
        facts = GAME.complete(settings, [GAME.canonical_hand(h) for h in data["hands"]])
        self.mid = str(self.app.extensions["referee.store"].create("troggu", settings, facts))
        self.hands = hands
        self.client: FlaskClient = self.app.test_client()
        self.edits = 0
        # The match seen once, as a table sees it before its first change: the process's
        # first read checks every stored hand (the cold load, a figure of tests/bench/engine.py),
        # which is not what a hand POST costs.
        self.client.get(f"/m/{self.mid}")

    def post(self, path: str, data: dict[str, Any] | None = None) -> Any:
        response = self.client.post(f"/m/{self.mid}{path}", data=data or {}, headers=HTMX)
        assert response.status_code == 200, (path, response.status_code,
                                             response.get_data()[:300])
        return response

    def bids(self) -> Any:
        n = self.hands + 1
        data = {"bids-dealer": str((n - 1) % 4), "bids-fool": "", "bids-bagatt": ""}
        data.update({f"bids-bid_{seat}": "pass" for seat in range(8)})
        return self.post(f"/hands/{n}/bids", data)

    def misere(self, n: int, points: list[int], editing: bool = False) -> Any:
        data = {"misere-tapp_points": "14", "misere-fool_kept": ""}
        for seat, value in enumerate(points):
            data[f"misere-points_{seat}"] = str(value)
            data[f"misere-tricks_{seat}"] = ""
        return self.post(f"/hands/{n}/misere{'?editing=1' if editing else ''}", data)

    def edit(self) -> Any:
        """The points of the Misère nearest the match's middle (hands 3, 7, 11, … are)."""
        middle = (self.hands // 2) // 4 * 4 + 3
        self.edits += 1
        return self.misere(middle, MISERE[self.edits % 2], editing=True)

    def round(self, found: dict[str, list[float]]) -> None:
        """Each action once: its CPU ms added to ``found[action]``, its answer's sizes to
        ``found["<action> wire"]`` and ``found["<action> raw"]``."""
        def measure(action: str, request: Callable[[], Any]) -> None:
            cpu, answer = _cpu_ms(request)
            wire, raw = _sizes(answer)
            for key, value in ((action, cpu), (f"{action} wire", wire),
                               (f"{action} raw", raw)):
                found.setdefault(key, []).append(value)

        measure("hand", self.bids)
        self.misere(self.hands + 1, MISERE[0])
        measure("edit", self.edit)
        measure("delete", lambda: self.post(f"/hands/{self.hands + 1}/delete"))
        measure("undo", lambda: self.post("/undo"))
        self.post(f"/hands/{self.hands + 1}/delete")       # back to ``hands`` hands

    def page_once(self) -> tuple[float, int]:
        """The match page's CPU ms and size."""
        cpu, response = _cpu_ms(lambda: self.client.get(f"/m/{self.mid}"))
        return cpu, len(response.get_data())

    def explanation(self, repeat: int) -> tuple[float, int]:
        """A hand's explanation as its row loads it when opened (htmx), and an older page of
        the history: median ms of the two, and the explanation's size."""
        runs, size = [], 0
        middle = self.hands // 2 + 1
        for _ in range(repeat):
            start = time.perf_counter()
            response = self.client.get(f"/m/{self.mid}/explained/{middle}", headers=HTMX)
            runs.append((time.perf_counter() - start) * 1000)
            assert response.status_code == 200
            size = len(response.get_data())
        return median(runs), size

    def polls(self, repeat: int) -> tuple[float, float, float, float]:
        """CPU ms of a live poll answered 304 (nothing changed), of one answered 200 that
        renders the match's new version (the first phone to ask), and of one answered 200
        from what that one rendered (every other phone: matches/live.py Boards); and of the 304
        as the app alone answers it (its WSGI call, without the test client's work)."""
        fresh = self.client.get(f"/m/{self.mid}/live", headers=HTMX)
        etag = fresh.headers["ETag"]
        environ = {"REQUEST_METHOD": "GET", "PATH_INFO": f"/m/{self.mid}/live",
                   "HTTP_IF_NONE_MATCH": etag, "HTTP_HX_REQUEST": "true"}
        alone = timed(lambda: self.app.wsgi_app(dict(environ), lambda *_: None),
                      repeat=200, clock=time.process_time)
        unchanged, rendered, shared = [], [], []
        for _ in range(repeat):
            cpu, response = _cpu_ms(lambda: self.client.get(
                f"/m/{self.mid}/live", headers={**HTMX, "If-None-Match": etag}))
            assert response.status_code == 304
            unchanged.append(cpu)
            self.app.extensions["referee.boards"] = Boards()    # as after a change
            for runs in (rendered, shared):
                cpu, response = _cpu_ms(lambda: self.client.get(f"/m/{self.mid}/live",
                                                                 headers=HTMX))
                assert response.status_code == 200
                runs.append(cpu)
        return median(unchanged), median(rendered), median(shared), median(alone)


def figures(baselines: dict[str, float]) -> list[Figure]:
    found: list[Figure] = []
    writes: dict[int, dict[str, float]] = {}
    pages: dict[int, tuple[float, int]] = {}
    explained: dict[int, tuple[float, int]] = {}
    polls = (0.0, 0.0, 0.0, 0.0)
    with tempfile.TemporaryDirectory() as folder:
        # the lengths measured in turns, so that a busy moment of the machine falls on all
        benches = {hands: Bench(Path(folder), hands) for hands in LENGTHS}
        runs: dict[int, dict[str, list[float]]] = {hands: {} for hands in LENGTHS}
        views: dict[int, list[float]] = {hands: [] for hands in LENGTHS}
        sizes: dict[int, int] = {}
        for _ in range(ROUNDS):
            for hands, bench in benches.items():
                bench.round(runs[hands])
            for hands, bench in benches.items():
                ms, sizes[hands] = bench.page_once()
                views[hands].append(ms)
        for hands, bench in benches.items():
            writes[hands] = {k: p95(v) if k in ACTIONS else max(v)
                             for k, v in runs[hands].items()}
            pages[hands] = median(views[hands]), sizes[hands]
            explained[hands] = bench.explanation(repeat=10 if hands < 1000 else 4)
        polls = benches[100].polls(repeat=30)
    for action, words in (("hand", "a hand POST"), ("edit", "an edit"),
                          ("delete", "a delete"), ("undo", "an undo")):
        flat = writes[1000][action] <= 1.5 * writes[10][action]
        for hands in LENGTHS:
            value = writes[hands][action]
            goal, met = "", None
            if hands == 100:
                goal, met = "≤ 15 ms p95 at 100 hands", value <= 15
            elif hands == 1000:
                goal, met = "≤ 1.5× its cost at 10 hands", flat
            found.append(Figure(f"{words}, {hands} hands (p95 CPU ms)", value, "ms", FLASK,
                                goal, met))
    for hands in LENGTHS:
        wire, raw = writes[hands]["hand wire"] / 1024, writes[hands]["hand raw"] / 1024
        found.append(Figure(f"htmx answer to a hand POST, {hands} hands (kB on the wire, gzip)",
                            wire, "kB", None, "≤ 8 kB", wire <= 8))
        found.append(Figure(f"htmx answer to a hand POST, {hands} hands (kB of HTML)", raw,
                            "kB"))
        largest = max(writes[hands][f"{a} wire"] for a in ACTIONS) / 1024
        found.append(Figure(f"largest htmx answer to a hand POST, edit, delete or undo, "
                            f"{hands} hands (kB on the wire)", largest, "kB", None, "≤ 8 kB",
                            largest <= 8))
    for hands in LENGTHS:
        ms, size = pages[hands]
        goal, met = ("≤ 1.5× the page at 10 hands", ms <= 1.5 * pages[10][0]) \
            if hands == 1000 else ("", None)
        found.append(Figure(f"match page, {hands} hands (CPU ms)", ms, "ms", FLASK, goal, met))
        goal, met = ("≤ 100 kB in all", size <= 100 * 1024) if hands == 1000 else ("", None)
        found.append(Figure(f"match page, {hands} hands (kB)", size / 1024, "kB", None,
                            goal, met))
    for hands in LENGTHS:
        ms, size = explained[hands]
        found.append(Figure(f"a hand's explanation (htmx), {hands} hands (ms)", ms, "ms", FLASK))
    found.append(Figure("a hand's explanation (htmx), 1000 hands (kB)",
                        explained[1000][1] / 1024, "kB"))
    unchanged, rendered, shared, alone = polls
    found += [
        Figure("live poll answered 304, 100 hands (CPU ms)", unchanged, "ms", FLASK),
        Figure("live poll answered 304, the app's own work (CPU ms)", alone, "ms", FLASK),
        Figure("live poll answered 200, rendering the version, 100 hands (CPU ms)", rendered,
               "ms", FLASK),
        Figure("live poll answered 200, shared with another phone's, 100 hands (CPU ms)",
               shared, "ms", FLASK),
    ]
    # A table: 4 phones polling every second (304 while nothing changed), a hand every two
    # minutes: its POST, whose answer brings the new version to the phone that sent it (its
    # next poll: 304), then a 200 poll for each of the 3 others, the first rendering the
    # version, the 2 others sharing it. Two cores' CPU-seconds a second. (The 304 as measured
    # through the test client, whose work stands in for the HTTP server's.)
    per_second = 4 * unchanged + (writes[100]["hand"] + rendered + 2 * shared) / 120
    tables = 2000 / per_second if per_second else 0.0
    found.append(Figure("tables a 2-core machine holds (estimate, 100 hands)", tables,
                        "tables", None, "≥ 1,000", tables >= 1000))
    return found
