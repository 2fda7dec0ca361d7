"""The live scoreboard's answer, shared (issue 12): every phone showing a match polls it every
second, so once the match changes every phone asks for the same new version at once. The parts
every phone is sent alike (the standings, the hands, the history of changes) are rendered once
per version of the match and link (edit or view) and kept here (``Boards``); only what belongs
to one phone (the address it polls, the warning that its open editor went stale, its forms'
CSRF token) is added to each answer."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

CACHE_BYTES = 8 * 1024 * 1024      # shared answers kept per process
CSRF_MARK = "\x00csrf\x00"         # where a form's CSRF token stands in a shared part


@dataclass(frozen=True)
class Board:
    """One version of a match as every phone polling it by one link is sent it."""

    token: str                      # the link's token (edit or view): the page's addresses
    game: str
    version: int
    can_edit: bool
    scoreboard: str                 # the inside of #scoreboard (standings, the game's summary)
    rest: str                       # the hands and the history of changes, out of band
    # StoredMatch.base of the version rendered: worked out for the hand a phone watches only
    # (issue 12: a new version of a 1,000-hand match does not fingerprint every hand)
    fingerprint: Callable[[int], str]
    latest_device: str | None       # the device of the latest change

    def base(self, hand: int) -> str:
        """As StoredMatch.base: the base a form for hand ``hand`` is built on now."""
        return self.fingerprint(hand)

    def parts(self, csrf: str) -> tuple[str, str]:
        """The shared parts with this phone's CSRF token in their forms."""
        return self.scoreboard.replace(CSRF_MARK, csrf), self.rest.replace(CSRF_MARK, csrf)

    @property
    def size(self) -> int:
        return len(self.scoreboard) + len(self.rest)


def shared(html: str, csrf: str) -> str:
    """A part rendered for one phone, made fit for every phone: its CSRF token marked."""
    return html.replace(csrf, CSRF_MARK) if csrf else html


class Boards:
    """The boards rendered lately, by (token, version); the least recently asked for go first
    once they hold more than ``limit`` characters. One process's: a version is rendered at most
    once per process."""

    def __init__(self, limit: int = CACHE_BYTES) -> None:
        self.limit = limit
        self._kept: OrderedDict[tuple[str, int], Board] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()

    def get(self, token: str, version: int) -> Board | None:
        with self._lock:
            board = self._kept.get((token, version))
            if board is not None:
                self._kept.move_to_end((token, version))
            return board

    def put(self, board: Board) -> None:
        key = (board.token, board.version)
        with self._lock:
            if key in self._kept:
                return
            self._kept[key] = board
            self._size += board.size
            while self._size > self.limit and len(self._kept) > 1:
                self._size -= self._kept.popitem(last=False)[1].size
