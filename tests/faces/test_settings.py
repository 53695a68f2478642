"""The web server's settings: built once from the environment, a bad value refused at start
with its variable named."""

from __future__ import annotations

from pathlib import Path

import pytest

from tarocchi.cli import main
from tarocchi.web.settings import (
    AI_WORKERS_ENV,
    DAILY_KEY_ENV,
    DB_ENV,
    GRACE_ENV,
    PACE_ENV,
    REVIEW_LEASE_ENV,
    TABLE_LEASE_ENV,
    TIMING_ENV,
    TURN_TIMER_ENV,
    Settings,
)
from tarocchi.web.store.retention import UNFINISHED_ENV
from tests.conftest import store_of


def test_the_environment_gives_each_setting() -> None:
    given = {DB_ENV: "postgresql://h/db", AI_WORKERS_ENV: "3", TIMING_ENV: "1",
             TABLE_LEASE_ENV: "2.5", GRACE_ENV: "5", PACE_ENV: "0.25", REVIEW_LEASE_ENV: "4",
             UNFINISHED_ENV: "never", DAILY_KEY_ENV: "a site's own daily key"}  # fmt: skip
    s = Settings.from_environment(given)
    assert (s.db, s.ai_workers, s.timing) == ("postgresql://h/db", 3, True)
    assert s.daily_key == "a site's own daily key" and "daily key" not in repr(s)  # a secret
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


@pytest.mark.parametrize(
    ("value", "why"),
    [("mysql://u:secret@h/db", "a mysql:// URL is no database here"),
     ("postgresql://u:secret@h:port/db", "this postgresql: URL does not parse"),
     ("postgresql:u:secret", "this postgresql: URL does not parse")],
)  # fmt: skip
def test_a_bad_database_is_refused_without_its_password(value: str, why: str) -> None:
    with pytest.raises(ValueError, match=DB_ENV) as refused:
        Settings.from_environment({DB_ENV: value})
    assert why in str(refused.value) and "secret" not in str(refused.value)


def test_a_short_daily_key_is_refused_without_telling_it() -> None:
    with pytest.raises(ValueError, match=DAILY_KEY_ENV) as refused:
        Settings.from_environment({DAILY_KEY_ENV: "guessable"})
    assert "guessable" not in str(refused.value)


@pytest.mark.slow  # an app with its AI worker
def test_the_app_hands_the_site_s_daily_key_to_its_store(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from tarocchi.web.app import create_app

    key = "the site's own daily key"
    settings = Settings(db=str(tmp_path / "g.sqlite3"), ai_workers=1, daily_key=key)
    with TestClient(create_app(settings=settings)) as client:
        assert store_of(client).daily.key("2026-12-05T10:00:00+00:00") == key.encode()


def test_settings_made_in_code_hold_the_same_bounds() -> None:
    with pytest.raises(ValueError, match="away_grace_s"):
        Settings(away_grace_s=0)
    with pytest.raises(ValueError, match="ai_workers"):
        Settings(ai_workers=-1)


def test_serve_refuses_a_bad_setting_before_it_starts(
    monkeypatch: pytest.MonkeyPatch, tmp_path: object, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(DB_ENV, "")  # serve sets it: so that the test's end restores it
    monkeypatch.delenv(DB_ENV)
    monkeypatch.setenv(GRACE_ENV, "a minute")
    assert main(["serve", "--db", f"{tmp_path}/g.sqlite3"]) == 2
    assert GRACE_ENV in capsys.readouterr().err
    monkeypatch.delenv(GRACE_ENV)
    assert main(["serve", "--db", "mysql://h/db"]) == 2
    assert DB_ENV in capsys.readouterr().err
