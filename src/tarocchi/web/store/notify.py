"""Change notification inside one process: each game's new versions fanned out to its watches.

A backend feeds the hub (SQLite after each of this process's writes; PostgreSQL from its
LISTEN connection, which hears every process's writes), and a watch yields the versions
its reader has not seen yet. Versions only grow, so a watch keeps just the latest: a slow
reader skips versions rather than queueing them, and a repeated or late notice is dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from types import TracebackType


class Watch:
    """The new versions of one game, as an async iterator (close it, or use `async with`)."""

    def __init__(self, game_id: str, since: int, on_close: Callable[[Watch], None]) -> None:
        self.game_id = game_id
        self.seen = since
        self._latest = since
        self._changed = asyncio.Event()
        self._loop = asyncio.get_running_loop()
        self._on_close = on_close

    def offer(self, version: int) -> None:
        """Tell the watch the game is at `version` (from any thread)."""
        with contextlib.suppress(RuntimeError):  # its event loop has closed: nobody reads it
            self._loop.call_soon_threadsafe(self._take, version)

    def _take(self, version: int) -> None:
        if version > self._latest:
            self._latest = version
            self._changed.set()

    def __aiter__(self) -> Watch:
        return self

    async def __anext__(self) -> int:
        while self._latest <= self.seen:
            self._changed.clear()
            await self._changed.wait()
        self.seen = self._latest
        return self.seen

    def close(self) -> None:
        """Stop watching."""
        self._on_close(self)

    async def __aenter__(self) -> Watch:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


class Hub:
    """The watches of this process by game (thread-safe)."""

    def __init__(self) -> None:
        self._watches: dict[str, set[Watch]] = {}
        self._lock = threading.Lock()

    def add(self, game_id: str, since: int) -> Watch:
        """Return a new watch of a game (called on the event loop that will read it)."""
        watch = Watch(game_id, since, self._remove)
        with self._lock:
            self._watches.setdefault(game_id, set()).add(watch)
        return watch

    def _remove(self, watch: Watch) -> None:
        with self._lock:
            watches = self._watches.get(watch.game_id, set())
            watches.discard(watch)
            if not watches:
                self._watches.pop(watch.game_id, None)

    def publish(self, game_id: str, version: int) -> None:
        """Tell every watch of a game its new version."""
        with self._lock:
            watches = list(self._watches.get(game_id, ()))
        for watch in watches:
            watch.offer(version)

    def watched(self) -> list[str]:
        """Return the ids of the games some watch follows."""
        with self._lock:
            return list(self._watches)
