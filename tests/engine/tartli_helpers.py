"""Helpers for the Tartli engine tests: hand builders and an independent table simulator.

Everything here is written from shared/rules/tartli.md, not from the engine, so that the
engine's answers can be held against it. Players: 0 = A, 1 = B.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from referee.engine.cards import HUNGARIAN, Card
from referee.engine.games.tartli.facts import parse_hand
from referee.engine.games.tartli.hand import HandScore, score_hand
from referee.engine.games.tartli.match import MatchFold
from referee.engine.games.tartli.values import trick_winner

A, B = 0, 1
NAMES = ["A", "B"]

# ---------------------------------------------------------------------------------------------
# Hand builders


def settings(first_dealer: int = 1, target: int = 5) -> dict[str, Any]:
    return {"players": ["A", "B"], "target": target, "first_dealer": first_dealer}


def winners(text: str) -> list[int]:
    """"AB BA" -> [0, 1, 1, 0]; spaces are ignored."""
    return [{"A": A, "B": B}[c] for c in text if not c.isspace()]


def tricks(
    won: str | list[int], melds: dict[int, tuple[list[str], list[str]]] | None = None,
    in_progress: tuple[list[str], list[str]] | None = None,
) -> list[dict[str, Any]]:
    """Trick records for the winners given (trick 1 first); ``melds`` by trick number, as
    (A's, B's). ``in_progress`` adds one more trick without a winner."""
    won_list = winners(won) if isinstance(won, str) else list(won)
    melds = melds or {}
    out: list[dict[str, Any]] = []
    for number, winner in enumerate(won_list, 1):
        a, b = melds.get(number, ([], []))
        out.append({"winner": winner, "melds": [list(a), list(b)]})
    if in_progress is not None:
        out.append({"winner": None, "melds": [list(in_progress[0]), list(in_progress[1])]})
    return out


def played(piles: tuple[int, int], last: int, stichmatsch: int | None = None) -> dict[str, Any]:
    return {"kind": "played", "piles": list(piles), "last": last, "stichmatsch": stichmatsch}


def claim(
    claimant: int, completed: int, piles: tuple[int, int], step7: bool = False
) -> dict[str, Any]:
    return {
        "kind": "claim", "claimant": claimant, "completed": completed, "step7": step7,
        "piles": list(piles),
    }


def decider(first: int) -> dict[str, Any]:
    return {"kind": "decider", "first": first}


def hand(
    won: str | list[int] = "",
    melds: dict[int, tuple[list[str], list[str]]] | None = None,
    *,
    end: dict[str, Any] | None = None,
    indicator: str | None = "8h",
    exchange: int | None = None,
    bela: tuple[int, int] | None = None,
    in_progress: tuple[list[str], list[str]] | None = None,
) -> dict[str, Any]:
    """A hand's JSON facts. ``bela`` is (player, trick)."""
    return {
        "indicator": indicator,
        "exchange": exchange,
        "tricks": tricks(won, melds, in_progress),
        "bela": None if bela is None else {"player": bela[0], "trick": bela[1]},
        "end": end,
    }


# A played-out hand of 16 tricks; A wins 9, B 7; A wins trick 16; no stichmatsch. With B
# dealing, A leads trick 1, A leads tricks 2, 5, 6, 8, 10, 11, 14 and 16 (after his wins).
E1_WINNERS = "ABBAABA ABAABBABA"
PLAIN_END = played((88, 63), A)


def score(raw: dict[str, Any], dealer: int = B) -> HandScore:
    """Score one hand alone (dealer B by default, so A leads trick 1)."""
    return score_hand(parse_hand(raw), dealer, NAMES)


def fold(start: tuple[int, int] = (0, 0), first_dealer: int = B, target: int = 5) -> MatchFold:
    return MatchFold(settings(first_dealer, target), start_totals=start)


# ---------------------------------------------------------------------------------------------
# An independent model of the rules, used by the simulator and the property tests

SEQ_ORDER = ("A", "K", "O", "U", "10", "9", "8", "7")           # 3, sequence order
TRUMP_POINTS = {"O": 20, "9": 14, "A": 11, "10": 10, "K": 4, "U": 2, "8": 0, "7": 0}
PLAIN_POINTS = {"A": 11, "10": 10, "K": 4, "O": 3, "U": 2, "9": 0, "8": 0, "7": 0}
SET_VALUE = {"O": 200, "9": 150, "A": 100, "10": 100, "K": 100, "U": 100}    # 4.1
SET_RANKING = {"O": 6, "9": 5, "A": 4, "10": 3, "K": 2, "U": 1}                # 4.2.2
SEQ_VALUE = {3: 20, 4: 50, 5: 100, 6: 100, 7: 100, 8: 100}                    # 4.1


def points(card: Card, trumps: str) -> int:
    return (TRUMP_POINTS if card.suit == trumps else PLAIN_POINTS)[card.rank]


@dataclass(frozen=True)
class MSet:
    rank: str

    def text(self) -> str:
        return f"set:{self.rank}"

    def cards(self) -> set[Card]:
        return {Card(self.rank, s) for s in "alhb"}

    def value(self) -> int:
        return SET_VALUE[self.rank]

    def key(self, trumps: str) -> tuple[int, ...]:
        return (1, SET_RANKING[self.rank])


@dataclass(frozen=True)
class MSeq:
    suit: str
    top: int        # position 1..8 in sequence order
    length: int

    def text(self) -> str:
        return f"seq:{self.suit}/{SEQ_ORDER[self.top - 1]}/{self.length}"

    def cards(self) -> set[Card]:
        return {Card(SEQ_ORDER[p - 1], self.suit) for p in range(self.top, self.top + self.length)}

    def value(self) -> int:
        return SEQ_VALUE[self.length]

    def key(self, trumps: str) -> tuple[int, ...]:
        return (0, self.length, 9 - self.top, 1 if self.suit == trumps else 0)


MMeld = MSet | MSeq


def best(items: list[MMeld]) -> MMeld:
    sets = [m for m in items if isinstance(m, MSet)]
    return sets[0] if sets else items[0]


def model_reuse_ok(new: MSeq, old: MSeq) -> bool:
    """4.6.3 (a), (b), (c)."""
    return (
        new.top < old.top
        or (new.top == old.top and new.length > old.length)
        or new.top + new.length < old.top
        or old.top + old.length < new.top
    )


def model_eligible(leader: list[MMeld], second: list[MMeld]) -> bool:
    """4.5."""
    if not leader or not second:
        return True
    second_has_set = any(isinstance(m, MSet) for m in second)
    if any(isinstance(m, MSet) for m in leader):
        return second_has_set
    n = max(m.length for m in leader if isinstance(m, MSeq))
    return second_has_set or any(isinstance(m, MSeq) and m.length >= n for m in second)


def conceded_text(meld: MMeld) -> str:
    return "set:?" if isinstance(meld, MSet) else f"seq:?/{meld.length}"


@dataclass
class SimHand:
    """One simulated hand: its JSON facts and what the rules say it scores."""

    facts: dict[str, Any]
    dealer: int
    trumps: str
    piles: list[int]                 # pile counts of the tricks taken
    melds: list[int]                 # sets and sequences scored (and counted)
    bela: list[int]
    tricks_won: list[int]
    claim: dict[str, Any] | None = None
    last: int | None = None
    stichmatsch: int | None = None
    cards_played: list[tuple[Card, Card]] = field(default_factory=list)

    @property
    def trick_points(self) -> list[int]:
        if self.claim is not None:
            return list(self.piles)
        if self.stichmatsch is not None:
            return [161 if p == self.stichmatsch else 0 for p in (0, 1)]
        return [self.piles[p] + (10 if p == self.last else 0) for p in (0, 1)]

    @property
    def scores(self) -> tuple[int, int]:
        tp = self.trick_points
        return (
            self.melds[0] + self.bela[0] + tp[0],
            self.melds[1] + self.bela[1] + tp[1],
        )


def legal_seconds(hand: list[Card], led: Card, trumps: str, trick: int) -> list[Card]:
    """2.7: any card in tricks 1–7; from trick 8 follow suit, else trump, else anything."""
    if trick <= 7:
        return list(hand)
    follow = [c for c in hand if c.suit == led.suit]
    if follow:
        return follow
    trumps_held = [c for c in hand if c.suit == trumps]
    return trumps_held or list(hand)


def _options(held: list[Card], scored: list[MMeld]) -> tuple[list[MSet], list[MSeq]]:
    sets = [
        MSet(r) for r in SET_VALUE
        if all(Card(r, s) in held for s in "alhb") and MSet(r) not in scored
    ]
    seqs = []
    for suit in "alhb":
        positions = {SEQ_ORDER.index(c.rank) + 1 for c in held if c.suit == suit}
        for top in range(1, 9):
            for length in range(3, 10 - top):
                if all(p in positions for p in range(top, top + length)):
                    new = MSeq(suit, top, length)
                    if all(
                        model_reuse_ok(new, old) for old in scored
                        if isinstance(old, MSeq) and old.suit == suit
                    ):
                        seqs.append(new)
    return sets, seqs


def _declare(
    rng: random.Random, held: list[Card], scored: list[MMeld], leader: list[MMeld] | None,
    eagerness: float,
) -> list[MMeld]:
    """A random declaration; for the second (``leader`` given) only an eligible one."""
    sets, seqs = _options(held, scored)
    choices: list[list[MMeld]] = []
    for s in sets:
        choices.append([s])
        choices.extend([s, q] for q in seqs)
    choices.extend([q] for q in seqs)
    if leader is not None:
        choices = [c for c in choices if model_eligible(leader, c)]
    if not choices or rng.random() > eagerness:
        return []
    return rng.choice(choices)


def simulate_hand(
    rng: random.Random, dealer: int, *, totals: tuple[int, int] = (0, 0),
    claim_chance: float = 0.0, concede_chance: float = 0.3, eagerness: float = 0.8,
    bela_chance: float = 0.5, exchange_chance: float = 0.5,
) -> SimHand:
    """Deal and play one hand by the rules, with random legal choices, recording the facts the
    table reports (6.1). A claim (7.3) may stop it at a random moment."""
    deck = list(HUNGARIAN.cards)
    rng.shuffle(deck)
    hands = [deck[:9], deck[9:18]]
    talon = deck[18:]                       # talon[-1] is the indicator, drawn last (2.2)
    indicator = talon[-1]
    trumps = indicator.suit
    seven = Card("7", trumps)
    facts: dict[str, Any] = {
        "indicator": str(indicator), "exchange": None, "tricks": [], "bela": None, "end": None,
    }
    sim = SimHand(facts, dealer, trumps, [0, 0], [0, 0], [0, 0], [0, 0])
    scored: list[list[MMeld]] = [[], []]
    leader = 1 - dealer
    claim_at = None
    if rng.random() < claim_chance:
        # (trick, moment): 0 before the trick, 1 after declarations, 2 after step 7
        claim_at = (rng.randint(1, 16), rng.randint(0, 2))
    winners: list[int] = []

    def claim_now(trick: int, step7: bool, melds: list[list[str]] | None) -> SimHand:
        if melds is not None and (melds[0] or melds[1]):
            facts["tricks"].append({"winner": None, "melds": melds})
        claimant = rng.randint(0, 1)
        end = {
            "kind": "claim", "claimant": claimant, "completed": trick - 1, "step7": step7,
            "piles": list(sim.piles),
        }
        facts["end"] = end
        sim.claim = end
        return sim

    for trick in range(1, 17):
        second = 1 - leader
        # 1. the trump-7 exchange, by the leader only (2.8)
        if (
            trick <= 7 and facts["exchange"] is None and indicator != seven
            and seven in hands[leader] and rng.random() < exchange_chance
        ):
            hands[leader].remove(seven)
            hands[leader].append(talon[-1])
            talon[-1] = seven
            facts["exchange"] = trick
        # béla at any moment up to the end of trick 8; here: at the start of a trick (4.7)
        if facts["bela"] is None and trick <= 8:
            for p in (leader, second):
                if (
                    Card("K", trumps) in hands[p] and Card("O", trumps) in hands[p]
                    and rng.random() < bela_chance
                ):
                    facts["bela"] = {"player": p, "trick": trick}
                    sim.bela[p] = 40
                    break
        if claim_at == (trick, 0):
            return claim_now(trick, False, None)
        # 2.–7. declarations and their contest (4.4)
        declared: list[list[MMeld]] = [[], []]
        if trick <= 8:
            declared[leader] = _declare(rng, hands[leader], scored[leader], None, eagerness)
            declared[second] = _declare(
                rng, hands[second], scored[second], declared[leader], eagerness
            )
        texts = [[m.text() for m in declared[p]] for p in (0, 1)]
        meld_winner = None
        if declared[leader] or declared[second]:
            if not declared[second]:
                meld_winner = leader
            elif not declared[leader]:
                meld_winner = second
            else:
                lk = best(declared[leader]).key(trumps)
                sk = best(declared[second]).key(trumps)
                meld_winner = leader if lk >= sk else second
                loser = 1 - meld_winner
                if rng.random() < concede_chance:
                    texts[loser] = [conceded_text(m) for m in declared[loser]]
        if claim_at == (trick, 1):
            return claim_now(trick, False, texts)
        led = rng.choice(hands[leader])
        follow = rng.choice(legal_seconds(hands[second], led, trumps, trick))
        if meld_winner is not None:
            sim.melds[meld_winner] += sum(m.value() for m in declared[meld_winner])
            scored[meld_winner].extend(declared[meld_winner])
        if claim_at == (trick, 2):
            return claim_now(trick, True, texts)
        hands[leader].remove(led)
        hands[second].remove(follow)
        sim.cards_played.append((led, follow) if leader == A else (follow, led))
        winner = leader if trick_winner(led, follow, trumps) == 0 else second
        winners.append(winner)
        sim.tricks_won[winner] += 1
        sim.piles[winner] += points(led, trumps) + points(follow, trumps)
        facts["tricks"].append({"winner": winner, "melds": texts})
        if trick <= 7:      # 2.6: the winner draws first; the indicator is drawn last
            hands[winner].append(talon.pop(0))
            hands[1 - winner].append(talon.pop(0))
        leader = winner
    assert not talon and not hands[0] and not hands[1]
    sim.last = winners[-1]
    late = set(winners[7:])
    sim.stichmatsch = late.pop() if len(late) == 1 else None
    facts["end"] = {
        "kind": "played", "piles": list(sim.piles), "last": sim.last,
        "stichmatsch": sim.stichmatsch,
    }
    return sim


# ---------------------------------------------------------------------------------------------
# An independent model of match scoring (7.1–7.4)


@dataclass
class MatchModel:
    target: int
    totals: list[int] = field(default_factory=lambda: [0, 0])
    buli: list[int] = field(default_factory=lambda: [0, 0])
    decider: bool = False

    @property
    def over(self) -> bool:
        return max(self.buli) >= self.target

    def _award(self, winner: int, amount: int) -> tuple[int, int]:
        self.buli[winner] += amount
        self.totals = [0, 0]
        self.decider = False
        return winner, amount

    def apply(self, sim: SimHand | None, first: int | None = None) -> tuple[int, int] | None:
        """The buli awarded by one hand (winner, amount), or None."""
        if self.decider:
            assert first is not None
            return self._award(first, 1)
        assert sim is not None
        new = [self.totals[p] + sim.scores[p] for p in (0, 1)]
        if sim.claim is not None:
            c = sim.claim["claimant"]
            if new[c] >= 501:
                return self._award(c, 2 if new[1 - c] <= 250 else 1)
            return self._award(1 - c, 1)
        over = [p for p in (0, 1) if new[p] >= 501]
        if not over:
            self.totals = new
            return None
        if len(over) == 1:
            p = over[0]
            return self._award(p, 2 if new[1 - p] <= 250 else 1)
        if new[0] != new[1]:
            return self._award(0 if new[0] > new[1] else 1, 1)
        self.totals = new
        self.decider = True
        return None
