"""The AI worker pool: processes that play the AI seats and rank hints, supervised and shared.

The standard library's process pool does the work; this module keeps it alive and fair:

- A worker that dies (killed, out of memory) breaks the whole pool: every job on it fails
  with BrokenProcessPool. The pool is then replaced by a fresh one and the job runs once
  more; a job that outlives its deadline (a hung worker) has the pool's workers killed and
  replaced, and is answered 503 with Retry-After (running it again could hang again).
- Workers die with the server, even after `kill -9`: each asks Linux to send it SIGKILL
  when its parent goes (PR_SET_PDEATHSIG), so no orphan keeps a core or 180 MB.
- Each client (by address) and each game has at most one job in the pool and a short
  queue of its own (one client's flood waits behind itself, not in front of the others);
  past that queue, 429 with Retry-After.
- A job that finds every worker busy runs the search at its short budget (`short`), so
  load shortens the AI's thinking rather than queueing it.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import multiprocessing
import os
import signal
import sys
from collections import Counter
from collections.abc import AsyncIterator, Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")

PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
# a job (every AI move up to South's next decision, or a hint) takes a few seconds at most;
# one still running after this is stuck
DEADLINE_S = 60.0
QUEUE = 2  # jobs a client or a game may have waiting behind its running one
RETRY_AFTER_S = 2  # what a 503 or a full queue's 429 asks the client to wait


class Unavailable(Exception):
    """The AI could not answer (a worker died twice, or hung): 503, retry later."""


class Busy(Exception):
    """A client's or a game's queue is full: 429, retry later."""


def die_with_parent(parent: int) -> None:
    """Make this process receive SIGKILL when its parent dies (Linux), and exit now if the
    parent is already gone (it may have died before the request was made)."""
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)


def _init_worker(parent: int, initializer: Callable[..., None], args: tuple[object, ...]) -> None:
    die_with_parent(parent)
    # the server's SIGINT (Ctrl-C in a terminal reaches the whole group) is the server's
    # to handle: a worker interrupted mid-job would only break the pool during shutdown
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    initializer(*args)


def lower_priority(niceness: int) -> None:
    """Run this worker process below the servers, under Linux's autogroup too: it shares
    the CPU between sessions first and weighs nice values only inside one, so a server in a
    session of its own (a second `tarocchi serve`) would wait behind the other sessions'
    searches. The worker takes a session of its own, its scheduling group as nice as itself
    (docs/experiments.md, "Two server processes")."""
    os.nice(niceness)
    if sys.platform.startswith("linux"):
        os.setsid()
        with contextlib.suppress(OSError):  # a kernel without autogroup: nice alone counts
            Path("/proc/self/autogroup").write_text(str(niceness))


def ping() -> int:
    """Return the worker's process id (a job that tells whether a worker answers)."""
    return os.getpid()


class AiPool:
    """A supervised process pool with a bounded share per client and per game."""

    def __init__(
        self,
        workers: int,
        initializer: Callable[..., None],
        initargs: tuple[object, ...] = (),
        deadline_s: float = DEADLINE_S,
    ) -> None:
        self.workers = workers
        self.deadline_s = deadline_s
        self._init = (os.getpid(), initializer, initargs)
        self.executor = self._new_executor()
        self.running = 0  # jobs submitted and not yet answered
        self.replaced = 0  # pools replaced after a dead or hung worker
        self._queues: Counter[str] = Counter()  # key -> jobs holding or awaiting its turn
        self._locks: dict[str, asyncio.Lock] = {}

    def _new_executor(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            self.workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_init_worker,
            initargs=self._init,
        )

    async def start(self) -> None:
        """Start every worker now (the pool starts them one by one as work arrives), so the
        first players do not wait while a worker process starts and loads the bots."""
        loop = asyncio.get_running_loop()
        pool = self.executor
        await asyncio.gather(*(loop.run_in_executor(pool, ping) for _ in range(self.workers)))

    def close(self, kill: bool = False) -> None:
        """Stop the workers: wait for running jobs, so no semaphore is left to the tracker
        (with kill, end them first: a long job is not worth waiting for)."""
        if kill:
            for process in list((self.executor._processes or {}).values()):
                process.kill()
        self.executor.shutdown(wait=True, cancel_futures=True)

    def pids(self) -> list[int]:
        """Return the process ids of the current workers."""
        return list(self.executor._processes or {})  # the stdlib keeps them by pid

    def is_loaded(self) -> bool:
        """Tell whether every worker is busy (a new job would queue)."""
        return self.running >= self.workers

    async def alive(self, timeout: float) -> bool:
        """Tell whether the pool answers a trivial job within timeout seconds."""
        try:
            await self.run((), ping, timeout=timeout)
        except (Unavailable, TimeoutError):
            return False
        return True

    def _replace(self, broken: ProcessPoolExecutor) -> None:
        """Replace a broken or stuck pool (once, however many jobs saw it fail)."""
        if self.executor is not broken:
            return
        self.executor = self._new_executor()
        self.replaced += 1
        for process in list((broken._processes or {}).values()):
            process.kill()
        broken.shutdown(wait=False, cancel_futures=True)

    def check_room(self, keys: Sequence[str]) -> None:
        """Raise Busy if a key (a client's address, a game's id) already has a running job
        and QUEUE waiting."""
        if any(self._queues[k] > QUEUE for k in keys):
            raise Busy

    @asynccontextmanager
    async def share(self, keys: Sequence[str]) -> AsyncIterator[None]:
        """Hold each key's turn for one job (Busy if a key's queue is full)."""
        self.check_room(keys)
        for k in keys:
            self._queues[k] += 1
        try:
            async with AsyncExitStack() as stack:
                for k in sorted(keys):  # one order for every job: no two jobs wait on each other
                    await stack.enter_async_context(self._locks.setdefault(k, asyncio.Lock()))
                yield
        finally:
            for k in keys:
                self._queues[k] -= 1
                if not self._queues[k]:
                    del self._queues[k]
                    self._locks.pop(k, None)

    async def run(
        self,
        keys: Sequence[str],
        fn: Callable[..., T],
        *args: object,
        shortens: bool = False,
        timeout: float | None = None,
    ) -> T:
        """Run fn(*args) in a worker in the keys' turn; with shortens, fn gets one more
        argument: whether every worker was busy when it was submitted (think less). A dead
        worker's job runs once more on a fresh pool. Raise Busy (a key's queue is full) or
        Unavailable (dead twice, or stuck)."""
        loop = asyncio.get_running_loop()
        async with self.share(keys):
            for attempt in (1, 2):
                pool = self.executor
                call = (*args, self.is_loaded()) if shortens else args
                self.running += 1
                try:
                    job = loop.run_in_executor(pool, fn, *call)
                    return await asyncio.wait_for(job, timeout or self.deadline_s)
                except BrokenProcessPool:
                    self._replace(pool)
                    if attempt == 2:
                        raise Unavailable from None
                except TimeoutError:
                    if timeout is not None:  # the caller's own bound: the worker is not stuck
                        raise
                    self._replace(pool)
                    raise Unavailable from None
                finally:
                    self.running -= 1
        raise AssertionError("unreachable")
