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
watch: `tarocchi.web.watch`) the driver plays one move at a time, its pace apart.

The AI also plays a human's turn when their time runs out (`due`): their grace (a setting:
`tarocchi.web.settings`), counted from the later of the turn's start and when they were last
seen (their pings push that on; a closed tab sets it), or the table's turn timer (none at
friends' tables). A grace run out leaves the AI standing in for them until they are back, as
a seat handed over does until taken back; each such decision is stored marked. Every time
it needs lives in the database, so the process that takes a dead one's lease finds the same
deadlines; each process with players at a table wakes it when the next one passes.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import secrets
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from tarocchi.games import game
from tarocchi.record import now
from tarocchi.web.errors import Refused
from tarocchi.web.jobs import AI_SEATS, HUMAN, table_turns
from tarocchi.web.service import Games, outcome
from tarocchi.web.store import StoreUnavailable
from tarocchi.web.store.presence import AWAY, Clock, mark

LOG = logging.getLogger(__name__)
RETRY_S = 1.0  # the wait before driving a table again after the AI or the database failed
DRIVER = "driver"  # the AI pool's client of every table's AI turns
SEEN_S = 30.0  # a seat without a ping for this long is away (its page pings every 10 s)
WAKE_MARGIN_S = 0.05  # past a deadline when its table is driven again
ALL_SEATS = (0, 1, 2, 3)
ONE_MOVE = functools.partial(table_turns, most=1)  # (picklable, for the AI pool)


class Driver:
    """Plays the AI's seats of the friends' tables this process hears of."""

    def __init__(self, games: Games, lease_s: float, grace_s: float, pace_s: float) -> None:
        """Drive the tables of a game service: a dead process's tables after lease_s, an
        away human's turn after grace_s, a table of four AI players pace_s per move."""
        self.games = games
        self.store = games.store
        self.lease_s = lease_s
        self.grace_s = grace_s
        self.pace_s = pace_s
        self.owner = f"{os.getpid()}-{secrets.token_hex(6)}"
        self.running: dict[str, asyncio.Task[None]] = {}
        self.again: set[str] = set()  # tables changed while their drive was running
        self.later: dict[str, asyncio.TimerHandle] = {}  # tables another process leads
        self.wakes: dict[str, asyncio.TimerHandle] = {}  # tables with a human's time running

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
        for timer in (*self.later.values(), *self.wakes.values()):
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

    async def renew(self, game_id: str, done: asyncio.Event) -> None:
        """Extend the lease while the AI thinks (a search may outlast one lease), until done.
        No renewal is in flight once this returns: one landing after the lease was given back
        would hold the table for nothing, and other processes would wait it out."""
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(done.wait(), self.lease_s / 3)
                return
            with contextlib.suppress(StoreUnavailable):  # (the next renewal may land)
                await self.lead(game_id)

    async def _drive(self, game_id: str) -> None:
        while True:
            try:
                if not await self.turn(game_id):
                    return
            except (StoreUnavailable, Refused) as e:  # the database or the AI away
                LOG.warning("table %s: the AI's turn failed (%s); trying again", game_id, e)
                await asyncio.sleep(RETRY_S)

    async def turn(self, game_id: str) -> bool:
        """Play the AI's turns of a table if one of its seats is to move (or a human's whose
        time ran out); return whether the table changed (or another writer's change was
        found first)."""
        row = await asyncio.to_thread(self.store.get, game_id)
        if row is None:
            return False
        live = self.games.in_memory(row)
        watched = (await asyncio.to_thread(self.store.tables.options, game_id)).watched
        plan = (
            (ALL_SEATS, frozenset[int](), None, None)  # every seat the AI's: one move at a time
            if watched
            else await self.plan(game_id, live.state.to_move)
        )
        if plan is None or live.state.to_move is None or not await self.lead(game_id):
            return False
        seats, humans, timed, away = plan
        job: Callable[..., list[tuple[int, str]]] = ONE_MOVE if watched else table_turns
        if away is not None:  # its grace ran out: the AI stands in until its human is back
            await asyncio.to_thread(self.store.presence.stand_in, game_id, away, AWAY)
        args = (row.game, row.seed, row.level, row.actions, seats)
        done = asyncio.Event()
        beat = asyncio.create_task(self.renew(game_id, done))
        try:
            ai = await self.games.in_pool(DRIVER, game_id, job, *args)
        finally:
            done.set()
            await beat
        if timed is not None:  # the timer plays one turn of the seat, not the next
            ai = ai[: next((i for i, (s, _) in enumerate(ai) if i and s == timed), len(ai))]
        rules = game(row.game)
        state = live.state
        for _, code in ai:
            state = rules.apply(state, rules.parse_action(code))
        actions = (*row.actions, *ai)
        over = rules.is_over(state)
        ended = outcome(rules, state)  # (the creator's history)
        marked = {len(row.actions) + i: s for i, (s, _) in enumerate(ai) if s in humans}
        then = mark(game_id, marked) if marked else None
        stored = asyncio.to_thread(self.store.update, game_id, row.version, actions, over, now(),
                                   ended, then)  # fmt: skip
        if await stored:
            await asyncio.to_thread(self.store.tables.unlead, game_id, self.owner)
            if over:
                self.games.ended(game_id)
            elif watched:
                await asyncio.sleep(self.pace_s)
        return True

    async def plan(
        self, game_id: str, to_move: int | None
    ) -> tuple[tuple[int, ...], frozenset[int], int | None, int | None] | None:
        """Return the seats the AI plays now if one of them is to move (those nobody holds,
        those it stands in for, and a human's whose time ran out), the human seats at the
        table, the seat the turn timer gives it for one turn and the seat whose grace ran out;
        else None, waking the table when a human's time will run out."""
        if to_move is None:
            return None
        held = {s.seat for s in await asyncio.to_thread(self.store.tables.seats, game_id)
                if s.token_hash is not None}  # fmt: skip
        clock = await asyncio.to_thread(self.store.presence.clock, game_id)
        if clock is None:
            return None
        covered = {p.seat for p in clock.seats if p.stand_in is not None}
        seats = {s for s in AI_SEATS if s not in held} | covered
        humans = frozenset({HUMAN, *held})
        if to_move in seats:
            return tuple(sorted(seats)), humans, None, None
        # nobody waits on a human alone at a table: their turns wait for them, whatever time
        when = due(clock, to_move, self.grace_s if len(humans) > 1 else None)
        if when is None:
            return None
        at, away = when
        if at > datetime.now(UTC):
            self.wake(game_id, at)
            return None
        timed, gone = (None, to_move) if away else (to_move, None)
        return tuple(sorted(seats | {to_move})), humans, timed, gone

    def wake(self, game_id: str, at: datetime) -> None:
        """Drive a table again at a time (a human's grace or turn runs out then)."""
        if (old := self.wakes.pop(game_id, None)) is not None:
            old.cancel()
        delay = (at - datetime.now(UTC)).total_seconds() + WAKE_MARGIN_S
        self.wakes[game_id] = asyncio.get_running_loop().call_later(
            max(0.0, delay), self._woken, game_id
        )

    def _woken(self, game_id: str) -> None:
        del self.wakes[game_id]
        self.kick(game_id)


def due(clock: Clock, seat: int, grace_s: float | None) -> tuple[datetime, bool] | None:
    """Return when the AI may play a human seat's turn and whether it is because its human is
    away (their grace, counted from the later of the turn's start and when they were last
    seen, ran out; None: no grace runs) rather than the table's turn timer; None if never."""
    since = datetime.fromisoformat(clock.turn_since)
    here = clock.of(seat)
    dues = []
    if here is not None and grace_s is not None:  # (one never connected has not come yet)
        seen = datetime.fromisoformat(here.seen_until)
        dues.append((max(seen, since) + timedelta(seconds=grace_s), True))
    if clock.turn_s is not None:
        dues.append((since + timedelta(seconds=clock.turn_s), False))
    return min(dues) if dues else None


def absent(clock: Clock) -> tuple[list[int], list[int]]:
    """Return the seats whose humans are away and those the AI stands in for (public: every
    page shows who is away and who plays for them)."""
    at = datetime.now(UTC)
    away = [p.seat for p in clock.seats if p.stand_in is not None or not clock.is_here(p.seat, at)]
    return away, [p.seat for p in clock.seats if p.stand_in is not None]


def _at(seconds: float = 0.0) -> str:
    """Return the time in some seconds (now by default), as the store writes times."""
    return (datetime.now(UTC) + timedelta(seconds=seconds)).isoformat(timespec="seconds")
