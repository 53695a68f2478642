"""The supervised AI pool: the short budget under load, a dead worker's job run again, a hung
worker replaced, each key's bounded queue (with light jobs, not the bots)."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

import pytest

from tarocchi.web.workers import AiPool, Busy, Unavailable, lower_priority


def nothing() -> None:
    """A worker initializer that loads nothing."""


def nap(seconds: float, short: bool) -> bool:
    """Sleep; return whether the job was told to think less."""
    time.sleep(seconds)
    return short


def die_once(marker: str) -> int:
    """Kill this worker the first time (the marker file does not exist yet); then answer."""
    if not os.path.exists(marker):
        Path(marker).touch()
        os._exit(1)
    return os.getpid()


def die() -> None:
    os._exit(1)


def standing() -> tuple[int, int, int, str]:
    """Return this worker's process id, session id, niceness and scheduling group."""
    group = Path("/proc/self/autogroup")
    return os.getpid(), os.getsid(0), os.nice(0), group.read_text() if group.exists() else ""


def run(coro: object) -> object:
    return asyncio.run(coro)  # type: ignore[arg-type]


def test_every_worker_busy_means_the_short_budget() -> None:
    async def scenario() -> list[bool]:
        pool = AiPool(2, nothing)
        await pool.start()
        try:
            first = [asyncio.create_task(pool.run([f"client {i}"], nap, 0.6, shortens=True))
                     for i in range(2)]  # fmt: skip
            await asyncio.sleep(0.2)
            third = await pool.run(["client 3"], nap, 0.0, shortens=True)
            alone = await pool.run(["client 4"], nap, 0.0, shortens=True)  # both free again
            return [*(await asyncio.gather(*first)), third, alone]
        finally:
            pool.close()

    assert run(scenario()) == [False, False, True, False]


def test_a_dead_workers_job_runs_once_more(tmp_path: Path) -> None:
    async def scenario() -> tuple[int, list[int], int]:
        pool = AiPool(2, nothing)
        await pool.start()
        before = pool.pids()
        try:
            pid = await pool.run(["client a"], die_once, str(tmp_path / "marker"))
            with pytest.raises(Unavailable):
                await pool.run(["client a"], die)  # dies again on the fresh pool: 503
            return pid, before, pool.replaced
        finally:
            pool.close()

    pid, before, replaced = run(scenario())  # type: ignore[misc]
    assert pid not in before and replaced == 3  # die_once: 1; die, run twice: 2


def test_a_hung_worker_is_replaced() -> None:
    async def scenario() -> tuple[float, bool, int]:
        pool = AiPool(1, nothing, deadline_s=1.0)
        await pool.start()
        stuck = pool.pids()
        try:
            start = time.perf_counter()
            with pytest.raises(Unavailable):
                await pool.run(["client a"], nap, 60.0, False)
            waited = time.perf_counter() - start
            answered = await pool.alive(timeout=30)
            await asyncio.sleep(0.5)
            return waited, answered and not Path(f"/proc/{stuck[0]}").exists(), pool.replaced
        finally:
            pool.close()

    waited, replaced_worker, replaced = run(scenario())  # type: ignore[misc]
    assert waited < 5 and replaced_worker and replaced == 1


def test_a_keys_queue_is_bounded() -> None:
    """One job runs and two wait per key; a fourth is refused at once, other keys are not."""

    async def scenario() -> list[str]:
        pool = AiPool(2, nothing)
        await pool.start()
        try:
            jobs = [asyncio.create_task(pool.run(["game x"], nap, 0.3, False)) for _ in range(3)]
            await asyncio.sleep(0.05)
            with pytest.raises(Busy):
                await pool.run(["client y", "game x"], nap, 0.0, False)
            await pool.run(["game z"], nap, 0.0, False)
            await asyncio.gather(*jobs)
            return list(pool._queues)  # every turn given back
        finally:
            pool.close()

    assert run(scenario()) == []


def test_a_worker_yields_to_the_servers_in_any_session() -> None:
    """A worker at niceness 10 is also in a session of its own whose scheduling group is as
    nice (under autogroup, nice values count only inside a session: a server in another
    session would otherwise share the cores equally with the searches)."""

    async def scenario() -> tuple[int, int, int, str]:
        pool = AiPool(1, lower_priority, (10,))
        await pool.start()
        try:
            return await pool.run([], standing)
        finally:
            pool.close()

    pid, session, niceness, group = run(scenario())  # type: ignore[misc]
    # Linux caps niceness at 19: a suite run under `nice` sees its workers stop there
    assert session == pid != os.getsid(0) and niceness == min(os.nice(0) + 10, 19)
    if group:  # a kernel with autogroup
        assert group.strip().endswith("nice 10")
