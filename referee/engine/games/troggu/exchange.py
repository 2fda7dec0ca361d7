"""The partner call, the exchange and the Tapp (rules 4.2, 4.3, 4.5.2–4.5.3, 8; checks 6.3.6,
6.3.7 and 6.3.9)."""

from __future__ import annotations

from collections.abc import Sequence

from ...cards import SWISS_TAROT, Card
from ...errors import RuleViolation
from ...points import ranges_text
from ...words import N, T, Text, listing
from ..base import Line
from .facts import HandFacts
from .table import KINGS_ALL_FOUR, KINGS_ANY, KINGS_SEVEN, HandScore, Table
from .values import (
    A_GAME,
    BAGATT,
    FIVE_POINT_CARDS,
    FIVE_POINT_TRUMPS,
    FOOL,
    FORCED,
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
            T("The Tapp has %(tapp)s cards, so the Tappist discards exactly %(tapp)s, not "
              "%(given)s", tapp=tapp, given=len(cards)), "4.2.1",
        )
    kings = kings if kings in (KINGS_ANY, KINGS_SEVEN) else KINGS_ALL_FOUR
    held = [c for c in cards if is_king(c)]
    fives = [c for c in cards if c in _FIVES]
    if kings == KINGS_SEVEN and fives and len(fives) < len(FIVE_POINT_CARDS):
        raise RuleViolation(
            "discard.seven",
            T("Discarded: %(cards)s. With “Seven 5-point cards” a Tappist may discard 5-point "
              "cards only all seven together (fool, XXI, I and the four kings)",
              cards=cards_text(fives)), "8",
        )
    never = [c for c in cards if c in _NEVER]
    if never and kings != KINGS_SEVEN:
        raise RuleViolation(
            "discard.never",
            T("%(cards)s may never be discarded: the fool, XXI and I stay in play",
              cards=listing([SWISS_TAROT.long_name(c) for c in never])),
            "4.2.2",
        )
    if kings == KINGS_ALL_FOUR and len(held) not in (0, 4):
        raise RuleViolation(
            "discard.kings",
            N("%(num)s king discarded (%(cards)s): kings are discarded only all four "
              "together, by a Tappist who holds all four",
              "%(num)s kings discarded (%(cards)s): kings are discarded only all four "
              "together, by a Tappist who holds all four", len(held), num=len(held),
              cards=cards_text(held)), "4.2.3",
        )
    if kings == KINGS_ANY and 0 < len(held) < 4 and not all_kings_held:
        raise RuleViolation(
            "discard.kings-held",
            T("%(cards)s discarded: under “Kings: any number” only a Tappist who holds all "
              "four kings may discard some of them — confirm that the Tappist did",
              cards=cards_text(held)), "8",
        )
    return points_of(list(cards))


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
                T("With %(players)s players the Tappist calls a trump from I to XX: say who "
                  "held it, or that the Tappist plays alone", players=n), "4.5.2",
            )
        return
    if n not in PARTNER_PLAYERS:
        raise RuleViolation(
            "call.players",
            T("Only with 7 or 8 players does the Tappist call a partner, not with %(players)s",
              players=n), "4.5.2",
        )
    if game == SOLO:
        raise RuleViolation("call.solo", T("A Soloist calls no partner and plays alone"),
                            "6.3.9")
    if game in (MISERE, THROWN_IN):
        raise RuleViolation(
            "call.game", T("There is no Tappist and no partner call in %(game)s",
                           game=A_GAME[game]), "4.5.2"
        )
    trump = T("a trump") if call.trump is None else \
        T("trump %(card)s", card=SWISS_TAROT.short_name(call.trump))
    if declarer is not None and call.partner == declarer:
        raise RuleViolation(
            "call.partner-tappist",
            T("%(player)s is the Tappist and cannot also be the partner: a Tappist holding "
              "%(trump)s plays alone", player=table.name(declarer), trump=trump), "6.3.9",
        )
    if call.partner is not None and call.trump is not None:
        if facts.discard is not None and call.trump in facts.discard:
            raise RuleViolation(
                "call.in-discard",
                T("Trump %(card)s is in the discard, so it was the Tappist's or in the Tapp: "
                  "the Tappist plays alone, %(player)s is no partner",
                  card=SWISS_TAROT.short_name(call.trump), player=table.name(call.partner)),
                "4.5.3",
            )
        if call.trump == BAGATT and facts.forced_by == "T1":
            raise RuleViolation(
                "call.forced-bagatt",
                T("Trump I forced the Tappist to play, so the Tappist holds it and, calling "
                  "it, plays alone"),
                "4.5.3",
            )
    score.detail["partner"] = call.partner
    if score.explain:
        score.lines.append(Line(call.partner, _call_text(call.partner, declarer, trump, table),
                                None, "4.5"))


def _call_text(partner: int | None, declarer: int | None, trump: Text, table: Table) -> Text:
    if declarer is None:
        return T("The Tappist calls %(trump)s and plays alone: it was the Tappist's own or in "
                 "the Tapp", trump=trump) if partner is None else \
            T("The Tappist calls %(trump)s; %(partner)s holds it and is the partner",
              trump=trump, partner=table.name(partner))
    if partner is None:
        return T("%(player)s calls %(trump)s and plays alone: it was %(player)s's own or in "
                 "the Tapp", player=table.name(declarer), trump=trump)
    return T("%(player)s calls %(trump)s; %(partner)s holds it and is the partner",
             player=table.name(declarer), trump=trump, partner=table.name(partner))


def check_exchange(
    facts: HandFacts, game: str | None, declarer: int | None, table: Table, score: HandScore
) -> int | None:
    """The discard's card points, when entered (4.2, 4.3, 6.3.6)."""
    if facts.discard is None and facts.discard_points is None:
        return None
    if game == SOLO:
        raise RuleViolation(
            "discard.solo", T("A Soloist does not exchange: there is no discard in a Solo "
                              "(the Tapp's cards or points go under the Tapp)"), "4.2.5",
        )
    if game in (MISERE, THROWN_IN):
        raise RuleViolation(
            "discard.misere", T("In %(game)s the Tapp stays aside: nobody discards",
                                game=A_GAME[game]),
            "4.4",
        )
    value = facts.discard_points
    if facts.discard is not None:
        value = check_discard(facts.discard, table.t, table.kings, facts.all_kings_held)
        if facts.discard_points is not None and facts.discard_points != value:
            raise RuleViolation(
                "discard.points",
                T("The discard %(cards)s is worth %(value)s card points, not %(given)s",
                  cards=cards_text(facts.discard), value=value, given=facts.discard_points),
                "3",
            )
    else:
        assert value is not None
        possible = discard_values(table.t, table.kings)
        if value not in possible:
            raise RuleViolation(
                "discard.value",
                T("A legal discard of %(tapp)s cards is worth %(possible)s card points, not "
                  "%(given)s", tapp=table.t, possible=ranges_text(possible), given=value),
                "4.2",
            )
    score.detail["discard_points"] = value
    if score.explain:
        score.lines.append(Line(declarer, _discard_text(facts, value, declarer, table), None,
                                "4.3"))
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
            T("In a normal game the Tappist's discard counts, not the Tapp: record the "
              "discard"),
            "4.3",
        )
    if game == THROWN_IN:
        raise RuleViolation("tapp.game", T("A thrown-in hand has no score: leave the Tapp out"),
                            "8")
    both = game == MISERE and table.n in PARTNER_PLAYERS
    value = facts.tapp_points
    if facts.tapp is not None:
        if len(facts.tapp) != table.t:
            raise RuleViolation(
                "tapp.size",
                T("With %(players)s players the Tapp has %(tapp)s cards, not %(given)s",
                  players=table.n, tapp=table.t, given=len(facts.tapp)),
                "2.1",
            )
        if both and not {FOOL, BAGATT} <= set(facts.tapp):
            raise RuleViolation(
                "misere.tapp",
                T("With %(players)s players a Misère is played only when the fool and trump I "
                  "both lie in the Tapp; otherwise their holder plays a forced game",
                  players=table.n), "4.5.1",
            )
        value = points_of(list(facts.tapp))
        if facts.tapp_points is not None and facts.tapp_points != value:
            raise RuleViolation(
                "tapp.points",
                T("The Tapp %(cards)s is worth %(value)s card points, not %(given)s",
                  cards=cards_text(facts.tapp), value=value, given=facts.tapp_points), "3",
            )
    else:
        assert value is not None
        possible = tapp_values(table.t, both)
        if value not in possible:
            values = dict(tapp=table.t, possible=ranges_text(possible), given=value)
            raise RuleViolation(
                "tapp.value",
                T("A Tapp of %(tapp)s cards, the fool and trump I among them, is worth "
                  "%(possible)s card points, not %(given)s", **values) if both else
                T("A Tapp of %(tapp)s cards is worth %(possible)s card points, not %(given)s",
                  **values), "6.3.7" if game == MISERE else "6.3.4",
            )
    score.detail["tapp_points"] = value
    if score.explain:
        score.lines.append(Line(None, _tapp_text(facts, value, game == SOLO), None, "4.3"))
    return value


def _discard_text(facts: HandFacts, value: int, declarer: int | None, table: Table) -> Text:
    """``Discard Q♠ 9♠ …: 16 card points, counted for Carla's side``."""
    values = dict(num=value, player=None if declarer is None else table.name(declarer),
                  cards=None if facts.discard is None else cards_text(facts.discard))
    if facts.discard is None and declarer is None:
        return N("Discard: %(num)s card point, counted for the Tappist's side",
                 "Discard: %(num)s card points, counted for the Tappist's side", value, **values)
    if facts.discard is None:
        return N("Discard: %(num)s card point, counted for %(player)s's side",
                 "Discard: %(num)s card points, counted for %(player)s's side", value, **values)
    if declarer is None:
        return N("Discard %(cards)s: %(num)s card point, counted for the Tappist's side",
                 "Discard %(cards)s: %(num)s card points, counted for the Tappist's side", value,
                 **values)
    return N("Discard %(cards)s: %(num)s card point, counted for %(player)s's side",
             "Discard %(cards)s: %(num)s card points, counted for %(player)s's side", value,
             **values)


def _tapp_text(facts: HandFacts, value: int, solo: bool) -> Text:
    """``Tapp F XXI …: 47 card points, counted for the Soloist`` (or for nobody)."""
    if facts.tapp is None:
        return N("Tapp: %(num)s card point, counted for the Soloist",
                 "Tapp: %(num)s card points, counted for the Soloist", value, num=value) \
            if solo else N("Tapp: %(num)s card point, counted for nobody",
                           "Tapp: %(num)s card points, counted for nobody", value, num=value)
    cards = cards_text(facts.tapp)
    return N("Tapp %(cards)s: %(num)s card point, counted for the Soloist",
             "Tapp %(cards)s: %(num)s card points, counted for the Soloist", value, num=value,
             cards=cards) if solo else \
        N("Tapp %(cards)s: %(num)s card point, counted for nobody",
          "Tapp %(cards)s: %(num)s card points, counted for nobody", value, num=value,
          cards=cards)
