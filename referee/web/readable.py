"""Stored values made safe to show: a match stored before names were checked (or an old
database) may hold a lone surrogate, which no page, file or PDF can encode."""

from __future__ import annotations

from typing import Any

from ..engine.errors import readable
from .store import StoredMatch


def readable_json(value: Any) -> Any:
    """``value`` (JSON-like) with every string, key or value, made ``readable``."""
    if isinstance(value, str):
        return readable(value)
    if isinstance(value, list):
        return [readable_json(item) for item in value]
    if isinstance(value, dict):
        return {readable_json(key): readable_json(item) for key, item in value.items()}
    return value


def readable_match(match: StoredMatch) -> StoredMatch:
    """The match with settings that every page can show: its names as stored, every lone
    surrogate written as its escape (``\\ud800``); valid text is left alone. (A hand's facts
    are shown only through the engine, whose messages quote a value ``readable``; the match
    file makes them readable itself.)"""
    match.settings = readable_json(match.settings)
    return match
