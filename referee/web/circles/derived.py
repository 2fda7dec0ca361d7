"""What a circle's pages derive from its matches, kept per circle version (issue 24): the
circle's page, its statistics, its evenings and its CSV read it here rather than folding every
match on every view.

Each match is folded once per (match, version, its people): its ``Summary`` holds what the
pages need of its result (the standing of its line on the circle's page and of its evening,
its hands), its part of the statistics (``stats.contribution``) and its rated record (what
the ratings read of it: ``stats.ratings.rated_match``).
A circle's ``Derived`` holds its summaries (newest first) and the running sum of their
statistics (``stats.Sums``), at one version of the circle (``Circles.version``: the circle's
own, bumped by every change of its players or matches, with its matches' count, sum and
largest version).

Every request asks the database for the circle's version (one query). The same as the kept
one: the kept answer. Only its matches' versions moved (a hand entered through this or any
other process): their (id, version) list is read in one query and only the changed matches
are loaded (their hands) and folded again. The circle's own version moved too (a player added,
a match started or added): every match's stamp is read (id, version, people), and only those
whose stamp changed are loaded and folded. Either way (one snapshot of the database), the
running sums change by the difference of the matches that changed (the old part out, the new
one in). So several server processes each keep their own copy and never show a stale one.

Kept per process: at most ``CIRCLES`` circles and ``MATCHES`` summaries in all (five circles
of the 1,000 matches a circle file holds), the least recently viewed circle dropped first (a
circle larger than ``MATCHES`` alone is kept alone). A summary holds its match's settings,
standing and statistics tallies: about 8.5 kB a match measured (tracemalloc, the example
matches of tests/bench/circle.py, the circle's sums included), so some 43 MB at most. Views
made from a version (the charts, the evenings, the statistics in words: in a language, with
the players' names, for some days) are kept with it, ``VIEWS`` per version: each at most
about 100 kB at 1,000 matches (the statistics in words: 91 kB of HTML), some 25 MB in all."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from flask import abort, current_app

from ...engine import scoring
from ...engine.errors import RuleViolation
from ...engine.games import get
from ...engine.games.base import MatchResult, Standing
from ...stats import Contribution, Played, Sums, answer, contribution, within
from ...stats.ratings import RatedMatch, rated_match
from ..extensions import circles
from ..games import WEB_GAMES
from ..readable import readable_json
from ..store import CircleMatch, CircleVersion, Stamp
from .blueprint import scored

CIRCLES = 32              # circles kept per process (least recently viewed dropped first)
MATCHES = 5_000           # summaries kept in all those circles, likewise (about 43 MB)
VIEWS = 8                 # views kept per version (the page's evenings and charts, the
                          # statistics and ratings in words: per language, names and days)


@dataclass(frozen=True)
class Summary:
    """One match of a circle folded once: what the circle's pages show of it."""

    id: str                           # the match's edit token
    version: int                      # the match's version folded
    game: str
    created: datetime
    added: datetime                   # when it joined the circle
    people: tuple[int, ...]           # a circle player's id per seat
    settings: dict[str, Any]          # readable (``readable_json``), as the pages show them
    standing: Standing | None         # None: its stored hands no longer score
    hands: int                        # its finished hands
    stats: Contribution               # its part of the statistics (people: ids as text)
    # what the ratings read of it (``stats.ratings.rated_match``; None: not finished or no
    # longer scores): the ratings, like the statistics, fold each match once per version
    rated: RatedMatch | None = None

    @property
    def stamp(self) -> tuple[int, tuple[int, ...]]:
        return self.version, self.people


def summary(m: CircleMatch) -> Summary:
    """The summary of ``m``: its facts folded once, every rule checked (as the statistics
    count them); a match that fails a check but scores as stored (a rule tightened since)
    keeps its standing on the page, as it had."""
    settings, hands = readable_json(m.settings), readable_json(m.hands)
    played = Played(m.game, m.created.date(), settings, hands, tuple(str(p) for p in m.people))
    result: MatchResult | None
    try:
        result = get(m.game).score(settings, hands)
    except RuleViolation:
        stats = contribution(played)                        # skipped, saying why
        result = scored(m)
    else:
        stats = contribution(played, result)
    if result is None:
        return Summary(m.id, m.version, m.game, m.created, m.added, m.people, settings, None,
                       0, stats)
    rated = rated_match(Played(m.game, m.created, settings, hands, played.people), result)
    return Summary(m.id, m.version, m.game, m.created, m.added, m.people, settings,
                   result.standing, len(result.hands), stats, rated)


@dataclass
class Derived:
    """A circle at one version: its matches' summaries, newest first, and their statistics'
    running sum (every match, whatever its day)."""

    version: CircleVersion
    ids: frozenset[str]               # its matches, of every game (those of ``matches`` too)
    matches: list[Summary]
    sums: Sums
    views: OrderedDict[Hashable, Any] = field(default_factory=OrderedDict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def statistics(self, since: Any = None, until: Any = None) -> dict[str, Any]:
        """``referee.stats.statistics`` of the circle's matches (the module's shape), from
        the kept parts: the running sum for all days, else the parts of those days summed."""
        if since is None and until is None:
            sums = self.sums
            parts = [m.stats for m in self.matches]
        else:
            parts = [m.stats for m in self.matches if within(m.stats.created, since, until)]
            sums = Sums()
            for part in parts:
                if part.counted is not None:
                    sums.add(part.counted)
        return answer(sums, [p.skipped for p in parts if p.skipped is not None], since, until)

    def rated(self) -> list[RatedMatch]:
        """The rated records of its matches (finished, scoring), oldest first."""
        return [m.rated for m in reversed(self.matches) if m.rated is not None]

    def view(self, key: Hashable, make: Callable[[], Any]) -> Any:
        """The view ``key`` of this version (made once by ``make``, kept with the version)."""
        with self.lock:
            if key in self.views:
                self.views.move_to_end(key)
                return self.views[key]
        made = make()
        with self.lock:
            self.views[key] = made
            while len(self.views) > VIEWS:
                self.views.popitem(last=False)
        return made


class CircleCache:
    """The ``Derived`` of the circles a process serves (one per app: its database)."""

    def __init__(self, circles: int = CIRCLES, matches: int = MATCHES) -> None:
        self.circles = circles
        self.matches = matches
        self._kept: OrderedDict[str, Derived] = OrderedDict()
        self._lock = threading.Lock()

    def derived(self, token: str, version: CircleVersion | None = None) -> Derived | None:
        """The circle ``token`` at its version now (None: no such circle); ``version``: the
        version just read, if the caller has it."""
        store = circles()
        if version is None:
            version = store.version(token)
            if version is None:
                return None
        with self._lock:
            kept = self._kept.get(token)
            if kept is not None:
                self._kept.move_to_end(token)
                if kept.version == version:
                    return kept
        known = {m.id: m for m in kept.matches} if kept is not None else {}
        if kept is not None and kept.version[0] == version[0]:
            made = self._matches_changed(token, kept, known)     # no seat moved: cheaper
            if made is not None:
                return made

        def wanted(stamp: Stamp) -> bool:
            if stamp.game not in WEB_GAMES:
                return False
            old = known.get(stamp.id)
            return old is None or old.stamp != (stamp.version, stamp.people)

        read = store.stamps(token, wanted)
        if read is None:
            return None
        now, every, loaded = read
        stamps = [s for s in every if s.game in WEB_GAMES]        # the games with pages
        return self._keep(token, kept, now, frozenset(s.id for s in every),
                          [known[s.id] if s.id not in loaded else s.id for s in stamps], loaded)

    def _matches_changed(self, token: str, kept: Derived,
                         known: dict[str, Summary]) -> Derived | None:
        """The circle when only its matches' hands changed since ``kept`` (its own version,
        bumped by every change of its players and seats, is the same): their versions read,
        only the changed ones loaded; None when the circle's matches are not the same ones
        (a match deleted) or its own version moved meanwhile (read it all)."""
        read = circles().versions(token, lambda i, v: i in known and known[i].version != v)
        if read is None:
            return None
        now, versions, changed = read
        if now[0] != kept.version[0] or versions.keys() != kept.ids:
            return None
        loaded = {m.id: m for m in changed}
        return self._keep(token, kept, now, kept.ids,
                          [m.id if m.id in loaded else m for m in kept.matches], loaded)

    def _keep(self, token: str, kept: Derived | None, version: CircleVersion,
              ids: frozenset[str], order: list[Summary | str],
              loaded: dict[str, CircleMatch]) -> Derived:
        """The circle at ``version`` (its matches' ``ids``, every game's): the matches of the
        games with pages in ``order`` (a kept summary, or the id of a match ``loaded``, to be
        folded), kept."""
        with scoring.gc_paused():
            fresh = {i: summary(m) for i, m in loaded.items()}
        made = _updated(kept, version, ids,
                        [fresh[m] if isinstance(m, str) else m for m in order])
        with self._lock:
            current = self._kept.get(token)
            if current is None or current.version != version:
                self._kept[token] = made
            self._kept.move_to_end(token)
            self._bound()
        return made

    def _bound(self) -> None:
        held = sum(len(d.matches) for d in self._kept.values())
        while len(self._kept) > 1 and (len(self._kept) > self.circles or held > self.matches):
            held -= len(self._kept.popitem(last=False)[1].matches)

    def held(self) -> tuple[int, int]:
        """(circles, summaries) kept now."""
        with self._lock:
            return len(self._kept), sum(len(d.matches) for d in self._kept.values())


def _updated(kept: Derived | None, version: CircleVersion, ids: frozenset[str],
             matches: list[Summary]) -> Derived:
    """The circle at ``version``: the kept sums (copied: another request may be reading them)
    less the parts of the summaries gone, plus the new ones."""
    sums = kept.sums.copy() if kept is not None else Sums()
    old = {m.id: m for m in kept.matches} if kept is not None else {}
    new = {m.id: m for m in matches}
    for m in old.values():
        if new.get(m.id) is not m and m.stats.counted is not None:
            sums.remove(m.stats.counted)
    for m in matches:
        if old.get(m.id) is not m and m.stats.counted is not None:
            sums.add(m.stats.counted)
    return Derived(version, ids, matches, sums)


def derived(token: str) -> Derived:
    """The circle ``token`` (found) as the pages derive it, at its version now."""
    cache = current_app.extensions.get("referee.circle_cache")
    if cache is None:
        cache = current_app.extensions.setdefault("referee.circle_cache", CircleCache())
    return cache.derived(token) or abort(404)
