"""A circle's statistics (``/c/<token>/statistics``) and all its hands as one CSV file
(``/c/<token>/hands.csv``): issue 13.

The figures are ``referee.stats.statistics`` of the circle's matches, derived from their
stored facts, never stored: each match folded once per version and the circle's figures kept
as a running sum per circle version (``derived``: a hand entered changes them by its match's
difference, checked against the database's version on every view), so an edited hand shows at
once. The CSV is sent as it is made, a few matches read at a time. Its players are keyed by
the circle player's id; the page shows them by the circle's names only.
The statistics have their own page, linked from the circle's page: with a section per game and
a list per player they would make the circle's page (matches, evenings, players) too long to
find anything on a phone."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from flask import Response, render_template, request, stream_with_context
from flask_babel import gettext, lazy_gettext, lazy_pgettext, ngettext, pgettext
from flask_babel.speaklater import LazyString
from markupsafe import Markup

from ...charts import Rule, Series, line_chart
from ...engine.games import GAMES
from ...engine.games.base import Game
from ...numbers import number, signed
from ...stats import FIGURES, Played
from ...stats.circlecsv import circle_csv_parts, widest
from ...stats.ratings import PROVISIONAL
from .. import languages
from ..extensions import circles
from ..games import WEB_GAMES
from ..languages import say
from ..readable import readable_json
from ..store import Circle, CircleMatch
from .blueprint import bp, find, played, remember_circle
from .derived import Summary, derived
from .ratings import circle_ratings

# Each game's own figures: (key in the statistics, words on the page), in the rules' order.
TARTLI = (
    ("sets", lazy_pgettext("tartli", "Sets declared")),
    ("sequences", lazy_pgettext("tartli", "Sequences declared")),
    ("contests_won", lazy_pgettext("tartli", "Meld contests won")),
    ("belas", lazy_pgettext("tartli", "Bélas")),
    ("claims_right", lazy_pgettext("tartli", "501 claims right")),
    ("claims_wrong", lazy_pgettext("tartli", "501 claims wrong")),
    ("buli", lazy_pgettext("tartli", "Buli won")),
    ("maccs", lazy_pgettext("tartli", "Maccs (2 buli at once)")),
)
STOVKAHRA = (
    ("combinations", lazy_pgettext("stovkahra", "Combinations declared")),
    ("combination_points", lazy_pgettext("stovkahra", "Points of combinations")),
    ("sevens", lazy_pgettext("stovkahra", "Tricks won with a seven (by the team)")),
    ("dosts_right", lazy_pgettext("stovkahra", "Dosts called right")),
    ("dosts_wrong", lazy_pgettext("stovkahra", "Dosts called wrong")),
    ("games_won", lazy_pgettext("stovkahra", "Games won (by the team)")),
    ("matchsticks", lazy_pgettext("stovkahra", "Matchsticks (by the team)")),
)
MELDS = (
    ("four_aces", lazy_pgettext("marjolet", "Four Aces")),
    ("four_tens", lazy_pgettext("marjolet", "Four Tens")),
    ("four_kings", lazy_pgettext("marjolet", "Four Kings")),
    ("four_queens", lazy_pgettext("marjolet", "Four Queens")),
    ("four_jacks", lazy_pgettext("marjolet", "Four Jacks")),
    ("trump_marriage", lazy_pgettext("marjolet", "Marriages in trumps")),
    ("plain_marriage", lazy_pgettext("marjolet", "Plain marriages")),
    ("trump_marjolet", lazy_pgettext("marjolet", "Marjolets in trumps")),
    ("plain_marjolet", lazy_pgettext("marjolet", "Plain marjolets")),
)
TRUMP_SEVENS = (
    ("turned_up", lazy_pgettext("marjolet", "Trump sevens turned up (as dealer)")),
    ("exchanged", lazy_pgettext("marjolet", "Trump sevens exchanged")),
    ("played", lazy_pgettext("marjolet", "Trump sevens played")),
)
# Troggu's kinds of hand: (key, how many were played, how many won as declarer)
TROGGU_KINDS = (
    ("normal", lazy_pgettext("troggu", "Normal games"),
     lazy_pgettext("troggu", "Normal games played"),
     lazy_pgettext("troggu", "Normal games won as declarer")),
    ("solo", lazy_pgettext("troggu", "Solos"), lazy_pgettext("troggu", "Solos played"),
     lazy_pgettext("troggu", "Solos won as declarer")),
    ("forced", lazy_pgettext("troggu", "Forced games"),
     lazy_pgettext("troggu", "Forced games played"),
     lazy_pgettext("troggu", "Forced games won as declarer")),
    ("misere", lazy_pgettext("troggu", "Misères"), lazy_pgettext("troggu", "Misères played"),
     None),
    ("thrown_in", lazy_pgettext("troggu", "Hands thrown in"),
     lazy_pgettext("troggu", "Hands thrown in played"), None),
)


@dataclass
class Row:
    """A player's line in a game's table, and the player's own figures of the game."""

    name: str
    matches: int
    won: str
    win_rate: str
    average: str
    figures: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class GameSection:
    game: Game
    summary: str
    rows: list[Row]
    totals: list[tuple[str, str]]               # the game's own figures for the whole circle
    head_to_head: list[str]
    partners: list[str]
    teams: list[str]                            # by team name (Stovkahra)


def matches_counted(count: int) -> str:
    return ngettext("%(num)s match", "%(num)s matches", count)


def hands_counted(game: Game, count: int) -> str:
    """``count`` hands, in the game's word for a hand."""
    if game.hand_word == "deal":
        return ngettext("%(num)s deal", "%(num)s deals", count)
    return ngettext("%(num)s hand", "%(num)s hands", count)


def games_won(count: int) -> str:
    return ngettext("%(num)s game won", "%(num)s games won", count)


def victories(game: Game, count: int) -> str:
    """``count`` of the game's victory units, as a whole phrase per unit."""
    if game.name == "stovkahra":
        return ngettext("%(num)s matchstick", "%(num)s matchsticks", count)
    if game.name == "tartli":
        return ngettext("%(num)s buli", "%(num)s buli", count)
    if game.name == "troggu":
        return ngettext("%(num)s Rappen", "%(num)s Rappen", count)
    return ngettext("%(num)s game", "%(num)s games", count)


def percent(rate: float | None) -> str:
    return "—" if rate is None else f"{round(rate * 100)}\u00a0%"      # no break before %


def average(game: Game, value: float | None) -> str:
    """A player's average score a hand, with its unit ("6.2 points a hand")."""
    if value is None:
        return "—"
    shown = number(f"{value:.1f}")
    if game.name == "troggu":
        return gettext("%(num)s Rappen a hand", num=shown)
    if game.hand_word == "deal":
        return gettext("%(num)s points a deal", num=shown)
    return gettext("%(num)s points a hand", num=shown)


def _own(game: str, figures: dict[str, Any]) -> list[tuple[str, str]]:
    """A player's own figures of ``game`` in words."""
    if game == "tartli":
        return [(str(words), str(figures[key])) for key, words in TARTLI]
    if game == "stovkahra":
        return [(str(words), str(figures[key])) for key, words in STOVKAHRA]
    if game == "marjolet":
        melds = figures["melds"]
        shown = [(str(words), str(melds[key])) for key, words in MELDS if melds[key]]
        sevens = figures["trump_sevens"]
        return [(pgettext("marjolet", "Melds"), str(sum(melds.values()))), *shown,
                *[(str(words), str(sevens[key])) for key, words in TRUMP_SEVENS],
                (pgettext("marjolet", "Sweeps"), str(figures["sweeps"]))]
    if game == "troggu":
        out = [(str(played), str(figures["played"][key]))
               for key, _, played, _ in TROGGU_KINDS if figures["played"][key]]
        for key, _, _, won in TROGGU_KINDS:
            declared = figures["declared"].get(key)
            if won is not None and declared:
                out.append((str(won), gettext(
                    "%(won)s of %(declared)s", won=figures["won_as_declarer"][key],
                    declared=declared)))
        rappen = figures["rappen"]
        out += [(gettext("Rappen won (evenings ended up)"), str(rappen["won"])),
                (gettext("Rappen lost (evenings ended down)"), str(rappen["lost"])),
                (gettext("Rappen in all"), signed(rappen["balance"]))]
        out += [(gettext("Evening of %(day)s", day=day), signed(balance))
                for day, balance in reversed(figures["evenings"].items())]
        return out
    return []


def _totals(game: str, table: dict[str, Any]) -> list[tuple[str, str]]:
    """The game's own figures for the whole circle in words."""
    if game == "tartli":
        return [(pgettext("tartli", "Buli won"), str(table["buli"])),
                (pgettext("tartli", "Maccs"), str(table["maccs"])),
                (pgettext("tartli", "501 claims right"), str(table["claims_right"])),
                (pgettext("tartli", "501 claims wrong"), str(table["claims_wrong"])),
                (pgettext("tartli", "Decider hands"), str(table["deciders"]))]
    if game == "stovkahra":
        return [(pgettext("stovkahra", "Combinations declared"), str(table["combinations"])),
                (pgettext("stovkahra", "Tricks won with a seven"), str(table["sevens"])),
                (pgettext("stovkahra", "Dosts called right"), str(table["dosts_right"])),
                (pgettext("stovkahra", "Dosts called wrong"), str(table["dosts_wrong"])),
                (pgettext("stovkahra", "Games won"), str(table["games"])),
                (pgettext("stovkahra", "Matchsticks"), str(table["matchsticks"]))]
    if game == "marjolet":
        return [(pgettext("marjolet", "Melds"), str(table["melds"])),
                (pgettext("marjolet", "Sweeps"), str(table["sweeps"]))]
    if game == "troggu":
        hands = table["by_kind"]
        return [*[(str(words), str(hands[key])) for key, words, _, _ in TROGGU_KINDS
                  if hands[key]],
                (pgettext("troggu", "Evenings"), str(table["evenings"]))]
    return []


def _teams(table: dict[str, Any]) -> list[str]:
    """Stovkahra's figures by team, as the matches name their teams."""
    return [gettext("%(team)s: %(games)s, %(matchsticks)s, %(sevens)s",
                    team=readable_json(team), games=games_won(own["games_won"]),
                    matchsticks=ngettext("%(num)s matchstick", "%(num)s matchsticks",
                                         own["matchsticks"]),
                    sevens=ngettext("%(num)s seven", "%(num)s sevens", own["sevens"]))
            for team, own in sorted(table.get("teams", {}).items())]


def _pair(game: Game, p: dict[str, Any], first: str, second: str) -> str:
    """Two players' head to head in a sentence."""
    values = {"first": first, "second": second, "first_won": p["won"][0],
              "second_won": p["won"][1], "matches": p["matches"],
              "first_points": p["points"][0], "second_points": p["points"][1]}
    if game.hand_word == "deal":
        return ngettext("%(first)s %(first_won)s – %(second_won)s %(second)s: matches won of "
                        "%(matches)s; points %(first_points)s – %(second_points)s in "
                        "%(num)s deal",
                        "%(first)s %(first_won)s – %(second_won)s %(second)s: matches won of "
                        "%(matches)s; points %(first_points)s – %(second_points)s in "
                        "%(num)s deals", p["hands"], **values)
    return ngettext("%(first)s %(first_won)s – %(second_won)s %(second)s: matches won of "
                    "%(matches)s; points %(first_points)s – %(second_points)s in "
                    "%(num)s hand",
                    "%(first)s %(first_won)s – %(second_won)s %(second)s: matches won of "
                    "%(matches)s; points %(first_points)s – %(second_points)s in "
                    "%(num)s hands", p["hands"], **values)


def _points_in(game: Game, points: int, hands: int) -> str:
    if game.hand_word == "deal":
        return ngettext("%(points)s points in %(num)s deal", "%(points)s points in %(num)s deals",
                        hands, points=points)
    return ngettext("%(points)s points in %(num)s hand", "%(points)s points in %(num)s hands",
                    hands, points=points)


def _partners(game: Game, p: dict[str, Any], names: str) -> str:
    """Partners' figures in a sentence."""
    return gettext(
        "%(names)s: %(matches)s, %(won)s won; %(games)s, %(victories)s; %(points)s",
        names=names, matches=matches_counted(p["matches"]), won=p["won"],
        games=games_won(p["games_won"]),
        victories=victories(game, p.get(game.victory_unit, 0)),
        points=_points_in(game, p["points"], p["hands"]))


def sections(stats: dict[str, Any], names: dict[str, str]) -> list[GameSection]:
    """The statistics in words, a section per game (in the order of ``GAMES``), each player
    by the player's name in the circle (``names``: the statistics' key → name)."""
    def name(key: str) -> str:
        return names.get(key, "?")

    out = []
    for game_name, game in GAMES.items():
        table = stats["games"].get(game_name)
        if table is None:
            continue
        rows = []
        for key, player in stats["players"].items():
            mine = player["games"].get(game_name)
            if mine is None:
                continue
            # no match of the game finished: no win rate yet
            rate = percent(mine["win_rate"]) if table["finished"] else "—"
            rows.append(Row(name(key), mine["matches"], str(mine["won"]), rate,
                            average(game, mine["average_hand_score"]),
                            _own(game_name, mine)))
        rows.sort(key=lambda r: r.name.casefold())
        summary = gettext("%(matches)s, %(finished)s finished, %(hands)s",
                          matches=matches_counted(table["matches"]),
                          finished=table["finished"],
                          hands=hands_counted(game, table["hands"]))
        pairs = [_pair(game, p, name(p["players"][0]), name(p["players"][1]))
                 for p in stats["head_to_head"] if p["game"] == game_name]
        partners = [
            _partners(game, p, " & ".join(sorted((name(k) for k in p["players"]),
                                                 key=str.casefold)))
            for p in stats["partners"] if p["game"] == game_name]
        out.append(GameSection(game, summary, rows, _totals(game_name, table), sorted(pairs),
                               sorted(partners), _teams(table)))
    return out


# -- each player's results over time (the circle's page) ------------------------------------

@dataclass(frozen=True)
class Chart:
    game: Game
    heading: str
    svg: str


def progress_charts(circle: Circle, matches: list[Summary]) -> list[Chart]:
    """A chart per game of each player's results, day by day, from the circle's first match
    of the game: the matches the player (or the player's team) won so far, or in Troggu,
    which has no winner (7.5.2), the Rappen the player won or lost so far. ``matches``: their
    summaries, newest first, as the circle's page lists them (a match that no longer scores
    is left out)."""
    names = {p.id: p.name for p in circle.players}
    out = []
    for game_name, game in GAMES.items():
        mine = [m for m in reversed(matches) if m.game == game_name and m.standing]
        if not mine:
            continue
        side_of = FIGURES[game_name].side if game_name in FIGURES else int
        days = sorted({m.created.date() for m in mine})
        index = {day: n for n, day in enumerate(days, start=1)}
        gains: dict[int, dict[int, int]] = {}
        for m in mine:
            standing = m.standing
            assert standing is not None
            for seat, person in enumerate(m.people):
                side = side_of(seat)
                amount = (int(standing.over and standing.winner == side) if game.race
                          else standing.totals[side])
                per = gains.setdefault(person, {})
                day = index[m.created.date()]
                per[day] = per.get(day, 0) + amount
        series = []
        for person in sorted(gains, key=lambda p: names.get(p, "?").casefold()):
            total, points = 0, [(0.0, 0.0)]
            for day in range(1, len(days) + 1):
                total += gains[person].get(day, 0)
                points.append((float(day), float(total)))
            note = str(total) if game.race else signed(total)
            series.append(Series(names.get(person, "?"), tuple(points), note=note))
        first, last = days[0].isoformat(), days[-1].isoformat()
        span = first if len(days) == 1 else gettext("%(first)s to %(last)s", first=first,
                                                     last=last)
        values = ", ".join(f"{s.label} {s.note}" for s in series)
        if game.race:
            heading = gettext("%(game)s: matches won, day by day", game=game.title)
            title = gettext("%(game)s: matches won by each player, day by day, %(days)s: "
                            "%(values)s", game=game.title, days=span, values=values)
        else:
            heading = gettext("%(game)s: Rappen won or lost, day by day", game=game.title)
            title = gettext("%(game)s: Rappen won or lost by each player, day by day, "
                            "%(days)s: %(values)s", game=game.title, days=span, values=values)
        ticks = [(1.0, first)]
        if len(days) > 1:
            ticks.append((float(len(days)), last))
        # room on the right for half the last day's date, centred under its point
        right = max(len(days) + 0.5, len(days) * 1.25)
        svg = line_chart(series, title=title, x_range=(0, right), x_ticks=ticks,
                         rules=() if game.race else (Rule(0, "", "zero"),))
        out.append(Chart(game, heading, svg))
    return out


CSV_MATCHES = 20          # matches the CSV reads at a time (their hands in memory)

# -- the page --------------------------------------------------------------------------------

FIRST_DAY = lazy_gettext("The first day must be a day written as year-month-day, such as "
                         "2026-11-30, not “%(text)s”")
LAST_DAY = lazy_gettext("The last day must be a day written as year-month-day, such as "
                        "2026-11-30, not “%(text)s”")
ORDER = lazy_gettext("The first day comes after the last day: swap them")


def _day(bad: LazyString, text: str) -> tuple[date | None, str | None]:
    if not text.strip():
        return None, None
    try:
        return date.fromisoformat(text.strip()), None
    except ValueError:
        return None, bad % {"text": text.strip()}


def read_range(since_text: str, until_text: str) -> tuple[date | None, date | None, str | None]:
    """The days of the GET form (``from``, ``to``; each may be empty), or an error."""
    since, error = _day(FIRST_DAY, since_text)
    until, other = _day(LAST_DAY, until_text)
    error = error or other
    if error is None and since is not None and until is not None and since > until:
        error = str(ORDER)
    return since, until, error


def circle_played(circle: Circle) -> list[Played]:
    """The circle's matches of the games this server has pages for, as the statistics read
    them."""
    return [Played(game, day, readable_json(settings), readable_json(hands), people)
            for game, day, settings, hands, people in played(circle) if game in WEB_GAMES]


def _played(matches: Iterable[CircleMatch]) -> Iterator[Played]:
    for m in matches:
        yield Played(m.game, m.created.date(), readable_json(m.settings),
                     readable_json(m.hands), tuple(str(p) for p in m.people))


@bp.get("/c/<token>/statistics")
def circle_statistics(token: str) -> Any:
    found = find(token)
    remember_circle(found.id)
    kept = derived(found.id)
    since_text = request.args.get("from", "")[:40]
    until_text = request.args.get("to", "")[:40]
    since, until, error = read_range(since_text, until_text)
    names = {str(p.id): p.name for p in found.players}
    key = (languages.current(), request.script_root, tuple(sorted(names.items())))
    figures, skipped, counted = Markup(), [], 0
    if error is None:
        figures, skipped, counted = kept.view(
            ("statistics", *key, since, until),
            lambda: _figures(kept.statistics(since, until), names))
    # ratings: every finished match in order, whatever days the figures above count
    rated = kept.view(("ratings", *key), lambda: circle_ratings(found, kept.rated()))
    return render_template(
        "circles/statistics.html", circle=found, figures=figures, skipped=skipped,
        counted=counted, since=since_text, until=until_text, error=error, ratings=rated,
        provisional_under=PROVISIONAL,
    ), 422 if error else 200


def _figures(stats: dict[str, Any], names: dict[str, str]) -> tuple[Markup, list[str], int]:
    """The statistics in words: each game's section (HTML), the matches not counted, how many
    were counted (made once per version, language and days: ``Derived.view``)."""
    skipped = [gettext("%(game)s of %(day)s (%(players)s): %(problem)s",
                       game=GAMES[s["game"]].title if s["game"] in GAMES else s["game"],
                       day=s["created"],
                       players=" – ".join(names.get(k, "?") for k in s["people"]),
                       problem=s["problem"]) for s in stats["skipped"]]
    figures = Markup(render_template("circles/stat_sections.html",
                                     sections=sections(stats, names)))
    return figures, skipped, stats["matches"]


@bp.get("/c/<token>/hands.csv")
def circle_hands_csv(token: str) -> Response:
    """Every hand of the circle's matches, oldest match first, as one CSV file (with a byte
    order mark so that a spreadsheet reads the names' letters as UTF-8), written as it is
    read from the store, a few matches at a time (``Circles.matches_by_id``)."""
    found = find(token)
    kept = derived(found.id).matches
    sides = widest(kept)
    oldest = [m.id for m in reversed(kept)]

    def loaded() -> Iterator[Played]:               # a few matches in memory at a time
        for start in range(0, len(oldest), CSV_MATCHES):
            yield from _played(circles().matches_by_id(oldest[start:start + CSV_MATCHES]))

    def parts() -> Iterator[str]:
        yield "\ufeff"
        yield from circle_csv_parts(loaded(), sides, say=lambda t: str(say(t)))

    name = f"circle-{found.created.date().isoformat()}-hands.csv"
    return Response(stream_with_context(parts()), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})
