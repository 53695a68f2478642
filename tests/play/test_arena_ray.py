"""The arena on Ray: a local Ray instance of 2 CPUs gives the local run's records and summary.

Runs when the `ray` extra is installed (`make test` installs it)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tarocchi.arena import run

pytest.importorskip("ray")

# `normal` with its playout cap and no clock: the clock is only a safety bound, and on a
# loaded machine it could cut a decision short in one run and not in the other
UNCLOCKED = """
import math
from dataclasses import replace

from tarocchi.bots.search import NORMAL, SearchBot


class UnclockedNormal(SearchBot):
    settings = {name: replace(cfg, seconds=math.inf) for name, cfg in NORMAL.items()}
"""


@pytest.mark.slow
def test_ray_plays_the_local_runs_records(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "unclocked.py").write_text(UNCLOCKED)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))  # Ray's workers find the bot there too
    bot = "unclocked:UnclockedNormal"
    local_dir, ray_dir = tmp_path / "local", tmp_path / "ray"
    local = run("piedicavallo", bot, "heuristic", pairs=20, jobs=2, save_dir=local_dir)
    log = tmp_path / "ray.jsonl"
    on_ray = run(
        "piedicavallo", bot, "heuristic", pairs=20, jobs=2, save_dir=ray_dir, log=log, ray=""
    )
    assert on_ray == local
    names = sorted(p.name for p in local_dir.glob("*.json"))
    assert len(names) == 40 and names == sorted(p.name for p in ray_dir.glob("*.json"))
    for name in names:  # record by record, but for the wall-clock timestamps
        ours, theirs = (json.loads((d / name).read_text()) for d in (local_dir, ray_dir))
        for r in (ours, theirs):
            del r["started_at"], r["finished_at"]
        assert ours == theirs, name
    # the log has every pair, in seed order, and a resumed match plays none again
    assert [json.loads(line)["deals"] for line in log.read_text().splitlines()] == [
        local["deals"][i : i + 2] for i in range(0, 40, 2)
    ]
    again = run("piedicavallo", bot, "heuristic", pairs=20, jobs=2, log=log, ray="")
    assert again == local and len(log.read_text().splitlines()) == 20
