"""The registry of games: the one place that names the games and their rules.

Each game has one `GameInfo`: its name (a `GameName`) and the modules of its rules and its
pack. The rules are named, not imported: Ottocento's combinations compile for seconds at
import, so a page or a command that needs one game loads that game alone (`game`,
`pack_of`). Each layer below keeps its own typed table of the game's parts there, built by
importing them and keyed by `GameName` (`tarocchi.bots.parts.PARTS`: the heuristic player,
the compiled path, the belief, the search's settings, the review's thresholds;
`tarocchi.web.content.GAMES`: the pages' words and the card art's style); one test
checks that every table has exactly these games.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal, TypeVar

from tarocchi.cards import Pack
from tarocchi.games.base import Rules

GameName = Literal["piedicavallo", "ottocento", "minchiate"]


@dataclass(frozen=True, slots=True)
class GameInfo:
    """One game's name and the modules of its rules and its pack."""

    name: GameName
    rules: str  # the rules module; its RULES is the rules object
    pack: str  # the pack's module; its PACK is the pack


GAMES: dict[GameName, GameInfo] = {
    "piedicavallo": GameInfo(
        "piedicavallo", "tarocchi.games.piedicavallo", "tarocchi.packs.piemontese"
    ),
    "ottocento": GameInfo("ottocento", "tarocchi.games.ottocento", "tarocchi.packs.bolognese"),
    "minchiate": GameInfo("minchiate", "tarocchi.games.minchiate", "tarocchi.packs.minchiate"),
}


def info(name: str) -> GameInfo:
    """Return a game's name and modules; ValueError for an unknown game."""
    key = name.strip().lower()
    for found, parts in GAMES.items():
        if found == key:
            return parts
    known = ", ".join(GAMES)
    raise ValueError(f"unknown game {name!r}; choose one of {known}")


T = TypeVar("T")


def entry(table: Mapping[GameName, T], name: str, lacks: str) -> T:
    """Return a game's entry in a layer's table by name: ValueError for an unknown game, or
    saying `lacks` for a game the table has no entry for."""
    key = info(name).name
    found = table.get(key)
    if found is None:
        raise ValueError(f"{key} {lacks}")
    return found


@functools.cache
def game(name: str) -> Rules:
    """Return the rules object of a game by name ("piedicavallo", "ottocento", "minchiate")."""
    rules: Rules = importlib.import_module(info(name).rules).RULES
    return rules


@functools.cache
def pack_of(name: str) -> Pack:
    """Return the pack a game is played with, without loading its rules."""
    pack: Pack = importlib.import_module(info(name).pack).PACK
    return pack
