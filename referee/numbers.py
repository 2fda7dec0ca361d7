"""Numbers as a player reads them, on every page, chart and scoresheet: a negative number with
the minus sign (−10, U+2212), never the hyphen (-10), so that one page never shows both."""

from __future__ import annotations

MINUS = "\u2212"


def number(value: float | str) -> str:
    """``value`` as written (``30``, ``−110``, ``2.5``), its minus the minus sign."""
    return str(value).replace("-", MINUS)


def signed(value: float) -> str:
    """``+30``, ``−110``, ``0``: a payment, a balance or a change, with its sign."""
    return f"+{value}" if value > 0 else number(value)
