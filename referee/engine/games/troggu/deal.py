"""Checking and scoring one Troggu hand from its facts (rules 6.3 and 7).

``score_hand`` runs every check of 6.3 that the facts allow (the bidding and game in
``bidding``, the call, exchange and Tapp in ``exchange``, the card points and tricks here), then
settles the hand (``payments``).
"""

from __future__ import annotations

from ...errors import RuleViolation
from ...points import ranges_text
from ..base import Line
from .bidding import check_game
from .choices import awaits_call, void_choices
from .exchange import check_call, check_exchange, check_tapp
from .facts import HandFacts, MisereEnd, SideEnd
from .payments import pay_misere, pay_side
from .table import HandScore, Table, names_of_side
from .values import (
    FOOL,
    FORCED,
    GAME_NAMES,
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
            f"The fool lay in the Tapp, so {table.name(end.fool_kept)} cannot have kept it",
            "2.5.3",
        )
    if game == THROWN_IN:
        if end is not None:
            raise RuleViolation(
                "thrown-in.played",
                "A thrown-in hand is not played: it has no points and no tricks", "8",
            )
        score.lines.append(Line(
            None, "All passed: under “No Misère” the hand is thrown in; nobody pays and the "
            "deal passes on", None, "8",
        ))
        score.summary = "thrown in: no payments"
        return score
    if end is None:
        score.complete = False
        score.summary = "in progress"
        return score
    if pending and declarer is not None:
        score.detail["pending"] = "call"
        score.summary = f"waiting for {table.name(declarer)}'s partner call: no payments yet"
        return score
    if game is None:
        passed = facts.bids is not None and len(facts.bids) == table.n
        raise RuleViolation(
            "game.missing",
            "Say which game was played: all passed, so it is a forced game or a Misère"
            if passed else "Say which game was played: normal, Solo, forced or Misère",
            "4.5.1" if passed else "6.1",
        )
    if game == MISERE:
        if not isinstance(end, MisereEnd):
            raise RuleViolation(
                "misere.points",
                "In a Misère everyone plays for himself: give each player's card points", "6.1",
            )
        _settle_misere(end, tapp, table, score)
    else:
        if not isinstance(end, SideEnd):
            raise RuleViolation(
                "end.points",
                f"In a {GAME_NAMES[game]} give the declarer side's card points (one number)",
                "6.1",
            )
        if declarer is None:
            raise RuleViolation(
                "declarer.missing", f"Say who played the {GAME_NAMES[game]}", "6.1"
            )
        _settle_side(facts, end, game, declarer, discard, tapp, table, score)
    assert sum(score.payments) == 0, "Troggu: a hand's payments must add up to 0 (6.3.10)"
    return score


def _check_seats(facts: HandFacts, dealer: int, table: Table) -> None:
    n = table.n
    seats: list[tuple[str, int | None]] = [
        ("The dealer", dealer), ("The declarer", facts.declarer),
        ("The partner", None if facts.call is None else facts.call.partner),
        ("The Tappist who called", None if facts.call is None else facts.call.by),
        ("The Tappist who discarded", facts.discard_by),
        ("The player who kept the fool", None if facts.end is None else facts.end.fool_kept),
    ]
    for what, seat in seats:
        if seat is not None and seat >= n:
            raise RuleViolation(
                "fact.player", f"{what} must be one of the {n} players, not seat {seat + 1}",
                "6.1",
            )
    if isinstance(facts.end, MisereEnd):
        end = facts.end
        if len(end.points) != n:
            raise RuleViolation(
                "misere.points", f"Give the card points of each of the {n} players, not "
                f"{len(end.points)}", "6.1",
            )
        if end.tricks is not None and len(end.tricks) != n:
            raise RuleViolation(
                "misere.tricks", f"Give the tricks of each of the {n} players, not "
                f"{len(end.tricks)}", "6.1",
            )


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
            f"Card points add up to {TOTAL_POINTS}: {side_name} {points} + defenders "
            f"{end.defenders} = {points + end.defenders}", "6.3.1",
        )
    if end.tricks is not None and end.tricks > h:
        raise RuleViolation(
            "tricks.range",
            f"With {n} players a hand has {h} tricks: {side_name} cannot win {end.tricks}",
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
            fool = (
                " (or 5 if one of them kept a withheld fool: record who)" if allowed == 0
                else " besides the withheld fool's 5"
            )
            raise RuleViolation(
                "points.no-trick",
                f"The defenders won no trick, so they have {allowed} card points{fool}, not "
                f"{defenders} ({TOTAL_POINTS} − {points})", "6.3.5",
            )
    if decl_no_trick and own is not None:
        expected = own + (5 if kept_by_side else 0)
        if points != expected:
            what = "the discard's" if game != SOLO else "the Tapp's"
            fool = f" plus the withheld fool's 5 = {expected}" if kept_by_side else ""
            raise RuleViolation(
                "points.no-trick",
                f"{side_name} won no trick: the side has only {what} {own} card points{fool}, "
                f"not {points}", "6.3.5",
            )
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
        what = "The discard" if game != SOLO else "The Tapp"
        raise RuleViolation(
            "points.below-discard" if game != SOLO else "points.below-tapp",
            f"{what} alone is worth {own} card points, more than {side_name}'s {points}",
            "6.3.6",
        )
    pay_side(game, declarer, partner, points, decl_no_trick, def_no_trick, table, score)


def _check_fool_kept(
    facts: HandFacts, game: str, declarer: int, kept: int, kept_by_side: bool, end: SideEnd,
    table: Table,
) -> None:
    who = table.name(kept)
    if game == FORCED and kept != declarer and facts.forced_by is not None:
        why = "held the fool" if facts.forced_by == "F" else "took the fool up with the Tapp"
        raise RuleViolation(
            "fool.forced",
            f"{table.name(declarer)} {why}, so {who} cannot have kept it", "4.5.1",
        )
    if end.tricks is not None and end.tricks != (0 if kept_by_side else table.h):
        side = "his side" if kept_by_side else "the defenders"
        raise RuleViolation(
            "fool.kept-trick",
            f"{who} kept a withheld fool, which is recorded only when {side} won no trick "
            "(otherwise he handed a 1-point card over for it)", "2.5.3",
        )


def _no_trick(
    end: SideEnd, points: int, kept: int | None, kept_by_side: bool, side_name: str,
    table: Table,
) -> tuple[bool, bool]:
    """Whether the declarer side, and the defenders, won no trick (from the tricks, from
    ``loser_took_trick`` and from a kept fool, which must agree)."""
    h = table.h
    known: list[tuple[bool, bool, str]] = []
    if end.tricks is not None:
        known.append((end.tricks == 0, end.tricks == h, f"{side_name} won {end.tricks} of {h}"))
    if end.loser_took_trick is not None:
        if points == HALF:
            if not end.loser_took_trick:
                raise RuleViolation(
                    "tricks.no-loser",
                    f"At {HALF}–{HALF} nobody loses, and each side has won tricks", "7.1.1",
                )
            known.append((False, False, "both sides won tricks"))
        else:
            none = not end.loser_took_trick
            loser = "the defenders" if points >= WIN_AT else side_name
            took = "won no trick" if none else "won a trick"
            known.append((
                none and points < WIN_AT, none and points >= WIN_AT, f"the loser, {loser}, {took}"
            ))
    if kept is not None:
        known.append((kept_by_side, not kept_by_side, f"{table.name(kept)} kept the fool"))
    if not known:
        raise RuleViolation(
            "tricks.missing",
            f"Say how many tricks {side_name} won, or whether the losing side won a trick", "6.1",
        )
    for first in known[1:]:
        if first[:2] != known[0][:2]:
            raise RuleViolation(
                "tricks.conflict", f"These facts disagree: {known[0][2]}, but {first[2]}",
                "6.3.3",
            )
    return known[0][0], known[0][1]


def _impossible(
    points: int, options: list[int], n: int, t: int, adjust: int, side_name: str
) -> str:
    if len(options) == 1:
        k = options[0]
        c = n * k + t + adjust
        won = f"{k} trick{'s' if k != 1 else ''}"
        fool = {1: " + the kept fool", -1: " − the fool kept by a defender", 0: ""}[adjust]
        return (
            f"With {won}, {side_name} took {c} cards ({n} × {k} + Tapp {t}{fool}), which hold "
            f"{lo(c)}–{hi(c)} card points, not {points}"
        )
    first, last = options[0], options[-1]
    return (
        f"{side_name} cannot have {points} card points with any number of tricks from {first} "
        f"to {last}: they hold {lo(n * first + t + adjust)}–{hi(n * last + t + adjust)}"
    )


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
                f"The players' card points add up to {TOTAL_POINTS} − the Tapp's {tapp} = "
                f"{TOTAL_POINTS - tapp}, not {total}", "6.3.7",
            )
    elif TOTAL_POINTS - total not in tapp_values(t, both):
        possible = sorted(TOTAL_POINTS - v for v in tapp_values(t, both))
        raise RuleViolation(
            "misere.sum",
            f"With a Tapp of {t} cards the players' card points add up to "
            f"{ranges_text(possible)}, not {total}", "6.3.7",
        )
    kept = end.fool_kept
    if kept is not None:
        if both:
            raise RuleViolation(
                "fool.misere",
                f"With {n} players a Misère means the fool lies in the Tapp: nobody kept it",
                "4.5.1",
            )
        if points[kept] != 5 or (end.tricks is not None and end.tricks[kept] != 0):
            raise RuleViolation(
                "fool.kept-trick",
                f"{table.name(kept)} kept a withheld fool, which is recorded only when he won no "
                "trick: he then has exactly its 5 card points", "2.5.3",
            ).of_seat(kept)
    if end.tricks is not None:
        tricks = end.tricks
        if sum(tricks) != h:
            raise RuleViolation(
                "misere.tricks",
                f"With {n} players a hand has {h} tricks, not {' + '.join(map(str, tricks))} = "
                f"{sum(tricks)}", "6.3.3",
            )
        for seat in range(n):
            k, p = tricks[seat], points[seat]
            name = table.name(seat)
            if k == 0:
                if p != (5 if seat == kept else 0):
                    fool = " (5 if he kept a withheld fool: record it)" if p == 5 else ""
                    raise RuleViolation(
                        "points.no-trick",
                        f"{name} won no trick, so he has no card points{fool}, not {p}", "6.3.5",
                    ).of_seat(seat)
                continue
            c = n * k
            low = lo(c - 1) if kept is not None else lo(c)   # he may have won the last trick
            if not low <= p <= hi(c):
                raise RuleViolation(
                    "points.impossible",
                    f"{name} won {k} trick{'s' if k != 1 else ''}, {c} cards, which hold "
                    f"{low}–{hi(c)} card points, not {p}", "6.3.4",
                ).of_seat(seat)
    pay_misere(points, table, score)


__all__ = ["score_hand"]
