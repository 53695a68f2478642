"""The arena's seed pairs as Ray tasks, on a local Ray instance or an existing cluster.

Ray is an optional extra (`pip install 'tarocchi[ray]'`); the engine and the default
process pool do not need it. Every task plays one seed's two deals exactly as a pool
worker does (`arena.play_pair`) and hands back their summaries and records, so a run on
Ray gives the same records and summary as a local run of the same seeds. A task lost with
its worker or its node is run again, up to `RETRIES` times (Ray's `max_retries`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Generator
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")
RETRIES = 3


def ray_map(fn: Callable[[T], R], tasks: list[T], address: str, cpus: int) -> Generator[R]:
    """Yield fn(task) for each task in order, each run as a Ray task (`arena.play_pair`).

    address "" starts a local Ray instance of `cpus` CPUs for this match; otherwise Ray
    joins the cluster at address ("auto" for the one this machine belongs to), whose
    nodes must have tarocchi, and any bot package the match names, installed."""
    try:
        import ray
    except ModuleNotFoundError as e:
        raise ValueError(f"--ray needs {e.name}: pip install 'tarocchi[ray]'") from e
    started = not ray.is_initialized()
    if started:
        options: dict[str, Any] = {"address": address} if address else {"num_cpus": max(1, cpus)}
        ray.init(include_dashboard=False, logging_level=logging.WARNING, **options)
    remote = ray.remote(max_retries=RETRIES)(fn)
    refs = [remote.remote(task) for task in tasks]
    fetched = 0
    try:
        for ref in refs:  # in seed order, as the pool's imap: the log's order and ours agree
            result: R = ray.get(ref)
            fetched += 1
            yield result
    finally:
        if started:
            ray.shutdown()  # our own instance: its workers go with it
        elif fetched < len(refs):  # a match stopped early on a cluster: drop what still waits
            _, waiting = ray.wait(refs[fetched:], num_returns=len(refs) - fetched, timeout=0)
            for ref in waiting:  # (only those not done: cancelling a finished task trips Ray)
                ray.cancel(ref)
