"""Several server processes (e.g. gunicorn workers) starting at once on a fresh SQLite file
wait for each other: every one starts, on the same tables, with the same secret key.

SQLite refuses to switch a fresh file to write-ahead logging while another connection holds
its write lock, at once and without waiting out the busy timeout; the store must wait."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from sqlalchemy import inspect

from referee.web.store import Store
from referee.web.store import schema as store_module

ROOT = Path(__file__).resolve().parents[3]
PROCESSES = 6
ROUNDS = 3
TABLES = {"actions", "hands", "matches"}

# One server process: imports everything, says it is ready, waits for the start signal of
# each round, then starts the app on that round's fresh instance folder (its database and
# its secret key), and prints the key and the tables it sees.
WORKER = """
import json, os, sys, time
import flask
import sqlalchemy
from referee import create_app

name = sys.argv[1]
for folder in sys.argv[2:]:
    open(os.path.join(folder, "ready-" + name), "w").close()
    while not os.path.exists(os.path.join(folder, "go")):
        time.sleep(0.0005)
    flask.Flask.auto_find_instance_path = lambda self, folder=folder: folder
    app = create_app({"DATABASE_URL": "sqlite:///" + os.path.join(folder, "referee.sqlite3")})
    tables = sqlalchemy.inspect(app.extensions["referee.store"].engine).get_table_names()
    print(json.dumps([app.config["SECRET_KEY"], sorted(tables)]), flush=True)
"""


def _hold_write_lock(path: Path, seconds: float) -> threading.Thread:
    """Another connection takes the write lock of the (fresh) database file now and keeps it
    for ``seconds``, as a process creating the tables would."""
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")

    def release() -> None:
        time.sleep(seconds)
        holder.execute("COMMIT")
        holder.close()

    thread = threading.Thread(target=release)
    thread.start()
    return thread


def test_a_fresh_sqlite_file_waits_for_another_writer(tmp_path: Path) -> None:
    path = tmp_path / "referee.sqlite3"
    holder = _hold_write_lock(path, 0.5)
    started = time.monotonic()
    store = Store(f"sqlite:///{path}")
    holder.join()
    assert time.monotonic() - started >= 0.4          # it waited for the other writer
    assert set(inspect(store.engine).get_table_names()) >= TABLES
    with store.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
    store.engine.dispose()


def test_a_start_waits_out_an_upgrade_longer_than_one_sqlite_wait(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another process upgrading a large old database holds the write lock for longer than
    SQLite's busy timeout: this one keeps waiting, then starts (a gunicorn worker that failed
    here would stop the whole server)."""
    path = tmp_path / "referee.sqlite3"
    Store(f"sqlite:///{path}").engine.dispose()          # the file exists, in WAL mode
    monkeypatch.setattr(store_module, "SQLITE_WAIT", 0.1)
    holder = _hold_write_lock(path, 0.8)
    started = time.monotonic()
    store = Store(f"sqlite:///{path}")
    holder.join()
    assert time.monotonic() - started >= 0.7
    assert set(inspect(store.engine).get_table_names()) >= TABLES
    store.engine.dispose()


def test_several_processes_start_at_once_on_a_fresh_sqlite_file(tmp_path: Path) -> None:
    folders = [tmp_path / f"round{n}" for n in range(ROUNDS)]
    for folder in folders:
        folder.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("REFEREE_")}
    workers = [subprocess.Popen(
        [sys.executable, "-c", WORKER, str(i), *map(str, folders)], cwd=ROOT, env=env,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    ) for i in range(PROCESSES)]
    try:
        for n, folder in enumerate(folders):
            deadline = time.monotonic() + 120
            while len(list(folder.glob("ready-*"))) < PROCESSES:
                assert time.monotonic() < deadline, "the processes did not get ready"
                assert all(w.poll() is None for w in workers), "a process ended early"
                time.sleep(0.01)
            # Every other round, a connection holds the write lock of the fresh file as the
            # processes start (as one of them creating the tables would): they wait for it.
            holder = _hold_write_lock(folder / "referee.sqlite3", 0.3) if n % 2 else None
            (folder / "go").touch()
            if holder:
                holder.join()
        results = [w.communicate(timeout=120) for w in workers]
    finally:
        for w in workers:
            if w.poll() is None:
                w.kill()
                w.wait()
    for worker, (_, err) in zip(workers, results):
        assert worker.returncode == 0, err[-2000:]
    for n, folder in enumerate(folders):
        answers = [json.loads(out.splitlines()[n]) for out, _ in results]
        keys = {key for key, _ in answers}
        assert len(keys) == 1 and len(keys.pop()) == 64, (n, answers)
        assert all(set(tables) >= TABLES for _, tables in answers), answers
        assert (folder / "secret_key").read_text().strip() == answers[0][0]
