"""Troggu at the table: a money game for 3 to 8 players, hand by hand.

A hand is entered in the order the table plays it: the bidding (with the dealer), with 7–8
players the partner call, the Tappist's discard (cards tapped in the tarot picker, or its card
points), and the end: the declarer side's card points and whether the losers took a trick, or
in a Misère each player's points. Every step is stored at once; the engine derives the game,
checks the rules and settles the hand. Until a partner call is recorded, the end of the hand
asks for it too (the partner becomes known in play): one form, one save; the call's own form
(``call``) stays for changing it and for the Tappist's call asked again after a bidding edit.
"""

from __future__ import annotations

from itertools import compress, repeat
from operator import attrgetter, contains, or_
from typing import Any

from flask_babel import gettext
from flask_wtf import FlaskForm
from wtforms.validators import NumberRange

from ...engine.cards import SWISS_TAROT, Card
from ...engine.errors import RuleViolation
from ...engine.games.base import HandOutcome, MatchResult
from ...engine.games.troggu import GAME, bidding, forced_game, table
from ...engine.games.troggu.values import (
    A_GAME,
    FORCED,
    GAME_NAMES,
    MISERE,
    NORMAL,
    PARTNER_PLAYERS,
    SOLO,
    THROWN_IN,
    TOTAL_POINTS,
    WIN_AT,
)
from ...engine.words import P, T
from ...scoresheet.troggu import VARIANTS, francs, rappen, settle
from ...scoresheet.troggu import variants as _variants
from .base import Action, ActionContext, InputRequired, WebGame
from .troggu_forms import (
    ALONE,
    CARD_POINTS,
    FORMS,
    SEAT_FIELDS,
    TAPP,
    TRUMPS,
    FinishForm,
    NewMatchForm,
)

# -- actions ----------------------------------------------------------------------------------

def _seat_of(value: str) -> int | None:
    return int(value) if value not in ("", None, TAPP, ALONE) else None


def _hand(ctx: ActionContext, hands: list[dict[str, Any]]) -> dict[str, Any]:
    if ctx.hand > len(hands):
        raise RuleViolation("hand.none", T("Record the bidding first: it starts the hand"),
                            "6.1")
    return hands[ctx.hand - 1]


def _game_of(hand: dict[str, Any], ctx: ActionContext) -> str | None:
    outcome = _outcome(ctx.result, ctx.hand)
    game = hand.get("game")
    if game is None and outcome is not None:
        game = outcome.detail.get("game")
    return game if isinstance(game, str) else None


def _calls(form: Any, dealer: int, n: int) -> list[str]:
    """The calls in speaking order from the dealer's right. The pre-set "pass" of the players
    after a Solo is dropped (nobody speaks after it); anything else after it is kept, for the
    engine to refuse."""
    order = [(dealer + 1 + i) % n for i in range(n)]
    calls = [form[f"bid_{seat}"].data for seat in order]
    if "solo" in calls:
        end = calls.index("solo") + 1
        if all(call == "pass" for call in calls[end:]):
            calls = calls[:end]
    return calls


def _decide(ctx: ActionContext, form: Any, dealer: int,
            calls: list[str]) -> tuple[str, int | None, str | None]:
    """The game, its declarer and what forced it, from the calls (4.1, 4.4, 4.5.1)."""
    settings = ctx.match.settings
    n = len(ctx.names)
    outcome = bidding(calls, dealer, n, ctx.names)
    if outcome.game is not None:
        return outcome.game, outcome.declarer, None
    no_misere = bool(settings.get("no_misere"))
    empty = THROWN_IN if no_misere else MISERE
    if n not in PARTNER_PLAYERS:
        return empty, None, None
    fool, bagatt = form.fool.data, form.bagatt.data
    if fool == "":
        raise RuleViolation(
            "forced.fool", T("Everybody passed: with %(players)s players the holder of the fool "
                             "must play a normal game. Say who holds the fool, or that it lies "
                             "in the Tapp", players=n), "4.5.1")
    if fool == TAPP and bagatt == "":
        raise RuleViolation(
            "forced.bagatt", T("The fool lies in the Tapp, so the holder of trump I must play: "
                               "say who holds it, or that it lies in the Tapp too"), "4.5.1")
    forced = forced_game(_seat_of(fool), _seat_of(bagatt) if fool == TAPP else None)
    if forced is None:
        return empty, None, None
    return FORCED, forced[1], forced[0]


def _end_fits(game: str, end: object) -> bool:
    if not isinstance(end, dict):
        return end is None
    if game == THROWN_IN:
        return False
    return isinstance(end.get("points"), list) == (game == MISERE)


def apply_bids(ctx: ActionContext, form: Any) -> list[dict[str, Any]]:
    hands = ctx.hands()
    n = len(ctx.names)
    dealer = int(form.dealer.data)
    if dealer >= n:
        raise RuleViolation("fact.player", T("The dealer is one of the %(players)s players",
                                                 players=n), "6.1")
    calls = _calls(form, dealer, n)
    game, declarer, forced_by = _decide(ctx, form, dealer, calls)
    if game not in (FORCED, MISERE, THROWN_IN) and n in PARTNER_PLAYERS and (
            form.fool.data or form.bagatt.data):
        raise RuleViolation(
            "forced.not-all-passed", T("Who holds the fool or trump I matters only when "
                                       "everybody passes: leave those two empty"), "4.5.1")
    if ctx.hand > len(hands):
        if ctx.result.draft is not None:
            raise RuleViolation("hand.open", T("Finish hand %(number)s first: it is still in "
                                               "progress", number=len(hands)), "6.1")
        hands.append({"call": None, "discard": None, "discard_points": None,
                      "all_kings_held": False, "tapp": None, "tapp_points": None, "end": None})
    hand = hands[ctx.hand - 1]
    old_game = _game_of(hand, ctx)
    hand.update(dealer=dealer, bids=calls, game=game, declarer=declarer, forced_by=forced_by)
    if game not in (NORMAL, FORCED):          # what no longer applies to this game
        hand.update(call=None, discard=None, discard_points=None, all_kings_held=False,
                    discard_by=None)
    if game not in (SOLO, MISERE):
        hand.update(tapp=None, tapp_points=None)
    if n not in PARTNER_PLAYERS:
        hand["call"] = None
    if not _end_fits(game, hand.get("end")):
        if ctx.hand < len(hands) and game != THROWN_IN:
            was = A_GAME.get(old_game or "", P("troggu", "a hand"))
            if game == MISERE:
                message = T("Hand %(number)s was scored as %(was)s; as %(now)s it needs each "
                            "player's card points, and only the last hand can wait for them. "
                            "Delete hand %(number)s and enter it again",
                            number=ctx.hand, was=was, now=A_GAME[game])
            else:
                message = T("Hand %(number)s was scored as %(was)s; as %(now)s it needs the "
                            "declarer side's card points, and only the last hand can wait for "
                            "them. Delete hand %(number)s and enter it again",
                            number=ctx.hand, was=was, now=A_GAME[game])
            raise RuleViolation("hand.kind", message, "6.1")
        hand["end"] = None
    return hands


def _tappist(hand: dict[str, Any], ctx: ActionContext) -> int | None:
    """Who is Tappist in this hand now: he makes the call and the discard (4.2.1, 4.5.2)."""
    declarer = hand.get("declarer")
    outcome = _outcome(ctx.result, ctx.hand)
    if declarer is None and outcome is not None:
        declarer = outcome.detail.get("declarer")
    return declarer if isinstance(declarer, int) else None


def _record_call(ctx: ActionContext, hand: dict[str, Any], form: Any) -> None:
    """The Tappist's partner call as the form gives it (4.5.2): the called trump and who held
    it, or "alone"."""
    partner = form.partner.data
    if partner != ALONE and int(partner) >= len(ctx.names):
        raise RuleViolation("fact.player", T("The partner is one of the players"), "6.1")
    hand["call"] = {"trump": form.trump.data or None,
                    "partner": ALONE if partner == ALONE else int(partner),
                    "by": _tappist(hand, ctx)}


def apply_call(ctx: ActionContext, form: Any) -> list[dict[str, Any]]:
    hands = ctx.hands()
    _record_call(ctx, _hand(ctx, hands), form)
    return hands


def apply_discard(ctx: ActionContext, form: Any) -> list[dict[str, Any]]:
    hands = ctx.hands()
    hand = _hand(ctx, hands)
    cards = list(form.cards.data or [])
    if not cards and form.points.data is None:
        t = table(ctx.match.settings).t
        raise RuleViolation(
            "discard.empty", T("Tap the %(count)s discarded cards, or enter their card points",
                               count=t), "4.2")
    hand.update(discard=cards or None, discard_points=form.points.data,
                all_kings_held=bool(form.all_kings_held.data), discard_by=_tappist(hand, ctx))
    return hands


def apply_no_discard(ctx: ActionContext, form: Any) -> list[dict[str, Any]]:
    """The discard is optional (6.1): a void one may be left unrecorded."""
    hands = ctx.hands()
    hand = _hand(ctx, hands)
    hand.update(discard=None, discard_points=None, all_kings_held=False, discard_by=None)
    return hands


def apply_finish(ctx: ActionContext, form: Any) -> list[dict[str, Any]]:
    hands = ctx.hands()
    hand = _hand(ctx, hands)
    if _game_of(hand, ctx) == MISERE:
        raise RuleViolation(
            "misere.points", T("In a Misère every player plays alone: give each player's card "
                               "points"), "6.1")
    if "partner" in form and form.partner.data:        # the call, given with the end
        _record_call(ctx, hand, form)
    hand["end"] = {
        "points": form.points.data, "defenders": None, "tricks": form.tricks.data,
        "loser_took_trick": form.took.data == "yes", "fool_kept": _seat_of(form.fool_kept.data),
    }
    if form.tapp_points.data is not None or _game_of(hand, ctx) == SOLO:
        hand["tapp_points"] = form.tapp_points.data
        hand["tapp"] = None
    return hands


def apply_misere(ctx: ActionContext, form: Any) -> list[dict[str, Any]]:
    hands = ctx.hands()
    hand = _hand(ctx, hands)
    n = len(ctx.names)
    if _game_of(hand, ctx) != MISERE:
        raise RuleViolation(
            "end.points", T("This hand is not a Misère: give the declarer side's card points"),
            "6.1")
    tricks = [form[f"tricks_{s}"].data for s in range(n)]
    missing = [s for s in range(n) if tricks[s] is None]
    if missing and len(missing) < n:
        raise RuleViolation(
            "misere.tricks",
            T("Give every player's tricks, or none: %(player)s's are missing",
              player=ctx.names[missing[0]]),
            "6.1").of_seat(missing[0])
    hand["end"] = {
        "points": [form[f"points_{s}"].data for s in range(n)],
        "tricks": None if missing else tricks, "fool_kept": _seat_of(form.fool_kept.data),
    }
    hand.update(tapp_points=form.tapp_points.data, tapp=None)
    return hands



# -- the editor -------------------------------------------------------------------------------

def _card_name(card: object) -> str:
    """A stored card (its code, or the card read from it) as the picker shows it: XX, Q♠."""
    return SWISS_TAROT.short_name(card if isinstance(card, Card) else SWISS_TAROT.parse(card))


def _cards_text(codes: list[str]) -> str:
    """Stored cards as the picker shows them: ``T20 Qs`` → "XX Q♠"."""
    return " ".join(SWISS_TAROT.short_name(SWISS_TAROT.parse(code)) for code in codes)


def _outcome(result: MatchResult, number: int) -> HandOutcome | None:
    if 1 <= number <= len(result.hands):
        return result.hands[number - 1]
    if result.draft is not None and result.draft.number == number:
        return result.draft
    return None


def payments(outcome: HandOutcome | None, names: list[str]) -> list[dict[str, Any]]:
    """Each player's payment in a hand with the engine's reason."""
    if outcome is None or not outcome.complete:
        return []
    reasons: dict[int, str] = {}
    for line in outcome.lines:
        if line.player is not None and line.points is not None:
            reasons[line.player] = line.text
    return [{"name": name, "amount": outcome.scores[seat], "reason": reasons.get(seat, "")}
            for seat, name in enumerate(names)]


def open_choices(result: MatchResult) -> list[dict[str, Any]]:
    """The hands whose call or discard an edit of the bidding made void (4.2.1, 4.5.2): the
    new Tappist is asked at the top of the match page."""
    hands = list(result.hands) + ([result.draft] if result.draft is not None else [])
    # the few hands whose details say so found together (issue 12: not one by one in a long
    # match): a detail holds these keys only where the scoring set them
    details = list(map(_DETAIL, hands))
    marked = compress(hands, map(or_, map(contains, details, repeat("void_call")),
                                 map(contains, details, repeat("void_discard"))))
    return [
        {"number": h.number, "tappist": h.detail.get("declarer"),
         "call": h.detail.get("void_call"), "discard": h.detail.get("void_discard"),
         "pending": h.detail.get("pending") == "call"}
        for h in marked if h.detail.get("void_call") or h.detail.get("void_discard")
    ]


_DETAIL = attrgetter("detail")


class TrogguWeb(WebGame):
    game = GAME
    editor_template = "games/troggu/_editor.html"
    new_template = "games/troggu/new.html"
    player_fields = ("players",)
    evening = True
    refusal_fields = {       # errors at the field (issue 11, item 4)
        "bids": {"bids": "bid_{seat}", "forced.fool": "fool", "forced.bagatt": "bagatt",
                 "forced.not-all-passed": "fool"},
        "call": {"call.trump": "trump", "call.partner": "partner"},
        "discard": {"discard.points": "points", "discard": "cards"},
        "finish": {"points": "points", "end.points": "points", "tricks": "tricks",
                   "tapp": "tapp_points", "fool": "fool_kept", "call": "partner",
                   "call.trump": "trump"},
        # each player's card points and tricks: the player's the refusal names, else all
        "misere": {"misere.tapp": "tapp_points", "fool.kept-trick": "points_{seat}",
                   "fool": "fool_kept", "misere.sum": "points_*", "misere.points": "points_*",
                   "misere.tricks": "tricks_{seat}|tricks_*", "points": "points_{seat}|points_*"},
    }
    summary_template = "games/troggu/_settle.html"
    decisions_template = "games/troggu/_decisions.html"
    form_classes = FORMS
    actions = {
        "bids": Action("bids", apply_bids, T("Bidding"), T("bidding")),
        "call": Action("call", apply_call, T("Partner call"), T("partner call")),
        "discard": Action("discard", apply_discard, T("Discard"), T("discard")),
        "nodiscard": Action("nodiscard", apply_no_discard, T("Discard left unrecorded"),
                             T("discard left unrecorded")),
        "finish": Action("finish", apply_finish, T("Hand scored"), T("hand scored")),
        "misere": Action("misere", apply_misere, T("Misère scored"), T("misère scored")),
    }

    def new_form(self) -> FlaskForm:
        return NewMatchForm()

    def settings_from(self, form: Any) -> dict[str, Any]:
        typed = list(form.players.data or [])
        while typed and not typed[-1].strip():
            typed.pop()
        for seat, name in enumerate(typed):
            if not name.strip():
                raise RuleViolation(
                    "settings.players", T("Seat %(number)s is empty but a later seat has a "
                                          "name: give the names in seating order without gaps",
                                          number=seat + 1), "1")
        first = int(form.first_dealer.data)
        if 3 <= len(typed) <= first:
            raise RuleViolation(
                "settings.first_dealer", T("The first dealer is seat %(number)s, but only "
                                           "%(players)s players are seated", number=first + 1,
                                           players=len(typed)), "2.4")
        return {
            "players": typed, "first_dealer": first, "stake": form.stake.data,
            "threshold": form.threshold.data,
            **{key: bool(form[key].data) for key, _, _ in VARIANTS},
        }

    def with_choices(self, form: FlaskForm, ctx: ActionContext) -> FlaskForm:
        names = ctx.names
        n = len(names)
        named = [(str(s), name) for s, name in enumerate(names)]
        for field in list(form):
            short = field.short_name
            if short.startswith(("bid_", "points_", "tricks_")):
                seat = int(short.rsplit("_", 1)[1])
                if seat >= n:
                    del form[short]
                    continue
                field.label.text = names[seat]
                if short.startswith("points_"):
                    field.validators = [
                        InputRequired(gettext("Enter %(player)s's card points",
                                              player=names[seat])),
                        NumberRange(0, TOTAL_POINTS, CARD_POINTS),
                    ]
            elif n not in PARTNER_PLAYERS and (short in ("fool", "bagatt") or (
                    isinstance(form, FinishForm) and short in ("trump", "partner"))):
                del form[short]         # only 7–8 players: forced games, the call (4.5)
            elif short in SEAT_FIELDS:
                head = [c for c in field.choices if c[0] == ""]
                tail = [c for c in field.choices if c[0] in (TAPP, ALONE)]
                field.choices = head + named + tail
        return form

    def form_data(self, ctx: ActionContext) -> dict[str, dict[str, Any]]:
        data: dict[str, dict[str, Any]] = {name: {} for name in FORMS}
        hands = ctx.match.hands
        n = len(ctx.names)
        if ctx.hand > len(hands):
            data["bids"]["dealer"] = str(ctx.result.standing.dealer)
            return data
        hand = hands[ctx.hand - 1]
        outcome = _outcome(ctx.result, ctx.hand)
        dealer = hand.get("dealer")
        if dealer is None:
            dealer = outcome.dealer if outcome is not None else ctx.result.standing.dealer
        game, declarer = hand.get("game"), hand.get("declarer")
        bids = data["bids"]
        bids["dealer"] = str(dealer)
        calls = hand.get("bids")
        if calls is None:      # not recorded: what the game implies
            calls = ["pass"] * n
            if game in (NORMAL, SOLO) and declarer is not None:
                calls[(declarer - dealer - 1) % n] = game
        for i, call in enumerate(calls):
            bids[f"bid_{(dealer + 1 + i) % n}"] = call
        forced_by = hand.get("forced_by")
        if game == FORCED and declarer is not None:
            bids["fool"] = str(declarer) if forced_by != "T1" else TAPP
            bids["bagatt"] = str(declarer) if forced_by == "T1" else ""
        elif game in (MISERE, THROWN_IN) and n in PARTNER_PLAYERS:
            bids["fool"] = bids["bagatt"] = TAPP
        call = hand.get("call")
        if call:
            data["call"] = {"trump": call.get("trump") or "", "partner": str(call["partner"])}
        data["discard"] = {"cards": list(hand.get("discard") or []),
                           "points": hand.get("discard_points"),
                           "all_kings_held": bool(hand.get("all_kings_held"))}
        end = hand.get("end")
        fool_kept = "" if not end or end.get("fool_kept") is None else str(end["fool_kept"])
        if end and isinstance(end.get("points"), list):
            data["misere"] = {"tapp_points": hand.get("tapp_points"), "fool_kept": fool_kept}
            for seat, points in enumerate(end["points"]):
                data["misere"][f"points_{seat}"] = points
                tricks = end.get("tricks")
                data["misere"][f"tricks_{seat}"] = tricks[seat] if tricks else None
        elif end:
            took = end.get("loser_took_trick")
            if took is None and end.get("tricks") is not None:
                h = table(ctx.match.settings).h
                won = end["points"] >= WIN_AT
                took = end["tricks"] < h if won else end["tricks"] > 0
            data["finish"] = {"points": end["points"], "tricks": end.get("tricks"),
                              "took": "no" if took is False else "yes",
                              "tapp_points": hand.get("tapp_points"), "fool_kept": fool_kept}
        elif game == SOLO:
            data["finish"] = {"tapp_points": hand.get("tapp_points")}
        else:
            data["misere"] = {"tapp_points": hand.get("tapp_points")}
        return data

    def editor(self, ctx: ActionContext) -> dict[str, Any]:
        settings = ctx.match.settings
        names = ctx.names
        n = len(names)
        t = table(settings)
        hands = ctx.match.hands
        hand = hands[ctx.hand - 1] if ctx.hand <= len(hands) else None
        outcome = _outcome(ctx.result, ctx.hand) if hand is not None else None
        if hand is not None and hand.get("dealer") is not None:
            dealer = int(hand["dealer"])
        elif outcome is not None:
            dealer = outcome.dealer
        else:
            dealer = ctx.result.standing.dealer
        detail = outcome.detail if outcome is not None else {}
        game = detail.get("game") or (hand or {}).get("game")
        previous = None
        if hand is None and 2 <= ctx.hand <= len(ctx.result.hands) + 1:
            previous = ctx.result.hands[ctx.hand - 2]
        shown = outcome if outcome is not None and outcome.complete else previous
        return {
            "hand": hand, "outcome": outcome, "game": game, "dealer": dealer,
            "order": [(dealer + 1 + i) % n for i in range(n)],
            "declarer": detail.get("declarer"), "partner": detail.get("partner"),
            "sizes": t.sizes, "n": n, "partners": n in PARTNER_PLAYERS,
            "game_names": GAME_NAMES,
            "bid_line": next((line.text for line in (outcome.lines if outcome else [])
                              if line.rule == "4.1"), None),
            "notes": [line for line in (outcome.lines if outcome else [])
                      if line.points is None and line.rule != "4.1"],
            "shown": shown, "payments": payments(shown, names),
            "settle": settle(names, ctx.result.standing.totals),
            "balances": [(name, ctx.result.standing.totals[s]) for s, name in enumerate(names)],
            "rappen": rappen, "francs": francs, "variants": _variants(settings),
            "threshold": t.threshold, "threshold_name": t.threshold_name, "stake": t.stake,
            "trumps": TRUMPS, "trump_names": dict(TRUMPS), "open": open_choices(ctx.result),
            "cards_text": _cards_text,
        }
