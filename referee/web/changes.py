"""What an edit changed further down the match, in words."""

from __future__ import annotations

from ..engine.games.base import Award, HandOutcome, MatchResult


def _award(award: Award | None, names: list[str]) -> str:
    if award is None:
        return "no award"
    return f"{names[award.winner]} {award.amount}"


def _named(values: tuple[int, ...], names: list[str]) -> str:
    """Each side's number after its name: "Ágnes 530, Tamás 142"."""
    return ", ".join(f"{name} {value}" for name, value in zip(names, values, strict=True))


def _totals(hand: HandOutcome, names: list[str]) -> str:
    return _named(hand.totals_after, names)


def describe_changes(
    before: MatchResult, after: MatchResult, names: list[str], changed: int,
    removed: bool = False, inserted: bool = False, word: str = "hand",
    match_score: bool = True, detailed: int | None = None,
) -> list[str]:
    """Compare each hand after the changed one (numbered as after the change) with itself
    before the change: at the same number after an edit, one number later after a delete
    (``removed``: hand ``changed`` was taken out), one number earlier after a restore
    (``inserted``: hand ``changed`` was put in). ``detailed``: how many hands are told in
    full; each later one is only named (a caller that tells the rest as a number: issue 12,
    an edit at hand 500 does not write out 500 totals)."""
    messages: list[str] = []
    told = 0
    shift = 1 if removed else -1 if inserted else 0
    first = changed + (0 if removed else 1)
    for hand in after.hands[max(0, first - 2):]:     # hand n stands at n - 1
        if hand.number < first:
            continue
        old_index = hand.number - 1 + shift
        if not 0 <= old_index < len(before.hands):
            continue
        old = before.hands[old_index]
        if old is hand:               # the fold kept this hand's outcome: nothing changed
            continue
        same = (old.summary == hand.summary and (old.award == hand.award or (
            _award(old.award, names) == _award(hand.award, names))))
        if detailed is not None and told >= detailed and (
                not same or old.totals_after != hand.totals_after):
            messages.append(f"{word.capitalize()} {hand.number} changed.")
        elif not same:
            told += 1
            messages.append(
                f"{word.capitalize()} {hand.number} now: {hand.summary} (was: {old.summary})."
            )
        elif old.totals_after != hand.totals_after:
            told += 1
            messages.append(
                f"{word.capitalize()} {hand.number}: totals after it now {_totals(hand, names)} "
                f"(were {_totals(old, names)})."
            )
    if match_score and before.standing.victory != after.standing.victory:
        old_v = _named(before.standing.victory, names)
        new_v = _named(after.standing.victory, names)
        messages.append(f"Match score now {new_v} (was {old_v}).")
    return messages
