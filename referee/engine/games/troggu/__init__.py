"""Troggu for 3 to 8 players, played for money: shared/rules/troggu.md.

Settings in JSON (``Troggu.settings`` fills the optional ones)::

    {"players": ["Anna", "Beat", "Carla", "Dora"],  # 3–8, seating = playing order (anticlockwise)
     "first_dealer": 0,                             # a seat
     "stake": 10,                                   # S in Rappen (default 10)
     "threshold": "standard",                       # D: "standard" 29, "visp" 30,
                                                    #    "st-niklaus" 31, "graechen" 20
     "kings_any_number": false,                     # variants of section 8, all off by default
     "seven_fives": false,
     "no_misere": false,
     "misere_least_wins": false,
     "graechen_deal": false}

A hand's facts: ``referee.engine.games.troggu.facts``. Scores are each player's payment in the
hand (Rappen, adding up to 0); ``Standing.totals`` are the running balances and
``Standing.victory`` repeats them (there is no target and no winner, 7.5.2).

What the web layer can call besides the Game interface: ``deal_sizes`` (hand and Tapp sizes),
``bidding`` (what the calls decide), ``forced_game`` (who must play when 7–8 players all pass),
``discard_points`` / ``discard_allowed`` (a discard picked as cards), ``points_range``,
``card_points``, ``settle_up`` (the payments of 7.5.3) and ``settle_text``; and the play
checker of 2.2–2.5: ``legal_plays``, ``trick_winner``, ``led_suit``, ``is_trump``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...cards import SWISS_TAROT, Card
from ...errors import RuleViolation, shown
from ...ledger import settle_up
from ...words import T, listing
from ..base import (
    Game,
    require_known_keys,
    require_names,
    require_player,
    require_switches,
)
from .bidding import Bidding, bidding, forced_game
from .exchange import check_discard
from .facts import DISTINCT_DISCARD, hand_to_json, parse_hand
from .match import MatchFold, complete_hands, settle_text
from .play import is_trump, led_suit, legal_plays, trick_winner
from .table import KINGS_ANY, KINGS_SEVEN, Table, in_order
from .values import (
    DEFAULT_STAKE,
    DEFAULT_THRESHOLD,
    HALF,
    MAX_PLAYERS,
    MAX_STAKE,
    MIN_PLAYERS,
    PRESET_PLAYERS,
    THRESHOLDS,
    TOTAL_POINTS,
    WIN_AT,
    Sizes,
    card_points,
    deal_sizes,
    hi,
    lo,
    points_of,
)

SWITCHES = ("kings_any_number", "seven_fives", "no_misere", "misere_least_wins",
            "graechen_deal")
SETTINGS_KEYS = frozenset({"players", "first_dealer", "stake", "threshold", *SWITCHES})
CONFLICTS = (
    ("kings_any_number", "seven_fives",
     T("“Kings: any number” and “Seven 5-point cards” cannot both be on: the second allows no "
       "kings-only discard")),
    ("no_misere", "misere_least_wins",
     T("“No Misère” and “Misère: least wins” cannot both be on: without Misère nobody wins "
       "one")),
)


class Troggu(Game):
    name = "troggu"
    title = "Troggu"
    deck = SWISS_TAROT
    players = (MIN_PLAYERS, MAX_PLAYERS)
    victory_unit = "Rappen"         # a key of the statistics too: a plain str
    race = False

    def settings(self, raw: dict[str, Any]) -> dict[str, Any]:
        require_known_keys(raw, SETTINGS_KEYS, T("the settings"), "8")
        names = require_names(
            raw.get("players"), MIN_PLAYERS, MAX_PLAYERS,
            T("Troggu is for %(least)s to %(most)s players: give their names in seating order",
              least=MIN_PLAYERS, most=MAX_PLAYERS), "1",
        )
        stake = raw.get("stake", DEFAULT_STAKE)
        if isinstance(stake, bool) or not isinstance(stake, int) or not 1 <= stake <= MAX_STAKE:
            raise RuleViolation(
                "settings.stake",
                T("The stake is a whole number of Rappen from 1 to %(most)s, not %(given)s",
                  most=MAX_STAKE, given=shown(stake)),
                "8",
            )
        threshold = raw.get("threshold", DEFAULT_THRESHOLD)
        if not isinstance(threshold, str) or threshold not in THRESHOLDS:
            presets = listing([T("%(preset)s (%(threshold)s)", preset=name, threshold=d)
                               for name, d in THRESHOLDS.values()])
            raise RuleViolation(
                "settings.threshold",
                T("The doubling threshold is one of the presets %(presets)s, not %(given)s",
                  presets=presets, given=shown(threshold)),
                "8",
            )
        switches = require_switches(raw, SWITCHES)
        for first, second, message in CONFLICTS:
            if switches[first] and switches[second]:
                raise RuleViolation("settings.variants", message, "8")
        return {
            "players": names,
            "first_dealer": require_player(raw.get("first_dealer"), T("The first dealer"),
                                           len(names), "1"),
            "stake": stake,
            "threshold": threshold,
            **switches,
        }

    def sides(self, settings: dict[str, Any]) -> list[str]:
        return list(settings["players"])

    def totals_label(self, settings: dict[str, Any]) -> str:
        return ""                   # the balances are the totals: one row on the scoreboard

    def victory_label(self, settings: dict[str, Any]) -> str:
        return T("Balance (Rappen)")

    def rules_in_force(self, settings: dict[str, Any]) -> list[str]:
        table = Table.from_settings(settings)
        n, stake, d = table.n, table.stake, table.threshold
        sizes = table.sizes
        graechen = bool(settings.get("graechen_deal")) and n in (4, 5)
        deal = dict(players=n, cards=sizes.hand, packets=sizes.packets, tapp=sizes.tapp)
        rules: list[str] = [
            T("Troggu for %(players)s players, seated %(names)s in playing order "
              "(anticlockwise); the deal passes to the right after every hand", players=n,
              names=in_order(list(table.names))),
            T("%(players)s players: %(cards)s cards each (%(packets)s), a Tapp of %(tapp)s "
              "(Grächen deal)", **deal) if graechen else
            T("%(players)s players: %(cards)s cards each (%(packets)s), a Tapp of %(tapp)s",
              **deal),
            T("Stake %(stake)s Rappen a unit; a side wins with %(win_at)s of the %(total)s card "
              "points; %(half)s–%(half)s pays nothing", stake=stake, win_at=WIN_AT,
              total=TOTAL_POINTS, half=HALF),
            T("Double threshold %(preset)s: ×2 when the losing side has %(threshold)s or "
              "fewer; ×3 when it won no trick; a Solo doubles every payment",
              preset=table.threshold_name, threshold=d),
            T("The losing side pays both ways: a losing declarer pays every opponent"),
        ]
        if n >= 7:
            rules += [
                T("All pass: the holder of the fool, else of trump I, must play a normal game "
                  "(forced game); if both lie in the Tapp, a Misère — thrown in under “No "
                  "Misère”") if table.no_misere else
                T("All pass: the holder of the fool, else of trump I, must play a normal game "
                  "(forced game); if both lie in the Tapp, a Misère"),
                T("The Tappist calls a trump I–XX; its holder is the Tappist's partner and "
                  "takes (or pays) 2 units, the Tappist the rest; if the card is the Tappist's "
                  "own or in the Tapp, the Tappist plays alone and settles with every opponent "
                  "(house rule)"),
            ]
        if table.no_misere:
            rules.append(T("No Misère: when all pass the hand is thrown in, nobody pays"))
        elif table.least_wins:
            rules.append(T(
                "Misère, least wins: the fewest points receives the stake from each other "
                "player; tied players each receive it from every non-tied player; all tie: "
                "nothing"
            ))
        else:
            rules.append(T(
                "Misère: the most points pays the stake to each other player; tied players "
                "each pay every non-tied player (house rule); all tie: nothing"
            ))
        if table.kings == KINGS_ANY:
            rules.append(T("Kings: any number — a Tappist holding all four kings may discard "
                           "1–4 of them; never the fool, XXI or I"))
        elif table.kings == KINGS_SEVEN:
            rules.append(T("Seven 5-point cards: no kings-only discard; a Tappist holding the "
                           "fool, XXI, I and all four kings may discard all seven together"))
        else:
            rules.append(T("Discard: never the fool, XXI or I; kings only all four together"))
        rules.append(T(
            "A withheld fool kept by a side that won no trick stays with it; the last trick "
            "then keeps one card fewer (house reading)"
        ))
        rules.append(T("Settle-up: the largest debt pays the largest credit the smaller of the "
                       "two, until every balance is 0 (ties to the earlier seat)"))
        limits = PRESET_PLAYERS.get(settings["threshold"])
        if limits is not None and not limits[0] <= n <= limits[1]:
            rules.append(T(
                "Note: %(preset)s is usually played by %(least)s–%(most)s players (not "
                "enforced)", preset=table.threshold_name, least=limits[0], most=limits[1],
            ))
        return rules

    def complete(
        self, settings: dict[str, Any], hands: list[dict[str, Any]], start: int = 0
    ) -> list[dict[str, Any]]:
        """Each hand without its dealer gets the one the app proposes (6.1): the player to the
        right of the last dealer, the first dealer for hand 1 (2.4), as the fold reads it; a
        call or discard that does not say who made it, the Tappist (4.2.1, 4.5.2)."""
        return complete_hands(settings, hands, start)

    def fold(self, settings: dict[str, Any]) -> MatchFold:
        return MatchFold(settings)

    def canonical_hand(self, raw: object) -> dict[str, Any]:
        return hand_to_json(parse_hand(raw))


GAME = Troggu()


# -- helpers for the web layer ----------------------------------------------------------------

def table(settings: dict[str, Any]) -> Table:
    """What a hand needs from validated settings: names, sizes, stake, threshold, variants."""
    return Table.from_settings(settings)


def discard_points(
    settings: dict[str, Any], cards: Sequence[Card] | Sequence[str] | str,
    all_kings_held: bool = False,
) -> int:
    """Check a discard picked as cards (4.2 and the variants of 8) and return its points."""
    t = table(settings)
    picked = [c if isinstance(c, Card) else SWISS_TAROT.parse(c) for c in (
        SWISS_TAROT.parse_many(cards, DISTINCT_DISCARD) if isinstance(cards, str) else cards)]
    if len(set(picked)) != len(picked):
        raise RuleViolation("card.twice", T("The same card was picked twice"),
                            DISTINCT_DISCARD)
    return check_discard(picked, t.t, t.kings, all_kings_held)


def discard_allowed(
    settings: dict[str, Any], cards: Sequence[Card] | Sequence[str] | str,
    all_kings_held: bool = False,
) -> bool:
    try:
        discard_points(settings, cards, all_kings_held)
    except RuleViolation:
        return False
    return True


def points_range(cards: int) -> tuple[int, int]:
    """The card points ``cards`` cards can hold, lo(c) to hi(c) (6.3)."""
    return lo(cards), hi(cards)


__all__ = [
    "GAME", "Bidding", "Sizes", "Table", "Troggu", "bidding", "card_points", "check_discard",
    "deal_sizes", "discard_allowed", "discard_points", "forced_game", "is_trump", "led_suit",
    "legal_plays", "points_of", "points_range", "settle_text", "settle_up", "table",
    "trick_winner",
]
