"""tarocchi: traditional Italian partnership tarot games with an AI partner and opponents."""

from tarocchi.games import GAMES, game
from tarocchi.games.base import Event, IllegalAction, Result, ScoreLine

__all__ = ["GAMES", "Event", "IllegalAction", "Result", "ScoreLine", "game"]
__version__ = "0.1.0"
