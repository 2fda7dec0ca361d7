"""A catalogue that says every sentence in upper case, its placeholders as they are: a page,
a sheet or a message said through it shows, in lower case, only what escaped the catalogues
(the tests of issue 22 that look for English left)."""

from __future__ import annotations

import re

from babel.support import NullTranslations

PLACEHOLDER = re.compile(r"(%\([a-zA-Z_0-9]+\)[sd]|%%)")


def upper(message: str) -> str:
    """``message`` in upper case, its placeholders as they are."""
    return "".join(part if PLACEHOLDER.fullmatch(part) else part.upper()
                   for part in PLACEHOLDER.split(message))


class Upper(NullTranslations):
    """Every message in upper case (gettext's four ways of asking, and Python 2's names that
    Jinja's i18n extension may still look for)."""

    def gettext(self, message: str) -> str:
        return upper(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return upper(singular if n == 1 else plural)

    def pgettext(self, context: str, message: str) -> str:
        return upper(message)

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        return upper(singular if n == 1 else plural)

    ugettext = gettext
    ungettext = ngettext
    upgettext = pgettext
    unpgettext = npgettext
