"""A Marjolet match: one game, deals folded into running totals up to the target (rules 7)."""

from __future__ import annotations

from typing import Any

from ...errors import RuleViolation
from ...race import finish
from ...tricks import read_trusted
from ...words import T, Text
from ..base import Award, HandOutcome, Line, MatchResult, Standing, fold_hands
from ..dealer import proposed_after
from .facts import parse_hand, read_canonical
from .hand import score_hand
from .trusted import DealDetail, deal_lines, quick_scores
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
    """Folds deals one by one; ``start_totals`` lets a test begin mid-game.

    A trusted deal (``trusted``, set by scoring.py: facts the app checked when it stored them)
    is scored without the checks of its facts. THE CONTRACT: what a trusted fold skips depends
    only on the deal's own facts (its dealer as stored), the match settings and the names,
    never on the deals before it (the totals, the game being over, the dealer due), for a
    stored deal may be folded trusted after an earlier one was changed. So the trusted fold
    skips the checks of the facts (``parse_hand``'s, ``score_hand``'s: the trump 7, the melds,
    the trick winners, the cards, aces and tens), and only for a deal with its dealer recorded
    (the cards' leaders and winners follow from the dealer: a deal without one is read with
    the dealer due, and checked in full); it keeps the checks of the match: no deal after the
    game is over (7.3), only the last deal in progress (6.1). A complete deal with its dealer
    is scored from the facts of the score alone (``trusted.quick_scores``: no cards read, no
    trick winners worked out), its lines and ``detail`` made when first read (``DealDetail``).
    """

    def __init__(self, settings: dict[str, Any], start_totals: tuple[int, int] = (0, 0)) -> None:
        # a tuple: the fold's state is kept after every deal (scoring.py), a list copied each time
        self.names: tuple[str, ...] = tuple(settings["players"])
        self.target: int = settings["target"]
        self.next_dealer: int = settings["first_dealer"]     # the proposal (2.1, 6.1.1)
        self.rules = rules_of(settings)
        self.totals: tuple[int, int] = (start_totals[0], start_totals[1])
        self.tie = False                   # both at the target or above, equal (7.2)
        self.winner: int | None = None
        self.hands: list[HandOutcome] = []
        self.draft: HandOutcome | None = None

    trusted = False       # the next deal's facts were checked when stored (scoring.py)

    def add(self, number: int, raw: object, last: bool = False) -> None:
        if self.trusted and self.winner is None:
            try:
                quick = quick_scores(raw, self.rules)      # type: ignore[arg-type]
            except (KeyError, TypeError, ValueError, AttributeError, IndexError):
                quick = None        # not the canonical form (as ``read_trusted``)
            if quick is not None:
                assert isinstance(raw, dict)
                self._add_quick(number, raw, quick)
                return
        known = read_trusted(read_canonical, raw) if self.trusted else None
        if known is not None and known.dealer is None:
            known = None            # read with the dealer due: checked in full (the contract)
        trusted = known is not None
        facts = parse_hand(raw) if known is None else known
        if self.winner is not None:
            raise RuleViolation(
                "match.over",
                T("The game is over: %(player)s won it with %(total)s",
                  player=self.names[self.winner], total=self.totals[self.winner]),
                "7.3",
            )
        due = self.next_dealer
        dealer = due if facts.dealer is None else facts.dealer
        names = list(self.names)
        score = score_hand(facts, dealer, names, self.rules, trusted)
        new = (self.totals[0] + score.scores[0], self.totals[1] + score.scores[1])
        if facts.end is None:
            if not last:
                raise RuleViolation(
                    "hand.unfinished", T("Only the last deal can still be in progress"), "6.1"
                )
            self.draft = HandOutcome(
                number=number, dealer=dealer, scores=score.scores, totals_after=new,
                lines=deal_lines(score, facts, names, dealer, due, None),
                summary=T("in progress"), complete=False,
                detail={"facts": facts, "score": score},
            )
            return
        self.next_dealer = proposed_after(dealer)           # alternates every deal (2.1)
        summary, award, tie, end = self._end(new)
        detail: dict[str, Any] = {"facts": facts, "score": score}
        if tie:
            detail["tie"] = True
        self.hands.append(HandOutcome(
            number=number, dealer=dealer, scores=score.scores, totals_after=new,
            lines=deal_lines(score, facts, names, dealer, due, end), summary=summary,
            award=award, detail=detail,
        ))

    def _add_quick(self, number: int, raw: dict[str, Any], quick: tuple[int, int, int]) -> None:
        """A trusted complete deal with its dealer: its scores from the facts of the score,
        its lines and detail made when first read."""
        dealer, a, b = quick
        due = self.next_dealer
        new = (self.totals[0] + a, self.totals[1] + b)
        self.next_dealer = proposed_after(dealer)           # alternates every deal (2.1)
        summary, award, tie, end = self._end(new)
        detail = DealDetail((raw, dealer, due, self.names, self.rules, end))
        if tie:
            dict.__setitem__(detail, "tie", True)
        self.hands.append(HandOutcome.explained_later(
            detail.lines, number=number, dealer=dealer, scores=(a, b), totals_after=new,
            summary=summary, award=award, detail=detail,
        ))

    def _end(self, new: tuple[int, int]) -> tuple[Text, Award | None, bool, Line | None]:
        """The new totals after a complete deal: its summary, the game's award if it ends it,
        whether both are tied at the target or above (7.2), and the line that says so."""
        names, target = self.names, self.target
        self.totals = new
        if new[0] < target and new[1] < target:
            self.tie = False
            summary = T("%(first)s %(first_total)s, %(second)s %(second_total)s",
                        first=names[0], first_total=new[0], second=names[1],
                        second_total=new[1])
            return summary, None, False, None
        if new[0] == new[1]:            # both at the target or above, equal
            self.tie = True
            return (
                T("both at %(total)s: another deal, totals kept", total=new[0]), None, True,
                Line(None, T("Both totals are %(total)s, at %(target)s or more and equal: "
                             "another deal is played with the totals kept", total=new[0],
                             target=target), None, "7.2"),
            )
        done = finish(new, target)
        winner = done.winner
        assert winner is not None
        loser = 1 - winner
        values = {"player": names[winner], "total": new[winner], "other": new[loser],
                  "target": target}
        if len(done.reached) == 1:
            reason = T("%(player)s reaches %(total)s (≥ %(target)s)", **values)
            line = T("%(player)s reaches %(total)s (≥ %(target)s): %(player)s wins the game",
                     **values)
        else:
            reason = T("both at %(target)s or more: %(player)s's %(total)s beats %(other)s",
                       **values)
            line = T("both at %(target)s or more: %(player)s's %(total)s beats %(other)s: "
                     "%(player)s wins the game", **values)
        self.winner = winner
        self.tie = False
        return (
            T("%(player)s wins the game %(total)s–%(other)s", **values),
            Award(winner, 1, reason), False, Line(winner, line, None, "7.2"),
        )

    def result(self) -> MatchResult:
        return MatchResult(self.hands, self.standing(), self.draft)

    def standing(self) -> Standing:
        names, totals = self.names, self.totals
        victory = [0, 0]
        if self.winner is not None:
            w = self.winner
            victory[w] = 1
            phase = T("Game over: %(player)s wins %(total)s–%(other)s", player=names[w],
                      total=totals[w], other=totals[1 - w])
        elif self.tie:
            phase = T("Both at %(total)s: another deal with the totals kept, then the same rule "
                      "again", total=totals[0])
        else:
            phase = T("Game to %(target)s in progress", target=self.target)
        return Standing(
            totals=(totals[0], totals[1]), victory=(victory[0], victory[1]),
            dealer=self.next_dealer if self.draft is None else self.draft.dealer, phase=phase,
            over=self.winner is not None, winner=self.winner,
        )


def score_match(settings: dict[str, Any], hands: list[Any]) -> MatchResult:
    return fold_hands(MatchFold(settings), hands, "Deal")
