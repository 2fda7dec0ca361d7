"""The real Referee server as a separate process (``flask run``), and devices that talk to it
over HTTP, each with its own cookie jar. Standard library only: crash_client.py, which runs as
a process of its own, uses ``Device`` too."""

from __future__ import annotations

import http.client
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from http.cookiejar import CookieJar
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SECRET_KEY = "live-tests-fixed-secret-key"      # fixed: sessions outlive a restart
# No answer: refused, reset, timed out, cut off mid-answer, ...
CONNECTION_ERRORS = (urllib.error.URLError, OSError, http.client.HTTPException)

_CSRF = re.compile(r'name="(?:[\w-]+-)?csrf_token"[^>]*\bvalue="([^"]+)"'
                   r'|value="([^"]+)"[^>]*\bname="(?:[\w-]+-)?csrf_token"')


def reserve_port() -> socket.socket:
    """A socket bound to a free port of 127.0.0.1 and kept, so that the port stays this
    server's for the whole test, across a kill and a restart: the kernel gives it to no other
    socket (no ``bind`` to port 0 and no outgoing connection of this or a parallel test takes
    a bound port), while the server's own listening socket may share it (both set
    SO_REUSEADDR, as werkzeug does, and the reservation never listens). Bound first without
    SO_REUSEADDR, so that the kernel picks a port no other socket is bound to."""
    reservation = socket.socket()
    reservation.bind(("127.0.0.1", 0))
    reservation.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    return reservation


class LiveServer:
    """``python -m flask --app referee run`` on a port of 127.0.0.1 reserved for it, storing in
    ``database_url``; ``kill()`` sends SIGKILL, ``start()`` again reuses the port and the
    database; ``stop()`` ends the server and ``release()`` gives the port back."""

    def __init__(self, database_url: str, log: Path) -> None:
        self.database_url = database_url
        self.reservation = reserve_port()
        self.port = int(self.reservation.getsockname()[1])
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None

    def command(self) -> list[str]:
        """The server's command line."""
        return [sys.executable, "-m", "flask", "--app", "referee", "run", "--host",
                "127.0.0.1", "--port", str(self.port), "--with-threads", "--no-reload"]

    def environment(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("FLASK_")}
        env.update(REFEREE_DATABASE_URL=self.database_url, REFEREE_SECRET_KEY=SECRET_KEY,
                   REFEREE_PDF_FOLDER=str(self.log.parent / "pdf"), PYTHONUNBUFFERED="1")
        return env

    def start(self, timeout: float = 30) -> None:
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                self.command(), cwd=ROOT, env=self.environment(), stdout=out,
                stderr=subprocess.STDOUT, start_new_session=True,
            )
        if not wait_until_up(self.url, timeout, self.process):
            self.stop()
            raise RuntimeError(f"the server did not start:\n{self.log.read_text()[-3000:]}")

    def kill(self) -> None:
        """SIGKILL: no shutdown, no cleanup, transactions cut wherever they are."""
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
        self.process = None

    def release(self) -> None:
        self.reservation.close()


def wait_until_up(url: str, timeout: float, process: subprocess.Popen[bytes] | None = None,
                  ) -> bool:
    """Poll the home page until it answers 200 (False on timeout or if ``process`` died)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            return False
        try:
            with urllib.request.urlopen(url + "/", timeout=2) as response:
                if response.status == 200:
                    return True
        except CONNECTION_ERRORS:
            pass
        time.sleep(0.05)
    return False


@dataclass
class Reply:
    status: int
    body: str
    location: str | None

    def action(self, pattern: str) -> str:
        """The action of the first form whose action matches ``pattern`` (HTML unescaped)."""
        found = re.search(f'action="({pattern})"', self.body)
        assert found, f"no form posting to {pattern!r} (status {self.status})"
        return found.group(1).replace("&amp;", "&")


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None                 # a 302 is an answer to look at, not to follow


class Device:
    """One phone: its own cookie jar (so its own session and CSRF token), plain HTTP."""

    def __init__(self, url: str, name: str = "phone", timeout: float = 30) -> None:
        self.url = url
        self.timeout = timeout
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(CookieJar()), _NoRedirect)
        self.headers = {"User-Agent": f"Mozilla/5.0 (Linux; Android 14) Firefox/130.0 {name}"}
        self.csrf: str | None = None

    def request(self, path: str, data: dict[str, Any] | None = None) -> Reply:
        """GET ``path``, or POST ``data`` with this device's CSRF token. Connection errors
        (refused, reset, timed out) are raised: the answer never came."""
        body = None
        if data is not None:
            body = urllib.parse.urlencode({"csrf_token": self.csrf, **data}, doseq=True).encode()
        request = urllib.request.Request(self.url + path, body, self.headers)
        try:
            with self.opener.open(request, timeout=self.timeout) as response:
                reply = Reply(response.status, response.read().decode(), None)
        except urllib.error.HTTPError as answer:          # 3xx, 4xx, 5xx: an answer
            reply = Reply(answer.code, answer.read().decode(), answer.headers.get("Location"))
        found = _CSRF.search(reply.body)
        if found:
            self.csrf = found.group(1) or found.group(2)
        return reply

    def get(self, path: str) -> Reply:
        return self.request(path)

    def post(self, path: str, data: dict[str, Any]) -> Reply:
        if self.csrf is None:
            self.get("/")
        return self.request(path, data)
