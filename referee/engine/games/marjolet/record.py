"""The optional card-by-card record (rules 6.1.7): the cards of tricks 1, 2, ... n, checked
against the rules of play and against every other fact of the deal."""

from __future__ import annotations

from dataclasses import dataclass

from ...cards import FRENCH, Card
from ...errors import RuleViolation
from ...tricks import cards_of, follower_hands, recorded_tricks
from .facts import HandFacts
from .play import legal_plays, trick_winner, why_illegal
from .values import LAST_SIX, MELD_TRICKS, TRICKS, brisque_points, trump_seven


@dataclass(frozen=True)
class Record:
    """What the recorded cards say: the leader and winner of each recorded trick and who
    played every card, and when."""

    leaders: tuple[int, ...]
    winners: tuple[int, ...]
    played: dict[Card, tuple[int, int]]          # card → (player, trick)

    @property
    def complete(self) -> bool:
        return len(self.winners) == TRICKS

    def brisques_won(self, facts: HandFacts) -> tuple[int, int]:
        """Points in aces and tens of the recorded tricks, by the player who won them."""
        won = [0, 0]
        for number, winner in enumerate(self.winners, 1):
            cards = cards_of(facts.tricks, number)
            won[winner] += sum(brisque_points(card) for card in cards)
        return won[0], won[1]


def _name(card: Card) -> str:
    return FRENCH.short_name(card)


def read_record(facts: HandFacts, dealer: int) -> Record | None:
    """The recorded cards, from trick 1 on without a gap and no card twice; None if none."""
    count = recorded_tricks([t.cards for t in facts.tricks], "6.1.7")
    if not count:
        return None
    leader = 1 - dealer                    # the non-dealer leads trick 1 (2.4)
    leaders: list[int] = []
    winners: list[int] = []
    played: dict[Card, tuple[int, int]] = {}
    for number in range(1, count + 1):
        cards = cards_of(facts.tricks, number)
        for player, card in ((leader, cards[0]), (1 - leader, cards[1])):
            if card in played:
                raise RuleViolation(
                    "record.twice",
                    f"The {_name(card)} is recorded as played to trick {played[card][1]} and "
                    f"again to trick {number}: every card is played once",
                    "3",
                )
            played[card] = (player, number)
        leaders.append(leader)
        leader = trick_winner(leader, cards, facts.trumps)
        winners.append(leader)
    return Record(tuple(leaders), tuple(winners), played)


def check_record(
    facts: HandFacts, record: Record, winners: list[int | None], names: list[str]
) -> None:
    """The recorded cards against the turn-up, the trump 7, the melds and the rules of play."""
    _check_turnup_and_seven(facts, record, winners, names)
    _check_melds_held(facts, record, names)
    _check_legal_plays(facts, record, names)


def _check_turnup_and_seven(
    facts: HandFacts, record: Record, winners: list[int | None], names: list[str]
) -> None:
    turnup, seven = facts.turnup, trump_seven(facts.trumps)
    exchange = facts.exchanges[0] if facts.exchanges else None
    winner10 = winners[MELD_TRICKS - 1]
    loser10 = None if winner10 is None else 1 - winner10
    # what lies face up until trick 10 is over goes to the loser of trick 10 (2.6, 4.4)
    face_up = seven if exchange is not None else turnup
    if face_up in record.played:
        player, number = record.played[face_up]
        why = (
            f"the {_name(seven)} was exchanged after trick {exchange[0]}" if exchange
            else f"the {_name(turnup)} is the turn-up"
        )
        if number <= MELD_TRICKS:
            raise RuleViolation(
                "record.turnup",
                f"Trick {number}: {why}, so it lies face up until trick 10 is over and cannot "
                "be played before trick 11",
                "2.6",
            )
        if loser10 is not None and player != loser10:
            raise RuleViolation(
                "record.turnup",
                f"Trick {number}: {why}; the loser of trick 10, {names[loser10]}, took it, so "
                f"{names[player]} cannot have played it",
                "2.6",
            )
    if exchange is not None and turnup in record.played:
        number, exchanger = exchange
        player, played_in = record.played[turnup]
        if player != exchanger or played_in <= number:
            raise RuleViolation(
                "record.turnup",
                f"{names[exchanger]} took the turn-up {_name(turnup)} in exchange after trick "
                f"{number}, so {names[player]} cannot have played it to trick {played_in}",
                "4.4.1",
            )
    if exchange is None and turnup != seven:
        _check_seven_played(facts, record, names)


def _check_seven_played(facts: HandFacts, record: Record, names: list[str]) -> None:
    seven = trump_seven(facts.trumps)
    entry = facts.seven_played
    if seven in record.played:
        player, number = record.played[seven]
        if entry is None:
            raise RuleViolation(
                "seven.record",
                f"The cards show {names[player]} playing the {_name(seven)} to trick {number}, "
                "never exchanged: record it (it scores 10)",
                "4.4.3",
            )
        if entry.player != player or entry.trick not in (None, number):
            where = "" if entry.trick is None else f" to trick {entry.trick}"
            raise RuleViolation(
                "seven.record",
                f"The {_name(seven)} is recorded as played by {names[entry.player]}{where}, but "
                f"the cards show {names[player]} playing it to trick {number}",
                "4.4.3",
            )
    elif entry is not None and entry.trick is not None and entry.trick <= len(record.winners):
        raise RuleViolation(
            "seven.record",
            f"The {_name(seven)} is recorded as played to trick {entry.trick}, but the cards of "
            f"trick {entry.trick} do not include it",
            "4.4.3",
        )


def _check_melds_held(facts: HandFacts, record: Record, names: list[str]) -> None:
    """A melded card is held by its owner: he plays it himself, after the meld (4.2.3)."""
    for number, trick in enumerate(facts.tricks, 1):
        for player in (0, 1):
            for meld in trick.melds[player]:
                for card in sorted(meld.cards):
                    if card not in record.played:
                        continue
                    by, played_in = record.played[card]
                    if played_in <= number:
                        raise RuleViolation(
                            "record.meld",
                            f"{names[player]} melded {meld.name} after trick {number}, but the "
                            f"{_name(card)} was already played to trick {played_in}",
                            "4.2.3",
                        )
                    if by != player:
                        raise RuleViolation(
                            "record.meld",
                            f"{names[player]} melded {meld.name} after trick {number}, but "
                            f"{names[by]} played the {_name(card)} to trick {played_in}: cards "
                            "never pass between the players",
                            "6.3.7",
                        )


def _check_legal_plays(facts: HandFacts, record: Record, names: list[str]) -> None:
    """Tricks 11–16: each player's hand is the six cards he plays in them (2.7). While the
    record stops before trick 16, his hand holds at least the cards he plays in the recorded
    tricks; a card that is refused with some of his cards is refused with all of them."""
    recorded = [number for number in LAST_SIX if number <= len(record.winners)]
    for number, leader, held, cards in follower_hands(
            [(n, record.leaders[n - 1], cards_of(facts.tricks, n)) for n in recorded]):
        second = 1 - leader
        if cards[1] not in legal_plays(held, cards[0], facts.trumps, number):
            shown = " ".join(_name(card) for card in held)
            some = "" if record.complete else "at least "
            raise RuleViolation(
                "play.illegal",
                f"Trick {number}: {names[leader]} led the {_name(cards[0])}; {names[second]} "
                f"held {some}{shown} and had to "
                f"{why_illegal(held, cards[0], facts.trumps, number)}, so the "
                f"{_name(cards[1])} was not allowed",
                "2.7",
            )
