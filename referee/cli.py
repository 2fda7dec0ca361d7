"""The command line: ``python -m referee score MATCH.json``, ``... pdf MATCH.json -o X.pdf``,
``... csv MATCH.json`` (the hands as CSV), ``... stats MATCH.json…`` (statistics and ratings
as JSON, of match files or circle files) and
``... chart MATCH.json -o X.svg`` (the chart of the running totals). ``--lang hu`` (before
the command) writes the scoresheet and the messages in that language; a match file that names
its language is written in it by default.

Exit status: 0 done; 2 the match file (or the command line) is wrong, with ``error: <why>``
on stderr; 1 the file is fine but the output could not be made (PDF export missing or failing,
output not writable). ``pdf`` imports Jinja and WeasyPrint (referee.scoresheet), never Flask.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from datetime import date
from pathlib import Path

from .engine import scoring
from .engine.errors import RuleViolation
from .engine.matchfile import MatchFile, load, standings
from .engine.words import LANGUAGES, say

BAD_INPUT = 2
NO_OUTPUT = 1


class _Failure(Exception):
    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


_language: list[str | None] = [None]      # --lang, when given


def _said(text: object, language: str | None = None) -> str:
    """``text`` (an engine sentence) in ``--lang`` (else ``language``, else English)."""
    from .catalogues import catalogue

    return say(text, catalogue(_language[0] or language or "en"))


def _bytes(path: str) -> bytes:
    try:
        return sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    except OSError as error:
        raise _Failure(f"cannot read {path}: {error.strerror or error}", BAD_INPUT) from None


def _read(path: str) -> MatchFile:
    data = _bytes(path)
    try:
        return load(data)
    except RuleViolation as error:
        raise _Failure(f"{path}: {_said(error.explain())}", BAD_INPUT) from None


def _score(args: argparse.Namespace) -> int:
    match = _read(args.match)
    try:
        result = standings(match)
    except RuleViolation as error:
        raise _Failure(f"{args.match}: {_said(error.explain())}", BAD_INPUT) from None
    sys.stdout.write(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
    return 0


def _output(args: argparse.Namespace, suffix: str) -> str:
    """Where to write: ``-o``, else beside the match file with ``suffix``."""
    if args.output is not None:
        return str(args.output)
    source = Path("match.json" if args.match == "-" else args.match)
    return str(source.with_suffix(suffix))


def _pdf(args: argparse.Namespace) -> int:
    match = _read(args.match)
    output = _output(args, ".pdf")
    try:
        from referee.scoresheet import in_language, render_pdf

        from .catalogues import catalogue
    except ImportError as error:
        raise _Failure(f"PDF export is not available: {error}", NO_OUTPUT) from None
    language = _language[0] or match.language
    try:
        with in_language(language, catalogue(language)):
            pdf = render_pdf(match, args.explained)
    except RuleViolation as error:
        raise _Failure(f"{args.match}: {_said(error.explain(), language)}", BAD_INPUT) from None
    except Exception as error:   # WeasyPrint and friends: a message, not a traceback
        raise _Failure(
            f"could not make the PDF ({type(error).__name__}: {error})", NO_OUTPUT
        ) from None
    return _write(output, pdf)


def _write(output: str, data: bytes) -> int:
    """``data`` written to ``output`` ("-": standard output), said on stderr."""
    try:
        if output == "-":
            sys.stdout.buffer.write(data)
            sys.stdout.buffer.flush()
        else:
            Path(output).write_bytes(data)
    except OSError as error:
        raise _Failure(f"cannot write {output}: {error.strerror or error}", NO_OUTPUT) from None
    if output != "-":
        print(f"wrote {output} ({len(data):,} bytes)", file=sys.stderr)
    return 0


def _chart(args: argparse.Namespace) -> int:
    from functools import partial

    from .charts import PAPER, running_totals
    from .engine.games import get
    from .numbers import number

    match = _read(args.match)
    output = _output(args, ".svg")
    game = get(match.game)
    try:
        result = scoring.score(game.name, match.settings, match.hands, trusted=True)
    except RuleViolation as error:
        raise _Failure(f"{args.match}: {_said(error.explain())}", BAD_INPUT) from None
    if not result.hands:
        raise _Failure(f"{args.match} has no hand scored yet: no chart to draw", NO_OUTPUT)
    language = _language[0] or match.language
    svg = running_totals(
        game, match.settings, result, layout=PAPER, standalone=True,
        say=lambda text: _said(text, language), number=partial(number, locale=language),
    ).encode("utf-8")
    return _write(output, svg)


def _csv(args: argparse.Namespace) -> int:
    from referee.stats.csv import match_csv

    match = _read(args.match)
    sys.stdout.write(match_csv(match, lambda text: _said(text, match.language)))
    return 0


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a date written YYYY-MM-DD: {text!r}") from None


def _matches(path: str) -> list[tuple[MatchFile, tuple[str, ...]]]:
    """The matches of a match file (each player keyed by the name as written) or of a circle
    file (each by the circle's name of the person in the seat)."""
    from .engine import circlefile

    data = _bytes(path)
    try:
        match = load(data)
    except RuleViolation as error:
        if b'"referee-circle"' not in data:
            raise _Failure(f"{path}: {_said(error.explain())}", BAD_INPUT) from None
        try:
            circle = circlefile.load(data)
        except RuleViolation as error:
            raise _Failure(f"{path}: {_said(error.explain())}", BAD_INPUT) from None
        return [(m, tuple(circle.players[p] for p in people)) for m, people in circle.matches]
    return [(match, tuple(match.settings["players"]))]


def _stats(args: argparse.Namespace) -> int:
    from referee.stats import Played, statistics
    from referee.stats.ratings import as_json, rated_matches, ratings

    played = []
    for path in args.matches:
        for m, people in _matches(path):
            played.append(Played(
                game=m.game, created=date.fromisoformat(m.created), settings=m.settings,
                hands=m.hands, people=people,
            ))
    result = statistics(played, since=args.since, until=args.until)
    # ratings: every finished match up to --until in order (a rating needs what came before)
    rated = [p for p in played if args.until is None or p.created <= args.until]
    result["ratings"] = as_json(ratings(rated_matches(rated)))
    sys.stdout.write(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m referee",
        description="Score Referee match files: standings, scoresheet PDF, CSV, statistics, "
        "the chart of the running totals.",
        epilog="Exit status: 0 done, 2 bad match file or arguments, 1 output not made.",
    )
    parser.add_argument("--lang", choices=LANGUAGES, default=None,
                        help="the language of the scoresheet and the messages (default: the "
                        "match file's own, else English)")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    score = commands.add_parser(
        "score", help="print the standings and every hand's explanation as JSON",
        description="Check MATCH (a match file, or - for stdin) and print its standings, the "
        "rules in force and every hand's explanation lines as JSON.",
    )
    score.add_argument("match", metavar="MATCH", help="the match file (.json), or -")
    score.set_defaults(run=_score)
    pdf = commands.add_parser(
        "pdf", help="write the scoresheet as a PDF",
        description="Check MATCH and write its scoresheet as a PDF.",
    )
    pdf.add_argument("match", metavar="MATCH", help="the match file (.json), or -")
    pdf.add_argument(
        "-o", "--output", metavar="PDF",
        help="where to write the PDF (- for stdout; default: MATCH with .pdf)",
    )
    pdf.add_argument(
        "--explained", action="store_true",
        help="add every hand's explanation (an appendix: for a long match, many pages more)",
    )
    pdf.set_defaults(run=_pdf)
    chart = commands.add_parser(
        "chart", help="write the chart of the running totals as SVG",
        description="Check MATCH and write the chart of its running totals (one line per "
        "player or team, the games won marked, the target drawn) as an SVG file.",
    )
    chart.add_argument("match", metavar="MATCH", help="the match file (.json), or -")
    chart.add_argument(
        "-o", "--output", metavar="SVG",
        help="where to write the SVG (- for stdout; default: MATCH with .svg)",
    )
    chart.set_defaults(run=_chart)
    hands = commands.add_parser(
        "csv", help="print the hands as CSV",
        description="Check MATCH and print one CSV row per hand: its number, dealer, each "
        "player's (or team's) hand score and running total, and the hand's summary.",
    )
    hands.add_argument("match", metavar="MATCH", help="the match file (.json), or -")
    hands.set_defaults(run=_csv)
    stats = commands.add_parser(
        "stats", help="print the statistics and ratings of matches as JSON",
        description="Check every MATCH (a match file, or a circle file: all its matches) and "
        "print the players' statistics over them as JSON (players keyed by their names as "
        "written in the files: a circle file's by its players' names), with the players' "
        "ratings per game under \"ratings\" (openskill's Plackett-Luce, every finished match "
        "up to --until in order; shown as 1000 + 40 x (mu - 3 sigma)).",
    )
    stats.add_argument("matches", metavar="MATCH", nargs="+",
                       help="match files or circle files (.json)")
    stats.add_argument("--since", type=_day, metavar="YYYY-MM-DD",
                       help="only matches created on this day or later")
    stats.add_argument("--until", type=_day, metavar="YYYY-MM-DD",
                       help="only matches created on this day or earlier")
    stats.set_defaults(run=_stats)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    _language[0] = args.lang
    try:
        status: int = args.run(args)
    except _Failure as failure:
        print(f"error: {failure.message}", file=sys.stderr)
        return failure.status
    except BrokenPipeError:      # e.g. piped into `head`
        return NO_OUTPUT
    return status


if __name__ == "__main__":   # pragma: no cover
    sys.exit(main())
