"""Terminal play through piped text: a whole deal, bad input answered, the end summary."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from tarocchi.bots import make_bot
from tarocchi.games import GAMES, game
from tarocchi.i18n import translator
from tarocchi.match import advance, bot_seed
from tarocchi.record import load, replay
from tarocchi.terminal import help_text, play_terminal


def run(game_name: str, seed: int, lines: list[str], level: str = "random") -> tuple[int, str]:
    out = io.StringIO()
    status = play_terminal(game_name, seed, level, io.StringIO("\n".join(lines) + "\n"), out)
    return status, out.getvalue()


def first_human_state(game_name: str, seed: int, level: str = "random") -> object:
    rules = game(game_name)
    bots = {s: make_bot(level, rules, bot_seed(seed, s)) for s in (1, 2, 3)}
    state = rules.deal(seed)
    for step in advance(rules, state, bots):
        state = step.state
    return state


def test_a_whole_deal_through_piped_input() -> None:
    status, text = run("piedicavallo", 5, ["1"] * 80)
    assert status == 0
    assert "End of the deal" in text and "Result:" in text
    assert "NS cards:" in text and "EW cards:" in text
    assert "The discard" in text
    assert text.count("wins trick") == 15
    assert "discarded" in text  # the dealer's announcement


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_every_game_plays_to_the_end_in_the_terminal(name: str, seed: int) -> None:
    """Whatever seat deals (discards and declarations included), a deal ends with a summary."""
    status, text = run(name, seed, ["1"] * 200, level="heuristic")
    assert status == 0, text[-2000:]
    assert "=== End of the deal ===" in text and "Result:" in text
    tricks = {"minchiate": 21}.get(name, 15)
    assert text.count("wins trick") == tricks


def test_bad_input_is_explained_and_asked_again() -> None:
    rules = game("piedicavallo")
    seed = next(s for s in range(200) if rules.deal(s).dealer != 0)
    state = first_human_state("piedicavallo", seed)
    legal = set(rules.legal_actions(state))  # type: ignore[arg-type]
    hand = state.hands[0]  # type: ignore[attr-defined]
    illegal = [c for c in range(62) if hand >> c & 1 and c not in legal]
    lines = ["ZZ-9", "999", "help", "hand", "last", "trick", "score", ""]
    if illegal:
        lines.append(rules.card_code(illegal[0]))
    status, text = run("piedicavallo", seed, [*lines, *["1"] * 80])
    assert status == 0
    assert "no card 'ZZ-9'" in text
    assert "Choose a number from 1 to" in text
    assert "Commands:" in text
    assert "No trick has been finished yet." in text or "Last trick" in text
    assert "Score: North-South 0 points, East-West 0 points" in text
    assert "NS: 0 tricks" in text
    if illegal:
        assert "Not allowed: you must" in text or "Not allowed: you have no" in text


def test_the_human_discards_when_dealing() -> None:
    rules = game("piedicavallo")
    seed = next(s for s in range(200) if rules.deal(s).dealer == 0)
    status, text = run("piedicavallo", seed, ["SW-K", *["1"] * 80])
    assert status == 0
    assert "You are the dealer: choose a card to discard" in text
    assert "Kings cannot be discarded" in text or "no card" not in text


def test_last_trick_on_request() -> None:
    status, text = run("piedicavallo", 6, ["1"] * 3 + ["last"] + ["1"] * 80)
    assert status == 0 and "Last trick (won by" in text


def test_end_of_input_leaves_the_deal() -> None:
    status, text = run("piedicavallo", 5, ["1"])
    assert status == 1 and "You left the deal." in text


def test_the_discard_is_never_printed_before_the_end() -> None:
    """An AI dealer's discard is shown only in the end summary (rules §2 and §7.7)."""
    rules = game("piedicavallo")
    for seed in [s for s in range(200) if rules.deal(s).dealer != 0][:5]:
        _, text = run("piedicavallo", seed, ["1"] * 80)
        before_end, summary = text.split("=== End of the deal ===")
        line = next(x for x in summary.splitlines() if x.strip().startswith("The discard"))
        discard = line[line.index(" discarded ") + 11 : line.rindex(")")].split(", ")
        assert len(discard) == 2 and set(discard) <= {c.name_en for c in rules.pack.cards}
        for name in discard:
            assert name not in before_end, seed
        codes = {c.code for c in rules.pack.cards if c.name_en in discard}
        assert not set(before_end.replace("(", " ").split()) & codes, seed


def test_hints_value_every_choice_the_declaration_too() -> None:
    # Ottocento seed 7: South's first decision is the declaration, then its first card: both
    # ranked with a margin on every line, best first
    _, text = run("ottocento", 7, ["?", "PASS", "?", "quit"])
    heads = [line for line in text.splitlines() if line.startswith("Hint, best first")]
    assert (
        heads
        == ["Hint, best first (estimated final margin for your team; type a code to play it):"] * 2
    )
    declare, play = (
        [line.split() for line in part.split("\n>")[0].splitlines() if line.startswith("  - ")]
        for part in text.split("Hint, best first")[1:3]
    )
    assert sorted(line[1] for line in declare) == ["DECLARE", "PASS"]
    for lines in (declare, play):
        margins = [float(line[2]) for line in lines]  # each line shows a margin
        assert margins == sorted(margins, reverse=True) and len(margins) > 1


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_help_examples_are_actions_of_each_game(name: str) -> None:
    rules = game(name)
    text = help_text(rules, translator("en"))
    examples = text[text.index("(e.g. ") + 6 : text.index(")")].split(", ")
    assert len(examples) == 3
    for code in examples:
        assert rules.action_code(rules.parse_action(code)) == code
    listed = [line.split(" -- ")[0].split(" / ") for line in text.splitlines()
              if "as listed when they are offered" in line]  # fmt: skip
    assert [[c.strip() for c in codes] for codes in listed] == (
        [list(rules.extra_actions)] if rules.extra_actions else []
    )
    for code in rules.extra_actions:
        assert rules.action_code(rules.parse_action(code)) == code
    _, session = run(name, 1, ["help", "quit"])
    assert text in session


@pytest.mark.parametrize("name", sorted(GAMES))
def test_names_stand_beside_codes_in_the_hand_and_the_trick(name: str) -> None:
    rules = game(name)
    status, text = run(name, 2, ["1"] * 5 + ["hand", "trick", "quit"])
    assert status == 1
    hand = text.split("Your hand:")[-1].split("Current trick:")[0]
    labels = re.findall(r"([A-Z0-9-]+) \((.+?)\)(?:,|$)", hand, re.M)
    assert labels
    for code, card_name in labels:
        assert rules.pack.cards[rules.card_id(code)].name_en == card_name
    played = re.findall(r"plays ([A-Z0-9-]+) \((.+?)\)$", text, re.M)
    assert played
    for code, card_name in played:
        assert rules.pack.cards[rules.card_id(code)].name_en == card_name


def test_counts_take_their_plural_forms() -> None:
    _, text = run("piedicavallo", 5, ["score", "1"] * 8 + ["quit"])
    counts = re.findall(r"^  (NS|EW): (\d+) (tricks?)$", text, re.M)
    assert len(counts) == 16
    for _team, n, word in counts:
        assert word == ("trick" if n == "1" else "tricks")
    assert {n for _, n, _ in counts} >= {"0", "1", "2"}
    assert "1 tricks" not in text and "(1 points)" not in text


@pytest.mark.slow
def test_the_end_of_a_deal_offers_the_review_and_saving_the_record(tmp_path: Path) -> None:
    """After the last trick: `save FILE` writes a record that replays, `review` reviews the
    deal (the AI in South's seat: the table's level), and anything else ends."""
    path = tmp_path / "deal.json"
    lines = ["1"] * 15 + [f"save {path}", "review", "done", "1"]
    status, text = run("piedicavallo", 5, lines, level="heuristic")
    assert status == 0
    end = text.index("=== End of the deal ===")
    assert "'review'" in text[end:] and f"Saved the deal's record to {path}." in text
    rules, final = replay(load(path))
    assert rules.is_over(final)
    assert load(path)["players"][0]["kind"] == "human"
    review = text[text.index("=== Review of South's play ===") :]
    assert review.count("Trick ") >= 15 and "The AI (heuristic) on your cards" in review
    assert text.rstrip().endswith("> done")  # "done" ended it: the last "1" was never read


def test_tarocchi_history_lists_the_kept_deals_and_their_statistics(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each finished or quit terminal deal is kept in the data folder; `tarocchi history`
    lists them newest first with the statistics per game and level, filtered."""
    from tarocchi.cli import main
    from tarocchi.progress import mean_of

    monkeypatch.setenv("TAROCCHI_DATA", str(tmp_path))
    assert main(["history"]) == 0
    assert "No deals kept yet" in capsys.readouterr().out
    for seed in (1, 2):
        assert run("piedicavallo", seed, ["1"] * 20)[0] == 0
    assert run("minchiate", 3, ["quit"])[0] == 1
    kept = sorted((tmp_path / "deals").glob("*.json"))
    assert len(kept) == 3
    records = [load(p) for p in kept if load(p).get("format") == "tarocchi-record"]
    margins = [r["result"]["ns"] - r["result"]["ew"] for r in records]
    assert main(["history", "--game", "piedicavallo"]) == 0
    out = capsys.readouterr().out
    assert "Minchiate" not in out and out.count("Piedicavallo Tarocchi  random") == 2
    m = mean_of(2, sum(margins), sum(x * x for x in margins))
    assert m is not None
    assert f"mean margin {m.mean:+.1f} (95% interval {m.low:+.1f} to {m.high:+.1f})" in out
    assert main(["history", "--lang", "it"]) == 0
    out = capsys.readouterr().out
    assert "abbandonata" in out and "abbandonate 1" in out and "left" not in out
    # a file that is not a kept deal (no result, not JSON) is skipped
    broken = {**records[0], "result": None}
    (tmp_path / "deals" / "0-no-result.json").write_text(json.dumps(broken))
    (tmp_path / "deals" / "1-not-json.json").write_text("{")
    assert main(["history", "--game", "piedicavallo"]) == 0
    assert capsys.readouterr().out.count("Piedicavallo Tarocchi  random") == 2


def test_a_joined_seat_counts_for_its_own_team_and_is_kept_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tarocchi.terminal import SEATED, Teller, keep, kept

    monkeypatch.setenv("TAROCCHI_DATA", str(tmp_path))
    teller = Teller(game("piedicavallo"), io.StringIO(), translator("en"), 1)
    result = {"ns": 70, "ew": 44, "winner": "NS"}
    for seat, key in ((1, "east"), (1, "east"), (2, "north")):  # (East's deal told twice)
        entry = {
            "format": SEATED,
            "game": "piedicavallo",
            "seat": seat,
            "level": "easy",
            "view": {},
            "result": result,
            "finished_at": f"2026-12-0{seat}T10:00:00+00:00",
        }
        keep(entry, teller, key=key)  # fmt: skip
    got = kept("piedicavallo", "easy")
    assert [(d["result"], d["margin"]) for d in got] == [("win", 26.0), ("loss", -26.0)]
