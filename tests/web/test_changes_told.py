""""What changed" after an edit of a long match: the page tells the first hands in full and the
rest as a number (views._flash_changes), so ``describe_changes(detailed=n)`` writes out the
first ``n`` hands only and names each later one that changed (issue 12): the same hands, in the
same order, as the full description."""

from __future__ import annotations

from test_history import NAMES, W, X, Y, Z, _score
from webtools import B, hand, played

from referee.web.changes import describe_changes


def test_only_the_first_hands_are_written_out() -> None:
    before = _score([X, Y, Z, W, X, Y])
    after = _score([X, hand("9l", end=played((60, 91), B)), Z, W, X, Y])
    full = describe_changes(before, after, NAMES, 2)
    told = describe_changes(before, after, NAMES, 2, detailed=2)
    assert len(full) == len(told) == 5
    assert told[:2] == full[:2] and told[4] == full[4] and full[4].startswith("Match score")
    assert told[2:4] == ["Hand 5 changed.", "Hand 6 changed."]
    assert [m.split(":")[0].removesuffix(" now") for m in full[2:4]] == ["Hand 5", "Hand 6"]
