"""Checking and scoring one Troggu hand from its facts (rules 6.3 and 7).

``score_hand`` runs every check of 6.3 that the facts allow (the bidding and game in
``bidding``, the call, exchange and Tapp in ``exchange``, the card points and tricks here), then
settles the hand (``payments``).
"""

from __future__ import annotations

from ...errors import RuleViolation
from ...points import ranges_text
from ...words import N, T, Text
from ..base import Line
from .bidding import check_game
from .choices import awaits_call, void_choices
from .exchange import check_call, check_exchange, check_tapp
from .facts import HandFacts, MisereEnd, SideEnd
from .payments import pay_misere, pay_side
from .table import HandScore, Table, names_of_side
from .values import (
    A_GAME,
    FOOL,
    FORCED,
    HALF,
    MISERE,
    PARTNER_PLAYERS,
    SOLO,
    THROWN_IN,
    TOTAL_POINTS,
    WIN_AT,
    hi,
    lo,
    tapp_values,
)


def score_hand(
    facts: HandFacts, dealer: int, table: Table, trusted: bool = False, explain: bool = True
) -> HandScore:
    """Check every rule of 6.3 the facts allow and settle the hand (7.1–7.4). ``trusted``:
    facts the app checked when it stored them: their seats are not checked again.
    ``explain``: False, the lines are not written (``HandScore.explain``)."""
    if not trusted:
        _check_seats(facts, dealer, table)
    score = HandScore([0] * table.n, explain=explain)
    declared = check_game(facts, dealer, table, score)
    game, declarer = declared.game, declared.declarer
    score.detail.update(game=game, declarer=declarer, partner=None)
    facts = void_choices(facts, game, declarer, table, score)
    pending = awaits_call(game, table, score)
    if not pending:
        check_call(facts, game, declarer, table, score)
    discard = check_exchange(facts, game, declarer, table, score)
    tapp = check_tapp(facts, game, table, score)
    end = facts.end
    if end is not None and end.fool_kept is not None and facts.tapp is not None \
            and FOOL in facts.tapp:
        raise RuleViolation(
            "fool.in-tapp",
            T("The fool lay in the Tapp, so %(player)s cannot have kept it",
              player=table.name(end.fool_kept)),
            "2.5.3",
        )
    if game == THROWN_IN:
        if end is not None:
            raise RuleViolation(
                "thrown-in.played",
                T("A thrown-in hand is not played: it has no points and no tricks"), "8",
            )
        score.lines.append(Line(
            None, T("All passed: under “No Misère” the hand is thrown in; nobody pays and the "
                    "deal passes on"), None, "8",
        ))
        score.summary = T("thrown in: no payments")
        return score
    if end is None:
        score.complete = False
        score.summary = T("in progress")
        return score
    if pending and declarer is not None:
        score.detail["pending"] = "call"
        score.summary = T("waiting for %(player)s's partner call: no payments yet",
                          player=table.name(declarer))
        return score
    if game is None:
        passed = facts.bids is not None and len(facts.bids) == table.n
        raise RuleViolation(
            "game.missing",
            T("Say which game was played: all passed, so it is a forced game or a Misère")
            if passed else T("Say which game was played: normal, Solo, forced or Misère"),
            "4.5.1" if passed else "6.1",
        )
    if game == MISERE:
        if not isinstance(end, MisereEnd):
            raise RuleViolation(
                "misere.points",
                T("In a Misère every player plays alone: give each player's card points"),
                "6.1",
            )
        _settle_misere(end, tapp, table, score)
    else:
        if not isinstance(end, SideEnd):
            raise RuleViolation(
                "end.points",
                T("In %(game)s give the declarer side's card points (one number)",
                  game=A_GAME[game]),
                "6.1",
            )
        if declarer is None:
            raise RuleViolation(
                "declarer.missing", T("Say who played %(game)s", game=A_GAME[game]), "6.1"
            )
        _settle_side(facts, end, game, declarer, discard, tapp, table, score)
    assert sum(score.payments) == 0, "Troggu: a hand's payments must add up to 0 (6.3.10)"
    return score


def _check_seats(facts: HandFacts, dealer: int, table: Table) -> None:
    n = table.n
    seats: list[tuple[str, int | None]] = [
        ("dealer", dealer), ("declarer", facts.declarer),
        ("partner", None if facts.call is None else facts.call.partner),
        ("called", None if facts.call is None else facts.call.by),
        ("discarded", facts.discard_by),
        ("fool", None if facts.end is None else facts.end.fool_kept),
    ]
    for what, seat in seats:
        if seat is not None and seat >= n:
            raise RuleViolation("fact.player", _not_a_player(what, n, seat + 1), "6.1")
    if isinstance(facts.end, MisereEnd):
        end = facts.end
        if len(end.points) != n:
            raise RuleViolation(
                "misere.points", T("Give the card points of each of the %(players)s players, "
                                   "not %(given)s", players=n, given=len(end.points)), "6.1",
            )
        if end.tricks is not None and len(end.tricks) != n:
            raise RuleViolation(
                "misere.tricks", T("Give the tricks of each of the %(players)s players, not "
                                   "%(given)s", players=n, given=len(end.tricks)), "6.1",
            )


def _not_a_player(what: str, players: int, seat: int) -> Text:
    if what == "dealer":
        return T("The dealer must be one of the %(players)s players, not seat %(seat)s",
                 players=players, seat=seat)
    if what == "declarer":
        return T("The declarer must be one of the %(players)s players, not seat %(seat)s",
                 players=players, seat=seat)
    if what == "partner":
        return T("The partner must be one of the %(players)s players, not seat %(seat)s",
                 players=players, seat=seat)
    if what == "called":
        return T("The Tappist who called must be one of the %(players)s players, not seat "
                 "%(seat)s", players=players, seat=seat)
    if what == "discarded":
        return T("The Tappist who discarded must be one of the %(players)s players, not seat "
                 "%(seat)s", players=players, seat=seat)
    return T("The player who kept the fool must be one of the %(players)s players, not seat "
             "%(seat)s", players=players, seat=seat)


# -- 6.3 and 7.1–7.3: normal, forced and Solo games -------------------------------------------

def _settle_side(
    facts: HandFacts, end: SideEnd, game: str, declarer: int, discard: int | None,
    tapp: int | None, table: Table, score: HandScore,
) -> None:
    n, h, t = table.n, table.h, table.t
    partner = None if facts.call is None else facts.call.partner
    side = {declarer} if partner is None else {declarer, partner}
    own = discard if game != SOLO else tapp          # what counts for the declarer side (4.3)
    points = end.points
    defenders = TOTAL_POINTS - points
    side_name = names_of_side(declarer, partner, table)
    if end.defenders is not None and end.defenders + points != TOTAL_POINTS:
        raise RuleViolation(
            "points.sum",
            T("Card points add up to %(total)s: %(side)s %(points)s + defenders %(defenders)s "
              "= %(sum)s", total=TOTAL_POINTS, side=side_name, points=points,
              defenders=end.defenders, sum=points + end.defenders), "6.3.1",
        )
    if end.tricks is not None and end.tricks > h:
        raise RuleViolation(
            "tricks.range",
            T("With %(players)s players a hand has %(tricks)s tricks: %(side)s cannot win "
              "%(won)s", players=n, tricks=h, side=side_name, won=end.tricks),
            "6.3.3",
        )
    kept = end.fool_kept
    kept_by_side = kept is not None and kept in side
    if kept is not None:
        _check_fool_kept(facts, game, declarer, kept, kept_by_side, end, table)
    decl_no_trick, def_no_trick = _no_trick(end, points, kept, kept_by_side, side_name, table)
    # 6.3.5: a side that won no trick
    if def_no_trick:
        allowed = 5 if kept is not None and not kept_by_side else 0
        if defenders != allowed:
            if allowed == 0:
                message = T(
                    "The defenders won no trick, so they have 0 card points (or 5 if one of "
                    "them kept a withheld fool: record who), not %(points)s (%(total)s − "
                    "%(declarer)s)", points=defenders, total=TOTAL_POINTS, declarer=points)
            else:
                message = T(
                    "The defenders won no trick, so they have only the withheld fool's 5 card "
                    "points, not %(points)s (%(total)s − %(declarer)s)", points=defenders,
                    total=TOTAL_POINTS, declarer=points)
            raise RuleViolation("points.no-trick", message, "6.3.5")
    if decl_no_trick and own is not None:
        expected = own + (5 if kept_by_side else 0)
        if points != expected:
            raise RuleViolation("points.no-trick", _only_own(
                game, side_name, own, kept_by_side, expected, points), "6.3.5")
    # 6.3.4: what the cards a side ends with can hold
    if end.tricks is not None:
        options = [end.tricks]
    elif decl_no_trick:
        options = [0]
    elif def_no_trick:
        options = [h]
    else:
        options = list(range(1, h))
    adjust = 1 if kept_by_side else -1 if kept is not None else 0
    if not any(lo(n * k + t + adjust) <= points <= hi(n * k + t + adjust) for k in options):
        raise RuleViolation("points.impossible", _impossible(
            points, options, n, t, adjust, side_name), "6.3.4")
    # 6.3.6: the discard (or the Solo's Tapp) is part of the declarer side's points
    if own is not None and own > points:
        if game != SOLO:
            raise RuleViolation("points.below-discard", T(
                "The discard alone is worth %(own)s card points, more than %(side)s's "
                "%(points)s", own=own, side=side_name, points=points), "6.3.6")
        raise RuleViolation("points.below-tapp", T(
            "The Tapp alone is worth %(own)s card points, more than %(side)s's %(points)s",
            own=own, side=side_name, points=points), "6.3.6")
    pay_side(game, declarer, partner, points, decl_no_trick, def_no_trick, table, score)


def _only_own(
    game: str, side: object, own: int, kept_by_side: bool, expected: int, points: int
) -> Text:
    """6.3.5: a declarer side that won no trick has only the discard (the Solo's Tapp), and a
    fool it kept."""
    if game != SOLO and kept_by_side:
        return T("%(side)s won no trick: the side has only the discard's %(own)s card points "
                 "plus the withheld fool's 5 = %(expected)s, not %(points)s", side=side,
                 own=own, expected=expected, points=points)
    if game != SOLO:
        return T("%(side)s won no trick: the side has only the discard's %(own)s card points, "
                 "not %(points)s", side=side, own=own, points=points)
    if kept_by_side:
        return T("%(side)s won no trick: the side has only the Tapp's %(own)s card points plus "
                 "the withheld fool's 5 = %(expected)s, not %(points)s", side=side, own=own,
                 expected=expected, points=points)
    return T("%(side)s won no trick: the side has only the Tapp's %(own)s card points, not "
             "%(points)s", side=side, own=own, points=points)


def _check_fool_kept(
    facts: HandFacts, game: str, declarer: int, kept: int, kept_by_side: bool, end: SideEnd,
    table: Table,
) -> None:
    who = table.name(kept)
    if game == FORCED and kept != declarer and facts.forced_by is not None:
        if facts.forced_by == "F":
            message = T("%(declarer)s held the fool, so %(player)s cannot have kept it",
                        declarer=table.name(declarer), player=who)
        else:
            message = T("%(declarer)s took the fool up with the Tapp, so %(player)s cannot "
                        "have kept it", declarer=table.name(declarer), player=who)
        raise RuleViolation("fool.forced", message, "4.5.1")
    if end.tricks is not None and end.tricks != (0 if kept_by_side else table.h):
        if kept_by_side:
            message = T("%(player)s kept a withheld fool, which is recorded only when "
                        "%(player)s's side won no trick (otherwise %(player)s handed a 1-point "
                        "card over for it)", player=who)
        else:
            message = T("%(player)s kept a withheld fool, which is recorded only when the "
                        "defenders won no trick (otherwise %(player)s handed a 1-point card "
                        "over for it)", player=who)
        raise RuleViolation("fool.kept-trick", message, "2.5.3")


def _no_trick(
    end: SideEnd, points: int, kept: int | None, kept_by_side: bool, side_name: object,
    table: Table,
) -> tuple[bool, bool]:
    """Whether the declarer side, and the defenders, won no trick (from the tricks, from
    ``loser_took_trick`` and from a kept fool, which must agree)."""
    h = table.h
    # (declarer side won none, defenders won none, the fact that says so)
    known: list[tuple[bool, bool, str]] = []
    if end.tricks is not None:
        known.append((end.tricks == 0, end.tricks == h, "tricks"))
    if end.loser_took_trick is not None:
        if points == HALF:
            if not end.loser_took_trick:
                raise RuleViolation(
                    "tricks.no-loser",
                    T("At %(half)s–%(half)s nobody loses, and each side has won tricks",
                      half=HALF), "7.1.1",
                )
            known.append((False, False, "half"))
        else:
            none = not end.loser_took_trick
            known.append((none and points < WIN_AT, none and points >= WIN_AT, "loser"))
    if kept is not None:
        known.append((kept_by_side, not kept_by_side, "fool"))
    if not known:
        raise RuleViolation(
            "tricks.missing",
            T("Say how many tricks %(side)s won, or whether the losing side won a trick",
              side=side_name), "6.1",
        )
    for first in known[1:]:
        if first[:2] != known[0][:2]:
            said = [_fact(fact, end, points, kept, side_name, table)
                    for fact in (known[0][2], first[2])]
            raise RuleViolation(
                "tricks.conflict",
                T("These facts disagree: %(first)s, but %(second)s", first=said[0],
                  second=said[1]), "6.3.3",
            )
    return known[0][0], known[0][1]


def _fact(
    fact: str, end: SideEnd, points: int, kept: int | None, side_name: object, table: Table
) -> Text:
    """One of the facts ``_no_trick`` holds against each other, in words."""
    if fact == "tricks":
        return T("%(side)s won %(won)s of %(tricks)s", side=side_name, won=end.tricks,
                 tricks=table.h)
    if fact == "half":
        return T("both sides won tricks")
    if fact == "fool":
        return T("%(player)s kept the fool", player=table.name(kept or 0))
    if points >= WIN_AT:
        return T("the loser, the defenders, won a trick") if end.loser_took_trick else \
            T("the loser, the defenders, won no trick")
    return T("the loser, %(side)s, won a trick", side=side_name) if end.loser_took_trick else \
        T("the loser, %(side)s, won no trick", side=side_name)


def _impossible(
    points: int, options: list[int], n: int, t: int, adjust: int, side_name: object
) -> Text:
    if len(options) == 1:
        k = options[0]
        c = n * k + t + adjust
        values = dict(num=k, side=side_name, cards=c, players=n, tapp=t, low=lo(c), high=hi(c),
                      points=points)
        if adjust == 1:
            return N("With %(num)s trick, %(side)s took %(cards)s cards (%(players)s × %(num)s "
                     "+ Tapp %(tapp)s + the kept fool), which hold %(low)s–%(high)s card "
                     "points, not %(points)s",
                     "With %(num)s tricks, %(side)s took %(cards)s cards (%(players)s × "
                     "%(num)s + Tapp %(tapp)s + the kept fool), which hold %(low)s–%(high)s "
                     "card points, not %(points)s", k, **values)
        if adjust == -1:
            return N("With %(num)s trick, %(side)s took %(cards)s cards (%(players)s × %(num)s "
                     "+ Tapp %(tapp)s − the fool kept by a defender), which hold "
                     "%(low)s–%(high)s card points, not %(points)s",
                     "With %(num)s tricks, %(side)s took %(cards)s cards (%(players)s × "
                     "%(num)s + Tapp %(tapp)s − the fool kept by a defender), which hold "
                     "%(low)s–%(high)s card points, not %(points)s", k, **values)
        return N("With %(num)s trick, %(side)s took %(cards)s cards (%(players)s × %(num)s + "
                 "Tapp %(tapp)s), which hold %(low)s–%(high)s card points, not %(points)s",
                 "With %(num)s tricks, %(side)s took %(cards)s cards (%(players)s × %(num)s + "
                 "Tapp %(tapp)s), which hold %(low)s–%(high)s card points, not %(points)s",
                 k, **values)
    first, last = options[0], options[-1]
    return T("%(side)s cannot have %(points)s card points with any number of tricks from "
             "%(first)s to %(last)s: they hold %(low)s–%(high)s", side=side_name,
             points=points, first=first, last=last, low=lo(n * first + t + adjust),
             high=hi(n * last + t + adjust))


# -- 6.3 and 7.4: the Misère ------------------------------------------------------------------

def _settle_misere(end: MisereEnd, tapp: int | None, table: Table, score: HandScore) -> None:
    n, h, t = table.n, table.h, table.t
    points = end.points
    total = sum(points)
    both = n in PARTNER_PLAYERS
    if tapp is not None:
        if total != TOTAL_POINTS - tapp:
            raise RuleViolation(
                "misere.sum",
                T("The players' card points add up to %(total)s − the Tapp's %(tapp)s = "
                  "%(expected)s, not %(given)s", total=TOTAL_POINTS, tapp=tapp,
                  expected=TOTAL_POINTS - tapp, given=total), "6.3.7",
            )
    elif TOTAL_POINTS - total not in tapp_values(t, both):
        possible = sorted(TOTAL_POINTS - v for v in tapp_values(t, both))
        raise RuleViolation(
            "misere.sum",
            T("With a Tapp of %(tapp)s cards the players' card points add up to %(possible)s, "
              "not %(given)s", tapp=t, possible=ranges_text(possible), given=total), "6.3.7",
        )
    kept = end.fool_kept
    if kept is not None:
        if both:
            raise RuleViolation(
                "fool.misere",
                T("With %(players)s players a Misère means the fool lies in the Tapp: nobody "
                  "kept it", players=n), "4.5.1",
            )
        if points[kept] != 5 or (end.tricks is not None and end.tricks[kept] != 0):
            raise RuleViolation(
                "fool.kept-trick",
                T("%(player)s kept a withheld fool, which is recorded only when %(player)s won "
                  "no trick and so has exactly its 5 card points", player=table.name(kept)),
                "2.5.3",
            ).of_seat(kept)
    if end.tricks is not None:
        tricks = end.tricks
        if sum(tricks) != h:
            raise RuleViolation(
                "misere.tricks",
                T("With %(players)s players a hand has %(tricks)s tricks, not %(sum)s = "
                  "%(total)s", players=n, tricks=h, sum=" + ".join(map(str, tricks)),
                  total=sum(tricks)), "6.3.3",
            )
        for seat in range(n):
            k, p = tricks[seat], points[seat]
            name = table.name(seat)
            if k == 0:
                if p != (5 if seat == kept else 0):
                    if p == 5:
                        message = T("%(player)s won no trick and so has no card points (5 with "
                                    "a withheld fool kept: record it), not %(points)s",
                                    player=name, points=p)
                    else:
                        message = T("%(player)s won no trick and so has no card points, not "
                                    "%(points)s", player=name, points=p)
                    raise RuleViolation("points.no-trick", message, "6.3.5").of_seat(seat)
                continue
            c = n * k
            low = lo(c - 1) if kept is not None else lo(c)   # the fool's keeper may have won
            if not low <= p <= hi(c):                        # the last trick
                raise RuleViolation(
                    "points.impossible",
                    N("%(player)s won %(num)s trick, %(cards)s cards, which hold "
                      "%(low)s–%(high)s card points, not %(points)s",
                      "%(player)s won %(num)s tricks, %(cards)s cards, which hold "
                      "%(low)s–%(high)s card points, not %(points)s", k, player=name, num=k,
                      cards=c, low=low, high=hi(c), points=p), "6.3.4",
                ).of_seat(seat)
    pay_misere(points, table, score)


__all__ = ["score_hand"]
