"""A Troggu evening: hands folded into each player's running balance, and the settle-up
(rules 2.4, 7.5). There is no target: the match lasts as long as the table plays."""

from __future__ import annotations

from itertools import compress, count
from operator import add, not_
from typing import Any

from ...errors import RuleViolation
from ...ledger import settle_up
from ...memo import ByIdentity
from ...tricks import read_trusted
from ...words import N, T, Text
from ..base import HandOutcome, Line, MatchResult, Standing, fold_hands
from ..dealer import proposed_after
from .choices import complete_choices, fillable
from .deal import score_hand
from .facts import HandFacts, parse_hand, read_canonical
from .table import Table


def settle_text(balances: tuple[int, ...] | list[int], names: tuple[str, ...]) -> Text:
    """``Anna pays Carla 90 Rappen; Dora pays Beat 30 Rappen`` (the payments of 7.5.3)."""
    transfers = settle_up(list(balances))
    if not transfers:
        return T("nobody owes anything")
    return _one_by_one([T("%(payer)s pays %(payee)s %(amount)s Rappen", payer=names[p],
                          payee=names[q], amount=a) for p, q, a in transfers])


def _one_by_one(payments: list[Text]) -> Text:
    """Payments in order, each after a semicolon."""
    if len(payments) == 1:
        return payments[0]
    return T("%(first)s; %(rest)s", first=payments[0], rest=_one_by_one(payments[1:]))


class MatchFold:
    """Folds hands one by one; ``start`` lets a test begin mid-evening."""

    def __init__(
        self, settings: dict[str, Any], start: tuple[int, ...] | None = None
    ) -> None:
        self.table = Table.from_settings(settings)
        n = self.table.n
        # a tuple, replaced after each hand (never changed in place: the scoring cache keeps
        # the fold's state after every hand without copying it)
        self.balances: tuple[int, ...] = tuple(start) if start is not None else (0,) * n
        assert len(self.balances) == n and sum(self.balances) == 0
        self.next_dealer: int = settings["first_dealer"]
        self.hands: list[HandOutcome] = []
        self.draft: HandOutcome | None = None

    trusted = False       # the next hand's facts were checked when stored (scoring.py)
    # the balances only add up each hand's payments (no target, 7.5.2): an outcome reads them
    # only as its ``totals_after``, and its number only as ``number`` (scoring.py)
    shifts = "balances"
    prior: HandOutcome | None = None      # the next hand's outcome from the last fold (same)

    def add(self, number: int, raw: object, last: bool = False) -> HandOutcome:
        """Fold one hand. A trusted hand skips only ``_check_seats``, which reads nothing but
        the hand's facts, its dealer and the table (scoring.py's contract); a hand's payments,
        summary and details depend on nothing else either, so a trusted hand's ``prior``
        outcome gives them as they are."""
        prior = self.prior if self.trusted else None
        table, due = self.table, self.next_dealer
        known = None
        if prior is not None:
            facts, dealer = prior.detail["facts"], prior.dealer
            payments, complete = prior.scores, prior.complete
            summary, detail = prior.summary, prior.detail
        else:
            known = read_trusted(read_canonical, raw) if self.trusted else None
            facts = parse_hand(raw) if known is None else known
            dealer = due if facts.dealer is None else facts.dealer
            score = score_hand(facts, dealer, table, trusted=known is not None,
                               explain=known is None)
            payments, complete = tuple(score.payments), score.complete
            summary, detail = score.summary, {"facts": facts, **score.detail}
        after = tuple(map(add, self.balances, payments))
        fields: dict[str, Any] = dict(
            number=number, dealer=dealer, scores=payments, totals_after=after,
            summary=summary, complete=complete, detail=detail,
        )
        if prior is not None or known is not None:
            # the lines when asked for: the same scoring, written out
            outcome = HandOutcome.explained_later(lambda: _lines(
                score_hand(facts, dealer, table, trusted=True).lines, facts, due, table,
            ), **fields)
        else:
            outcome = HandOutcome(lines=_lines(score.lines, facts, due, table), **fields)
        if not complete:
            if not last:
                raise RuleViolation(
                    "hand.unfinished", T("Only the last hand can still be in progress"), "6.1"
                )
            outcome.totals_after = self.balances
            self.draft = outcome
            return outcome
        self.balances = after
        self.next_dealer = proposed_after(dealer, self.table.n)   # to the right (2.4)
        self.hands.append(outcome)
        return outcome

    def result(self) -> MatchResult:
        return MatchResult(self.hands, self.standing(), self.draft)

    def standing(self) -> Standing:
        balances = self.balances
        count = len(self.hands)
        phase = N("%(num)s hand played; settle-up: %(payments)s",
                  "%(num)s hands played; settle-up: %(payments)s", count, num=count,
                  payments=settle_text(balances, self.table.names))
        dealer = self.next_dealer if self.draft is None else self.draft.dealer
        # No target and no winner (7.5.2): ``victory`` repeats the balances, the amounts won.
        return Standing(totals=balances, victory=balances, dealer=dealer, phase=phase)


def _lines(
    lines: list[Line], facts: HandFacts, due: int, table: Table
) -> list[Line]:
    """A hand's lines, with the dealer's out of turn first where that player was not due
    (2.4). One sentence whatever the hand's number: a fold renumbers an outcome it keeps
    (scoring.py), so a line may not depend on it (on hand 1 the first dealer was due, later
    the player to the right of the last dealer: the line names who, not why)."""
    lines = list(lines)
    dealer, names = facts.dealer, table.names
    if dealer is not None and dealer < table.n and dealer != due:
        text = T("%(dealer)s deals (%(due)s was due)", dealer=names[dealer], due=names[due])
        lines.insert(0, Line(dealer, text, None, "2.4"))
    return lines


class _Complete(ByIdentity[bool]):
    """Stored hands found to have nothing to fill in, by identity (``ByIdentity``), asked
    about a whole list at once: a change at hand 1,000 looks into the 999 stored hands around
    it once per process, not on every request, and then finds them here without a Python
    call per hand (issue 12)."""

    def unknown(self, hands: list[dict[str, Any]], start: int = 0) -> list[int]:
        """The positions, from ``start`` on and in order, of the hands not found here. (A
        hand's id found here is the very hand: the memo keeps that object alive.)"""
        known = map(self._by_id.__contains__, map(id, hands[start:]))
        return list(compress(count(start), map(not_, known)))


# Only the hands before a start are remembered: stored hands, which are never changed in place
# (a hand after it may be a copy that an action is about to change).
_NOTHING_TO_FILL = _Complete(20_000)


def _nothing_to_fill(hand: dict[str, Any]) -> bool:
    return hand.get("dealer") is not None and not fillable(hand)


def complete_hands(
    settings: dict[str, Any], hands: list[dict[str, Any]], start: int = 0
) -> list[dict[str, Any]]:
    """The canonical ``hands`` with every missing dealer filled in as the fold reads it (the
    first dealer, then the player to the right of the last dealer: 2.4, 6.1), and the Tappist
    as the maker of a call or discard that does not say who made it. ``start``: the hands
    before it were completed already (stored): each is only checked to have nothing to fill
    in (else all are completed), and the completing resumes after them."""
    n = len(settings["players"])
    start = max(0, min(start, len(hands)))
    for index in _NOTHING_TO_FILL.unknown(hands[:start]):
        if not _nothing_to_fill(hands[index]):
            start = 0
            break
        _NOTHING_TO_FILL.put(hands[index], True)
    completed = list(hands)
    # the hands after the start found here (as most are: stored hands after a change) have
    # nothing to fill in: only the others are looked into, each after the hand before it
    for index in _NOTHING_TO_FILL.unknown(hands, start):
        hand = hands[index]
        if _nothing_to_fill(hand):
            continue
        if hand.get("dealer") is None:
            dealer = (settings["first_dealer"] if index == 0
                      else proposed_after(completed[index - 1]["dealer"], n))   # right (2.4)
            hand = {**hand, "dealer": dealer}
        completed[index] = complete_choices(hand, hand["dealer"], n)
    return completed


def score_match(settings: dict[str, Any], hands: list[Any]) -> MatchResult:
    return fold_hands(MatchFold(settings), hands)
