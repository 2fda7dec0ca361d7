"""The match page's chart of the running totals, drawn once per version of its match (issue
12: the chart of 1,000 hands costs more than the rest of an answer, and every answer to a
change carries it)."""

from __future__ import annotations

from flask import current_app

from ..charts import running_totals
from ..engine.games.base import Game, MatchResult
from ..numbers import current_locale
from .recent import Recent
from .store import StoredMatch

KEPT = 64                 # charts a process keeps (the matches being played now)


class Charts:
    """The last charts drawn, by (match id, version, the request's language): a version's
    hands never change."""

    def __init__(self, kept: int = KEPT) -> None:
        self._charts: Recent[str] = Recent(kept)

    def get(self, game: Game, match: StoredMatch, result: MatchResult) -> str:
        key = (match.id, match.version, current_locale())
        svg = self._charts.get(key)
        if svg is None:
            svg = running_totals(game, match.settings, result)
            self._charts.put(key, svg)
        return svg


def match_chart(game: Game, match: StoredMatch, result: MatchResult) -> str:
    """The chart of ``match`` as ``result`` scores it (``charts.running_totals``)."""
    charts: Charts = current_app.extensions["referee.charts"]
    return charts.get(game, match, result)
