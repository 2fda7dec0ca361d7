"""The crash test's client, run as a process of its own:

    python tests/live/crash_client.py URL LOG [SUBMISSIONS] [MATCHES] [WORKERS]

It creates MATCHES Troggu matches (3 to 8 players, "No Misère") and sends SUBMISSIONS hand
submissions, each one POST of a whole hand: the bidding where everybody passes, which under
"No Misère" is a complete, thrown-in hand. WORKERS threads, each a phone with its own session,
each owning some of the matches, send one after another.

Every step is appended to LOG as a JSON line, flushed and fsynced before the next one:

    {"match": ID, "players": N}                            a match was created
    {"sent": SEQ, "match": ID, "hand": P, "dealer": D}     written BEFORE the POST
    {"ack": SEQ}                                           the server answered 302: stored
    {"lost": SEQ, "error": NAME}                           the answer never came
    {"answer": SEQ, "status": S}                           any other answer (a bug)

After a lost answer (the server was killed) the phone waits until the server answers again,
reloads the match file to learn how many hands are stored, and carries on with the next
submission: a lost one may or may not be stored, so it is never counted, nor blindly resent."""

from __future__ import annotations

import json
import os
import sys
import threading
from pathlib import Path
from typing import Any

from server import CONNECTION_ERRORS, Device, wait_until_up  # the script's own folder

NAMES = ["Anna", "Beat", "Carla", "Dario", "Elsa", "Fabian", "Gina", "Hugo"]


class Log:
    def __init__(self, path: Path) -> None:
        self.out = path.open("a", encoding="utf-8")
        self.lock = threading.Lock()

    def write(self, **record: Any) -> None:
        with self.lock:
            self.out.write(json.dumps(record) + "\n")
            self.out.flush()
            os.fsync(self.out.fileno())


def new_match(phone: Device, players: int) -> str:
    phone.get("/new/troggu")
    reply = phone.post("/new/troggu", {
        "players": NAMES[:players] + [""] * (8 - players), "first_dealer": "0",
        "stake": "10", "threshold": "standard", "no_misere": "y"})
    assert reply.status == 302 and reply.location, (reply.status, reply.body[:300])
    return reply.location.rsplit("/", 1)[1]


def everybody_passes(dealer: int, players: int) -> dict[str, str]:
    data = {f"bids-bid_{seat}": "pass" for seat in range(8)}
    # With 7 or 8 players an all-pass hand is forced unless the fool and trump I lie in the
    # Tapp; then it is the Misère, which "No Misère" throws in.
    held = "tapp" if players >= 7 else ""
    data.update({"bids-dealer": str(dealer), "bids-fool": held, "bids-bagatt": held})
    return data


def stored_hands(phone: Device, mid: str) -> int:
    reply = phone.get(f"/m/{mid}/match.json")
    assert reply.status == 200, reply.status
    return len(json.loads(reply.body)["hands"])


def work(url: str, log: Log, matches: list[tuple[str, int]], seqs: list[int]) -> None:
    phone = Device(url, f"crash client {seqs[0] if seqs else 0}")
    next_hand = {mid: 1 for mid, _ in matches}
    attempts: dict[tuple[str, int], int] = {}
    for seq in seqs:
        mid, players = matches[seq % len(matches)]
        hand = next_hand[mid]
        tried = attempts.get((mid, hand), 0)
        attempts[mid, hand] = tried + 1
        dealer = (hand - 1 + tried) % players      # a retried hand differs from the lost one
        log.write(sent=seq, match=mid, hand=hand, dealer=dealer)
        try:
            reply = phone.post(f"/m/{mid}/hands/{hand}/bids?base=new",
                               everybody_passes(dealer, players))
        except CONNECTION_ERRORS as error:
            log.write(lost=seq, error=type(error).__name__ + ": " + str(error)[:100])
            if not wait_until_up(url, 60):
                raise SystemExit("the server did not come back") from None
            next_hand[mid] = stored_hands(phone, mid) + 1
            continue
        if reply.status == 302:
            log.write(ack=seq)
            next_hand[mid] = hand + 1
        else:
            log.write(answer=seq, status=reply.status)
            next_hand[mid] = stored_hands(phone, mid) + 1


def main(url: str, log_path: str, submissions: int = 1000, match_count: int = 20,
         workers: int = 4) -> None:
    log = Log(Path(log_path))
    host = Device(url, "crash client host")
    matches = []
    for i in range(match_count):
        players = 3 + i % 6
        matches.append((new_match(host, players), players))
        log.write(match=matches[-1][0], players=players)
    # Worker w sends the submissions to the matches i with i % workers == w, in order, so
    # each match has one sender and its hands are numbered by that sender alone.
    shares = [[s for s in range(submissions) if s % match_count % workers == w]
              for w in range(workers)]
    failures: list[BaseException] = []

    def run(share: list[int]) -> None:
        try:
            work(url, log, matches, share)
        except BaseException as error:  # noqa: BLE001 - reported by the main thread
            failures.append(error)

    threads = [threading.Thread(target=run, args=(share,)) for share in shares]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        raise SystemExit(f"crash client failed: {failures[0]!r}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], *(int(a) for a in sys.argv[3:]))
