"""The game registry: every page, the CLI and the PDF ask it, never a game's name."""

from __future__ import annotations

from ..errors import RuleViolation, shown
from ..words import T
from .base import Game
from .marjolet import GAME as MARJOLET
from .stovkahra import GAME as STOVKAHRA
from .tartli import GAME as TARTLI
from .troggu import GAME as TROGGU

GAMES: dict[str, Game] = {game.name: game for game in (TARTLI, STOVKAHRA, MARJOLET, TROGGU)}


def get(name: object) -> Game:
    if not isinstance(name, str) or name not in GAMES:
        raise RuleViolation("game.unknown", T("Unknown game %(game)s", game=shown(name)))
    return GAMES[name]
