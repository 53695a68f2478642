"""The JSON API's routes: create a game, read it, act in it, ask a hint, fetch its record,
and start a practice deal from one of South's decisions in a finished deal (a review's "try
again").

HTTP only: each route reads its request, asks the game service (`tarocchi.web.service`)
and answers its result as JSON; the service's refusals become statuses in the app's one
handler (`tarocchi.web.app`). Bodies and responses are the models of `tarocchi.web.models`.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Mapping
from typing import Annotated

from fastapi import APIRouter, Depends, Path, Request, Security
from fastapi.responses import JSONResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.requests import HTTPConnection

from tarocchi.i18n import Msg, translator
from tarocchi.web.errors import Unauthenticated
from tarocchi.web.lang import language
from tarocchi.web.models import (
    Action,
    Created,
    GameState,
    Hints,
    Moved,
    NewGame,
    Practice,
    Record,
    errors_for,
)
from tarocchi.web.players import client_of, current_player, issued_player
from tarocchi.web.service import AI_MS, Games, Key, view_json

# a bearer token's characters (RFC 6750's b64token, at most 128): spaces around it, or in
# it, make it malformed rather than wrong
TOKEN = re.compile(r"[A-Za-z0-9._~+/-]{1,128}=*")


class Bearer(HTTPBearer):
    """The "Authorization: Bearer <token>" header, read as RFC 6750 says: the scheme in any
    case, one space, the token (FastAPI's own strips spaces around the token)."""

    async def __call__(self, request: HTTPConnection) -> HTTPAuthorizationCredentials | None:
        header = request.headers.get("authorization")
        if not header:
            return None
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not TOKEN.fullmatch(token):
            raise Unauthenticated(Msg("malformed bearer token"), bearer=True)
        return HTTPAuthorizationCredentials(scheme=scheme, credentials=token)


Bearing = Annotated[HTTPAuthorizationCredentials | None, Security(Bearer(auto_error=False))]


async def opener(request: Request, bearer: Bearing) -> Key:
    """Return what opens a game: the bearer token, else this browser's player (the history
    opens a player's own deals by its device cookie), else None."""
    return bearer.credentials if bearer is not None else await current_player(request)


Auth = Annotated[Key, Depends(opener)]
GameId = Annotated[str, Path(max_length=64)]  # the server's ids are 16 characters


def reply(data: Mapping[str, object], status: int = 200) -> JSONResponse:
    """Return plain JSON data as it is (it is JSON-ready: no encoder walk), with the time
    the request waited for the AI in a Server-Timing header."""
    return JSONResponse(data, status, {"Server-Timing": f"ai;dur={AI_MS.get():.1f}"})


def make_router(games: Callable[[Request], Games]) -> APIRouter:
    """Return the API routes, reading the service from the request's app."""
    router = APIRouter(prefix="/api")
    # any route that opens a game by its id and token (409: a stored log the rules refuse;
    # 503: the database away)
    opened = (401, 403, 404, 409, 422, 503)

    @router.post("/games", status_code=201, response_model=Created,
                 responses=errors_for(400, 422, 429, 503))  # fmt: skip
    async def create_game(body: NewGame, request: Request) -> JSONResponse:
        """Start a deal; the AI's moves up to your first decision are applied and listed. The
        deal joins the history of this browser's player (made, with its device cookie, if
        the browser has none)."""
        AI_MS.set(0.0)
        tr = translator(language(request))
        player = await issued_player(request)  # (here: a malformed body makes no player)
        owner = player.id if player else None
        live, token, events = await games(request).create(body, client_of(request), tr, owner)
        data = {"id": live.row.id, "token": token, "version": live.row.version,
                "view": view_json(live, tr), "events": events}  # fmt: skip
        return reply(data, 201)

    @router.get("/games/{game_id}", response_model=GameState, responses=errors_for(*opened))
    async def get_game(game_id: GameId, request: Request, auth: Auth) -> JSONResponse:
        """Return the current version and your view."""
        live = await games(request).load(game_id, auth)
        tr = translator(language(request))
        return reply({"version": live.row.version, "view": view_json(live, tr, True)})

    @router.post("/games/{game_id}/actions", response_model=Moved,
                 responses=errors_for(*opened, 400, 429))  # fmt: skip
    async def post_action(game_id: GameId, body: Action, request: Request, auth: Auth
                          ) -> JSONResponse:  # fmt: skip
        """Apply your action, then every AI move until you must act again or the deal ends."""
        service = games(request)
        AI_MS.set(0.0)
        tr = translator(language(request))
        live = await service.load(game_id, auth, body.version)
        live, events = await service.act(live, body, client_of(request), tr)
        return reply({"version": live.row.version, "events": events, "view": view_json(live, tr)})

    @router.get("/games/{game_id}/hint", response_model=Hints,
                responses=errors_for(*opened, 429))  # fmt: skip
    async def get_hint(game_id: GameId, request: Request, auth: Auth) -> JSONResponse:
        """Return your legal actions ranked by the search, each with a value and a reason
        (from your seat's view only; a friend's seat token asks for that seat's, where the
        table's creator allows hints: 409 otherwise)."""
        service = games(request)
        AI_MS.set(0.0)
        client = client_of(request)
        service.limit("hint", client, game_id)  # first: a flood's refusals must cost little
        live = await service.load(game_id, auth, seats=True)
        seat = await service.seat_of(live.row, auth)
        ranked = await service.hints(live, client, seat)
        tr = translator(language(request))
        for r in ranked:
            r["reason"] = tr.text(r["reason"])
        return reply({"version": live.row.version, "suggestions": ranked})

    @router.post("/games/{game_id}/practice", status_code=201, response_model=Created,
                 responses=errors_for(*opened, 400, 409, 413, 429))  # fmt: skip
    async def post_practice(game_id: GameId, body: Practice, request: Request, auth: Auth
                            ) -> JSONResponse:  # fmt: skip
        """Play a finished deal again from one of your decisions, as a practice deal: the same
        cards and the same AI, your hand and the table as they were, your turn (a new game,
        with its own id and token; its record says where it started)."""
        service = games(request)
        tr = translator(language(request))
        live = await service.load(game_id, auth, fresh=True)
        live, token = await service.practice(live, body.decision, client_of(request))
        data = {"id": live.row.id, "token": token, "version": live.row.version,
                "view": view_json(live, tr, True), "events": []}  # fmt: skip
        return reply(data, 201)

    @router.get("/games/{game_id}/record", response_model=Record,
                responses=errors_for(*opened))  # fmt: skip
    async def get_record(game_id: GameId, request: Request, auth: Auth) -> JSONResponse:
        """Return the deal record once the deal is over (409 before); a friend's seat token
        opens it too."""
        service = games(request)
        live = await service.load(game_id, auth, seats=True)
        return reply(await asyncio.to_thread(service.record, live))

    return router
