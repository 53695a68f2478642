"""The `tarocchi` command line: arena, replay, bench and play, as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tarocchi.cli import main
from tarocchi.review import MARKS
from tests.test_extras import TEST_ONLY


def test_arena_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    args = ["arena", "piedicavallo", "--a", "random", "--b", "random", "--pairs", "3", "--json",
            "--jobs", "2", "--save", str(tmp_path)]  # fmt: skip
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    for key in ("game", "a", "b", "pairs", "mean_margin", "ci95", "wins", "draws", "losses"):
        assert key in out
    assert len(out["deals"]) == 6
    assert {"seed", "a_team", "ns", "ew"} <= set(out["deals"][0])
    records = sorted(tmp_path.glob("*.json"))
    assert len(records) == 6
    assert main(["replay", str(records[0])]) == 0
    assert "reproduces the stored result" in capsys.readouterr().out


def test_arena_text_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "piedicavallo", "--a", "random", "--b", "random", "--pairs", "2"]) == 0
    assert "mean margin" in capsys.readouterr().out
    assert main(["arena", "piedicavallo", "--a", "x", "--b", "random", "--pairs", "2"]) == 2
    assert "unknown bot" in capsys.readouterr().err


def test_replay_reports_a_tampered_record(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["arena", "piedicavallo", "--a", "random", "--b", "random", "--pairs", "1",
                 "--save", str(tmp_path)]) == 0  # fmt: skip
    path = sorted(tmp_path.glob("*.json"))[0]
    rec = json.loads(path.read_text())
    rec["actions"][10]["action"] = "MATTO" if rec["actions"][10]["action"] != "MATTO" else "T1"
    path.write_text(json.dumps(rec))
    capsys.readouterr()
    assert main(["replay", str(path)]) == 1
    assert "action 11" in capsys.readouterr().err


@pytest.mark.slow
def test_bench_json_without_the_test_extra() -> None:
    """`tarocchi bench` runs where `make serve` installed only the web extra: here with the
    test extra's modules refused (tests/test_extras.py)."""
    block = "; ".join(f"sys.modules[{m!r}] = None" for m in TEST_ONLY)
    code = f"import sys; {block}; from tarocchi.cli import main; sys.exit(main(sys.argv[1:]))"
    proc = subprocess.run(
        [sys.executable, "-c", code, "bench", "piedicavallo", "--json", "--seconds", "0.6",
         "--ai-seconds", "0.6", "--review-deals", "1"],
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert 0 < out["review_first_s_p50"] <= out["review_s_p50"] <= out["review_s_p95"]
    assert 0 < out["hint_s_p50"] <= out["hint_s_p95"] < out["review_s_p50"]
    assert out["review_deals"] == 1
    assert out["game"] == "piedicavallo" and out["playouts_per_s"] > 0
    for level in ("easy", "normal", "hard"):
        timing = out["levels"][level]
        assert 0 < timing["ai_ms_p50"] <= timing["ai_ms_p95"] and timing["decisions"] >= 2
    assert out["levels"]["normal"]["search_playouts_per_s"] > 0
    assert out["ai_ms_p95"] == out["levels"]["normal"]["ai_ms_p95"]  # the default level


def test_play_as_a_subprocess() -> None:
    """The console script plays a whole deal from piped stdin."""
    proc = subprocess.run(
        [sys.executable, "-m", "tarocchi.cli", "play", "piedicavallo", "--seed", "3",
         "--level", "random"],
        input="1\n" * 80, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "End of the deal" in proc.stdout


def test_unknown_game_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["play", "scopa"])
    assert "invalid choice" in capsys.readouterr().err


@pytest.mark.slow
def test_review_prints_the_decisions_and_the_ai_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from tarocchi.match import play_deal
    from tarocchi.record import make_record, save

    path = tmp_path / "deal.json"
    save(make_record(play_deal("piedicavallo", 1, ["heuristic"] * 4)), path)
    assert main(["review", str(path), "--level", "heuristic", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["game"] == "piedicavallo" and data["seat"] == 0 and data["unit"] == "points"
    assert data["ai"]["level"] == "heuristic" and data["ai"]["margin"] == data["margin"]
    assert {d["mark"] for d in data["decisions"]} <= {*MARKS, "close", "forced"}
    assert main(["review", str(path), "--level", "heuristic", "--lang", "it"]) == 0
    text = capsys.readouterr().out
    assert "Analisi del gioco di Sud" in text and "Presa 1:" in text
    assert "L'IA (heuristic) con le tue carte" in text and "Precisione:" in text
    # the graph's large moves, each with its causes
    assert data["swings"] and "Che cosa ha spostato la stima" in text and " in tutto: " in text
    rec = json.loads(path.read_text())
    rec["actions"][10]["action"] = "MATTO" if rec["actions"][10]["action"] != "MATTO" else "T1"
    path.write_text(json.dumps(rec))
    assert main(["review", str(path)]) == 1
    assert "action 11" in capsys.readouterr().err
