"""Who won which trick, as far as the facts of a deal tell (rules 6.3.2, 6.3.3 and 6.3.9).

Many facts name a trick's winner: the trick record, the cards played, the melds and the
exchange of the turn after it (only its winner may, 4.2.1 and 4.4.1), the winners of trick 10
and of the last trick, and the sweep. They must all agree.
"""

from __future__ import annotations

from ...cards import FRENCH
from ...errors import RuleViolation
from .facts import End, HandFacts
from .record import Record
from .values import LAST_SIX, MELD_TRICKS, TRICKS

Claim = tuple[int, str]         # (player, what says so)


def _claim_text(claim: Claim, number: int, names: list[str], facts: HandFacts) -> str:
    player, source = claim
    name = names[player]
    if source == "recorded":
        return f"the trick record gives it to {name}"
    if source == "cards":
        cards = facts.tricks[number - 1].cards
        assert cards is not None
        led, second = (FRENCH.short_name(card) for card in cards)
        return f"the cards played to it ({led} led, then {second}) give it to {name}"
    if source == "trick10":
        return f"{name} is entered as the winner of trick 10"
    if source == "last":
        return f"{name} is entered as the winner of the last trick"
    if source == "sweep":
        return f"{name} is entered as winning all of tricks 11–16"
    if source == "exchange":
        return f"{name} exchanged the trump 7 after it"
    return f"{name} melded after it"


def known_winners(facts: HandFacts, record: Record | None, names: list[str]) -> list[int | None]:
    """The winner of each of the 16 tricks as far as the facts tell, checking that they agree:
    only the winner of a trick melds or exchanges in the turn after it (4.2.1, 4.4.1)."""
    claims: list[list[Claim]] = [[] for _ in range(TRICKS)]
    end = facts.end
    if end is not None:
        claims[MELD_TRICKS - 1].append((end.trick10, "trick10"))
        claims[TRICKS - 1].append((end.last, "last"))
        if end.sweep is not None:
            for number in LAST_SIX:
                claims[number - 1].append((end.sweep, "sweep"))
    for number, trick in enumerate(facts.tricks, 1):
        if trick.winner is not None:
            claims[number - 1].append((trick.winner, "recorded"))
    if record is not None:
        for number, winner in enumerate(record.winners, 1):
            claims[number - 1].append((winner, "cards"))
    for number, trick in enumerate(facts.tricks, 1):
        if trick.exchange is not None:
            claims[number - 1].append((trick.exchange, "exchange"))
        for player in (0, 1):
            if trick.melds[player]:
                claims[number - 1].append((player, "melds"))
    winners: list[int | None] = []
    for number, said in enumerate(claims, 1):
        first = said[0] if said else None
        for claim in said[1:]:
            assert first is not None
            if claim[0] != first[0]:
                raise _conflict(first, claim, number, names, facts)
        winners.append(None if first is None else first[0])
    return winners


def _conflict(
    first: Claim, other: Claim, number: int, names: list[str], facts: HandFacts
) -> RuleViolation:
    sources = {first[1], other[1]}
    if "melds" in sources or "exchange" in sources:
        doer = other if other[1] in ("melds", "exchange") else first
        basis = first if doer is other else other
        action = "meld" if doer[1] == "melds" else "exchange the trump 7"
        return RuleViolation(
            "meld.loser" if doer[1] == "melds" else "exchange.loser",
            f"{names[doer[0]]} cannot {action} after trick {number}: "
            f"{_claim_text(basis, number, names, facts)}, and only the winner of a trick melds "
            "or exchanges, in his turn after it",
            "4.2.1" if doer[1] == "melds" else "4.4.1",
        )
    if sources == {"last", "sweep"}:
        sweeper = first if first[1] == "sweep" else other
        return RuleViolation(
            "end.sweep-last",
            f"A sweep by {names[sweeper[0]]} includes the last trick, which cannot then be "
            f"{names[1 - sweeper[0]]}'s",
            "6.3.9",
        )
    return RuleViolation(
        "end.sweep" if "sweep" in sources else "trick.conflict",
        f"Trick {number} cannot have two winners: {_claim_text(first, number, names, facts)}, "
        f"but {_claim_text(other, number, names, facts)}",
        "6.3.2",
    )


def check_sweep(end: End, winners: list[int | None], names: list[str]) -> None:
    """The sweep is derived from the tricks when they are known (6.3.2)."""
    last_six = {winners[number - 1] for number in LAST_SIX}
    if end.sweep is None and len(last_six) == 1 and None not in last_six:
        (sweeper,) = last_six
        assert sweeper is not None
        raise RuleViolation(
            "end.sweep-missing",
            f"{names[sweeper]} won all of tricks 11–16: that is a sweep; record it",
            "6.3.2",
        )
