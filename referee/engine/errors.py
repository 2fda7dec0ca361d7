"""The one error the engine raises for anything a player or a file got wrong."""

from __future__ import annotations

from collections.abc import Callable

from .words import T, Text

FACTS = "6.1"
"""Every game's rules list the facts of a hand in section 6.1: a fact of the wrong shape (not a
number, not a player, not a record, an unknown key) breaks that section, where nothing more
specific applies."""

PACK = "1"
"""Every game's rules describe its pack in section 1: a card outside it, or one card named twice
where each is in the pack once, breaks that section."""


def readable(text: str) -> str:
    """``text`` with every lone surrogate (half of a character, which no page, file or
    database can hold) written as its escape, e.g. ``\\ud800``."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


_KINDS: dict[type, Callable[[], Text]] = {
    list: lambda: T("a list"), dict: lambda: T("a record"), tuple: lambda: T("a list"),
}


def shown(value: object) -> str:
    """A short, safe rendering of anything a user sent, for a message."""
    if isinstance(value, str):
        text = f"“{readable(value[:40])}”"
    elif isinstance(value, bool) or value is None:
        text = repr(value)
    elif isinstance(value, int):
        text = str(value) if abs(value) < 10**15 else T("a huge number")
    elif isinstance(value, float):
        text = repr(value)
    else:
        text = _KINDS[type(value)]() if type(value) in _KINDS else T("a value")
    return text if len(text) <= 24 else text[:21] + "…”"


class RuleViolation(ValueError):
    """An entry the rules do not allow.

    ``code`` is stable (tests and forms key on it), ``message`` is written for a player, and
    ``rule`` names the section of ``shared/rules/<game>.md`` the check comes from.
    ``hand`` is set by the match fold to the 1-based hand the problem is in; ``seat``, where
    the check knows it, to the player whose entry breaks the rule (a page marks that player's
    field); ``team`` likewise to the team (the side of a partnership game), and ``trick`` to
    the trick whose entry it is.
    """

    def __init__(self, code: str, message: str, rule: str | None = None) -> None:
        # ``message`` is a ``Text`` (a str of English words a catalogue can translate)
        self.code = code
        self.message = message
        self.rule = rule
        self.hand: int | None = None
        self.seat: int | None = None
        self.team: int | None = None
        self.trick: int | None = None
        self.hand_word = "Hand"          # "Hand" or "Deal", as the game's rules say
        super().__init__(self.explain())

    def explain(self) -> Text:
        """The message as one sentence: "Hand 3: … (rule 6.1)" ("Deal 3" where the game's
        rules say deal)."""
        message, hand, rule = self.message, self.hand, self.rule
        if hand is None:
            if rule:
                return T("%(message)s (rule %(rule)s)", message=message, rule=rule)
            return T("%(message)s", message=message)
        if self.hand_word.lower() == "deal":
            if rule:
                return T("Deal %(hand)s: %(message)s (rule %(rule)s)", hand=hand,
                         message=message, rule=rule)
            return T("Deal %(hand)s: %(message)s", hand=hand, message=message)
        if rule:
            return T("Hand %(hand)s: %(message)s (rule %(rule)s)", hand=hand, message=message,
                     rule=rule)
        return T("Hand %(hand)s: %(message)s", hand=hand, message=message)

    def of_seat(self, seat: int) -> RuleViolation:
        self.seat = seat
        return self

    def of_team(self, team: int) -> RuleViolation:
        self.team = team
        return self

    def in_trick(self, trick: int) -> RuleViolation:
        self.trick = trick
        return self

    def in_hand(self, hand: int, word: str = "Hand") -> RuleViolation:
        self.hand = hand
        self.hand_word = word
        self.args = (self.explain(),)
        return self
