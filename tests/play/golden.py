"""The golden deals: fixed-seed arena deals of every game and level, kept in tests/data/golden/.

    .venv/bin/python -m tests.play.golden     # rewrite them (only when play is meant to change)

The cheap levels (random, heuristic, easy) play duplicate pairs against the heuristic bot,
as `tarocchi arena` does; the search levels (normal, hard) take one seat, a different one
per seed, beside three heuristic players, so that the set stays quick to replay. The
search's clock, a safety bound, is lifted so that its fixed playouts decide and the deals
do not depend on how busy the machine is. A deal is kept as its record without the
timestamps and without texts (events, breakdown lines, ledger), which other work may
reword without changing a single card.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

from tarocchi.bots import search
from tarocchi.match import play_deal
from tarocchi.record import make_record

DATA = Path(__file__).resolve().parent.parent / "data" / "golden"
GAMES = ("piedicavallo", "ottocento", "minchiate")
CHEAP = {"random": range(3), "heuristic": range(3), "easy": range(3)}
SEARCH = {"normal": range(3), "hard": range(3)}
LEVELS = (*CHEAP, *SEARCH)
KEPT = ("game", "seed", "dealer", "hands", "players", "actions", "winners", "tricks")


@contextmanager
def fixed_playouts() -> Iterator[None]:
    """Lift the search levels' clock for the duration (their playout caps then decide)."""
    saved = {cls: cls.settings for cls in (search.SearchBot, search.HardSearchBot)}
    try:
        for cls, cfg in saved.items():
            assert isinstance(cfg, dict)
            cls.settings = {name: replace(c, seconds=1e9) for name, c in cfg.items()}
        yield
    finally:
        for cls, cfg in saved.items():
            cls.settings = cfg


def seatings(level: str) -> Iterator[tuple[int, list[str]]]:
    """Yield (seed, the bot of each seat) for a level's golden deals."""
    if level in CHEAP:
        for seed in CHEAP[level]:
            yield seed, [level, "heuristic", level, "heuristic"]
            yield seed, ["heuristic", level, "heuristic", level]
        return
    for seed in SEARCH[level]:
        names = ["heuristic"] * 4
        names[seed % 4] = level
        yield seed, names


def essence(record: dict[str, Any]) -> dict[str, Any]:
    """Return what a record says about the play: every card and action, and the result's
    numbers (no timestamps, no texts)."""
    out = {k: record[k] for k in KEPT}
    deal_keys = [k for k in record if k not in out and k not in ("format", "version")]
    for k in deal_keys:
        if k not in ("rules_version", "events", "result", "started_at", "finished_at"):
            out[k] = record[k]
    out["result"] = {
        k: v for k, v in record["result"].items() if isinstance(v, int | str) or k == "piles"
    }
    return out


def play(game: str, level: str) -> list[dict[str, Any]]:
    """Play a game's golden deals of a level afresh."""
    with fixed_playouts():
        return [essence(make_record(play_deal(game, s, names))) for s, names in seatings(level)]


def path(game: str, level: str) -> Path:
    """Return the file of a game's golden deals of a level."""
    return DATA / f"{game}-{level}.json"


def main() -> None:
    DATA.mkdir(parents=True, exist_ok=True)
    for game in GAMES:
        for level in LEVELS:
            deals = play(game, level)
            lines = ",\n".join(json.dumps(d, separators=(",", ":")) for d in deals)
            path(game, level).write_text(f"[\n{lines}\n]\n")
            print(game, level, len(deals), "deals")


if __name__ == "__main__":
    main()
