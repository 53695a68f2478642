"""The web server's settings: built once from the environment, a bad value refused at start
with its variable named."""

from __future__ import annotations

import pytest

from tarocchi.cli import main
from tarocchi.web.settings import (
    AI_WORKERS_ENV,
    GRACE_ENV,
    PACE_ENV,
    REVIEW_LEASE_ENV,
    TABLE_LEASE_ENV,
    TIMING_ENV,
    TURN_TIMER_ENV,
    Settings,
)
from tarocchi.web.store import DB_ENV
from tarocchi.web.store.retention import UNFINISHED_ENV


def test_the_environment_gives_each_setting() -> None:
    given = {DB_ENV: "postgresql://h/db", AI_WORKERS_ENV: "3", TIMING_ENV: "1",
             TABLE_LEASE_ENV: "2.5", GRACE_ENV: "5", PACE_ENV: "0.25", REVIEW_LEASE_ENV: "4",
             UNFINISHED_ENV: "never"}  # fmt: skip
    s = Settings.from_environment(given)
    assert (s.db, s.ai_workers, s.timing) == ("postgresql://h/db", 3, True)
    assert (s.table_lease_s, s.away_grace_s, s.watch_pace_s, s.review_lease_s) == (2.5, 5, 0.25, 4)
    assert s.retention.unfinished_days is None
    assert Settings.from_environment({}) == Settings()
    # the turn timer: off unless the server sets it (friends take their time)
    assert Settings().turn_timer_s is None
    assert Settings.from_environment({TURN_TIMER_ENV: "45"}).turn_timer_s == 45


@pytest.mark.parametrize(
    ("variable", "value"),
    [(GRACE_ENV, "soon"), (PACE_ENV, "-1"), (TABLE_LEASE_ENV, "nan"), (AI_WORKERS_ENV, "1.5"),
     (REVIEW_LEASE_ENV, "0"), (TURN_TIMER_ENV, "-5")],
)  # fmt: skip
def test_a_bad_value_is_refused_with_its_variable(variable: str, value: str) -> None:
    with pytest.raises(ValueError, match=variable):
        Settings.from_environment({variable: value})


def test_settings_made_in_code_hold_the_same_bounds() -> None:
    with pytest.raises(ValueError, match="away_grace_s"):
        Settings(away_grace_s=0)
    with pytest.raises(ValueError, match="ai_workers"):
        Settings(ai_workers=-1)


def test_serve_refuses_a_bad_setting_before_it_starts(
    monkeypatch: pytest.MonkeyPatch, tmp_path: object, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv(DB_ENV, raising=False)  # (serve sets it: put back after the test)
    monkeypatch.setenv(GRACE_ENV, "a minute")
    assert main(["serve", "--db", f"{tmp_path}/g.sqlite3"]) == 2
    assert GRACE_ENV in capsys.readouterr().err
