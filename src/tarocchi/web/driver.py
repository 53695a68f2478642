"""The AI at friends' tables: after each change, the seats nobody holds are played.

When a table changes (a seat's action here, a change another process made that a
connection here hears of, a seat connecting), the driver of this process reads the game;
while a seat the AI plays is to move it runs the AI's turns in the AI pool, up to the next
seat a person holds or the deal's end, and stores them with the same conditional write as
every action, so they apply at most once whatever else happens. One process at a time
drives a table: the one holding its lease in the database (`store.tables.lead`), renewed
while the AI thinks. A process refused the lease looks again when it would run out, so
when the holder dies (SIGKILL included) another process with players at that table takes
its AI over. The AI's moves are paced by the pages, which show the events of one change
one after another, as for one human. At a table every seat of which is the AI's (one to
watch: `tarocchi.web.watch`) the driver plays one move at a time, PACE_S apart.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import secrets
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from fastapi import HTTPException

from tarocchi.games import game
from tarocchi.record import now
from tarocchi.web.api import AI_SEATS, Games, outcome, table_turns
from tarocchi.web.store import StoreUnavailable

LOG = logging.getLogger(__name__)
RETRY_S = 1.0  # the wait before driving a table again after the AI or the database failed
DRIVER = "driver"  # the AI pool's client of every table's AI turns
LEASE_ENV = "TAROCCHI_TABLE_LEASE_S"
LEASE_S = 10.0  # how long a dead process's tables wait before another drives their AI
PACE_ENV = "TAROCCHI_WATCH_PACE_S"
PACE_S = 1.5  # seconds between two moves at a table every seat of which is the AI's
ALL_SEATS = (0, 1, 2, 3)
ONE_MOVE = functools.partial(table_turns, most=1)  # (picklable, for the AI pool)


class Driver:
    """Plays the AI's seats of the friends' tables this process hears of."""

    def __init__(self, games: Games, lease_s: float | None = None) -> None:
        self.games = games
        self.store = games.store
        self.lease_s = lease_s or float(os.environ.get(LEASE_ENV) or LEASE_S)
        self.pace_s = float(os.environ.get(PACE_ENV) or PACE_S)
        self.owner = f"{os.getpid()}-{secrets.token_hex(6)}"
        self.running: dict[str, asyncio.Task[None]] = {}
        self.again: set[str] = set()  # tables changed while their drive was running
        self.later: dict[str, asyncio.TimerHandle] = {}  # tables another process leads

    def kick(self, game_id: str) -> None:
        """Drive a table now (called on the event loop after each of its changes)."""
        if game_id in self.running:
            self.again.add(game_id)
            return
        task = asyncio.get_running_loop().create_task(self._drive(game_id))
        self.running[game_id] = task
        task.add_done_callback(lambda _: self._done(game_id))

    def _done(self, game_id: str) -> None:
        del self.running[game_id]
        if game_id in self.again:
            self.again.discard(game_id)
            self.kick(game_id)

    def close(self) -> None:
        """Stop every drive (the stored games lose nothing: a drive writes whole turns)."""
        for timer in self.later.values():
            timer.cancel()
        for task in list(self.running.values()):
            task.cancel()

    async def lead(self, game_id: str) -> bool:
        """Take or extend this process's lease of a table; if another process holds it,
        look again when it would run out (its holder may be dead) and return False."""
        until = _at(self.lease_s)
        if await asyncio.to_thread(self.store.tables.lead, game_id, self.owner, _at(), until):
            return True
        if game_id not in self.later:
            self.later[game_id] = asyncio.get_running_loop().call_later(
                self.lease_s + 1, self._recheck, game_id
            )
        return False

    def _recheck(self, game_id: str) -> None:
        del self.later[game_id]
        self.kick(game_id)

    async def renew(self, game_id: str) -> None:
        """Extend the lease while the AI thinks (a search may outlast one lease)."""
        while True:
            await asyncio.sleep(self.lease_s / 3)
            await self.lead(game_id)

    async def _drive(self, game_id: str) -> None:
        while True:
            try:
                if not await self.turn(game_id):
                    return
            except (StoreUnavailable, HTTPException) as e:  # the database or the AI away
                LOG.warning("table %s: the AI's turn failed (%s); trying again", game_id, e)
                await asyncio.sleep(RETRY_S)

    async def turn(self, game_id: str) -> bool:
        """Play the AI's turns of a table if one of its seats is to move; return whether
        the table changed (or another writer's change was found first)."""
        row = await asyncio.to_thread(self.store.get, game_id)
        if row is None:
            return False
        live = self.games.in_memory(row)
        held = {s.seat for s in await asyncio.to_thread(self.store.tables.seats, game_id)
                if s.token_hash is not None}  # fmt: skip
        seats = tuple(s for s in AI_SEATS if s not in held)
        job: Callable[..., list[tuple[int, str]]] = table_turns
        watched = (await asyncio.to_thread(self.store.tables.options, game_id)).watched
        if watched:  # every seat the AI's: one move at a time, for its watchers
            seats, job = ALL_SEATS, ONE_MOVE
        if live.state.to_move not in seats or not await self.lead(game_id):
            return False
        args = (row.game, row.seed, row.level, row.actions, seats)
        beat = asyncio.create_task(self.renew(game_id))
        try:
            ai = await self.games.in_pool(DRIVER, game_id, job, *args)
        finally:
            beat.cancel()
        rules = game(row.game)
        state = live.state
        for _, code in ai:
            state = rules.apply(state, rules.parse_action(code))
        actions = (*row.actions, *ai)
        over = rules.is_over(state)
        ended = outcome(rules, state)  # (the creator's history)
        stored = asyncio.to_thread(self.store.update, game_id, row.version, actions, over, now(),
                                   ended)  # fmt: skip
        if await stored:
            await asyncio.to_thread(self.store.tables.unlead, game_id, self.owner)
            if over:
                self.games.ended(game_id)
            elif watched:
                await asyncio.sleep(self.pace_s)
        return True


def _at(seconds: float = 0.0) -> str:
    """Return the time in some seconds (now by default), as the store writes times."""
    return (datetime.now(UTC) + timedelta(seconds=seconds)).isoformat(timespec="seconds")
