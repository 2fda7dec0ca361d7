""""What changed" after an edit of a long match: the page tells the first hands in full and the
rest as a number (matches/notices.py flash_changes), so ``describe_changes(detailed=n)``
writes out the first ``n`` hands only and names each later one that changed (issue 12): the
same hands, in the same order, as the full description."""

from __future__ import annotations

from webtools import B, hand, played

from matches.test_history import NAMES, W, X, Y, Z, _score
from referee.web.matches.notices import describe_changes


def test_only_the_first_hands_are_written_out() -> None:
    before = _score([X, Y, Z, W, X, Y])
    after = _score([X, hand("9l", end=played((60, 91), B)), Z, W, X, Y])
    full = describe_changes(before, after, NAMES, 2)
    told = describe_changes(before, after, NAMES, 2, detailed=2)
    assert len(full) == len(told) == 5
    assert told[:2] == full[:2] and told[4] == full[4] and full[4].startswith("Match score")
    assert told[2:4] == ["Hand 5 changed.", "Hand 6 changed."]
    assert [m.split(":")[0].removesuffix(" now") for m in full[2:4]] == ["Hand 5", "Hand 6"]


def _numbers(messages: list[str]) -> list[str]:
    """The hand each notice is about ("Hand 5"), the match score's notice as it is."""
    return [m.split(":")[0].removesuffix(" now").removesuffix(" changed.") for m in messages]


def test_after_a_delete_or_a_restore_the_same_hands_are_named() -> None:
    """Each later hand is compared with itself (one number on, or back) whether it is told in
    full or only named: the same hands in the same order."""
    hands = [X, Y, Z, W, X, Y, Z]
    for before, after, change in (
            (_score(hands), _score(hands[:1] + hands[2:]), {"removed": True}),
            (_score(hands[:1] + hands[2:]), _score(hands), {"inserted": True})):
        full = describe_changes(before, after, NAMES, 2, **change)
        for detailed in (0, 1, 2):
            told = describe_changes(before, after, NAMES, 2, detailed=detailed, **change)
            assert _numbers(told) == _numbers(full), (change, detailed)
            assert told[:detailed] == full[:detailed]
            assert all(m.endswith(" changed.") for m in told[detailed:len(full) - 1])
