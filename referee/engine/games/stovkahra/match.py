"""A Stovkahra series: deals folded into game scores, games to 100, dost, matchsticks and the
series (rules section 7 and the variants of section 8)."""

from __future__ import annotations

from typing import Any

from ...errors import RuleViolation
from ...race import RaceRules, award_reason, counted, finish, game_award, judge_call
from ..base import Award, HandOutcome, Line, MatchResult, Standing, fold_hands
from .deal import DealScore, Names, score_deal
from .facts import DealFacts, Dost, Played, parse_deal
from .values import SEATS, team_of

RACE = RaceRules(
    target=100, award=1, big_award=2, far_behind_at_most=49, wrong_call_award=2,
    opponent="opponents",
)
UNIT, UNITS = "matchstick", "matchsticks"


def sticks(amount: int) -> str:
    return counted(amount, UNIT, UNITS)


def take_sticks(piles: list[int], winner: int, amount: int, choice: str) -> int:
    """Apply the winners' choice (7.3.1) to ``piles`` in place: add ``amount`` to their own
    pile, or take it off the opponents', never below 0. Returns how many were lost."""
    if choice == "add":
        piles[winner] += amount
        return 0
    removed = min(amount, piles[1 - winner])
    piles[1 - winner] -= removed
    return amount - removed


class MatchFold:
    """Folds deals one by one; ``start_totals`` and ``start_piles`` let a test begin mid-series."""

    def __init__(
        self, settings: dict[str, Any], start_totals: tuple[int, int] = (0, 0),
        start_piles: tuple[int, int] = (0, 0),
    ) -> None:
        self.names = Names(list(settings["players"]), list(settings["teams"]))
        self.target: int = settings["target"]
        self.first_dealer: int = settings["first_dealer"]
        self.continue_to_20: bool = bool(settings.get("continue_to_20", False))
        self.totals = list(start_totals)
        self.piles = list(start_piles)
        self.tie = False                       # both at 100+ and equal: another deal (7.1.2)
        self.first_to_target: int | None = None   # Continue to 20 (8)
        self.over = False
        self.winner: int | None = None
        self.hands: list[HandOutcome] = []
        self.draft: HandOutcome | None = None

    @property
    def final_target(self) -> int:
        return 2 * self.target if self.continue_to_20 else self.target

    def dealer(self, number: int) -> int:
        return (self.first_dealer + number - 1) % 4      # passes to the left (2.5)

    def add(self, number: int, raw: object, last: bool = False) -> None:
        try:
            facts = parse_deal(raw)
        except RuleViolation as error:
            # The facts reader knows seats, not names: "S: ..." becomes "Eva (S): ...".
            seat, colon, rest = error.message.partition(": ")
            if colon and seat in SEATS:
                error.message = f"{self.names.players[SEATS.index(seat)]} ({seat}): {rest}"
            raise
        if self.over:
            raise RuleViolation(
                "match.over", f"The series is over ({self.standing().phase})", "7.3.2"
            )
        dealer = self.dealer(number)
        score = score_deal(facts, dealer, self.names)
        before = (self.totals[0], self.totals[1])
        new = (before[0] + score.scores[0], before[1] + score.scores[1])
        outcome = self._outcome(number, dealer, facts, score, new)
        if facts.end is None:
            if not last:
                raise RuleViolation(
                    "deal.unfinished", "Only the last deal can still be in progress", "6.1"
                )
            outcome.complete = False
            outcome.summary = "in progress"
            if facts.sticks is not None:
                outcome.detail["sticks_unused"] = True
            self.draft = outcome
            return
        if isinstance(facts.end, Played):
            self._end_played(outcome, facts, new)
        else:
            self._end_dost(outcome, facts, facts.end, before, score)
        if outcome.award is None and facts.sticks is not None:
            outcome.detail["sticks_unused"] = True
        self.hands.append(outcome)

    def _outcome(
        self, number: int, dealer: int, facts: DealFacts, score: DealScore,
        totals: tuple[int, int],
    ) -> HandOutcome:
        lines = list(score.lines)
        so_far = " so far" if facts.end is None else ""
        for team in (0, 1):
            lines.append(Line(
                team, f"{self.names.team(team)}: deal score{so_far}", score.scores[team], "6.2"
            ))
        return HandOutcome(
            number=number, dealer=dealer, scores=score.scores, totals_after=totals,
            lines=lines, summary="", detail={"facts": facts, "score": score},
        )

    def _end_played(self, outcome: HandOutcome, facts: DealFacts, new: tuple[int, int]) -> None:
        teams = self.names.teams
        done = finish(new, RACE.target)
        if not done.reached:
            self.totals = list(new)
            outcome.summary = f"{teams[0]} {new[0]}, {teams[1]} {new[1]}"
            return
        if len(done.reached) == 1:
            (team,) = done.reached
            reason = (
                f"{teams[team]} reach {new[team]}; {teams[1 - team]} have "
                + award_reason(RACE, new[1 - team], UNIT, UNITS)
            )
            award = Award(team, game_award(RACE, new[1 - team]), reason)
            self._award(outcome, facts, award, "7.1.3")
        elif done.winner is not None:
            team = done.winner
            reason = (
                f"both teams at 100 or more: {teams[team]}'s {new[team]} beats "
                f"{new[1 - team]} → {sticks(game_award(RACE, new[1 - team]))}"
            )
            award = Award(team, game_award(RACE, new[1 - team]), reason)
            self._award(outcome, facts, award, "7.1.2")
        else:
            self.totals = list(new)
            self.tie = True
            outcome.detail["tie"] = True
            outcome.summary = f"both at {new[0]}: another deal, scores kept"
            outcome.lines.append(Line(
                None, f"Both teams at {new[0]}: another deal is played with the scores kept "
                "and no shuffle; both already count 100, so the first eligible dost is right",
                None, "7.1.2",
            ))

    def _end_dost(
        self, outcome: HandOutcome, facts: DealFacts, end: Dost, before: tuple[int, int],
        score: DealScore,
    ) -> None:
        counts = (before[0] + score.scores[0], before[1] + score.scores[1])
        for team in (0, 1):
            outcome.lines.append(Line(
                team,
                f"{self.names.team(team)}'s count: game score {before[team]} + combinations "
                f"{score.combinations[team]} + card points {score.points[team]} + sevens "
                f"{score.sevens[team]} = {counts[team]}",
                None, "7.2.3",
            ))
        verdict = judge_call(RACE, team_of(end.caller), counts, UNIT, UNITS)
        when = (
            "right after his declaration" if end.after == 0 else f"on winning trick {end.after}"
        )
        outcome.detail["dost_right"] = verdict.right
        reason = f"{self.names.seat(end.caller)} calls dost {when} — {verdict.reason}"
        self._award(
            outcome, facts, Award(verdict.winner, verdict.award, reason),
            "7.2.4" if verdict.right else "7.2.5",
        )

    def _award(self, outcome: HandOutcome, facts: DealFacts, award: Award, rule: str) -> None:
        teams = self.names.teams
        winner, amount = award.winner, award.amount
        outcome.award = award
        outcome.reset = True
        outcome.lines.append(Line(
            winner, f"{award.reason}: {teams[winner]} win the game and {sticks(amount)}; both "
            "game scores return to 0", None, rule,
        ))
        choice = facts.sticks
        if choice is None:
            choice = "add"
            outcome.detail["sticks_missing"] = True
        outcome.detail["sticks"] = choice
        lost = take_sticks(self.piles, winner, amount, choice)
        if choice == "add":
            text = f"{teams[winner]} add {sticks(amount)} to their pile"
        else:
            text = f"{teams[winner]} take {sticks(amount)} off {teams[1 - winner]}'s pile"
            if lost:
                text += f" (only {amount - lost} could be taken; {lost} lost)"
        outcome.lines.append(Line(
            winner, f"{text}: matchsticks {teams[0]} {self.piles[0]}, {teams[1]} "
            f"{self.piles[1]}", None, "7.3.1",
        ))
        done = "added" if choice == "add" else "taken away"
        outcome.summary = f"{teams[winner]} win the game: {sticks(amount)}, {done}"
        self.totals = [0, 0]
        self.tie = False
        self._series(outcome, winner)

    def _series(self, outcome: HandOutcome, team: int) -> None:
        teams, pile = self.names.teams, self.piles[team]
        if self.continue_to_20 and self.first_to_target is None and pile >= self.target:
            self.first_to_target = team
            outcome.lines.append(Line(
                team, f"{teams[team]} reach {self.target} first: the series goes on to "
                f"{self.final_target}, piles kept (Continue to 20)", None, "8",
            ))
        if pile < self.final_target:
            return
        self.over = True
        if not self.continue_to_20:
            self.winner = team
            text = f"{teams[team]} reach {self.target}: they win the series"
            rule = "7.3.2"
        elif team == self.first_to_target:
            self.winner = team
            text = (
                f"{teams[team]} reached {self.target} first and reach {self.final_target} "
                "first: they win two series"
            )
            rule = "8"
        else:
            text = (
                f"{teams[team]} reach {self.final_target} first, but {teams[1 - team]} reached "
                f"{self.target} first: the series is drawn"
            )
            rule = "8"
        outcome.lines.append(Line(team, text, None, rule))
        outcome.summary += f" — {text}"

    def result(self) -> MatchResult:
        return MatchResult(self.hands, self.standing(), self.draft)

    def standing(self) -> Standing:
        teams, piles = self.names.teams, self.piles
        if self.over and self.winner is None:
            first = self.first_to_target
            assert first is not None
            phase = (
                f"Series drawn {piles[0]}–{piles[1]}: {teams[first]} reached {self.target} "
                f"first, {teams[1 - first]} reached {self.final_target} first"
            )
        elif self.over:
            assert self.winner is not None
            w = self.winner
            two = " two series" if self.continue_to_20 else ""
            phase = f"Series over: {teams[w]} wins{two} {piles[w]}–{piles[1 - w]}"
        elif self.tie:
            phase = (
                f"Both teams at {self.totals[0]}: another deal with the scores kept, no shuffle"
            )
        else:
            phase = "Game in progress"
            if self.first_to_target is not None:
                phase += (
                    f" · {teams[self.first_to_target]} reached {self.target} first: the "
                    f"series goes on to {self.final_target}"
                )
        return Standing(
            totals=(self.totals[0], self.totals[1]), victory=(piles[0], piles[1]),
            dealer=self.dealer(len(self.hands) + 1), phase=phase,
            over=self.over, winner=self.winner,
        )


def score_match(settings: dict[str, Any], hands: list[Any]) -> MatchResult:
    return fold_hands(MatchFold(settings), hands, "Deal")
