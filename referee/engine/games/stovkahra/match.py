"""A Stovkahra series: deals folded into game scores, games to 100, dost, matchsticks and the
series (rules section 7 and the variants of section 8).

The dealer of each deal is its recorded fact; a missing one is the proposal, the seat to the
left of the previous deal's dealer (2.5, 6.1).

The winners' matchstick choice (7.3.1) is applied only when it is theirs and still stands (see
``facts.py``); otherwise the award is *pending*: its matchsticks are on no pile, the lines and
the standing say "not chosen yet", and the piles shown leave it out. Later deals are still
scored (a game's end does not depend on the choice), and later choices are applied to the
piles shown. The series is not decided while an award is pending: a pile that reaches the
target then depends on an open choice (a take could have lowered it, an add raised the other),
so the lines say so (``detail["series_waits"]``; the web then starts no new deal) and the
series goes on until the winners choose. A take chosen meanwhile is made against the pile
shown, so choosing the earlier award may make it void in turn, and it is asked again.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

from ...errors import RuleViolation
from ...race import RaceRules, finish, game_award, judge_call
from ...tricks import read_trusted
from ...words import N, T, Text, listing
from ..base import Award, HandOutcome, Line, MatchResult, Standing, fold_hands
from ..dealer import proposed_after
from .deal import DealScore, Names, score_deal
from .facts import DealFacts, Dost, Played, parse_deal, read_canonical
from .values import SEATS, team_of

SEATS_N = len(SEATS)
PER_DEAL = ("hands", "draft", "trusted", "prior")     # a fold's attributes that are no state

RACE = RaceRules(
    target=100, award=1, big_award=2, far_behind_at_most=49, wrong_call_award=2,
    opponent="opponents",
)


def UNIT(amount: int) -> Text:       # noqa: N802 - the race's unit, as ``judge_call`` says it
    """"1 matchstick", "2 matchsticks": the race's award (7.1.3)."""
    return N("%(num)s matchstick", "%(num)s matchsticks", amount, num=amount)


def award_reason(team: str, total: int, other: str, loser: int, amount: int) -> Text:
    """Why a team that reached 100 wins ``amount`` matchsticks (7.1.3)."""
    if loser <= RACE.far_behind_at_most:
        return N("%(team)s reach %(total)s; %(other)s have %(loser)s ≤ %(most)s → %(num)s "
                 "matchstick",
                 "%(team)s reach %(total)s; %(other)s have %(loser)s ≤ %(most)s → %(num)s "
                 "matchsticks", amount, team=team, total=total, other=other, loser=loser,
                 most=RACE.far_behind_at_most, num=amount)
    return N("%(team)s reach %(total)s; %(other)s have %(loser)s ≥ %(least)s → %(num)s "
             "matchstick",
             "%(team)s reach %(total)s; %(other)s have %(loser)s ≥ %(least)s → %(num)s "
             "matchsticks", amount, team=team, total=total, other=other, loser=loser,
             least=RACE.far_behind_at_most + 1, num=amount)


def dost_verdict(counts: tuple[int, int], caller: int, right: bool, amount: int) -> Text:
    """The judgement of a dost from both teams' counts (7.2.3–7.2.5)."""
    count, other = counts[caller], counts[1 - caller]
    if not right:
        return N("%(count)s < %(target)s: wrong; %(num)s matchstick to the opponents",
                 "%(count)s < %(target)s: wrong; %(num)s matchsticks to the opponents",
                 amount, count=count, target=RACE.target, num=amount)
    if other <= RACE.far_behind_at_most:
        return N("%(count)s ≥ %(target)s: right; opponents %(other)s ≤ %(most)s → %(num)s "
                 "matchstick",
                 "%(count)s ≥ %(target)s: right; opponents %(other)s ≤ %(most)s → %(num)s "
                 "matchsticks", amount, count=count, target=RACE.target, other=other,
                 most=RACE.far_behind_at_most, num=amount)
    return N("%(count)s ≥ %(target)s: right; opponents %(other)s ≥ %(least)s → %(num)s "
             "matchstick",
             "%(count)s ≥ %(target)s: right; opponents %(other)s ≥ %(least)s → %(num)s "
             "matchsticks", amount, count=count, target=RACE.target, other=other,
             least=RACE.far_behind_at_most + 1, num=amount)


def piles_text(teams: list[str], piles: Sequence[int]) -> Text:
    """``Jana & Eva 3, Petr & Karel 5``: both teams' piles (or game scores)."""
    return T("%(ns)s %(ns_count)s, %(ew)s %(ew_count)s", ns=teams[0], ns_count=piles[0],
             ew=teams[1], ew_count=piles[1])


def take_sticks(piles: list[int], winner: int, amount: int, choice: str) -> int:
    """Apply the winners' choice (7.3.1) to ``piles`` in place: add ``amount`` to their own
    pile, or take it off the opponents', never below 0. Returns how many were lost."""
    if choice == "add":
        piles[winner] += amount
        return 0
    removed = min(amount, piles[1 - winner])
    piles[1 - winner] -= removed
    return amount - removed


class MatchFold:
    """Folds deals one by one; ``start_totals`` and ``start_piles`` let a test begin mid-series.

    Trusted deals (issue 12; ``trusted`` is set by ``referee.engine.scoring`` per deal): facts
    the app itself checked and wrote are read as written (``read_canonical``), scored without
    the checks of ``score_deal`` and without their explanation, whose lines are written when
    first read (``HandOutcome.explained_later``: the same deal folded again from the state
    before it, the same lines in the same order).

    THE CONTRACT of a trusted fold: what it skips depends only on the deal's own facts (its
    recorded dealer included), the match settings and the names, never on the deals before it.
    The checks skipped are those of the facts' reading (``parse_deal``) and of
    ``score_deal`` (4.5 combinations, 7.2.1 who may call dost and when, 6.3 sevens, card
    points and tricks): they read the deal's facts and its dealer only. A deal stored without
    its dealer is therefore folded with every check, since its dealer is then the one due
    after the deals before it (and the order of declaring, which 7.2.1 reads, with it). What
    depends on the deals before it is never skipped: the series already over (7.3.2), only the
    last deal in progress (6.1), the game to 100 and the judgement of a dost from the running
    totals (7.1, 7.2.3–7.2.5), the winners' matchstick choice against the piles and whether it
    still stands (7.3.1), the series (7.3.2, 8) and the dealer out of turn (2.5). The state is
    never changed in place (``totals``, ``piles`` and ``pending`` are replaced), so the state
    kept before a trusted deal stays as it was for its lines.
    """

    def __init__(
        self, settings: dict[str, Any], start_totals: tuple[int, int] = (0, 0),
        start_piles: tuple[int, int] = (0, 0),
    ) -> None:
        self.names = Names(list(settings["players"]), list(settings["teams"]))
        self.target: int = settings["target"]
        self.first_dealer: int = settings["first_dealer"]
        self.continue_to_20: bool = bool(settings.get("continue_to_20", False))
        self.totals: Sequence[int] = (start_totals[0], start_totals[1])
        self.piles: Sequence[int] = (start_piles[0], start_piles[1])
        self.tie = False                       # both at 100+ and equal: another deal (7.1.2)
        self.first_to_target: int | None = None   # Continue to 20 (8)
        self.over = False
        self.winner: int | None = None
        self.hands: list[HandOutcome] = []
        self.draft: HandOutcome | None = None
        self.next_dealer: int = self.first_dealer        # the proposal for the next deal
        self.pending: tuple[int, ...] = ()      # deals whose award is not chosen yet (7.3.1)

    @property
    def final_target(self) -> int:
        return 2 * self.target if self.continue_to_20 else self.target

    def _dealer(self, outcome: HandOutcome) -> None:
        """The recorded dealer; one who breaks the rotation is said in the lines (2.5, 6.1)."""
        proposed = self.next_dealer
        dealer = outcome.dealer
        if dealer != proposed and self.explain:
            players = self.names.players
            outcome.lines.insert(0, Line(
                None, T("%(dealer)s dealt, out of turn: the deal passes to the left, so "
                        "%(due)s was due to deal (recorded as dealt)", dealer=players[dealer],
                        due=players[proposed]), None, "2.5",
            ))
        self.next_dealer = proposed_after(dealer, SEATS_N)    # passes to the left (2.5)

    trusted = False       # the next deal's facts were checked when stored (scoring.py)
    prior: HandOutcome | None = None      # the next deal's outcome from the last fold (same)
    explain = True        # its lines are written as it is folded (else when first read)

    def add(self, number: int, raw: object, last: bool = False) -> None:
        prior = self.prior if self.trusted else None
        score: DealScore | None = None
        if prior is not None and prior.detail["facts"].dealer is not None:
            # its facts and its deal score read only the deal and its recorded dealer
            facts, score = prior.detail["facts"], prior.detail["score"]
        else:
            known = read_trusted(read_canonical, raw) if self.trusted else None
            facts = self._parse(raw) if known is None else known
        if self.over:
            raise RuleViolation(
                "match.over", T("The series is over (%(standing)s)",
                                standing=self.standing().phase), "7.3.2"
            )
        # the contract (see the class): the checks skipped read the recorded dealer
        if self.trusted and facts.dealer is not None:
            # the state before the deal, for its lines: not what is set per deal (the deals
            # so far, scoring's ``prior``: no outcome kept alive through another's lines)
            before = vars(self).copy()
            for key in PER_DEAL:
                before.pop(key, None)
            self.explain = False
            try:
                self._deal(number, facts, last, True, before, score)
            finally:
                del self.explain
        else:
            self._deal(number, facts, last, False)

    def _parse(self, raw: object) -> DealFacts:
        try:
            return parse_deal(raw)
        except RuleViolation as error:
            # The facts reader knows seats, not names: "S: ..." becomes "Eva: ...".
            message = error.message
            if not isinstance(message, Text):
                raise
            seat = message.values.get("player")
            if isinstance(seat, str) and seat in SEATS:
                error.message = Text(
                    message.msgid,
                    {**message.values, "player": self.names.players[SEATS.index(seat)]},
                    plural=message.plural, count=message.n, context=message.context,
                )
            raise

    def _deal(
        self, number: int, facts: DealFacts, last: bool, trusted: bool,
        before: dict[str, Any] | None = None, score: DealScore | None = None,
    ) -> HandOutcome:
        """Fold the deal; ``trusted``: without the checks of ``score_deal``; ``before``: the
        state before it, where its lines are written when read (``explain`` is then False);
        ``score``: its deal score from the last fold, if any."""
        dealer = self.next_dealer if facts.dealer is None else facts.dealer
        if score is None:
            score = score_deal(facts, dealer, self.names, trusted, self.explain)
        scores = score.scores
        totals = self.totals
        new = (totals[0] + scores[0], totals[1] + scores[1])
        outcome = self._outcome(number, dealer, facts, score, scores, new, before, last)
        self._dealer(outcome)
        if facts.end is None:
            if not last:
                raise RuleViolation(
                    "deal.unfinished", T("Only the last deal can still be in progress"), "6.1"
                )
            outcome.complete = False
            outcome.summary = T("in progress")
            if facts.sticks is not None:
                outcome.detail["sticks_unused"] = True
            self.draft = outcome
            return outcome
        if isinstance(facts.end, Played):
            self._end_played(outcome, facts, new)
        else:
            self._end_dost(outcome, facts, facts.end, (totals[0], totals[1]), score, new)
        if outcome.award is None and facts.sticks is not None:
            outcome.detail["sticks_unused"] = True
        self.hands.append(outcome)
        return outcome

    def _outcome(
        self, number: int, dealer: int, facts: DealFacts, score: DealScore,
        scores: tuple[int, int], totals: tuple[int, int], before: dict[str, Any] | None,
        last: bool,
    ) -> HandOutcome:
        detail = {"facts": facts, "score": score}
        if before is not None:
            return HandOutcome.explained_later(
                partial(_explain, before, number, facts, last, score),
                number=number, dealer=dealer, scores=scores, totals_after=totals, summary="",
                detail=detail,
            )
        lines = list(score.lines)
        if self.explain:
            for team in (0, 1):
                name = self.names.team(team)
                text = (T("%(team)s: deal score so far", team=name) if facts.end is None
                        else T("%(team)s: deal score", team=name))
                lines.append(Line(team, text, scores[team], "6.2"))
        return HandOutcome(
            number=number, dealer=dealer, scores=scores, totals_after=totals,
            lines=lines, summary="", detail=detail,
        )

    def _end_played(self, outcome: HandOutcome, facts: DealFacts, new: tuple[int, int]) -> None:
        teams = self.names.teams
        if new[0] < RACE.target and new[1] < RACE.target:         # neither at 100 (7.1.2)
            self.totals = new
            outcome.summary = piles_text(teams, new)
            return
        done = finish(new, RACE.target)
        if len(done.reached) == 1:
            (team,) = done.reached
            amount = game_award(RACE, new[1 - team])
            reason = award_reason(teams[team], new[team], teams[1 - team], new[1 - team], amount)
            self._award(outcome, facts, Award(team, amount, reason), "7.1.3")
        elif done.winner is not None:
            team = done.winner
            amount = game_award(RACE, new[1 - team])
            reason = N("both teams at 100 or more: %(team)s's %(total)s beats %(other)s → "
                       "%(num)s matchstick",
                       "both teams at 100 or more: %(team)s's %(total)s beats %(other)s → "
                       "%(num)s matchsticks", amount, team=teams[team], total=new[team],
                       other=new[1 - team], num=amount)
            self._award(outcome, facts, Award(team, amount, reason), "7.1.2")
        else:
            self.totals = new
            self.tie = True
            outcome.detail["tie"] = True
            outcome.summary = T("both at %(score)s: another deal, scores kept", score=new[0])
            if self.explain:
                outcome.lines.append(Line(
                    None, T("Both teams at %(score)s: another deal is played with the scores "
                            "kept and no shuffle; both already count 100, so the first "
                            "eligible dost is right", score=new[0]), None, "7.1.2",
                ))

    def _end_dost(
        self, outcome: HandOutcome, facts: DealFacts, end: Dost, before: tuple[int, int],
        score: DealScore, counts: tuple[int, int],
    ) -> None:
        if self.explain:
            for team in (0, 1):
                outcome.lines.append(Line(
                    team,
                    T("%(team)s's count: game score %(game)s + combinations %(combinations)s + "
                      "card points %(points)s + sevens %(sevens)s = %(count)s",
                      team=self.names.team(team), game=before[team],
                      combinations=score.combinations[team], points=score.points[team],
                      sevens=score.sevens[team], count=counts[team]),
                    None, "7.2.3",
                ))
        caller = team_of(end.caller)
        verdict = judge_call(RACE, caller, counts, UNIT)
        outcome.detail["dost_right"] = verdict.right
        why = dost_verdict(counts, caller, verdict.right, verdict.award)
        player = self.names.seat(end.caller)
        reason = (
            T("%(player)s calls dost right after declaring — %(verdict)s", player=player,
              verdict=why) if end.after == 0
            else T("%(player)s calls dost on winning trick %(trick)s — %(verdict)s",
                   player=player, trick=end.after, verdict=why)
        )
        self._award(
            outcome, facts, Award(verdict.winner, verdict.award, reason),
            "7.2.4" if verdict.right else "7.2.5",
        )

    def _award(self, outcome: HandOutcome, facts: DealFacts, award: Award, rule: str) -> None:
        teams = self.names.teams
        winner, amount = award.winner, award.amount
        outcome.award = award
        outcome.reset = True
        explain = self.explain
        if explain:
            outcome.lines.append(Line(
                winner, N("%(reason)s: %(team)s win the game and %(num)s matchstick; both game "
                          "scores return to 0",
                          "%(reason)s: %(team)s win the game and %(num)s matchsticks; both "
                          "game scores return to 0", amount, reason=award.reason,
                          team=teams[winner], num=amount), None, rule,
            ))
        piles = self.piles
        outcome.detail["piles_before"] = (piles[0], piles[1])
        if facts.sticks is not None and facts.sticks_by is None:
            # A version 1 choice: made by the winners at that time, against the pile then.
            outcome.detail["sticks_made"] = (
                winner, piles[1 - winner] if facts.sticks == "take" else None
            )
        choice = self._standing_choice(outcome, facts, award)
        outcome.detail["sticks"] = choice
        if choice is None:
            self.pending = (*self.pending, outcome.number)
            outcome.detail["sticks_pending"] = True
            if explain:
                outcome.lines.append(Line(
                    winner, N("%(team)s choose to add %(num)s matchstick to their pile or take "
                              "it off %(other)s's: not chosen yet, so the matchsticks shown "
                              "leave this award out (%(piles)s)",
                              "%(team)s choose to add %(num)s matchsticks to their pile or "
                              "take them off %(other)s's: not chosen yet, so the matchsticks "
                              "shown leave this award out (%(piles)s)", amount,
                              team=teams[winner], num=amount, other=teams[1 - winner],
                              piles=piles_text(teams, piles)), None, "7.3.1",
                ))
            outcome.summary = N("%(team)s win the game: %(num)s matchstick, not chosen yet",
                                "%(team)s win the game: %(num)s matchsticks, not chosen yet",
                                amount, team=teams[winner], num=amount)
        else:
            after = [piles[0], piles[1]]
            lost = take_sticks(after, winner, amount, choice)
            self.piles = piles = (after[0], after[1])
            if explain:
                outcome.lines.append(Line(
                    winner, _choice_line(choice, teams, winner, amount, lost, piles), None,
                    "7.3.1",
                ))
            outcome.summary = _choice_summary(choice, teams, winner, amount, lost)
        self.totals = (0, 0)
        self.tie = False
        if choice is not None:
            self._series(outcome, winner)

    def _standing_choice(
        self, outcome: HandOutcome, facts: DealFacts, award: Award
    ) -> str | None:
        """The winners' choice if it is theirs and still stands, else None (7.3.1); a void
        choice says why in the lines and in ``detail["sticks_void"]``."""
        teams, winner, amount = self.names.teams, award.winner, award.amount
        choice = facts.sticks
        if choice is None:
            return None
        by = winner if facts.sticks_by is None else facts.sticks_by
        void = None
        if by != winner:
            void = (
                T("%(team)s chose to add the matchsticks, but after a change to an earlier deal "
                  "%(winners)s win this game: that choice is void and %(winners)s choose",
                  team=teams[by], winners=teams[winner]) if choice == "add"
                else T("%(team)s chose to take the matchsticks, but after a change to an "
                       "earlier deal %(winners)s win this game: that choice is void and "
                       "%(winners)s choose", team=teams[by], winners=teams[winner])
            )
        elif choice == "take" and facts.sticks_against is not None:
            then, now = facts.sticks_against, self.piles[1 - winner]
            if then != now and min(then, now) < amount:
                void = N(
                    "%(team)s chose to take %(num)s matchstick off %(other)s's pile when it "
                    "held %(then)s; after a change to an earlier deal it holds %(now)s: that "
                    "choice is void and they choose again",
                    "%(team)s chose to take %(num)s matchsticks off %(other)s's pile when it "
                    "held %(then)s; after a change to an earlier deal it holds %(now)s: that "
                    "choice is void and they choose again", amount, team=teams[winner],
                    num=amount, other=teams[1 - winner], then=then, now=now,
                )
        if void is None:
            return choice
        outcome.detail["sticks_void"] = void
        if self.explain:
            outcome.lines.append(Line(winner, void, None, "7.3.1"))
        return None

    def _series(self, outcome: HandOutcome, team: int) -> None:
        teams, pile = self.names.teams, self.piles[team]
        threshold = self.target if self.first_to_target is None else self.final_target
        if self.pending and pile >= threshold:
            if self.explain:
                outcome.lines.append(Line(
                    team, N("%(team)s reach %(pile)s on the matchsticks shown, but the award of "
                            "deal %(deals)s is not chosen yet: the series is decided once it is",
                            "%(team)s reach %(pile)s on the matchsticks shown, but the award of "
                            "deals %(deals)s is not chosen yet: the series is decided once it "
                            "is", len(self.pending), team=teams[team], pile=pile,
                            deals=listing(list(self.pending))), None, "7.3.2",
                ))
            outcome.detail["series_waits"] = True
            return
        if self.continue_to_20 and self.first_to_target is None and pile >= self.target:
            self.first_to_target = team
            if self.explain:
                outcome.lines.append(Line(
                    team, T("%(team)s reach %(target)s first: the series goes on to %(final)s, "
                            "piles kept (Continue to 20)", team=teams[team], target=self.target,
                            final=self.final_target), None, "8",
                ))
        if pile < self.final_target:
            return
        self.over = True
        if not self.continue_to_20:
            self.winner = team
            text = T("%(team)s reach %(target)s: they win the series", team=teams[team],
                     target=self.target)
            rule = "7.3.2"
        elif team == self.first_to_target:
            self.winner = team
            text = T("%(team)s reached %(target)s first and reach %(final)s first: they win "
                     "two series", team=teams[team], target=self.target,
                     final=self.final_target)
            rule = "8"
        else:
            text = T("%(team)s reach %(final)s first, but %(other)s reached %(target)s first: "
                     "the series is drawn", team=teams[team], final=self.final_target,
                     other=teams[1 - team], target=self.target)
            rule = "8"
        if self.explain:
            outcome.lines.append(Line(team, text, None, rule))
        outcome.summary = T("%(game)s — %(series)s", game=outcome.summary, series=text)

    def _pending_deals(self) -> Text:
        return N("deal %(deals)s", "deals %(deals)s", len(self.pending),
                 deals=listing(list(self.pending)))

    def result(self) -> MatchResult:
        return MatchResult(self.hands, self.standing(), self.draft)

    def standing(self) -> Standing:
        teams, piles = self.names.teams, self.piles
        if self.over and self.winner is None:
            first = self.first_to_target
            assert first is not None
            phase = T("Series drawn %(ns)s–%(ew)s: %(first)s reached %(target)s first, "
                      "%(other)s reached %(final)s first", ns=piles[0], ew=piles[1],
                      first=teams[first], target=self.target, other=teams[1 - first],
                      final=self.final_target)
        elif self.over:
            assert self.winner is not None
            w = self.winner
            phase = (
                T("Series over: %(team)s win two series %(won)s–%(lost)s", team=teams[w],
                  won=piles[w], lost=piles[1 - w]) if self.continue_to_20
                else T("Series over: %(team)s win %(won)s–%(lost)s", team=teams[w],
                       won=piles[w], lost=piles[1 - w])
            )
        elif self.tie:
            phase = T("Both teams at %(score)s: another deal with the scores kept, no shuffle",
                      score=self.totals[0])
        elif self.first_to_target is not None:
            phase = T("Game in progress · %(team)s reached %(target)s first: the series goes "
                      "on to %(final)s", team=teams[self.first_to_target], target=self.target,
                      final=self.final_target)
        else:
            phase = T("Game in progress")
        if self.pending:
            phase = T("%(standing)s · matchsticks of %(deals)s not chosen yet (not counted)",
                      standing=phase, deals=self._pending_deals())
        dealer = self.next_dealer if self.draft is None else self.draft.dealer
        return Standing(
            totals=(self.totals[0], self.totals[1]), victory=(piles[0], piles[1]),
            dealer=dealer, phase=phase,
            over=self.over, winner=self.winner,
        )


def _choice_line(
    choice: str, teams: list[str], winner: int, amount: int, lost: int, piles: Sequence[int]
) -> Text:
    """The line of the winners' choice applied (7.3.1), with the piles after it."""
    team, other, after = teams[winner], teams[1 - winner], piles_text(teams, piles)
    if choice == "add":
        return N("%(team)s add %(num)s matchstick to their pile: matchsticks %(piles)s",
                 "%(team)s add %(num)s matchsticks to their pile: matchsticks %(piles)s",
                 amount, team=team, num=amount, piles=after)
    if lost:
        return N("%(team)s take %(num)s matchstick off %(other)s's pile (only %(taken)s could "
                 "be taken; %(lost)s lost): matchsticks %(piles)s",
                 "%(team)s take %(num)s matchsticks off %(other)s's pile (only %(taken)s could "
                 "be taken; %(lost)s lost): matchsticks %(piles)s", amount, team=team,
                 num=amount, other=other, taken=amount - lost, lost=lost, piles=after)
    return N("%(team)s take %(num)s matchstick off %(other)s's pile: matchsticks %(piles)s",
             "%(team)s take %(num)s matchsticks off %(other)s's pile: matchsticks %(piles)s",
             amount, team=team, num=amount, other=other, piles=after)


def _choice_summary(choice: str, teams: list[str], winner: int, amount: int, lost: int) -> Text:
    """A deal's summary once the winners' choice is applied (7.3.1)."""
    team, other = teams[winner], teams[1 - winner]
    if choice == "add":
        return N("%(team)s win the game: %(num)s matchstick, added",
                 "%(team)s win the game: %(num)s matchsticks, added", amount, team=team,
                 num=amount)
    if lost:
        return N("%(team)s win the game: %(num)s matchstick, taken away (%(lost)s lost: "
                 "%(other)s had only %(taken)s)",
                 "%(team)s win the game: %(num)s matchsticks, taken away (%(lost)s lost: "
                 "%(other)s had only %(taken)s)", amount, team=team, num=amount, lost=lost,
                 other=other, taken=amount - lost)
    return N("%(team)s win the game: %(num)s matchstick, taken away",
             "%(team)s win the game: %(num)s matchsticks, taken away", amount, team=team,
             num=amount)


def _explain(
    before: dict[str, Any], number: int, facts: DealFacts, last: bool, score: DealScore
) -> list[Line]:
    """A trusted deal's lines, written when first read: the deal folded again, from the state
    before it, with its explanation (its facts were checked when stored). ``score``, the deal
    score kept in its detail, gets its lines too."""
    fold = object.__new__(MatchFold)
    vars(fold).update(before)
    fold.hands, fold.draft = [], None
    again = fold._deal(number, facts, last, True)
    if not score.lines:
        score.lines.extend(again.detail["score"].lines)
    return again.lines


def score_match(settings: dict[str, Any], hands: list[Any]) -> MatchResult:
    return fold_hands(MatchFold(settings), hands, "Deal")
