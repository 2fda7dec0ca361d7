"""Who won which trick, as far as the facts of a deal tell (rules 6.3.2, 6.3.3 and 6.3.9).

Many facts name a trick's winner: the trick record, the cards played, the melds and the
exchange of the turn after it (only its winner may, 4.2.1 and 4.4.1), the winners of trick 10
and of the last trick, and the sweep. They must all agree.
"""

from __future__ import annotations

from ...cards import FRENCH
from ...errors import RuleViolation
from ...words import T, Text
from .facts import End, HandFacts
from .record import Record
from .values import LAST_SIX, MELD_TRICKS, TRICKS

Claim = tuple[int, str]         # (player, what says so)


def _claim_text(claim: Claim, number: int, names: list[str], facts: HandFacts) -> Text:
    """What says that a player won trick ``number``, as a clause of a refusal."""
    player, source = claim
    name = names[player]
    if source == "recorded":
        return T("the trick record gives it to %(player)s", player=name)
    if source == "cards":
        cards = facts.tricks[number - 1].cards
        assert cards is not None
        led, second = (FRENCH.short_name(card) for card in cards)
        return T("the cards played to it (%(led)s led, then %(second)s) give it to %(player)s",
                 led=led, second=second, player=name)
    if source == "trick10":
        return T("%(player)s is entered as the winner of trick 10", player=name)
    if source == "last":
        return T("%(player)s is entered as the winner of the last trick", player=name)
    if source == "sweep":
        return T("%(player)s is entered as winning all of tricks 11–16", player=name)
    if source == "exchange":
        return T("%(player)s exchanged the trump 7 after it", player=name)
    return T("%(player)s melded after it", player=name)


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
        values = {"player": names[doer[0]], "number": number,
                  "because": _claim_text(basis, number, names, facts)}
        if doer[1] == "melds":
            return RuleViolation(
                "meld.loser",
                T("%(player)s cannot meld after trick %(number)s: %(because)s, and only the "
                  "winner of a trick melds or exchanges, in the turn after it", **values),
                "4.2.1",
            )
        return RuleViolation(
            "exchange.loser",
            T("%(player)s cannot exchange the trump 7 after trick %(number)s: %(because)s, and "
              "only the winner of a trick melds or exchanges, in the turn after it", **values),
            "4.4.1",
        )
    if sources == {"last", "sweep"}:
        sweeper = first if first[1] == "sweep" else other
        return RuleViolation(
            "end.sweep-last",
            T("A sweep by %(player)s includes the last trick, which cannot then be %(other)s's",
              player=names[sweeper[0]], other=names[1 - sweeper[0]]),
            "6.3.9",
        )
    return RuleViolation(
        "end.sweep" if "sweep" in sources else "trick.conflict",
        T("Trick %(number)s cannot have two winners: %(one)s, but %(other)s", number=number,
          one=_claim_text(first, number, names, facts),
          other=_claim_text(other, number, names, facts)),
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
            T("%(player)s won all of tricks 11–16: that is a sweep; record it",
              player=names[sweeper]),
            "6.3.2",
        )
