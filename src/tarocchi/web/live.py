"""The live table: one WebSocket per seat connection, at /api/games/{id}/live.

Every message is JSON text of at most 4 KB. The client speaks first:

    {"type": "hello", "token": "...", "since": 12}      since: the last version it saw
    {"type": "act", "id": "a1", "action": "SW-K", "version": 12}
    {"type": "agree", "kind": "same"}      once the deal is over: "same" deal again, or "new"
    {"type": "ping"}
    {"type": "hand", "ai": true}      the AI plays this seat from now (false: take it back)

and the server answers with

    {"type": "state", "seat": 2, "version": 12, "view": {...}, ...seats}
    {"type": "update", "seat": 2, "version": 14, "events": [...], "view": {...},
     "stood_in": [2], ...seats}   stood_in: whose turns in it the AI played for an absent human
    {"type": "answer", "id": "a1", "ok": true, "version": 13}  /  "ok": false, "reason": "..."
    {"type": "error", "reason": "..."}   {"type": "pong", ...seats}   {"type": "seats", ...seats}
    {"type": "table", "humans": [0, 2], "hints": false, "agreed": {"0": "same"}, "next": null}

where seats is "humans": [0, 2] (the seats people hold), "away": [2] (those whose humans are
away: no connection, or no ping for SEEN_S) and "ai_for": [2] (those the AI plays for their
absent human: their grace ran out while away, or they handed their seat over).

A `table` message comes after the first message and at each change of the table's options
or wishes: `next` is the id of the game every seated human agreed to play next, which each
seat's token opens (the page moves there).

A hello with `since` gets an update of everything after that version, built from the stored
log, so a reconnecting page misses no card and sees none twice. Each change a table makes
(any seat's action, the AI's turns, from any process on PostgreSQL) reaches every
connection of the game through the store's watch; the connection then reads the committed
game and builds its message from `view(state, seat)` alone, never from the change notice.

Bounds: at most PER_SEAT connections of one seat in a process; a message over 4 KB closes
the connection (1009); a connection silent for IDLE_S is closed (the page pings every
10 s); a hello must come within HELLO_S. Tokens travel in the hello, never in the URL,
so that no access log holds them.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import Counter
from collections.abc import Callable, Mapping
from typing import NamedTuple

from fastapi import APIRouter, WebSocket
from pydantic import TypeAdapter, ValidationError
from starlette.websockets import WebSocketDisconnect

from tarocchi.games import game
from tarocchi.games.base import GameState, View
from tarocchi.games.replay import replay
from tarocchi.i18n import Msg, Translator, translator
from tarocchi.views import view
from tarocchi.web.api import GameId
from tarocchi.web.driver import SEEN_S, Driver, absent
from tarocchi.web.errors import Refused, TooMany, Unauthenticated, status
from tarocchi.web.lang import language
from tarocchi.web.models import Act, Agree, Handover, Hello, Ping
from tarocchi.web.service import seat_json, tell
from tarocchi.web.store import GameRow, Store, StoreUnavailable
from tarocchi.web.store.notify import Watch
from tarocchi.web.store.presence import HANDED, stamp
from tarocchi.web.store.tables import TABLE
from tarocchi.web.tables import Tables

MAX_MESSAGE = 4096  # bytes of one client message (uvicorn refuses larger frames alike)
HELLO_S = 10.0  # seconds a new connection has to say who it is
IDLE_S = 30.0  # seconds of silence after which a connection is closed
RENEW_S = 5.0  # a seat's presence is written at most this often per connection
PER_SEAT = 2  # connections of one seat (a phone and a laptop, say) in one process
# told apart by their `type` (a Literal each: a union with a discriminator would not take
# the models' whole-number validator)
MESSAGE: TypeAdapter[Hello | Act | Agree | Ping | Handover] = TypeAdapter(
    Hello | Act | Agree | Ping | Handover
)
# close codes: the 4000s mirror HTTP's statuses (4401: no hello, 4403: a wrong token...)
TOO_BIG = 1009
MALFORMED = Msg("malformed message")
NO_HELLO = Msg("say hello with your token first")
SEAT_FULL = Msg("this seat already has two connections")
IDLE = Msg("closed after 30 seconds without a message")
TOO_LARGE = Msg("messages are limited to 4 KB")


class Closed(Exception):
    """The connection is over (closed by the client, or by us with a reason)."""


class Connection:
    """One seat's connection: what it has been told so far (its version, state and view)."""

    state: GameState  # (set by start, before any update)
    seen: View

    def __init__(self, ws: WebSocket, row: GameRow, seat: int, tr: Translator) -> None:
        self.ws = ws
        self.seat = seat
        self.tr = tr
        self.rules = game(row.game)
        self.version = 0
        self.lock = asyncio.Lock()  # whole messages, one after another
        self.seen_at = time.monotonic()  # when its seat was last counted here (at its hello)

    async def send(self, data: Mapping[str, object]) -> None:
        async with self.lock:
            await self.ws.send_json(data)

    def start(self, row: GameRow, since: int | None) -> dict[str, object]:
        """Return the first message: the seat's whole view, or (since a version the game
        has reached) everything after it as one update."""
        if since is not None and since <= row.version:
            self.state = replay(self.rules, row.seed, row.actions[:since])
            self.seen = view(self.state, self.seat)
            self.version = since
            return self.update(row)
        self.state = replay(self.rules, row.seed, row.actions)
        self.seen = view(self.state, self.seat)
        self.version = row.version
        data = seat_json(row, self.state, self.seen, self.seat, self.tr, with_history=True)
        return {"type": "state", "seat": self.seat, "version": row.version, "view": data}

    def update(self, row: GameRow) -> dict[str, object]:
        """Return the update from the version told last to the stored row's, from the seat's
        views of the stored log."""
        new = row.actions[self.version :]
        self.state, self.seen, events = tell(
            self.rules, self.state, self.seen, new, self.tr, self.seat
        )
        self.version = row.version
        data = seat_json(row, self.state, self.seen, self.seat, self.tr)
        return {"type": "update", "seat": self.seat, "version": row.version, "events": events,
                "view": data}  # fmt: skip


class Latest:
    """The latest committed game and seats people hold of each table that connections of
    this process follow, read once for all of them: a change at a table with several seats
    here is one read, not one per connection (the store's threads are few)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.followers: Counter[str] = Counter()  # connections following each game
        self.known: dict[str, Read] = {}
        self.heard: dict[str, int] = {}  # the latest version of each game a connection heard of
        self.reading: dict[str, asyncio.Future[Read]] = {}

    def follow(self, game_id: str, more: int) -> None:
        """Count one connection more (1) or less (-1) following a game; forget a game
        nobody here follows any more."""
        self.followers[game_id] += more
        if self.followers[game_id] <= 0:
            del self.followers[game_id]
            self.known.pop(game_id, None)
            self.heard.pop(game_id, None)

    def is_news(self, game_id: str, version: int) -> bool:
        """Tell whether no connection here has heard of this version of a game yet."""
        if version <= self.heard.get(game_id, 0):
            return False
        self.heard[game_id] = version
        return True

    async def at_least(self, game_id: str, version: int) -> Read:
        """Return a game's row (None once deleted), its marks and its humans, at `version` or later
        (a read already under way is shared; one begun before the version was written may
        miss it, and then another read follows)."""
        while True:
            known = self.known.get(game_id)
            if known is not None and (known[0] is None or known[0].version >= version):
                return known
            started = game_id not in self.reading
            if started:
                read = asyncio.to_thread(self.read, game_id)
                self.reading[game_id] = asyncio.ensure_future(read)
            reading = self.reading[game_id]
            try:
                got = await asyncio.shield(reading)
            finally:
                if started:
                    del self.reading[game_id]
            if game_id in self.followers:
                self.known[game_id] = got
            if started:
                return got

    def read(self, game_id: str) -> Read:
        """Read a game's row, the AI's decisions for absent humans and who plays each seat."""
        row = self.store.get(game_id)
        return Read(row, self.store.presence.marks(game_id), seats_of(self.store, game_id))


class Read(NamedTuple):
    """A table as its connections here are told of it after a change."""

    row: GameRow | None
    marks: dict[int, int]  # the AI's decisions for absent humans: action index -> seat
    humans: dict[str, list[int]]


def seats_of(store: Store, game_id: str) -> dict[str, list[int]]:
    """Return the seats people hold, those whose humans are away and those the AI stands
    in for (public: the pages name who plays each seat)."""
    clock = store.presence.clock(game_id)
    away, ai_for = ([], []) if clock is None else absent(clock)
    return {"humans": store.tables.humans(game_id), "away": away, "ai_for": ai_for}


class Channels:
    """The live connections of this process."""

    def __init__(self, tables: Tables, driver: Driver) -> None:
        self.tables = tables
        self.store = tables.store
        self.driver = driver
        self.open: Counter[tuple[str, int]] = Counter()
        self.latest = Latest(self.store)

    async def serve(self, ws: WebSocket, game_id: str) -> None:
        """Serve one connection from its hello to its end."""
        await ws.accept()
        tr = translator(language(ws))
        try:
            hello = await self.hello(ws, tr)
            row, seat = await self.tables.seat_of(game_id, hello.token)
            key = (game_id, seat)
            if self.open[key] >= PER_SEAT:
                raise TooMany(SEAT_FULL)
        except Refused as e:
            await close(ws, 4000 + status(e), tr.text(e.reason))
            return
        except Closed:
            return
        self.open[key] += 1
        try:
            await self.seen(game_id, seat)
            await self.follow(Connection(ws, row, seat, tr), row, hello.since)
        except (Closed, WebSocketDisconnect):
            pass
        finally:
            self.open[key] -= 1
            if not self.open[key]:
                del self.open[key]
                # (shielded: a connection cancelled as it ends still has its table driven)
                await asyncio.shield(self.gone(game_id, seat))

    async def hello(self, ws: WebSocket, tr: Translator) -> Hello:
        """Return the connection's hello (Unauthenticated for anything else, or none in time)."""
        try:
            text = await asyncio.wait_for(receive(ws), HELLO_S)
        except TimeoutError:
            raise Unauthenticated(NO_HELLO) from None
        try:
            first = MESSAGE.validate_json(text)
        except ValidationError:
            raise Unauthenticated(NO_HELLO) from None
        if not isinstance(first, Hello):
            raise Unauthenticated(NO_HELLO)
        return first

    async def follow(self, conn: Connection, row: GameRow, since: int | None) -> None:
        """Tell the seat the table as it is, then each change, while answering its messages."""
        first = conn.start(row, since)
        first.update(await self.humans(row.id))
        await conn.send(first)
        self.driver.kick(row.id)  # the AI may owe a turn (a restarted server, say)
        watch = self.store.watch(row.id, conn.version)
        changes = self.store.watch(row.id + TABLE, 0)  # (before the first table message)
        await conn.send(await self.tables.table(row.id))
        tasks = [asyncio.create_task(self.read(conn, row.id)),
                 asyncio.create_task(self.push(conn, row.id, watch)),
                 asyncio.create_task(self.push_table(conn, row.id, changes))]  # fmt: skip
        self.latest.follow(row.id, 1)
        try:
            done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                task.result()
        finally:
            for task in tasks:
                task.cancel()
            watch.close()
            self.latest.follow(row.id, -1)
            changes.close()

    async def push(self, conn: Connection, game_id: str, watch: Watch) -> None:
        """Send an update for each version the game reaches (read from the store); the
        driver hears of it too (the AI may be to move, its lease's holder dead)."""
        async for version in watch:
            if self.latest.is_news(game_id, version):  # one kick a change, not a connection
                self.driver.kick(game_id)
            row, marks, humans = await self.latest.at_least(game_id, version)
            if row is not None and row.version > conn.version:
                start = conn.version  # (the AI's decisions for absent humans after it)
                told = conn.update(row)
                stood = sorted({s for i, s in marks.items() if i >= start})
                await conn.send({**told, **humans, "stood_in": stood})

    async def humans(self, game_id: str) -> dict[str, list[int]]:
        """Return who plays each seat now (`seats_of`)."""
        return await asyncio.to_thread(seats_of, self.store, game_id)

    async def seen(self, game_id: str, seat: int) -> None:
        """Count a seat here for SEEN_S more seconds; if the AI stood in for it while it was
        away, the seat is its human's again from its next turn."""
        if await asyncio.to_thread(self.store.presence.seen, game_id, seat, stamp(SEEN_S)):
            self.driver.kick(game_id)

    async def gone(self, game_id: str, seat: int) -> None:
        """Count a seat away from now (its last connection here closed; one elsewhere counts
        it here again at its next ping): its grace runs at its turns."""
        with contextlib.suppress(StoreUnavailable):  # (its pings then lapse within SEEN_S)
            await asyncio.to_thread(self.store.presence.seen, game_id, seat, stamp(), False)
            row = await asyncio.to_thread(self.store.get, game_id)
            if row is not None and row.over:  # the others' wishes no longer wait for it
                await self.tables.settle(row)
        self.driver.kick(game_id)

    async def hand(self, conn: Connection, game_id: str, ai: bool) -> None:
        """Hand a seat to the AI (it then plays the seat's turns for its absent human) or take
        it back from its next turn; tell the seat who plays each seat."""
        why = HANDED if ai else None
        await asyncio.to_thread(self.store.presence.stand_in, game_id, conn.seat, why)
        self.driver.kick(game_id)
        await conn.send({"type": "seats", **await self.humans(game_id)})

    async def push_table(self, conn: Connection, game_id: str, changes: Watch) -> None:
        """Send the table as it is at each change of its options or its humans' wishes."""
        async for _ in changes:
            await conn.send(await self.tables.table(game_id))

    async def read(self, conn: Connection, game_id: str) -> None:
        """Answer the seat's messages until it leaves or falls silent."""
        tr = conn.tr
        while True:
            try:
                text = await asyncio.wait_for(receive(conn.ws), IDLE_S)
            except TimeoutError:
                await close(conn.ws, 4408, tr.text(IDLE))
                raise Closed from None
            try:
                message = MESSAGE.validate_json(text)
            except ValidationError:
                await conn.send({"type": "error", "reason": tr.text(MALFORMED)})
                continue
            if time.monotonic() - conn.seen_at >= RENEW_S:  # (a page pings, a player acts)
                conn.seen_at = time.monotonic()
                await self.seen(game_id, conn.seat)
            if isinstance(message, Act):
                answer = await self.tables.act(game_id, conn.seat, message.id, message.action,
                                               message.version)  # fmt: skip
                if answer.ok and answer.version is not None:  # (its write kicked the driver)
                    self.latest.is_news(game_id, answer.version)
                await conn.send({"type": "answer", "id": message.id, **answer.to_json(tr)})
            elif isinstance(message, Agree):
                try:
                    await self.tables.agree(game_id, conn.seat, message.kind)
                except Refused as e:  # (the table's change itself comes as a table message)
                    await conn.send({"type": "error", "reason": tr.text(e.reason)})
            elif isinstance(message, Ping):
                await conn.send({"type": "pong", **await self.humans(game_id)})
            elif isinstance(message, Handover):
                await self.hand(conn, game_id, message.ai)
            else:
                await conn.send({"type": "error", "reason": tr.text(MALFORMED)})


async def receive(ws: WebSocket) -> str:
    """Return the next text message (Closed when the client leaves; a message over
    MAX_MESSAGE, or a binary one, closes the connection)."""
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise Closed
    text = message.get("text")
    if text is None or len(text.encode()) > MAX_MESSAGE:
        reason = translator(language(ws)).text(TOO_LARGE if text else MALFORMED)
        await close(ws, TOO_BIG if text else 1003, reason)
        raise Closed
    return str(text)


async def close(ws: WebSocket, code: int, reason: str) -> None:
    """Close a connection with a reason (sent first as an error message: a close frame's
    reason is limited to 123 bytes)."""
    with contextlib.suppress(RuntimeError, WebSocketDisconnect):
        await ws.send_json({"type": "error", "reason": reason})
        await ws.close(code)


def make_router(channels: Callable[[WebSocket], Channels]) -> APIRouter:
    """Return the live route, reading the service from the connection's app."""
    router = APIRouter(prefix="/api")

    @router.websocket("/games/{game_id}/live")
    async def live(ws: WebSocket, game_id: GameId) -> None:
        """A seat's live connection to its table (see the module's docstring)."""
        await channels(ws).serve(ws, game_id)

    return router
