"""Who pays whom (rules 7.1–7.4 and the Misère variant of 8): one signed amount per seat,
adding up to 0, each with a line saying why."""

from __future__ import annotations

from ...words import N, P, T, Text, listing
from ..base import Line
from .table import HandScore, Table, in_order, names_of_side
from .values import (
    A_GAME,
    GAME_NAMES,
    HALF,
    SOLO,
    SOLO_FACTOR,
    TOTAL_POINTS,
    WIN_AT,
    multiplier,
    shares,
)


def pay_side(
    game: str, declarer: int, partner: int | None, points: int, decl_no_trick: bool,
    def_no_trick: bool, table: Table, score: HandScore,
) -> None:
    defenders = TOTAL_POINTS - points
    score.detail.update(points=(points, defenders), multiplier=0, unit=0, winner=None)
    if points == HALF:
        side_name = names_of_side(declarer, partner, table)
        score.lines.append(Line(
            None, T("%(side)s %(points)s, defenders %(defenders)s: %(half)s–%(half)s, nobody "
                    "wins and nobody pays", side=side_name, points=points,
                    defenders=defenders, half=HALF), None, "7.1.1",
        ))
        score.summary = T("%(player)s's %(game)s: %(half)s–%(half)s, no payment",
                          player=table.name(declarer), game=GAME_NAMES[game], half=HALF)
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
    values = dict(player=table.name(declarer), game=A_GAME[game], points=points,
                  defenders=defenders, multiplier=m, amount=abs(score.payments[declarer]))
    score.summary = T(
        "%(player)s wins %(game)s %(points)s–%(defenders)s (×%(multiplier)s): +%(amount)s",
        **values) if won else T(
        "%(player)s loses %(game)s %(points)s–%(defenders)s (×%(multiplier)s): −%(amount)s",
        **values)


def _side_lines(
    game: str, declarer: int, partner: int | None, points: int, won: bool, loser_took: bool,
    loser_points: int, m: int, unit: int, table: Table, score: HandScore,
) -> None:
    """The lines of a settled side game (7.1–7.3): who wins, the unit, each payment."""
    defenders = TOTAL_POINTS - points
    side_name = names_of_side(declarer, partner, table)
    size = 1 if partner is None else 2          # the declarer side's players
    role = P("troggu", "Soloist") if game == SOLO else P("troggu", "Tappist")
    result = dict(side=side_name, points=points, defenders=defenders, total=TOTAL_POINTS,
                  win_at=WIN_AT)
    score.lines.append(Line(None, N(
        "%(side)s %(points)s, defenders %(defenders)s (%(total)s − %(points)s): %(side)s wins "
        "with %(win_at)s or more",
        "%(side)s %(points)s, defenders %(defenders)s (%(total)s − %(points)s): %(side)s win "
        "with %(win_at)s or more", size, **result) if won else T(
        "%(side)s %(points)s, defenders %(defenders)s (%(total)s − %(points)s): the defenders "
        "win with %(win_at)s or more", **result), None, "7.1.2"))
    why = _multiplier_text(won, loser_took, loser_points, m, side_name, size, table)
    if game == SOLO:
        how = T("unit %(multiplier)s × %(stake)s × %(solo)s (Solo) = %(unit)s Rappen",
                multiplier=m, stake=table.stake, solo=SOLO_FACTOR, unit=unit)
    else:
        how = T("unit %(multiplier)s × %(stake)s = %(unit)s Rappen", multiplier=m,
                stake=table.stake, unit=unit)
    score.lines.append(Line(None, T("%(why)s; %(unit)s", why=why, unit=how), None, "7.1.3"))
    each, partner_share, declarer_share = shares(table.n, partner is not None)
    count = table.n - (1 if partner is None else 2)
    for seat in range(table.n):
        name = table.name(seat)
        text: Text
        if seat == declarer:
            amount = declarer_share * unit
            if partner is None:
                values = dict(player=name, amount=amount, role=role, each=each * unit,
                              num=count)
                text = N("%(player)s receives %(amount)s (%(role)s: %(each)s from each of "
                         "%(num)s opponent)",
                         "%(player)s receives %(amount)s (%(role)s: %(each)s from each of "
                         "%(num)s opponents)", count, **values) if won else N(
                         "%(player)s pays %(amount)s (%(role)s: %(each)s to each of %(num)s "
                         "opponent)",
                         "%(player)s pays %(amount)s (%(role)s: %(each)s to each of %(num)s "
                         "opponents)", count, **values)
            else:
                values = dict(player=name, amount=amount, role=role, num=count,
                              each=each * unit, total=count * each * unit,
                              share=partner_share * unit)
                text = N("%(player)s receives %(amount)s (%(role)s: %(num)s defender × "
                         "%(each)s = %(total)s, less the partner's %(share)s)",
                         "%(player)s receives %(amount)s (%(role)s: %(num)s defenders × "
                         "%(each)s = %(total)s, less the partner's %(share)s)", count,
                         **values) if won else N(
                         "%(player)s pays %(amount)s (%(role)s: %(num)s defender × %(each)s = "
                         "%(total)s, less the partner's %(share)s)",
                         "%(player)s pays %(amount)s (%(role)s: %(num)s defenders × %(each)s = "
                         "%(total)s, less the partner's %(share)s)", count, **values)
        elif seat == partner:
            amount = partner_share * unit
            values = dict(player=name, amount=amount, share=partner_share, unit=unit)
            text = T("%(player)s receives %(amount)s (partner: %(share)s × %(unit)s)",
                     **values) if won else \
                T("%(player)s pays %(amount)s (partner: %(share)s × %(unit)s)", **values)
        else:
            amount = each * unit
            text = T("%(player)s pays %(amount)s (defender: 1 × %(unit)s)", player=name,
                     amount=amount, unit=unit) if won else \
                T("%(player)s receives %(amount)s (defender: 1 × %(unit)s)", player=name,
                  amount=amount, unit=unit)
        score.lines.append(Line(seat, text, score.payments[seat], "7.3"))


def _multiplier_text(
    won: bool, loser_took: bool, loser_points: int, m: int, side_name: object, size: int,
    table: Table,
) -> Text:
    """7.1.3: why the unit is multiplied by ``m``, said of the losing side."""
    values = dict(side=side_name, points=loser_points, threshold=table.threshold,
                  preset=table.threshold_name, multiplier=m)
    if won:                                     # the defenders lost
        if not loser_took:
            return T("The defenders won no trick: ×%(multiplier)s", **values)
        if m == 2:
            return T("The defenders have %(points)s ≤ %(threshold)s (%(preset)s): "
                     "×%(multiplier)s", **values)
        return T("The defenders have %(points)s > %(threshold)s (%(preset)s): ×%(multiplier)s",
                 **values)
    if not loser_took:
        return N("%(side)s won no trick: ×%(multiplier)s",
                 "%(side)s won no trick: ×%(multiplier)s", size, **values)
    if m == 2:
        return N("%(side)s has %(points)s ≤ %(threshold)s (%(preset)s): ×%(multiplier)s",
                 "%(side)s have %(points)s ≤ %(threshold)s (%(preset)s): ×%(multiplier)s",
                 size, **values)
    return N("%(side)s has %(points)s > %(threshold)s (%(preset)s): ×%(multiplier)s",
             "%(side)s have %(points)s > %(threshold)s (%(preset)s): ×%(multiplier)s",
             size, **values)


def pay_misere(points: tuple[int, ...], table: Table, score: HandScore) -> None:
    n, stake = table.n, table.stake
    least = table.least_wins
    mark = min(points) if least else max(points)
    tied = [s for s in range(n) if points[s] == mark]
    others = [s for s in range(n) if s not in tied]
    score.detail.update(tied=tied, least_wins=least)
    if not others:
        score.lines.append(Line(None, _misere_points(points, table), None, "4.4"))
        score.lines.append(Line(
            None, T("All players tie at %(points)s: nobody pays", points=mark), None,
            "8" if least else "7.4.3"
        ))
        score.summary = T("Misère: all tie, no payments")
        return
    for seat in range(n):
        if seat in tied:
            score.payments[seat] = stake * len(others) * (1 if least else -1)
        else:
            score.payments[seat] = stake * len(tied) * (-1 if least else 1)
    if score.explain:
        _misere_lines(points, tied, others, mark, least, table, score)
    tied_names = listing([table.name(s) for s in tied])
    score.summary = N("Misère: %(players)s wins", "Misère: %(players)s win", len(tied),
                      players=tied_names) if least else \
        N("Misère: %(players)s pays", "Misère: %(players)s pay", len(tied), players=tied_names)


def _misere_points(points: tuple[int, ...], table: Table) -> Text:
    """``Misère card points: Anna 40, Beat 25, Carla 20, Dora 15``."""
    return T("Misère card points: %(points)s", points=in_order([
        T("%(player)s %(points)s", player=table.name(s), points=points[s])
        for s in range(table.n)]))


def _misere_lines(
    points: tuple[int, ...], tied: list[int], others: list[int], mark: int, least: bool,
    table: Table, score: HandScore,
) -> None:
    """The lines of a settled Misère (7.4, 8): the card points, who pays whom."""
    n, stake = table.n, table.stake
    score.lines.append(Line(None, _misere_points(points, table), None, "4.4"))
    rule = "8" if least else "7.4"
    tied_names = listing([table.name(s) for s in tied])
    other_names = listing([table.name(s) for s in others])
    values = dict(players=tied_names, points=mark, stake=stake, others=other_names)
    if len(tied) == 1:
        head = T("%(players)s has the fewest points (%(points)s): receives %(stake)s from "
                 "%(others)s", **values) if least else \
            T("%(players)s has the most points (%(points)s): pays %(stake)s to %(others)s",
              **values)
    else:
        head = T("%(players)s tie for the fewest points (%(points)s) (house rule): each "
                 "receives %(stake)s from %(others)s", **values) if least else \
            T("%(players)s tie for the most points (%(points)s) (house rule): each pays "
              "%(stake)s to %(others)s", **values)
    score.lines.append(Line(None, head, None, rule if len(tied) == 1 or least else "7.4.2"))
    for seat in range(n):
        name = table.name(seat)
        text: Text
        if seat in tied:
            amount = stake * len(others)
            text = T("%(player)s receives %(amount)s (%(stake)s from %(others)s)",
                     player=name, amount=amount, stake=stake, others=other_names) if least \
                else T("%(player)s pays %(amount)s (%(stake)s to %(others)s)", player=name,
                       amount=amount, stake=stake, others=other_names)
            signed = amount if least else -amount
        else:
            amount = stake * len(tied)
            values = dict(player=name, amount=amount, stake=stake, others=tied_names)
            if len(tied) == 1:
                text = T("%(player)s pays %(amount)s (%(stake)s to %(others)s)", **values) \
                    if least else \
                    T("%(player)s receives %(amount)s (%(stake)s from %(others)s)", **values)
            else:
                text = T("%(player)s pays %(amount)s (%(stake)s to each of %(others)s)",
                         **values) if least else \
                    T("%(player)s receives %(amount)s (%(stake)s from each of %(others)s)",
                      **values)
            signed = -amount if least else amount
        score.lines.append(Line(seat, text, signed, rule))
