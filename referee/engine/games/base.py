"""The one interface every game implements, and the results every page, PDF and CLI shows."""

from __future__ import annotations

import unicodedata
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol

from ..cards import Deck
from ..errors import FACTS, RuleViolation, shown
from ..words import T, Text, listing


class Line(NamedTuple):
    """One line of a hand's explanation: who, what, how many points, which rule. (A named
    tuple: a long match makes thousands, and a frozen dataclass is several times slower to
    make.)"""

    player: int | None
    text: str
    points: int | None
    rule: str

    def as_dict(self) -> dict[str, Any]:
        return {"player": self.player, "text": self.text, "points": self.points, "rule": self.rule}


@dataclass(frozen=True)
class Award:
    winner: int
    amount: int
    reason: str


@dataclass
class HandOutcome:
    number: int
    dealer: int
    scores: tuple[int, ...]
    totals_after: tuple[int, ...]
    lines: list[Line]
    summary: str
    award: Award | None = None
    reset: bool = False
    complete: bool = True
    detail: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def explained_later(cls, explain: Callable[[], list[Line]], **fields: Any) -> HandOutcome:
        """An outcome whose ``lines`` are made by ``explain`` when first read (issue 12: a long
        match's trusted hands are scored without writing thousands of lines that a page shows
        only on demand); everything else is as given (every field but ``lines`` and those
        with a default)."""
        outcome = cls.__new__(cls)              # as ``cls(**fields)`` makes it, at half the cost
        # a new dict given whole: filling the instance's own (``update``) costs twice as much
        outcome.__dict__ = {**_LATER_DEFAULTS, **fields, "_explain": explain}
        if "detail" not in fields:
            outcome.detail = {}
        return outcome

    def __getattr__(self, name: str) -> Any:
        # called only for an attribute that is not there: the lines not yet made
        explain = self.__dict__.get("_explain") if name == "lines" else None
        if explain is None:
            raise AttributeError(name)
        lines = self.__dict__["lines"] = explain()
        return lines

    def as_dict(self) -> dict[str, Any]:
        return {
            "hand": self.number,
            "dealer": self.dealer,
            "complete": self.complete,
            "scores": list(self.scores),
            "totals_after": list(self.totals_after),
            "summary": self.summary,
            "award": None if self.award is None else {
                "winner": self.award.winner, "amount": self.award.amount,
                "reason": self.award.reason,
            },
            "reset": self.reset,
            "lines": [line.as_dict() for line in self.lines],
        }


_LATER_DEFAULTS = {"award": None, "reset": False, "complete": True}


@dataclass
class Standing:
    totals: tuple[int, ...]
    victory: tuple[int, ...]
    dealer: int
    phase: str
    next_hand: str = "normal"     # what the next hand must be, e.g. "decider" (Tartli 7.4)
    over: bool = False
    winner: int | None = None

    def as_dict(self, names: list[str], seats: list[str] | None = None) -> dict[str, Any]:
        """``names`` are the scoring sides (``Game.sides``); ``seats`` the players, whom
        ``dealer`` indexes when the sides are teams (default: the sides themselves)."""
        return {
            "totals": dict(zip(names, self.totals)),
            "victory": dict(zip(names, self.victory)),
            "dealer": (names if seats is None else seats)[self.dealer],
            "phase": self.phase,
            "over": self.over,
            "winner": None if self.winner is None else names[self.winner],
        }


@dataclass
class MatchResult:
    hands: list[HandOutcome]
    standing: Standing
    draft: HandOutcome | None = None


HANDS = "{hands}"
"""Where a repair's action names the hands it touches, until the page names them."""


def with_hands(action: str, hands: object) -> str:
    """A repair's ``action`` naming ``hands`` (a sentence: "hands 7–9")."""
    if isinstance(action, Text) and "hands" in action.values:
        return Text(action.msgid, {**action.values, "hands": hands}, plural=action.plural,
                    count=action.n, context=action.context)
    return action.replace(HANDS, str(hands))


@dataclass(frozen=True)
class Repair:
    """One way to make the hands after a correction fit the rules again (``Game.repair``).

    ``action`` says what it does, for a button ("Save and ..."), a sentence whose value
    ``hands`` stands for the hands it touches ("hand 7", "hands 7–9": ``HANDS`` until the page
    names them, ``with_hands``); ``why`` says what the table should know before
    choosing it: why a removed hand cannot be kept, or what a conversion drops (empty: a hand
    simply after the end)."""

    key: str                          # stable across requests: posted back to choose it
    hands: list[dict[str, Any]]       # every hand of the match once it is done
    touched: tuple[int, ...]          # the 1-based positions it removes or rewrites
    removes: bool                     # removes the touched hands (else rewrites them)
    action: str
    why: str = ""


class Fold(Protocol):
    """A game's match fold: hands added one by one, then the result."""

    def add(self, number: int, raw: object, last: bool = False) -> object: ...

    def result(self) -> MatchResult: ...


def fold_hands(fold: Fold, hands: list[Any], word: str = "Hand") -> MatchResult:
    """Fold every hand in order; a RuleViolation names the hand it is in (``word`` n)."""
    for number, raw in enumerate(hands, 1):
        try:
            fold.add(number, raw, number == len(hands))
        except RuleViolation as error:
            raise error.in_hand(number, word) from None
    return fold.result()


class Game(ABC):
    """A game: its constants, how a hand's facts are read and checked, and how a match scores."""

    name: str
    title: str
    deck: Deck
    players: tuple[int, int]
    victory_unit: str
    hand_word: str = "hand"       # what the rules call one hand: "hand" or "deal"
    race: bool = True             # a race to a target; False where victory repeats the totals

    @abstractmethod
    def settings(self, raw: dict[str, Any]) -> dict[str, Any]:
        """Validated match settings from what the table chose (RuleViolation if impossible)."""

    @abstractmethod
    def sides(self, settings: dict[str, Any]) -> list[str]:
        """The names of the scoring sides (players or teams), in the order of every score,
        total and victory count in the results."""

    def totals_label(self, settings: dict[str, Any]) -> str:
        """The heading of the running totals on the scoreboard (empty: no such row, when the
        totals are the victory count itself)."""
        return T("Points this game")

    def points_target(self, settings: dict[str, Any]) -> int | None:
        """The running total at which a side wins a game (drawn on the chart of the totals);
        None where the totals race to no target (e.g. balances)."""
        return None

    def victory_label(self, settings: dict[str, Any]) -> str:
        """The heading of the victory count on the scoreboard (empty: no such row, for a match
        of one game, whose winner the phase names)."""
        target = settings.get("target")
        if target:
            return T("%(unit)s (to %(target)s)", unit=self.victory_unit.capitalize(),
                     target=target)
        return self.victory_unit.capitalize()

    @abstractmethod
    def rules_in_force(self, settings: dict[str, Any]) -> list[str]:
        """Plain sentences for the match record."""

    @abstractmethod
    def canonical_hand(self, raw: object) -> dict[str, Any]:
        """A hand's facts read strictly and written back in one canonical JSON form."""

    def complete(
        self, settings: dict[str, Any], hands: list[dict[str, Any]], start: int = 0
    ) -> list[dict[str, Any]]:
        """The canonical ``hands`` with every fact the app proposes at entry filled in where a
        hand lacks it (a hand written before that fact was recorded, e.g. an old file's hand
        without its dealer): what the table would have entered then. The fold reads a missing
        fact the same way, so completing never changes a score. Default: the hands as they are.

        ``start``: the hands before it are stored hands, complete already as far as the app
        knows (a change starts there); a game may then complete only from there, with the same
        result as completing them all (issue 12: a change at hand 1,000 costs as one at 10).
        """
        return hands

    @abstractmethod
    def fold(self, settings: dict[str, Any]) -> Fold:
        """A fold of the match at its start, to which hands are added one by one (what
        ``score`` does; ``referee.engine.scoring`` resumes it from a cached state)."""

    def score(
        self, settings: dict[str, Any], hands: list[dict[str, Any]]
    ) -> MatchResult:
        """Fold the engine over the hands' facts. The last hand may be in progress
        (no ``end``); every problem is a RuleViolation naming its hand."""
        return fold_hands(self.fold(settings), hands, self.hand_word.capitalize())

    def repair(
        self, settings: dict[str, Any], hands: list[dict[str, Any]], problem: RuleViolation
    ) -> list[Repair]:
        """The ways to make hand ``problem.hand`` fit again when a correction of an earlier
        hand broke it (e.g. the game or match now ends before it), best first. Default: remove
        it and every hand after it; a game overrides this where a hand can be converted."""
        number = problem.hand
        if number is None or not 1 <= number <= len(hands):
            return []
        return [Repair(
            "remove", hands[: number - 1], tuple(range(number, len(hands) + 1)), True,
            T("remove %(hands)s", hands=HANDS),
        )]


# The require_* helpers read one fact; a wrong one breaks ``rule``: by default section 6.1 of
# the game's rules (the facts of a hand), where the caller knows no more specific rule.

def require_player(value: object, what: str, players: int = 2, rule: str = FACTS) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
        raise RuleViolation("fact.player", T("%(what)s must name a player", what=what), rule)
    return value


def require_int(value: object, what: str, low: int, high: int, rule: str = FACTS) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleViolation("fact.number", T("%(what)s must be a whole number", what=what),
                            rule)
    if not low <= value <= high:
        raise RuleViolation(
            "fact.range", T("%(what)s must be between %(low)s and %(high)s, not %(value)s",
                            what=what, low=low, high=high, value=shown(value)), rule
        )
    return value


def require_dict(value: object, what: str, rule: str = FACTS) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise RuleViolation("fact.shape", T("%(what)s must be a record of facts", what=what),
                            rule)
    return value


def require_list(value: object, what: str, most: int, rule: str = FACTS) -> list[Any]:
    if not isinstance(value, list):
        raise RuleViolation("fact.shape", T("%(what)s must be a list", what=what), rule)
    if len(value) > most:
        raise RuleViolation("fact.range", T("%(what)s has more than %(most)s entries",
                                              what=what, most=most), rule)
    return value


def require_pair(
    value: object, what: str, each: str, low: int, high: int, rule: str = FACTS,
    per: str = "player",
) -> tuple[int, int]:
    """Two whole numbers, one per side: ``[a, b]``."""
    items = require_list(value, what, 2)
    if len(items) != 2:
        one = (T("Give one %(each)s per team", each=each) if per == "team"
               else T("Give one %(each)s per player", each=each))
        raise RuleViolation("fact.shape", one, FACTS)
    what = T("A %(each)s", each=each)
    return (
        require_int(items[0], what, low, high, rule),
        require_int(items[1], what, low, high, rule),
    )


def require_bool(value: object, what: str, rule: str = FACTS) -> bool:
    if not isinstance(value, bool):
        raise RuleViolation("fact.shape", T("%(what)s is yes or no", what=what), rule)
    return value


def require_known_keys(
    raw: dict[str, Any], keys: set[str] | frozenset[str], what: str, rule: str = FACTS
) -> None:
    unknown = [key for key in raw if key not in keys]
    if unknown:
        raise RuleViolation("fact.unknown", T("Unknown fact %(key)s in %(what)s",
                                                key=shown(unknown[0]), what=what), rule)


MAX_NAME = 40
EVERY_PLAYER = T("Every player")
PLAYERS = "1"
"""Every game's rules say who plays (the players, and the teams) in section 1."""
VARIANTS = "8"
"""Every game's rules list its variants (and match settings) in section 8."""

def _code_points(*spans: tuple[int, int]) -> frozenset[str]:
    return frozenset(chr(c) for low, high in spans for c in range(low, high + 1))


# What shows nothing in a name, by Unicode's properties rather than by examples: the
# default-ignorable code points (Unicode's Default_Ignorable_Code_Point, derived in
# DerivedCoreProperties.txt from the format characters, category Cf, the variation selectors
# and Other_Default_Ignorable_Code_Point; Python's unicodedata has no such property, so the
# two lists below are Unicode's own (PropList.txt), and every Cf counts), and the blank
# letters and symbols that are not default-ignorable but show as blank: U+2800 (braille
# blank). Zero-width spaces and joiners, the byte order mark, direction marks, the emoji
# presentation selector U+FE0F, the combining grapheme joiner U+034F and the Hangul fillers
# U+115F, U+1160, U+3164 and U+FFA0 are all among them.
VARIATION_SELECTORS = _code_points(
    (0x180B, 0x180D), (0x180F, 0x180F), (0xFE00, 0xFE0F), (0xE0100, 0xE01EF))
OTHER_DEFAULT_IGNORABLE = _code_points(
    (0x034F, 0x034F), (0x115F, 0x1160), (0x17B4, 0x17B5), (0x2065, 0x2065), (0x3164, 0x3164),
    (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0xE0000, 0xE0000), (0xE0002, 0xE001F),
    (0xE0080, 0xE00FF), (0xE01F0, 0xE0FFF))
BLANKS = frozenset("\u2800")
IGNORED = VARIATION_SELECTORS | OTHER_DEFAULT_IGNORABLE | BLANKS
# Characters that reverse the direction of the text after them (embeddings, overrides and
# isolates): a name holding one can make the rest of a page read backwards.
BIDI_CONTROLS = frozenset(map(chr, [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]))


def invisible(char: str) -> bool:
    """A character that shows nothing (``IGNORED``, or a format character)."""
    return char in IGNORED or unicodedata.category(char) == "Cf"


def shows(char: str) -> bool:
    """A character that shows on its own: not invisible, not white space and not a combining
    mark (category M, which only changes the character before it)."""
    return not (invisible(char) or char.isspace() or unicodedata.category(char)[0] == "M")


def is_text(value: str) -> bool:
    """Valid Unicode text: no lone surrogate (which JSON's "\\ud800" can carry), so that it
    can be written as UTF-8 on every page, file and database."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def name_key(name: str) -> str:
    """What makes two names the same name: they differ only by case or invisible
    characters (such as "Anna" and "Anna" with an emoji presentation selector, U+FE0F)."""
    return unicodedata.normalize(
        "NFC", "".join(c for c in name if not invisible(c)).casefold()
    )


def require_name(
    value: object, code: str = "settings.players", who: str = EVERY_PLAYER,
    rule: str = PLAYERS,
) -> str:
    """A name as typed at the table, in Unicode's composed form (NFC), spaces tidied; at most
    MAX_NAME characters; something visible (a character that shows on its own, not only
    invisible characters and combining marks); no control characters and nothing that turns
    the direction of the text around."""
    if not isinstance(value, str):
        raise RuleViolation(code, T("%(who)s needs a name", who=who), rule)
    if not is_text(value):
        raise RuleViolation(code, T("A name must be valid Unicode text (it holds a lone "
                                    "surrogate, half of a character)"), rule)
    name = " ".join(unicodedata.normalize("NFC", value).split())
    if not name:
        raise RuleViolation(code, T("%(who)s needs a name", who=who), rule)
    if any(unicodedata.category(c) == "Cc" for c in name):
        raise RuleViolation(code, T("A name cannot hold control characters (such as a NUL "
                                    "character)"), rule)
    if any(c in BIDI_CONTROLS for c in name):
        raise RuleViolation(code, T("A name cannot hold characters that turn the direction "
                                    "of the text around (U+202A–U+202E, U+2066–U+2069)"), rule)
    if not any(shows(c) for c in name):
        raise RuleViolation(code, T("%(who)s needs a name with a visible character in it",
                                    who=who), rule)
    if len(name) > MAX_NAME:
        raise RuleViolation(code, T("A name has at most %(most)s characters", most=MAX_NAME),
                            rule)
    return name


def different_names(names: list[str]) -> bool:
    """No two of ``names`` are the same name (``name_key``)."""
    return len({name_key(n) for n in names}) == len(names)


def require_names(
    value: object, low: int, high: int, message: str, rule: str = PLAYERS
) -> list[str]:
    """``low`` to ``high`` different player names (``message`` says how many a game takes)."""
    if not isinstance(value, list) or not low <= len(value) <= high:
        raise RuleViolation("settings.players", message, rule)
    names = [require_name(p, rule=rule) for p in value]
    if not different_names(names):
        raise RuleViolation("settings.players", T("Give the players different names"), rule)
    return names


def require_switches(
    raw: dict[str, Any], keys: tuple[str, ...], rule: str = VARIANTS
) -> dict[str, bool]:
    """On/off settings (variants), off when missing: ``{key: bool}`` in the order of ``keys``."""
    switches = {}
    for key in keys:
        value = raw.get(key, False)
        if not isinstance(value, bool):
            raise RuleViolation(f"settings.{key}",
                                T("%(setting)s is yes or no", setting=shown(key)),
                                rule)
        switches[key] = value
    return switches


def and_list(parts: list[str]) -> str:
    """``A``; ``A and B``; ``A, B and C`` (a ``Text``, each language its own words)."""
    joined = listing(tuple(parts))
    return joined if isinstance(joined, str) else str(joined)
