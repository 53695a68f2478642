"""The JSON API: create a game, read it, act in it, fetch its record.

The human is always South (seat 0). Every response is built from South's view
(plus, for South's own turn, the reason each other card is refused), so no
response can hold a card South cannot see. The AI's moves run in a process pool
and the database calls in threads, both off the event loop (a commit waiting for
the disk must not hold up other games' requests). Each game has a version and the
store writes only on the version read, so two concurrent actions for the same
version apply exactly once, whichever server processes they reach.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Executor
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Header, HTTPException, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from tarocchi.bots import LEVELS, make_bot
from tarocchi.games import GAMES, game
from tarocchi.games.base import IllegalAction, TrickGame
from tarocchi.i18n import Msg, Translator, translator
from tarocchi.match import DealLog, advance, bot_seed
from tarocchi.record import make_record, now
from tarocchi.views import history, refusals, step, to_json, view
from tarocchi.web.lang import language
from tarocchi.web.store import GameRow, Store, token_hash

HUMAN = 0
DEFAULT_LEVEL = "normal"
NOT_YOUR_TURN = Msg("it is not your turn")
CACHE_SIZE = 4096  # live states kept in memory; others are rebuilt from the log on demand

Auth = Annotated[str | None, Header()]  # the "Authorization: Bearer <token>" header
# milliseconds this request spent waiting for the AI, reported in a Server-Timing header
AI_MS: ContextVar[float] = ContextVar("AI_MS", default=0.0)


class NewGame(BaseModel):
    """The body of POST /api/games."""

    game: str
    level: str | None = None
    seed: int | None = Field(default=None, ge=0, le=2**62)


class Action(BaseModel):
    """The body of POST /api/games/{id}/actions."""

    action: str = Field(max_length=32)
    version: int = Field(ge=0)


def rebuild(rules: TrickGame[Any], seed: int, actions: tuple[tuple[int, str], ...]) -> Any:
    """Return the state after replaying an action log (each action checked by the rules)."""
    state = rules.deal(seed)
    for seat, code in actions:
        if state.to_move != seat:
            raise ValueError(f"stored action {code} by seat {seat} is out of turn")
        state = rules.apply(state, rules.parse_action(code))
    return state


def prepare_worker(niceness: int) -> None:
    """Set up an AI worker process: a lower priority, the rules and the bots loaded."""
    from tarocchi.bots.search import warm_up

    os.nice(niceness)
    import tarocchi.bots.hints  # noqa: F401  (the search behind the levels and the hints)

    for name in GAMES:
        warm_up(game(name))  # the search's compiled playouts


def worker_ready() -> int:
    """Return the worker's process id (submitted once per worker to start them all)."""
    return os.getpid()


def ai_turns(
    game_name: str, seed: int, level: str, actions: tuple[tuple[int, str], ...]
) -> list[tuple[int, str]]:
    """Play the AI seats until South must act or the deal ends; return their actions.

    Runs in a worker process. Bots are seeded by the deal and the log length, so a
    game replays the same way after a restart."""
    rules = game(game_name)
    state = rebuild(rules, seed, actions)
    bots = {
        s: make_bot(LEVELS[level], rules, bot_seed(seed, s) * 4099 + len(actions))
        for s in (1, 2, 3)
    }
    return [(step.seat, rules.action_code(step.action)) for step in advance(rules, state, bots)]


def hint_for(
    game_name: str, seed: int, actions: tuple[tuple[int, str], ...]
) -> list[dict[str, Any]]:
    """Rank South's legal actions with the search (in a worker process), from South's view."""
    from tarocchi.bots.hints import suggest

    rules = game(game_name)
    state = rebuild(rules, seed, actions)
    return [
        {"action": h.code, "value": h.value, "reason": h.reason}
        for h in suggest(view(state, HUMAN))
    ]


@dataclass(slots=True)
class Live:
    """A game in memory: its stored row and the state its log leads to."""

    row: GameRow
    state: Any


class Games:
    """The game service behind the API routes."""

    def __init__(self, store: Store, pool: Executor | None) -> None:
        self.store = store
        self.pool = pool
        self.cache: OrderedDict[str, Live] = OrderedDict()

    async def run_ai(
        self, row: GameRow, actions: tuple[tuple[int, str], ...]
    ) -> list[tuple[int, str]]:
        """Return the AI's next actions, computed off the event loop (time added to AI_MS)."""
        loop = asyncio.get_running_loop()
        start = time.perf_counter()
        moves = await loop.run_in_executor(
            self.pool, ai_turns, row.game, row.seed, row.level, actions
        )
        AI_MS.set(AI_MS.get() + (time.perf_counter() - start) * 1000)
        return moves

    def remember(self, live: Live) -> None:
        """Keep a live game in the bounded cache."""
        self.cache[live.row.id] = live
        self.cache.move_to_end(live.row.id)
        while len(self.cache) > CACHE_SIZE:
            self.cache.popitem(last=False)

    async def load(self, game_id: str, authorization: str | None) -> Live:
        """Return a game the bearer token opens (404 unknown, 401 no token, 403 wrong token)."""
        row = await asyncio.to_thread(self.store.get, game_id)
        if row is None:
            raise HTTPException(404, Msg("no such game"))
        if not authorization or not authorization.startswith("Bearer "):
            raise HTTPException(401, Msg("missing bearer token"), {"WWW-Authenticate": "Bearer"})
        given = token_hash(authorization.removeprefix("Bearer ").strip())
        if not secrets.compare_digest(given, row.token_hash):
            raise HTTPException(403, Msg("wrong token for this game"))
        live = self.cache.get(game_id)
        if live is None or live.row.version != row.version:
            live = Live(row, rebuild(game(row.game), row.seed, row.actions))
        self.remember(live)
        return live

    async def create(self, body: NewGame, tr: Translator) -> tuple[Live, str, list[dict[str, Any]]]:
        """Start a game and let the AI act up to South's first decision."""
        name = body.game.strip().lower()
        if name not in GAMES:
            raise HTTPException(
                422,
                Msg(
                    "unknown game %(game)s; choose one of %(games)s",
                    game=repr(body.game),
                    games=str(sorted(GAMES)),
                ),
            )
        level = body.level or DEFAULT_LEVEL
        if level not in LEVELS:
            raise HTTPException(
                422,
                Msg(
                    "unknown level %(level)s; choose one of %(levels)s",
                    level=repr(level),
                    levels=str(sorted(LEVELS)),
                ),
            )
        seed = body.seed if body.seed is not None else secrets.randbelow(2**31)
        token = secrets.token_urlsafe(24)
        stamp = now()
        row = GameRow(
            secrets.token_urlsafe(12), token_hash(token), name, seed, level, (), 0, False, stamp
        )
        rules = game(name)
        state = rules.deal(seed)
        ai = await self.run_ai(row, ())
        state, events = apply_all(rules, state, ai, tr)
        row = GameRow(
            row.id,
            row.token_hash,
            name,
            seed,
            level,
            tuple(ai),
            len(ai),
            rules.is_over(state),
            stamp,
        )
        await asyncio.to_thread(self.store.create, row)
        live = Live(row, state)
        self.remember(live)
        return live, token, events

    async def act(
        self, live: Live, body: Action, tr: Translator
    ) -> tuple[Live, list[dict[str, Any]]]:
        """Apply South's action, then the AI's, and store the longer log."""
        row = live.row  # as load() read it; the conditional write below settles any race
        if body.version != row.version:
            raise HTTPException(
                409,
                Msg(
                    "stale version %(asked)d: the game is at version %(version)d",
                    asked=body.version,
                    version=row.version,
                ),
            )
        rules = game(row.game)
        state = live.state
        if state.to_move != HUMAN:
            raise HTTPException(
                409,
                Msg("the deal is over") if state.to_move is None else NOT_YOUR_TURN,
            )
        try:
            action = rules.parse_action(body.action)
        except ValueError as e:
            raise HTTPException(422, e.args[0]) from None
        try:
            state, events = apply_all(rules, state, [(HUMAN, rules.action_code(action))], tr)
        except IllegalAction as e:
            raise HTTPException(409, e.args[0]) from None
        actions = (*row.actions, (HUMAN, rules.action_code(action)))
        ai = await self.run_ai(row, actions)
        state, more = apply_all(rules, state, ai, tr)
        actions = (*actions, *ai)
        over = rules.is_over(state)
        stored = asyncio.to_thread(self.store.update, row.id, row.version, actions, over, now())
        if not await stored:
            raise HTTPException(409, Msg("the game changed meanwhile; reload it"))
        new_row = GameRow(
            row.id,
            row.token_hash,
            row.game,
            row.seed,
            row.level,
            actions,
            len(actions),
            over,
            row.started_at,
        )
        live = Live(new_row, state)
        self.remember(live)
        return live, events + more


def apply_all(
    rules: TrickGame[Any], state: Any, actions: list[tuple[int, str]], tr: Translator
) -> tuple[Any, list[dict[str, Any]]]:
    """Apply actions; return the new state and, per action, what South saw change (texts in
    tr's language)."""
    events = []
    before = view(state, HUMAN)
    for seat, code in actions:
        if state.to_move != seat:
            raise IllegalAction(Msg("seat %(seat)d is not to move", seat=seat))
        state, before, seen = step(rules, state, rules.parse_action(code), HUMAN, before, tr)
        event: dict[str, Any] = {"seat": seat, "changes": seen}
        if seat == HUMAN:
            event["action"] = code  # South may see its own action, discards included
        events.append(event)
    return state, events


def view_json(live: Live, tr: Translator) -> dict[str, Any]:
    """Return South's view of a live game as JSON, with reasons for refused cards and the
    deal's history as South saw it, the texts in tr's language."""
    rules = game(live.row.game)
    data = to_json(view(live.state, HUMAN), tr)
    codes = rules.pack.codes
    data["illegal"] = {codes[c]: tr.text(why) for c, why in refusals(live.state, HUMAN).items()}
    data["level"] = live.row.level
    data["title"] = rules.title
    actions = [rules.parse_action(code) for _, code in live.row.actions]
    data["history"] = history(rules, live.row.seed, actions, HUMAN, tr)
    if data["over"]:
        data["seed"] = live.row.seed  # only once the deal is over: the seed tells every card
    return data


def reply(data: dict[str, Any], status: int = 200) -> JSONResponse:
    """Return plain JSON data as it is (it is JSON-ready: no encoder walk), with the time
    the request waited for the AI in a Server-Timing header."""
    return JSONResponse(data, status, {"Server-Timing": f"ai;dur={AI_MS.get():.1f}"})


def make_router(games: Callable[[Request], Games]) -> APIRouter:
    """Return the API routes, reading the service from the request's app."""
    router = APIRouter(prefix="/api")

    @router.post("/games", status_code=201, response_model=None)
    async def create_game(body: NewGame, request: Request) -> JSONResponse:
        """Start a deal; the AI's moves up to your first decision are applied and listed."""
        AI_MS.set(0.0)
        tr = translator(language(request))
        live, token, events = await games(request).create(body, tr)
        data = {"id": live.row.id, "token": token, "version": live.row.version,
                "view": view_json(live, tr), "events": events}  # fmt: skip
        return reply(data, 201)

    @router.get("/games/{game_id}", response_model=None)
    async def get_game(game_id: str, request: Request, authorization: Auth = None) -> JSONResponse:
        """Return the current version and your view."""
        live = await games(request).load(game_id, authorization)
        tr = translator(language(request))
        return reply({"version": live.row.version, "view": view_json(live, tr)})

    @router.post("/games/{game_id}/actions", response_model=None)
    async def post_action(
        game_id: str, body: Action, request: Request, authorization: Auth = None
    ) -> JSONResponse:
        """Apply your action, then every AI move until you must act again or the deal ends."""
        service = games(request)
        AI_MS.set(0.0)
        tr = translator(language(request))
        live, events = await service.act(await service.load(game_id, authorization), body, tr)
        return reply({"version": live.row.version, "events": events, "view": view_json(live, tr)})

    @router.get("/games/{game_id}/hint")
    async def get_hint(
        game_id: str, request: Request, authorization: Auth = None
    ) -> dict[str, Any]:
        """Return your legal actions ranked by the search, each with a value and a reason."""
        service = games(request)
        live = await service.load(game_id, authorization)
        if live.state.to_move != HUMAN:
            raise HTTPException(409, NOT_YOUR_TURN)
        loop = asyncio.get_running_loop()
        row = live.row
        ranked = await loop.run_in_executor(service.pool, hint_for, row.game, row.seed, row.actions)
        tr = translator(language(request))
        for r in ranked:
            r["reason"] = tr.text(r["reason"])
        return {"version": row.version, "suggestions": ranked}

    @router.get("/games/{game_id}/record")
    async def get_record(
        game_id: str, request: Request, authorization: Auth = None
    ) -> dict[str, Any]:
        """Return the deal record once the deal is over (409 before)."""
        live = await games(request).load(game_id, authorization)
        rules = game(live.row.game)
        if not rules.is_over(live.state):
            raise HTTPException(409, Msg("the deal is not over yet"))
        log = DealLog(
            rules,
            live.row.seed,
            rules.deal(live.row.seed),
            ("human", live.row.level, live.row.level, live.row.level),
        )
        log.actions = [(s, rules.parse_action(a)) for s, a in live.row.actions]
        log.final = live.state
        return make_record(log, started_at=live.row.started_at)

    return router
