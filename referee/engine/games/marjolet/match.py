"""A Marjolet match: one game, deals folded into running totals up to the target (rules 7)."""

from __future__ import annotations

from typing import Any

from ...errors import RuleViolation
from ...race import finish
from ...tricks import read_trusted
from ..base import Award, HandOutcome, Line, MatchResult, Standing, fold_hands
from ..dealer import out_of_turn, proposed_after
from .facts import HandFacts, parse_hand, read_canonical
from .hand import HandScore, score_hand
from .values import Rules


def rules_of(settings: dict[str, Any]) -> Rules:
    """The variant switches of validated settings (section 8)."""
    return Rules(
        traditional_melds=bool(settings.get("traditional_melds", False)),
        turn_up_seven_10=bool(settings.get("turn_up_seven_10", False)),
        no_trick_10_bonus=bool(settings.get("no_trick_10_bonus", False)),
        sweep_40=bool(settings.get("sweep_40", False)),
    )


class MatchFold:
    """Folds deals one by one; ``start_totals`` lets a test begin mid-game."""

    def __init__(self, settings: dict[str, Any], start_totals: tuple[int, int] = (0, 0)) -> None:
        self.names: list[str] = list(settings["players"])
        self.target: int = settings["target"]
        self.next_dealer: int = settings["first_dealer"]     # the proposal (2.1, 6.1.1)
        self.rules = rules_of(settings)
        self.totals = list(start_totals)
        self.tie = False                   # both at the target or above, equal (7.2)
        self.winner: int | None = None
        self.hands: list[HandOutcome] = []
        self.draft: HandOutcome | None = None

    trusted = False       # the next deal's facts were checked when stored (scoring.py)

    def add(self, number: int, raw: object, last: bool = False) -> None:
        known = read_trusted(read_canonical, raw) if self.trusted else None
        trusted = known is not None
        facts = parse_hand(raw) if known is None else known
        if self.winner is not None:
            raise RuleViolation(
                "match.over",
                f"The game is over: {self.names[self.winner]} won it with "
                f"{self.totals[self.winner]}",
                "7.3",
            )
        due = self.next_dealer
        dealer = due if facts.dealer is None else facts.dealer
        score = score_hand(facts, dealer, self.names, self.rules, trusted)
        new = (self.totals[0] + score.scores[0], self.totals[1] + score.scores[1])
        outcome = self._outcome(number, dealer, facts, score, new)
        if dealer != due:
            outcome.lines.insert(0, out_of_turn(dealer, due, self.names))
        if facts.end is None:
            if not last:
                raise RuleViolation(
                    "hand.unfinished", "Only the last deal can still be in progress", "6.1"
                )
            outcome.complete = False
            outcome.summary = "in progress"
            self.draft = outcome
            return
        self.next_dealer = proposed_after(dealer)           # alternates every deal (2.1)
        self._end(outcome, new)
        self.hands.append(outcome)

    def _outcome(
        self, number: int, dealer: int, facts: HandFacts, score: HandScore,
        totals: tuple[int, int],
    ) -> HandOutcome:
        lines = list(score.lines)
        so_far = " so far" if facts.end is None else ""
        for player in (0, 1):
            lines.append(Line(
                player, f"{self.names[player]}: deal score{so_far}", score.scores[player], "6.2"
            ))
        return HandOutcome(
            number=number, dealer=dealer, scores=score.scores, totals_after=totals,
            lines=lines, summary="", detail={"facts": facts, "score": score},
        )

    def _end(self, outcome: HandOutcome, new: tuple[int, int]) -> None:
        names, target = self.names, self.target
        self.totals = list(new)
        done = finish(new, target)
        if done.winner is None and not done.tie:
            self.tie = False
            outcome.summary = f"{names[0]} {new[0]}, {names[1]} {new[1]}"
            return
        if done.tie:
            self.tie = True
            outcome.detail["tie"] = True
            outcome.summary = f"both at {new[0]}: another deal, totals kept"
            outcome.lines.append(Line(
                None, f"Both totals are {new[0]}, at {target} or more and equal: another deal "
                "is played with the totals kept", None, "7.2",
            ))
            return
        winner = done.winner
        assert winner is not None
        loser = 1 - winner
        if len(done.reached) == 1:
            reason = f"{names[winner]} reaches {new[winner]} (≥ {target})"
        else:
            reason = (
                f"both at {target} or more: {names[winner]}'s {new[winner]} beats "
                f"{new[loser]}"
            )
        self.winner = winner
        self.tie = False
        outcome.award = Award(winner, 1, reason)
        outcome.summary = f"{names[winner]} wins the game {new[winner]}–{new[loser]}"
        outcome.lines.append(Line(
            winner, f"{reason}: {names[winner]} wins the game", None, "7.2",
        ))

    def result(self) -> MatchResult:
        return MatchResult(self.hands, self.standing(), self.draft)

    def standing(self) -> Standing:
        names, totals = self.names, self.totals
        victory = [0, 0]
        if self.winner is not None:
            w = self.winner
            victory[w] = 1
            phase = f"Game over: {names[w]} wins {totals[w]}–{totals[1 - w]}"
        elif self.tie:
            phase = (
                f"Both at {totals[0]}: another deal with the totals kept, then the same rule "
                "again"
            )
        else:
            phase = f"Game to {self.target} in progress"
        return Standing(
            totals=(totals[0], totals[1]), victory=(victory[0], victory[1]),
            dealer=self.next_dealer if self.draft is None else self.draft.dealer, phase=phase,
            over=self.winner is not None, winner=self.winner,
        )


def score_match(settings: dict[str, Any], hands: list[Any]) -> MatchResult:
    return fold_hands(MatchFold(settings), hands, "Deal")
