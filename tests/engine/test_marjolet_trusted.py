"""Marjolet's trusted fold (issue 12): a deal the app checked when it stored it is scored from
the facts of the score alone (the turn-up, the melds and who made them, the trump 7, the end:
no cards read, no trick winners worked out), and gives what the deal checked in full gives:
scores, totals, summaries, the award, every line and the detail a page reads.

The contract: what the trusted fold skips depends only on the deal's own facts (its dealer as
stored), the settings and the names, never on the deals before it; a stored deal that an edit
of an earlier one makes invalid is refused as the checked fold refuses it."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from marjolet_helpers import NAMES, A, B, end, hand, random_switches, simulate_hand, tricks

from referee.engine import scoring
from referee.engine.errors import RuleViolation
from referee.engine.games.marjolet import GAME
from referee.engine.games.marjolet.match import MatchFold
from referee.engine.games.marjolet.trusted import quick_scores
from referee.engine.games.marjolet.values import Rules


def match_settings(switches: dict[str, bool], first_dealer: int = B,
                   target: int = 500) -> dict[str, Any]:
    return GAME.settings({
        "players": list(NAMES), "first_dealer": first_dealer, "target": target,
        "rules": "custom", **switches,
    })


def stored(match: dict[str, Any], deals: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The deals as the app stores them: canonical, every dealer recorded."""
    return json.loads(json.dumps(GAME.complete(match, [GAME.canonical_hand(d) for d in deals])))


def outcomes(result: Any) -> list[Any]:
    """Everything a page or the statistics read of each deal, the draft and the standing."""
    def one(h: Any) -> tuple[Any, ...]:
        return (h.number, h.dealer, h.scores, h.totals_after, h.summary, h.award, h.reset,
                h.complete, h.lines, dict(h.detail))
    draft = None if result.draft is None else one(result.draft)
    return [[one(h) for h in result.hands], draft, result.standing]


def refusal(run: Any) -> tuple[str, int | None]:
    with pytest.raises(RuleViolation) as refused:
        run()
    return refused.value.code, refused.value.hand


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), target=st.sampled_from([500, 1000]),
       in_progress=st.booleans())
def test_a_trusted_match_scores_as_the_match_checked_in_full(
    seed: int, target: int, in_progress: bool
) -> None:
    """Real deals under random rules, some dealt out of turn, up to the end of the game (or a
    deal in progress): the trusted fold and the checked fold give the same outcomes."""
    rng = random.Random(seed)
    switches = random_switches(rng)
    match = match_settings(switches, rng.randrange(2), target)
    fold = GAME.fold(match)
    deals: list[dict[str, Any]] = []
    dealer = match["first_dealer"]
    while len(deals) < 40 and fold.winner is None:
        if rng.random() < 0.1:
            dealer = 1 - dealer                                       # out of turn (2.1)
        sim = simulate_hand(rng, dealer, switches)
        sim.facts["dealer"] = dealer
        deals.append(sim.facts)
        fold.add(len(deals), GAME.canonical_hand(sim.facts))
        dealer = 1 - dealer
    if in_progress:
        dealer = deals[-1]["dealer"]
        sim = simulate_hand(rng, dealer, switches, stop_after=rng.randrange(1, 16))
        deals[-1] = {**sim.facts, "dealer": dealer}
    hands = stored(match, deals)
    checked = GAME.score(match, hands)
    scoring.forget()
    trusted = scoring.score("marjolet", match, hands, trusted=True)
    assert outcomes(trusted) == outcomes(checked)
    event("game over" if checked.standing.over else "in progress" if checked.draft else "open")


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), dealer=st.integers(0, 1))
def test_the_facts_of_the_score_alone_give_the_deals_score_6_2(seed: int, dealer: int) -> None:
    """``quick_scores`` on a stored complete deal: the score of the deal checked in full."""
    rng = random.Random(seed)
    switches = random_switches(rng)
    sim = simulate_hand(rng, dealer, switches)
    sim.facts["dealer"] = dealer
    raw = stored(match_settings(switches), [sim.facts])[0]
    assert quick_scores(raw, Rules(**switches)) == (dealer, *sim.scores)


def test_a_trusted_deals_lines_and_detail_are_made_when_read() -> None:
    """Scored without its explanation and detail; both, made when first read (by key, by
    ``get``, as a whole), are those of the deal checked in full."""
    match = match_settings({})
    rng = random.Random("made when read")
    deals = [{**simulate_hand(rng, dealer, cards_known=True).facts, "dealer": dealer}
             for dealer in (B, A, A)]                              # the third out of turn
    hands = stored(match, deals)
    scoring.forget()
    result = scoring.score("marjolet", match, hands, trusted=True)
    assert all("lines" not in vars(h) and not dict.__contains__(h.detail, "score")
               for h in result.hands)
    checked = GAME.score(match, hands)
    assert result.hands[0].detail.get("score") == checked.hands[0].detail["score"]  # the editor
    assert result.hands[1].detail["facts"] == checked.hands[1].detail["facts"]
    assert dict(result.hands[2].detail) == checked.hands[2].detail
    assert [h.lines for h in result.hands] == [h.lines for h in checked.hands]
    assert result.hands == checked.hands


# -- the contract --------------------------------------------------------------------------------

def big() -> dict[str, Any]:
    """A scores 160 (80 in aces and tens, tricks 10 and 16, the sweep, the trump 7 played);
    B 10 for the turn-up."""
    return hand("9c", tricks(count=0), seven=(A, None), finish=end((80, 0), A, A, A))


def small() -> dict[str, Any]:
    """A scores 50 (40 and trick 10), B 70 (40, the turn-up, trick 16, the trump 7 played)."""
    return hand("9c", tricks(count=0), seven=(B, None), finish=end((40, 40), A, B))


def test_a_stored_deal_after_an_edit_ends_the_game_is_refused_trusted_7_3() -> None:
    """Stored: A reaches 580 with deal 5. Deal 1 edited to A's 160: A wins with deal 4 (530),
    and the stored deal 5, folded trusted, is refused as after the end of the game."""
    match = match_settings({})
    before = stored(match, [small(), big(), big(), small(), big()])
    result = GAME.score(match, before)
    assert result.hands[-1].award is not None and result.hands[-1].totals_after[A] == 580
    after = stored(match, [big(), *before[1:]])
    scoring.forget()
    trusted = refusal(lambda: scoring.score("marjolet", match, after, trusted=True))
    assert trusted == refusal(lambda: GAME.score(match, after)) == ("match.over", 5)


def recorded(finished: bool) -> dict[str, Any]:
    """A deal stored without its dealer (read with the dealer due): the cards of tricks 1 and
    2 recorded, B trumping trick 2 with the trump 7 (7♣) when A leads trick 1, as he does when
    B deals (2.4)."""
    trick_list = tricks(count=2)
    trick_list[0]["cards"] = ["Ah", "7h"]           # A leads the A♥, B follows: A wins
    trick_list[1]["cards"] = ["8d", "7c"]           # A leads the 8♦, B trumps with the 7♣
    return hand("9c", trick_list, seven=(B, 2),
                finish=end((40, 40), A, B) if finished else None)


@pytest.mark.parametrize("finished", [True, False], ids=["complete", "in progress"])
def test_a_stored_deal_without_its_dealer_is_checked_with_the_dealer_due_2_1(
    finished: bool,
) -> None:
    """Stored after deals dealt by B then A: B is due, A leads and the cards show B playing the
    trump 7. The second deal's dealer is edited to B (out of turn): A is due for the third,
    B leads it, and the cards now show A playing the trump 7, not B as recorded (4.4.3). The
    stored third deal, folded trusted, is refused as the checked fold refuses it."""
    match = match_settings({}, first_dealer=B)
    first, second = stored(match, [small(), small()])
    third = json.loads(json.dumps(recorded(finished)))          # no dealer: read as due
    assert second["dealer"] == A and "dealer" not in third
    before = GAME.score(match, [first, second, third])
    assert (before.hands[-1] if finished else before.draft).dealer == B
    after = [first, {**second, "dealer": B}, third]
    scoring.forget()
    trusted = refusal(lambda: scoring.score("marjolet", match, after, trusted=True))
    assert trusted == refusal(lambda: GAME.score(match, after)) == ("seven.record", 3)


def test_the_folds_state_between_deals_holds_nothing_to_copy() -> None:
    """The scoring cache keeps the fold's state after every deal, copying each list, dict and
    set in it (scoring.py; issue 12): the Marjolet fold keeps only values that need no copy,
    its players' names as a tuple, the totals too."""
    match = match_settings({})
    fold = MatchFold(match)
    for number, raw in enumerate(stored(match, [small(), big(), small()]), 1):
        fold.add(number, raw)
        copied = [key for key, value in vars(fold).items()
                  if key not in ("hands", "draft") and isinstance(value, (list, dict, set))]
        assert copied == [], number
    assert fold.names == tuple(NAMES) and fold.totals == (260, 150)
