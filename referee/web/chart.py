"""The chart of the running totals on demand (issue 12): the match page carries the chart's
folded panel only, and the chart is loaded when the panel is opened (as a hand's explanation
is), so that a page of a match of 1,000 hands does not draw 1,000 hands' chart for a panel
nobody opened. Without JavaScript the panel's link opens the chart on a page of its own."""

from __future__ import annotations

from typing import Any

from flask import redirect, render_template, url_for

from . import htmx
from .chartcache import match_chart
from .views import bp, load


@bp.get("/m/<match_id>/chart")
def chart(match_id: str) -> Any:
    """To htmx: the chart's SVG (drawn once per version of the match); else a page of its
    own with the chart and the way back to the match."""
    stored, web, result = load(match_id)
    if not htmx:
        if not result.hands:                      # nothing to draw before the first hand
            return redirect(url_for(".match", match_id=match_id))
        return render_template("matches/chart.html", match=stored, game=web.game,
                               chart=match_chart(web.game, stored, result))
    return match_chart(web.game, stored, result)
