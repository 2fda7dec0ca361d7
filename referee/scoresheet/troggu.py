"""Troggu in words, for its scoresheet and its pages: amounts in Rappen, the variants in force,
the settle-up."""

from __future__ import annotations

from functools import partial
from typing import Any

from ..engine.cards import SWISS_TAROT, Card
from ..engine.games.base import MatchResult
from ..engine.games.troggu import settle_up, table
from ..engine.games.troggu.values import GAME_NAMES
from ..engine.words import P, T, Text
from ..numbers import ENGLISH, current_locale, format_chf, signed
from .language import current

VARIANTS: tuple[tuple[str, Text, Text], ...] = (
    ("kings_any_number", P("troggu", "Kings: any number"),
     P("troggu", "a Tappist holding all four kings may discard 1–4 of them")),
    ("seven_fives", P("troggu", "Seven 5-point cards"),
     P("troggu", "no kings-only discard; a Tappist holding the fool, XXI, I and the four kings "
                 "may discard all seven together")),
    ("no_misere", P("troggu", "No Misère"),
     P("troggu", "when everybody passes the hand is thrown in: nobody pays")),
    ("misere_least_wins", P("troggu", "Misère: least wins"),
     P("troggu", "the fewest points receives the stake from each other player")),
    ("graechen_deal", P("troggu", "Grächen deal"),
     P("troggu", "the Tapp is dealt after the first round of packets (4 players: 14 cards "
                 "each, Tapp 6)")),
)


def card_name(card: object) -> str:
    """A stored card (its code, or the card read from it) as the picker shows it: XX, Q♠."""
    return SWISS_TAROT.short_name(card if isinstance(card, Card) else SWISS_TAROT.parse(card))


def variants(settings: dict[str, Any]) -> list[Text]:
    return [T("%(variant)s: %(meaning)s", variant=title, meaning=text)
            for key, title, text in VARIANTS if settings.get(key)]


def settle(names: list[str], balances: tuple[int, ...]) -> list[dict[str, Any]]:
    return [{"payer": names[p], "payee": names[q], "amount": a}
            for p, q, a in settle_up(list(balances))]


def rappen(amount: int, locale: str | None = None) -> str:
    """``+30``, ``−110``, ``0`` (a payment or a balance, with its sign)."""
    return signed(amount, locale)


def francs(amount: int, locale: str | None = None) -> str:
    """An amount in Rappen as francs, without its sign: "Fr. 12.50" in English as ever,
    else as the language writes Swiss francs ("CHF 12.50" in Swiss German, "12,50 CHF" in
    French: ``numbers.format_chf``); ``locale``: the request's language if not given."""
    locale = locale or current_locale()
    if locale == ENGLISH:
        return f"Fr. {abs(amount) // 100}.{abs(amount) % 100:02d}"
    return format_chf(abs(amount), locale)


def context(settings: dict[str, Any], result: MatchResult) -> dict[str, Any]:
    """What templates/pdf/troggu.html needs beyond the match and its result."""

    names = list(settings["players"])
    t = table(settings)
    return {
        "settle": settle(names, result.standing.totals), "variants": variants(settings),
        "threshold": t.threshold, "threshold_name": t.threshold_name, "sizes": t.sizes,
        "game_names": GAME_NAMES, "rappen": partial(rappen, locale=current.get()[0]),
        "francs": partial(francs, locale=current.get()[0]), "card_name": card_name,
    }
