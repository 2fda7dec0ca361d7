"""Checking and scoring one Tartli hand from its facts (rules sections 4–6)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...cards import HUNGARIAN, Card
from ...errors import RuleViolation
from ...words import N, T, Text, listing
from ..base import Line
from .facts import Claim, Decider, HandFacts, Played
from .melds import (
    BELA_POINTS,
    Conceded,
    Meld,
    SeqMeld,
    SetMeld,
    best_item,
    check_eligible,
    contest_reason,
    contest_winner,
    reuse_allowed,
)
from .record import (
    bela_before,
    check_piles,
    check_record,
    meld_in_trick,
    read_record,
    with_winners,
)
from .values import LAST_TRICK, MELD_TRICKS, PILES_TOTAL, STICHMATSCH, TRICKS, possible_pile


@dataclass
class TrickVerdict:
    """The meld contest of one trick, as the table sees it at once."""

    number: int
    leader: int
    melds: tuple[tuple[Meld, ...], tuple[Meld, ...]]
    winner: int | None          # whose sets and sequences scored
    reason: str
    points: tuple[int, int]
    counted: bool               # False for the trick in progress at a claim before step 7


@dataclass
class HandScore:
    verdicts: list[TrickVerdict] = field(default_factory=list)
    melds: list[int] = field(default_factory=lambda: [0, 0])
    bela: list[int] = field(default_factory=lambda: [0, 0])
    tricks: list[int] = field(default_factory=lambda: [0, 0])
    lines: list[Line] = field(default_factory=list)

    @property
    def scores(self) -> tuple[int, int]:
        return (
            self.melds[0] + self.bela[0] + self.tricks[0],
            self.melds[1] + self.bela[1] + self.tricks[1],
        )

    @classmethod
    def explained_later(
        cls, explain: Callable[[], list[Line]], verdicts: list[TrickVerdict], melds: list[int],
        bela: list[int], tricks: list[int],
    ) -> HandScore:
        """A score whose ``lines`` are made by ``explain`` when first read (a stored hand's:
        ``stored.py``); everything else is as given."""
        score = cls(verdicts, melds, bela, tricks)
        del score.lines
        object.__setattr__(score, "_explain", explain)
        return score

    def __getattr__(self, name: str) -> Any:
        # called only for an attribute that is not there: the lines not yet made
        if name != "lines":
            raise AttributeError(name)
        lines = self.lines = self._explain()
        return lines


def leaders(facts: HandFacts, dealer: int) -> list[int | None]:
    """Leader of tricks 1..16 (index 0 = trick 1); None where the table did not record it."""
    result: list[int | None] = [1 - dealer]
    for number in range(2, TRICKS + 1):
        prev = facts.tricks[number - 2].winner if number - 2 < len(facts.tricks) else None
        result.append(prev)
    return result


def score_hand(
    facts: HandFacts, dealer: int, names: Sequence[str], trusted: bool = False
) -> HandScore:
    """Check every rule of 6.3 that the facts allow and score the hand (6.2). ``trusted``:
    facts the app checked when it stored them (with this dealer): scored without the checks."""
    if isinstance(facts.end, Decider):
        if not trusted:
            _check_structure(facts)
        return HandScore()
    record = read_record(facts, dealer, names)
    if record is not None:
        facts = with_winners(facts, record)
    lead = leaders(facts, dealer)
    trumps = facts.trumps
    score = HandScore()
    assert trumps is not None
    if not trusted:
        _check_structure(facts)
        _check_exchange(facts, lead)
        _check_cards(facts, lead, names)
    if record is not None and not trusted:
        check_record(facts, record, names)
        if isinstance(facts.end, (Played, Claim)):
            completed = TRICKS if isinstance(facts.end, Played) else facts.end.completed
            check_piles(facts.end.piles, record, completed, names)
    scored: list[list[Meld]] = [[], []]
    for number, trick in enumerate(facts.tricks, 1):
        if number > MELD_TRICKS or not (trick.melds[0] or trick.melds[1]):
            continue
        leader = lead[number - 1]
        assert leader is not None      # every earlier trick has a winner (structure)
        verdict = _contest(facts, number, leader, scored, names, trusted)
        score.verdicts.append(verdict)
        for player in (0, 1):
            score.melds[player] += verdict.points[player] if verdict.counted else 0
        _explain_trick(score, verdict, names)
    if facts.bela:
        score.bela[facts.bela.player] = BELA_POINTS
        score.lines.append(Line(
            facts.bela.player,
            T("Béla (King and Over of %(suit)s) by %(player)s",
              suit=HUNGARIAN.suit_names[trumps], player=names[facts.bela.player]),
            BELA_POINTS, "4.7",
        ))
    if isinstance(facts.end, Played):
        _score_played(facts, facts.end, score, names, trusted)
    elif isinstance(facts.end, Claim):
        _score_claim_piles(facts, facts.end, score, names, trusted)
    return score


def _check_structure(facts: HandFacts) -> None:
    end = facts.end
    for number, trick in enumerate(facts.tricks[:-1], 1):
        if trick.winner is None:
            raise RuleViolation(
                "trick.order",
                T("Trick %(trick)s has no winner, but a later trick is recorded", trick=number),
                "6.1.2",
            )
    unfinished = bool(facts.tricks) and facts.tricks[-1].winner is None
    recorded = len(facts.tricks) - unfinished
    if isinstance(end, Played) and unfinished:
        raise RuleViolation(
            "trick.unfinished",
            T("Trick %(trick)s has no winner: every trick of a played-out hand has one",
              trick=len(facts.tricks)),
            "6.3.3",
        )
    if isinstance(end, Played) and MELD_TRICKS < len(facts.tricks) < TRICKS:
        raise RuleViolation(
            "trick.count",
            T("A played-out hand has exactly %(tricks)s tricks, but %(recorded)s winners are "
              "recorded: record all %(tricks)s, or none after trick %(last)s", tricks=TRICKS,
              recorded=len(facts.tricks), last=MELD_TRICKS),
            "6.3.3",
        )
    if isinstance(end, Claim):
        if recorded > end.completed:
            raise RuleViolation(
                "claim.after",
                N("%(num)s trick is recorded as won, but the claim came after %(completed)s: "
                  "no trick is played after a claim",
                  "%(num)s tricks are recorded as won, but the claim came after "
                  "%(completed)s: no trick is played after a claim", recorded,
                  num=recorded, completed=end.completed),
                "6.3.3",
            )
        if unfinished and recorded != end.completed:
            raise RuleViolation(
                "claim.after",
                T("The trick in progress at the claim is trick %(trick)s, but melds are "
                  "recorded for trick %(recorded)s", trick=end.completed + 1,
                  recorded=len(facts.tricks)),
                "6.3.3",
            )
        last_possible = end.completed + 1
        if facts.bela and facts.bela.trick > last_possible:
            raise RuleViolation(
                "claim.after", T("Béla is recorded after the claim: no play after a claim"),
                "6.3.3"
            )
        if facts.exchange and facts.exchange > last_possible:
            raise RuleViolation(
                "claim.after", T("The exchange is recorded after the claim"), "6.3.3"
            )
    if end is None or isinstance(end, Decider):
        return
    if facts.indicator is None:
        raise RuleViolation("fact.indicator", T("Pick the trump indicator card"), "2.2")


def _check_exchange(facts: HandFacts, lead: list[int | None]) -> None:
    if facts.exchange is None:
        return
    assert facts.indicator is not None
    if facts.indicator == Card("7", facts.indicator.suit):
        raise RuleViolation(
            "exchange.indicator-seven",
            T("The trump indicator is the trump 7 itself: there is nothing to exchange"),
            "2.8",
        )


def _shows(facts: HandFacts, lead: list[int | None]) -> list[tuple[int | None, Card, int, str]]:
    """Every moment a player showed a card: (player, card, trick, what)."""
    assert facts.trumps is not None
    shows: list[tuple[int | None, Card, int, str]] = []
    for number, trick in enumerate(facts.tricks, 1):
        for player in (0, 1):
            for meld in trick.melds[player]:
                for card in sorted(meld.cards):
                    shows.append((player, card, number, meld_in_trick(meld.name, number)))
    if facts.bela:
        for rank in ("K", "O"):
            shows.append((
                facts.bela.player, Card(rank, facts.trumps), facts.bela.trick,
                bela_before(facts.bela.trick),
            ))
    return shows


def _check_cards(facts: HandFacts, lead: list[int | None], names: Sequence[str]) -> None:
    """Cards never pass between the players, except the indicator and, after an exchange, the
    trump 7 (6.3.6)."""
    assert facts.indicator is not None and facts.trumps is not None
    indicator, seven = facts.indicator, Card("7", facts.trumps)
    loser7 = None if len(facts.tricks) < 7 or facts.tricks[6].winner is None \
        else 1 - facts.tricks[6].winner
    k = facts.exchange
    exchanger = lead[k - 1] if k else None
    shows = _shows(facts, lead)
    if k:
        # the exchange comes before declaring (4.4.1): the trump 7 is held only up to
        # trick k - 1, the indicator from trick k on
        when = T("the exchange before trick %(trick)s", trick=k)
        shows.append((exchanger, seven, k - 1, when))
        shows.append((exchanger, indicator, k, when))
    by_card: dict[Card, list[tuple[int | None, Card, int, str]]] = {}
    for show in shows:
        by_card.setdefault(show[1], []).append(show)
    for card, seen in by_card.items():
        name = HUNGARIAN.long_name(card)
        if card == indicator:
            for player, _, number, what in seen:
                if k is not None:
                    ok = number >= k and (exchanger is None or player == exchanger)
                else:
                    ok = number == MELD_TRICKS and (loser7 is None or player == loser7)
                if not ok:
                    raise RuleViolation(
                        "cards.indicator",
                        _indicator_shown(name, k, None if player is None else names[player],
                                         what),
                        "6.3.6",
                    )
            seen = [s for s in seen if s[2] >= (k or MELD_TRICKS)]
        elif card == seven and k is not None:
            late = [s for s in seen if s[2] >= k]
            for player, _, number, what in late:
                if number != MELD_TRICKS or (loser7 is not None and player != loser7):
                    raise RuleViolation(
                        "cards.seven",
                        T("After the exchange before trick %(exchange)s the %(card)s lies under "
                          "the talon: only the loser of trick 7 can show it, and only in trick "
                          "8 (%(when)s)", exchange=k, card=name, when=what),
                        "6.3.6",
                    )
            seen = [s for s in seen if s[2] < k]
        players = {player for player, *_ in seen if player is not None}
        if len(players) > 1:
            first = next(s for s in seen if s[0] == 0)
            second = next(s for s in seen if s[0] == 1)
            raise RuleViolation(
                "cards.both",
                T("The %(card)s is shown by both players (%(first)s: %(first_when)s; "
                  "%(second)s: %(second_when)s): cards never pass between the players",
                  card=name, first=names[0], first_when=first[3], second=names[1],
                  second_when=second[3]),
                "6.3.6",
            )


def _indicator_shown(card: str, exchange: int | None, player: str | None, when: str) -> Text:
    """The refusal of the trump indicator shown by ``player`` (None: by no one known)."""
    if exchange is not None:
        if player is None:
            return T("The %(card)s is the trump indicator: it belongs to the player who "
                     "exchanged before trick %(exchange)s, from then on; it cannot be shown by "
                     "anyone in %(when)s", card=card, exchange=exchange, when=when)
        return T("The %(card)s is the trump indicator: it belongs to the player who exchanged "
                 "before trick %(exchange)s, from then on; it cannot be shown by %(player)s in "
                 "%(when)s", card=card, exchange=exchange, player=player, when=when)
    if player is None:
        return T("The %(card)s is the trump indicator: only the loser of trick 7 takes it and "
                 "shows it, and only in trick 8; it cannot be shown by anyone in %(when)s",
                 card=card, when=when)
    return T("The %(card)s is the trump indicator: only the loser of trick 7 takes it and "
             "shows it, and only in trick 8; it cannot be shown by %(player)s in %(when)s",
             card=card, player=player, when=when)


def _contest(
    facts: HandFacts, number: int, leader: int, scored: list[list[Meld]], names: Sequence[str],
    trusted: bool = False,
) -> TrickVerdict:
    """The meld contest of trick ``number`` (4.2), who may declare and what checked first
    (4.3.3, 4.5, 4.6) unless ``trusted`` (the hand was checked when it was stored)."""
    trick = facts.tricks[number - 1]
    trumps = facts.trumps
    assert trumps is not None
    second = 1 - leader
    lm, sm = trick.melds[leader], trick.melds[second]
    if not trusted:
        try:
            check_eligible(lm, sm)
        except RuleViolation as error:
            error.message = T("Trick %(trick)s: %(player)s may not declare. %(why)s",
                              trick=number, player=names[second], why=error.message)
            raise error.of_seat(second).in_trick(number) from None
        for player in (0, 1):
            try:
                _check_declarable(
                    facts, number, player, trick.melds[player], scored[player], names
                )
            except RuleViolation as error:
                raise error.of_seat(player).in_trick(number) from None
    try:
        winner_role = contest_winner(lm, sm, trumps)
    except RuleViolation as error:
        # a conceded announcement refused: its player's, unless both conceded (6.1.4)
        conceding = [p for p in (0, 1) if any(isinstance(m, Conceded) for m in trick.melds[p])]
        if len(conceding) == 1:
            error.of_seat(conceding[0])
        raise error.in_trick(number) from None
    winner = None if winner_role is None else (leader, second)[winner_role]
    points = [0, 0]
    if winner is not None:
        points[winner] = sum(m.points for m in trick.melds[winner])
    end = facts.end
    counted = not (
        isinstance(end, Claim) and number == end.completed + 1 and not end.step7
    )
    if counted and winner is not None:
        scored[winner].extend(trick.melds[winner])
    return TrickVerdict(
        number, leader, trick.melds, winner, contest_reason(lm, sm, trumps),
        (points[0], points[1]), counted,
    )


def _check_declarable(
    facts: HandFacts, number: int, player: int, items: tuple[Meld, ...],
    scored: list[Meld], names: Sequence[str],
) -> None:
    """Re-use (4.6), a set scoring twice, and at most 9 cards shown at once (4.3.3)."""
    shown = set().union(*(m.cards for m in items)) if items else set()
    bela = facts.bela
    if bela and bela.player == player and bela.trick == number and facts.trumps:
        shown |= {Card("K", facts.trumps), Card("O", facts.trumps)}
    if len(shown) > 9:
        raise RuleViolation(
            "meld.too-many-cards",
            T("Trick %(trick)s: %(player)s would show %(cards)s cards at once, but holds only 9",
              trick=number, player=names[player], cards=len(shown)),
            "4.3.3",
        )
    for meld in items:
        if isinstance(meld, SetMeld) and meld in scored:
            raise RuleViolation(
                "meld.set-twice",
                T("Trick %(trick)s: %(player)s already scored %(meld)s in this hand; a set that "
                  "has scored can never score again", trick=number, player=names[player],
                  meld=meld.name),
                "4.6.2",
            )
        if isinstance(meld, SeqMeld):
            for earlier in scored:
                if (
                    isinstance(earlier, SeqMeld) and earlier.suit == meld.suit
                    and not reuse_allowed(meld, earlier)
                ):
                    raise RuleViolation(
                        "meld.reuse",
                        T("Trick %(trick)s: %(player)s may not declare %(meld)s after scoring "
                          "%(earlier)s: a new sequence in the same suit needs a higher top "
                          "card, or the same top and more cards, or a missing card between the "
                          "two", trick=number, player=names[player], meld=meld.name,
                          earlier=earlier.name),
                        "4.6.3",
                    )


def _meld_name(meld: Meld | None) -> str:
    return T("nothing") if meld is None else meld.name


def _explain_trick(score: HandScore, verdict: TrickVerdict, names: Sequence[str]) -> None:
    n = verdict.number
    if verdict.winner is None:
        return
    if not verdict.counted:
        said = [
            T("%(player)s %(melds)s", player=names[p],
              melds=listing(tuple(m.name for m in verdict.melds[p])))
            for p in (verdict.leader, 1 - verdict.leader) if verdict.melds[p]
        ]
        score.lines.append(Line(
            None, T("Trick %(trick)s: %(declared)s — not scored: the claim came before step 7",
                    trick=n, declared=listing(tuple(said))),
            0, "7.3.2",
        ))
        return
    declared = [p for p in (0, 1) if verdict.melds[p]]
    if len(declared) == 2:
        loser = 1 - verdict.winner
        best = [best_item(verdict.melds[p]) for p in (0, 1)]
        score.lines.append(Line(
            loser, T("Trick %(trick)s: %(winner)s's %(best)s outranks %(loser)s's %(other)s — "
                     "%(reason)s", trick=n, winner=names[verdict.winner],
                     best=_meld_name(best[verdict.winner]), loser=names[loser],
                     other=_meld_name(best[loser]), reason=verdict.reason),
            0, "4.2",
        ))
    for meld in verdict.melds[verdict.winner]:
        score.lines.append(Line(
            verdict.winner, T("Trick %(trick)s: %(player)s, %(meld)s", trick=n,
                              player=names[verdict.winner], meld=meld.name),
            meld.points, "4.4.7",
        ))


def _winners(facts: HandFacts, end: Played, names: Sequence[str]) -> list[int | None]:
    """Winner of each of the 16 tricks as far as the facts tell, checking they agree (5)."""
    winners: list[int | None] = [t.winner for t in facts.tricks] + [None] * (
        TRICKS - len(facts.tricks)
    )
    for number in range(1, TRICKS + 1):
        implied = {}
        if end.stichmatsch is not None and number >= MELD_TRICKS:
            implied["stichmatsch"] = end.stichmatsch
        if number == TRICKS:
            implied["last"] = end.last
        for why, player in implied.items():
            known = winners[number - 1]
            if known is not None and known != player:
                if why == "stichmatsch":
                    message = T("Trick %(trick)s is recorded as won by %(recorded)s, but the "
                                "stichmatsch says %(player)s", trick=number,
                                recorded=names[known], player=names[player])
                else:
                    message = T("Trick %(trick)s is recorded as won by %(recorded)s, but the "
                                "last trick says %(player)s", trick=number,
                                recorded=names[known], player=names[player])
                raise RuleViolation("end.conflict", message, "5")
            winners[number - 1] = player
    if end.stichmatsch is None and all(w is not None for w in winners[MELD_TRICKS - 1:]):
        late = set(winners[MELD_TRICKS - 1:])
        if len(late) == 1:
            (sweeper,) = late
            assert sweeper is not None
            raise RuleViolation(
                "end.stichmatsch-missing",
                T("%(player)s won all of tricks 8–16: that is a stichmatsch; switch it on",
                  player=names[sweeper]),
                "5",
            )
    return winners


def _check_piles(
    piles: tuple[int, int], winners: list[int | None], total_tricks: int, names: Sequence[str]
) -> None:
    known = [winners.count(0), winners.count(1)]
    unknown = total_tricks - known[0] - known[1]
    for won_a in range(known[0], known[0] + unknown + 1):
        won = (won_a, total_tricks - won_a)
        if won[1] >= known[1] and all(possible_pile(piles[p], won[p]) for p in (0, 1)):
            return
    for player in (0, 1):
        options = [
            w for w in range(known[player], known[player] + unknown + 1)
            if possible_pile(piles[player], w)
        ]
        if not options:
            if unknown == 0:
                message = N("No cards can make a pile count of %(pile)s for %(player)s, who "
                            "won %(num)s trick",
                            "No cards can make a pile count of %(pile)s for %(player)s, who "
                            "won %(num)s tricks", known[player], pile=piles[player],
                            player=names[player], num=known[player])
            else:
                most = known[player] + unknown
                message = N("No cards can make a pile count of %(pile)s for %(player)s, who "
                            "won %(least)s to %(num)s trick",
                            "No cards can make a pile count of %(pile)s for %(player)s, who "
                            "won %(least)s to %(num)s tricks", most, pile=piles[player],
                            player=names[player], least=known[player], num=most)
            raise RuleViolation("piles.impossible", message, "6.3.2").of_seat(player)
    raise RuleViolation(
        "piles.impossible",
        T("Pile counts of %(first)s and %(second)s cannot both be made with the tricks won",
          first=piles[0], second=piles[1]),
        "6.3.2",
    )


def _score_played(
    facts: HandFacts, end: Played, score: HandScore, names: Sequence[str], trusted: bool = False
) -> None:
    if not trusted:
        _check_played(facts, end, names)
    for player in (0, 1):
        if end.stichmatsch is not None:
            points = STICHMATSCH if player == end.stichmatsch else 0
            score.tricks[player] = points
            text = (
                T("%(player)s: Stichmatsch: all of tricks 8–16, trick points 161",
                  player=names[player]) if points
                else T("%(player)s: Stichmatsch by the opponent: trick points 0 (pile %(pile)s "
                       "not scored)", player=names[player], pile=end.piles[player])
            )
            score.lines.append(Line(player, text, points, "5"))
            continue
        score.tricks[player] = end.piles[player] + (LAST_TRICK if end.last == player else 0)
        score.lines.append(Line(player, T("%(player)s: pile count", player=names[player]),
                                end.piles[player], "3"))
        if end.last == player:
            score.lines.append(Line(player, T("%(player)s: last trick", player=names[player]),
                                    LAST_TRICK, "5"))


def _check_played(facts: HandFacts, end: Played, names: Sequence[str]) -> None:
    if sum(end.piles) != PILES_TOTAL:
        raise RuleViolation(
            "piles.sum",
            T("The two pile counts must add up to %(total)s, not %(first)s + %(second)s = "
              "%(sum)s", total=PILES_TOTAL, first=end.piles[0], second=end.piles[1],
              sum=sum(end.piles)),
            "6.3.1",
        )
    if end.stichmatsch is not None and end.last != end.stichmatsch:
        raise RuleViolation(
            "end.conflict",
            T("A stichmatsch by %(player)s includes the last trick, which cannot then be "
              "%(other)s's", player=names[end.stichmatsch], other=names[end.last]),
            "6.3.7",
        )
    winners = _winners(facts, end, names)
    _check_piles(end.piles, winners, TRICKS, names)


def _score_claim_piles(
    facts: HandFacts, end: Claim, score: HandScore, names: Sequence[str], trusted: bool = False
) -> None:
    if not trusted:
        _check_claim_piles(facts, end, names)
    for player in (0, 1):
        score.tricks[player] = end.piles[player]
        score.lines.append(Line(
            player, T("%(player)s: pile count of the completed tricks (%(completed)s)",
                      player=names[player], completed=end.completed),
            end.piles[player], "7.3.2",
        ))


def _check_claim_piles(facts: HandFacts, end: Claim, names: Sequence[str]) -> None:
    if sum(end.piles) > PILES_TOTAL:
        raise RuleViolation(
            "piles.sum",
            T("The piles of completed tricks cannot hold more than %(total)s", total=PILES_TOTAL),
            "6.3.1",
        )
    winners = [t.winner for t in facts.tricks[: end.completed]]
    _check_piles(end.piles, winners, end.completed, names)
    if not possible_pile(sum(end.piles), end.completed):
        raise RuleViolation(
            "piles.impossible",
            N("The %(cards)s cards of %(num)s completed trick cannot be worth %(sum)s together",
              "The %(cards)s cards of %(num)s completed tricks cannot be worth %(sum)s "
              "together", end.completed, cards=2 * end.completed, num=end.completed,
              sum=sum(end.piles)),
            "6.3.2",
        )
