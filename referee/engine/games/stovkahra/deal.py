"""Checking and scoring one Stovkahra deal from its facts (rules 4.5, 5, 6.2, 6.3 and 7.2.1)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...cards import FRENCH
from ...errors import RuleViolation
from ..base import Line
from ..base import and_list as _and
from .facts import Combination, DealFacts, Dost, Played, Seven
from .values import (
    DEAL_POINTS,
    LAST_TRICK,
    MAX_DECLARED_CARDS,
    MAX_SEVENS,
    PLURAL,
    TRICKS,
    combination_points,
    possible_points,
    possible_text,
    seven_bonus,
    team_of,
)

IMPOSSIBLE_ALONE = (1, 2, DEAL_POINTS - 2, DEAL_POINTS - 1)     # never 1, 2, 70 or 71


@dataclass
class DealScore:
    """A team's deal score = combinations + card points + seven bonuses + last trick (6.2)."""

    combinations: list[int] = field(default_factory=lambda: [0, 0])
    points: list[int] = field(default_factory=lambda: [0, 0])
    sevens: list[int] = field(default_factory=lambda: [0, 0])
    last: list[int] = field(default_factory=lambda: [0, 0])
    lines: list[Line] = field(default_factory=list)
    completed: int = 0          # tricks completed: 8 played out, t at a dost, 0 in progress

    @property
    def scores(self) -> tuple[int, int]:
        c, p, s, last = self.combinations, self.points, self.sevens, self.last
        return (c[0] + p[0] + s[0] + last[0], c[1] + p[1] + s[1] + last[1])

    def team_score(self, team: int) -> int:
        return (
            self.combinations[team] + self.points[team] + self.sevens[team] + self.last[team]
        )


@dataclass(frozen=True)
class Names:
    """The four players (by seat) and the two teams, for messages and lines."""

    players: list[str]
    teams: list[str]

    def seat(self, seat: int) -> str:
        return self.players[seat]

    def team(self, team: int) -> str:
        return self.teams[team]


def declaring_order(dealer: int) -> list[int]:
    """Seats in the order they declare, from the dealer's left; the first also leads (2.3)."""
    return [(dealer + k) % 4 for k in range(1, 5)]


def score_deal(
    facts: DealFacts, dealer: int, names: Names, trusted: bool = False, explain: bool = True
) -> DealScore:
    """Check every rule of 6.3 that the facts allow and score the deal (6.2). ``trusted``:
    facts the app checked when it stored them (with this dealer): scored without the checks,
    which read only the deal's facts and its dealer. ``explain``: False leaves ``lines`` empty
    (a trusted deal's lines are written when read)."""
    if not trusted:
        check_combinations(facts.combinations, names)
    score = DealScore()
    lines = score.lines
    combinations = score.combinations
    for c in facts.combinations:
        team = team_of(c.seat)
        points = combination_points(c.rank, c.count)
        combinations[team] += points
        if explain:
            shown = f" ({' '.join(map(FRENCH.short_name, c.cards))})" if c.cards else ""
            lines.append(Line(team, f"{names.seat(c.seat)}: {c.name}{shown}", points, "4"))
    end = facts.end
    if end is None:
        return score
    if isinstance(end, Dost):
        if not trusted:
            check_dost(facts, end, dealer, names)
        score.completed = end.after
    else:
        score.completed = TRICKS
    if not trusted:
        check_sevens(facts, names)
        check_points(end, score.completed, names)
    score.points = [end.points[0], end.points[1]]
    if explain:
        for team in (0, 1):
            won = "" if end.tricks is None else f" ({_tricks(end.tricks[team])})"
            completed = " of the completed tricks" if isinstance(end, Dost) else ""
            lines.append(Line(
                team, f"{names.team(team)}: card points{completed}{won}", end.points[team], "3"
            ))
    last_seven = False
    for seven in end.sevens:
        bonus = seven_bonus(seven.trick)
        score.sevens[seven.team] += bonus
        if seven.trick == TRICKS:
            last_seven = True
        if explain:
            text = (
                f"last trick won with a seven ({bonus}, including the {LAST_TRICK})"
                if seven.trick == TRICKS else f"trick {seven.trick} won with a seven"
            )
            lines.append(Line(seven.team, f"{names.team(seven.team)}: {text}", bonus, "5"))
    if isinstance(end, Played) and not last_seven:
        score.last[end.last] = LAST_TRICK
        if explain:
            lines.append(Line(
                end.last, f"{names.team(end.last)}: last trick", LAST_TRICK, "5"
            ))
    return score


def _tricks(count: int) -> str:
    return f"{count} trick" if count == 1 else f"{count} tricks"


# -- 4.5: combinations ------------------------------------------------------------------------

def check_combinations(combinations: tuple[Combination, ...], names: Names) -> None:
    """At most one combination per rank per player, at most 8 declared cards per player, and
    at most four declared cards of a rank across the table (4.5)."""
    ranks: dict[int, set[str]] = {}
    cards: dict[int, int] = {}
    by_rank: dict[str, list[Combination]] = {}
    for c in combinations:
        if c.rank in ranks.setdefault(c.seat, set()):
            raise RuleViolation(
                "combination.twice",
                f"{names.seat(c.seat)} declared {PLURAL[c.rank]} twice: a player declares at "
                "most one combination of each rank",
                "4.5",
            )
        ranks[c.seat].add(c.rank)
        cards[c.seat] = cards.get(c.seat, 0) + c.count
        if cards[c.seat] > MAX_DECLARED_CARDS:
            raise RuleViolation(
                "combination.too-many-cards",
                f"{names.seat(c.seat)} declared {cards[c.seat]} cards, but holds only "
                f"{MAX_DECLARED_CARDS}",
                "4.5",
            )
        by_rank.setdefault(c.rank, []).append(c)
        declared = by_rank[c.rank]
        if sum(d.count for d in declared) > 4:
            who = _and([f"{names.seat(d.seat)} {d.count}" for d in declared])
            raise RuleViolation(
                "combination.more-than-four",
                f"{PLURAL[c.rank].capitalize()} declared: {who}, that is "
                f"{sum(d.count for d in declared)}, but the pack has only four",
                "4.5",
            )


# -- 7.2.1: who may call dost, and when -------------------------------------------------------

def check_dost(facts: DealFacts, end: Dost, dealer: int, names: Names) -> None:
    caller = names.seat(end.caller)
    if end.after == TRICKS:
        raise RuleViolation(
            "dost.after-8",
            "Nobody can call dost after trick 8: the deal is over, so record it as played out",
            "7.2.1",
        )
    if end.after == 0:
        _check_dost_at_declaration(facts, end, dealer, names)
        return
    winner = end.trick_winner
    if winner is not None and winner != end.caller:
        same_team = team_of(winner) == team_of(end.caller)
        partner = " (a partner cannot call for him)" if same_team else ""
        raise RuleViolation(
            "dost.not-winner",
            f"Only the winner of trick {end.after} may call dost: {names.seat(winner)} won it, "
            f"not {caller}{partner}",
            "7.2.1",
        )


def _check_dost_at_declaration(facts: DealFacts, end: Dost, dealer: int, names: Names) -> None:
    caller = names.seat(end.caller)
    if not any(c.seat == end.caller for c in facts.combinations):
        raise RuleViolation(
            "dost.no-combination",
            f"{caller} declared no combination, so he cannot call dost before trick 1: dost "
            "comes right after one's own declaration or on winning a trick",
            "7.2.1",
        )
    order = declaring_order(dealer)
    later = [c for c in facts.combinations if order.index(c.seat) > order.index(end.caller)]
    if later:
        c = later[0]
        raise RuleViolation(
            "dost.declared-after",
            f"{caller} called dost right after his own declaration, so {names.seat(c.seat)}, "
            f"who declares after him, could not declare {c.name}",
            "7.2.1",
        )
    if end.trick_winner is not None:
        raise RuleViolation(
            "dost.trick-winner",
            "This dost came before trick 1: no trick was won, so leave the trick's winner empty",
            "7.2.1",
        )
    if end.points != (0, 0) or end.tricks not in (None, (0, 0)):
        raise RuleViolation(
            "dost.no-tricks",
            "This dost came before trick 1: both teams have 0 card points and 0 tricks",
            "7.2.3",
        )


# -- 6.3.4 and 6.3.5: tricks won with a seven -------------------------------------------------

def check_sevens(facts: DealFacts, names: Names) -> None:
    end = facts.end
    assert end is not None
    sevens = end.sevens
    tricks = [s.trick for s in sevens]
    twice = sorted({t for t in tricks if tricks.count(t) > 1})
    if twice:
        raise RuleViolation(
            "sevens.twice",
            f"Trick {twice[0]} is recorded more than once as won with a seven",
            "6.3.4",
        )
    if len(sevens) > MAX_SEVENS:
        raise RuleViolation(
            "sevens.too-many",
            f"{len(sevens)} tricks are recorded as won with a seven "
            f"({', '.join(map(str, tricks))}), but the pack has only four sevens and each wins "
            "at most one trick",
            "6.3.4",
        )
    if isinstance(end, Dost):
        late = [s for s in sevens if s.trick > end.after]
        if late:
            before = (
                "before trick 1, so no trick was played" if end.after == 0
                else f"after trick {end.after}, so trick {late[0].trick} was never played"
            )
            raise RuleViolation(
                "sevens.after-dost",
                f"Dost was called {before}: only completed tricks count",
                "6.3.4",
            )
        for s in sevens:
            if s.trick == end.after and s.team != team_of(end.caller):
                raise RuleViolation(
                    "dost.not-winner",
                    f"{names.seat(end.caller)} called dost on winning trick {end.after}, so "
                    f"{names.team(s.team)} cannot have won it with a seven",
                    "7.2.1",
                )
    else:
        for s in sevens:
            if s.trick == TRICKS and s.team != end.last:
                raise RuleViolation(
                    "sevens.last",
                    f"The last trick is recorded as won by {names.team(end.last)}, so "
                    f"{names.team(s.team)} cannot have won it with a seven: the 26 goes to "
                    "the team that won trick 8",
                    "6.3.4",
                )
    _check_sevens_against_combinations(facts.combinations, sevens, names)


def _check_sevens_against_combinations(
    combinations: tuple[Combination, ...], sevens: tuple[Seven, ...], names: Names
) -> None:
    for c in combinations:
        if c.rank != "7":
            continue
        team = team_of(c.seat)
        theirs = [s for s in sevens if s.team != team]
        if c.count == 4 and theirs:
            raise RuleViolation(
                "sevens.combination",
                f"{names.seat(c.seat)} declared four sevens, so every trick won with a seven is "
                f"{names.team(team)}'s; {names.team(1 - team)} cannot have won trick "
                f"{theirs[0].trick} with one",
                "6.3.5",
            )
        if c.count == 3 and len(theirs) > 1:
            raise RuleViolation(
                "sevens.combination",
                f"{names.seat(c.seat)} declared three sevens, so {names.team(1 - team)} hold "
                f"at most one seven and win at most one trick with it, not "
                f"{len(theirs)} (tricks {', '.join(str(s.trick) for s in theirs)})",
                "6.3.5",
            )


# -- 6.3.1 to 6.3.3: card points and tricks ---------------------------------------------------

def known_tricks(end: Played | Dost) -> list[set[int]]:
    """The tricks each team is known to have won: its seven-won tricks, the last trick, and
    the trick whose winner called dost."""
    known: list[set[int]] = [set(), set()]
    for s in end.sevens:
        known[s.team].add(s.trick)
    if isinstance(end, Played):
        known[end.last].add(TRICKS)
    elif end.after > 0:
        known[team_of(end.caller)].add(end.after)
    return known


def check_points(end: Played | Dost, completed: int, names: Names) -> None:
    points = end.points
    if isinstance(end, Played):
        if sum(points) != DEAL_POINTS:
            raise RuleViolation(
                "points.sum",
                f"The card points must add up to {DEAL_POINTS}, not {points[0]} + {points[1]} = "
                f"{sum(points)}",
                "6.3.1",
            )
    elif not possible_points(sum(points), completed):
        raise RuleViolation(
            "points.impossible",
            f"The {4 * completed} cards of the {_tricks(completed)} completed before the dost "
            "hold "
            f"{possible_text(completed)} card points, not {points[0]} + {points[1]} = "
            f"{sum(points)}",
            "6.3.2",
        )
    known = known_tricks(end)
    if end.tricks is None:
        _check_points_without_tricks(points, known, completed, names)
        return
    tricks = end.tricks
    if sum(tricks) != completed:
        where = "a deal has 8" if isinstance(end, Played) else (
            f"dost was called after trick {completed}"
        )
        raise RuleViolation(
            "tricks.sum",
            f"The teams won {tricks[0]} + {tricks[1]} = {sum(tricks)} tricks, but {where}",
            "6.3.1" if isinstance(end, Played) else "6.3.2",
        )
    for team in (0, 1):
        team_name = names.team(team)
        if tricks[team] == 0 and points[team] > 0:
            raise RuleViolation(
                "points.no-trick",
                f"{team_name} won no trick, so they have no card points, not {points[team]}",
                "6.3.3",
            ).of_team(team)
        if tricks[team] == 0 and known[team]:
            raise RuleViolation(
                "bonus.no-trick",
                f"{team_name} won no trick, so they cannot have won {_won(known[team], end)}",
                "6.3.3",
            ).of_team(team)
        if len(known[team]) > tricks[team]:
            raise RuleViolation(
                "sevens.tricks",
                f"{team_name} won {_tricks(tricks[team])}, but {len(known[team])} are recorded "
                f"as theirs: {_won(known[team], end)}",
                "6.3.4",
            ).of_team(team)
        if not possible_points(points[team], tricks[team]):
            raise RuleViolation(
                "points.impossible",
                f"{team_name} cannot have taken {points[team]} card points in "
                f"{_tricks(tricks[team])}: {_tricks(tricks[team])} hold "
                f"{possible_text(tricks[team])}",
                "6.3.2",
            ).of_team(team)


def _won(tricks: set[int], end: Played | Dost) -> str:
    """The tricks a team is known to have won, as a phrase: ``tricks 1 and 3 with a seven and
    the last trick``."""
    with_seven = {s.trick for s in end.sevens}
    last = TRICKS if isinstance(end, Played) and TRICKS in tricks else None
    dost_trick = end.after if isinstance(end, Dost) and end.after in tricks else None
    sevens = sorted(t for t in tricks if t in with_seven and t not in (last, dost_trick))
    parts = []
    if sevens:
        numbers = _and([str(t) for t in sevens])
        parts.append(f"trick{'s' if len(sevens) > 1 else ''} {numbers} with a seven")
    if dost_trick is not None:
        seven = " with a seven" if dost_trick in with_seven else ""
        parts.append(f"trick {dost_trick}{seven}, after which dost was called")
    if last is not None:
        parts.append("the last trick" + (" with a seven" if last in with_seven else ""))
    return _and(parts)


def _check_points_without_tricks(
    points: tuple[int, int], known: list[set[int]], completed: int, names: Names
) -> None:
    low = [len(known[0]), len(known[1])]
    splits = range(low[0], completed - low[1] + 1)
    if any(possible_points(points[0], k) and possible_points(points[1], completed - k)
           for k in splits):
        return
    for team in (0, 1):
        options = range(low[team], completed - low[1 - team] + 1)
        if not options or any(possible_points(points[team], k) for k in options):
            continue
        first, last = options[0], options[-1]
        if last == 0:
            raise RuleViolation(
                "points.no-trick",
                f"{names.team(team)} won no trick, so they have no card points, not "
                f"{points[team]}",
                "6.3.3",
            ).of_team(team)
        if first == last:
            why = f"in {_tricks(first)}: {_tricks(first)} hold {possible_text(first)}"
        else:
            why = f"in any number of tricks from {first} to {last}"
            if points[team] in IMPOSSIBLE_ALONE:
                why += " (card points are never 1, 2, 70 or 71)"
        raise RuleViolation(
            "points.impossible",
            f"{names.team(team)} cannot have taken {points[team]} card points {why}",
            "6.3.2",
        ).of_team(team)
    raise RuleViolation(
        "points.impossible",
        f"Card points of {points[0]} and {points[1]} cannot both be taken in "
        f"{_tricks(completed)} with the tricks recorded",
        "6.3.2",
    )
