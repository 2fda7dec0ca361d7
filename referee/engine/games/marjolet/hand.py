"""Checking and scoring one Marjolet deal from its facts (rules sections 4–6).

The score needs only the turn-up, the melds (and who made them), the trump-7 event and the end
(aces and tens, the winners of trick 10 and of the last trick, the sweep). Every other fact
(trick winners, the cards played) is checked against these and never changes the score.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...cards import FRENCH, Card
from ...errors import RuleViolation
from ..base import Line, and_list
from .facts import End, HandFacts
from .melds import Meld
from .record import Record, check_record, read_record
from .values import (
    BRISQUES_TOTAL,
    EXCHANGE,
    LAST_TRICK,
    MELD_TRICKS,
    SEVEN_PLAYED,
    TRICKS,
    TURN_CARDS,
    TURN_UP_TAKEN,
    Rules,
    brisque_range,
    possible_brisques,
    sweep,
    trick_10,
    trump_seven,
    turn_up_seven,
)
from .winners import check_sweep, known_winners


@dataclass(frozen=True)
class Declared:
    """A meld that scored: after which trick, by whom, for how much."""

    trick: int
    player: int
    meld: Meld
    points: int


@dataclass
class HandScore:
    """A player's deal score = aces and tens + melds + bonuses (6.2)."""

    brisques: list[int] = field(default_factory=lambda: [0, 0])
    melds: list[int] = field(default_factory=lambda: [0, 0])
    bonuses: list[int] = field(default_factory=lambda: [0, 0])
    lines: list[Line] = field(default_factory=list)
    declared: list[Declared] = field(default_factory=list)
    winners: list[int | None] = field(default_factory=lambda: [None] * TRICKS)

    @property
    def scores(self) -> tuple[int, int]:
        return (
            self.brisques[0] + self.melds[0] + self.bonuses[0],
            self.brisques[1] + self.melds[1] + self.bonuses[1],
        )

    def bonus(self, player: int, points: int, text: str, rule: str) -> None:
        self.bonuses[player] += points
        self.lines.append(Line(player, text, points, rule))


def _card(card: Card) -> str:
    return FRENCH.short_name(card)


def score_hand(
    facts: HandFacts, dealer: int, names: list[str], rules: Rules, trusted: bool = False
) -> HandScore:
    """Check every rule of 6.3 the facts allow and score the deal (6.2); a deal in progress
    (no end) scores what has happened so far. ``trusted``: facts the app checked when it
    stored them (with this dealer): scored without the checks."""
    record = read_record(facts, dealer)
    score = HandScore(winners=known_winners(facts, record, names))
    if trusted:
        score.declared = [
            Declared(number, player, meld, meld.points(rules))
            for number, trick in enumerate(facts.tricks, 1)
            for player in (0, 1) for meld in trick.melds[player]
        ]
        _score(facts, dealer, names, rules, score)
        return score
    check_seven(facts, names)
    score.declared = check_melds(facts, rules, names)
    if record is not None:
        check_record(facts, record, score.winners, names)
    if facts.end is not None:
        check_sweep(facts.end, score.winners, names)
        check_brisques(facts, facts.end, score.winners, record, names)
    _score(facts, dealer, names, rules, score)
    return score


# -- the trump 7 (4.4, 6.3.8, 6.3.9) -----------------------------------------------------------

def check_seven(facts: HandFacts, names: list[str]) -> None:
    seven = trump_seven(facts.trumps)
    exchanges = facts.exchanges
    turned_up = facts.turnup == seven
    if len(exchanges) > 1:
        tricks = " and ".join(str(number) for number, _ in exchanges[:2])
        raise RuleViolation(
            "exchange.twice",
            f"The trump 7 can be exchanged only once per deal, not after tricks {tricks}",
            "4.4.1",
        )
    if exchanges and turned_up:
        raise RuleViolation(
            "exchange.turnup-seven",
            f"The turn-up is the {_card(seven)} itself: there is no trump 7 to exchange for it",
            "4.4.1",
        )
    played = facts.seven_played
    if played is not None and turned_up:
        raise RuleViolation(
            "seven.turnup",
            f"The turn-up is the {_card(seven)}: it scores for the dealer, never when it is "
            "played",
            "6.3.9",
        )
    if played is not None and exchanges:
        raise RuleViolation(
            "seven.exchanged",
            f"The {_card(seven)} was exchanged after trick {exchanges[0][0]}: an exchanged "
            "trump 7 earns no bonus when it is played",
            "6.3.9",
        )
    if facts.end is not None and not (turned_up or exchanges or played):
        raise RuleViolation(
            "seven.missing",
            f"Record what happened to the trump 7 ({_card(seven)}): exchanged for the turn-up "
            "after a trick, or played to a trick without exchange, and by whom",
            "6.3.8",
        )


# -- melds (4.2, 4.3, 6.3.3 to 6.3.7) ----------------------------------------------------------

def check_melds(facts: HandFacts, rules: Rules, names: list[str]) -> list[Declared]:
    """Every meld is of the rule set in force, scores once per deal, fits the five cards of its
    turn, and shows only cards its player can hold (the turn-up only after his exchange)."""
    exchange = facts.exchanges[0] if facts.exchanges else None
    declared: list[Declared] = []
    seen: dict[Meld, tuple[int, int]] = {}
    owner: dict[Card, tuple[int, int, Meld]] = {}
    melded: list[dict[Card, int]] = [{}, {}]     # each player's melded cards: last turn shown
    for number, trick in enumerate(facts.tricks, 1):
        for player in (0, 1):
            name = names[player]
            shown: set[Card] = set()
            for meld in trick.melds[player]:
                try:
                    points = meld.points(rules)
                except RuleViolation as error:
                    message = error.message[0].lower() + error.message[1:]
                    raise RuleViolation(
                        error.code, f"After trick {number}, {name}: {message}", error.rule
                    ) from None
                if meld in seen:
                    when, who = seen[meld]
                    if who != player:
                        why = (
                            f", which {names[who]} melded after trick {when}: the same cards "
                            "score only once per deal, and cards never pass between the players"
                        )
                    elif when == number:
                        why = " twice in one turn: the same cards score only once per deal"
                    else:
                        why = (
                            f" again after melding it after trick {when}: the same cards score "
                            "only once per deal"
                        )
                    raise RuleViolation(
                        "meld.twice",
                        f"After trick {number}, {name} melds {meld.name} ({meld.shown_cards})"
                        + why,
                        "4.3.2",
                    )
                seen[meld] = (number, player)
                shown |= meld.cards
                for card in sorted(meld.cards):
                    _check_card(facts, card, number, player, meld, exchange, owner, names)
                declared.append(Declared(number, player, meld, points))
            if len(shown) > TURN_CARDS:
                raise RuleViolation(
                    "meld.too-many-cards",
                    f"After trick {number}, {name}'s melds use {len(shown)} different cards, but "
                    f"a player holds only {TURN_CARDS} in his turn",
                    "4.2.3",
                )
            exchanged = exchange == (number, player) and facts.turnup not in shown
            if shown:
                _check_turn_cards(
                    melded[player], shown, facts.turnup if exchanged else None, number, name
                )
                melded[player].update(dict.fromkeys(shown, number))
    return declared


def _check_turn_cards(
    earlier: dict[Card, int], shown: set[Card], exchanged: Card | None, number: int, name: str
) -> None:
    """The five cards of a turn (4.2.3) hold, all together: this turn's melds; the cards melded
    before that he cannot have played yet, for melded cards stay in their owner's hand until he
    plays them, one card a trick (4.2.4); and, when he exchanges in this turn without melding
    the turn-up, the turn-up he takes (or the trump 7 he gives for it, which is in no meld:
    4.4.1)."""
    waiting = sorted(turn for card, turn in earlier.items() if card not in shown)
    played = 0
    for trick in range(1, number + 1):          # trick t can take one card melded before it
        if sum(1 for turn in waiting if turn < trick) > played:
            played += 1
    held = len(waiting) - played
    extra = 0 if exchanged is None else 1
    if held + len(shown) + extra <= TURN_CARDS:
        return
    parts = [f"{len(shown)} cards for these melds"]
    if held:
        parts.append(
            f"at least {held} more melded earlier and not yet played (one card leaves his hand "
            "each trick)"
        )
    if exchanged is not None:
        parts.append(
            f"the turn-up {_card(exchanged)} that he takes in exchange in this turn (or the "
            "trump 7 he gives for it)"
        )
    total = f": {held + len(shown) + extra} cards" if len(parts) > 2 else ""
    raise RuleViolation(
        "meld.too-many-cards",
        f"After trick {number}, {name} would hold {and_list(parts)}{total}, but a player holds "
        f"only {TURN_CARDS} in his turn",
        "4.2.3",
    )


def _check_card(
    facts: HandFacts, card: Card, number: int, player: int, meld: Meld,
    exchange: tuple[int, int] | None, owner: dict[Card, tuple[int, int, Meld]],
    names: list[str],
) -> None:
    """Cards never pass between the players; the turn-up only to the exchanger (6.3.7)."""
    if card == facts.turnup:
        if exchange is None:
            raise RuleViolation(
                "cards.turnup",
                f"The {_card(card)} is the turn-up: it lies face up and belongs to nobody, so "
                f"{names[player]} cannot meld {meld.name} after trick {number} (only a player "
                "who exchanges the trump 7 for it can, from that turn on)",
                "6.3.7",
            )
        taken, exchanger = exchange
        if exchanger != player or number < taken:
            raise RuleViolation(
                "cards.turnup",
                f"The {_card(card)} is the turn-up, which {names[exchanger]} took in exchange "
                f"after trick {taken}: {names[player]} cannot meld {meld.name} with it after "
                f"trick {number}",
                "6.3.7",
            )
    first = owner.setdefault(card, (player, number, meld))
    if first[0] != player:
        who, when, other = first
        raise RuleViolation(
            "cards.both",
            f"The {_card(card)} is shown by both players ({names[who]}: {other.name} after "
            f"trick {when}; {names[player]}: {meld.name} after trick {number}): cards never pass "
            "between the players",
            "6.3.7",
        )


# -- aces and tens (6.3.1) ---------------------------------------------------------------------

def _tricks(count: int) -> str:
    return f"{count} trick" if count == 1 else f"{count} tricks"


def check_brisques(
    facts: HandFacts, end: End, winners: list[int | None], record: Record | None,
    names: list[str],
) -> None:
    points = end.brisque_points
    if record is not None:
        counted = record.brisques_won(facts)
        for player in (0, 1):
            if record.complete and counted[player] != points[player]:
                raise RuleViolation(
                    "brisques.cards",
                    f"The cards played give {names[player]} {counted[player]} in aces and tens, "
                    f"not {points[player]}",
                    "6.3.1",
                )
            if counted[player] > points[player]:
                raise RuleViolation(
                    "brisques.cards",
                    f"The recorded cards of {names[player]}'s tricks already hold "
                    f"{counted[player]} in aces and tens, more than {points[player]}",
                    "6.3.1",
                )
    known = [winners.count(0), winners.count(1)]
    unknown = TRICKS - known[0] - known[1]
    if any(
        possible_brisques(points[0], won) and possible_brisques(points[1], TRICKS - won)
        for won in range(known[0], known[0] + unknown + 1)
    ):
        return
    for player in (0, 1):
        options = range(known[player], known[player] + unknown + 1)
        if any(possible_brisques(points[player], won) for won in options):
            continue
        if unknown == 0:
            low, high = brisque_range(known[player])
            why = f"{_tricks(known[player])} hold {low} to {high}"
        else:
            low, high = brisque_range(options[0])[0], brisque_range(options[-1])[1]
            why = f"{options[0]} to {_tricks(options[-1])} hold {low} to {high}"
        raise RuleViolation(
            "brisques.impossible",
            f"{names[player]} cannot have {points[player]} in aces and tens: {why}",
            "6.3.1",
        )
    raise RuleViolation(
        "brisques.impossible",
        f"Aces and tens of {points[0]} and {points[1]} cannot both be taken with the tricks "
        "recorded",
        "6.3.1",
    )


# -- the score (5, 6.2) ------------------------------------------------------------------------

def _score(
    facts: HandFacts, dealer: int, names: list[str], rules: Rules, score: HandScore
) -> None:
    seven = trump_seven(facts.trumps)
    if facts.turnup == seven:
        score.bonus(
            dealer, turn_up_seven(rules),
            f"The turn-up is the {_card(seven)}: {names[dealer]}, the dealer, scores it", "5",
        )
    exchange = facts.exchanges[0] if facts.exchanges else None
    turns = sorted({d.trick for d in score.declared} | ({exchange[0]} if exchange else set()))
    for number in turns:
        if exchange is not None and exchange[0] == number:
            score.bonus(
                exchange[1], EXCHANGE,
                f"After trick {number}: {names[exchange[1]]} exchanges the {_card(seven)} for "
                f"the turn-up {_card(facts.turnup)}",
                "4.4.1",
            )
        for d in score.declared:
            if d.trick == number:
                score.melds[d.player] += d.points
                score.lines.append(Line(
                    d.player,
                    f"After trick {number}: {names[d.player]} melds {d.meld.name} "
                    f"({d.meld.shown_cards})",
                    d.points, "4.1",
                ))
    played = facts.seven_played
    if played is not None:
        where = "to a trick" if played.trick is None else f"to trick {played.trick}"
        score.bonus(
            played.player, SEVEN_PLAYED,
            f"{names[played.player]} plays the {_card(seven)} {where}, never exchanged", "4.4.3",
        )
    end = facts.end
    winner10 = end.trick10 if end is not None else score.winners[MELD_TRICKS - 1]
    if winner10 is not None:
        if trick_10(rules):
            score.bonus(winner10, trick_10(rules), f"{names[winner10]} wins trick 10", "5")
        taken = seven if exchange is not None else facts.turnup
        score.bonus(
            1 - winner10, TURN_UP_TAKEN,
            f"{names[1 - winner10]} takes the turn-up ({_card(taken)}) after trick 10", "5",
        )
    if end is None:
        return
    given = end.brisques
    for player in (0, 1):
        score.brisques[player] = end.brisque_points[player]
        derived = f" ({BRISQUES_TOTAL} − {given[1 - player]})" if given[player] is None else ""
        score.lines.append(Line(
            player, f"{names[player]}: aces and tens{derived}", score.brisques[player], "3"
        ))
    score.bonus(end.last, LAST_TRICK, f"{names[end.last]} wins the last trick", "5")
    if end.sweep is not None:
        score.bonus(
            end.sweep, sweep(rules),
            f"{names[end.sweep]} wins all of tricks 11–16: sweep, on top of the last trick", "5",
        )
