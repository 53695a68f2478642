"""Bots by name: `random`, `heuristic` (one per game), `easy`, `search`, `hard`, `short`,
`oracle`;
and the levels players choose from, each played by one of them (`normal` is `search`)."""

from __future__ import annotations

import importlib
from typing import Any

from tarocchi.bots.base import Bot
from tarocchi.games import info
from tarocchi.games.base import TrickGame

# name -> "module:Class"; the heuristic bot is per game, named by the registry (`GameInfo`)
BOTS = {
    "random": "tarocchi.bots.random:RandomBot",
    "easy": "tarocchi.bots.easy:EasyBot",
    "search": "tarocchi.bots.search:SearchBot",
    "hard": "tarocchi.bots.search:HardSearchBot",
    "short": "tarocchi.bots.search:ShortSearchBot",  # the web server's stand-in under load
    "oracle": "tarocchi.bots.oracle:OracleBot",  # analysis only: it sees every card
    # OpenSpiel's ISMCTS, an independent arena opponent (needs the `openspiel` extra)
    "openspiel-ismcts": "tarocchi.adapters.openspiel:ISMCTSBot",
}

# the levels offered to players, by the bot that plays each
LEVELS = {
    "random": "random",
    "heuristic": "heuristic",
    "easy": "easy",
    "normal": "search",
    "hard": "hard",
}


def make_bot(name: str, rules: TrickGame[Any], seed: int = 0) -> Bot:
    """Return a new bot of the given kind (a bot's name or a level's) for a game, seeded."""
    key = name.strip().lower()
    kind = LEVELS.get(key, key)
    try:
        target = info(rules.name).heuristic if kind == "heuristic" else BOTS[kind]
    except KeyError:
        known = ", ".join(dict.fromkeys(["random", "heuristic", *BOTS, *LEVELS]))
        raise ValueError(f"unknown bot {name!r}; choose one of {known}") from None
    module, cls = target.split(":")
    try:
        found = importlib.import_module(module)
    except ModuleNotFoundError as e:  # an adapter's framework is an optional extra
        extra = module.rsplit(".", 1)[-1]
        raise ValueError(f"bot {name!r} needs {e.name}: pip install 'tarocchi[{extra}]'") from e
    bot: Bot = getattr(found, cls)(rules, seed)
    return bot
