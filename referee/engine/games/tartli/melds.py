"""Tartli melds: what they are, what they score, how they rank (rules section 4)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from itertools import product

from ...cards import HUNGARIAN, Card
from ...errors import RuleViolation, shown
from ...words import P, T, Text
from .values import SEQUENCE_ORDER

SET_POINTS = {"O": 200, "9": 150, "A": 100, "10": 100, "K": 100, "U": 100}   # 4.1
SET_STRENGTH = ("U", "K", "10", "A", "9", "O")                              # 4.2.2, weakest first
SEQUENCE_POINTS = {3: 20, 4: 50, 5: 100, 6: 100, 7: 100, 8: 100}            # 4.1
SEQUENCE_NAMES = {3: "terc", 4: "kvart", 5: "kvint", 6: "szext", 7: "szept", 8: "okt"}
BELA_POINTS = 40
SET_NAMES = {
    "O": P("tartli", "Four Overs"), "9": P("tartli", "Four Nines"), "A": P("tartli", "Four Aces"),
    "10": P("tartli", "Four Tens"), "K": P("tartli", "Four Kings"),
    "U": P("tartli", "Four Unders"),
}


def sequence_name(length: int, card: str) -> Text:
    """"Kvint to the Ace of hearts": the game's word for the sequence, to its top card."""
    if length == 3:
        return T("Terc to the %(card)s", card=card)
    if length == 4:
        return T("Kvart to the %(card)s", card=card)
    if length == 5:
        return T("Kvint to the %(card)s", card=card)
    if length == 6:
        return T("Szext to the %(card)s", card=card)
    if length == 7:
        return T("Szept to the %(card)s", card=card)
    return T("Okt to the %(card)s", card=card)


def a_sequence(length: int) -> Text:
    """"a kvint", "an okt": a sequence by its length alone."""
    return {3: T("a terc"), 4: T("a kvart"), 5: T("a kvint"), 6: T("a szext"),
            7: T("a szept")}.get(length) or T("an okt")

Key = tuple[int, ...]


@dataclass(frozen=True)
class SetMeld:
    """All four cards of one rank (vannak)."""

    rank: str

    @cached_property
    def cards(self) -> frozenset[Card]:
        # made once per meld: a match's melds are the same few, read at every check
        return frozenset(HUNGARIAN.parse(f"{self.rank}{suit}") for suit in HUNGARIAN.suits)

    @property
    def points(self) -> int:
        return SET_POINTS[self.rank]

    def key(self, trumps: str) -> Key:
        return (1, SET_STRENGTH.index(self.rank) + 1)

    def __str__(self) -> str:
        return f"set:{self.rank}"

    @property
    def name(self) -> str:
        return SET_NAMES[self.rank]


@dataclass(frozen=True)
class SeqMeld:
    """``length`` consecutive cards of ``suit`` from ``top`` down, in sequence order."""

    suit: str
    top: str
    length: int

    @property
    def position(self) -> int:
        return SEQUENCE_ORDER.index(self.top) + 1

    @cached_property
    def cards(self) -> frozenset[Card]:
        start = self.position - 1
        return frozenset(
            HUNGARIAN.parse(f"{rank}{self.suit}")
            for rank in SEQUENCE_ORDER[start:start + self.length]
        )

    @property
    def points(self) -> int:
        return SEQUENCE_POINTS[self.length]

    def key(self, trumps: str) -> Key:
        return (0, self.length, 9 - self.position, 1 if self.suit == trumps else 0)

    def __str__(self) -> str:
        return f"seq:{self.suit}/{self.top}/{self.length}"

    @property
    def name(self) -> str:
        return sequence_name(self.length, HUNGARIAN.long_name(Card(self.top, self.suit)))


@dataclass(frozen=True)
class Conceded:
    """A losing declaration entered only as far as it was announced (6.1.4):
    "a set" or "a sequence of length n". It scores nothing and shows no cards."""

    kind: str            # "set" or "seq"
    length: int = 0      # for "seq"

    cards = frozenset[Card]()
    points = 0

    def __str__(self) -> str:
        return "set:?" if self.kind == "set" else f"seq:?/{self.length}"

    @property
    def name(self) -> str:
        if self.kind == "set":
            return T("a set (conceded)")
        return T("%(sequence)s (conceded)", sequence=a_sequence(self.length))

    def candidates(self) -> list[SetMeld | SeqMeld]:
        if self.kind == "set":
            return [SetMeld(rank) for rank in SET_STRENGTH]
        tops = SEQUENCE_ORDER[: 9 - self.length]
        return [SeqMeld(suit, top, self.length) for suit in HUNGARIAN.suits for top in tops]


Meld = SetMeld | SeqMeld | Conceded

_SEQ = re.compile(r"^seq:([alhb])/(A|K|O|U|10|9|8|7)/([1-9])$")
_SET = re.compile(r"^set:(A|K|O|U|10|9|8|7)$")
_CONCEDED_SEQ = re.compile(r"^seq:\?/([1-9])$")


def make_sequence(suit: str, top: str, length: int) -> SeqMeld:
    if not 3 <= length <= 8:
        raise RuleViolation(
            "meld.length", T("A sequence has 3 to 8 cards, not %(length)s", length=length), "4.1"
        )
    if SEQUENCE_ORDER.index(top) + length > 8:
        raise RuleViolation(
            "meld.top",
            T("%(sequence)s cannot start at the %(rank)s: there are not %(length)s cards below "
              "it", sequence=a_sequence(length), rank=HUNGARIAN.rank_names[top], length=length),
            "4.1",
        )
    return SeqMeld(suit, top, length)


def _no_set(rank: str, why: bool = False) -> Text:
    """The refusal of four Eights or four Sevens as a set (4.1)."""
    if why:
        if rank == "8":
            return T("Four Eights are not a meld: there is no set of Eights or Sevens")
        return T("Four Sevens are not a meld: there is no set of Eights or Sevens")
    if rank == "8":
        return T("Four Eights are not a meld")
    return T("Four Sevens are not a meld")


def make_set(rank: str) -> SetMeld:
    if rank not in SET_POINTS:
        raise RuleViolation(
            "meld.no-set", _no_set(rank), "4.1"
        )
    return SetMeld(rank)


def parse_meld(text: object) -> Meld:
    """Read a meld in the rules' notation: ``set:A``, ``seq:h/K/4``, or conceded
    ``set:?`` / ``seq:?/4``."""
    if not isinstance(text, str):
        raise RuleViolation("meld.unknown", T("%(text)s is not a meld", text=shown(text)), "4.1")
    text = text.strip()
    if text == "set:?":
        return Conceded("set")
    if match := _CONCEDED_SEQ.match(text):
        length = int(match.group(1))
        make_sequence("h", "A", length)
        return Conceded("seq", length)
    if match := _SET.match(text):
        return make_set(match.group(1))
    if match := _SEQ.match(text):
        return make_sequence(match.group(1), match.group(2), int(match.group(3)))
    raise RuleViolation("meld.unknown", T("“%(text)s” is not a meld", text=text[:20]),
                        "4.1")


def _as_sequence(cards: frozenset[Card]) -> SeqMeld | None:
    suits = {card.suit for card in cards}
    if len(suits) != 1 or len(cards) < 3:
        return None
    positions = sorted(SEQUENCE_ORDER.index(card.rank) for card in cards)
    if positions != list(range(positions[0], positions[0] + len(positions))):
        return None
    return SeqMeld(suits.pop(), SEQUENCE_ORDER[positions[0]], len(positions))


def recognize(cards: list[Card]) -> tuple[SetMeld | SeqMeld, ...]:
    """The declaration a player shows as one group of cards: at most one set and at most one
    sequence, which may share a card (4.3.2). Where both a shared and an unshared reading fit,
    the longer sequence is taken."""
    shown = frozenset(cards)
    if not shown:
        return ()
    if seq := _as_sequence(shown):
        return (seq,)
    by_rank: dict[str, int] = {}
    for card in shown:
        by_rank[card.rank] = by_rank.get(card.rank, 0) + 1
    full = [rank for rank, count in by_rank.items() if count == 4]
    for rank in full:
        if rank not in SET_POINTS:
            raise RuleViolation(
                "meld.no-set",
                _no_set(rank, why=True),
                "4.1",
            )
        meld = SetMeld(rank)
        rest = shown - meld.cards
        if not rest:
            return (meld,)
        readings = [
            seq
            for group in (rest, rest | {Card(rank, next(iter(rest)).suit)})
            if (seq := _as_sequence(group))
        ]
        if readings:
            return (meld, max(readings, key=lambda s: s.length))
    names = " ".join(HUNGARIAN.short_name(c) for c in sorted(shown, key=_card_order))
    raise RuleViolation(
        "meld.not-a-meld",
        T("%(cards)s is not a meld: a set is all four cards of one rank, a sequence is 3 or "
          "more consecutive cards of one suit (A K O U 10 9 8 7)", cards=names),
        "4.1",
    )


def _card_order(card: Card) -> tuple[int, int]:
    return HUNGARIAN.suits.index(card.suit), SEQUENCE_ORDER.index(card.rank)


def best_item(items: tuple[Meld, ...]) -> Meld | None:
    """A player's best item in a trick: his set if he declared one, else his sequence (4.2)."""
    for meld in items:
        if isinstance(meld, SetMeld) or (isinstance(meld, Conceded) and meld.kind == "set"):
            return meld
    return items[0] if items else None


def _best_keys(
    items: tuple[Meld, ...], trumps: str, exclude: SetMeld | SeqMeld | None = None
) -> list[Key]:
    """Every key the player's best item could have (one unless it is conceded)."""
    best = best_item(items)
    if best is None:
        return []
    if isinstance(best, Conceded):
        return [c.key(trumps) for c in best.candidates() if c != exclude]
    return [best.key(trumps)]


def contest_winner(leader: tuple[Meld, ...], second: tuple[Meld, ...], trumps: str) -> int | None:
    """0 if the leader's declaration scores, 1 if the second's, None if neither declared.

    Larger key wins; equal keys go to the leader (4.2). A conceded announcement must lose for
    some full declaration matching it, and can never win (6.1.4)."""
    if not leader and not second:
        return None
    if not second:
        winner = 0
    elif not leader:
        winner = 1
    else:
        lk, sk = _best_keys(leader, trumps), _best_keys(second, trumps)
        if any(isinstance(m, Conceded) for m in leader + second):
            conceded_side = 0 if any(isinstance(m, Conceded) for m in leader) else 1
            if any(isinstance(m, Conceded) for m in (second if conceded_side == 0 else leader)):
                raise RuleViolation(
                    "meld.conceded-both",
                    T("Both declarations are marked conceded: enter the winning one in full"),
                    "6.1.4",
                )
            winner = 1 - conceded_side
            # the winner's own best item is not a candidate: two equal sets cannot exist
            # (4.2.2), and no card is held by both players (6.3.6)
            own = best_item((leader, second)[winner])
            assert own is not None and not isinstance(own, Conceded)
            if conceded_side == 0:
                lk = _best_keys(leader, trumps, exclude=own)
            else:
                sk = _best_keys(second, trumps, exclude=own)
            if not any(
                (s > l if winner == 1 else l >= s) for l, s in product(lk, sk)
            ):
                raise RuleViolation(
                    "meld.conceded-cannot-lose",
                    T("No declaration matching the conceded announcement would lose to the other "
                      "player's: enter it in full"),
                    "6.1.4",
                )
        else:
            winner = 0 if lk[0] >= sk[0] else 1
    if any(isinstance(m, Conceded) for m in (leader, second)[winner]):
        raise RuleViolation(
            "meld.conceded-wins", T("A declaration that wins must be entered in full"), "6.1.4"
        )
    return winner


def contest_reason(leader: tuple[Meld, ...], second: tuple[Meld, ...], trumps: str) -> str:
    """Which ranking rule (4.2) decided the contest, in words a player understands."""
    if not leader or not second:
        return T("only one player declared")
    lb, sb = best_item(leader), best_item(second)
    assert lb is not None and sb is not None
    if isinstance(lb, Conceded) or isinstance(sb, Conceded):
        return T("the other player conceded")
    if isinstance(lb, SetMeld) != isinstance(sb, SetMeld):
        return T("any set beats any sequence (4.2.1)")
    if isinstance(lb, SetMeld) and isinstance(sb, SetMeld):
        return T("set against set: O > 9 > A > 10 > K > U (4.2.2)")
    assert isinstance(lb, SeqMeld) and isinstance(sb, SeqMeld)
    if lb.length != sb.length:
        return T("the longer sequence wins (4.2.3)")
    if lb.top != sb.top:
        return T("equal length: the higher top card wins (4.2.4)")
    if (lb.suit == trumps) != (sb.suit == trumps):
        return T("equal length and top: the one in trumps wins (4.2.5)")
    return T("equal length and top, neither in trumps: the leader's wins (4.2.6)")


def check_eligible(leader: tuple[Meld, ...], second: tuple[Meld, ...]) -> None:
    """The second may declare only what could potentially beat the leader's (4.5)."""
    if not leader or not second:
        return
    has_set = any(str(m).startswith("set:") for m in second)
    second_seq = max(
        (m.length for m in second if isinstance(m, (SeqMeld, Conceded)) and m.length), default=0
    )
    if any(str(m).startswith("set:") for m in leader):
        if not has_set:
            raise RuleViolation(
                "meld.not-eligible",
                T("The leader declared a set, so the second may declare only a declaration "
                  "that contains a set"),
                "4.5",
            )
        return
    lead_len = max(m.length for m in leader if isinstance(m, (SeqMeld, Conceded)))
    if not has_set and second_seq < lead_len:
        raise RuleViolation(
            "meld.not-eligible",
            T("The leader declared %(sequence)s, so the second may declare only a set or a "
              "sequence of %(length)s or more cards", sequence=a_sequence(lead_len),
              length=lead_len),
            "4.5",
        )


def reuse_allowed(new: SeqMeld, scored: SeqMeld) -> bool:
    """May ``new`` be declared after ``scored`` (same player, same suit)? (4.6.3)"""
    if new.position < scored.position:
        return True                                   # (a) higher top card
    if new.position == scored.position and new.length > scored.length:
        return True                                   # (b) same top, longer
    return (
        new.position + new.length < scored.position
        or scored.position + scored.length < new.position
    )                                                 # (c) separated by a missing card
