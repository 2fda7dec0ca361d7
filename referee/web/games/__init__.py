"""The web side of each game: its forms, its hand editor and its hand actions.

Views ask this registry; they never branch on a game's name."""

from __future__ import annotations

from .base import WebGame
from .marjolet import MarjoletWeb
from .stovkahra import StovkahraWeb
from .tartli import TartliWeb
from .troggu import TrogguWeb

WEB_GAMES: dict[str, WebGame] = {
    web.game.name: web for web in (TartliWeb(), StovkahraWeb(), MarjoletWeb(), TrogguWeb())
}
