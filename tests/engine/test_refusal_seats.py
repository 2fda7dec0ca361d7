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
