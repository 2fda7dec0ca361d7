"""Form fields shared by the games' forms."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext
from wtforms import IntegerField
from wtforms.validators import StopValidation

MAX_DIGITS = 6


class WholeNumber(IntegerField):  # type: ignore[misc]
    """A whole number as typed at the table: at most six digits, so no pasted monster number
    reaches a range check (WTForms' NumberRange overflows on numbers of ~300+ digits)."""

    def process_formdata(self, valuelist: list[Any]) -> None:
        if valuelist and isinstance(valuelist[0], str):
            text = valuelist[0].strip().lstrip("+-")
            if len(text) > MAX_DIGITS:
                self.data = None
                raise ValueError(gettext("Enter a number of at most %(num)s digits",
                                         num=MAX_DIGITS))
        super().process_formdata(valuelist)

    def pre_validate(self, form: Any) -> None:
        typed = bool(self.raw_data and str(self.raw_data[0]).strip())
        if self.process_errors and typed:
            raise StopValidation()      # one message: why the number could not be read


def chosen_seat(field: Any) -> int | None:
    """The seat a pre-set choice (e.g. who dealt) was posted with; None when it was left out
    or blank (``Optional`` lets a blank through, which is no seat: the caller's default)."""
    text = str(field.data or "").strip()
    return int(text) if text else None
