"""A circle's statistics (``/c/<token>/statistics``) and all its hands as one CSV file
(``/c/<token>/hands.csv``): issue 13.

The figures are ``referee.stats.statistics`` of the circle's matches, folded from their stored
facts on every view (nothing cached, nothing stored), so an edited hand shows at once. Its
players are keyed by the circle player's id; the page shows them by the circle's names only.
The statistics have their own page, linked from the circle's page: with a section per game and
a list per player they would make the circle's page (matches, evenings, players) too long to
find anything on a phone."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

from flask import Response, render_template, request

from ...charts import Rule, Series, line_chart
from ...engine.games import GAMES
from ...engine.games.base import Game, MatchResult
from ...numbers import number, signed
from ...stats import FIGURES, Played, statistics
from ...stats.circlecsv import circle_csv
from ..games import WEB_GAMES
from ..readable import readable_json
from ..store import Circle, CircleMatch
from .blueprint import bp, find, played, remember_circle

# Each game's own figures: (key in the statistics, words on the page), in the rules' order.
TARTLI = (
    ("sets", "Sets declared"), ("sequences", "Sequences declared"),
    ("contests_won", "Meld contests won"), ("belas", "Bélas"),
    ("claims_right", "501 claims right"), ("claims_wrong", "501 claims wrong"),
    ("buli", "Buli won"), ("maccs", "Maccs (2 buli at once)"),
)
STOVKAHRA = (
    ("combinations", "Combinations declared"),
    ("combination_points", "Points of combinations"),
    ("sevens", "Tricks won with a seven (by the team)"),
    ("dosts_right", "Dosts called right"), ("dosts_wrong", "Dosts called wrong"),
    ("games_won", "Games won (by the team)"), ("matchsticks", "Matchsticks (by the team)"),
)
MELDS = (
    ("four_aces", "Four Aces"), ("four_tens", "Four Tens"), ("four_kings", "Four Kings"),
    ("four_queens", "Four Queens"), ("four_jacks", "Four Jacks"),
    ("trump_marriage", "Marriages in trumps"), ("plain_marriage", "Plain marriages"),
    ("trump_marjolet", "Marjolets in trumps"), ("plain_marjolet", "Plain marjolets"),
)
TRUMP_SEVENS = (
    ("turned_up", "Trump sevens turned up (as dealer)"),
    ("exchanged", "Trump sevens exchanged"), ("played", "Trump sevens played"),
)
TROGGU_KINDS = (
    ("normal", "Normal games"), ("solo", "Solos"), ("forced", "Forced games"),
    ("misere", "Misères"), ("thrown_in", "Hands thrown in"),
)


@dataclass
class Row:
    """A player's line in a game's table, and his own figures of the game."""

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


def plural(count: int, word: str) -> str:
    if count == 1:
        return f"1 {word}"
    return f"{count} {'matches' if word == 'match' else word + 's'}"


def percent(rate: float | None) -> str:
    return "—" if rate is None else f"{round(rate * 100)}\u00a0%"      # no break before %


def average(value: float | None) -> str:
    return "—" if value is None else number(f"{value:.1f}")


def _own(game: str, figures: dict[str, Any]) -> list[tuple[str, str]]:
    """A player's own figures of ``game`` in words."""
    if game == "tartli":
        return [(words, str(figures[key])) for key, words in TARTLI]
    if game == "stovkahra":
        return [(words, str(figures[key])) for key, words in STOVKAHRA]
    if game == "marjolet":
        melds = figures["melds"]
        shown = [(words, str(melds[key])) for key, words in MELDS if melds[key]]
        sevens = figures["trump_sevens"]
        return [("Melds", str(sum(melds.values()))), *shown,
                *[(words, str(sevens[key])) for key, words in TRUMP_SEVENS],
                ("Sweeps", str(figures["sweeps"]))]
    if game == "troggu":
        out = [(f"{words} played", str(figures["played"][key]))
               for key, words in TROGGU_KINDS if figures["played"][key]]
        for key, words in TROGGU_KINDS[:3]:
            declared = figures["declared"][key]
            if declared:
                out.append((f"{words} won as declarer",
                            f"{figures['won_as_declarer'][key]} of {declared}"))
        rappen = figures["rappen"]
        out += [("Rappen won (evenings ended up)", str(rappen["won"])),
                ("Rappen lost (evenings ended down)", str(rappen["lost"])),
                ("Rappen in all", signed(rappen["balance"]))]
        out += [(f"Evening of {day}", signed(balance))
                for day, balance in reversed(figures["evenings"].items())]
        return out
    return []


def _totals(game: str, table: dict[str, Any]) -> list[tuple[str, str]]:
    """The game's own figures for the whole circle in words."""
    if game == "tartli":
        return [("Buli won", str(table["buli"])), ("Maccs", str(table["maccs"])),
                ("501 claims right", str(table["claims_right"])),
                ("501 claims wrong", str(table["claims_wrong"])),
                ("Decider hands", str(table["deciders"]))]
    if game == "stovkahra":
        out = [("Combinations declared", str(table["combinations"])),
               ("Tricks won with a seven", str(table["sevens"])),
               ("Dosts called right", str(table["dosts_right"])),
               ("Dosts called wrong", str(table["dosts_wrong"])),
               ("Games won", str(table["games"])), ("Matchsticks", str(table["matchsticks"]))]
        return out
    if game == "marjolet":
        return [("Melds", str(table["melds"])), ("Sweeps", str(table["sweeps"]))]
    if game == "troggu":
        hands = table["by_kind"]
        return [*[(words, str(hands[key])) for key, words in TROGGU_KINDS if hands[key]],
                ("Evenings", str(table["evenings"]))]
    return []


def _teams(table: dict[str, Any]) -> list[str]:
    """Stovkahra's figures by team, as the matches name their teams."""
    return [f"{readable_json(team)}: {plural(own['games_won'], 'game')} won, "
            f"{own['matchsticks']} matchsticks, {plural(own['sevens'], 'seven')}"
            for team, own in sorted(table.get("teams", {}).items())]


def sections(stats: dict[str, Any], names: dict[str, str]) -> list[GameSection]:
    """The statistics in words, a section per game (in the order of ``GAMES``), each player
    by his name in the circle (``names``: the statistics' key → name)."""
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
            rows.append(Row(name(key), mine["matches"], str(mine["won"]),
                            percent(mine["win_rate"]), average(mine["average_hand_score"]),
                            _own(game_name, mine)))
        rows.sort(key=lambda r: r.name.casefold())
        unit = game.hand_word
        summary = (f"{plural(table['matches'], 'match')}, {table['finished']} finished, "
                   f"{plural(table['hands'], unit)}")
        pairs = [
            f"{name(p['players'][0])} {p['won'][0]} – {p['won'][1]} {name(p['players'][1])}: "
            f"matches won of {p['matches']}; points {p['points'][0]} – {p['points'][1]} in "
            f"{plural(p['hands'], unit)}"
            for p in stats["head_to_head"] if p["game"] == game_name]
        partners = [
            f"{' & '.join(sorted((name(k) for k in p['players']), key=str.casefold))}: "
            f"{plural(p['matches'], 'match')}, "
            f"{p['won']} won; {plural(p['games_won'], 'game')} won, "
            f"{p.get(game.victory_unit, 0)} {game.victory_unit}; "
            f"{p['points']} points in {plural(p['hands'], unit)}"
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


def progress_charts(circle: Circle, matches: list[CircleMatch],
                    results: dict[str, MatchResult | None]) -> list[Chart]:
    """A chart per game of each player's results, day by day, from the circle's first match
    of the game: the matches he (his team) won so far, or in Troggu, which has no winner
    (7.5.2), the Rappen he won or lost so far. ``matches``: newest first, as the circle's page
    lists them, with their ``results`` (None: no longer scores, left out)."""
    names = {p.id: p.name for p in circle.players}
    out = []
    for game_name, game in GAMES.items():
        mine = [m for m in reversed(matches) if m.game == game_name and results.get(m.id)]
        if not mine:
            continue
        side_of = FIGURES[game_name].side if game_name in FIGURES else int
        days = sorted({m.created.date() for m in mine})
        index = {day: n for n, day in enumerate(days, start=1)}
        gains: dict[int, dict[int, int]] = {}
        for m in mine:
            result = results[m.id]
            assert result is not None
            standing = result.standing
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
        what = "matches won" if game.race else f"{game.victory_unit} won or lost"
        span = days[0].isoformat() + (f" to {days[-1].isoformat()}" if len(days) > 1 else "")
        title = (f"{game.title}: {what} by each player, day by day, {span}: "
                 + ", ".join(f"{s.label} {s.note}" for s in series))
        ticks = [(1.0, days[0].isoformat())]
        if len(days) > 1:
            ticks.append((float(len(days)), days[-1].isoformat()))
        # room on the right for half the last day's date, centred under its point
        right = max(len(days) + 0.5, len(days) * 1.25)
        svg = line_chart(series, title=title, x_range=(0, right), x_ticks=ticks,
                         rules=() if game.race else (Rule(0, "", "zero"),))
        out.append(Chart(game, f"{game.title}: {what}, day by day", svg))
    return out


# -- the page --------------------------------------------------------------------------------

BAD_DAY = "{what} must be a day written as year-month-day, such as 2026-11-30, not “{text}”"
ORDER = "The first day comes after the last day: swap them"


def _day(what: str, text: str) -> tuple[date | None, str | None]:
    if not text.strip():
        return None, None
    try:
        return date.fromisoformat(text.strip()), None
    except ValueError:
        return None, BAD_DAY.format(what=what, text=text.strip())


def read_range(since_text: str, until_text: str) -> tuple[date | None, date | None, str | None]:
    """The days of the GET form (``from``, ``to``; each may be empty), or an error."""
    since, error = _day("The first day", since_text)
    until, other = _day("The last day", until_text)
    error = error or other
    if error is None and since is not None and until is not None and since > until:
        error = ORDER
    return since, until, error


def circle_played(circle: Circle) -> list[Played]:
    """The circle's matches of the games this server has pages for, as the statistics read
    them."""
    return [Played(game, day, readable_json(settings), readable_json(hands), people)
            for game, day, settings, hands, people in played(circle) if game in WEB_GAMES]


@bp.get("/c/<token>/statistics")
def circle_statistics(token: str) -> Any:
    found = find(token)
    remember_circle(found.id)
    since_text = request.args.get("from", "")[:40]
    until_text = request.args.get("to", "")[:40]
    since, until, error = read_range(since_text, until_text)
    names = {str(p.id): p.name for p in found.players}
    shown: list[GameSection] = []
    skipped: list[str] = []
    counted = 0
    if error is None:
        stats = statistics(circle_played(found), since=since, until=until)
        counted = stats["matches"]
        shown = sections(stats, names)
        skipped = [f"{GAMES[s['game']].title if s['game'] in GAMES else s['game']} of "
                   f"{s['created']} ({' – '.join(names.get(k, '?') for k in s['people'])}): "
                   f"{s['problem']}" for s in stats["skipped"]]
    return render_template(
        "circles/statistics.html", circle=found, sections=shown, skipped=skipped,
        counted=counted, since=since_text, until=until_text, error=error,
    ), 422 if error else 200


@bp.get("/c/<token>/hands.csv")
def circle_hands_csv(token: str) -> Response:
    """Every hand of the circle's matches, oldest match first, as one CSV file (with a byte
    order mark so that a spreadsheet reads the names' letters as UTF-8)."""
    found = find(token)
    body = "\ufeff" + circle_csv(reversed(circle_played(found)))
    name = f"circle-{found.created.date().isoformat()}-hands.csv"
    return Response(body, mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})
