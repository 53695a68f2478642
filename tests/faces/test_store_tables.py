"""The stored seats and action ids of friends' tables on both backends: one holder per
invitation, a re-issued invitation frees its seat, an action id is written with its game's
move in one transaction (a repeated id gets the first answer and writes nothing), and the
seats go with their game."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from tarocchi.web.store import GameRow, Store, token_hash

T0 = "2026-01-01T00:00:00+00:00"
ONE = ((3, "CU-3"),)
TWO = ((3, "CU-3"), (0, "CU-5"))
T = TypeVar("T")


def together(n: int, work: Callable[[int], T]) -> list[T]:
    """Return the results of work(0..n-1), run in n threads let go at the same moment."""
    barrier = threading.Barrier(n)

    def run(i: int) -> T:
        barrier.wait()
        return work(i)

    with ThreadPoolExecutor(n) as pool:
        return list(pool.map(run, range(n)))


def game(game_id: str = "a") -> GameRow:
    return GameRow(game_id, "h", "piedicavallo", 7, "normal", ONE, 1, False, T0)


def test_an_invitation_gives_its_seat_to_one_holder(store: Store) -> None:
    store.create(game())
    tables = store.tables
    assert not tables.is_table("a")
    tables.invite("a", 2, token_hash("secret"))
    assert tables.is_table("a")
    assert not tables.take("a", 2, token_hash("guess"), token_hash("t0"), T0)  # wrong secret
    assert not tables.take("a", 1, token_hash("secret"), token_hash("t0"), T0)  # another seat
    assert tables.take("a", 2, token_hash("secret"), token_hash("t1"), T0)
    assert not tables.take("a", 2, token_hash("secret"), token_hash("t2"), T0)  # taken
    assert tables.holder("a", token_hash("t1")) == 2
    assert tables.holder("a", token_hash("t2")) is None
    [seat] = tables.seats("a")
    assert (seat.seat, seat.token_hash, seat.taken_at) == (2, token_hash("t1"), T0)


def test_a_reissued_invitation_frees_the_seat(store: Store) -> None:
    store.create(game())
    tables = store.tables
    tables.invite("a", 1, token_hash("old"))
    assert tables.take("a", 1, token_hash("old"), token_hash("t1"), T0)
    tables.invite("a", 1, token_hash("new"))
    assert tables.holder("a", token_hash("t1")) is None  # the old holder's token opens nothing
    assert not tables.take("a", 1, token_hash("old"), token_hash("t2"), T0)
    assert tables.take("a", 1, token_hash("new"), token_hash("t2"), T0)
    assert [s.seat for s in tables.seats("a")] == [1]


def test_concurrent_takes_of_one_link_give_it_once(store: Store) -> None:
    store.create(game())
    store.tables.invite("a", 3, token_hash("s"))
    won = together(6, lambda i: store.tables.take("a", 3, token_hash("s"), token_hash(f"t{i}"), T0))
    assert sorted(won) == [False] * 5 + [True]


def test_an_action_id_is_applied_once_with_its_move(store: Store) -> None:
    store.create(game())
    tables = store.tables
    assert tables.answer("a", 0, "x") is None
    assert tables.act("a", 0, "x", '{"ok": 1}', T0, (1, TWO, False)) == '{"ok": 1}'
    row = store.get("a")
    assert row is not None and row.actions == TWO and row.version == 2
    # the same id again: the first answer, and nothing written (not even at the new version)
    assert tables.act("a", 0, "x", '{"ok": 2}', T0, (2, (*TWO, (1, "CU-7")), False)) == '{"ok": 1}'
    assert store.get("a") == row and tables.answer("a", 0, "x") == '{"ok": 1}'
    # a new id on a version the game has left: None, and its id is not kept either
    assert tables.act("a", 0, "y", '{"ok": 3}', T0, (1, TWO, False)) is None
    assert tables.answer("a", 0, "y") is None and store.get("a") == row
    # a refusal is an id's first answer too; ids are per seat
    assert tables.refuse("a", 0, "z", '{"no": 1}', T0) == '{"no": 1}'
    assert tables.refuse("a", 0, "z", '{"no": 2}', T0) == '{"no": 1}'
    assert tables.refuse("a", 2, "z", '{"no": 3}', T0) == '{"no": 3}'


def test_concurrent_moves_at_one_version_land_once(store: Store) -> None:
    store.create(game())

    def act(i: int) -> str | None:
        move = (1, (*ONE, (0, f"CU-{i + 4}")), False)
        return store.tables.act("a", 0, f"id{i}", f"{i}", T0, move)

    answers = together(4, act)
    [landed] = [a for a in answers if a is not None]
    row = store.get("a")
    assert row is not None and row.actions == (*ONE, (0, f"CU-{int(landed) + 4}"))
    assert [store.tables.answer("a", 0, f"id{i}") for i in range(4)].count(None) == 3


def test_seats_and_ids_go_with_their_game(store: Store) -> None:
    store.create(game())
    store.tables.invite("a", 2, token_hash("s"))
    store.tables.refuse("a", 2, "x", "{}", T0)
    assert store.delete_stale(None, "2027-01-01T00:00:00+00:00") == 0  # unfinished: kept
    assert store.delete_stale("2027-01-01T00:00:00+00:00", None) == 1
    assert store.tables.seats("a") == [] and store.tables.answer("a", 2, "x") is None


def test_one_process_leads_a_table_until_its_lease_runs_out(store: Store) -> None:
    store.create(game())
    tables = store.tables
    t1, t2, t3, t4 = (f"2026-01-01T00:00:{n}0+00:00" for n in (1, 2, 3, 4))
    assert tables.lead("a", "p1", T0, t2)
    assert not tables.lead("a", "p2", t1, t3)  # p1 holds it until t2
    assert tables.lead("a", "p1", t1, t3)  # p1 extends its own
    assert not tables.lead("a", "p2", t2, t3)
    assert tables.lead("a", "p2", t4, t4)  # p1 stopped renewing: p2 takes over
    assert not tables.lead("a", "p1", t3, t4)
    assert not tables.lead("gone", "p1", T0, t1)  # no such game
    tables.unlead("a", "p1")  # not p1's: kept
    assert not tables.lead("a", "p3", t3, t4)
    tables.unlead("a", "p2")  # given back: anyone may lead at once
    won = together(6, lambda i: tables.lead("a", f"q{i}", t1, t2))
    assert won.count(True) == 1
