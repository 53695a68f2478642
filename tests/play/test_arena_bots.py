"""Bots from outside the package: by import path, or registered by an installed package."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tarocchi.arena import run
from tarocchi.bots import make_bot
from tarocchi.games import game
from tarocchi.record import load

DOCS = Path(__file__).parents[2] / "docs" / "bots.md"


def example_bot() -> str:
    """Return the example bot of docs/bots.md, so that the page's code is what is tested."""
    blocks = re.findall(r"```python\n(.*?)```", DOCS.read_text(), re.S)
    (code,) = [b for b in blocks if "class LowestCard(Bot)" in b]
    assert len(code.splitlines()) <= 20
    return code


def write_package(root: Path) -> Path:
    """Write a tiny distribution `mybots` registering the example bot; return its folder."""
    src = root / "mybots-dist"
    (src / "mybots").mkdir(parents=True)
    (src / "mybots" / "__init__.py").write_text("")
    (src / "mybots" / "lowest.py").write_text(example_bot())
    (src / "pyproject.toml").write_text(
        '[build-system]\nrequires = ["setuptools"]\nbuild-backend = "setuptools.build_meta"\n'
        '[project]\nname = "mybots"\nversion = "0.1"\n'
        '[project.entry-points."tarocchi.bots"]\nlowest = "mybots.lowest:LowestCard"\n'
        "[tool.setuptools]\npackages = ['mybots']\n"
    )
    return src


def tarocchi(site: Path, *args: str) -> str:
    """Run the tarocchi command with site on the path; return its output."""
    env = {**os.environ, "PYTHONPATH": str(site)}
    done = subprocess.run(
        [sys.executable, "-m", "tarocchi.cli", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_an_installed_package_registers_a_bot_the_arena_plays(tmp_path: Path) -> None:
    site = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-index", "--no-deps",
         "--no-build-isolation", "--target", str(site), str(write_package(tmp_path))],
        check=True, capture_output=True, timeout=300,
    )  # fmt: skip
    assert re.search(r"^lowest\s+mybots\.lowest:LowestCard", tarocchi(site, "bots"), re.M)
    saved = tmp_path / "records"
    by_name = json.loads(
        tarocchi(site, "arena", "piedicavallo", "--a", "lowest", "--b", "random",
                 "--pairs", "3", "--jobs", "2", "--json", "--save", str(saved))
    )  # fmt: skip
    by_path = json.loads(
        tarocchi(site, "arena", "piedicavallo", "--a", "mybots.lowest:LowestCard", "--b",
                 "random", "--pairs", "3", "--json")
    )  # fmt: skip
    assert by_name["pairs"] == 3 and by_name["deals"] == by_path["deals"]
    # the bot played: every card of team A's seats is the lowest it could play
    rules = game("piedicavallo")
    record = load(saved / "piedicavallo-1-ANS.json")
    state = rules.deal(record["seed"])
    lowest_plays = 0
    for entry in record["actions"]:
        action = rules.parse_action(entry["action"])
        legal = rules.legal_actions(state)
        if entry["seat"] in (0, 2) and legal[0] < len(rules.pack):
            assert action == min(a for a in legal if a < len(rules.pack))
            lowest_plays += 1
        state = rules.apply(state, action)
    assert lowest_plays >= 20


def test_a_bot_outside_the_package_gets_only_a_view(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "peeking.py").write_text(
        "from tarocchi.bots.random import RandomBot\n"
        "class Peeker(RandomBot):\n    sees_all = True\n"
        "class NotABot:\n    pass\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    rules = game("ottocento")
    with pytest.raises(ValueError, match="only the oracle may see every card"):
        make_bot("peeking:Peeker", rules)
    with pytest.raises(ValueError, match=r"not a subclass of tarocchi\.bots\.base\.Bot"):
        make_bot("peeking:NotABot", rules)
    with pytest.raises(ValueError, match="not a subclass"):
        make_bot("peeking:Missing", rules)
    with pytest.raises(ValueError, match=r"cannot import 'nowhere\.at_all'"):
        run("ottocento", "nowhere.at_all:Bot", "random", pairs=1)
    assert make_bot("oracle", rules).sees_all  # the named exception stays
