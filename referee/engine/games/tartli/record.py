"""The optional card-by-card record (rules 6.1.6): the cards of tricks 1, 2, ... n, checked
against the rules of play (2.5, 2.7) and the other facts, with the piles computed from them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from ...cards import HUNGARIAN, Card
from ...errors import RuleViolation
from ...tricks import cards_of, follower_hands, recorded_tricks
from ...words import T
from .facts import HandFacts
from .values import MELD_TRICKS, TRICKS, card_points, trick_winner


@dataclass(frozen=True)
class Record:
    leaders: tuple[int, ...]
    winners: tuple[int, ...]
    played: dict[Card, tuple[int, int]]          # card → (player, trick)
    points: tuple[int, ...]                      # card points of each recorded trick

    @property
    def complete(self) -> bool:
        return len(self.winners) == TRICKS

    def piles(self, tricks: int) -> tuple[int, int]:
        """Both pile counts after the first ``tricks`` recorded tricks."""
        piles = [0, 0]
        for winner, points in list(zip(self.winners, self.points))[:tricks]:
            piles[winner] += points
        return piles[0], piles[1]


def meld_in_trick(meld: str, trick: int) -> str:
    """When a card was shown: "Four Overs in trick 3"."""
    return T("%(meld)s in trick %(trick)s", meld=meld, trick=trick)


def bela_before(trick: int) -> str:
    return T("béla before the end of trick %(trick)s", trick=trick)


def _name(card: Card) -> str:
    return HUNGARIAN.long_name(card)


def legal_plays(hand: Sequence[Card], led: Card, trumps: str, trick: int) -> list[Card]:
    """The cards the second may play to ``led`` in trick ``trick`` (2.7): anything in tricks
    1–7; from trick 8 a card of the led suit (no duty to beat), else a trump, else anything."""
    if trick < MELD_TRICKS:
        return list(hand)
    follow = [card for card in hand if card.suit == led.suit]
    if follow:
        return follow
    return [card for card in hand if card.suit == trumps] or list(hand)


def read_record(facts: HandFacts, dealer: int, names: Sequence[str]) -> Record | None:
    """The recorded cards from trick 1 on, no card twice, each recorded winner agreeing."""
    count = recorded_tricks([t.cards for t in facts.tricks], "6.1.6")
    if not count:
        return None
    assert facts.trumps is not None
    leader = 1 - dealer
    leaders: list[int] = []
    winners: list[int] = []
    played: dict[Card, tuple[int, int]] = {}
    points: list[int] = []
    for number in range(1, count + 1):
        trick = facts.tricks[number - 1]
        cards = cards_of(facts.tricks, number)
        for player, card in ((leader, cards[0]), (1 - leader, cards[1])):
            if card in played:
                raise RuleViolation(
                    "record.twice",
                    T("The %(card)s is recorded in trick %(first)s and again in trick "
                      "%(again)s: every card is played once", card=_name(card),
                      first=played[card][1], again=number),
                    "6.1.6",
                )
            played[card] = (player, number)
        leaders.append(leader)
        leader = leader if trick_winner(cards[0], cards[1], facts.trumps) == 0 else 1 - leader
        if trick.winner is not None and trick.winner != leader:
            raise RuleViolation(
                "record.winner",
                T("Trick %(trick)s is recorded as won by %(recorded)s, but the cards played "
                  "give it to %(winner)s", trick=number, recorded=names[trick.winner],
                  winner=names[leader]),
                "2.5",
            )
        winners.append(leader)
        points.append(sum(card_points(card, facts.trumps) for card in cards))
    return Record(tuple(leaders), tuple(winners), played, tuple(points))


def with_winners(facts: HandFacts, record: Record) -> HandFacts:
    """The facts with each recorded trick's winner derived from its cards."""
    tricks = tuple(
        replace(t, winner=record.winners[i]) if i < len(record.winners) else t
        for i, t in enumerate(facts.tricks)
    )
    return replace(facts, tricks=tricks)


def check_piles(piles: tuple[int, int], record: Record, tricks: int, names: Sequence[str]) -> None:
    """With the cards of the first ``tricks`` tricks recorded, the app computes the piles."""
    if len(record.winners) < tricks:
        return
    computed = record.piles(tricks)
    if computed != piles:
        raise RuleViolation(
            "record.piles",
            T("The cards recorded make pile counts of %(first_pile)s for %(first)s and "
              "%(second_pile)s for %(second)s, not %(first_given)s and %(second_given)s",
              first_pile=computed[0], first=names[0], second_pile=computed[1],
              second=names[1], first_given=piles[0], second_given=piles[1]),
            "6.1.6",
        )


def check_record(facts: HandFacts, record: Record, names: Sequence[str]) -> None:
    _check_talon_cards(facts, record, names)
    _check_shown_cards(facts, record, names)
    if record.complete:
        _check_legal_plays(facts, record, names)


def _check_talon_cards(facts: HandFacts, record: Record, names: Sequence[str]) -> None:
    """The indicator and, after an exchange, the trump 7 are taken late (2.6, 2.8)."""
    assert facts.indicator is not None and facts.trumps is not None
    indicator, seven = facts.indicator, Card("7", facts.trumps)
    loser7 = 1 - record.winners[6] if len(record.winners) >= 7 else None
    k = facts.exchange
    late = [seven] if k is not None else [indicator]
    for card in late:
        if card in record.played:
            player, number = record.played[card]
            if number <= 7 or (loser7 is not None and player != loser7):
                raise RuleViolation(
                    "record.talon",
                    T("Trick %(trick)s: the %(card)s lies under the talon until the loser of "
                      "trick 7 takes it, so %(player)s cannot play it there", trick=number,
                      card=_name(card), player=names[player]),
                    "2.6",
                )
    if k is not None and indicator in record.played:
        exchanger = record.leaders[k - 1] if k <= len(record.leaders) else None
        player, number = record.played[indicator]
        if number < k or (exchanger is not None and player != exchanger):
            raise RuleViolation(
                "record.talon",
                T("Trick %(trick)s: the %(card)s was taken in the exchange before trick "
                  "%(exchange)s by its leader, so %(player)s cannot play it there",
                  trick=number, card=_name(indicator), exchange=k, player=names[player]),
                "2.8",
            )
    if k is not None and seven in record.played and record.played[seven][1] < k:
        raise RuleViolation(
            "record.talon",
            T("The %(card)s was played to trick %(trick)s, so it cannot be exchanged before "
              "trick %(exchange)s", card=_name(seven), trick=record.played[seven][1],
              exchange=k),
            "2.8",
        )


def _check_shown_cards(facts: HandFacts, record: Record, names: Sequence[str]) -> None:
    """A card shown in a declaration is still in its owner's hand: not played before, and
    played later by him (4.3.3, 6.3.6)."""
    assert facts.trumps is not None
    shows: list[tuple[int, Card, int, str]] = []
    for number, trick in enumerate(facts.tricks, 1):
        for player in (0, 1):
            for meld in trick.melds[player]:
                for card in sorted(meld.cards):
                    shows.append((player, card, number, meld_in_trick(meld.name, number)))
    if facts.bela:
        for rank in ("K", "O"):
            shows.append((facts.bela.player, Card(rank, facts.trumps), facts.bela.trick,
                          bela_before(facts.bela.trick)))
    # the indicator and the exchanged trump 7 change hands: 6.3.6 checks them
    special = {facts.indicator, Card("7", facts.trumps)} if facts.exchange else {facts.indicator}
    for player, card, number, what in shows:
        if card not in record.played:
            continue
        by, played_in = record.played[card]
        if played_in < number:
            raise RuleViolation(
                "record.shown",
                T("%(player)s showed the %(card)s (%(when)s), but it was already played to "
                  "trick %(trick)s", player=names[player], card=_name(card), when=what,
                  trick=played_in),
                "4.3.3",
            )
        if by != player and card not in special:
            raise RuleViolation(
                "record.shown",
                T("%(player)s showed the %(card)s (%(when)s), but %(other)s played it to trick "
                  "%(trick)s: cards never pass between the players", player=names[player],
                  card=_name(card), when=what, other=names[by], trick=played_in),
                "6.3.6",
            )


def _check_legal_plays(facts: HandFacts, record: Record, names: Sequence[str]) -> None:
    """Tricks 8–16: each player's hand is the nine cards he plays in them (2.6, 2.7)."""
    assert facts.trumps is not None
    for number, leader, held, cards in follower_hands(
            [(n, record.leaders[n - 1], cards_of(facts.tricks, n))
             for n in range(MELD_TRICKS, TRICKS + 1)]):
        if cards[1] not in legal_plays(held, cards[0], facts.trumps, number):
            shown = " ".join(HUNGARIAN.short_name(card) for card in held)    # notation
            raise RuleViolation(
                "play.illegal",
                T("Trick %(trick)s: %(leader)s led the %(led)s; %(second)s held %(held)s and "
                  "had to follow suit, or else play a trump, so the %(played)s was not allowed",
                  trick=number, leader=names[leader], led=_name(cards[0]),
                  second=names[1 - leader], held=shown, played=_name(cards[1])),
                "2.7",
            )
