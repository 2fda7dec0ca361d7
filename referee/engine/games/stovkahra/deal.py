"""Checking and scoring one Stovkahra deal from its facts (rules 4.5, 5, 6.2, 6.3 and 7.2.1)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...cards import FRENCH
from ...errors import RuleViolation
from ...words import N, T, Text, listing
from ..base import Line
from .facts import Combination, DealFacts, Dost, Played, Seven
from .values import (
    CAPITALISED,
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
            if c.cards:
                text = T("%(player)s: %(combination)s (%(cards)s)", player=names.seat(c.seat),
                         combination=c.name, cards=" ".join(map(FRENCH.short_name, c.cards)))
            else:
                text = T("%(player)s: %(combination)s", player=names.seat(c.seat),
                         combination=c.name)
            lines.append(Line(team, text, points, "4"))
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
            lines.append(Line(team, _card_points(end, team, names), end.points[team], "3"))
    last_seven = False
    for seven in end.sevens:
        bonus = seven_bonus(seven.trick)
        score.sevens[seven.team] += bonus
        if seven.trick == TRICKS:
            last_seven = True
        if explain:
            team_name = names.team(seven.team)
            text = (
                T("%(team)s: last trick won with a seven (%(bonus)s, including the %(last)s)",
                  team=team_name, bonus=bonus, last=LAST_TRICK)
                if seven.trick == TRICKS
                else T("%(team)s: trick %(trick)s won with a seven", team=team_name,
                       trick=seven.trick)
            )
            lines.append(Line(seven.team, text, bonus, "5"))
    if isinstance(end, Played) and not last_seven:
        score.last[end.last] = LAST_TRICK
        if explain:
            lines.append(Line(
                end.last, T("%(team)s: last trick", team=names.team(end.last)), LAST_TRICK, "5"
            ))
    return score


def _card_points(end: Played | Dost, team: int, names: Names) -> Text:
    """The line of a team's card points, with its tricks when they were recorded."""
    name = names.team(team)
    if end.tricks is None:
        if isinstance(end, Dost):
            return T("%(team)s: card points of the completed tricks", team=name)
        return T("%(team)s: card points", team=name)
    won = end.tricks[team]
    if isinstance(end, Dost):
        return N("%(team)s: card points of the completed tricks (%(num)s trick)",
                 "%(team)s: card points of the completed tricks (%(num)s tricks)", won,
                 team=name, num=won)
    return N("%(team)s: card points (%(num)s trick)", "%(team)s: card points (%(num)s tricks)",
             won, team=name, num=won)


def _hold(tricks: int) -> Text:
    """What ``tricks`` tricks can hold, as a sentence: ``3 tricks hold 0, 3–…``."""
    return N("%(num)s trick holds %(possible)s", "%(num)s tricks hold %(possible)s", tricks,
             num=tricks,
             possible=possible_text(tricks))


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
                T("%(player)s declared %(ranks)s twice: a player declares at most one "
                  "combination of each rank", player=names.seat(c.seat), ranks=PLURAL[c.rank]),
                "4.5",
            )
        ranks[c.seat].add(c.rank)
        cards[c.seat] = cards.get(c.seat, 0) + c.count
        if cards[c.seat] > MAX_DECLARED_CARDS:
            raise RuleViolation(
                "combination.too-many-cards",
                T("%(player)s declared %(cards)s cards, but holds only %(most)s",
                  player=names.seat(c.seat), cards=cards[c.seat], most=MAX_DECLARED_CARDS),
                "4.5",
            )
        by_rank.setdefault(c.rank, []).append(c)
        declared = by_rank[c.rank]
        if sum(d.count for d in declared) > 4:
            who = listing([
                T("%(player)s %(count)s", player=names.seat(d.seat), count=d.count)
                for d in declared
            ])
            raise RuleViolation(
                "combination.more-than-four",
                T("%(ranks)s declared: %(declarers)s, that is %(total)s, but the pack has only "
                  "four", ranks=CAPITALISED[c.rank], declarers=who,
                  total=sum(d.count for d in declared)),
                "4.5",
            )


# -- 7.2.1: who may call dost, and when -------------------------------------------------------

def check_dost(facts: DealFacts, end: Dost, dealer: int, names: Names) -> None:
    caller = names.seat(end.caller)
    if end.after == TRICKS:
        raise RuleViolation(
            "dost.after-8",
            T("Nobody can call dost after trick 8: the deal is over, so record it as played "
              "out"),
            "7.2.1",
        )
    if end.after == 0:
        _check_dost_at_declaration(facts, end, dealer, names)
        return
    winner = end.trick_winner
    if winner is not None and winner != end.caller:
        if team_of(winner) == team_of(end.caller):
            message = T("Only the winner of trick %(trick)s may call dost: %(winner)s won it, "
                        "not %(caller)s (a partner cannot call for %(winner)s)",
                        trick=end.after, winner=names.seat(winner), caller=caller)
        else:
            message = T("Only the winner of trick %(trick)s may call dost: %(winner)s won it, "
                        "not %(caller)s", trick=end.after, winner=names.seat(winner),
                        caller=caller)
        raise RuleViolation("dost.not-winner", message, "7.2.1")


def _check_dost_at_declaration(facts: DealFacts, end: Dost, dealer: int, names: Names) -> None:
    caller = names.seat(end.caller)
    if not any(c.seat == end.caller for c in facts.combinations):
        raise RuleViolation(
            "dost.no-combination",
            T("%(player)s declared no combination, so %(player)s cannot call dost before "
              "trick 1: dost comes right after one's own declaration or on winning a trick",
              player=caller),
            "7.2.1",
        )
    order = declaring_order(dealer)
    later = [c for c in facts.combinations if order.index(c.seat) > order.index(end.caller)]
    if later:
        c = later[0]
        raise RuleViolation(
            "dost.declared-after",
            T("%(caller)s called dost right after declaring, so %(player)s, who declares "
              "after %(caller)s, could not declare %(combination)s", caller=caller,
              player=names.seat(c.seat), combination=c.name),
            "7.2.1",
        )
    if end.trick_winner is not None:
        raise RuleViolation(
            "dost.trick-winner",
            T("This dost came before trick 1: no trick was won, so leave the trick's winner "
              "empty"),
            "7.2.1",
        )
    if end.points != (0, 0) or end.tricks not in (None, (0, 0)):
        raise RuleViolation(
            "dost.no-tricks",
            T("This dost came before trick 1: both teams have 0 card points and 0 tricks"),
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
            T("Trick %(trick)s is recorded more than once as won with a seven",
              trick=twice[0]),
            "6.3.4",
        )
    if len(sevens) > MAX_SEVENS:
        raise RuleViolation(
            "sevens.too-many",
            T("%(count)s tricks are recorded as won with a seven (%(tricks)s), but the pack has "
              "only four sevens and each wins at most one trick", count=len(sevens),
              tricks=", ".join(map(str, tricks))),
            "6.3.4",
        )
    if isinstance(end, Dost):
        late = [s for s in sevens if s.trick > end.after]
        if late:
            message = (
                T("Dost was called before trick 1, so no trick was played: only completed "
                  "tricks count") if end.after == 0
                else T("Dost was called after trick %(after)s, so trick %(trick)s was never "
                       "played: only completed tricks count", after=end.after,
                       trick=late[0].trick)
            )
            raise RuleViolation("sevens.after-dost", message, "6.3.4")
        for s in sevens:
            if s.trick == end.after and s.team != team_of(end.caller):
                raise RuleViolation(
                    "dost.not-winner",
                    T("%(player)s called dost on winning trick %(trick)s, so %(team)s cannot "
                      "have won it with a seven", player=names.seat(end.caller),
                      trick=end.after, team=names.team(s.team)),
                    "7.2.1",
                )
    else:
        for s in sevens:
            if s.trick == TRICKS and s.team != end.last:
                raise RuleViolation(
                    "sevens.last",
                    T("The last trick is recorded as won by %(winners)s, so %(team)s cannot "
                      "have won it with a seven: the 26 goes to the team that won trick 8",
                      winners=names.team(end.last), team=names.team(s.team)),
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
                T("%(player)s declared four sevens, so every trick won with a seven is "
                  "%(team)s's; %(other)s cannot have won trick %(trick)s with one",
                  player=names.seat(c.seat), team=names.team(team),
                  other=names.team(1 - team), trick=theirs[0].trick),
                "6.3.5",
            )
        if c.count == 3 and len(theirs) > 1:
            raise RuleViolation(
                "sevens.combination",
                T("%(player)s declared three sevens, so %(other)s hold at most one seven and "
                  "win at most one trick with it, not %(count)s (tricks %(tricks)s)",
                  player=names.seat(c.seat), other=names.team(1 - team), count=len(theirs),
                  tricks=", ".join(str(s.trick) for s in theirs)),
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
                T("The card points must add up to %(total)s, not %(ns)s + %(ew)s = %(sum)s",
                  total=DEAL_POINTS, ns=points[0], ew=points[1], sum=sum(points)),
                "6.3.1",
            )
    elif not possible_points(sum(points), completed):
        raise RuleViolation(
            "points.impossible",
            N("The %(cards)s cards of the %(num)s trick completed before the dost hold "
              "%(possible)s card points, not %(ns)s + %(ew)s = %(sum)s",
              "The %(cards)s cards of the %(num)s tricks completed before the dost hold "
              "%(possible)s card points, not %(ns)s + %(ew)s = %(sum)s", completed,
              cards=4 * completed, num=completed, possible=possible_text(completed),
              ns=points[0], ew=points[1], sum=sum(points)),
            "6.3.2",
        )
    known = known_tricks(end)
    if end.tricks is None:
        _check_points_without_tricks(points, known, completed, names)
        return
    tricks = end.tricks
    if sum(tricks) != completed:
        if isinstance(end, Played):
            message = T("The teams won %(ns)s + %(ew)s = %(sum)s tricks, but a deal has 8",
                        ns=tricks[0], ew=tricks[1], sum=sum(tricks))
        else:
            message = T("The teams won %(ns)s + %(ew)s = %(sum)s tricks, but dost was called "
                        "after trick %(trick)s", ns=tricks[0], ew=tricks[1], sum=sum(tricks),
                        trick=completed)
        raise RuleViolation(
            "tricks.sum", message, "6.3.1" if isinstance(end, Played) else "6.3.2"
        )
    for team in (0, 1):
        team_name = names.team(team)
        if tricks[team] == 0 and points[team] > 0:
            raise RuleViolation(
                "points.no-trick",
                T("%(team)s won no trick, so they have no card points, not %(points)s",
                  team=team_name, points=points[team]),
                "6.3.3",
            ).of_team(team)
        if tricks[team] == 0 and known[team]:
            raise RuleViolation(
                "bonus.no-trick",
                T("%(team)s won no trick, so they cannot have won %(tricks)s", team=team_name,
                  tricks=_won(known[team], end)),
                "6.3.3",
            ).of_team(team)
        if len(known[team]) > tricks[team]:
            raise RuleViolation(
                "sevens.tricks",
                N("%(team)s won %(num)s trick, but %(known)s are recorded as theirs: "
                  "%(tricks)s",
                  "%(team)s won %(num)s tricks, but %(known)s are recorded as theirs: "
                  "%(tricks)s", tricks[team], team=team_name, num=tricks[team],
                  known=len(known[team]), tricks=_won(known[team], end)),
                "6.3.4",
            ).of_team(team)
        if not possible_points(points[team], tricks[team]):
            raise RuleViolation(
                "points.impossible",
                _cannot_take(team_name, points[team], tricks[team]),
                "6.3.2",
            ).of_team(team)


def _cannot_take(team: str, points: int, tricks: int) -> Text:
    return N("%(team)s cannot have taken %(points)s card points in %(num)s trick: %(hold)s",
             "%(team)s cannot have taken %(points)s card points in %(num)s tricks: %(hold)s",
             tricks, team=team, points=points, num=tricks, hold=_hold(tricks))


def _won(tricks: set[int], end: Played | Dost) -> object:
    """The tricks a team is known to have won, as a phrase: ``tricks 1 and 3 with a seven and
    the last trick``."""
    with_seven = {s.trick for s in end.sevens}
    last = TRICKS if isinstance(end, Played) and TRICKS in tricks else None
    dost_trick = end.after if isinstance(end, Dost) and end.after in tricks else None
    sevens = sorted(t for t in tricks if t in with_seven and t not in (last, dost_trick))
    parts: list[object] = []
    if sevens:
        parts.append(N("trick %(tricks)s with a seven", "tricks %(tricks)s with a seven",
                       len(sevens), tricks=listing(list(sevens))))
    if dost_trick is not None:
        parts.append(
            T("trick %(trick)s with a seven, after which dost was called", trick=dost_trick)
            if dost_trick in with_seven
            else T("trick %(trick)s, after which dost was called", trick=dost_trick)
        )
    if last is not None:
        parts.append(T("the last trick with a seven") if last in with_seven
                     else T("the last trick"))
    return listing(parts)


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
                T("%(team)s won no trick, so they have no card points, not %(points)s",
                  team=names.team(team), points=points[team]),
                "6.3.3",
            ).of_team(team)
        name = names.team(team)
        if first == last:
            message = _cannot_take(name, points[team], first)
        elif points[team] in IMPOSSIBLE_ALONE:
            message = T("%(team)s cannot have taken %(points)s card points in any number of "
                        "tricks from %(first)s to %(last)s (card points are never 1, 2, 70 or "
                        "71)", team=name, points=points[team], first=first, last=last)
        else:
            message = T("%(team)s cannot have taken %(points)s card points in any number of "
                        "tricks from %(first)s to %(last)s", team=name, points=points[team],
                        first=first, last=last)
        raise RuleViolation("points.impossible", message, "6.3.2").of_team(team)
    raise RuleViolation(
        "points.impossible",
        N("Card points of %(ns)s and %(ew)s cannot both be taken in %(num)s trick with the "
          "tricks recorded",
          "Card points of %(ns)s and %(ew)s cannot both be taken in %(num)s tricks with the "
          "tricks recorded", completed, ns=points[0], ew=points[1], num=completed),
        "6.3.2",
    )
