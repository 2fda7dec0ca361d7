"""Troggu's forms: a new match (players, stake, variants), the bidding, the partner call, the
Tappist's discard, the end of a hand and a Misère (their fields, labels and checks); the web
game (``troggu.py``) reads them into hand facts."""

from __future__ import annotations

from typing import Any

from flask_babel import LazyString, lazy_pgettext
from flask_wtf import FlaskForm
from wtforms import BooleanField, Field, RadioField, SelectField, SelectMultipleField
from wtforms.validators import NumberRange, Optional
from wtforms.widgets import TextInput

from ...engine.cards import SWISS_TAROT, roman
from ...engine.games.troggu.values import (
    CALLABLE,
    MAX_PLAYERS,
    MAX_STAKE,
    THRESHOLDS,
    TOTAL_POINTS,
)
from ...numbers import ENGLISH, current_locale, number
from ...scoresheet.troggu import VARIANTS
from ..forms.fields import WholeNumber
from .base import InputRequired, spoken

SEATS = [(str(s), lazy_pgettext("troggu", "Seat %(number)s", number=s + 1))
         for s in range(MAX_PLAYERS)]
CALLS = [("pass", lazy_pgettext("troggu", "pass")), ("normal", lazy_pgettext("troggu", "normal")),
         ("solo", lazy_pgettext("troggu", "Solo"))]
TAPP = "tapp"
HOLDER = [("", "—")] + SEATS + [(TAPP, lazy_pgettext("troggu", "in the Tapp"))]
ALONE = "alone"
MAX_TRICKS = 18
CARDS = [(str(card), SWISS_TAROT.long_name(card)) for card in SWISS_TAROT.cards]
TRUMPS = [(code, roman(int(code[1:]))) for code in reversed(CALLABLE)]       # XX … I
SEAT_FIELDS = ("dealer", "partner", "fool", "bagatt", "fool_kept")
THRESHOLD_CHOICES = [
    (key, lazy_pgettext("troggu", "%(name)s: ×2 when the losers have %(fewest)s or fewer",
                        name=spoken(name), fewest=d))
    for key, (name, d) in THRESHOLDS.items()
]


# -- forms ------------------------------------------------------------------------------------

class PlayerNames(Field):  # type: ignore[misc]
    """Every value posted under one name, in order: the players' names in seating order."""

    widget = TextInput()

    def process_formdata(self, valuelist: list[Any]) -> None:
        self.data = [str(v) for v in valuelist]

    def _value(self) -> str:
        return ""


class NewMatchForm(FlaskForm):
    players = PlayerNames(lazy_pgettext("troggu", "Players in seating order"), default=list)
    first_dealer = RadioField(lazy_pgettext("troggu", "Who deals first"), choices=SEATS,
                              default="0",
                              validators=[InputRequired(lazy_pgettext("troggu",
                                                                      "Who deals first?"))])
    stake = WholeNumber(lazy_pgettext("troggu", "Stake (Rappen a unit)"), [
        InputRequired(lazy_pgettext("troggu", "Enter the stake in Rappen")),
        NumberRange(1, MAX_STAKE, lazy_pgettext(
            "troggu", "The stake is 1 to %(most)s Rappen (rule 8)",
            most=LazyString(lambda: f"{MAX_STAKE:,}" if current_locale() == ENGLISH
                            else number(MAX_STAKE))))],
        default=10)
    threshold = RadioField(lazy_pgettext("troggu", "Double threshold (regional preset)"),
                           choices=THRESHOLD_CHOICES,
                           default="standard", validators=[InputRequired()])


for _key, _title, _text in VARIANTS:
    setattr(NewMatchForm, _key, BooleanField(spoken(_title), description=spoken(_text)))


class BidsForm(FlaskForm):
    dealer = RadioField(lazy_pgettext("troggu", "Dealer"), choices=SEATS,
                        validators=[InputRequired(lazy_pgettext("troggu", "Who dealt?"))])
    fool = SelectField(lazy_pgettext("troggu", "The fool (Bättler) is held by"),
                       choices=HOLDER, default="")
    bagatt = SelectField(lazy_pgettext(
        "troggu", "If the fool is in the Tapp: trump I (Bagatt) is held by"),
                         choices=HOLDER, default="")


for _seat in range(MAX_PLAYERS):
    setattr(BidsForm, f"bid_{_seat}", RadioField(
        lazy_pgettext("troggu", "Seat %(number)s", number=_seat + 1), choices=CALLS, default="pass",
        validators=[InputRequired(lazy_pgettext("troggu", "Say what every player called"))]))


PARTNERS = SEATS + [(ALONE, lazy_pgettext("troggu", "nobody: the Tappist plays alone"))]
NO_PARTNER = lazy_pgettext("troggu", "Who held the called trump? Or does the Tappist play alone?")


def _called_trump() -> SelectField:
    return SelectField(lazy_pgettext("troggu", "Called trump"), choices=TRUMPS, default="T20",
                       validate_choice=False)


class CallForm(FlaskForm):
    trump = _called_trump()
    partner = RadioField(lazy_pgettext("troggu", "Held by"), choices=PARTNERS,
                         validators=[InputRequired(NO_PARTNER)])


CARD_POINTS = lazy_pgettext("troggu", "Card points are 0 to 114 (rule 6.3.2)")


class DiscardForm(FlaskForm):
    cards = SelectMultipleField(lazy_pgettext("troggu", "The discard: tap its cards"),
                                choices=CARDS,
                                validators=[Optional()])
    points = WholeNumber(lazy_pgettext("troggu", "Or its card points"), [
        Optional(), NumberRange(0, TOTAL_POINTS, CARD_POINTS)])
    all_kings_held = BooleanField(lazy_pgettext(
        "troggu", "The Tappist held all four kings (“Kings: any number”)"))


def _points(label: Any, required: Any = None) -> WholeNumber:
    first = InputRequired(required) if required else Optional()
    return WholeNumber(label, [first, NumberRange(0, TOTAL_POINTS, CARD_POINTS)])


def _tricks(label: Any) -> WholeNumber:
    return WholeNumber(label, [Optional(), NumberRange(
        0, MAX_TRICKS, lazy_pgettext("troggu", "A hand has at most %(most)s tricks (rule 2.1)",
                                     most=MAX_TRICKS))])


class FinishForm(FlaskForm):
    points = _points(lazy_pgettext("troggu", "Declarer side's card points"),
                     lazy_pgettext("troggu", "Enter the declarer side's card points"))
    took = RadioField(lazy_pgettext("troggu", "Did the losing side take a trick?"), default="yes",
                      choices=[("yes", lazy_pgettext("troggu", "yes")),
                               ("no", lazy_pgettext("troggu", "no, not one (×3)"))],
                      validators=[InputRequired(lazy_pgettext(
                          "troggu", "Did the losing side take a trick?"))])
    tricks = _tricks(lazy_pgettext("troggu", "Their tricks (optional)"))
    tapp_points = _points(lazy_pgettext("troggu", "The Tapp's card points (optional)"))
    fool_kept = SelectField(lazy_pgettext(
        "troggu", "Kept a withheld fool, that side taking no trick (rare)"),
                            choices=[("", lazy_pgettext("troggu", "nobody"))] + SEATS, default="")
    # With 7–8 players, the partner call (4.5.2) where no call is recorded yet: given with the
    # end of the hand, as the table learns it in play; left out, the stored call stands.
    trump = _called_trump()
    partner = RadioField(lazy_pgettext("troggu", "Held by"), choices=PARTNERS,
                         validators=[Optional()])


class MisereForm(FlaskForm):
    tapp_points = _points(lazy_pgettext("troggu", "The Tapp's card points (optional)"))
    fool_kept = SelectField(lazy_pgettext("troggu", "Kept a withheld fool, taking no trick (rare)"),
                            choices=[("", lazy_pgettext("troggu", "nobody"))] + SEATS, default="")


for _seat in range(MAX_PLAYERS):
    setattr(MisereForm, f"points_{_seat}",
            _points(lazy_pgettext("troggu", "Seat %(number)s", number=_seat + 1)))
    setattr(MisereForm, f"tricks_{_seat}",
            _tricks(lazy_pgettext("troggu", "Seat %(number)s", number=_seat + 1)))


class NoDiscardForm(FlaskForm):
    """Leave a void discard unrecorded (a button only)."""


FORMS: dict[str, type[FlaskForm]] = {
    "bids": BidsForm, "call": CallForm, "discard": DiscardForm, "finish": FinishForm,
    "misere": MisereForm, "nodiscard": NoDiscardForm,
}
