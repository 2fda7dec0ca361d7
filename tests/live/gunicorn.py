"""The real Referee server as a club runs it: gunicorn with several worker processes, each
with threads (the README's settings), on a port of 127.0.0.1 reserved for it
(``server.reserve_port``), its PDFs in a folder of the test's own."""

from __future__ import annotations

import sys
from pathlib import Path

from .server import LiveServer

TIMEOUT = 180                # the README's --timeout and --graceful-timeout
THREADS = 4


class Gunicorn(LiveServer):
    """``gunicorn -w workers -k gthread`` (or another ``worker_class``) serving
    ``referee:create_app()``, storing in ``database_url``, its PDFs in ``pdf_folder``;
    ``start``, ``stop``, ``release`` as for ``LiveServer``. Its log (the app's, gunicorn's)
    is written to ``log``."""

    def __init__(self, database_url: str, log: Path, pdf_folder: Path, workers: int,
                 worker_class: str = "gthread") -> None:
        super().__init__(database_url, log)
        self.pdf_folder = pdf_folder
        self.workers = workers
        self.worker_class = worker_class

    def command(self) -> list[str]:
        return [sys.executable, "-m", "gunicorn", "--workers", str(self.workers),
                "--worker-class", self.worker_class, "--threads", str(THREADS),
                "--timeout", str(TIMEOUT), "--graceful-timeout", str(TIMEOUT),
                "--bind", f"127.0.0.1:{self.port}", "referee:create_app()"]

    def environment(self) -> dict[str, str]:
        return {**super().environment(), "REFEREE_PDF_FOLDER": str(self.pdf_folder)}
