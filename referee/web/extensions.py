"""What the app's modules share of the running app: htmx (is this an htmx request?) and the
stores the app holds (``create_app`` makes them once, each request asks for them here)."""

from __future__ import annotations

from flask import current_app
from flask_htmx import HTMX

from .store import Circles, Store

htmx = HTMX()


def store() -> Store:
    """The matches' store (``store.Store``) of the running app."""
    return current_app.extensions["referee.store"]  # type: ignore[no-any-return]


def circles() -> Circles:
    """The circles' store of the running app."""
    return current_app.extensions["referee.circles"]  # type: ignore[no-any-return]
