"""Troggu in words, for its scoresheet and its pages: amounts in Rappen, the variants in force,
the settle-up."""

from __future__ import annotations

from typing import Any

from ..engine.cards import SWISS_TAROT, Card
from ..engine.games.base import MatchResult
from ..engine.games.troggu import settle_up, table
from ..engine.games.troggu.values import GAME_NAMES
from ..numbers import signed

VARIANTS = (
    ("kings_any_number", "Kings: any number",
     "a Tappist holding all four kings may discard 1–4 of them"),
    ("seven_fives", "Seven 5-point cards",
     "no kings-only discard; a Tappist holding the fool, XXI, I and the four kings may discard "
     "all seven together"),
    ("no_misere", "No Misère", "when everybody passes the hand is thrown in: nobody pays"),
    ("misere_least_wins", "Misère: least wins",
     "the fewest points receives the stake from each other player"),
    ("graechen_deal", "Grächen deal",
     "the Tapp is dealt after the first round of packets (4 players: 14 cards each, Tapp 6)"),
)


def card_name(card: object) -> str:
    """A stored card (its code, or the card read from it) as the picker shows it: XX, Q♠."""
    return SWISS_TAROT.short_name(card if isinstance(card, Card) else SWISS_TAROT.parse(card))


def variants(settings: dict[str, Any]) -> list[str]:
    return [f"{title}: {text}" for key, title, text in VARIANTS if settings.get(key)]


def settle(names: list[str], balances: tuple[int, ...]) -> list[dict[str, Any]]:
    return [{"payer": names[p], "payee": names[q], "amount": a}
            for p, q, a in settle_up(list(balances))]


def rappen(amount: int) -> str:
    """``+30``, ``−110``, ``0`` (a payment or a balance, with its sign)."""
    return signed(amount)


def francs(amount: int) -> str:
    return f"Fr. {abs(amount) // 100}.{abs(amount) % 100:02d}"


def context(settings: dict[str, Any], result: MatchResult) -> dict[str, Any]:
    """What templates/pdf/troggu.html needs beyond the match and its result."""
    names = list(settings["players"])
    t = table(settings)
    return {
        "settle": settle(names, result.standing.totals), "variants": variants(settings),
        "threshold": t.threshold, "threshold_name": t.threshold_name, "sizes": t.sizes,
        "game_names": GAME_NAMES, "rappen": rappen, "francs": francs, "card_name": card_name,
    }
