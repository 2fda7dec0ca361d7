"""A process's own peak memory, for the bench figures that measure one in a child process.

``ru_maxrss`` will not do: a child starts with the peak of the process that forked it (a bench
that had grown to 290 MB read 290 MB in every child it ran), while the kernel's VmHWM starts
afresh with each new program. ``python -m tests.bench.peak OUT MODULE ARGS…`` runs
``python -m MODULE ARGS…`` and writes its peak (MB) to the file OUT as it exits."""

from __future__ import annotations

import atexit
import runpy
import sys
from pathlib import Path


def peak() -> float:
    """This process's peak resident memory (MB) since its program started (VmHWM)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmHWM in /proc/self/status")


if __name__ == "__main__":
    out, module, *args = sys.argv[1:]
    atexit.register(lambda: Path(out).write_text(f"{peak():.1f}\n"))
    sys.argv = [module, *args]
    runpy.run_module(module, run_name="__main__", alter_sys=True)
