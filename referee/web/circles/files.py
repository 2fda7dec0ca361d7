"""The circle as one file, and the circle file's limits kept by the pages.

The file (``/c/<token>/circle.json``) is written as it is read from the store: its header,
then one match at a time (``Circles.played``), compact as ``circlefile.dumps`` writes it, so
that a circle of any size is written in the memory of one match.

Whatever the pages let a circle hold, its file imports back: a circle takes no player past
``circlefile.MAX_PLAYERS`` and no match past ``circlefile.MAX_MATCHES``; a match joins it
(started from it, or added) only while it keeps room for that match to grow to the largest a
match can be (``matchfile.MAX_HANDS`` hands, ``MATCH_ROOM`` bytes) within
``circlefile.MAX_HANDS`` hands in all and ``circlefile.MAX_BYTES``. A hand entered at a table
is never refused for the circle's sake (the table's own limit, ``matchfile.MAX_HANDS``,
stays): a hand is not lost at the table. A circle passes the hands or bytes limit only if,
once it is nearly full, several of its open matches grow by hundreds of hands each."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from flask import Response
from flask_babel import gettext, ngettext

from ...engine import circlefile, matchfile
from ...numbers import number
from ..extensions import circles
from ..readable import readable_json
from ..store import Circle, CircleMatch, Size

# The largest match the app holds, as a circle file writes it: 1,000 Marjolet deals recorded
# card by card take about 1.26 MB (tests/web/circles/test_circle_files.py measures it).
MATCH_ROOM = 1_500_000
# What the circle file adds to the stored JSON of its matches, at most: the header, a
# player's name (40 letters, 4 bytes each), a match's entry around its settings and hands
HEADER, PLAYER, ENTRY = 1_000, 200, 300


def export(circle: Circle, ratings: dict[str, Any] | None = None) -> Response:
    """The circle's file, with its ``ratings`` (derived: an import ignores them)."""
    return Response(text(circles().played(circle.id), ratings), mimetype="application/json",
                    headers={"Content-Disposition":
                             f'attachment; filename="circle-{circle.created.date()}.json"'})


def text(played: Iterator[Circle | CircleMatch],
         ratings: dict[str, Any] | None = None) -> Iterator[str]:
    """The circle file of ``Circles.played``'s circle and matches, piece by piece."""
    circle = next(played, None)
    if not isinstance(circle, Circle):
        return
    index = {p.id: n for n, p in enumerate(circle.players)}

    def entries() -> Iterator[tuple[matchfile.MatchFile, list[int]]]:
        for m in played:
            if isinstance(m, CircleMatch):
                yield (matchfile.MatchFile(
                    game=m.game, settings=readable_json(m.settings),
                    hands=readable_json(m.hands), created=m.created.date().isoformat(),
                    language=m.language), [index[p] for p in m.people])

    yield from circlefile.chunks(circlefile.CircleFile(
        name=readable_json(circle.name), created=circle.created.date().isoformat(),
        players=[readable_json(p.name) for p in circle.players], matches=[]), entries(),
        ratings)


def file_bytes(token: str) -> int:
    """The bytes of the circle's file, written (in the memory of one match)."""
    return sum(len(piece.encode()) for piece in text(circles().played(token)))


def most_bytes(size: Size) -> int:
    """At most the bytes of the circle's file, from its size alone: the store keeps JSON with
    spaces the file leaves out and every other letter than ASCII as six characters."""
    return HEADER + size.players * PLAYER + size.matches * ENTRY + size.hands + size.stored


def no_room_for_players(token: str, new: int) -> str | None:
    """Why ``new`` players cannot join the circle, or None."""
    if new and circles().size(token).players + new > circlefile.MAX_PLAYERS:
        return ngettext(
            "A circle holds at most %(num)s player, as its circle file does, and this one is "
            "full: pick a player from the list. Nothing was saved.",
            "A circle holds at most %(num)s players, as its circle file does, and this one is "
            "full: pick players from the list. Nothing was saved.", circlefile.MAX_PLAYERS)
    return None


def no_room_for_match(token: str, hands: int = 0) -> str | None:
    """Why a match (of ``hands`` hands now) cannot join the circle, or None."""
    size = circles().size(token)
    if size.matches >= circlefile.MAX_MATCHES:
        return ngettext(
            "A circle holds at most %(num)s match, as its circle file does, and this one is "
            "full: play this match outside the circle (New match on the home page). Nothing "
            "was saved.",
            "A circle holds at most %(num)s matches, as its circle file does, and this one is "
            "full: play this match outside the circle (New match on the home page). Nothing "
            "was saved.", circlefile.MAX_MATCHES)
    if size.hands + max(hands, matchfile.MAX_HANDS) > circlefile.MAX_HANDS:
        return ngettext(
            "A circle holds at most %(num)s hand in all its matches, as its circle file does, "
            "and this one has no room left for another match to grow to %(most)s hands: play "
            "this match outside the circle (New match on the home page). Nothing was saved.",
            "A circle holds at most %(num)s hands in all its matches, as its circle file "
            "does, and this one has no room left for another match to grow to %(most)s hands: "
            "play this match outside the circle (New match on the home page). Nothing was "
            "saved.", circlefile.MAX_HANDS, most=number(matchfile.MAX_HANDS))
    if (most_bytes(size) + MATCH_ROOM > circlefile.MAX_BYTES
            and file_bytes(token) + MATCH_ROOM > circlefile.MAX_BYTES):
        return gettext(
            "A circle's file holds at most %(size)s MB, and this circle's has no room left "
            "for another match: play this match outside the circle (New match on the home "
            "page). Nothing was saved.", size=circlefile.MAX_BYTES // 1_000_000)
    return None
