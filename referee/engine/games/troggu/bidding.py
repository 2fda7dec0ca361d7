"""The bidding and the game it gives (rules 4.1, 4.4, 4.5.1 and checks 6.3.8)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...errors import RuleViolation
from ...words import N, T, Text
from ..base import Line
from .facts import HandFacts
from .table import HandScore, Table, in_order
from .values import (
    A_GAME,
    FORCED,
    MISERE,
    NORMAL,
    PARTNER_PLAYERS,
    PASS,
    SOLO,
    THROWN_IN,
)


@dataclass(frozen=True)
class Bidding:
    """What the calls so far decide: ``game`` is normal or Solo with its ``declarer``, or None
    (all passed, or not over yet)."""

    complete: bool
    game: str | None
    declarer: int | None
    speakers: tuple[int, ...]

    @property
    def all_passed(self) -> bool:
        return self.complete and self.game is None


def bidding(
    bids: Sequence[str], dealer: int, players: int, names: Sequence[str] | None = None
) -> Bidding:
    """Check the calls against 4.1 (6.3.8) and say what they decide. The first call is by the
    player to the dealer's right (seat dealer + 1), then anticlockwise, the dealer last.
    ``names`` (by seat) are for the messages."""
    speakers = tuple((dealer + 1 + i) % players for i in range(len(bids)))

    def who(i: int) -> str:
        seat = speakers[i]
        return names[seat] if names is not None else T("seat %(seat)s", seat=seat + 1)
    if len(bids) > players:
        raise RuleViolation(
            "bids.too-many",
            T("%(calls)s calls, but each of the %(players)s players speaks at most once",
              calls=len(bids), players=players), "4.1.1",
        )
    normal: int | None = None
    for i, bid in enumerate(bids):
        if bid == SOLO:
            if i != len(bids) - 1:
                raise RuleViolation(
                    "bids.after-solo",
                    T("Solo by %(player)s ends the bidding at once: nobody calls after it",
                      player=who(i)),
                    "4.1.4",
                ).of_seat(speakers[i + 1])
            return Bidding(True, SOLO, speakers[i], speakers)
        if bid == NORMAL:
            if normal is not None:
                raise RuleViolation(
                    "bids.normal-twice",
                    T("After the normal bid by %(first)s, later players may only pass or bid "
                      "Solo, not normal (%(player)s)", first=who(normal), player=who(i)),
                    "4.1.3",
                ).of_seat(speakers[i])
            normal = i
    complete = len(bids) == players
    if normal is not None:
        return Bidding(complete, NORMAL if complete else None,
                       speakers[normal] if complete else None, speakers)
    return Bidding(complete, None, None, speakers)


def forced_game(fool: int | None, bagatt: int | None) -> tuple[str, int] | None:
    """4.5.1, seven or eight players, all passed: the holder of the fool must play a normal
    game as Tappist (``("F", seat)``); if the fool is in the Tapp (None), the holder of trump
    I (``("T1", seat)``); if both are in the Tapp, a Misère is played (None)."""
    if fool is not None:
        return ("F", fool)
    if bagatt is not None:
        return ("T1", bagatt)
    return None


@dataclass(frozen=True)
class Declared:
    """The game as the facts decide it."""

    game: str | None
    declarer: int | None


def check_game(facts: HandFacts, dealer: int, table: Table, score: HandScore) -> Declared:
    game, declarer = facts.game, facts.declarer
    n = table.n
    bids = None if facts.bids is None else bidding(facts.bids, dealer, n, table.names)
    if bids is not None:
        score.detail["bidding"] = bids
        if score.explain:
            _bidding_line(facts.bids or (), bids, table, score)
        if not bids.complete:
            if game is not None or facts.end is not None:
                raise RuleViolation(
                    "bids.unfinished",
                    N("Only %(num)s of the %(players)s players has called: record every call, "
                      "or leave the game open while the bidding goes on",
                      "Only %(num)s of the %(players)s players have called: record every call, "
                      "or leave the game open while the bidding goes on",
                      len(bids.speakers), num=len(bids.speakers), players=n), "4.1",
                )
        elif bids.game is not None:
            if game is None:
                game = bids.game
            elif game != bids.game:
                raise RuleViolation(
                    "bids.game",
                    T("The bidding ended with %(game)s by %(player)s, not %(recorded)s",
                      game=A_GAME[bids.game], player=table.name(bids.declarer or 0),
                      recorded=A_GAME[game]), "6.3.8",
                )
            if declarer is None:
                declarer = bids.declarer
            elif declarer != bids.declarer:
                raise RuleViolation(
                    "bids.declarer",
                    T("%(winner)s won the bidding, so %(player)s is not the declarer",
                      winner=table.name(bids.declarer or 0), player=table.name(declarer)),
                    "4.1.5",
                )
        elif game in (NORMAL, SOLO):
            raise RuleViolation(
                "bids.game", T("Everybody passed, so nobody plays %(game)s", game=A_GAME[game]),
                "6.3.8",
            )
        elif game is None and n not in PARTNER_PLAYERS:
            game = THROWN_IN if table.no_misere else MISERE
    if game == FORCED and n not in PARTNER_PLAYERS:
        raise RuleViolation(
            "forced.players",
            T("A forced game is played only with 7 or 8 players; with %(players)s, all passes "
              "give a Misère", players=n), "6.3.8",
        )
    if game == MISERE and table.no_misere:
        raise RuleViolation(
            "misere.off", T("Under “No Misère” an all-pass hand is thrown in, not played"), "8",
        )
    if game == THROWN_IN and not table.no_misere:
        raise RuleViolation(
            "thrown-in.off",
            T("A hand is thrown in only under the “No Misère” variant; otherwise all passes "
              "give a Misère or a forced game") if n in PARTNER_PLAYERS else
            T("A hand is thrown in only under the “No Misère” variant; otherwise all passes "
              "give a Misère"), "8",
        )
    if game in (MISERE, THROWN_IN) and declarer is not None:
        raise RuleViolation(
            "declarer.misere",
            T("There is no declarer in %(game)s: every player plays alone", game=A_GAME[game]),
            "4.4",
        )
    if game != FORCED and facts.forced_by is not None:
        raise RuleViolation("forced.by", T("Only a forced game is forced by the fool or trump I"),
                            "4.5.1")
    if game == FORCED and declarer is not None and score.explain:
        name = table.name(declarer)
        if facts.forced_by == "F":
            text = T("All passed: %(player)s held the fool and must play a normal game as "
                     "Tappist (forced game)", player=name)
        elif facts.forced_by == "T1":
            text = T("All passed: %(player)s held trump I, the fool being in the Tapp, and must "
                     "play a normal game as Tappist (forced game)", player=name)
        else:
            text = T("All passed: %(player)s held the fool (else trump I) and must play a "
                     "normal game as Tappist (forced game)", player=name)
        score.lines.append(Line(declarer, text, None, "4.5.1"))
    return Declared(game, declarer)


def _bidding_line(bids: Sequence[str], b: Bidding, table: Table, score: HandScore) -> None:
    calls = [_call(bid, table.name(s)) for s, bid in zip(b.speakers, bids)]
    after: Text
    if not b.complete:
        after = T("bidding goes on")
    elif b.game == SOLO and b.declarer is not None:
        after = T("%(player)s plays Solo", player=table.name(b.declarer))
    elif b.game == NORMAL and b.declarer is not None:
        after = T("%(player)s is Tappist", player=table.name(b.declarer))
    else:
        after = T("all passed")
    score.lines.append(Line(None, T("Bidding: %(calls)s → %(outcome)s",
                                    calls=in_order(calls) if calls else
                                    T("no calls yet"), outcome=after), None, "4.1"))


def _call(bid: str, player: str) -> Text:
    if bid == PASS:
        return T("%(player)s passes", player=player)
    if bid == SOLO:
        return T("%(player)s Solo", player=player)
    return T("%(player)s normal", player=player)

