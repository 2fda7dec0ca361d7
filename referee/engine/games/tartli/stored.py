"""A stored Tartli hand read and scored straight from its JSON (issue 12).

A hand the app checked and wrote itself (``hand_to_json``'s form, its dealer recorded) needs
none of the checks of 6.3 again: its facts are those ``read_canonical`` reads (most tricks the
same few values: a winner and no melds), and its score is the meld contests of tricks 1–8
(each trick's leader the winner of the one before, trick 1's the player after the dealer,
2.4), the béla and the end, as ``score_hand`` scores them; the explanation lines are
``score_hand``'s own, written when first read (``HandScore.lines``).

The fold needs of such a hand only its dealer, its end and its two scores: those are read at
once, in one pass over the tricks' melds and winners (the contests of tricks 1–8), the béla
and the end. Its facts and its score in full (the verdicts of the contests, the points by
kind) are made when first asked for (``Stored.facts``, ``Stored.score``), from the same
stored hand: a long match's first view shows only the scores.

What is skipped here depends only on the hand's own facts and its recorded dealer, never on
the hands before it. A hand without a recorded dealer (the one due would be taken: the hands
before it decide), with its cards recorded (6.1.6: the winners come from the cards) or that
this cannot read as it stands (at once or later: its facts in full) is not read here:
``score_stored`` gives None.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache, partial
from operator import itemgetter
from typing import Any

from ...cards import HUNGARIAN
from ...errors import RuleViolation
from ..base import Line
from ..later import LaterDetail
from .facts import (
    Bela,
    Claim,
    Decider,
    End,
    HandFacts,
    Played,
    Trick,
    read_canonical,
    read_end,
)
from .hand import HandScore, TrickVerdict, score_hand
from .melds import BELA_POINTS, Meld, contest_reason, contest_winner, parse_meld
from .values import LAST_TRICK, MELD_TRICKS, STICHMATSCH

_MELDS, _WINNER = itemgetter("melds"), itemgetter("winner")
_BARE = {winner: Trick(winner, ((), ())) for winner in (0, 1, None)}   # no melds, no cards
_WINNERS = frozenset(_BARE)


class Stored:
    """A stored hand as the fold reads it: its dealer, its end and its scores (player 0's,
    player 1's) at once; its facts and its score in full when first asked for."""

    __slots__ = ("dealer", "end", "scores", "_raw", "_names", "_read")

    def __init__(
        self, dealer: int, end: End | None, scores: tuple[int, int], raw: Any,
        names: Sequence[str], read: tuple[HandFacts, HandScore] | None = None,
    ) -> None:
        self.dealer, self.end, self.scores = dealer, end, scores
        self._raw, self._names, self._read = raw, names, read

    @property
    def facts(self) -> HandFacts:
        return self._in_full()[0]

    @property
    def score(self) -> HandScore:
        return self._in_full()[1]

    def _in_full(self) -> tuple[HandFacts, HandScore]:
        if self._read is None:
            self._read = _in_full(self._raw, self.dealer, self.end, self._names)
        return self._read


class StoredDetail(LaterDetail):
    """A stored hand's ``detail`` (its facts, the verdicts of its contests, its score), made
    when first read."""

    __slots__ = ("_stored",)

    def __init__(self, stored: Stored) -> None:
        self._stored: Stored | None = stored

    def _made(self) -> bool:
        return self._stored is None

    def _make(self) -> None:
        stored, self._stored = self._stored, None
        assert stored is not None
        score = stored.score
        dict.setdefault(self, "facts", stored.facts)
        dict.setdefault(self, "verdicts", score.verdicts)
        dict.setdefault(self, "score", score)


def score_stored(raw: object, names: Sequence[str]) -> Stored | None:
    """A stored hand's dealer, end and scores, its facts and score read when asked for, its
    lines written when read; None where the hand is to be read and scored otherwise (no
    dealer recorded, cards recorded, not canonical)."""
    try:
        return _score(raw, names)      # type: ignore[arg-type]
    except (RuleViolation, KeyError, TypeError, ValueError, AttributeError, IndexError):
        return None


def _score(raw: dict[str, Any], names: Sequence[str]) -> Stored | None:
    dealer = raw["dealer"]
    tricks = raw["tricks"]
    if dealer not in (0, 1) or type(dealer) is not int or (tricks and "cards" in tricks[0]):
        return None        # the cards are recorded from trick 1 on, or not at all (6.1.6)
    end = read_end(raw["end"])
    if isinstance(end, Decider):
        return Stored(dealer, end, (0, 0), raw, names, (read_canonical(raw), HandScore()))
    if "exchange" not in raw:
        return None        # not the canonical form
    trumps = HUNGARIAN.parse(raw["indicator"]).suit
    melds = _meld_points(tricks, dealer, trumps, end)
    if melds is None:
        return None        # not the canonical form (as ``_in_full`` would find it later)
    a, b = melds
    bela = raw["bela"]
    if bela is not None:
        if "trick" not in bela or bela["player"] not in (0, 1):
            return None    # not the canonical form
        if bela["player"] == 0:
            a += BELA_POINTS
        else:
            b += BELA_POINTS
    won = _won(end)
    return Stored(dealer, end, (a + won[0], b + won[1]), raw, names)


def _won(end: End | None) -> list[int]:
    """What each player's tricks score (6.2): the stichmatsch, else the piles and the last
    trick; a claim's piles (7.3.2); nothing while the hand is in progress."""
    won = [0, 0]
    if isinstance(end, Played):
        if end.stichmatsch is not None:
            won[end.stichmatsch] = STICHMATSCH
        else:
            won = [end.piles[0], end.piles[1]]
            won[end.last] += LAST_TRICK
    elif isinstance(end, Claim):
        won = [end.piles[0], end.piles[1]]
    return won


def _meld_points(
    tricks: list[dict[str, Any]], dealer: int, trumps: str, end: End | None
) -> tuple[int, int] | None:
    """The points of the melds that score (4.2, tricks 1–8; a trick in progress at a claim
    before its step 7 scores nothing, 7.3.2), by player: each contest as ``_contests`` has it,
    reading of the tricks only their melds and their winners; None where a trick after trick 8
    has melds (never written by the app, 4.3.1) or a winner is no player."""
    unscored = end.completed + 1 if isinstance(end, Claim) and not end.step7 else 0
    points = [0, 0]
    leader: int | None = 1 - dealer                   # trick 1's (2.4)
    for number, trick in enumerate(tricks, 1):
        both = trick["melds"]
        if both[0] or both[1]:
            if number > MELD_TRICKS:
                return None
            if leader is None:      # after a trick with no winner: never stored (6.1.2)
                raise ValueError("a trick after the one in progress")
            _, winner, _, won, _ = _contest(tuple(both[0]), tuple(both[1]), leader, trumps)
            if winner is not None and number != unscored:
                points[winner] += won[winner]
        leader = trick["winner"]                      # the next trick's leader (2.4)
        if leader not in _WINNERS:
            return None
    return points[0], points[1]


def _in_full(
    raw: dict[str, Any], dealer: int, end: End | None, names: Sequence[str]
) -> tuple[HandFacts, HandScore]:
    """The facts and the score of a hand ``_score`` read: every trick's winner, the verdicts
    of the contests, the points by kind, the lines written when read."""
    tricks = raw["tricks"]
    shown = list(map(_MELDS, tricks))
    indicator = HUNGARIAN.parse(raw["indicator"])
    read = list(map(_BARE.__getitem__, map(_WINNER, tricks)))
    verdicts: list[TrickVerdict] = []
    melds = [0, 0]
    _contests(read, shown, dealer, indicator.suit, end, verdicts, melds)
    bela = raw["bela"]
    facts = HandFacts(
        indicator, raw["exchange"], tuple(read),
        None if bela is None else Bela(bela["player"], bela["trick"]), end, dealer,
    )
    belas = [0, 0]
    if facts.bela is not None:
        belas[facts.bela.player] = BELA_POINTS
    return facts, HandScore.explained_later(
        partial(_lines, facts, names), verdicts, melds, belas, _won(end)
    )


def _contests(
    read: list[Trick], shown: list[list[list[str]]], dealer: int, trumps: str,
    end: End | None, verdicts: list[TrickVerdict], melds: list[int],
) -> None:
    """The tricks with melds into ``read``; their contests (tricks 1–8, 4.2) into
    ``verdicts``, their points into ``melds``; a trick in progress at a claim before its
    step 7 scores nothing (7.3.2)."""
    unscored = end.completed + 1 if isinstance(end, Claim) and not end.step7 else 0
    leader: int | None = 1 - dealer                   # trick 1's (2.4)
    for number, both in enumerate(shown[:MELD_TRICKS], 1):
        if both[0] or both[1]:
            if leader is None:      # after a trick with no winner: never stored (6.1.2)
                raise ValueError("a trick after the one in progress")
            by_player, winner, reason, points, tricks = _contest(
                tuple(both[0]), tuple(both[1]), leader, trumps)
            read[number - 1] = tricks[read[number - 1].winner]
            if number != unscored:
                verdicts.append(TrickVerdict(
                    number, leader, by_player, winner, reason, points, True))
                if winner is not None:
                    melds[winner] += points[winner]
            else:
                verdicts.append(TrickVerdict(
                    number, leader, by_player, winner, reason, points, False))
        leader = read[number - 1].winner              # the next trick's leader (2.4)


def _lines(facts: HandFacts, names: Sequence[str]) -> list[Line]:
    """The hand's lines, as ``score_hand`` writes them."""
    assert facts.dealer is not None
    return score_hand(facts, facts.dealer, names, True).lines


@lru_cache(maxsize=4096)
def _contest(
    first: tuple[str, ...], second: tuple[str, ...], leader: int, trumps: str
) -> tuple[
    tuple[tuple[Meld, ...], tuple[Meld, ...]], int | None, str, tuple[int, int],
    dict[int | None, Trick],
]:
    """The meld contest of a trick (4.2), player 0's melds ``first`` and player 1's
    ``second``, ``leader`` leading: both players' melds, whose scored (None: neither's), why,
    the points by player, and the trick read (its melds) by its winner (0, 1, None)."""
    by_player = (tuple(map(parse_meld, first)), tuple(map(parse_meld, second)))
    led, other = by_player[leader], by_player[1 - leader]
    role = contest_winner(led, other, trumps)
    winner = None if role is None else (leader, 1 - leader)[role]
    points = 0 if winner is None else sum(m.points for m in by_player[winner])
    return (
        by_player, winner, contest_reason(led, other, trumps),
        (0, 0) if winner is None else (points, 0) if winner == 0 else (0, points),
        {w: Trick(w, by_player) for w in (0, 1, None)},
    )
