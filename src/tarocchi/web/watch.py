"""Watching a table every seat of which is the AI's: its start, its page, its read-only feed.

`POST /api/watch` deals a game whose four seats the AI plays (its token is drawn and never
told: nobody holds a seat, so nobody may read a hand), one move at a time, paced by the
driver (`tarocchi.web.driver`). Anyone with its link (`/watch/{id}`) follows it over
`/api/games/{id}/watch`, a WebSocket that only listens: at the start and at each new
version it sends

    {"type": "watch", "version": 12, "view": {...}}          (+ "hands" once it is over)

where the view is `views.public_view` of the stored log: the cards played, the public
events, each hand's size, never a card in a hand; once the deal is over, the result and
the hands as dealt (from the record). A game that is not such a table is refused (4404).
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable

from fastapi import APIRouter, Request, WebSocket
from fastapi.responses import HTMLResponse, JSONResponse
from starlette.requests import HTTPConnection
from starlette.responses import Response
from starlette.websockets import WebSocketDisconnect

from tarocchi.games import game
from tarocchi.games.replay import replay
from tarocchi.i18n import Msg, Translator, translator
from tarocchi.record import now
from tarocchi.views import public_view, to_json
from tarocchi.web.api import GameId, reply
from tarocchi.web.errors import NotFound
from tarocchi.web.lang import language, render
from tarocchi.web.live import Closed, close, receive
from tarocchi.web.models import NewGame, Watched, errors_for
from tarocchi.web.players import client_of
from tarocchi.web.service import DEFAULT_LEVEL, SEED_BITS, Games, record_of
from tarocchi.web.store import GameRow, Store, token_hash
from tarocchi.web.tables import Tables

NOT_WATCHED = Msg("no table of four AI players to watch here")


async def watched_row(store: Store, game_id: str) -> GameRow | None:
    """Return a game if every seat of it is the AI's, else None."""
    row = await asyncio.to_thread(store.get, game_id)
    if row is None or not (await asyncio.to_thread(store.tables.options, game_id)).watched:
        return None
    return row


def message(row: GameRow, tr: Translator) -> dict[str, object]:
    """Return what a watcher is told of a stored game: its public view (and once it is
    over, the hands as dealt)."""
    state = replay(game(row.game), row.seed, row.actions)
    out: dict[str, object] = {"type": "watch", "version": row.version,
                           "view": to_json(public_view(state), tr)}  # fmt: skip
    if row.over:
        out["hands"] = record_of(row)["hands"]
    return out


async def follow(ws: WebSocket, store: Store, row: GameRow, tr: Translator) -> None:
    """Tell a watcher the table now and at each new version, until it leaves (its pings
    and anything else it sends are not read further)."""
    told = row.version
    await ws.send_json(await asyncio.to_thread(message, row, tr))
    async with store.watch(row.id, told) as versions:
        async for _ in versions:
            fresh = await asyncio.to_thread(store.get, row.id)
            if fresh is not None and fresh.version > told:
                told = fresh.version
                await ws.send_json(await asyncio.to_thread(message, fresh, tr))


async def listen(ws: WebSocket) -> None:
    """Read a watcher's messages (its page's pings) until it leaves."""
    while True:
        await receive(ws)


def make_router(games: Callable[[Request], Games], tables: Callable[[HTTPConnection], Tables]
                ) -> APIRouter:  # fmt: skip
    """Return the watching routes, reading the services from the app."""
    router = APIRouter()

    @router.post("/api/watch", status_code=201, response_model=Watched,
                 responses=errors_for(400, 422, 429, 503))  # fmt: skip
    async def post_watch(body: NewGame, request: Request) -> JSONResponse:
        """Deal a table of four AI players at a level, to watch (no one's hand is ever shown
        before the end); its page is the link."""
        service = games(request)
        service.limit("create", client_of(request))
        seed = body.seed if body.seed is not None else secrets.randbits(SEED_BITS)
        row = GameRow(secrets.token_urlsafe(12), token_hash(secrets.token_urlsafe(24)), body.game,
                      seed, body.level or DEFAULT_LEVEL, (), 0, False, now(),
                      body.seed is not None)  # fmt: skip
        await asyncio.to_thread(service.store.create, row, service.store.tables.watching(row.id))
        tables(request).moved(row.id)  # the AI plays from now
        return reply({"id": row.id, "link": f"/watch/{row.id}"}, 201)

    @router.websocket("/api/games/{game_id}/watch")
    async def watch(ws: WebSocket, game_id: GameId) -> None:
        """Watch a table of four AI players (see the module's docstring)."""
        await ws.accept()
        tr = translator(language(ws))
        row = await watched_row(tables(ws).store, game_id)
        if row is None:
            await close(ws, 4404, tr.text(NOT_WATCHED))
            return
        tables(ws).moved(game_id)  # the AI may owe a move (a restarted server, say)
        tasks = [asyncio.create_task(listen(ws)),
                 asyncio.create_task(follow(ws, tables(ws).store, row, tr))]  # fmt: skip
        try:
            done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                task.result()
        except (Closed, WebSocketDisconnect):
            pass
        finally:
            for task in tasks:
                task.cancel()

    @router.get("/watch/{game_id}", response_class=HTMLResponse, include_in_schema=False)
    async def watch_page(game_id: GameId, request: Request) -> Response:
        """The page of a table of four AI players: the trick, the hands' sizes, the score."""
        row = await watched_row(tables(request).store, game_id)
        if row is None:
            raise NotFound(NOT_WATCHED)
        rules = game(row.game)
        return render(request, "watch.html", {"game": row.game, "title": rules.title,
                                              "game_id": row.id})  # fmt: skip

    return router
