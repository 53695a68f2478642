"""The rules of each game, one module per game, and the registry that finds them."""

from __future__ import annotations

import functools
import importlib

from tarocchi.games.base import TrickGame

GAMES = {
    "piedicavallo": "tarocchi.games.piedicavallo",
    "ottocento": "tarocchi.games.ottocento",
    "minchiate": "tarocchi.games.minchiate",
}


@functools.cache
def game(name: str) -> TrickGame:
    """Return the rules object of a game by name ("piedicavallo", "ottocento", "minchiate")."""
    try:
        module = GAMES[name.strip().lower()]
    except KeyError:
        known = ", ".join(GAMES)
        raise ValueError(f"unknown game {name!r}; choose one of {known}") from None
    rules: TrickGame = importlib.import_module(module).RULES
    return rules
