"""Referee: the score keeper for traditional card games at the table.

The web layer is reached lazily, so importing the engine never loads Flask."""

from __future__ import annotations

from typing import Any


def create_app(test_config: dict[str, Any] | None = None) -> Any:
    from .web import create_app as _create_app

    return _create_app(test_config)
