"""Tartli at the table: the forms and hand actions of the Tartli editor."""

from __future__ import annotations

from typing import Any

from flask import request
from flask_babel import lazy_pgettext, pgettext
from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    RadioField,
    SelectField,
    SelectMultipleField,
    StringField,
)
from wtforms.validators import AnyOf, Length, NumberRange, Optional

from ...engine.cards import HUNGARIAN
from ...engine.errors import RuleViolation
from ...engine.games.tartli import GAME
from ...engine.games.tartli.facts import parse_hand
from ...engine.games.tartli.melds import Conceded, recognize
from ...engine.games.tartli.values import EXCHANGE_TRICKS, MELD_TRICKS, PILES_TOTAL, TRICKS
from ...engine.words import T, Text
from ..forms.fields import WholeNumber, chosen_seat
from .base import Action, ActionContext, FormInvalid, InputRequired, WebGame

CARDS = [(str(card), HUNGARIAN.short_name(card)) for card in HUNGARIAN.cards]
# each a whole sentence: the sequence's name is the game's own word, inflected as a language
# does (rules 4.1)
CONCEDED = [
    ("", "—"), ("set:?", lazy_pgettext("tartli", "announced a set, conceded")),
    ("seq:?/3", lazy_pgettext("tartli", "announced a terc, conceded")),
    ("seq:?/4", lazy_pgettext("tartli", "announced a kvart, conceded")),
    ("seq:?/5", lazy_pgettext("tartli", "announced a kvint, conceded")),
    ("seq:?/6", lazy_pgettext("tartli", "announced a szext, conceded")),
    ("seq:?/7", lazy_pgettext("tartli", "announced a szept, conceded")),
    ("seq:?/8", lazy_pgettext("tartli", "announced an okt, conceded")),
]
PLAYER = [("0", "0"), ("1", "1")]
PILE_MISSING = lazy_pgettext("tartli", "Enter the card points of one player's pile")
LAST_MISSING = lazy_pgettext("tartli", "Who took the last trick? (rule 5)")
PILE_HOLDS = lazy_pgettext("tartli", "A pile holds 0 to 151 card points")
NO = [("", lazy_pgettext("tartli", "no"))]


def _dealer_field() -> RadioField:
    """Who dealt the hand (6.1.1), pre-set to the stored dealer or the app's proposal; a post
    without it keeps the dealer as stored (a new hand: the proposal)."""
    return RadioField(lazy_pgettext("tartli", "Dealer"), choices=PLAYER, validate_choice=False,
                      validators=[Optional(), AnyOf(("0", "1"), lazy_pgettext(
                          "tartli", "The dealer is one of the two players (rule 6.1.1)"))])


class NewMatchForm(FlaskForm):
    player_a = StringField(lazy_pgettext("tartli", "First player"),
                           [InputRequired(), Length(max=40)])
    player_b = StringField(lazy_pgettext("tartli", "Second player"),
                           [InputRequired(), Length(max=40)])
    target = RadioField(
        lazy_pgettext("tartli", "Match to"), default="5", validators=[InputRequired()],
        choices=[("5", lazy_pgettext("tartli", "5 buli")),
                 ("10", lazy_pgettext("tartli", "10 buli"))],
    )
    first_dealer = RadioField(
        lazy_pgettext("tartli", "First dealer"), default="0", validators=[InputRequired()],
        choices=[("0", lazy_pgettext("tartli", "First player")),
                 ("1", lazy_pgettext("tartli", "Second player"))],
    )


def _pile_field(*required: Any) -> WholeNumber:
    return WholeNumber(lazy_pgettext("tartli", "Card points in the pile"), validators=[
        *required, NumberRange(0, PILES_TOTAL, lazy_pgettext(
            "tartli", "A pile holds 0 to 151 card points (rule 3)"))])


class IndicatorForm(FlaskForm):
    """Starts a hand; the same form scores a hand played without recording its tricks (the
    "played" action): indicator, dealer and the finish facts in one go."""

    indicator = RadioField(
        lazy_pgettext("tartli", "Trump indicator"), choices=CARDS,
        validators=[InputRequired(lazy_pgettext(
            "tartli", "Pick the trump indicator card (rule 2.2)"))],
    )
    dealer = _dealer_field()
    # the finish facts (rule 6.1.5), required only when the hand is scored at once
    pile_player = RadioField(lazy_pgettext("tartli", "Pile of"), choices=PLAYER, default="0",
                             validate_choice=False, validators=[Optional(), AnyOf(("0", "1"))])
    pile = _pile_field(Optional())
    last = RadioField(lazy_pgettext("tartli", "Last trick"), choices=PLAYER, validate_choice=False,
                      validators=[Optional(), AnyOf(("0", "1"))])
    stichmatsch = SelectField(lazy_pgettext("tartli", "Stichmatsch"), choices=NO + PLAYER,
                              default="")

    def finish_typed(self) -> bool:
        """Did the table enter any finish fact (a pile, the last trick, a stichmatsch)?"""
        return (self.pile.data is not None or bool(self.last.data)
                or bool(self.stichmatsch.data))


class TrickForm(FlaskForm):
    cards_0 = SelectMultipleField(lazy_pgettext("tartli", "Declares"), choices=CARDS,
                                  validators=[Optional()])
    cards_1 = SelectMultipleField(lazy_pgettext("tartli", "Declares"), choices=CARDS,
                                  validators=[Optional()])
    conceded_0 = SelectField(lazy_pgettext("tartli", "Or"), choices=CONCEDED, default="")
    conceded_1 = SelectField(lazy_pgettext("tartli", "Or"), choices=CONCEDED, default="")
    bela = SelectField(lazy_pgettext("tartli", "Béla"), default="",
                       choices=[("", lazy_pgettext("tartli", "no béla"))] + PLAYER)
    exchange = BooleanField(lazy_pgettext("tartli", "Trump 7 exchanged before this trick"))
    winner = SelectField(lazy_pgettext("tartli", "Winner"), default="",
                         choices=[("", lazy_pgettext("tartli", "not yet"))] + PLAYER)


class FinishForm(FlaskForm):
    pile_player = RadioField(lazy_pgettext("tartli", "Pile of"), choices=PLAYER, default="0",
                             validators=[InputRequired()])
    pile = _pile_field(InputRequired(PILE_MISSING))
    last = RadioField(lazy_pgettext("tartli", "Last trick"), choices=PLAYER,
                      validators=[InputRequired(LAST_MISSING)])
    stichmatsch = SelectField(lazy_pgettext("tartli", "Stichmatsch"), choices=NO + PLAYER,
                              default="")


class ClaimForm(FlaskForm):
    claimant = RadioField(lazy_pgettext("tartli", "Claimed by"), choices=PLAYER,
                          validators=[InputRequired(lazy_pgettext("tartli", "Who claimed 501?"))])
    completed = WholeNumber(lazy_pgettext("tartli", "Tricks completed"), validators=[
        InputRequired(), NumberRange(0, TRICKS - 1, lazy_pgettext(
            "tartli", "A claim comes before trick 16 is complete (rule 7.3.1)")),
    ])
    step7 = BooleanField(lazy_pgettext(
        "tartli", "The melds of the trick in progress had already scored"))
    pile_0 = WholeNumber(lazy_pgettext("tartli", "Pile"), validators=[
        InputRequired(), NumberRange(0, PILES_TOTAL, PILE_HOLDS)])
    pile_1 = WholeNumber(lazy_pgettext("tartli", "Pile"), validators=[
        InputRequired(), NumberRange(0, PILES_TOTAL, PILE_HOLDS)])


class DeciderForm(FlaskForm):
    dealer = _dealer_field()
    first = RadioField(lazy_pgettext("tartli", "First to score"), choices=PLAYER,
                       validators=[InputRequired(lazy_pgettext("tartli", "Who scored first?"))])


FORMS: dict[str, type[FlaskForm]] = {
    "indicator": IndicatorForm, "trick": TrickForm, "finish": FinishForm, "claim": ClaimForm,
    "decider": DeciderForm,
}


def _hand(ctx: ActionContext, hands: list[dict[str, Any]]) -> dict[str, Any]:
    if ctx.hand > len(hands):
        raise RuleViolation("hand.none", T("Start the hand first: pick the trump indicator"),
                            "2.2")
    return hands[ctx.hand - 1]


def _dealer(ctx: ActionContext, form: Any) -> int:
    """The dealer the table chose, else the hand's own (a new hand: the proposal, 2.1)."""
    seat = chosen_seat(form.dealer)
    return ctx.dealer() if seat is None else seat


def _melds(cards: list[str], conceded: str, who: str, seat: int) -> list[str]:
    if cards and conceded:
        raise RuleViolation(
            "meld.conceded-and-cards",
            T("%(player)s: either pick the cards shown or mark the announcement conceded, not "
              "both", player=who),
            "6.1.4",
        ).of_seat(seat)
    if conceded:
        return [conceded]
    try:
        return [str(m) for m in recognize(HUNGARIAN.parse_many(cards))]
    except RuleViolation as error:
        error.message = T("%(player)s: %(refusal)s", player=who,
                          refusal=error.message)
        raise error.of_seat(seat) from None


def _start(ctx: ActionContext, form: Any) -> list[dict[str, Any]]:
    """The hands with hand ``ctx.hand`` started (or its indicator and dealer changed)."""
    hands = ctx.hands()
    if ctx.hand > len(hands):
        if ctx.result.draft is not None:
            raise RuleViolation("hand.open", T("Finish the hand in progress first"), "6.1")
        if ctx.result.standing.next_hand == "decider":
            raise RuleViolation(
                "decider.due", T("This is a decider hand: record who scored first"), "7.4")
        hands.append({"dealer": _dealer(ctx, form), "indicator": form.indicator.data,
                      "exchange": None, "tricks": [], "bela": None, "end": None})
    else:
        _hand(ctx, hands).update(dealer=_dealer(ctx, form), indicator=form.indicator.data)
    return hands


def apply_indicator(ctx: ActionContext, form: Any) -> list[dict[str, Any]]:
    if form.finish_typed():
        # "Start hand" (or the Enter key) with finish facts typed: never drop them unseen
        form.pile.errors.append(pgettext(
            "tartli", "You entered how the hand finished: tap Score the hand to score it now, "
            "or clear the pile and the last trick to start the hand only"))
        raise FormInvalid("indicator", form)
    return _start(ctx, form)


def apply_played(ctx: ActionContext, form: Any) -> list[dict[str, Any]]:
    """A hand played without recording its tricks: started and scored in one go."""
    if form.pile.data is None:
        form.pile.errors.append(str(PILE_MISSING))
    if not form.last.data:
        form.last.errors.append(str(LAST_MISSING))
    if form.pile.errors or form.last.errors:
        raise FormInvalid("indicator", form)
    hands = _start(ctx, form)
    hands[ctx.hand - 1]["end"] = _played_end(form)
    return hands


def _trick_verb(ctx: ActionContext, form: Any) -> Text:
    """The history's verb for a trick: its declarations checked before it is won, the trick
    won, or a trick already won changed (never "Trick 1 of hand 4" twice)."""
    if form.winner.data == "":
        return T("Declarations in trick")
    t, recorded = ctx.trick or 0, (ctx.facts or {}).get("tricks") or []
    if 1 <= t <= len(recorded) and recorded[t - 1].get("winner") is not None:
        return T("Change to trick")
    return T("Trick")


def apply_trick(ctx: ActionContext, form: Any) -> list[dict[str, Any]]:
    hands = ctx.hands()
    hand = _hand(ctx, hands)
    t = ctx.trick or 0
    tricks = hand.setdefault("tricks", [])
    if not 1 <= t <= min(len(tricks) + 1, TRICKS):
        raise RuleViolation("trick.order", T(
            "Record the tricks in order; next is trick %(number)s",
            number=min(len(tricks) + 1, TRICKS)), "6.1.2")
    names = ctx.names
    melds = [
        _melds(form.cards_0.data or [], form.conceded_0.data, names[0], 0),
        _melds(form.cards_1.data or [], form.conceded_1.data, names[1], 1),
    ]
    if (melds[0] or melds[1]) and t > MELD_TRICKS:
        raise RuleViolation(
            "meld.window", T("Sets and sequences may be declared only in tricks 1–8, not in "
                             "trick %(number)s", number=t), "4.3.1").of_seat(0 if melds[0] else 1)
    entry = {"winner": None if form.winner.data == "" else int(form.winner.data), "melds": melds}
    if t > len(tricks):
        tricks.append(entry)
    else:
        tricks[t - 1] = entry
    bela = hand.get("bela")
    if form.bela.data:
        if bela and bela["trick"] != t:
            raise RuleViolation(
                "bela.twice", T("Béla was already declared in trick %(number)s: at most "
                                "one béla per hand", number=bela['trick']), "4.7")
        if t > MELD_TRICKS:
            raise RuleViolation("bela.window", T("Béla may be declared only until trick 8 "
                                                 "is complete"), "4.7")
        hand["bela"] = {"player": int(form.bela.data), "trick": t}
    elif bela and bela["trick"] == t:
        hand["bela"] = None
    exchange = hand.get("exchange")
    if form.exchange.data:
        if exchange and exchange != t:
            raise RuleViolation("exchange.twice", T(
                "The trump 7 was already exchanged before trick %(number)s: at most once",
                number=exchange), "2.8")
        if t > EXCHANGE_TRICKS:
            raise RuleViolation("exchange.window", T(
                "The trump 7 may be exchanged only before tricks 1–7"), "2.8")
        hand["exchange"] = t
    elif exchange == t:
        hand["exchange"] = None
    return hands


def _played_end(form: Any) -> dict[str, Any]:
    """The end of a played-out hand (6.1.5): one pile typed, the other 151 minus it (6.3.1)."""
    piles = [0, 0]
    who = int(form.pile_player.data or 0)
    piles[who] = form.pile.data
    piles[1 - who] = PILES_TOTAL - form.pile.data
    stich = form.stichmatsch.data
    return {"kind": "played", "piles": piles, "last": int(form.last.data),
            "stichmatsch": None if stich == "" else int(stich)}


def apply_finish(ctx: ActionContext, form: Any) -> list[dict[str, Any]]:
    hands = ctx.hands()
    _hand(ctx, hands)["end"] = _played_end(form)
    return hands


def apply_claim(ctx: ActionContext, form: Any) -> list[dict[str, Any]]:
    hands = ctx.hands()
    hand = _hand(ctx, hands)
    hand["end"] = {"kind": "claim", "claimant": int(form.claimant.data),
                   "completed": form.completed.data, "step7": bool(form.step7.data),
                   "piles": [form.pile_0.data, form.pile_1.data]}
    return hands


def apply_decider(ctx: ActionContext, form: Any) -> list[dict[str, Any]]:
    hands = ctx.hands()
    end = {"kind": "decider", "first": int(form.first.data)}
    if ctx.hand > len(hands):
        hands.append({"dealer": _dealer(ctx, form), "indicator": None, "tricks": [], "end": end})
    else:
        _hand(ctx, hands).update(dealer=_dealer(ctx, form), end=end)
    return hands


def _next_trick(tricks: list[dict[str, Any]]) -> int:
    """The trick the table is playing: an unfinished one, else the one after the last."""
    if tricks and tricks[-1].get("winner") is None:
        return len(tricks)
    return min(len(tricks) + 1, TRICKS)


class TartliWeb(WebGame):
    game = GAME
    editor_template = "games/tartli/_editor.html"
    new_template = "games/tartli/new.html"
    player_fields = ("player_a", "player_b")
    refusal_fields = {       # errors at the field (issue 11, item 4)
        "indicator": {"fact.indicator": "indicator", "cards.indicator": "indicator",
                      "piles": "pile", "end.stichmatsch": "stichmatsch"},   # or "played"
        "trick": {"meld.conceded-and-cards": "conceded_{seat}", "meld": "cards_{seat}",
                  # a conceded announcement refused in the contest (6.1.4): its player's
                  "meld.conceded-both": "conceded_0 conceded_1",
                  "meld.conceded-cannot-lose": "conceded_{seat}",
                  "meld.conceded-wins": "conceded_{seat}",
                  "bela": "bela", "exchange": "exchange"},
        "finish": {"piles": "pile", "end.stichmatsch": "stichmatsch"},
        # a pile no cards make: that player's; piles that cannot go together: both
        "claim": {"claim.after": "completed", "piles": "pile_{seat}|pile_0 pile_1"},
    }

    def refused_field(self, form: str, violation: RuleViolation) -> str | None:
        # A meld the fold refuses in another trick than the one posted is not on this form:
        # said at the top only.
        posted = (request.view_args or {}).get("trick")
        if form == "trick" and violation.trick is not None and violation.trick != posted:
            return None
        return super().refused_field(form, violation)
    actions = {
        "indicator": Action("indicator", apply_indicator, T("Trump indicator"),
                            T("trump indicator")),
        "trick": Action("trick", apply_trick, T("Trick"), T("trick"), per_trick=True,
                        verb_of=_trick_verb),
        "finish": Action("finish", apply_finish, T("Hand finished"), T("hand finished")),
        # the start form's "Score the hand": the indicator form with the finish facts
        "played": Action("indicator", apply_played, T("Hand scored"), T("hand scored")),
        "claim": Action("claim", apply_claim, T("Claim of 501"), T("claim of 501")),
        "decider": Action("decider", apply_decider, T("Decider hand"), T("decider hand")),
    }

    def new_form(self) -> FlaskForm:
        return NewMatchForm()

    def settings_from(self, form: Any) -> dict[str, Any]:
        return {
            "players": [form.player_a.data, form.player_b.data],
            "target": int(form.target.data),
            "first_dealer": int(form.first_dealer.data),
        }

    form_classes = FORMS

    def with_choices(self, form: FlaskForm, ctx: ActionContext) -> FlaskForm:
        names = ctx.names
        for field in form:
            if field.type == "RadioField" and field.choices == PLAYER:
                field.choices = [("0", names[0]), ("1", names[1])]
            elif field.type == "SelectField" and field.name.endswith(("bela", "winner",
                                                                      "stichmatsch")):
                field.choices = [field.choices[0], ("0", names[0]), ("1", names[1])]
        return form

    def valid_trick(self, hand: dict[str, Any], trick: int) -> bool:
        return 1 <= trick <= _next_trick(hand.get("tricks") or [])

    def form_data(self, ctx: ActionContext) -> dict[str, dict[str, Any]]:
        hand = ctx.facts
        data: dict[str, dict[str, Any]] = {name: {} for name in FORMS}
        data["claim"]["completed"] = 0
        data["indicator"]["dealer"] = data["decider"]["dealer"] = str(ctx.dealer())
        if hand is not None:
            tricks = hand.get("tricks") or []
            recorded = sum(1 for t in tricks if t.get("winner") is not None)
            data["indicator"]["indicator"] = hand.get("indicator")
            data["claim"]["completed"] = recorded
            t = ctx.trick or _next_trick(tricks)
            if 1 <= t <= len(tricks):
                trick = tricks[t - 1]
                for player in (0, 1):
                    items = trick["melds"][player]
                    conceded = [m for m in items if "?" in m]
                    data["trick"][f"conceded_{player}"] = conceded[0] if conceded else ""
                    cards: set[str] = set()
                    for meld in parse_hand({"indicator": "7h", "tricks": [
                        {"winner": None, "melds": [items, []]}]}).tricks[0].melds[0]:
                        if not isinstance(meld, Conceded):
                            cards |= {str(c) for c in meld.cards}
                    data["trick"][f"cards_{player}"] = sorted(cards)
                winner = trick.get("winner")
                data["trick"]["winner"] = "" if winner is None else str(winner)
            bela = hand.get("bela")
            if bela and bela["trick"] == t:
                data["trick"]["bela"] = str(bela["player"])
            data["trick"]["exchange"] = hand.get("exchange") == t
            end = hand.get("end") or {}
            if end.get("kind") == "played":
                data["finish"] = {"pile_player": "0", "pile": end["piles"][0],
                                  "last": str(end["last"]),
                                  "stichmatsch": "" if end["stichmatsch"] is None
                                  else str(end["stichmatsch"])}
            elif end.get("kind") == "claim":
                data["claim"] = {"claimant": str(end["claimant"]),
                                 "completed": end["completed"], "step7": end["step7"],
                                 "pile_0": end["piles"][0], "pile_1": end["piles"][1]}
            elif end.get("kind") == "decider":
                data["decider"]["first"] = str(end["first"])
            if len(tricks) == TRICKS and all(t.get("winner") is not None for t in tricks):
                data["finish"].setdefault("last", str(tricks[-1]["winner"]))
        return data

    def editor(self, ctx: ActionContext) -> dict[str, Any]:
        hand, outcome, dealer = ctx.facts, ctx.outcome, ctx.dealer()
        tricks = (hand or {}).get("tricks") or []
        leaders: list[int | None] = [1 - dealer] + [t.get("winner") for t in tricks]
        return {
            "hand": hand, "outcome": outcome, "tricks": tricks, "dealer": dealer,
            "leaders": leaders, "next_trick": _next_trick(tricks),
            "all_tricks": len(tricks) >= TRICKS and tricks[-1].get("winner") is not None,
            "meld_tricks": MELD_TRICKS, "exchange_tricks": EXCHANGE_TRICKS,
            "verdicts": {v.number: v for v in (outcome.detail.get("verdicts", [])
                                               if outcome else [])},
            "deck": HUNGARIAN, "decider_due": ctx.result.standing.next_hand == "decider",
        }
