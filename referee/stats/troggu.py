"""Troggu's own figures (shared/rules/troggu.md): hands played by kind (normal, Solo, forced,
Misère, thrown in: 4.1, 4.4, 4.5, 8), hands declared and won as declarer (Tappist or Soloist,
7.1), and Rappen won and lost per evening and in all (7.5).

An **evening** is a day: every Troggu match created that day adds up to one balance per player
(the circle's settle-up of the day). ``rappen``: ``won`` adds the evenings a player ended up,
``lost`` those he ended down, ``balance`` is ``won − lost``.

Troggu has no target and no winner (7.5.2): its matches count as played, never as won; the
figures of success are ``won_as_declarer`` and the Rappen."""

from __future__ import annotations

from ..engine.games.base import MatchResult
from ..engine.games.troggu.values import FORCED, GAMES, NORMAL, SOLO
from .played import Figures, Played, seats
from .tally import Tally, bump

KINDS = tuple(kind.replace("-", "_") for kind in GAMES)    # normal, solo, forced, misere, ...
DECLARED = (NORMAL, SOLO, FORCED)


def figures(match: Played, result: MatchResult) -> Figures:
    evening = match.created.isoformat()
    players: list[Tally] = [
        {"played": {kind: 0 for kind in KINDS}, "declared": {kind: 0 for kind in DECLARED},
         "won_as_declarer": {kind: 0 for kind in DECLARED}, "evenings": {evening: 0}}
        for _ in seats(match)
    ]
    table: Tally = {"by_kind": {kind: 0 for kind in KINDS}, "days": {evening: 1}}
    for outcome in result.hands:
        game = outcome.detail.get("game")
        if game is None:
            continue
        kind = game.replace("-", "_")
        hands = table["by_kind"]
        assert isinstance(hands, dict)
        bump(hands, kind)
        for seat, amount in enumerate(outcome.scores):
            tally = players[seat]
            _bump(tally, "played", kind)
            _bump(tally, "evenings", evening, amount)
        declarer = outcome.detail.get("declarer")
        if game in DECLARED and declarer is not None:
            _bump(players[declarer], "declared", game)
            if outcome.detail.get("winner") == "declarer":
                _bump(players[declarer], "won_as_declarer", game)
    return players, table


def finish_player(tally: Tally) -> None:
    """The Rappen in all, from the evenings' balances."""
    evenings = tally["evenings"]
    assert isinstance(evenings, dict)
    balances = [value for value in evenings.values() if isinstance(value, int)]
    won = sum(b for b in balances if b > 0)
    lost = -sum(b for b in balances if b < 0)
    tally["rappen"] = {"won": won, "lost": lost, "balance": won - lost}
    tally["evenings"] = dict(sorted(evenings.items()))


def finish_table(tally: Tally) -> None:
    days = tally.pop("days")
    assert isinstance(days, dict)
    tally["evenings"] = len(days)


def _bump(tally: Tally, group: str, key: str, amount: int = 1) -> None:
    inner = tally[group]
    assert isinstance(inner, dict)
    bump(inner, key, amount)
