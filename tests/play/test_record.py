"""Records: the fields docs/architecture.md lists, JSON round trips, replay, clear errors."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tarocchi.games import game
from tarocchi.match import DealLog, play_deal
from tarocchi.record import FORMAT, RecordError, load, make_record, replay, save


def record_of(seed: int, bots: str = "random") -> dict[str, Any]:
    return make_record(play_deal("piedicavallo", seed, [bots] * 4))


def test_record_has_the_design_fields() -> None:
    rec = record_of(4)
    for key in ("format", "version", "game", "seed", "dealer", "hands", "actions", "result"):
        assert key in rec
    assert rec["format"] == FORMAT and rec["version"] == 1 and rec["game"] == "piedicavallo"
    assert sorted(len(h) for h in rec["hands"]) == [15, 15, 15, 17]
    assert len(rec["hands"][rec["dealer"]]) == 17
    assert len(rec["actions"]) == 62 and len(rec["winners"]) == 15
    assert rec["actions"][0]["seat"] == rec["dealer"]
    assert rec["result"]["winner"] in ("NS", "EW", "draw")
    assert rec["result"]["ns"] + rec["result"]["ew"] == 114
    assert [p["name"] for p in rec["players"]] == ["random"] * 4
    assert rec["started_at"] and rec["finished_at"]


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_record_round_trips(seed: int) -> None:
    """parse(format(x)) == x: a record survives JSON and replays to its own result."""
    rec = record_of(seed)
    again = json.loads(json.dumps(rec))
    assert again == rec
    rules, state = replay(again)
    assert rules.result(state).ns == rec["result"]["ns"]


def test_save_load_replay(tmp_path: Path) -> None:
    rec = record_of(9)
    path = tmp_path / "deal.json"
    save(rec, path)
    assert load(path) == rec
    replay(load(path))


def tamper(rec: dict[str, Any], fn: Any) -> dict[str, Any]:
    bad = copy.deepcopy(rec)
    fn(bad)
    return bad


def test_tampered_records_name_the_first_bad_action() -> None:
    rec = record_of(12)
    first_play = next(i for i, a in enumerate(rec["actions"]) if i >= 2)
    # an action replaced by a card its seat does not hold
    other = rec["hands"][(rec["actions"][first_play]["seat"] + 1) % 4][0]

    def swap(r: dict[str, Any]) -> None:
        r["actions"][first_play]["action"] = other

    rules = game(rec["game"])
    name = rules.pack.cards[rules.card_id(other)].name_en  # the card as players read it
    seat = rec["actions"][first_play]["seat"]
    with pytest.raises(RecordError, match=rf"action {first_play + 1} \({name} by seat {seat}\)"):
        replay(tamper(rec, swap))

    def wrong_seat(r: dict[str, Any]) -> None:
        r["actions"][5]["seat"] = (r["actions"][5]["seat"] + 1) % 4

    with pytest.raises(RecordError, match=r"action 6 .*not that seat's turn"):
        replay(tamper(rec, wrong_seat))

    def unknown(r: dict[str, Any]) -> None:
        r["actions"][3]["action"] = "ZZ-9"

    with pytest.raises(RecordError, match=r"action 4 .*no card"):
        replay(tamper(rec, unknown))

    def truncated(r: dict[str, Any]) -> None:
        del r["actions"][-1]

    with pytest.raises(RecordError, match="before the deal ends"):
        replay(tamper(rec, truncated))

    def longer(r: dict[str, Any]) -> None:
        r["actions"].append(dict(r["actions"][-1]))

    n = len(rec["actions"]) + 1
    with pytest.raises(RecordError, match=rf"action {n} .*: the deal is over"):
        replay(tamper(rec, longer))

    def malformed(r: dict[str, Any]) -> None:
        r["actions"][2]["seat"] = str(r["actions"][2]["seat"])

    with pytest.raises(RecordError, match=r"action 3 is malformed"):
        replay(tamper(rec, malformed))


def test_tampered_results_and_deals_are_refused() -> None:
    rec = record_of(13)

    def score(r: dict[str, Any]) -> None:
        r["result"]["ns"] += 1

    with pytest.raises(RecordError, match="stored result has ns="):
        replay(tamper(rec, score))

    def hands(r: dict[str, Any]) -> None:
        r["hands"][0], r["hands"][1] = r["hands"][1], r["hands"][0]

    with pytest.raises(RecordError, match="hands do not match"):
        replay(tamper(rec, hands))
    for key, value in (("format", "x"), ("version", 99), ("game", "scopa"), ("seed", "7"),
                       ("actions", None), ("dealer", 9)):  # fmt: skip
        with pytest.raises(RecordError):
            replay(tamper(rec, lambda r, k=key, v=value: r.__setitem__(k, v)))


def test_corrupt_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{not json")
    with pytest.raises(RecordError, match="cannot read"):
        load(path)
    path.write_text("[1, 2]")
    with pytest.raises(RecordError, match="JSON object"):
        load(path)


def test_a_deal_log_before_any_action_has_no_result() -> None:
    rules = game("piedicavallo")
    log = DealLog(rules, 1, rules.deal(1), ("human", "easy", "easy", "easy"))
    with pytest.raises(ValueError, match="no action has been played"):
        _ = log.result
