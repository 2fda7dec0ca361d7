"""Helpers for the Troggu engine tests: hand builders, an independent model of the payments and
a table simulator that deals, bids, exchanges and shares out real tricks.

The model is written from shared/rules/troggu.md (the tables of 7.2 and 7.3 and the paragraph of
7.4), not from the engine, so that the engine's answers can be held against it. Players are
named by letters in seat order, as in the rules' examples: A = seat 0, B = seat 1, ...
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from referee.engine.cards import SWISS_TAROT, Card
from referee.engine.games.base import HandOutcome, MatchResult
from referee.engine.games.troggu import GAME

LETTERS = "ABCDEFGH"
A, B, C, D, E, F, G, H = range(8)

# 2.1, copied from the rules: players → (hand, Tapp)
SIZES = {3: (18, 8), 4: (13, 10), 5: (11, 7), 6: (9, 8), 7: (8, 6), 8: (7, 6)}
# 3: card points
FIVES = {"F", "T21", "T1", "Kc", "Kd", "Ks", "Kb"}
COURT = {"K": 5, "Q": 4, "N": 3, "J": 2}
THRESHOLD = {"standard": 29, "visp": 30, "st-niklaus": 31, "graechen": 20}


def value(card: Card | str) -> int:
    code = str(card)
    if code in FIVES:
        return 5
    if code.startswith("T"):
        return 1
    return COURT.get(code[:-1], 1)


# ---------------------------------------------------------------------------------------------
# Builders


def codes(text: str) -> list[str]:
    """``"2c 3c T20"`` → ``["2c", "3c", "T20"]``."""
    return text.split()


def settings(n: int = 4, first_dealer: int = 0, **extra: Any) -> dict[str, Any]:
    return GAME.settings({"players": list(LETTERS[:n]), "first_dealer": first_dealer, **extra})


def normal(declarer: int, points: int, tricks: int | None = None, took: bool | None = None,
           **extra: Any) -> dict[str, Any]:
    """A normal game; give ``tricks`` (the declarer side's) or ``took`` (loser won a trick)."""
    return _side("normal", declarer, points, tricks, took, extra)


def solo(declarer: int, points: int, tricks: int | None = None, took: bool | None = None,
         **extra: Any) -> dict[str, Any]:
    return _side("solo", declarer, points, tricks, took, extra)


def forced(declarer: int, points: int, tricks: int | None = None, took: bool | None = None,
           **extra: Any) -> dict[str, Any]:
    return _side("forced", declarer, points, tricks, took, extra)


def _side(game: str, declarer: int, points: int, tricks: int | None, took: bool | None,
          extra: dict[str, Any]) -> dict[str, Any]:
    if tricks is None and took is None:
        took = True
    end: dict[str, Any] = {"points": points, "tricks": tricks, "loser_took_trick": took}
    for key in ("defenders", "fool_kept"):
        if key in extra:
            end[key] = extra.pop(key)
    return {"game": game, "declarer": declarer, **extra, "end": end}


def misere(points: list[int], tricks: list[int] | None = None, **extra: Any) -> dict[str, Any]:
    end: dict[str, Any] = {"points": points, "tricks": tricks}
    if "fool_kept" in extra:
        end["fool_kept"] = extra.pop("fool_kept")
    return {"game": "misere", **extra, "end": end}


def call(trump: str | None, partner: int | str) -> dict[str, Any]:
    return {"trump": trump, "partner": partner}


def play(n: int, *hands: dict[str, Any], **extra: Any) -> MatchResult:
    return GAME.score(settings(n, **extra), list(hands))


def one(n: int, hand: dict[str, Any], **extra: Any) -> HandOutcome:
    result = play(n, hand, **extra)
    assert len(result.hands) == 1
    return result.hands[0]


def by_letter(scores: tuple[int, ...]) -> dict[str, int]:
    return {LETTERS[s]: amount for s, amount in enumerate(scores)}


# ---------------------------------------------------------------------------------------------
# An independent model of sections 7.1–7.4


def model_side(
    n: int, declarer: int, partner: int | None, points: int, loser_took_trick: bool,
    solo_game: bool, stake: int = 10, threshold: int = 29,
) -> list[int]:
    """7.1–7.3 read afresh: who pays whom in a normal, forced or Solo game."""
    out = [0] * n
    if points == 57:
        return out
    won = points >= 58
    loser = 114 - points if won else points
    m = 3 if not loser_took_trick else 2 if loser <= threshold else 1
    u = m * stake * (2 if solo_game else 1)
    sign = 1 if won else -1
    for seat in range(n):
        if seat == declarer:
            out[seat] = sign * ((n - 4) * u if partner is not None else (n - 1) * u)
        elif seat == partner:
            out[seat] = sign * 2 * u
        else:
            out[seat] = -sign * u
    return out


def model_misere(points: list[int], stake: int = 10, least_wins: bool = False) -> list[int]:
    """7.4 and the variant "Misère: least wins"."""
    n = len(points)
    mark = min(points) if least_wins else max(points)
    tied = [s for s in range(n) if points[s] == mark]
    if len(tied) == n:
        return [0] * n
    out = [0] * n
    for payer in range(n):
        for payee in range(n):
            if (payer in tied) != (payee in tied) and (payer in tied) != least_wins:
                out[payer] -= stake
                out[payee] += stake
    return out


# ---------------------------------------------------------------------------------------------
# A table simulator


@dataclass
class SimHand:
    """One simulated hand: its JSON facts and what the rules say everyone pays."""

    facts: dict[str, Any]
    game: str
    payments: list[int]
    side_points: int | None = None      # the declarer side's real card points
    defender_points: int | None = None  # counted from the defenders' own cards
    player_points: list[int] = field(default_factory=list)


def _deal(rng: random.Random, n: int, dealer: int) -> tuple[list[Card], list[list[Card]]]:
    deck = list(SWISS_TAROT.cards)
    rng.shuffle(deck)
    hand, t = SIZES[n]
    tapp, rest = deck[:t], deck[t:]                    # 2.1: the Tapp first
    hands: list[list[Card]] = [[] for _ in range(n)]
    for i, card in enumerate(rest):                    # then round by round from the right
        hands[(dealer + 1 + i % n) % n].append(card)
    assert all(len(h) == hand for h in hands)
    return tapp, hands


def _bids(rng: random.Random, n: int) -> list[str]:
    """Calls by 4.1: all pass, a normal bid (perhaps beaten by a later Solo), or a Solo."""
    bids = ["pass"] * n
    kind = rng.choices(["normal", "solo", "pass"], weights=[4, 2, 3])[0]
    if kind == "pass":
        return bids
    i = rng.randrange(n)
    if kind == "normal":
        bids[i] = "normal"
        if i < n - 1 and rng.random() < 0.2:
            j = rng.randrange(i + 1, n)
            bids[j] = "solo"
            return bids[:j + 1]
        return bids
    if i > 0 and rng.random() < 0.3:
        bids[rng.randrange(i)] = "normal"
    bids[i] = "solo"
    return bids[:i + 1]


def _discard(rng: random.Random, held: list[Card], t: int) -> list[Card]:
    kings = [c for c in held if c.rank == "K" and c.suit]
    plain = [c for c in held if str(c) not in FIVES]
    if len(kings) == 4 and rng.random() < 0.5 and len(plain) >= t - 4:
        return kings + rng.sample(plain, t - 4)
    return rng.sample(plain, t)


def simulate_hand(
    rng: random.Random, n: int, dealer: int, stake: int = 10, threshold: int = 29,
) -> SimHand:
    """Deal, bid (4.1), exchange (4.2), call (4.5) and share the tricks out at random, then
    record what the table would report (6.1), with optional facts at random."""
    h, t = SIZES[n]
    tapp, hands = _deal(rng, n, dealer)
    bids = _bids(rng, n)
    speakers = [(dealer + 1 + i) % n for i in range(len(bids))]
    facts: dict[str, Any] = {"dealer": dealer if rng.random() < 0.5 else None}
    if rng.random() < 0.7:
        facts["bids"] = bids
    game, declarer = "misere", None
    if bids[-1] == "solo":
        game, declarer = "solo", speakers[-1]
    elif "normal" in bids:
        game, declarer = "normal", speakers[bids.index("normal")]
    elif n >= 7:
        holder = {str(c): s for s, cards in enumerate(hands) for c in cards}
        if "F" in holder or "T1" in holder:                                  # 4.5.1
            game = "forced"
            facts["forced_by"] = "F" if "F" in holder else "T1"
            declarer = holder.get("F", holder.get("T1"))
    facts["game"] = game
    if declarer is not None:
        facts["declarer"] = declarer
    sides: list[set[int]]
    own: list[Card] = []
    if game in ("normal", "forced"):
        assert declarer is not None
        held = hands[declarer] + tapp
        discard = _discard(rng, held, t)
        hands[declarer] = [c for c in held if c not in discard]
        own = discard
        r = rng.random()
        if r < 0.4:
            facts["discard"] = [str(c) for c in discard]
        elif r < 0.7:
            facts["discard_points"] = sum(value(c) for c in discard)
        partner = None
        if n >= 7:
            trump = rng.choice(["T20", "T20", f"T{rng.randint(1, 20)}"])
            owners = [s for s, cards in enumerate(hands) if trump in map(str, cards)]
            partner = owners[0] if owners and owners[0] != declarer else None
            facts["call"] = {"trump": trump if rng.random() < 0.8 else None,
                             "partner": "alone" if partner is None else partner}
        sides = [{declarer} | ({partner} if partner is not None else set())]
    elif game == "solo":
        assert declarer is not None
        own = list(tapp)
        r = rng.random()
        if r < 0.3:
            facts["tapp"] = [str(c) for c in tapp]
        elif r < 0.5:
            facts["tapp_points"] = sum(value(c) for c in tapp)
        sides = [{declarer}]
    else:
        if rng.random() < 0.5:
            facts["tapp_points"] = sum(value(c) for c in tapp)
        sides = [{s} for s in range(n)]
    fool_kept: int | None = None
    # the tricks: every card played once, each trick to a random player
    played = [c for cards in hands for c in cards]
    rng.shuffle(played)
    bias = rng.random()
    winners = []
    for _ in range(h):
        if game != "misere" and rng.random() < bias:
            winners.append(rng.choice(sorted(sides[0])))
        else:
            winners.append(rng.randrange(n))
    if game != "misere" and rng.random() < 0.1:          # a slam either way
        pool = sorted(sides[0]) if rng.random() < 0.5 else [
            s for s in range(n) if s not in sides[0]]
        winners = [rng.choice(pool) for _ in range(h)]
    won: list[list[Card]] = [[] for _ in range(n)]
    tricks = [0] * n
    for i, w in enumerate(winners):
        won[w].extend(played[i * n:(i + 1) * n])
        tricks[w] += 1
    # 2.5.3, the rare case: the fool withheld by a player whose side wins no trick stays his
    fool = SWISS_TAROT.parse("F")
    holder = next((s for s, cards in enumerate(hands) if fool in cards), None)
    if holder is not None and rng.random() < 0.5:
        if game == "misere" or holder in sides[0]:
            side_of = {holder} if game == "misere" else sides[0]
        else:
            side_of = {s for s in range(n) if s not in sides[0]}
        if sum(tricks[s] for s in side_of) == 0:
            for pile in won:
                if fool in pile:
                    pile.remove(fool)
            won[holder].append(fool)
            fool_kept = holder
    if game == "misere":
        points = [sum(value(c) for c in won[s]) for s in range(n)]
        facts["end"] = {"points": points,
                        "tricks": tricks if rng.random() < 0.5 else None,
                        "fool_kept": fool_kept}
        return SimHand(facts, game, model_misere(points, stake), player_points=points)
    assert declarer is not None
    side = sides[0]
    side_cards = own + [c for s in side for c in won[s]]
    defender_cards = [c for s in range(n) if s not in side for c in won[s]]
    assert len(side_cards) + len(defender_cards) == 62
    side_points = sum(value(c) for c in side_cards)
    defender_points = sum(value(c) for c in defender_cards)
    side_tricks = sum(tricks[s] for s in side)
    won_side = side_points >= 58
    loser_took = (h - side_tricks if won_side else side_tricks) > 0
    end: dict[str, Any] = {"points": side_points}
    r = rng.random()
    if r < 0.4:
        end["tricks"] = side_tricks
    elif r < 0.8:
        end["loser_took_trick"] = loser_took
    else:
        end["tricks"] = side_tricks
        end["loser_took_trick"] = loser_took
    if rng.random() < 0.3:
        end["defenders"] = defender_points
    end["fool_kept"] = fool_kept
    facts["end"] = end
    partner_seat = next(iter(side - {declarer}), None)
    payments = model_side(n, declarer, partner_seat, side_points, loser_took, game == "solo",
                          stake, threshold)
    return SimHand(facts, game, payments, side_points, defender_points)
