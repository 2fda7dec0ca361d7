"""The optional card-by-card record (rules 6.1.7): the cards of tricks 1, 2, ... n, checked
against the rules of play and against every other fact of the deal."""

from __future__ import annotations

from dataclasses import dataclass

from ...cards import FRENCH, Card
from ...errors import RuleViolation
from ...tricks import cards_of, follower_hands, recorded_tricks
from ...words import T, Text
from .facts import HandFacts
from .play import legal_plays, trick_winner, why_illegal
from .values import LAST_SIX, MELD_TRICKS, SEVEN_PLAYED, TRICKS, brisque_points, trump_seven


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
                    T("The %(card)s is recorded as played to trick %(first)s and again to trick "
                      "%(number)s: every card is played once", card=_name(card),
                      first=played[card][1], number=number),
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
        if number <= MELD_TRICKS:
            if exchange:
                message = T("Trick %(number)s: the %(card)s was exchanged after trick "
                            "%(exchanged)s, so it lies face up until trick 10 is over and "
                            "cannot be played before trick 11", number=number,
                            card=_name(seven), exchanged=exchange[0])
            else:
                message = T("Trick %(number)s: the %(card)s is the turn-up, so it lies face up "
                            "until trick 10 is over and cannot be played before trick 11",
                            number=number, card=_name(turnup))
            raise RuleViolation("record.turnup", message, "2.6")
        if loser10 is not None and player != loser10:
            if exchange:
                message = T("Trick %(number)s: the %(card)s was exchanged after trick "
                            "%(exchanged)s; the loser of trick 10, %(loser)s, took it, so "
                            "%(player)s cannot have played it", number=number,
                            card=_name(seven), exchanged=exchange[0], loser=names[loser10],
                            player=names[player])
            else:
                message = T("Trick %(number)s: the %(card)s is the turn-up; the loser of trick "
                            "10, %(loser)s, took it, so %(player)s cannot have played it",
                            number=number, card=_name(turnup), loser=names[loser10],
                            player=names[player])
            raise RuleViolation("record.turnup", message, "2.6")
    if exchange is not None and turnup in record.played:
        number, exchanger = exchange
        player, played_in = record.played[turnup]
        if player != exchanger or played_in <= number:
            raise RuleViolation(
                "record.turnup",
                T("%(exchanger)s took the turn-up %(card)s in exchange after trick %(number)s, "
                  "so %(player)s cannot have played it to trick %(played)s",
                  exchanger=names[exchanger], card=_name(turnup), number=number,
                  player=names[player], played=played_in),
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
                T("The cards show %(player)s playing the %(card)s to trick %(number)s, never "
                  "exchanged: record it (it scores %(points)s)", player=names[player],
                  card=_name(seven), number=number, points=SEVEN_PLAYED),
                "4.4.3",
            )
        if entry.player != player or entry.trick not in (None, number):
            if entry.trick is None:
                message = T("The %(card)s is recorded as played by %(entered)s, but the cards "
                            "show %(player)s playing it to trick %(number)s", card=_name(seven),
                            entered=names[entry.player], player=names[player], number=number)
            else:
                message = T("The %(card)s is recorded as played by %(entered)s to trick "
                            "%(trick)s, but the cards show %(player)s playing it to trick "
                            "%(number)s", card=_name(seven), entered=names[entry.player],
                            trick=entry.trick, player=names[player], number=number)
            raise RuleViolation("seven.record", message, "4.4.3")
    elif entry is not None and entry.trick is not None and entry.trick <= len(record.winners):
        raise RuleViolation(
            "seven.record",
            T("The %(card)s is recorded as played to trick %(trick)s, but the cards of trick "
              "%(trick)s do not include it", card=_name(seven), trick=entry.trick),
            "4.4.3",
        )


def _check_melds_held(facts: HandFacts, record: Record, names: list[str]) -> None:
    """A melded card is held by its owner, who plays it, after the meld (4.2.3)."""
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
                            T("%(player)s melded %(meld)s after trick %(number)s, but the "
                              "%(card)s was already played to trick %(played)s",
                              player=names[player], meld=meld.name, number=number,
                              card=_name(card), played=played_in),
                            "4.2.3",
                        )
                    if by != player:
                        raise RuleViolation(
                            "record.meld",
                            T("%(player)s melded %(meld)s after trick %(number)s, but %(other)s "
                              "played the %(card)s to trick %(played)s: cards never pass "
                              "between the players", player=names[player], meld=meld.name,
                              number=number, other=names[by], card=_name(card),
                              played=played_in),
                            "6.3.7",
                        )


def _check_legal_plays(facts: HandFacts, record: Record, names: list[str]) -> None:
    """Tricks 11–16: each player's hand is the six cards the player plays in them (2.7).
    While the record stops before trick 16, that hand holds at least the cards played in the
    recorded tricks; a card that is refused with some of those cards is refused with all of
    them."""
    recorded = [number for number in LAST_SIX if number <= len(record.winners)]
    for number, leader, held, cards in follower_hands(
            [(n, record.leaders[n - 1], cards_of(facts.tricks, n)) for n in recorded]):
        if cards[1] not in legal_plays(held, cards[0], facts.trumps, number):
            shown = " ".join(_name(card) for card in held)
            raise RuleViolation(
                "play.illegal",
                _illegal(why_illegal(held, cards[0], facts.trumps), number=number,
                         leader=names[leader], led=_name(cards[0]), second=names[1 - leader],
                         card=_name(cards[1]),
                         held=shown if record.complete else T("at least %(cards)s", cards=shown)),
                "2.7",
            )


def _illegal(why: str, **values: object) -> Text:
    """The refusal of a card the second player may not play, by what the rules asked (2.7)."""
    if why == "win":
        return T("Trick %(number)s: %(leader)s led the %(led)s; %(second)s held %(held)s and "
                 "had to follow suit and win, so the %(card)s was not allowed", **values)
    if why == "follow":
        return T("Trick %(number)s: %(leader)s led the %(led)s; %(second)s held %(held)s and "
                 "had to follow suit, so the %(card)s was not allowed", **values)
    if why == "trump":
        return T("Trick %(number)s: %(leader)s led the %(led)s; %(second)s held %(held)s and "
                 "had to play a trump, having no card of the suit led, so the %(card)s was not "
                 "allowed", **values)
    return T("Trick %(number)s: %(leader)s led the %(led)s; %(second)s held %(held)s and had to "
             "play any card, so the %(card)s was not allowed", **values)
