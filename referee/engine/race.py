"""What the race games share: first to a target wins a game, a bigger award when the loser is
far behind, and a call-out ("I have N", "enough") that is either right or wrong."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .words import T


@dataclass(frozen=True)
class RaceRules:
    target: int             # a game is won by reaching this many points or more
    award: int              # what the winner of a game takes normally
    big_award: int          # ... when the loser is far behind
    far_behind_at_most: int  # the loser is far behind when his total is at most this
    wrong_call_award: int   # what the opponents take for a wrong call-out
    opponent: str = "opponent"   # the other side: "opponent", or "opponents" for teams


@dataclass(frozen=True)
class Verdict:
    winner: int
    award: int
    right: bool
    reason: str


def game_award(rules: RaceRules, loser_total: int) -> int:
    return rules.big_award if loser_total <= rules.far_behind_at_most else rules.award


Unit = Callable[[int], str]
"""What a race game's awards are counted in: a function that says an amount as one whole
phrase through ``N``, so that each language says its own plural
(``lambda n: N("%(num)s matchstick", "%(num)s matchsticks", n, num=n)``)."""


def award_reason(rules: RaceRules, loser_total: int, unit: Unit) -> str:
    if loser_total <= rules.far_behind_at_most:
        return T("%(total)s ≤ %(limit)s → %(award)s", total=loser_total,
                 limit=rules.far_behind_at_most, award=unit(rules.big_award))
    return T("%(total)s ≥ %(limit)s → %(award)s", total=loser_total,
             limit=rules.far_behind_at_most + 1, award=unit(rules.award))


def judge_call(rules: RaceRules, claimant: int, counts: tuple[int, int], unit: Unit) -> Verdict:
    """A call-out by ``claimant`` (0 or 1) with both players' counts at that moment.

    Right when the claimant has reached the target, whatever the opponent has (the first to
    claim wins even with fewer points); wrong otherwise, and the opponent takes the fixed award.
    """
    other = 1 - claimant
    teams = rules.opponent == "opponents"
    if counts[claimant] >= rules.target:
        award = game_award(rules, counts[other])
        why = award_reason(rules, counts[other], unit)
        if teams:
            reason = T("%(count)s ≥ %(target)s: right; opponents %(award)s",
                       count=counts[claimant], target=rules.target, award=why)
        else:
            reason = T("%(count)s ≥ %(target)s: right; opponent %(award)s",
                       count=counts[claimant], target=rules.target, award=why)
        return Verdict(claimant, award, True, reason)
    amount = unit(rules.wrong_call_award)
    if teams:
        reason = T("%(count)s < %(target)s: wrong; %(award)s to the opponents",
                   count=counts[claimant], target=rules.target, award=amount)
    else:
        reason = T("%(count)s < %(target)s: wrong; %(award)s to the opponent",
                   count=counts[claimant], target=rules.target, award=amount)
    return Verdict(other, rules.wrong_call_award, False, reason)


@dataclass(frozen=True)
class Finish:
    """Where a race to a target stands after a hand with no call-out: the first to the target
    wins; when both sides are there, the higher total wins; equal totals play another hand with
    the totals kept (Tartli 7.2, Stovkahra 7.1.2, Marjolet 7.2)."""

    reached: tuple[int, ...]   # the sides at the target or above, in side order
    winner: int | None         # who wins the game, if anyone does

    @property
    def tie(self) -> bool:
        """Both sides at the target or above with equal totals: another hand."""
        return bool(self.reached) and self.winner is None


def finish(totals: tuple[int, ...] | list[int], target: int) -> Finish:
    reached = tuple(side for side, total in enumerate(totals) if total >= target)
    if len(reached) == 1:
        return Finish(reached, reached[0])
    best = max((totals[side] for side in reached), default=None)
    leaders = [side for side in reached if totals[side] == best]
    return Finish(reached, leaders[0] if len(leaders) == 1 else None)
