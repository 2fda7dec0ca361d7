"""Facts that stay right when an earlier deal is edited or deleted (issue 10): the matchstick
choice belongs to the team that made it (7.3.1), a dost after a trick needs its card points
(6.1), and the dealer is a recorded fact (2.5, 6.1)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from stovkahra_helpers import EW, NS, PLAIN, E, N, W, combo, deal, dost, settings

from referee.engine.errors import RuleViolation
from referee.engine.games.stovkahra import GAME
from referee.engine.matchfile import dumps, load

SERIES = Path(__file__).resolve().parents[1] / "data" / "stovkahra-series.json"

# A game ended at once: a wrong dost right after one's own declaration gives the opponents
# 2 matchsticks (7.2.5).
EW_WIN_2 = deal(combo(N, "A", 3), end=dost(N, 0))
NS_WIN_2 = deal(combo(E, "A", 3), end=dost(E, 0))
PLAIN_DEAL = deal(end=PLAIN)          # NS 40, EW 38: no game ends


def chosen(facts: dict[str, Any], choice: str, by: int,
           against: int | None = None) -> dict[str, Any]:
    return {**facts, "sticks": choice, "sticks_by": by, "sticks_against": against}


def score(hands: list[dict[str, Any]], **kw: Any) -> Any:
    return GAME.score(settings(**kw), hands)


# -- 7.3.1: the choice belongs to the team that made it --------------------------------------

def test_a_choice_made_by_the_other_team_is_void_and_the_award_pending_7_3_1() -> None:
    # EW won deal 1 and chose to add; an edit gives the game to NS: EW's choice is not theirs.
    result = score([chosen(NS_WIN_2, "add", EW)])
    out = result.hands[0]
    assert out.award is not None and out.award.winner == NS
    assert out.detail["sticks"] is None and out.detail["sticks_pending"] is True
    assert out.detail["sticks_void"] == (
        "EW chose to add the matchsticks, but after a change to an earlier deal NS win this "
        "game: that choice is void and NS choose"
    )
    assert out.summary == "NS win the game: 2 matchsticks, not chosen yet"
    assert result.standing.victory == (0, 0)
    assert "matchsticks of deal 1 not chosen yet (not counted)" in result.standing.phase


def test_the_choice_stands_for_the_team_that_made_it_7_3_1() -> None:
    result = score([chosen(NS_WIN_2, "add", NS)])
    assert result.hands[0].summary == "NS win the game: 2 matchsticks, added"
    assert result.standing.victory == (2, 0)


def test_a_choice_without_its_team_is_the_winners_at_that_time_and_is_written_in() -> None:
    hands = [GAME.canonical_hand({**EW_WIN_2, "sticks": "add"}),
             GAME.canonical_hand({**NS_WIN_2, "sticks": "take"})]
    assert score(hands).standing.victory == (0, 0)          # EW add 2, NS take 2
    completed = GAME.complete(settings(), hands)
    assert [(h["sticks_by"], h["sticks_against"]) for h in completed] == [(EW, None), (NS, 2)]
    assert score(completed).standing.victory == (0, 0)


def test_a_version_1_file_reads_as_before_and_is_upgraded_on_save() -> None:
    upgraded = SERIES.read_text(encoding="utf-8")
    data = json.loads(upgraded)
    for hand in data["hands"]:
        for key in ("dealer", "sticks_by", "sticks_against"):
            del hand[key]
    old = load(json.dumps(data))
    assert dumps(old) == upgraded
    assert [h["dealer"] for h in old.hands] == [W, N, E, 2, W, N, E]
    assert [(h["sticks"], h["sticks_by"]) for h in old.hands] == [
        (None, None), ("add", NS), (None, None), ("add", EW), (None, None), ("take", NS),
        (None, None),
    ]


# -- 7.3.1: a take is made against the opponents' pile ---------------------------------------

def test_a_take_against_a_pile_an_edit_emptied_is_void_7_3_1() -> None:
    take = chosen(NS_WIN_2, "take", NS, against=2)
    before = score([chosen(EW_WIN_2, "add", EW), take])
    assert before.standing.victory == (0, 0)
    assert before.hands[1].detail["sticks"] == "take"
    # Deal 1 edited: it no longer ends a game, so EW's pile is empty when NS take.
    after = score([PLAIN_DEAL, take])
    out = after.hands[1]
    assert out.detail["sticks"] is None and out.detail["sticks_pending"] is True
    assert out.detail["sticks_void"] == (
        "NS chose to take 2 matchsticks off EW's pile when it held 2; after a change to an "
        "earlier deal it holds 0: that choice is void and they choose again"
    )
    assert not any("could be taken" in line.text for line in out.lines)
    assert after.standing.victory == (0, 0)


def test_a_take_stands_while_the_pile_still_covers_the_award_7_3_1() -> None:
    ew_add = chosen(EW_WIN_2, "add", EW)
    take = chosen(NS_WIN_2, "take", NS, against=4)
    assert score([ew_add, ew_add, take]).standing.victory == (0, 2)
    result = score([ew_add, take])                      # deal 1 deleted: EW hold 2, enough
    assert result.hands[1].detail["sticks"] == "take"
    assert result.standing.victory == (0, 0)


def test_a_take_made_against_a_short_pile_loses_the_excess_and_says_so_7_3_1() -> None:
    result = score([chosen(EW_WIN_2, "take", EW, against=0), chosen(NS_WIN_2, "add", NS),
                    chosen(EW_WIN_2, "take", EW, against=2)])
    assert result.hands[0].summary == "EW win the game: 2 matchsticks, taken away (2 lost: NS " \
        "had only 0)"
    assert result.standing.victory == (0, 0)


# -- 7.3.2: the series is not decided on a pile that depends on an open choice ----------------

def test_the_series_waits_for_a_pending_award_7_3_2() -> None:
    ns_add = chosen(NS_WIN_2, "add", NS)
    waiting = score([GAME.canonical_hand(EW_WIN_2), ns_add], target=2)
    assert not waiting.standing.over and waiting.standing.victory == (2, 0)
    assert waiting.hands[1].lines[-1].text == (
        "NS reach 2 on the matchsticks shown, but the award of deal 1 is not chosen yet: the "
        "series is decided once it is"
    )
    decided = score([chosen(EW_WIN_2, "take", EW, against=0), ns_add], target=2)
    assert decided.standing.over and decided.standing.winner == NS


# -- 6.1: a dost after a trick needs both teams' card points ----------------------------------

def test_a_dost_after_a_trick_without_card_points_is_refused_6_1() -> None:
    end = dost(N, 2, tricks=(1, 1), trick_winner=N)
    del end["points"]
    with pytest.raises(RuleViolation) as caught:
        GAME.canonical_hand(deal(end=end))
    assert caught.value.code == "dost.points" and caught.value.rule == "6.1"
    assert "give both teams' card points of the completed tricks" in caught.value.message


def test_a_dost_right_after_a_declaration_needs_no_card_points_6_1() -> None:
    end = dost(N, 0)
    del end["points"]
    assert GAME.canonical_hand(deal(combo(N, "A", 3), end=end))["end"]["points"] == [0, 0]


# -- 2.5 and 6.1: who dealt is recorded ------------------------------------------------------

def test_the_dealer_is_proposed_and_written_in_2_5() -> None:
    hands = [GAME.canonical_hand(PLAIN_DEAL)] * 3
    completed = GAME.complete(settings(first_dealer=W), hands)
    assert [h["dealer"] for h in completed] == [W, N, E]
    assert score(completed).standing.dealer == 2


def test_completing_changes_no_deal_and_keeps_the_complete_ones_as_they_are() -> None:
    """The deals given are never changed in place (each filled-in deal is a new one), and a
    match with nothing to fill in is the very same deals: after a change, the stored deals
    are found unchanged by identity (issue 12)."""
    hands = [GAME.canonical_hand(PLAIN_DEAL)] * 3
    completed = GAME.complete(settings(first_dealer=W), hands)
    assert hands[0]["dealer"] is None
    again = GAME.complete(settings(first_dealer=W), completed)
    assert again == completed and all(a is b for a, b in zip(again, completed, strict=True))


def test_a_recorded_dealer_stays_when_an_earlier_deal_is_deleted_6_1() -> None:
    completed = GAME.complete(settings(first_dealer=W), [GAME.canonical_hand(PLAIN_DEAL)] * 3)
    result = score(completed[1:])                       # deal 1 deleted
    assert [h.dealer for h in result.hands] == [N, E]
    assert result.standing.dealer == 2


def test_a_dealer_out_of_turn_is_kept_and_said_with_the_names_2_5() -> None:
    hands = [{**PLAIN_DEAL, "dealer": W}, {**PLAIN_DEAL, "dealer": E}]
    result = score(hands)
    assert result.hands[1].dealer == E
    assert result.hands[1].lines[0].text == (
        "East dealt, out of turn: the deal passes to the left, so North was due to deal "
        "(recorded as dealt)"
    )
    assert not any("out of turn" in line.text for line in result.hands[0].lines)
    assert result.standing.dealer == 2                  # to the left of East


def test_the_recorded_dealer_decides_who_declares_first_2_3() -> None:
    # S declares and calls dost at once; E declared too. Dealt by N, E declares before S:
    # fine. Dealt by E, S declares first, so E could not have declared after S's dost.
    facts = deal(combo(E, "K", 3), combo(2, "A", 3), end=dost(2, 0))
    assert score([{**facts, "dealer": N}]).hands[0].award is not None
    with pytest.raises(RuleViolation) as caught:
        score([{**facts, "dealer": E}])
    assert caught.value.code == "dost.declared-after"


@pytest.mark.parametrize(("extra", "says"), [
    ({"sticks": "take", "sticks_against": 5},
     "A take's pile is recorded without the team that took"),
    ({"sticks": "add", "sticks_by": 2}, "North–South or East–West, not 2"),
    ({"sticks": "add", "sticks_by": 1.0}, "North–South or East–West, not 1.0"),
    ({"sticks": "add", "sticks_by": True}, "North–South or East–West, not True"),
])
def test_a_chooser_that_is_no_team_is_refused_7_3_1(extra: dict[str, Any], says: str) -> None:
    """A take's pile without its team would read as an old file's choice that completing the
    match revives (Game.complete must never change a score): refused, as is a team that is
    none of the two."""
    with pytest.raises(RuleViolation) as refused:
        GAME.canonical_hand({**deal(end=PLAIN), **extra})
    assert says in refused.value.message and refused.value.rule == "7.3.1"


@pytest.mark.parametrize("rank", [[], {}, [3]])
def test_a_combination_rank_of_the_wrong_kind_is_refused_4_5(rank: object) -> None:
    with pytest.raises(RuleViolation) as refused:
        GAME.canonical_hand(deal({"seat": N, "rank": rank, "count": 3}))
    assert "is no combination" in refused.value.message and refused.value.rule == "4.5"
