"""A match as files and pictures: its match file (JSON), its hands as CSV, its scoresheet PDF
and the chart of its running totals.

The sheet itself is made by referee.scoresheet (Jinja and WeasyPrint, no Flask: the command
line makes the same); the app keeps the scoresheets it made (``Scoresheets``, on
``pdfcache.Pdfs``): a PDF is made at most once per version of a match (with every hand's
explanation or without) for all the processes of the server, and one at a time per process.
The chart is drawn once per version of its match (``Charts``, issue 12: the chart of 1,000
hands costs more than the rest of an answer) and loaded when its panel is opened; without
JavaScript the panel's link opens it on a page of its own."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Response, current_app, flash, redirect, render_template, request, url_for
from flask_babel import force_locale, gettext

from ...catalogues import catalogue
from ...charts import running_totals
from ...engine import matchfile
from ...engine.games.base import Game, MatchResult
from ...numbers import current_locale
from ...scoresheet import in_language, render_html, render_pdf
from ...stats import csv as csv_export
from ..extensions import htmx, store
from ..languages import LANGUAGES, LanguageForm, say
from ..pdfcache import Pdfs, being_made
from ..readable import readable_json
from ..recent import Recent
from ..store import StoredMatch
from .blueprint import bp, find, load
from .page import after_change

__all__ = ["Charts", "Scoresheets", "match_chart", "render_html", "render_pdf"]

class Scoresheets(Pdfs):
    """The scoresheets (``pdfcache.Pdfs``): a PDF made at most once per version of a match
    (with every hand's explanation or without, in the match's language) for every process of
    the server, one at a time per process: a request for a version being made waits for it
    (briefly; then ``get`` answers None: "being made, ask again in a moment")."""

    def get(self, match_id: str, version: int, file: Callable[[], matchfile.MatchFile],
            explained: bool = False, language: str = "en") -> bytes | None:
        """The PDF of version ``version`` of the match ``match_id``, whose record ``file``
        gives (called only when it must be made); ``explained``: with every hand's
        explanation; written in ``language`` (the match's own, whichever phone asks), kept
        apart from the same version in another."""

        def make() -> bytes:
            with in_language(language, catalogue(language)):
                return render_pdf(file(), explained, match_id)

        name = "+".join(("scoresheet", match_id, language,
                         "explained" if explained else "plain"))
        return self.pdf(name, str(version), make)


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
            svg = running_totals(game, match.settings, result, say=lambda t: str(say(t)))
            self._charts.put(key, svg)
        return svg


def match_chart(game: Game, match: StoredMatch, result: MatchResult) -> str:
    """The chart of ``match`` as ``result`` scores it (``charts.running_totals``)."""
    charts: Charts = current_app.extensions["referee.charts"]
    return charts.get(game, match, result)


def scoresheets() -> Scoresheets:
    return current_app.extensions["referee.scoresheets"]  # type: ignore[no-any-return]



def match_file(stored: StoredMatch) -> matchfile.MatchFile:
    return matchfile.MatchFile(
        game=stored.game, settings=stored.settings, hands=readable_json(stored.hands),
        created=stored.created.date().isoformat(), language=stored.language,
    )


@bp.get("/m/<match_id>/match.json")
def export(match_id: str) -> Response:
    stored = find(match_id)
    body = matchfile.dumps(match_file(stored))
    name = f"{stored.game}-{stored.created.date().isoformat()}.json"
    return Response(body, mimetype="application/json",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


@bp.get("/m/<match_id>/scoresheet.pdf")
def scoresheet(match_id: str) -> Response:
    stored, _, _ = load(match_id)
    # ?explained=1: with every hand's explanation, an appendix
    explained = request.args.get("explained") == "1"
    name = (f"{stored.game}-{stored.created.date().isoformat()}"
            f"{'-explained' if explained else ''}.pdf")
    body = scoresheets().get(stored.id, stored.version, lambda: match_file(stored), explained,
                             stored.language)
    if body is None:                        # being made by another request
        return being_made(gettext("The scoresheet is being made; it will be ready in a "
                                  "moment."), url_for(".match", match_id=match_id))
    # an attachment: the match page's link downloads it, and so does the page "being made"
    # when it asks again
    return Response(body, mimetype="application/pdf",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


@bp.get("/m/<match_id>/hands.csv")
def hands_csv(match_id: str) -> Response:
    """The hands as CSV (``referee.stats.csv``), with a byte order mark so that a spreadsheet
    reads the names' letters as UTF-8."""
    stored, _, result = load(match_id)
    name = f"{stored.game}-{stored.created.date().isoformat()}.csv"
    with force_locale(stored.language):               # its headings in the match's language
        body = "\ufeff" + csv_export.hands_csv(stored.game, stored.settings, result, say)
    return Response(body, mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


@bp.get("/m/<match_id>/chart")
def chart(match_id: str) -> Any:
    """To htmx: the chart's SVG (drawn once per version of the match); else a page of its
    own with the chart and the way back to the match."""
    stored, web, result = load(match_id)
    if not htmx and not result.hands:             # nothing to draw before the first hand
        return redirect(url_for(".match", match_id=match_id))
    with force_locale(stored.language):           # its labels in the match's language
        drawn = match_chart(web.game, stored, result)
    if not htmx:
        return render_template("matches/chart.html", match=stored, game=web.game, chart=drawn)
    return drawn


@bp.post("/m/<match_id>/language")
def record_language(match_id: str) -> Any:
    """Record the match in another language from now on (its hands stay as they are)."""
    stored = find(match_id, edit=True)
    form = LanguageForm()
    if form.validate_on_submit() and form.language.data != stored.language:
        store().set_language(stored.id, form.language.data)
        flash(gettext("The scoresheet, the CSV and the chart of this match are now written "
                      "in %(language)s.", language=LANGUAGES[form.language.data]))
    return after_change(stored.id, None)
