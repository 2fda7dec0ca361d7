"""The largest circle the limits allow goes out and comes back (issue 24): 1,000 matches,
50,000 hands, 500 players (tests/bench/largest.py), imported from its file and exported as the
same bytes. About 30 s on this machine (marked slow), on SQLite only: the import of a large
circle on PostgreSQL is tested with tests/web/store/test_large_import.py, and the file's
streaming on both databases with test_circle_files.py."""

from __future__ import annotations

import io
import json
import random

import pytest
from flask import Flask

from circles.test_circle_files import streamed
from referee.engine import circlefile
from tests.bench.largest import largest_circle


@pytest.mark.slow
def test_the_largest_circle_goes_out_and_comes_back(app_nocsrf: Flask) -> None:
    client = app_nocsrf.test_client()
    c = largest_circle(random.Random())
    body = circlefile.dumps(c).encode()
    assert len(body) <= circlefile.MAX_BYTES
    assert (len(c.players), len(c.matches), sum(len(m.hands) for m, _ in c.matches)) == (
        circlefile.MAX_PLAYERS, circlefile.MAX_MATCHES, circlefile.MAX_HANDS)
    imported = client.post("/circles/import", data={
        "circle_file": (io.BytesIO(body), "circle.json")}, content_type="multipart/form-data")
    assert imported.status_code == 302, imported.get_data(as_text=True)[:500]
    token = imported.headers["Location"].rsplit("/", 1)[-1]
    # what was imported, written a match at a time with its ratings (derived, read by people):
    # within the limits, it imports back unchanged
    exported = streamed(app_nocsrf, f"/c/{token}/circle.json")
    assert len(exported) <= circlefile.MAX_BYTES
    assert exported == circlefile.dumps(c, json.loads(exported)["ratings"]).encode()
    assert circlefile.load(exported) == c
