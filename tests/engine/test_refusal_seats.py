"""A refused call names the player who made it (RuleViolation.seat), so that a page can mark
that player's field (issue 11, item 4): the calls go from the dealer's right (rule 4.1)."""

from __future__ import annotations

import pytest

from referee.engine.errors import RuleViolation
from referee.engine.games.troggu.bidding import bidding


@pytest.mark.parametrize(("dealer", "calls", "code", "seat"), [
    (0, ["normal", "normal"], "bids.normal-twice", 2),       # seats 1, 2 speak: 2 is wrong
    (3, ["pass", "normal", "pass", "normal"], "bids.normal-twice", 2),   # 4, 0, 1, 2
    (0, ["solo", "pass"], "bids.after-solo", 2),              # nobody speaks after a Solo
    (4, ["pass", "solo", "normal"], "bids.after-solo", 2),    # 0, 1, then 2 after the Solo
])
def test_a_refused_call_names_its_player(dealer: int, calls: list[str], code: str,
                                         seat: int) -> None:
    with pytest.raises(RuleViolation) as refused:
        bidding(calls, dealer, 5)
    assert refused.value.code == code
    assert refused.value.seat == seat


def test_a_violation_names_no_player_unless_told() -> None:
    assert RuleViolation("x.y", "Anything", "1").seat is None


# -- Which entry a refusal of the fold concerns (issue 11, left over) -------------------------

def test_a_claim_pile_no_cards_make_names_its_player() -> None:
    """A won trick 1; B, with no trick, cannot have a pile of 5 (Tartli 6.3.2)."""
    import tartli_helpers as tartli

    with pytest.raises(RuleViolation) as refused:
        tartli.score(tartli.hand("A", end=tartli.claim(0, 1, (21, 5))))
    assert (refused.value.code, refused.value.seat) == ("piles.impossible", 1)


def test_a_set_scored_twice_names_its_player_and_trick() -> None:
    """Four aces that scored in trick 1 never score again (Tartli 4.6.2): B's, in trick 3."""
    import tartli_helpers as tartli

    aces = ["set:A"]
    with pytest.raises(RuleViolation) as refused:
        tartli.score(tartli.hand("BBB", {2: ([], aces), 3: ([], aces)}))
    violation = refused.value
    assert (violation.code, violation.seat, violation.trick) == ("meld.set-twice", 1, 3)


def test_a_dost_team_without_a_trick_is_named() -> None:
    """After trick 2, both won by NS: EW have no card points (Stovkahra 6.3.3)."""
    import stovkahra_helpers as stovkahra

    end = stovkahra.dost(0, 2, (12, 5), (2, 0), trick_winner=0)
    with pytest.raises(RuleViolation) as refused:
        stovkahra.score(stovkahra.deal(stovkahra.combo(0, "A", 3), end=end))
    assert (refused.value.code, refused.value.team, refused.value.seat) == (
        "points.no-trick", 1, None)


def test_a_misere_player_without_a_trick_is_named() -> None:
    """E won no trick, so he has no card points (Troggu 6.3.5)."""
    import troggu_helpers as troggu

    with pytest.raises(RuleViolation) as refused:
        troggu.play(5, {"bids": ["pass"] * 5, **troggu.misere([30, 30, 20, 15, 10],
                                                              [3, 3, 3, 2, 0])})
    assert (refused.value.code, refused.value.seat) == ("points.no-trick", 4)
