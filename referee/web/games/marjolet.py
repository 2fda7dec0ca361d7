"""Marjolet at the table: melds after won tricks, the trump seven, the race to 500."""

from __future__ import annotations

from functools import partial
from typing import Any

from flask import request, session
from flask_babel import lazy_pgettext, pgettext
from flask_wtf import FlaskForm
from werkzeug.datastructures import MultiDict
from wtforms import BooleanField, RadioField, SelectField, SelectMultipleField, StringField
from wtforms.validators import AnyOf, Length, NumberRange, Optional

from ...engine.cards import FRENCH
from ...engine.errors import RuleViolation
from ...engine.games.marjolet import GAME, recognize, rules_of
from ...engine.games.marjolet.melds import parse_meld
from ...engine.games.marjolet.values import (
    BRISQUES_TOTAL,
    MELD_TRICKS,
    SWITCH_TITLES,
    SWITCHES,
    TRICKS,
)
from ...engine.words import T
from ..extensions import htmx
from ..forms.fields import WholeNumber, chosen_seat
from .base import Action, ActionContext, FormInvalid, InputRequired, WebGame, spoken

CARDS = [(str(card), FRENCH.short_name(card)) for card in FRENCH.cards]
PLAYER = [("0", "0"), ("1", "1")]
EXCHANGED = "exchanged"       # the Finish's answer for a trump 7 exchanged in a recorded turn


def _meld_name(turnup: object, meld: object) -> str:
    """A stored meld in words (``four:K`` → "four kings"), as the table says it."""
    try:
        return parse_meld(meld, FRENCH.parse(turnup).suit).name
    except RuleViolation:
        return pgettext("marjolet", "a meld the rules do not know")


class NewGameForm(FlaskForm):
    player_a = StringField(lazy_pgettext("marjolet", "First player"),
                           [InputRequired(), Length(max=40)])
    player_b = StringField(lazy_pgettext("marjolet", "Second player"),
                           [InputRequired(), Length(max=40)])
    target = RadioField(lazy_pgettext("marjolet", "Game to"), default="500",
                        validators=[InputRequired()], choices=[
                            ("500", "500"), ("1000", lazy_pgettext("marjolet", "1000 (variant)"))])
    first_dealer = RadioField(lazy_pgettext("marjolet", "First dealer"), default="0",
                              validators=[InputRequired()], choices=[
                                  ("0", lazy_pgettext("marjolet", "First player")),
                                  ("1", lazy_pgettext("marjolet", "Second player"))])
    rules = RadioField(lazy_pgettext("marjolet", "Rule set"), default="default",
                       validators=[InputRequired()], choices=[
        ("default", lazy_pgettext("marjolet", "Default (the seed's values)")),
        ("traditional", lazy_pgettext("marjolet", "Traditional (all four switches below on)")),
        ("custom", lazy_pgettext("marjolet", "Custom: the switches below as ticked"))])


def _add_switches(form: type[FlaskForm]) -> None:
    """One visible box per variant of rules section 8."""
    for switch in SWITCHES:
        setattr(form, switch, BooleanField(spoken(SWITCH_TITLES[switch])))


_add_switches(NewGameForm)


class TurnupForm(FlaskForm):
    turnup = RadioField(lazy_pgettext("marjolet", "Turn-up"), choices=CARDS,
                        validators=[InputRequired(lazy_pgettext(
                            "marjolet", "Pick the turn-up card (rule 2.2)"))])
    # Who dealt (6.1.1), pre-set to the stored dealer or the app's proposal; a post without it
    # keeps the dealer as stored (a new deal: the proposal).
    dealer = RadioField(lazy_pgettext("marjolet", "Dealer"), choices=PLAYER,
                        validate_choice=False, validators=[Optional(), AnyOf(
                            ("0", "1"), lazy_pgettext(
                                "marjolet", "The dealer is one of the two players (rule 6.1.1)"))])


class TurnForm(FlaskForm):
    trick = WholeNumber(lazy_pgettext("marjolet", "After trick"), [
        InputRequired(lazy_pgettext("marjolet", "After which trick (1–10)?")),
        NumberRange(1, MELD_TRICKS, lazy_pgettext(
            "marjolet", "Melds only after tricks 1–10 (rule 4.2.1)"))])
    winner = RadioField(lazy_pgettext("marjolet", "Won by"), choices=PLAYER,
                        validators=[InputRequired(lazy_pgettext(
                            "marjolet", "Who won the trick? (rule 4.2.1)"))])
    cards = SelectMultipleField(lazy_pgettext("marjolet", "Meld: tap its cards"), choices=CARDS,
                                validators=[Optional()])
    exchange = BooleanField(lazy_pgettext("marjolet", "Exchanged the trump 7 in this turn"))


class UnmeldForm(FlaskForm):
    trick = WholeNumber(lazy_pgettext("marjolet", "Trick"),
                        [InputRequired(), NumberRange(1, MELD_TRICKS)])
    player = RadioField(lazy_pgettext("marjolet", "Player"), choices=PLAYER,
                        validators=[InputRequired()])
    index = WholeNumber(lazy_pgettext("marjolet", "Meld"), [InputRequired(), NumberRange(0, 20)])


class SevenForm(FlaskForm):
    player = SelectField(lazy_pgettext("marjolet", "Trump 7 played (never exchanged) by"),
                         default="",
                         choices=[("", lazy_pgettext("marjolet", "nobody / not yet"))] + PLAYER)
    trick = WholeNumber(lazy_pgettext("marjolet", "in trick (optional)"),
                        [Optional(), NumberRange(1, 16)])


class FinishForm(FlaskForm):
    brisques_player = RadioField(lazy_pgettext("marjolet", "Aces and tens of"), choices=PLAYER,
                                 default="0", validators=[InputRequired()])
    brisques = WholeNumber(lazy_pgettext("marjolet", "Points in aces and tens"), [
        InputRequired(lazy_pgettext("marjolet", "Enter one player's points in aces and tens")),
        NumberRange(0, BRISQUES_TOTAL, lazy_pgettext(
            "marjolet", "Aces and tens are worth 0 to 80 (rule 3)"))])
    trick10 = RadioField(lazy_pgettext("marjolet", "Trick 10 won by"), choices=PLAYER,
                         validators=[InputRequired(lazy_pgettext(
                             "marjolet", "Who won trick 10? (rule 5)"))])
    last = RadioField(lazy_pgettext("marjolet", "Last trick won by"), choices=PLAYER,
                      validators=[InputRequired(lazy_pgettext(
                          "marjolet", "Who won the last trick? (rule 5)"))])
    sweep = SelectField(lazy_pgettext("marjolet", "All of tricks 11–16 (sweep)"), default="",
                        choices=[("", lazy_pgettext("marjolet", "no"))] + PLAYER)
    # The fate of the trump 7 (rules 3 and 6.1.5), asked here unless it is the turn-up: who
    # played it, or, once an exchange is recorded, "exchanged" (then offered and pre-selected);
    # left empty, a fate already recorded stands.
    seven = RadioField(lazy_pgettext("marjolet", "Trump 7 played by"), choices=PLAYER,
                       validate_choice=False, validators=[
                           Optional(), AnyOf(("0", "1", EXCHANGED), lazy_pgettext(
                               "marjolet", "The trump 7 is played by one of the two players, or "
                               "exchanged (rule 3)"))])
    seven_trick = WholeNumber(lazy_pgettext("marjolet", "in trick (optional)"),
                              [Optional(), NumberRange(1, TRICKS)])


class WinnersForm(FlaskForm):
    """For stricter checks: the winner of every trick (rules 6.1.2)."""


for _t in range(1, TRICKS + 1):
    setattr(WinnersForm, f"w_{_t}", SelectField(str(_t), choices=[("", "?")] + PLAYER,
                                                default=""))


FORMS: dict[str, type[FlaskForm]] = {
    "turnup": TurnupForm, "turn": TurnForm, "unmeld": UnmeldForm, "seven": SevenForm,
    "finish": FinishForm, "winners": WinnersForm,
}


def _deal(ctx: ActionContext, hands: list[dict[str, Any]]) -> dict[str, Any]:
    if ctx.hand > len(hands):
        raise RuleViolation("deal.none", T("Start the deal first: pick the turn-up card"), "2.2")
    return hands[ctx.hand - 1]


def _trick(deal: dict[str, Any], number: int) -> dict[str, Any]:
    tricks = deal.setdefault("tricks", [])
    while len(tricks) < number:
        tricks.append({"winner": None, "exchange": None, "melds": [[], []]})
    trick: dict[str, Any] = tricks[number - 1]
    trick.setdefault("melds", [[], []])
    return trick


def apply_turnup(ctx: ActionContext, form: Any) -> list[dict[str, Any]]:
    hands = ctx.hands()
    seat = chosen_seat(form.dealer)
    dealer = ctx.dealer() if seat is None else seat
    if ctx.hand > len(hands):
        if ctx.result.draft is not None:
            raise RuleViolation("deal.open", T("Finish the deal in progress first"), "6.1")
        hands.append({"dealer": dealer, "turnup": form.turnup.data, "tricks": [],
                      "seven_played": None, "end": None})
    else:
        deal = _deal(ctx, hands)
        deal["dealer"] = dealer
        # Melds are written relative to trumps (the marjolet is the trump jack): keep the
        # cards that were shown, so the engine judges those cards under the new trumps.
        old = FRENCH.parse(deal["turnup"]).suit
        for trick in deal.get("tricks") or []:
            trick["melds"] = [
                [sorted(str(c) for c in parse_meld(m, old).cards) for m in side]
                for side in trick.get("melds") or [[], []]
            ]
        deal["turnup"] = form.turnup.data
    return hands


def apply_turn(ctx: ActionContext, form: Any) -> list[dict[str, Any]]:
    hands = ctx.hands()
    deal = _deal(ctx, hands)
    winner = int(form.winner.data)
    trick = _trick(deal, form.trick.data)
    if trick.get("winner") is None:
        trick["winner"] = winner       # a recorded winner stays: the engine judges the turn
    if form.cards.data:
        rules = rules_of(ctx.match.settings)
        trumps = FRENCH.parse(deal["turnup"]).suit
        meld = recognize(FRENCH.parse_many(form.cards.data), trumps, rules)
        trick["melds"][winner].append(str(meld))
    if form.exchange.data:
        trick["exchange"] = winner
        # The table says the trump 7 was exchanged: then nobody played it for a bonus (rule
        # 4.4.3); an earlier "played by" answer is replaced, not a reason to refuse the turn.
        deal["seven_played"] = None
    elif not form.cards.data and trick.get("exchange") == winner:
        trick["exchange"] = None           # the same turn saved again without the exchange
    return hands


def apply_unmeld(ctx: ActionContext, form: Any) -> list[dict[str, Any]]:
    hands = ctx.hands()
    tricks = _deal(ctx, hands).get("tricks") or []
    melds = tricks[form.trick.data - 1]["melds"][int(form.player.data)] \
        if form.trick.data <= len(tricks) else []
    if form.index.data >= len(melds):
        raise RuleViolation("meld.none", T("There is no such meld to remove"), "6.1")
    del melds[form.index.data]
    return hands


def apply_seven(ctx: ActionContext, form: Any) -> list[dict[str, Any]]:
    hands = ctx.hands()
    deal = _deal(ctx, hands)
    deal["seven_played"] = None if form.player.data == "" else {
        "player": int(form.player.data), "trick": form.trick.data}
    return hands


def apply_finish(ctx: ActionContext, form: Any) -> list[dict[str, Any]]:
    hands = ctx.hands()
    deal = _deal(ctx, hands)
    brisques: list[int | None] = [None, None]
    brisques[int(form.brisques_player.data)] = form.brisques.data
    if form.seven.data in ("0", "1"):
        deal["seven_played"] = {"player": int(form.seven.data), "trick": form.seven_trick.data}
        # The table says the trump 7 was played, not exchanged: a recorded exchange goes
        # (rule 3: one fate only), as "exchanged" replaces "played" in a turn.
        for trick in deal.get("tricks") or []:
            trick["exchange"] = None
    elif form.seven.data == EXCHANGED and not _exchange(deal):
        raise RuleViolation("seven.exchange", T("Record the exchange of the trump 7 in the turn "
                                              "it was made: after which trick, and by whom"),
                            "6.1.4")
    deal["end"] = {"brisques": brisques, "trick10": int(form.trick10.data),
                   "last": int(form.last.data),
                   "sweep": None if form.sweep.data == "" else int(form.sweep.data)}
    return hands


def apply_winners(ctx: ActionContext, form: Any) -> list[dict[str, Any]]:
    hands = ctx.hands()
    deal = _deal(ctx, hands)
    given = [form[f"w_{t}"].data for t in range(1, TRICKS + 1)]
    last = max((t for t, w in enumerate(given, 1) if w != ""), default=0)
    recorded = len(deal.get("tricks") or [])
    for t in range(1, max(last, recorded) + 1):
        _trick(deal, t)["winner"] = None if given[t - 1] == "" else int(given[t - 1])
    return hands


def _exchange(deal: dict[str, Any] | None) -> tuple[int, int] | None:
    """The recorded exchange of the trump 7 as (trick, player), if any."""
    for number, trick in enumerate((deal or {}).get("tricks") or [], 1):
        if trick.get("exchange") in (0, 1):
            return number, trick["exchange"]
    return None


def _turned_up(deal: dict[str, Any] | None, ctx: ActionContext) -> str | None:
    """When the turn-up is the trump 7 (rule 3: then its only fate), that in words."""
    raw = (deal or {}).get("turnup")
    try:
        turnup = FRENCH.parse(raw) if isinstance(raw, str) else None
    except (RuleViolation, ValueError):
        return None
    if turnup is None:
        return None
    if turnup.rank != "7":
        return None
    return pgettext("marjolet", "The trump 7 is the turn-up: %(dealer)s, the dealer, scores it.",
                    dealer=ctx.names[ctx.dealer()])


EDITOR_FIELDS = frozenset(
    f"{name}-{field}" for name, cls in FORMS.items() for field in dir(cls)
    if not field.startswith("_") and hasattr(getattr(cls, field), "field_class")
    and field != "csrf_token")


# The editor's sections are one form: each section's button saves its own section, and the
# others' unsaved values travel with it and are shown again (rule 6.1: the table enters the
# facts in any order). With htmx the answer is rendered from the same request; without
# JavaScript the answer is a redirect, so they wait in the session for the page it loads.
UNSAVED = "marjolet-unsaved"


def _unsaved(ctx: ActionContext) -> tuple[str | None, MultiDict[str, str] | None]:
    """The section this request saves, and the values typed in the editor of hand
    ``ctx.hand`` that are not saved (None when there are none to show again)."""
    args = request.view_args or {}
    if request.endpoint == "matches.hand_action":
        if UNSAVED in session:
            del session[UNSAVED]              # shown by this answer: none to keep for later
        if args.get("hand") != ctx.hand:      # finished: the next deal starts afresh
            return None, None
        return MarjoletWeb.actions[args["action"]].form, request.form.copy()
    if request.endpoint not in ("matches.match", "matches.edit_hand"):
        return None, None
    kept = session.pop(UNSAVED) if UNSAVED in session else None
    if not (isinstance(kept, dict) and kept.get("match") == args.get("match_id")
            and kept.get("hand") == ctx.hand and isinstance(kept.get("values"), list)):
        return None, None
    values = MultiDict([(str(k), str(v)) for k, v in kept["values"]])
    return kept.get("form"), values


# A meld's remove button is a submit button of the deal's form (so that what is typed in its
# sections travels along, without JavaScript too): its one value names the meld,
# "<trick>-<player>-<index>", read as the three fields of the remove form.
MELD_BUTTON = "unmeld-meld"


def _meld_named() -> MultiDict[str, str]:
    """The request's values, with the meld the remove button names as the remove form's
    fields (a value of fewer parts leaves some out: the form asks for them)."""
    values = request.form.copy()
    parts = request.form[MELD_BUTTON].split("-", 2)
    for field, part in zip(("trick", "player", "index"), parts, strict=False):
        values[f"unmeld-{field}"] = part
    return values


class MarjoletWeb(WebGame):
    game = GAME
    editor_template = "games/marjolet/_editor.html"
    new_template = "games/marjolet/new.html"
    player_fields = ("player_a", "player_b")
    refusal_fields = {       # errors at the field (issue 11, item 4)
        "turnup": {"fact.turnup": "turnup", "cards.turnup": "turnup"},
        "turn": {"meld.window": "trick", "meld.loser": "winner", "meld": "cards",
                 "cards.both": "cards", "exchange": "exchange"},
        "seven": {"seven": "player"},
        "finish": {"brisques": "brisques", "fact.brisques": "brisques", "end.sweep": "sweep"},
    }
    form_classes = FORMS
    actions = {
        "turnup": Action("turnup", apply_turnup, T("Turn-up"), T("turn-up")),
        "turn": Action("turn", apply_turn, T("Turn"), T("turn")),
        "unmeld": Action("unmeld", apply_unmeld, T("Meld removed"), T("meld removed")),
        "seven": Action("seven", apply_seven, T("Trump 7 played"), T("trump 7 played")),
        "finish": Action("finish", apply_finish, T("Deal finished"), T("deal finished")),
        "winners": Action("winners", apply_winners, T("Trick winners"), T("trick winners")),
    }

    def new_form(self) -> FlaskForm:
        return NewGameForm()

    def settings_from(self, form: Any) -> dict[str, Any]:
        settings: dict[str, Any] = {
            "players": [form.player_a.data, form.player_b.data],
            "target": int(form.target.data), "first_dealer": int(form.first_dealer.data),
            "rules": form.rules.data,
        }
        ticked = {switch: bool(form[switch].data) for switch in SWITCHES}
        if form.rules.data == "custom" or any(ticked.values()):
            settings.update(ticked)    # with a preset, the engine checks they agree
        return settings

    def with_choices(self, form: FlaskForm, ctx: ActionContext) -> FlaskForm:
        names = ctx.names
        for field in form:
            if field.type in ("RadioField", "SelectField") and field.choices[-2:] == PLAYER:
                field.choices = field.choices[:-2] + [("0", names[0]), ("1", names[1])]
        if isinstance(form, FinishForm) and (exchange := _exchange(ctx.facts)):
            number, player = exchange
            form.seven.choices = [*form.seven.choices, (
                EXCHANGED, pgettext(
                    "marjolet", "nobody: %(player)s exchanged it after trick %(number)s",
                    player=names[player], number=number))]
        return form

    def forms(self, ctx: ActionContext) -> dict[str, FlaskForm]:
        """Fresh forms, but for a section saved from the editor, the other sections keep what
        was typed in them and not saved."""
        forms = super().forms(ctx)
        saved, values = _unsaved(ctx)
        if values is None:
            return forms
        self.typed_sections(ctx, forms, [n for n in self.form_classes if n != "unmeld"], saved,
                            values)
        if saved == "turn" and _exchange(ctx.facts):
            forms["finish"].seven.data = EXCHANGED       # the turn just told it
        return forms

    def refuse_unrecorded(self, action: str, ctx: ActionContext) -> None:
        """The deal is not scored while the turn section holds a meld's cards or the
        exchange, picked and not recorded (rule 6.1: the table records the melds of each turn):
        refused at that field, everything typed kept."""
        if action != "finish":
            return
        turn = self.with_choices(TurnForm(prefix="turn"), ctx)
        if turn.cards.data:
            names = dict(CARDS)
            picked = " ".join(names[c] for c in turn.cards.data if c in names)
            field, message = turn.cards, (pgettext(
                "marjolet", "%(cards)s picked but not recorded: tap Record the turn, or clear "
                "them", cards=picked) if picked else pgettext(
                "marjolet", "Cards picked but not recorded: tap Record the turn, or clear them"))
        elif turn.exchange.data:
            field, message = turn.exchange, pgettext(
                "marjolet", "The exchange of the trump 7 is ticked but not recorded: tap Record "
                "the turn, or untick it")
        else:
            return
        field.errors = [*field.errors, message]
        raise FormInvalid("turn", turn)

    def bound_form(self, name: str, ctx: ActionContext) -> FlaskForm:
        # only the editor's own fields, and values as short as the editor's: the session
        # cookie carries them (and a browser drops a cookie past 4 kB)
        values = [(k, v) for k, v in request.form.items(multi=True)
                  if k in EDITOR_FIELDS and not k.startswith(f"{name}-") and len(v) <= 8]
        if not htmx and values:
            session[UNSAVED] = {"match": (request.view_args or {}).get("match_id"),
                                "hand": ctx.hand, "form": name, "values": values}
        if name == "unmeld" and MELD_BUTTON in request.form:
            return self.with_choices(UnmeldForm(prefix=name, formdata=_meld_named()), ctx)
        return super().bound_form(name, ctx)

    def form_data(self, ctx: ActionContext) -> dict[str, dict[str, Any]]:
        deal = ctx.facts
        data: dict[str, dict[str, Any]] = {name: {} for name in FORMS}
        data["turnup"]["dealer"] = str(ctx.dealer())
        if deal is None:
            return data
        data["turnup"]["turnup"] = deal.get("turnup")
        tricks = deal.get("tricks") or []
        data["turn"]["trick"] = min(len(tricks) + 1, MELD_TRICKS)
        data["winners"] = {
            f"w_{t}": "" if trick.get("winner") is None else str(trick["winner"])
            for t, trick in enumerate(tricks, 1)
        }
        seven = deal.get("seven_played")
        if seven:
            data["seven"] = {"player": str(seven["player"]), "trick": seven.get("trick")}
            data["finish"] |= {"seven": str(seven["player"]), "seven_trick": seven.get("trick")}
        elif _exchange(deal):
            data["finish"]["seven"] = EXCHANGED
        end = deal.get("end")
        if end:
            given = 0 if end["brisques"][0] is not None else 1
            data["finish"] |= {
                "brisques_player": str(given), "brisques": end["brisques"][given],
                "trick10": str(end["trick10"]), "last": str(end["last"]),
                "sweep": "" if end.get("sweep") is None else str(end["sweep"]),
            }
        else:
            # the winners of tricks 10 and 16 as the table recorded them (rule 6.1.2)
            for key, number in (("trick10", MELD_TRICKS), ("last", TRICKS)):
                if len(tricks) >= number and tricks[number - 1].get("winner") is not None:
                    data["finish"][key] = str(tricks[number - 1]["winner"])
        return data

    def editor(self, ctx: ActionContext) -> dict[str, Any]:
        deal, outcome = ctx.facts, ctx.outcome
        score = outcome.detail.get("score") if outcome else None
        return {
            "deal": deal, "outcome": outcome, "deck": FRENCH,
            "seven_turned_up": _turned_up(deal, ctx),
            "exchange": _exchange(deal),
            "dealer": ctx.dealer(),
            "declared": score.declared if score else [],
            "meld_name": partial(_meld_name, (deal or {}).get("turnup")),
            "turns": [
                (number, trick) for number, trick in enumerate((deal or {}).get("tricks") or [], 1)
                if trick.get("exchange") is not None or any(trick.get("melds") or [[], []])
            ],
        }
