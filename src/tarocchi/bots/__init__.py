"""Bots by name: `random`, `heuristic` (one per game), `easy`, `search`, `hard`, `short`,
`oracle`; the levels players choose from, each played by one of them (`normal` is `search`);
bots from outside the package, by import path (`pkg.mod:Class`) or registered by installed
packages under the `tarocchi.bots` entry-point group (docs/bots.md)."""

from __future__ import annotations

import importlib
from importlib.metadata import entry_points

from tarocchi.bots.base import Bot
from tarocchi.games.base import Rules

# name -> "module:Class"; the heuristic bot is per game, in the bots' table (`parts.PARTS`)
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


# installed packages register their bots here: [project.entry-points."tarocchi.bots"]
ENTRY_POINT_GROUP = "tarocchi.bots"


def registered_bots() -> dict[str, str]:
    """Return the bots installed packages register, by name: "module:Class"."""
    return {ep.name: ep.value for ep in entry_points(group=ENTRY_POINT_GROUP)}


def make_bot(name: str, rules: Rules, seed: int = 0) -> Bot:
    """Return a new bot of the given kind for a game, seeded: a bot's name, a level's, an
    installed package's registered name, or an import path "pkg.mod:Class"."""
    key = name.strip()
    kind = LEVELS.get(key.lower(), key.lower())
    if kind == "heuristic":
        from tarocchi.bots.parts import parts

        return parts(rules.name).heuristic(rules, seed)
    if ":" in key:
        target = key
    elif kind in BOTS:
        target = BOTS[kind]
    else:
        target = registered_bots().get(key, "")
    if not target:
        known = ", ".join(dict.fromkeys(["random", "heuristic", *BOTS, *LEVELS]))
        raise ValueError(
            f"unknown bot {name!r}; choose one of {known}, a bot `tarocchi bots` lists, "
            "or an import path pkg.module:Class"
        )
    return load_bot_class(name, target)(rules, seed)


def load_bot_class(name: str, target: str) -> type[Bot]:
    """Import the bot class a "module:Class" target names, checking it is a fair bot."""
    module, _, cls = target.partition(":")
    try:
        found = importlib.import_module(module)
    except ModuleNotFoundError as e:
        if target in BOTS.values():  # an adapter's framework is an optional extra
            extra = module.rsplit(".", 1)[-1]
            raise ValueError(f"bot {name!r} needs {e.name}: pip install 'tarocchi[{extra}]'") from e
        raise ValueError(f"bot {name!r}: cannot import {module!r} ({e})") from e
    bot = getattr(found, cls, None)
    if not (isinstance(bot, type) and issubclass(bot, Bot)):
        raise ValueError(f"bot {name!r}: {target!r} is not a subclass of tarocchi.bots.base.Bot")
    # only the analysis oracle is handed the full state (DESIGN: views); any other bot, and
    # every bot from outside the package, is handed its seat's view and nothing more
    if bot.sees_all and target != BOTS["oracle"]:
        raise ValueError(f"bot {name!r}: only the oracle may see every card (sees_all)")
    return bot
