"""`tarocchi verify` and `tarocchi play --daily` against a real server: a past day's seed
fetched, checked against its commitment, played in the terminal as the site's AI plays it,
and its record verified; today's seed is refused, not revealed."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tarocchi import daily
from tarocchi.cli import main
from tarocchi.web.store import Store
from tests.conftest import free_port, start_server, stop_server
from tests.play.test_daily import NAME, south_decisions


@pytest.mark.slow
def test_verify_and_play_a_past_day_from_the_server(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "games.sqlite3"
    yesterday = datetime.now(UTC).date() - timedelta(days=1)
    with Store(db) as store:
        store.upgrade()
        seed = daily.seed_of(store.daily.key("now"), NAME, yesterday)
        store.daily.publish(NAME, str(yesterday), daily.commitment(NAME, yesterday, seed), "then")
    port = free_port()
    proc = start_server(db, port)
    url = f"http://127.0.0.1:{port}"
    try:
        assert main(["verify", NAME, str(yesterday), "--server", url]) == 0
        assert f"the seed {seed} matches the commitment" in capsys.readouterr().out
        today = str(datetime.now(UTC).date())
        assert main(["verify", NAME, today, "--server", url]) == 1
        assert "is not revealed yet" in capsys.readouterr().err
        assert main(["verify", NAME, "2001-01-01", "--server", url]) == 1
        assert "404" in capsys.readouterr().err
        record = tmp_path / "mine.json"
        moves = "1\n" * south_decisions(seed) + f"save {record}\n"
        played = subprocess.run(
            [sys.executable, "-m", "tarocchi.cli", "play", NAME, "--daily", str(yesterday),
             "--server", url, "--lang", "en"],
            input=moves, capture_output=True, text=True, timeout=600, check=False,
        )  # fmt: skip
        assert played.returncode == 0, played.stderr
        assert "as practice" in played.stdout
        assert main(["verify", NAME, str(yesterday), "--server", url, "--record",
                     str(record)]) == 0  # fmt: skip
        assert "AI actions all follow" in capsys.readouterr().out
    finally:
        stop_server(proc)
