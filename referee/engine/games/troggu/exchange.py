"""The partner call, the exchange and the Tapp (rules 4.2, 4.3, 4.5.2–4.5.3, 8; checks 6.3.6,
6.3.7 and 6.3.9)."""

from __future__ import annotations

from collections.abc import Sequence

from ...cards import SWISS_TAROT, Card
from ...errors import RuleViolation
from ...points import ranges_text
from ..base import Line, and_list
from .facts import HandFacts
from .table import KINGS_ALL_FOUR, KINGS_ANY, KINGS_SEVEN, HandScore, Table
from .values import (
    BAGATT,
    FIVE_POINT_CARDS,
    FIVE_POINT_TRUMPS,
    FOOL,
    FORCED,
    GAME_NAMES,
    MISERE,
    NORMAL,
    PARTNER_PLAYERS,
    SOLO,
    THROWN_IN,
    discard_values,
    is_king,
    points_of,
    tapp_values,
)

# looked up by hash (a discard's every card is: a tuple compared each card with each of these)
_FIVES, _NEVER = frozenset(FIVE_POINT_CARDS), frozenset(FIVE_POINT_TRUMPS)


def check_discard(
    cards: Sequence[Card], tapp: int, kings: str = KINGS_ALL_FOUR, all_kings_held: bool = False
) -> int:
    """A discard picked as cards: exactly ``tapp`` of them, never the fool, XXI or I, and kings
    by the rule in force (0 or 4; any number with the variant; or the seven 5-point cards
    together). Returns its card points."""
    if len(cards) != tapp:
        raise RuleViolation(
            "discard.size",
            f"The Tapp has {tapp} cards, so the Tappist discards exactly {tapp}, not "
            f"{len(cards)}", "4.2.1",
        )
    kings = kings if kings in (KINGS_ANY, KINGS_SEVEN) else KINGS_ALL_FOUR
    held = [c for c in cards if is_king(c)]
    fives = [c for c in cards if c in _FIVES]
    if kings == KINGS_SEVEN and fives and len(fives) < len(FIVE_POINT_CARDS):
        raise RuleViolation(
            "discard.seven",
            f"Discarded: {cards_text(fives)}. With “Seven 5-point cards” a Tappist may discard "
            "5-point cards only all seven together (fool, XXI, I and the four kings)", "8",
        )
    never = [c for c in cards if c in _NEVER]
    if never and kings != KINGS_SEVEN:
        raise RuleViolation(
            "discard.never",
            f"{_names(never)} may never be discarded: the fool, XXI and I stay in play",
            "4.2.2",
        )
    if kings == KINGS_ALL_FOUR and len(held) not in (0, 4):
        raise RuleViolation(
            "discard.kings",
            f"{len(held)} king{'s' if len(held) > 1 else ''} discarded ({cards_text(held)}): kings "
            "are discarded only all four together, by a Tappist who holds all four", "4.2.3",
        )
    if kings == KINGS_ANY and 0 < len(held) < 4 and not all_kings_held:
        raise RuleViolation(
            "discard.kings-held",
            f"{cards_text(held)} discarded: under “Kings: any number” only a Tappist who holds all "
            "four kings may discard some of them — confirm that he did", "8",
        )
    return points_of(list(cards))


def _names(cards: Sequence[Card]) -> str:
    return and_list([SWISS_TAROT.long_name(c) for c in cards])


def cards_text(cards: Sequence[Card]) -> str:
    return " ".join(SWISS_TAROT.short_name(c) for c in cards)


def check_call(
    facts: HandFacts, game: str | None, declarer: int | None, table: Table, score: HandScore
) -> None:
    call = facts.call
    n = table.n
    if call is None:
        if n in PARTNER_PLAYERS and game in (NORMAL, FORCED) and facts.end is not None:
            raise RuleViolation(
                "call.missing",
                f"With {n} players the Tappist calls a trump from I to XX: say who held it, or "
                "that the Tappist plays alone", "4.5.2",
            )
        return
    if n not in PARTNER_PLAYERS:
        raise RuleViolation(
            "call.players",
            f"Only with 7 or 8 players does the Tappist call a partner, not with {n}", "4.5.2",
        )
    if game == SOLO:
        raise RuleViolation("call.solo", "A Soloist calls no partner: he plays alone", "6.3.9")
    if game in (MISERE, THROWN_IN):
        raise RuleViolation(
            "call.game", f"A {GAME_NAMES[game]} has no Tappist and no partner call", "4.5.2"
        )
    trump = "a trump" if call.trump is None else f"trump {SWISS_TAROT.short_name(call.trump)}"
    if declarer is not None and call.partner == declarer:
        raise RuleViolation(
            "call.partner-tappist",
            f"{table.name(declarer)} is the Tappist and cannot be his own partner: if he held "
            f"{trump} himself, he plays alone", "6.3.9",
        )
    if call.partner is not None and call.trump is not None:
        if facts.discard is not None and call.trump in facts.discard:
            raise RuleViolation(
                "call.in-discard",
                f"Trump {SWISS_TAROT.short_name(call.trump)} is in the discard, so it was the "
                f"Tappist's or in the Tapp: the Tappist plays alone, {table.name(call.partner)} "
                "is no partner",
                "4.5.3",
            )
        if call.trump == BAGATT and facts.forced_by == "T1":
            raise RuleViolation(
                "call.forced-bagatt",
                "Trump I forced the Tappist to play, so he holds it: calling it, he plays alone",
                "4.5.3",
            )
    who = "a trump" if call.trump is None else f"trump {SWISS_TAROT.short_name(call.trump)}"
    tappist = "The Tappist" if declarer is None else table.name(declarer)
    if call.partner is None:
        text = f"{tappist} calls {who} and plays alone: it was his own or in the Tapp"
    else:
        text = f"{tappist} calls {who}; {table.name(call.partner)} holds it and is the partner"
    score.detail["partner"] = call.partner
    if score.explain:
        score.lines.append(Line(call.partner, text, None, "4.5"))


def check_exchange(
    facts: HandFacts, game: str | None, declarer: int | None, table: Table, score: HandScore
) -> int | None:
    """The discard's card points, when entered (4.2, 4.3, 6.3.6)."""
    if facts.discard is None and facts.discard_points is None:
        return None
    if game == SOLO:
        raise RuleViolation(
            "discard.solo", "A Soloist does not exchange: there is no discard in a Solo "
            "(the Tapp's cards or points go under the Tapp)", "4.2.5",
        )
    if game in (MISERE, THROWN_IN):
        raise RuleViolation(
            "discard.misere", f"In a {GAME_NAMES[game]} the Tapp stays aside: nobody discards",
            "4.4",
        )
    value = facts.discard_points
    if facts.discard is not None:
        value = check_discard(facts.discard, table.t, table.kings, facts.all_kings_held)
        if facts.discard_points is not None and facts.discard_points != value:
            raise RuleViolation(
                "discard.points",
                f"The discard {cards_text(facts.discard)} is worth {value} card points, not "
                f"{facts.discard_points}", "3",
            )
        shown_cards = f" {cards_text(facts.discard)}"
    else:
        assert value is not None
        possible = discard_values(table.t, table.kings)
        if value not in possible:
            raise RuleViolation(
                "discard.value",
                f"A legal discard of {table.t} cards is worth {ranges_text(possible)} card "
                f"points, not {value}", "4.2",
            )
        shown_cards = ""
    who = "the Tappist's" if declarer is None else f"{table.name(declarer)}'s"
    score.detail["discard_points"] = value
    if score.explain:
        score.lines.append(Line(
            declarer, f"Discard{shown_cards}: {value} card points, counted for {who} side",
            None, "4.3",
        ))
    return value


def check_tapp(
    facts: HandFacts, game: str | None, table: Table, score: HandScore
) -> int | None:
    """The Tapp's card points, when entered (Solo and Misère: 4.3, 4.4, 6.3.7)."""
    if facts.tapp is None and facts.tapp_points is None:
        return None
    if game in (NORMAL, FORCED):
        raise RuleViolation(
            "tapp.game",
            "In a normal game the Tappist's discard counts, not the Tapp: record the discard",
            "4.3",
        )
    if game == THROWN_IN:
        raise RuleViolation("tapp.game", "A thrown-in hand has no score: leave the Tapp out", "8")
    both = game == MISERE and table.n in PARTNER_PLAYERS
    value = facts.tapp_points
    if facts.tapp is not None:
        if len(facts.tapp) != table.t:
            raise RuleViolation(
                "tapp.size",
                f"With {table.n} players the Tapp has {table.t} cards, not {len(facts.tapp)}",
                "2.1",
            )
        if both and not {FOOL, BAGATT} <= set(facts.tapp):
            raise RuleViolation(
                "misere.tapp",
                f"With {table.n} players a Misère is played only when the fool and trump I "
                "both lie in the Tapp; otherwise their holder plays a forced game", "4.5.1",
            )
        value = points_of(list(facts.tapp))
        if facts.tapp_points is not None and facts.tapp_points != value:
            raise RuleViolation(
                "tapp.points",
                f"The Tapp {cards_text(facts.tapp)} is worth {value} card points, not "
                f"{facts.tapp_points}", "3",
            )
    else:
        assert value is not None
        possible = tapp_values(table.t, both)
        if value not in possible:
            holding = ", the fool and trump I among them," if both else ""
            raise RuleViolation(
                "tapp.value",
                f"A Tapp of {table.t} cards{holding} is worth {ranges_text(possible)} card "
                f"points, not {value}", "6.3.7" if game == MISERE else "6.3.4",
            )
    score.detail["tapp_points"] = value
    use = "counted for the Soloist" if game == SOLO else "counted for nobody"
    if score.explain:
        listed = "" if facts.tapp is None else f" {cards_text(facts.tapp)}"
        score.lines.append(Line(None, f"Tapp{listed}: {value} card points, {use}", None, "4.3"))
    return value
