"""The deal of the day: the keyed seed, the commitment, and verify's checks of a record."""

from __future__ import annotations

import copy
import hashlib
import io
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from tarocchi import daily
from tarocchi.bots import make_bot
from tarocchi.cli import main
from tarocchi.games import game
from tarocchi.match import DealLog
from tarocchi.record import load, make_record, save
from tarocchi.terminal import play_terminal

KEY = bytes(range(32))
DAY = date(2026, 12, 5)
NAME = "piedicavallo"
PINNED_SEED = 14970916153523457797  # seed_of(KEY, NAME, DAY) when the derivation was made


def test_the_seed_is_the_keyed_hash_of_game_and_date() -> None:
    seed = daily.seed_of(KEY, NAME, DAY)
    # pinned: a change of the derivation would make every published commitment unverifiable
    assert seed == PINNED_SEED
    assert 0 <= seed < 2**64
    others = {daily.seed_of(KEY, "minchiate", DAY), daily.seed_of(KEY, NAME, date(2026, 12, 6)),
              daily.seed_of(bytes(32), NAME, DAY)}  # fmt: skip
    assert seed not in others and len(others) == 3


def test_the_commitment_names_game_date_and_seed() -> None:
    seed = daily.seed_of(KEY, NAME, DAY)
    text = f"tarocchi daily commitment v1\ngame={NAME}\ndate=2026-12-05\nseed={seed}\n"
    assert daily.commitment(NAME, DAY, seed) == hashlib.sha256(text.encode()).hexdigest()
    assert daily.commitment(NAME, DAY, seed + 1) != daily.commitment(NAME, DAY, seed)
    assert daily.commitment("ottocento", DAY, seed) != daily.commitment(NAME, DAY, seed)


def test_verify_checks_the_seed_against_its_commitment() -> None:
    seed = daily.seed_of(KEY, NAME, DAY)
    published = daily.commitment(NAME, DAY, seed)
    done = daily.verify(NAME, DAY, seed, published.upper())
    assert (done.seed, done.dealer, done.ai_actions) == (seed, game(NAME).deal(seed).dealer, 0)
    with pytest.raises(daily.VerifyError, match="does not match the commitment"):
        daily.verify(NAME, DAY, seed ^ 1, published)
    with pytest.raises(daily.VerifyError, match="does not match the commitment"):
        daily.verify(NAME, date(2026, 12, 4), seed, published)
    with pytest.raises(daily.VerifyError, match="unknown game"):
        daily.verify("scopa", DAY, seed, published)


def played(seed: int, swap_at: int | None = None) -> dict[str, Any]:
    """Return the record of the day's deal with South played by the heuristic and the AI
    seats by `daily.answers`; with swap_at, the AI action at that index is replaced by
    another legal one and the deal finished by the heuristic in every seat."""
    rules = game(NAME)
    state = rules.deal(seed)
    log = DealLog(rules, seed, state, ("human", "normal", "normal", "normal"))
    anyone = make_bot("heuristic", rules, 1)
    while state.to_move is not None:
        index = len(log.actions)
        if state.to_move == daily.HUMAN or (swap_at is not None and index > swap_at):
            moves = [(state.to_move, anyone.choose(rules.view(state, state.to_move)))]
        else:  # the AI's whole run, as the server plays it, up to the swapped action
            moves, before = [], state
            for step in daily.answers(rules, seed, state, index):
                if index + len(moves) == swap_at:
                    other = next(x for x in rules.legal_actions(before) if x != step.action)
                    moves.append((step.seat, other))
                    break
                moves.append((step.seat, step.action))
                before = step.state
        for seat, a in moves:
            log.actions.append((seat, a))
            state = rules.apply(state, a)
    log.final = state
    return make_record(log)


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    return played(daily.seed_of(KEY, NAME, DAY))


def test_verify_replays_a_record_every_ai_action_checked(record: dict[str, Any]) -> None:
    seed = record["seed"]
    published = daily.commitment(NAME, DAY, seed)
    done = daily.verify(NAME, DAY, seed, published, record)
    ai = sum(1 for a in record["actions"] if a["seat"] != daily.HUMAN)
    assert done.ai_actions == ai > 30


def test_verify_names_the_first_ai_action_that_does_not_follow(record: dict[str, Any]) -> None:
    seed = record["seed"]
    rules = game(NAME)
    # the first AI action with a choice after South's first: swapped for another legal card
    state, at = rules.deal(seed), None
    for i, entry in enumerate(record["actions"]):
        south_played = any(e["seat"] == 0 for e in record["actions"][:i])
        if entry["seat"] != 0 and south_played and len(rules.legal_actions(state)) > 1:
            at = i
            break
        state = rules.apply(state, rules.parse_action(entry["action"]))
    assert at is not None
    forged = played(seed, swap_at=at)
    published = daily.commitment(NAME, DAY, seed)
    with pytest.raises(daily.VerifyError, match=rf"^action {at + 1} \(.* by seat \d\) does not"):
        daily.verify(NAME, DAY, seed, published, forged)


def test_verify_refuses_another_deal_or_a_tampered_record(record: dict[str, Any]) -> None:
    seed = record["seed"]
    published = daily.commitment(NAME, DAY, seed)
    other = copy.deepcopy(record)
    other["daily"] = {"game": NAME, "date": "2026-12-04"}
    with pytest.raises(daily.VerifyError, match="says it is the deal of the day"):
        daily.verify(NAME, DAY, seed, published, other)
    with pytest.raises(daily.VerifyError, match="not the deal of ottocento"):
        ottocento = daily.commitment("ottocento", DAY, seed)
        daily.verify("ottocento", DAY, seed, ottocento, record)
    bad = copy.deepcopy(record)
    bad["result"]["ns"] += 1
    with pytest.raises(daily.VerifyError, match="stored result"):
        daily.verify(NAME, DAY, seed, published, bad)


def test_the_verify_command(
    record: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seed = record["seed"]
    published = daily.commitment(NAME, DAY, seed)
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    save(record, good)
    forged = copy.deepcopy(record)
    forged["seed"] = seed ^ 1
    save(forged, bad)
    given = ["verify", NAME, "2026-12-05", "--seed", str(seed), "--commitment", published]
    assert main([*given, "--record", str(good)]) == 0
    out = capsys.readouterr().out
    assert f"the seed {seed} matches the commitment" in out
    ai = sum(1 for a in record["actions"] if a["seat"] != daily.HUMAN)
    assert f"its {ai} AI actions all follow" in out
    assert main([*given, "--record", str(bad)]) == 1
    assert "is not the deal of piedicavallo" in capsys.readouterr().err
    assert main(["verify", NAME, "2026-12-04", "--seed", str(seed), "--commitment", published]) == 1
    assert "does not match the commitment" in capsys.readouterr().err
    assert main(["verify", NAME, "2026-12-05", "--seed", str(seed)]) == 2
    assert main(["verify", NAME, "5 Dec", "--seed", str(seed), "--commitment", published]) == 2
    assert "not a date" in capsys.readouterr().err


def south_decisions(seed: int) -> int:
    """Return how many decisions South has in the day's deal, playing its first legal one."""
    rules, state, mine = game(NAME), game(NAME).deal(seed), 0
    while state.to_move is not None:
        if state.to_move == daily.HUMAN:
            state, mine = rules.apply(state, rules.view(state, 0).legal[0]), mine + 1
        else:
            *_, last = daily.answers(rules, seed, state, 0)
            state = last.state
    return mine


@pytest.mark.slow
def test_the_terminal_plays_a_revealed_day_as_the_site_did(tmp_path: Path) -> None:
    """`tarocchi play GAME --daily DATE`'s deal: its AI answers as verify expects."""
    seed = daily.seed_of(KEY, NAME, DAY)
    saved = tmp_path / "mine.json"
    out = io.StringIO()
    inp = io.StringIO("1\n" * south_decisions(seed) + f"save {saved}\n")
    assert play_terminal(NAME, seed, "easy", inp, out, "en", DAY) == 0
    assert "the deal of the day of 2026-12-05, as practice" in out.getvalue()
    record = load(saved)
    assert record["daily"] == {"game": NAME, "date": "2026-12-05"}
    assert record["practice"] == {"from": None, "action": 0}
    done = daily.verify(NAME, DAY, seed, daily.commitment(NAME, DAY, seed), record)
    assert done.ai_actions == sum(1 for a in record["actions"] if a["seat"] != 0)
