"""The chart of the running totals on demand (issue 12): the answer to a change carries the
chart's folded panel only, and the chart is loaded when the panel is opened (as a hand's
explanation is), so that a change at hand 1,000 does not draw 1,000 hands' chart for a panel
nobody opened. The match page itself carries the chart, as without JavaScript."""

from __future__ import annotations

from typing import Any

from flask import redirect, url_for

from . import htmx
from .chartcache import match_chart
from .views import bp, load


@bp.get("/m/<match_id>/chart")
def chart(match_id: str) -> Any:
    """To htmx: the chart's SVG (drawn once per version of the match); else the match page at
    its chart."""
    stored, web, result = load(match_id)
    if not htmx:
        return redirect(url_for(".match", match_id=match_id, _anchor="chart"))
    return match_chart(web.game, stored, result)
