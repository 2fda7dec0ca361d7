"""Checking and scoring one Marjolet deal from its facts (rules sections 4–6).

The score needs only the turn-up, the melds (and who made them), the trump-7 event and the end
(aces and tens, the winners of trick 10 and of the last trick, the sweep). Every other fact
(trick winners, the cards played) is checked against these and never changes the score.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...cards import FRENCH, Card
from ...errors import RuleViolation
from ...words import N, T, Text
from ..base import Line
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

    def bonus(self, player: int, points: int, text: Text, rule: str) -> None:
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
        raise RuleViolation(
            "exchange.twice",
            T("The trump 7 can be exchanged only once per deal, not after tricks %(first)s and "
              "%(second)s", first=exchanges[0][0], second=exchanges[1][0]),
            "4.4.1",
        )
    if exchanges and turned_up:
        raise RuleViolation(
            "exchange.turnup-seven",
            T("The turn-up is the %(card)s itself: there is no trump 7 to exchange for it",
              card=_card(seven)),
            "4.4.1",
        )
    played = facts.seven_played
    if played is not None and turned_up:
        raise RuleViolation(
            "seven.turnup",
            T("The turn-up is the %(card)s: it scores for the dealer, never when it is played",
              card=_card(seven)),
            "6.3.9",
        )
    if played is not None and exchanges:
        raise RuleViolation(
            "seven.exchanged",
            T("The %(card)s was exchanged after trick %(number)s: an exchanged trump 7 earns no "
              "bonus when it is played", card=_card(seven), number=exchanges[0][0]),
            "6.3.9",
        )
    if facts.end is not None and not (turned_up or exchanges or played):
        raise RuleViolation(
            "seven.missing",
            T("Record what happened to the trump 7 (%(card)s): exchanged for the turn-up after "
              "a trick, or played to a trick without exchange, and by whom", card=_card(seven)),
            "6.3.8",
        )


# -- melds (4.2, 4.3, 6.3.3 to 6.3.7) ----------------------------------------------------------

def check_melds(facts: HandFacts, rules: Rules, names: list[str]) -> list[Declared]:
    """Every meld is of the rule set in force, scores once per deal, fits the five cards of its
    turn, and shows only cards its player can hold (the turn-up only after the exchange)."""
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
                    raise RuleViolation(
                        error.code, meld.not_in_rules(number, name), error.rule
                    ) from None
                if meld in seen:
                    raise RuleViolation(
                        "meld.twice", _twice(meld, number, name, seen[meld], player, names),
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
                    N("After trick %(number)s, %(player)s's melds use %(num)s different card, "
                      "but a player holds only %(most)s in a turn",
                      "After trick %(number)s, %(player)s's melds use %(num)s different cards, "
                      "but a player holds only %(most)s in a turn",
                      len(shown), number=number, player=name, num=len(shown), most=TURN_CARDS),
                    "4.2.3",
                )
            exchanged = exchange == (number, player) and facts.turnup not in shown
            if shown:
                _check_turn_cards(
                    melded[player], shown, facts.turnup if exchanged else None, number, name
                )
                melded[player].update(dict.fromkeys(shown, number))
    return declared


def _twice(
    meld: Meld, number: int, name: str, first: tuple[int, int], player: int, names: list[str]
) -> Text:
    """A meld scored a second time (4.3.2): by the other player, in the same turn or later."""
    when, who = first
    if who != player:
        return T("After trick %(number)s, %(player)s melds %(meld)s (%(cards)s), which "
                 "%(other)s melded after trick %(when)s: the same cards score only once per "
                 "deal, and cards never pass between the players", number=number, player=name,
                 meld=meld.name, cards=meld.shown_cards, other=names[who], when=when)
    if when == number:
        return T("After trick %(number)s, %(player)s melds %(meld)s (%(cards)s) twice in one "
                 "turn: the same cards score only once per deal", number=number, player=name,
                 meld=meld.name, cards=meld.shown_cards)
    return T("After trick %(number)s, %(player)s melds %(meld)s (%(cards)s) again after melding "
             "it after trick %(when)s: the same cards score only once per deal", number=number,
             player=name, meld=meld.name, cards=meld.shown_cards, when=when)


def _check_turn_cards(
    earlier: dict[Card, int], shown: set[Card], exchanged: Card | None, number: int, name: str
) -> None:
    """The five cards of a turn (4.2.3) hold, all together: this turn's melds; the cards melded
    before that the player cannot have played yet, for melded cards stay in their owner's hand
    until played, one card a trick (4.2.4); and, when the player exchanges in this turn without
    melding the turn-up, the turn-up taken (or the trump 7 given for it, which is in no meld:
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
    values = {"number": number, "player": name, "cards": len(shown), "most": TURN_CARDS}
    if exchanged is None:
        message = N(
            "After trick %(number)s, %(player)s would hold %(cards)s cards for these melds and "
            "at least %(num)s more melded earlier and not yet played (one card leaves the hand "
            "each trick), but a player holds only %(most)s in a turn",
            "After trick %(number)s, %(player)s would hold %(cards)s cards for these melds and "
            "at least %(num)s more melded earlier and not yet played (one card leaves the hand "
            "each trick), but a player holds only %(most)s in a turn",
            held, num=held, **values)
    elif not held:
        message = N(
            "After trick %(number)s, %(player)s would hold %(num)s card for these melds and the "
            "turn-up %(turnup)s that %(player)s takes in exchange in this turn (or the trump 7 "
            "given for it), but a player holds only %(most)s in a turn",
            "After trick %(number)s, %(player)s would hold %(num)s cards for these melds and the "
            "turn-up %(turnup)s that %(player)s takes in exchange in this turn (or the trump 7 "
            "given for it), but a player holds only %(most)s in a turn",
            len(shown), num=len(shown), turnup=_card(exchanged), **values)
    else:
        total = held + len(shown) + extra
        message = N(
            "After trick %(number)s, %(player)s would hold %(cards)s cards for these melds, at "
            "least %(held)s more melded earlier and not yet played (one card leaves the hand "
            "each trick) and the turn-up %(turnup)s that %(player)s takes in exchange in this "
            "turn (or the trump 7 given for it): %(num)s card, but a player holds only "
            "%(most)s in a turn",
            "After trick %(number)s, %(player)s would hold %(cards)s cards for these melds, at "
            "least %(held)s more melded earlier and not yet played (one card leaves the hand "
            "each trick) and the turn-up %(turnup)s that %(player)s takes in exchange in this "
            "turn (or the trump 7 given for it): %(num)s cards, but a player holds only "
            "%(most)s in a turn",
            total, num=total, held=held, turnup=_card(exchanged), **values)
    raise RuleViolation("meld.too-many-cards", message, "4.2.3")


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
                T("The %(card)s is the turn-up: it lies face up and belongs to nobody, so "
                  "%(player)s cannot meld %(meld)s after trick %(number)s (only a player who "
                  "exchanges the trump 7 for it can, from that turn on)", card=_card(card),
                  player=names[player], meld=meld.name, number=number),
                "6.3.7",
            )
        taken, exchanger = exchange
        if exchanger != player or number < taken:
            raise RuleViolation(
                "cards.turnup",
                T("The %(card)s is the turn-up, which %(exchanger)s took in exchange after trick "
                  "%(taken)s: %(player)s cannot meld %(meld)s with it after trick %(number)s",
                  card=_card(card), exchanger=names[exchanger], taken=taken,
                  player=names[player], meld=meld.name, number=number),
                "6.3.7",
            )
    first = owner.setdefault(card, (player, number, meld))
    if first[0] != player:
        who, when, other = first
        raise RuleViolation(
            "cards.both",
            T("The %(card)s is shown by both players (%(first)s: %(first_meld)s after trick "
              "%(first_trick)s; %(second)s: %(second_meld)s after trick %(second_trick)s): cards "
              "never pass between the players", card=_card(card), first=names[who],
              first_meld=other.name, first_trick=when, second=names[player],
              second_meld=meld.name, second_trick=number),
            "6.3.7",
        )


# -- aces and tens (6.3.1) ---------------------------------------------------------------------

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
                    T("The cards played give %(player)s %(counted)s in aces and tens, not "
                      "%(entered)s", player=names[player], counted=counted[player],
                      entered=points[player]),
                    "6.3.1",
                )
            if counted[player] > points[player]:
                raise RuleViolation(
                    "brisques.cards",
                    T("The recorded cards of %(player)s's tricks already hold %(counted)s in "
                      "aces and tens, more than %(entered)s", player=names[player],
                      counted=counted[player], entered=points[player]),
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
            message = N(
                "%(player)s cannot have %(points)s in aces and tens: %(num)s trick holds "
                "%(low)s to %(high)s",
                "%(player)s cannot have %(points)s in aces and tens: %(num)s tricks hold "
                "%(low)s to %(high)s",
                known[player], player=names[player], points=points[player], num=known[player],
                low=low, high=high)
        else:
            low, high = brisque_range(options[0])[0], brisque_range(options[-1])[1]
            message = N(
                "%(player)s cannot have %(points)s in aces and tens: %(fewest)s to %(num)s "
                "trick hold %(low)s to %(high)s",
                "%(player)s cannot have %(points)s in aces and tens: %(fewest)s to %(num)s "
                "tricks hold %(low)s to %(high)s",
                options[-1], player=names[player], points=points[player], fewest=options[0],
                num=options[-1], low=low, high=high)
        raise RuleViolation("brisques.impossible", message, "6.3.1")
    raise RuleViolation(
        "brisques.impossible",
        T("Aces and tens of %(first)s and %(second)s cannot both be taken with the tricks "
          "recorded", first=points[0], second=points[1]),
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
            T("The turn-up is the %(card)s: %(player)s, the dealer, scores it", card=_card(seven),
              player=names[dealer]),
            "5",
        )
    exchange = facts.exchanges[0] if facts.exchanges else None
    turns = sorted({d.trick for d in score.declared} | ({exchange[0]} if exchange else set()))
    for number in turns:
        if exchange is not None and exchange[0] == number:
            score.bonus(
                exchange[1], EXCHANGE,
                T("After trick %(number)s: %(player)s exchanges the %(seven)s for the turn-up "
                  "%(turnup)s", number=number, player=names[exchange[1]], seven=_card(seven),
                  turnup=_card(facts.turnup)),
                "4.4.1",
            )
        for d in score.declared:
            if d.trick == number:
                score.melds[d.player] += d.points
                score.lines.append(Line(
                    d.player,
                    T("After trick %(number)s: %(player)s melds %(meld)s (%(cards)s)",
                      number=number, player=names[d.player], meld=d.meld.name,
                      cards=d.meld.shown_cards),
                    d.points, "4.1",
                ))
    played = facts.seven_played
    if played is not None:
        if played.trick is None:
            text = T("%(player)s plays the %(card)s to a trick, never exchanged",
                     player=names[played.player], card=_card(seven))
        else:
            text = T("%(player)s plays the %(card)s to trick %(number)s, never exchanged",
                     player=names[played.player], card=_card(seven), number=played.trick)
        score.bonus(played.player, SEVEN_PLAYED, text, "4.4.3")
    end = facts.end
    winner10 = end.trick10 if end is not None else score.winners[MELD_TRICKS - 1]
    if winner10 is not None:
        if trick_10(rules):
            score.bonus(winner10, trick_10(rules),
                        T("%(player)s wins trick 10", player=names[winner10]), "5")
        taken = seven if exchange is not None else facts.turnup
        score.bonus(
            1 - winner10, TURN_UP_TAKEN,
            T("%(player)s takes the turn-up (%(card)s) after trick 10",
              player=names[1 - winner10], card=_card(taken)),
            "5",
        )
    if end is None:
        return
    given = end.brisques
    for player in (0, 1):
        score.brisques[player] = end.brisque_points[player]
        if given[player] is None:
            text = T("%(player)s: aces and tens (%(total)s − %(other)s)", player=names[player],
                     total=BRISQUES_TOTAL, other=given[1 - player])
        else:
            text = T("%(player)s: aces and tens", player=names[player])
        score.lines.append(Line(player, text, score.brisques[player], "3"))
    score.bonus(end.last, LAST_TRICK, T("%(player)s wins the last trick", player=names[end.last]),
                "5")
    if end.sweep is not None:
        score.bonus(
            end.sweep, sweep(rules),
            T("%(player)s wins all of tricks 11–16: sweep, on top of the last trick",
              player=names[end.sweep]),
            "5",
        )
