"""A Tartli match: hands folded into running totals, games, buli and the end (rules 7)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

from ...errors import RuleViolation
from ...race import Finish, RaceRules, award_reason, finish, game_award, judge_call
from ...tricks import read_trusted
from ...words import N, T, Text
from ..base import Award, HandOutcome, Line, MatchResult, Standing, fold_hands
from ..dealer import out_of_turn, proposed_after
from .facts import Claim, Decider, End, HandFacts, Played, parse_hand, read_canonical
from .hand import HandScore, score_hand
from .stored import Stored, StoredDetail, score_stored

RACE = RaceRules(target=501, award=1, big_award=2, far_behind_at_most=250, wrong_call_award=1)


def UNIT(amount: int) -> Text:       # noqa: N802 - the race's unit, as ``judge_call`` says it
    """"1 buli", "2 buli": the race's award, a whole sentence per language (7.2)."""
    return N("%(num)s buli", "%(num)s buli", amount, num=amount)

TARGET = RACE.target
NOT_REACHED = Finish((), None)


def _buli(amount: int) -> Text:
    if amount == 2:
        return T("2 buli (maccs)")
    return UNIT(amount)


class MatchFold:
    """Folds hands one by one; ``start_totals`` lets a test begin mid-game.

    Trusted hands (``trusted``, set by scoring.py for facts the app checked and wrote): a
    stored hand is scored from its JSON without the checks of 6.3, its lines written when
    first read (``stored.py``); one that cannot be (its cards recorded) is read as it stands
    (``read_canonical``) and scored without those checks. THE CONTRACT: what a trusted fold
    skips depends only on the hand's own facts (its dealer as recorded), the settings and the
    names, never on the hands before it. So a hand without a recorded dealer (scored with
    the dealer due, which the hands before it decide) is checked in full, and every check of
    the match's course stays in the trusted fold: the match over (7.5), a hand in progress
    before the last (6.1), a decider hand due or not (7.4); the 501 claim's verdict (7.3),
    the awards, the buli and the dealer due are worked out from the totals for every hand.
    """

    def __init__(
        self, settings: dict[str, Any], start_totals: tuple[int, int] = (0, 0)
    ) -> None:
        # tuples: the fold's state is kept after every hand (scoring.py), a list copied each time
        self.names: tuple[str, ...] = tuple(settings["players"])
        self.target: int = settings["target"]
        self.next_dealer: int = settings["first_dealer"]     # the proposal (2.1, 6.1.1)
        self.totals: tuple[int, int] = (start_totals[0], start_totals[1])
        self.buli = (0, 0)
        self.decider = False
        self.winner: int | None = None
        self.hands: list[HandOutcome] = []
        self.draft: HandOutcome | None = None

    trusted = False       # the next hand's facts were checked when stored (scoring.py)

    def add(self, number: int, raw: object, last: bool = False) -> None:
        stored = score_stored(raw, self.names) if self.trusted else None
        if stored is None:
            facts, trusted = self._read(raw)
            end = facts.end
        else:
            end = stored.end
        if self.winner is not None:
            raise RuleViolation(
                "match.over",
                N("The match is over: %(player)s reached %(num)s buli",
                  "The match is over: %(player)s reached %(num)s buli", self.target,
                  player=self.names[self.winner], num=self.target),
                "7.5",
            )
        due = self.next_dealer
        if end is None:
            if not last:
                raise RuleViolation(
                    "hand.unfinished", T("Only the last hand can still be in progress"), "6.1"
                )
            read = stored or self._score(raw, facts, trusted, due)
            scores = read.scores
            tentative = (self.totals[0] + scores[0], self.totals[1] + scores[1])
            self.draft, _ = self._outcome(
                number, read, tentative, T("in progress"), due, stored is not None
            )
            self.draft.complete = False
            return
        if self.decider and not isinstance(end, Decider):
            raise RuleViolation(
                "decider.due",
                T("Both totals were equal at %(total)s: this is a decider hand, with no claims; "
                  "record who scored first", total=self.totals[0]),
                "7.4",
            )
        if not self.decider and isinstance(end, Decider):
            raise RuleViolation(
                "decider.not-due", T("A decider hand follows only a tie of 501 or more"), "7.4"
            )
        read = stored or self._score(raw, facts, trusted, due)
        dealer = read.dealer
        self.next_dealer = proposed_after(dealer)   # alternates, a decider hand included (2.1)
        before = self.totals
        scores = read.scores
        new = (before[0] + scores[0], before[1] + scores[1])
        outcome, tail = self._outcome(number, read, new, "", due, stored is not None)
        if isinstance(end, Played):
            self._end_played(outcome, new, tail)
        elif isinstance(end, Claim):
            self._end_claim(outcome, end, before, scores, tail)
        else:
            first = end.first
            outcome.totals_after = before
            self._award(outcome, Award(
                first, 1, T("%(player)s scored first in the decider hand",
                            player=self.names[first])
            ), "7.4", tail)
        self.hands.append(outcome)

    def _read(self, raw: object) -> tuple[HandFacts, bool]:
        """A hand's facts, and whether they are scored without the checks of 6.3: a trusted
        hand's read as they stand, its dealer recorded; else every fact read and checked."""
        known = read_trusted(read_canonical, raw) if self.trusted else None
        if known is not None and known.dealer is not None:
            return known, True
        return parse_hand(raw), False

    def _score(self, raw: object, facts: HandFacts, trusted: bool, due: int) -> Stored:
        """A hand not read by ``score_stored`` scored from its facts, with the dealer recorded,
        else the one due."""
        dealer = due if facts.dealer is None else facts.dealer
        score = score_hand(facts, dealer, self.names, trusted)
        return Stored(dealer, facts.end, score.scores, raw, self.names, (facts, score))

    def _outcome(
        self, number: int, read: Stored, totals: tuple[int, ...], summary: str, due: int,
        later: bool,
    ) -> tuple[HandOutcome, list[Line]]:
        """The hand's outcome, and the list its lines of the match's course go to (a claim's
        count, an award): its lines; with ``later`` (a stored hand), its lines and its
        ``detail`` are made when first read, from the hand's own and that list."""
        if not later:
            facts, score = read.facts, read.score
            lines = _lines(self.names, score, read.dealer, due, read.end, [])
            detail = {"facts": facts, "verdicts": score.verdicts, "score": score}
            return HandOutcome(
                number, read.dealer, read.scores, totals, lines, summary, detail=detail
            ), lines
        tail: list[Line] = []
        return HandOutcome.explained_later(
            partial(_stored_lines, self.names, read, due, tail),
            number=number, dealer=read.dealer, scores=read.scores, totals_after=totals,
            summary=summary, detail=StoredDetail(read),
        ), tail

    def _end_played(self, outcome: HandOutcome, new: tuple[int, int], tail: list[Line]) -> None:
        # most hands: the race goes on (``finish``'s answer then)
        done = NOT_REACHED if new[0] < TARGET and new[1] < TARGET else finish(new, TARGET)
        if not done.reached:
            self.totals = new
            outcome.summary = T("no one reached 501")
            return
        if len(done.reached) == 1:
            (p,) = done.reached
            amount = game_award(RACE, new[1 - p])
            reason = T("%(player)s reached %(total)s; %(other)s has %(award)s",
                       player=self.names[p], total=new[p], other=self.names[1 - p],
                       award=award_reason(RACE, new[1 - p], UNIT))
            self._award(outcome, Award(p, amount, reason), "7.2", tail)
        elif done.winner is not None:
            p = done.winner
            self._award(outcome, Award(
                p, 1, T("both over 501, %(player)s's %(total)s is the higher → 1 buli",
                        player=self.names[p], total=new[p])
            ), "7.2", tail)
        else:
            self.totals = new
            self.decider = True
            outcome.summary = T("both at %(total)s: a decider hand follows", total=new[0])
            tail.append(Line(
                None, T("Both totals are %(total)s: a decider hand follows; the totals stay",
                        total=new[0]),
                None, "7.4",
            ))

    def _end_claim(
        self, outcome: HandOutcome, end: Claim, before: tuple[int, ...],
        scores: tuple[int, int], tail: list[Line],
    ) -> None:
        counts = (before[0] + scores[0], before[1] + scores[1])
        for player in (0, 1):
            # a claim's hand score: its melds and béla, then the piles of the completed tricks
            # (7.3.2), all known from the score and the piles
            piles = end.piles[player]
            parts = [before[player], scores[player] - piles, piles]
            tail.append(Line(
                player,
                T("%(player)s's count: total %(total)s + melds %(melds)s + piles %(piles)s = "
                  "%(count)s", player=self.names[player], total=parts[0], melds=parts[1],
                  piles=parts[2], count=counts[player]),
                None, "7.3.2",
            ))
        verdict = judge_call(RACE, end.claimant, counts, UNIT)
        who = self.names[end.claimant]
        outcome.totals_after = counts
        outcome.detail["claim_right"] = verdict.right
        self._award(outcome, Award(
            verdict.winner, verdict.award,
            T("%(player)s claims 501 — %(verdict)s", player=who, verdict=verdict.reason)
        ), "7.3", tail)

    def _award(self, outcome: HandOutcome, award: Award, rule: str, tail: list[Line]) -> None:
        outcome.award = award
        outcome.reset = True
        name = self.names[award.winner]
        outcome.summary = T("%(player)s wins %(buli)s", player=name, buli=_buli(award.amount))
        tail.append(Line(
            award.winner, T("%(reason)s: %(player)s wins %(buli)s; both totals reset to 0",
                            reason=award.reason, player=name, buli=_buli(award.amount)),
            None, rule,
        ))
        buli = [*self.buli]
        buli[award.winner] += award.amount
        self.buli = (buli[0], buli[1])
        self.totals = (0, 0)
        self.decider = False
        if self.buli[award.winner] >= self.target:
            self.winner = award.winner

    def result(self) -> MatchResult:
        return MatchResult(self.hands, self.standing(), self.draft)

    def standing(self) -> Standing:
        if self.winner is not None:
            phase = T("Match over: %(player)s wins %(won)s–%(lost)s",
                      player=self.names[self.winner], won=self.buli[self.winner],
                      lost=self.buli[1 - self.winner])
        elif self.decider:
            phase = T("Decider hand: the first to score wins 1 buli; no claims")
        else:
            phase = T("Game in progress")
        return Standing(
            totals=self.totals, victory=self.buli,
            dealer=self.next_dealer if self.draft is None else self.draft.dealer, phase=phase,
            next_hand="decider" if self.decider else "normal",
            over=self.winner is not None, winner=self.winner,
        )


def _lines(
    names: Sequence[str], score: HandScore, dealer: int, due: int, end: End | None,
    tail: list[Line],
) -> list[Line]:
    """A hand's lines: the dealer out of turn (2.1), the hand's own, its hand scores (6.2),
    then those of the match's course (``tail``)."""
    lines = list(score.lines)
    if dealer != due:
        lines.insert(0, out_of_turn(dealer, due, list(names)))
    if not isinstance(end, Decider):
        for player in (0, 1):
            lines.append(Line(player, T("%(player)s: hand score", player=names[player]),
                              score.scores[player], "6.2"))
    lines.extend(tail)
    return lines


def _stored_lines(names: Sequence[str], read: Stored, due: int, tail: list[Line]) -> list[Line]:
    """A stored hand's lines (``_lines``), its score read in full."""
    return _lines(names, read.score, read.dealer, due, read.end, tail)


def score_match(settings: dict[str, Any], hands: list[Any]) -> MatchResult:
    return fold_hands(MatchFold(settings), hands)

