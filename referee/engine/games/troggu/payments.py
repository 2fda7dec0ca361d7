"""Who pays whom (rules 7.1–7.4 and the Misère variant of 8): one signed amount per seat,
adding up to 0, each with a line saying why."""

from __future__ import annotations

from ....numbers import signed
from ..base import Line, and_list
from .table import HandScore, Table, names_of_side
from .values import (
    GAME_NAMES,
    HALF,
    SOLO,
    SOLO_FACTOR,
    TOTAL_POINTS,
    WIN_AT,
    multiplier,
    shares,
)


def _verb(subject: str, singular: str, plural: str) -> str:
    """``Anna wins``, ``Anna and Dora win``, ``the defenders win``."""
    many = " and " in subject or subject.startswith("the ")
    return f"{subject} {plural if many else singular}"


def pay_side(
    game: str, declarer: int, partner: int | None, points: int, decl_no_trick: bool,
    def_no_trick: bool, table: Table, score: HandScore,
) -> None:
    defenders = TOTAL_POINTS - points
    score.detail.update(points=(points, defenders), multiplier=0, unit=0, winner=None)
    if points == HALF:
        side_name = names_of_side(declarer, partner, table)
        score.lines.append(Line(
            None, f"{side_name} {points}, defenders {defenders}: {HALF}–{HALF}, nobody wins and "
            "nobody pays", None, "7.1.1",
        ))
        score.summary = f"{table.name(declarer)}'s {GAME_NAMES[game]}: {HALF}–{HALF}, no payment"
        return
    won = points >= WIN_AT
    loser_points = defenders if won else points
    loser_took = not (def_no_trick if won else decl_no_trick)
    m = multiplier(loser_points, loser_took, table.threshold)
    unit = m * table.stake * (SOLO_FACTOR if game == SOLO else 1)
    score.detail.update(multiplier=m, unit=unit, winner="declarer" if won else "defenders")
    each, partner_share, declarer_share = shares(table.n, partner is not None)
    for seat in range(table.n):
        share = declarer_share if seat == declarer else partner_share if seat == partner \
            else each
        score.payments[seat] = share * unit if (seat in (declarer, partner)) == won \
            else -share * unit
    if score.explain:
        _side_lines(game, declarer, partner, points, won, loser_took, loser_points, m, unit,
                    table, score)
    result = "wins" if won else "loses"
    score.summary = (
        f"{table.name(declarer)} {result} a {GAME_NAMES[game]} {points}–{defenders} (×{m}): "
        f"{signed(score.payments[declarer])}"
    )


def _side_lines(
    game: str, declarer: int, partner: int | None, points: int, won: bool, loser_took: bool,
    loser_points: int, m: int, unit: int, table: Table, score: HandScore,
) -> None:
    """The lines of a settled side game (7.1–7.3): who wins, the unit, each payment."""
    defenders = TOTAL_POINTS - points
    side_name = names_of_side(declarer, partner, table)
    role = "Soloist" if game == SOLO else "Tappist"
    loser = "the defenders" if won else side_name
    winner = side_name if won else "the defenders"
    score.lines.append(Line(
        None, f"{side_name} {points}, defenders {defenders} ({TOTAL_POINTS} − {points}): "
        f"{_verb(winner, 'wins', 'win')} with {WIN_AT} or more", None, "7.1.2",
    ))
    if not loser_took:
        why = f"{_verb(loser, 'won', 'won')} no trick: ×3"
    else:
        compare = "≤" if m == 2 else ">"
        why = (
            f"{_verb(loser, 'has', 'have')} {loser_points} {compare} {table.threshold} "
            f"({table.threshold_name}): ×{m}"
        )
    solo = f" × {SOLO_FACTOR} (Solo)" if game == SOLO else ""
    score.lines.append(Line(
        None, f"{why[0].upper()}{why[1:]}; unit {m} × {table.stake}{solo} = {unit} Rappen", None,
        "7.1.3",
    ))
    each, partner_share, declarer_share = shares(table.n, partner is not None)
    count = table.n - (1 if partner is None else 2)
    for seat in range(table.n):
        name = table.name(seat)
        signed = score.payments[seat]
        if seat == declarer:
            amount = declarer_share * unit
            if partner is None:
                how = f"{each * unit} {'from' if won else 'to'} each of {count} opponents"
            else:
                how = (f"{count} defenders × {each * unit} = {count * each * unit}, less the "
                       f"partner's {partner_share * unit}")
            text = f"{name} {'receives' if won else 'pays'} {amount} ({role}: {how})"
        elif seat == partner:
            amount = partner_share * unit
            text = (f"{name} {'receives' if won else 'pays'} {amount} (partner: "
                    f"{partner_share} × {unit})")
        else:
            amount = each * unit
            text = f"{name} {'pays' if won else 'receives'} {amount} (defender: 1 × {unit})"
        score.lines.append(Line(seat, text, signed, "7.3"))


def pay_misere(points: tuple[int, ...], table: Table, score: HandScore) -> None:
    n, stake = table.n, table.stake
    least = table.least_wins
    mark = min(points) if least else max(points)
    tied = [s for s in range(n) if points[s] == mark]
    others = [s for s in range(n) if s not in tied]
    score.detail.update(tied=tied, least_wins=least)
    if not others:
        listed = ", ".join(f"{table.name(s)} {points[s]}" for s in range(n))
        score.lines.append(Line(None, f"Misère card points: {listed}", None, "4.4"))
        score.lines.append(Line(
            None, f"All players tie at {mark}: nobody pays", None, "8" if least else "7.4.3"
        ))
        score.summary = "Misère: all tie, no payments"
        return
    for seat in range(n):
        if seat in tied:
            score.payments[seat] = stake * len(others) * (1 if least else -1)
        else:
            score.payments[seat] = stake * len(tied) * (-1 if least else 1)
    tied_names = and_list([table.name(s) for s in tied])
    if score.explain:
        _misere_lines(points, tied, others, mark, least, table, score)
    verb = ("wins" if least else "pays") if len(tied) == 1 else ("win" if least else "pay")
    score.summary = f"Misère: {tied_names} {verb}"


def _misere_lines(
    points: tuple[int, ...], tied: list[int], others: list[int], mark: int, least: bool,
    table: Table, score: HandScore,
) -> None:
    """The lines of a settled Misère (7.4, 8): the card points, who pays whom."""
    n, stake = table.n, table.stake
    listed = ", ".join(f"{table.name(s)} {points[s]}" for s in range(n))
    score.lines.append(Line(None, f"Misère card points: {listed}", None, "4.4"))
    rule = "8" if least else "7.4"
    tied_names = and_list([table.name(s) for s in tied])
    other_names = and_list([table.name(s) for s in others])
    most = "fewest" if least else "most"
    if len(tied) == 1:
        head = f"{tied_names} has the {most} points ({mark})"
    else:
        head = f"{tied_names} tie for the {most} points ({mark}) (house rule)"
    each = "each " if len(tied) > 1 else ""
    deal = f"receives {stake} from" if least else f"pays {stake} to"
    score.lines.append(Line(
        None, f"{head}: {each}{deal} {other_names}", None,
        rule if len(tied) == 1 or least else "7.4.2",
    ))
    for seat in range(n):
        name = table.name(seat)
        if seat in tied:
            amount = stake * len(others)
            text = (f"{name} {'receives' if least else 'pays'} {amount} ({stake} "
                    f"{'from' if least else 'to'} {and_list([table.name(s) for s in others])})")
            signed = amount if least else -amount
        else:
            amount = stake * len(tied)
            payers = tied_names if len(tied) == 1 else f"each of {tied_names}"
            text = (f"{name} {'pays' if least else 'receives'} {amount} ({stake} "
                    f"{'to' if least else 'from'} {payers})")
            signed = -amount if least else amount
        score.lines.append(Line(seat, text, signed, rule))
