"""The one replay of an action log: every caller gets the same states and the same error,
naming the first bad action."""

from __future__ import annotations

import pytest

from tarocchi.games import game
from tarocchi.games.replay import ReplayError, replay
from tarocchi.i18n import translator
from tarocchi.match import play_deal, replayed
from tarocchi.record import make_record
from tarocchi.views import history


def logged(name: str, seed: int) -> list[tuple[int, str]]:
    """Return the action log (seat, code) of a deal the heuristic bots play."""
    return [(e["seat"], e["action"]) for e in make_record(play_deal(name, seed, ["heuristic"] * 4))
            ["actions"]]  # fmt: skip


@pytest.mark.parametrize("name", ["piedicavallo", "ottocento", "minchiate"])
def test_a_log_replays_to_the_deal_it_was_played_in(name: str) -> None:
    log = logged(name, 3)
    played = play_deal(name, 3, ["heuristic"] * 4)
    again = replayed(game(name), 3, ("heuristic",) * 4, log)
    assert again.actions == played.actions
    assert again.final == played.final == replay(game(name), 3, log)


def test_the_first_bad_action_is_named_and_why() -> None:
    rules = game("piedicavallo")
    log = logged("piedicavallo", 5)
    seat, code = log[20]
    wrong = [*log[:20], ((seat + 1) % 4, code), *log[21:]]
    with pytest.raises(ReplayError) as e:
        replay(rules, 5, wrong)
    text = translator("en").text(e.value.args[0])
    assert text.startswith("the stored game does not replay: action 21 (")
    assert text.endswith(f"by seat {(seat + 1) % 4}): it is not that seat's turn")
    unknown = [*log[:7], (log[7][0], "NOPE"), *log[8:]]
    with pytest.raises(ReplayError, match=r"action 8 \(NOPE by seat \d\)"):
        replay(rules, 5, unknown)
    with pytest.raises(ReplayError, match=rf"action {len(log) + 1} .*the deal is over"):
        replay(rules, 5, [*log, log[-1]])
    # the seat's history refuses the same log with the same message
    with pytest.raises(ReplayError, match="action 21 "):
        history(rules, 5, wrong, 0, translator("en"))
