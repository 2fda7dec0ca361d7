"""Crash safety (the issue's words): "A test runs 1,000 hand submissions from a separate process
against the real server, kills the server with SIGKILL in the middle, restarts it, and finds
every acknowledged hand stored whole and no half-stored one."

The client (crash_client.py, a process of its own) sends 1,000 whole Troggu hands, one POST
each, over 20 matches, and fsyncs every acknowledgement to a log. The server is killed with
SIGKILL after KILL_AFTER acknowledgements while the client keeps sending, then restarted on the
same database; the client finishes. Then, per match: every acknowledged hand is stored with
exactly the facts sent; every stored hand is exactly one submission sent to its place; the
match still scores with every hand complete; one "change" event per stored hand and none
without its hand; and the version counts the events."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from referee.engine.games import get
from referee.web.store import Store

from .server import Device, LiveServer

SUBMISSIONS = 1000
MATCHES = 20
WORKERS = 4
KILL_AFTER = 400              # acknowledgements before the SIGKILL
CLIENT = Path(__file__).with_name("crash_client.py")
TROGGU = get("troggu")


def read_log(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def acks(path: Path) -> int:
    return path.read_text().count('{"ack"') if path.exists() else 0


def sent_facts(record: dict[str, Any], players: int) -> dict[str, Any]:
    """The facts of a submission: an all-pass hand, thrown in under "No Misère"."""
    return TROGGU.canonical_hand({"dealer": record["dealer"], "bids": ["pass"] * players,
                                  "game": "thrown-in"})


def test_sigkill_in_the_middle_of_1000_submissions(live_server: LiveServer, live_store: Store,
                                                   tmp_path: Path) -> None:
    log_path = tmp_path / "client.log"
    started = time.monotonic()
    client = subprocess.Popen(
        [sys.executable, str(CLIENT), live_server.url, str(log_path), str(SUBMISSIONS),
         str(MATCHES), str(WORKERS)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        while acks(log_path) < KILL_AFTER:
            assert client.poll() is None, client.communicate()[0].decode()[-3000:]
            assert time.monotonic() - started < 120, "too slow to reach the kill"
            time.sleep(0.01)
        live_server.kill()
        acked_at_kill = acks(log_path)
        time.sleep(0.5)                        # the client keeps sending into the dead port
        live_server.start()
        output = client.communicate(timeout=300)[0].decode()
    finally:
        if client.poll() is None:
            client.kill()
    assert client.returncode == 0, output[-3000:]
    elapsed = time.monotonic() - started

    log = read_log(log_path)
    players = {r["match"]: r["players"] for r in log if "match" in r and "players" in r}
    sent = {r["sent"]: r for r in log if "sent" in r}
    acked = {r["ack"] for r in log if "ack" in r}
    lost = {r["lost"]: r["error"] for r in log if "lost" in r}
    other = [r for r in log if "answer" in r]
    assert len(players) == MATCHES
    assert sorted(sent) == list(range(SUBMISSIONS))
    assert other == [], other                             # every answer was a 302
    assert acked.isdisjoint(lost) and acked | set(lost) == set(sent)
    assert lost, "the kill cut no submission"

    # The submissions sent to each place (match, hand), by their facts.
    placed: dict[tuple[str, int], list[tuple[int, dict[str, Any]]]] = {}
    for seq, record in sent.items():
        facts = sent_facts(record, players[record["match"]])
        placed.setdefault((record["match"], record["hand"]), []).append((seq, facts))

    stored_seqs: set[int] = set()
    reader = Device(live_server.url, "checker")
    for mid in players:
        match = live_store.load(mid, events=100_000)
        assert match is not None
        exported = json.loads(reader.get(f"/m/{mid}/match.json").body)
        assert exported["hands"] == match.hands
        result = TROGGU.score(match.settings, match.hands)         # the match still scores
        assert result.draft is None and len(result.hands) == len(match.hands)
        for hand, facts in enumerate(match.hands, 1):
            same = [seq for seq, sent_as in placed.get((mid, hand), []) if sent_as == facts]
            assert len(same) == 1, (mid, hand, facts)     # exactly one submission, whole
            stored_seqs.add(same[0])
        kinds = Counter(e.kind for e in match.events)
        assert kinds == {"create": 1, "change": len(match.hands)}, (mid, kinds)
        labels = sorted(e.label for e in match.events if e.kind == "change")
        assert labels == sorted(f"Bidding (hand {n})" for n in range(1, len(match.hands) + 1))
        assert match.version == len(match.events)         # 1 on creation, +1 per change

    assert acked <= stored_seqs, sorted(acked - stored_seqs)[:10]    # no acknowledged loss
    lost_stored = stored_seqs - acked
    assert lost_stored <= set(lost)
    in_flight = {seq for seq, error in lost.items() if "refused" not in error.lower()}
    assert lost_stored <= in_flight             # a refused connection stored nothing
    print(f"\ncrash run on {live_server.database_url.split(':')[0]}: {SUBMISSIONS} sent, "
          f"{len(acked)} acknowledged ({acked_at_kill} before the SIGKILL), {len(lost)} "
          f"without an answer ({len(in_flight)} cut in flight, {len(lost) - len(in_flight)} "
          f"refused while down), of which {len(lost_stored)} stored; "
          f"{len(stored_seqs)} hands stored; {elapsed:.1f} s; errors: "
          f"{dict(Counter(error.split(':')[0] for error in lost.values()))}")
