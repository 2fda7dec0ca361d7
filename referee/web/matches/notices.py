"""What a change did, told at the top of the match page: what it changed further down the
match, in words (``describe_changes``), and the hand it scored."""

from __future__ import annotations

from itertools import compress, count
from operator import attrgetter, ne, not_

from flask import flash
from flask_babel import gettext, ngettext

from ...engine.games.base import Award, HandOutcome, MatchResult
from ...numbers import number
from ..languages import say
from .blueprint import NOTICES, OUTCOME


def _award(award: Award | None, names: list[str]) -> str:
    if award is None:
        return "no award"
    return f"{names[award.winner]} {award.amount}"


def _named(values: tuple[int, ...], names: list[str]) -> str:
    """Each side's number after its name: "Ágnes 530, Tamás 142"."""
    return ", ".join(f"{name} {number(value)}" for name, value in zip(names, values, strict=True))


def _totals(hand: HandOutcome, names: list[str]) -> str:
    return _named(hand.totals_after, names)


def _same(old: HandOutcome, hand: HandOutcome, names: list[str]) -> bool:
    """The same summary and award (told alike)?"""
    return old.summary == hand.summary and (
        old.award == hand.award or _award(old.award, names) == _award(hand.award, names))


def _named_later(
    later: list[HandOutcome], before: MatchResult, shift: int, names: list[str], word: str,
) -> list[str]:
    """"Hand n changed." for each of the ``later`` hands (hand n at n - 1 of ``after``, after
    those told in full) whose outcome, totals after it included, is not what it was: the hands
    whose totals changed found together (issue 12: an edit at hand 500 of 1,000 names 500
    hands), only the others looked at one by one."""
    first = later[0].number
    olds = before.hands[first - 1 + shift:][:len(later)]
    news = later[:len(olds)]
    moved = list(map(ne, map(_TOTALS, news), map(_TOTALS, olds)))
    named = list(compress(count(first), moved))
    others = [hand.number for hand, old in compress(zip(news, olds), map(not_, moved))
              if old is not hand and not _same(old, hand, names)]
    # the sentence asked of the catalogue once, not once a hand (500 hands: 500 lookups)
    pattern = (gettext("Deal %(number)s changed.") if word == "deal"
               else gettext("Hand %(number)s changed."))
    return [pattern % {"number": number} for number in sorted(named + others)]


class Changes(list[str]):
    """What a change did further down the match, a notice each: first those about later
    hands (``about_hands`` of them), then the match score's."""

    about_hands = 0


_TOTALS = attrgetter("totals_after")


def describe_changes(
    before: MatchResult, after: MatchResult, names: list[str], changed: int,
    removed: bool = False, inserted: bool = False, word: str = "hand",
    match_score: bool = True, detailed: int | None = None,
) -> Changes:
    """Compare each hand after the changed one (numbered as after the change) with itself
    before the change: at the same number after an edit, one number later after a delete
    (``removed``: hand ``changed`` was taken out), one number earlier after a restore
    (``inserted``: hand ``changed`` was put in). ``detailed``: how many hands are told in
    full; each later one is only named (a caller that tells the rest as a number: issue 12,
    an edit at hand 500 does not write out 500 totals)."""
    messages: list[str] = []
    deal = word == "deal"
    told = 0
    shift = 1 if removed else -1 if inserted else 0
    first = changed + (0 if removed else 1)
    later = after.hands[max(0, first - 2):]              # hand n stands at n - 1
    for index, hand in enumerate(later):
        if detailed is not None and told >= detailed and hand.number >= first:
            messages += _named_later(later[index:], before, shift, names, word)
            break
        if hand.number < first:
            continue
        old_index = hand.number - 1 + shift
        if not 0 <= old_index < len(before.hands):
            continue
        old = before.hands[old_index]
        if old is hand:               # the fold kept this hand's outcome: nothing changed
            continue
        if not _same(old, hand, names):
            told += 1
            now, was = say(hand.summary), say(old.summary)
            messages.append(
                gettext("Deal %(number)s now: %(now)s (was: %(was)s).", number=hand.number,
                        now=now, was=was) if deal else
                gettext("Hand %(number)s now: %(now)s (was: %(was)s).", number=hand.number,
                        now=now, was=was))
        elif old.totals_after != hand.totals_after:
            told += 1
            now, was = _totals(hand, names), _totals(old, names)
            messages.append(
                gettext("Deal %(number)s: totals after it now %(now)s (were %(was)s).",
                        number=hand.number, now=now, was=was) if deal else
                gettext("Hand %(number)s: totals after it now %(now)s (were %(was)s).",
                        number=hand.number, now=now, was=was))
    changes = Changes(messages)
    changes.about_hands = len(messages)
    if match_score and before.standing.victory != after.standing.victory:
        old_v = _named(before.standing.victory, names)
        new_v = _named(after.standing.victory, names)
        changes.append(gettext("Match score now %(now)s (was %(was)s).", now=new_v, was=old_v))
    return changes


def flash_outcome(result: MatchResult, number: int) -> None:
    """Tell the top of the page that hand ``number`` was just scored (complete after the
    action), so that its outcome is shown there."""
    if number <= len(result.hands) and result.hands[number - 1].complete:
        flash(str(number), OUTCOME)


def flash_changes(messages: Changes, word: str) -> None:
    """Flash what a change did further down the match: the first few notices about later
    hands, then how many more changed, then the rest (the match score). Without htmx the
    notices travel in the session cookie, which a browser drops past 4 kB: one notice per
    later hand of a long match would lose them all."""
    about_hands = messages[:messages.about_hands]
    shown = about_hands if len(about_hands) <= NOTICES + 1 else about_hands[:NOTICES]
    for message in shown:
        flash(message)
    if more := len(about_hands) - len(shown):
        # Flask-Babel's ngettext fills %(num)s with the count itself
        flash(ngettext("… and %(num)s later deal changed.", "… and %(num)s later deals changed.",
                       more) if word == "deal" else
              ngettext("… and %(num)s later hand changed.", "… and %(num)s later hands changed.",
                       more))
    for message in messages[messages.about_hands:]:
        flash(message)
