"""A Tartli match: hands folded into running totals, games, buli and the end (rules 7)."""

from __future__ import annotations

from typing import Any

from ...errors import RuleViolation
from ...race import RaceRules, award_reason, finish, game_award, judge_call
from ...tricks import read_trusted
from ..base import Award, HandOutcome, Line, MatchResult, Standing, fold_hands
from ..dealer import out_of_turn, proposed_after
from .facts import Claim, Decider, HandFacts, Played, parse_hand, read_canonical
from .hand import HandScore, score_hand

RACE = RaceRules(target=501, award=1, big_award=2, far_behind_at_most=250, wrong_call_award=1)
UNIT = "buli"


def _buli(amount: int) -> str:
    return f"{amount} buli" + (" (maccs)" if amount == 2 else "")


class MatchFold:
    """Folds hands one by one; ``start_totals`` lets a test begin mid-game."""

    def __init__(
        self, settings: dict[str, Any], start_totals: tuple[int, int] = (0, 0)
    ) -> None:
        self.names: list[str] = settings["players"]
        self.target: int = settings["target"]
        self.next_dealer: int = settings["first_dealer"]     # the proposal (2.1, 6.1.1)
        self.totals = list(start_totals)
        self.buli = [0, 0]
        self.decider = False
        self.winner: int | None = None
        self.hands: list[HandOutcome] = []
        self.draft: HandOutcome | None = None

    trusted = False       # the next hand's facts were checked when stored (scoring.py)

    def add(self, number: int, raw: object, last: bool = False) -> None:
        known = read_trusted(read_canonical, raw) if self.trusted else None
        trusted = known is not None
        facts = parse_hand(raw) if known is None else known
        if self.winner is not None:
            raise RuleViolation(
                "match.over",
                f"The match is over: {self.names[self.winner]} reached {self.target} buli",
                "7.5",
            )
        due = self.next_dealer
        dealer = due if facts.dealer is None else facts.dealer
        if facts.end is None:
            if not last:
                raise RuleViolation(
                    "hand.unfinished", "Only the last hand can still be in progress", "6.1"
                )
            score = score_hand(facts, dealer, self.names, trusted)
            tentative = tuple(t + s for t, s in zip(self.totals, score.scores))
            self.draft = self._outcome(
                number, dealer, facts, score, tentative, "in progress", due
            )
            self.draft.complete = False
            return
        if self.decider and not isinstance(facts.end, Decider):
            raise RuleViolation(
                "decider.due",
                f"Both totals were equal at {self.totals[0]}: this is a decider hand, with no "
                "claims; record who scored first",
                "7.4",
            )
        if not self.decider and isinstance(facts.end, Decider):
            raise RuleViolation(
                "decider.not-due", "A decider hand follows only a tie of 501 or more", "7.4"
            )
        score = score_hand(facts, dealer, self.names, trusted)
        self.next_dealer = proposed_after(dealer)   # alternates, a decider hand included (2.1)
        before = tuple(self.totals)
        new = tuple(t + s for t, s in zip(self.totals, score.scores))
        outcome = self._outcome(number, dealer, facts, score, new, "", due)
        if isinstance(facts.end, Played):
            self._end_played(outcome, new)
        elif isinstance(facts.end, Claim):
            self._end_claim(outcome, facts.end, before, score)
        else:
            assert isinstance(facts.end, Decider)
            first = facts.end.first
            outcome.totals_after = before
            self._award(outcome, Award(
                first, 1, f"{self.names[first]} scored first in the decider hand"
            ), "7.4")
        self.hands.append(outcome)

    def _outcome(
        self, number: int, dealer: int, facts: HandFacts, score: HandScore,
        totals: tuple[int, ...], summary: str, due: int,
    ) -> HandOutcome:
        lines = list(score.lines)
        if dealer != due:
            lines.insert(0, out_of_turn(dealer, due, self.names))
        if not isinstance(facts.end, Decider):
            for player in (0, 1):
                lines.append(Line(
                    player, f"{self.names[player]}: hand score", score.scores[player], "6.2"
                ))
        return HandOutcome(
            number=number, dealer=dealer, scores=score.scores, totals_after=totals,
            lines=lines, summary=summary,
            detail={"facts": facts, "verdicts": score.verdicts, "score": score},
        )

    def _end_played(self, outcome: HandOutcome, new: tuple[int, ...]) -> None:
        done = finish(new, RACE.target)
        if not done.reached:
            self.totals = list(new)
            outcome.summary = "no one reached 501"
            return
        if len(done.reached) == 1:
            (p,) = done.reached
            amount = game_award(RACE, new[1 - p])
            reason = (
                f"{self.names[p]} reached {new[p]}; {self.names[1 - p]} has "
                + award_reason(RACE, new[1 - p], UNIT)
            )
            self._award(outcome, Award(p, amount, reason), "7.2")
        elif done.winner is not None:
            p = done.winner
            self._award(outcome, Award(
                p, 1, f"both over 501, {self.names[p]}'s {new[p]} is the higher → 1 buli"
            ), "7.2")
        else:
            self.totals = list(new)
            self.decider = True
            outcome.summary = f"both at {new[0]}: a decider hand follows"
            outcome.lines.append(Line(
                None, f"Both totals are {new[0]}: a decider hand follows; the totals stay",
                None, "7.4",
            ))

    def _end_claim(
        self, outcome: HandOutcome, end: Claim, before: tuple[int, ...], score: HandScore
    ) -> None:
        counts = (before[0] + score.scores[0], before[1] + score.scores[1])
        for player in (0, 1):
            parts = [before[player], score.melds[player] + score.bela[player], score.tricks[player]]
            outcome.lines.append(Line(
                player,
                f"{self.names[player]}'s count: total {parts[0]} + melds {parts[1]} + "
                f"piles {parts[2]} = {counts[player]}",
                None, "7.3.2",
            ))
        verdict = judge_call(RACE, end.claimant, counts, UNIT)
        who = self.names[end.claimant]
        outcome.totals_after = counts
        outcome.detail["claim_right"] = verdict.right
        self._award(outcome, Award(
            verdict.winner, verdict.award, f"{who} claims 501 — {verdict.reason}"
        ), "7.3")

    def _award(self, outcome: HandOutcome, award: Award, rule: str) -> None:
        outcome.award = award
        outcome.reset = True
        name = self.names[award.winner]
        outcome.summary = f"{name} wins {_buli(award.amount)}"
        outcome.lines.append(Line(
            award.winner, f"{award.reason}: {name} wins {_buli(award.amount)}; both totals "
            "reset to 0", None, rule,
        ))
        self.buli[award.winner] += award.amount
        self.totals = [0, 0]
        self.decider = False
        if self.buli[award.winner] >= self.target:
            self.winner = award.winner

    def result(self) -> MatchResult:
        return MatchResult(self.hands, self.standing(), self.draft)

    def standing(self) -> Standing:
        if self.winner is not None:
            phase = (
                f"Match over: {self.names[self.winner]} wins "
                f"{self.buli[self.winner]}–{self.buli[1 - self.winner]}"
            )
        elif self.decider:
            phase = "Decider hand: the first to score wins 1 buli; no claims"
        else:
            phase = "Game in progress"
        return Standing(
            totals=tuple(self.totals), victory=tuple(self.buli),
            dealer=self.next_dealer if self.draft is None else self.draft.dealer, phase=phase,
            next_hand="decider" if self.decider else "normal",
            over=self.winner is not None, winner=self.winner,
        )


def score_match(settings: dict[str, Any], hands: list[Any]) -> MatchResult:
    return fold_hands(MatchFold(settings), hands)

