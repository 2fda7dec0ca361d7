"""Stovkahra at the table: a series of games to 100 between two teams of two."""

from __future__ import annotations

from functools import partial
from typing import Any

from flask import request
from flask_babel import LazyString, gettext, lazy_pgettext, pgettext
from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    RadioField,
    SelectField,
    SelectMultipleField,
    StringField,
)
from wtforms.validators import Length, NumberRange, Optional

from ...engine.cards import FRENCH
from ...engine.errors import RuleViolation
from ...engine.games.stovkahra import GAME
from ...engine.games.stovkahra.values import COMBINATION_NAMES
from ...engine.words import T
from ...scoresheet.stovkahra import combination_words as _combination_words
from ..forms.fields import WholeNumber, chosen_seat
from ..languages import say
from .base import Action, ActionContext, FormInvalid, InputRequired, WebGame

CARDS = [(str(card), FRENCH.short_name(card)) for card in FRENCH.cards]
SEATS = [("0", "N"), ("1", "E"), ("2", "S"), ("3", "W")]
TEAMS = [("0", "NS"), ("1", "EW")]
RANKS = [("", "—"), ("A", lazy_pgettext("stovkahra", "aces")),
         ("K", lazy_pgettext("stovkahra", "kings")),
         ("Q", lazy_pgettext("stovkahra", "queens")), ("J", lazy_pgettext("stovkahra", "jacks")),
         ("10", lazy_pgettext("stovkahra", "tens")), ("7", lazy_pgettext("stovkahra", "sevens")),
         ("9", lazy_pgettext("stovkahra", "nines")), ("8", lazy_pgettext("stovkahra", "eights"))]
SEVEN_TEAM = [("", "—")] + TEAMS
DEAL_POINTS = 72
LAST_SEVEN_TRICK = 8
CARD_POINTS = lazy_pgettext("stovkahra", "Card points")


def _suit_choice(suit: str) -> LazyString:
    """A suit to choose: its symbol and its name (the pack's word) in the request's language:
    "♣ clubs"."""
    return LazyString(lambda: f"{FRENCH.suit_symbols[suit]} {say(FRENCH.suit_names[suit])}")


def _name(label: Any) -> StringField:
    return StringField(label, [InputRequired(), Length(max=40)])


class NewSeriesForm(FlaskForm):
    north = _name(lazy_pgettext("stovkahra", "North"))
    east = _name(lazy_pgettext("stovkahra", "East"))
    south = _name(lazy_pgettext("stovkahra", "South"))
    west = _name(lazy_pgettext("stovkahra", "West"))
    team_ns = StringField(lazy_pgettext("stovkahra", "Team North–South"),
                          [Optional(), Length(max=40)])
    team_ew = StringField(lazy_pgettext("stovkahra", "Team East–West"),
                          [Optional(), Length(max=40)])
    target = WholeNumber(lazy_pgettext("stovkahra", "Series to (matchsticks)"),
                         [InputRequired(), NumberRange(1, 50)], default=10)
    # Each seat said by its name once typed (templates/games/stovkahra/new.html), else by
    # where it sits: never a seat letter.
    first_dealer = RadioField(lazy_pgettext("stovkahra", "First dealer"), choices=[
        ("0", lazy_pgettext("stovkahra", "North")), ("1", lazy_pgettext("stovkahra", "East")),
        ("2", lazy_pgettext("stovkahra", "South")), ("3", lazy_pgettext("stovkahra", "West"))],
        default="3", validators=[InputRequired()])
    continue_to_20 = BooleanField(lazy_pgettext(
        "stovkahra", "Continue to 20 when a team reaches 10 (rules 8)"))
    german_letters = BooleanField(lazy_pgettext("stovkahra", "German letters O/U for Q/J"))
    shuffle_reminder = RadioField(
        lazy_pgettext("stovkahra", "Shuffle reminder"), default="each game",
        validators=[InputRequired()],
        choices=[("each game", lazy_pgettext("stovkahra", "before each game")),
                 ("first deal", lazy_pgettext("stovkahra", "only before the first deal"))],
    )


class StartForm(FlaskForm):
    # Not posted (a client without the field): the proposed dealer, or the one recorded.
    dealer = RadioField(lazy_pgettext("stovkahra", "Dealt by"), choices=SEATS,
                        validators=[Optional()])
    trumps = RadioField(lazy_pgettext("stovkahra", "Trumps (optional)"), default="",
                        validators=[Optional()],
                        choices=[("", lazy_pgettext("stovkahra", "not recorded"))] + [
                            (s, _suit_choice(s)) for s in FRENCH.suits])


class CombinationForm(FlaskForm):
    seat = RadioField(lazy_pgettext("stovkahra", "Declared by"), choices=SEATS,
                      validators=[InputRequired(lazy_pgettext(
                          "stovkahra", "Who declared the combination?"))])
    cards = SelectMultipleField(lazy_pgettext("stovkahra", "Cards shown"), choices=CARDS,
                                validators=[Optional()])
    rank = SelectField(lazy_pgettext("stovkahra", "Or say: rank"), choices=RANKS, default="")
    count = SelectField(lazy_pgettext("stovkahra", "how many"), default="", choices=[
        ("", "—"), ("3", lazy_pgettext("stovkahra", "three")),
        ("4", lazy_pgettext("stovkahra", "four"))])


class RemoveForm(FlaskForm):
    index = WholeNumber(lazy_pgettext("stovkahra", "Combination"),
                        [InputRequired(), NumberRange(0, 63)])


class FinishForm(FlaskForm):
    points_team = RadioField(lazy_pgettext("stovkahra", "Card points of"), choices=TEAMS,
                             default="0", validators=[InputRequired()])
    points = WholeNumber(CARD_POINTS, [
        InputRequired(lazy_pgettext("stovkahra", "Enter one team's card points")),
        NumberRange(0, DEAL_POINTS, lazy_pgettext(
            "stovkahra", "A team takes 0 to 72 card points (rule 3)"))])
    tricks = WholeNumber(lazy_pgettext("stovkahra", "Tricks of that team (optional)"),
                         [Optional(), NumberRange(0, 8)])
    last = RadioField(lazy_pgettext("stovkahra", "Last trick won by"), choices=TEAMS,
                      validators=[InputRequired(lazy_pgettext(
                          "stovkahra", "Which team won the last trick? (rule 5)"))])


class DostForm(FlaskForm):
    caller = RadioField(lazy_pgettext("stovkahra", "Called by"), choices=SEATS,
                        validators=[InputRequired(lazy_pgettext("stovkahra", "Who called?"))])
    after = SelectField(lazy_pgettext("stovkahra", "When"), default="1", choices=[
        ("0", lazy_pgettext("stovkahra", "right after the caller's own combination"))] + [
        (str(t), lazy_pgettext("stovkahra", "on winning trick %(number)s", number=t))
        for t in range(1, 8)])
    trick_winner = SelectField(lazy_pgettext("stovkahra", "Trick won by"),
                               choices=[("", "—")] + SEATS, default="")
    # Required after a trick (6.1), checked in apply_dost; right after a declaration: 0.
    points_0 = WholeNumber(CARD_POINTS, [Optional(), NumberRange(0, DEAL_POINTS)])
    points_1 = WholeNumber(CARD_POINTS, [Optional(), NumberRange(0, DEAL_POINTS)])
    tricks_0 = WholeNumber(lazy_pgettext("stovkahra", "Tricks"), [Optional(), NumberRange(0, 7)])
    tricks_1 = WholeNumber(lazy_pgettext("stovkahra", "Tricks"), [Optional(), NumberRange(0, 7)])


def _add_sevens(form: type[FlaskForm], tricks: int) -> None:
    """One "won with a seven by" choice per trick (rule 5)."""
    for t in range(1, tricks + 1):
        setattr(form, f"seven_{t}", SelectField(
            lazy_pgettext("stovkahra", "Trick %(number)s", number=t), choices=SEVEN_TEAM,
                default=""))


_add_sevens(FinishForm, LAST_SEVEN_TRICK)
_add_sevens(DostForm, 7)


class SticksForm(FlaskForm):
    choice = RadioField(lazy_pgettext("stovkahra", "The winners"), validators=[InputRequired()],
        choices=[
        ("add", lazy_pgettext("stovkahra", "add the matchsticks to their pile")),
        ("take", lazy_pgettext("stovkahra", "take them off the opponents' pile"))])


FORMS: dict[str, type[FlaskForm]] = {
    "start": StartForm, "combination": CombinationForm, "remove": RemoveForm,
    "finish": FinishForm, "dost": DostForm, "sticks": SticksForm,
}

# The sections of the deal's one page form: what is typed in one travels with another's
# button (a combination picked and not declared is never dropped by the score).
DEAL_FORM = ("combination", "finish", "dost")


def proposed_dealer(ctx: ActionContext) -> int:
    """Who deals deal ``ctx.hand``: its recorded dealer, else the seat to the left of the
    previous deal's dealer (2.5, 6.1)."""
    facts = ctx.facts
    if facts is not None and facts.get("dealer") is not None:
        return int(facts["dealer"])
    outcome = ctx.outcome
    if outcome is not None:
        return outcome.dealer
    return ctx.result.standing.dealer


def next_declarer(dealer: int, combinations: list[dict[str, Any]]) -> int | None:
    """Who declares next (4.1): from the dealer's left clockwise, the player after the last
    one who declared; None once the dealer, the last in turn, has declared."""
    order = [(dealer + k) % 4 for k in range(1, 5)]
    if not combinations:
        return order[0]
    last = order.index(int(combinations[-1]["seat"]) % 4)
    return order[last + 1] if last + 1 < len(order) else None


def _deal(ctx: ActionContext, hands: list[dict[str, Any]]) -> dict[str, Any]:
    if ctx.hand > len(hands):
        raise RuleViolation("deal.none", T("Start the deal first"), "6.1")
    return hands[ctx.hand - 1]


def _seven_list(form: Any, tricks: int) -> list[dict[str, int]]:
    return [
        {"trick": t, "team": int(form[f"seven_{t}"].data)}
        for t in range(1, tricks + 1) if form[f"seven_{t}"].data
    ]


def apply_start(ctx: ActionContext, form: Any) -> list[dict[str, Any]]:
    hands = ctx.hands()
    trumps = form.trumps.data or None
    seat = chosen_seat(form.dealer)
    dealer = proposed_dealer(ctx) if seat is None else seat
    if ctx.hand > len(hands):
        if ctx.result.draft is not None:
            raise RuleViolation("deal.open", T("Finish the deal in progress first"), "6.1")
        waiting = [h.number for h in ctx.result.hands if h.detail.get("series_waits")]
        if waiting:
            raise RuleViolation(
                "sticks.open", T("The matchsticks still to be chosen decide whether deal "
                                 "%(number)s ends the series: choose add or take first",
                                 number=waiting[0]), "7.3.2")
        hands.append({"dealer": dealer, "trumps": trumps, "combinations": [], "end": None,
                      "sticks": None})
    else:
        deal = _deal(ctx, hands)
        deal["trumps"], deal["dealer"] = trumps, dealer
    return hands


def apply_combination(ctx: ActionContext, form: Any) -> list[dict[str, Any]]:
    hands = ctx.hands()
    deal = _deal(ctx, hands)
    cards = FRENCH.parse_many(form.cards.data or [])
    entry: dict[str, Any] = {"seat": int(form.seat.data)}
    if cards:
        ranks = {card.rank for card in cards}
        if len(ranks) != 1:
            raise RuleViolation(
                "combination.mixed", T("A combination is three or four cards of one rank"), "4")
        if not 3 <= len(cards) <= 4:
            raise RuleViolation(
                "combination.count", T("A combination is three or four cards of one rank"), "4")
        if form.rank.data or form.count.data:
            raise RuleViolation(
                "combination.both",
                T("Either pick the cards or say the rank and number, not both"), "4.3")
        entry.update(rank=ranks.pop(), count=len(cards), cards=[str(c) for c in cards])
    else:
        if not form.rank.data or not form.count.data:
            raise RuleViolation(
                "combination.empty",
                T("Pick the cards shown, or choose the rank and the number"), "4.3")
        entry.update(rank=form.rank.data, count=int(form.count.data))
    deal.setdefault("combinations", []).append(entry)
    return hands


def apply_remove(ctx: ActionContext, form: Any) -> list[dict[str, Any]]:
    hands = ctx.hands()
    combinations = _deal(ctx, hands).get("combinations") or []
    if form.index.data >= len(combinations):
        raise RuleViolation("combination.none", T("There is no such combination"), "6.1")
    del combinations[form.index.data]
    return hands


def apply_finish(ctx: ActionContext, form: Any) -> list[dict[str, Any]]:
    hands = ctx.hands()
    deal = _deal(ctx, hands)
    team = int(form.points_team.data)
    points, tricks = [0, 0], None
    points[team], points[1 - team] = form.points.data, DEAL_POINTS - form.points.data
    if form.tricks.data is not None:
        tricks = [0, 0]
        tricks[team], tricks[1 - team] = form.tricks.data, 8 - form.tricks.data
    deal["end"] = {"kind": "played", "points": points, "tricks": tricks,
                   "last": int(form.last.data), "sevens": _seven_list(form, LAST_SEVEN_TRICK)}
    return hands


def apply_dost(ctx: ActionContext, form: Any) -> list[dict[str, Any]]:
    hands = ctx.hands()
    deal = _deal(ctx, hands)
    after = int(form.after.data)
    tricks = None
    given = (form.tricks_0.data, form.tricks_1.data)
    if given.count(None) == 1:
        raise RuleViolation(
            "dost.tricks", T("Give both teams' tricks, or neither (they add up to the tricks "
                             "completed)"), "6.1").of_team(given.index(None))
    if None not in given:
        tricks = [given[0], given[1]]
    points = [form.points_0.data, form.points_1.data]
    if None in points:
        if after > 0:
            missing = RuleViolation(
                "dost.points", T("Dost was called after trick %(number)s: give both teams' "
                                 "card points of the completed tricks", number=after), "6.1")
            raise missing.of_team(points.index(None)) if points.count(None) == 1 else missing
        if points != [None, None]:
            raise RuleViolation(
                "dost.points", T("Dost was called before trick 1: both teams have 0 card "
                                 "points (or leave both empty)"), "7.2.3")
        points = [0, 0]
    deal["end"] = {
        "kind": "dost", "caller": int(form.caller.data), "after": after,
        "trick_winner": int(form.trick_winner.data) if form.trick_winner.data else None,
        "points": points, "tricks": tricks,
        "sevens": _seven_list(form, 7),
    }
    return hands


def apply_sticks(ctx: ActionContext, form: Any) -> list[dict[str, Any]]:
    """The winners' choice, recorded with the team that made it and, for a take, the
    opponents' pile it was made against (7.3.1)."""
    hands = ctx.hands()
    deal = _deal(ctx, hands)
    done = ctx.result.hands
    award = done[ctx.hand - 1].award if ctx.hand <= len(done) else None
    if award is None:
        raise RuleViolation(
            "sticks.no-game", T("Deal %(number)s does not end a game: there are no matchsticks "
                                "to add or take", number=ctx.hand), "7.3.1")
    piles = done[ctx.hand - 1].detail["piles_before"]
    deal["sticks"] = form.choice.data
    deal["sticks_by"] = award.winner
    deal["sticks_against"] = piles[1 - award.winner] if form.choice.data == "take" else None
    return hands


def _pair(first: str, second: str, fallback: str) -> str:
    """A team's default name from its players' names, if it fits (40 characters)."""
    name = f"{first} & {second}"
    return name if len(name) <= 40 else fallback



class StovkahraWeb(WebGame):
    game = GAME
    editor_template = "games/stovkahra/_editor.html"
    new_template = "games/stovkahra/new.html"
    player_fields = ("north", "east", "south", "west")
    refusal_fields = {       # errors at the field (issue 11, item 4)
        "combination": {"combination.count": "cards|count", "combination.rank": "cards|rank",
                        "combination.both": "cards", "combination.empty": "cards",
                        # the cards picked, else the rank and number said with the dropdowns
                        "combination": "cards|rank count"},
        "finish": {"points": "points", "tricks": "tricks"},
        "dost": {"dost.not-winner": "caller", "dost.no-combination": "caller",
                 "dost.declared-after": "after", "dost.trick-winner": "trick_winner",
                 # the completed tricks' card points and tricks, per team (6.3): those of the
                 # team the refusal names, else both teams'
                 "points": "points_{team}|points_0 points_1",
                 "dost.points": "points_{team}|points_0 points_1",
                 "tricks": "tricks_{team}|tricks_0 tricks_1",
                 "dost.tricks": "tricks_{team}|tricks_0 tricks_1",
                 "bonus.no-trick": "tricks_{team}", "sevens.tricks": "tricks_{team}",
                 "dost.no-tricks": "points_0 points_1 tricks_0 tricks_1"},
    }
    hand_template = "games/stovkahra/_deal_extra.html"
    decisions_template = "games/stovkahra/_decisions.html"
    form_classes = FORMS
    actions = {
        "start": Action("start", apply_start, T("Deal started"), T("deal started")),
        "combination": Action("combination", apply_combination, T("Combination"), T("combination")),
        "remove": Action("remove", apply_remove, T("Combination removed"),
                         T("combination removed")),
        "finish": Action("finish", apply_finish, T("Deal finished"), T("deal finished")),
        "dost": Action("dost", apply_dost, T("Dost"), T("dost")),
        "sticks": Action("sticks", apply_sticks, T("Matchstick choice"), T("matchstick choice")),
    }

    def refuse_unrecorded(self, action: str, ctx: ActionContext) -> None:
        """The deal is not scored (finish or dost) while "Add a combination" holds cards, a
        rank or a number picked and not declared (rule 4.3.2: only declared combinations
        score): refused at that field, everything typed kept."""
        if action not in ("finish", "dost"):
            return
        combination = self.with_choices(CombinationForm(prefix="combination"), ctx)
        if combination.cards.data:
            names = dict(CARDS)
            field = combination.cards
            shown = " ".join(names[c] for c in field.data if c in names)
            message = gettext("%(cards)s picked but not declared: tap Declare, or clear them",
                              cards=shown) if shown else gettext(
                "Cards picked but not declared: tap Declare, or clear them")
        elif combination.rank.data or combination.count.data:
            field = combination.rank if combination.rank.data else combination.count
            rank, count = combination.rank.data, combination.count.data
            if (rank, int(count or 0)) in COMBINATION_NAMES:
                picked = str(say(_combination_words(ctx.match.settings.get("german_letters"), rank,
                                                    int(count))))
            else:
                picked = str(dict(field.choices).get(field.data, ""))
            picked = picked[:1].upper() + picked[1:]
            message = gettext("%(combination)s picked but not declared: tap Declare, or clear "
                              "them", combination=picked)
        else:
            return
        field.errors = [*field.errors, message]
        raise FormInvalid("combination", combination)

    def forms(self, ctx: ActionContext) -> dict[str, FlaskForm]:
        """Fresh forms; but answering an action on this deal, the deal form's other sections
        (combination, finish, dost: one page form) show what was typed in them."""
        forms = super().forms(ctx)
        args = request.view_args or {}
        if request.endpoint == "matches.hand_action" and args.get("hand") == ctx.hand:
            self.typed_sections(ctx, forms, DEAL_FORM, args.get("action"), request.form)
        return forms

    def new_form(self) -> FlaskForm:
        return NewSeriesForm()

    def settings_from(self, form: Any) -> dict[str, Any]:
        players = [form.north.data, form.east.data, form.south.data, form.west.data]
        # a team left unnamed: its players' names, else where it sits, in the words of the phone
        # starting the match (the match's language); stored as a name typed would be
        teams = [
            form.team_ns.data or _pair(players[0], players[2],
                                       pgettext("stovkahra", "North–South")),
            form.team_ew.data or _pair(players[1], players[3],
                                       pgettext("stovkahra", "East–West")),
        ]
        return {
            "players": players, "teams": teams, "target": form.target.data,
            "first_dealer": int(form.first_dealer.data),
            "continue_to_20": bool(form.continue_to_20.data),
            "german_letters": bool(form.german_letters.data),
            "shuffle_reminder": form.shuffle_reminder.data,
        }

    def with_choices(self, form: FlaskForm, ctx: ActionContext) -> FlaskForm:
        names, teams = ctx.names, self.game.sides(ctx.match.settings)
        seat_names = [("0", names[0]), ("1", names[1]), ("2", names[2]), ("3", names[3])]
        for field in form:
            if field.type in ("RadioField", "SelectField"):
                if field.choices[-4:] == SEATS:
                    field.choices = field.choices[:-4] + seat_names
                elif field.choices[-2:] == TEAMS:
                    field.choices = field.choices[:-2] + [("0", teams[0]), ("1", teams[1])]
        return form

    def form_data(self, ctx: ActionContext) -> dict[str, dict[str, Any]]:
        deal = ctx.facts
        data: dict[str, dict[str, Any]] = {name: {} for name in FORMS}
        data["start"]["dealer"] = str(proposed_dealer(ctx))
        if deal is None:
            return data
        data["start"]["trumps"] = deal.get("trumps") or ""
        seat = next_declarer(proposed_dealer(ctx), deal.get("combinations") or [])
        if seat is not None:
            data["combination"]["seat"] = str(seat)
        end = deal.get("end") or {}
        sevens = {s["trick"]: str(s["team"]) for s in end.get("sevens", [])}
        if end.get("kind") == "played":
            data["finish"] = {
                "points_team": "0", "points": end["points"][0], "last": str(end["last"]),
                "tricks": end["tricks"][0] if end.get("tricks") else None,
            }
            data["finish"].update({f"seven_{t}": v for t, v in sevens.items()})
        elif end.get("kind") == "dost":
            data["dost"] = {
                "caller": str(end["caller"]), "after": str(end["after"]),
                "trick_winner": "" if end.get("trick_winner") is None else str(end["trick_winner"]),
                "points_0": end["points"][0], "points_1": end["points"][1],
                "tricks_0": end["tricks"][0] if end.get("tricks") else None,
                "tricks_1": end["tricks"][1] if end.get("tricks") else None,
            }
            data["dost"].update({f"seven_{t}": v for t, v in sevens.items()})
        outcome = ctx.outcome
        if outcome is not None and outcome.detail.get("sticks"):
            data["sticks"]["choice"] = outcome.detail["sticks"]
        return data

    def editor(self, ctx: ActionContext) -> dict[str, Any]:
        deal, outcome, dealer = ctx.facts, ctx.outcome, proposed_dealer(ctx)
        previous = ctx.result.hands[ctx.hand - 2] if 2 <= ctx.hand <= len(ctx.result.hands) + 1 \
            else None
        return {
            "deal": deal, "outcome": outcome, "dealer": dealer,
            "order": [(dealer + k) % 4 for k in range(1, 5)],
            "new_game": ctx.hand == 1 or (previous is not None and previous.reset),
            "deck": FRENCH, "teams": self.game.sides(ctx.match.settings),
            "seven_tricks": range(1, LAST_SEVEN_TRICK + 1),
            "combination_name": partial(_combination_words,
                                        ctx.match.settings.get("german_letters")),
        }
