"""The registry of games: the one place that maps a game's name to its parts.

Each game has one `GameInfo`: the modules of its rules and its pack, and where the
lower layers keep their part of it (the heuristic player, the compiled path the search
plays, the belief that samples its deals). The parts are named, not imported, so this
module imports nothing below the rules; each layer imports the part it owns when it
asks for it (`tarocchi.bots`, `tarocchi.bots.search`, `tarocchi.bots.belief`), and the
pages and the card art ask for the pack alone (`pack_of`).
"""

from __future__ import annotations

import functools
import importlib
from dataclasses import dataclass
from typing import Any

from tarocchi.cards import Pack
from tarocchi.games.base import TrickGame


@dataclass(frozen=True, slots=True)
class GameInfo:
    """One game's parts, each a module (or "module:attribute") named from its layer."""

    name: str
    rules: str  # the rules module; its RULES is the rules object
    pack: str  # the pack's module; its PACK is the pack
    heuristic: str  # the heuristic player's class
    kernel: str  # the search's compiled path: positions of raw ints, playouts, their scoring
    belief: str  # the class that samples the deals a view allows


def _info(name: str, pack: str, belief: str, belief_module: str = "belief") -> GameInfo:
    return GameInfo(
        name=name,
        rules=f"tarocchi.games.{name}",
        pack=f"tarocchi.packs.{pack}",
        heuristic=f"tarocchi.bots.heuristic.{name}:HeuristicBot",
        kernel=f"tarocchi.bots.kernel_{name}",
        belief=f"tarocchi.bots.{belief_module}:{belief}",
    )


GAMES: dict[str, GameInfo] = {
    "piedicavallo": _info("piedicavallo", "piemontese", "PiedicavalloBelief"),
    "ottocento": _info("ottocento", "bolognese", "OttocentoBelief"),
    "minchiate": _info("minchiate", "minchiate", "MinchiateBelief", "belief_minchiate"),
}


def info(name: str) -> GameInfo:
    """Return a game's parts by name; ValueError for an unknown game."""
    try:
        return GAMES[name.strip().lower()]
    except KeyError:
        known = ", ".join(GAMES)
        raise ValueError(f"unknown game {name!r}; choose one of {known}") from None


def load(target: str) -> object:
    """Return what a part names: a module, or "module:attribute" within one."""
    module, _, attribute = target.partition(":")
    found: object = importlib.import_module(module)
    return getattr(found, attribute) if attribute else found


@functools.cache
def game(name: str) -> TrickGame[Any]:
    """Return the rules object of a game by name ("piedicavallo", "ottocento", "minchiate")."""
    rules: TrickGame[Any] = importlib.import_module(info(name).rules).RULES
    return rules


@functools.cache
def pack_of(name: str) -> Pack:
    """Return the pack a game is played with, without loading its rules."""
    pack: Pack = importlib.import_module(info(name).pack).PACK
    return pack
