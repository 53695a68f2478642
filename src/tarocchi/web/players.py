"""Players without an account, on the web: the device cookie that is a player's identity,
and the routes under /api/me that name a player, move them to another browser, and
delete them.

A browser's first page view (or its first deal, or a day's try: the routes that use
`issued_player`) gets a device id: a long random secret in a long-lived cookie (HttpOnly,
SameSite=Lax, Secure over HTTPS), stored only as its hash. `current_player` reads it
(None: no player). One is issued at most at the `device` rate per client address (past it
the request goes on without a player, as before players existed), and never to a static
file's request, an API's GET or a robot's (`DeviceCookie`). A move code is short, one-time
and short-lived; redeeming it gives the second browser a device secret of its own for the
same player.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import re
import secrets
from datetime import UTC, datetime, timedelta
from typing import Annotated

import segno
from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse, Response
from starlette.types import Message, Receive, Scope, Send

from tarocchi.i18n import Msg
from tarocchi.web.errors import NotFound, TooMany, Unauthenticated
from tarocchi.web.middleware import HttpOnly
from tarocchi.web.models import Deleted, Me, MoveCode, MoveTo, NewName, errors_for
from tarocchi.web.rates import SLOW_DOWN, TooFast
from tarocchi.web.store import Store, StoreUnavailable, token_hash
from tarocchi.web.store.players import Player

COOKIE = "tarocchi_device"
COOKIE_AGE = 400 * 24 * 3600  # the longest a browser keeps a cookie (Chromium caps it)
SECRET = re.compile(r"[A-Za-z0-9_-]{43}")  # secrets.token_urlsafe(32)
NEW_DEVICE = "tarocchi_new_device"  # the request state's key of a secret issued for it
# move codes: no 0/O, 1/I/L to misread; 10 of 31 letters is 49 bits, guessed at the `move`
# rate within MOVE_S by nobody
CODE_LETTERS = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 10
MOVE_S = 600  # a move code lasts ten minutes
# the robots that announce themselves: crawlers, link previews, command-line clients (no
# User-Agent at all counts as one); a browser's first page view gets a player, they do not
ROBOT = re.compile(r"bot|crawl|spider|slurp|preview|facebookexternalhit|curl|wget|python|"
                   r"httpx|go-http|java/|okhttp|headless(?!chrome)", re.IGNORECASE)  # fmt: skip
NO_PLAYER = Msg("this browser has no player yet: play a deal first")
NO_CODE = Msg("no such code, or it has expired")


def now() -> str:
    """Return the time now as the store writes times (ISO 8601 UTC, to the second)."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def cookie(secret: str | None, https: bool) -> str:
    """Return the Set-Cookie value that gives a device secret (None: that forgets it)."""
    age = COOKIE_AGE if secret else 0
    secure = "; Secure" if https else ""
    return f"{COOKIE}={secret or ''}; Max-Age={age}; Path=/; HttpOnly; SameSite=Lax{secure}"


class DeviceCookie(HttpOnly):
    """Set the cookie of a device secret that `issued_player` issued during the request, or
    that a browser's first page view gets: a GET answered 200 with a page (HTML), sent
    without a device cookie by a client that is no known robot (a static file, the API's
    GETs and a crawler's visits make no player)."""

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        state = scope.setdefault("state", {})  # the dict the routes' request.state writes to
        request = Request(scope)
        agent = request.headers.get("user-agent") or "robot"
        first_visit = scope["method"] == "GET" and COOKIE not in request.cookies
        first_visit = first_visit and not ROBOT.search(agent)

        async def with_cookie(message: Message) -> None:
            if message["type"] == "http.response.start" and first_visit and is_page(message):
                with contextlib.suppress(StoreUnavailable):  # the page is served all the same
                    await issue(request)
            secret = state.get(NEW_DEVICE)
            if message["type"] == "http.response.start" and secret:
                header = cookie(secret, scope.get("scheme") == "https").encode("latin-1")
                message["headers"] = [*message.get("headers", ()), (b"set-cookie", header)]
            await send(message)

        await self.app(scope, receive, with_cookie)


def store_of(request: Request) -> Store:
    """Return the app's store."""
    store: Store = request.app.state.games.store
    return store


def client_of(request: Request) -> str:
    """Return the client's address (behind a trusted proxy, the one it forwarded)."""
    return request.client.host if request.client else "unknown"


async def current_player(request: Request) -> Player | None:
    """Return the player whose device cookie the request carries, or None."""
    secret = request.cookies.get(COOKIE, "")
    if not SECRET.fullmatch(secret):
        return None
    store = store_of(request)
    return await asyncio.to_thread(store.players.by_device, token_hash(secret), now())


def is_page(start: Message) -> bool:
    """Return whether a response's start is a page's: 200, HTML."""
    kind = dict(start.get("headers", ())).get(b"content-type", b"")
    return bool(start["status"] == 200 and kind.startswith(b"text/html"))


async def issued_player(request: Request) -> Player | None:
    """Return the request's player, issuing a new one with its device cookie when it has
    none (None past the client's `device` rate: the request goes on without a player)."""
    found = await current_player(request)
    return found if found is not None else await issue(request)


async def issue(request: Request) -> Player | None:
    """Make a new player and give the request its device secret (the cookie is set on its
    answer); None past the client's `device` rate."""
    if getattr(request.state, NEW_DEVICE, None):
        return None  # issued already during this request (the cookie carries it)
    try:
        request.app.state.games.rates.hit("device", client_of(request))
    except TooFast:
        return None
    secret = secrets.token_urlsafe(32)
    store = store_of(request)
    player = await asyncio.to_thread(
        store.players.create, secrets.token_urlsafe(12), token_hash(secret), now()
    )
    setattr(request.state, NEW_DEVICE, secret)
    return player


CurrentPlayer = Annotated[Player | None, Depends(current_player)]
IssuedPlayer = Annotated[Player | None, Depends(issued_player)]


def known(player: Player | None) -> Player:
    """Return the player, or answer 401 when the request has none."""
    if player is None:
        raise Unauthenticated(NO_PLAYER)
    return player


def me(player: Player) -> dict[str, str | None]:
    """Return a player as /api/me tells them."""
    return {"id": player.id, "name": player.name, "since": player.created_at}


def normal_code(text: str) -> str:
    """Return a move code as stored: its letters, in capitals, without spaces or dashes."""
    return re.sub(r"[\s-]", "", text).upper()


def qr_svg(url: str) -> str:
    """Return the QR code of a URL as an SVG element in the SVG namespace (so a page may
    parse it as XML), black on white: scanners need the contrast in dark mode too."""
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", xmldecl=False, svgns=True, scale=5,
                                    border=4, dark="#000", light="#fff", title="QR")  # fmt: skip
    return out.getvalue().decode()


def make_router() -> APIRouter:
    """Return the routes of a player's identity (/api/me)."""
    router = APIRouter(prefix="/api/me")

    @router.get("", response_model=Me, responses=errors_for(401, 503))
    async def get_me(player: CurrentPlayer) -> dict[str, str | None]:
        """Return this browser's player: id, display name and since when."""
        return me(known(player))

    @router.put("/name", response_model=Me, responses=errors_for(400, 401, 422, 503))
    async def put_name(
        body: NewName, request: Request, player: CurrentPlayer
    ) -> dict[str, str | None]:
        """Set your display name (null or blank: none)."""
        found = known(player)
        name = body.name.strip() if body.name else None
        if not await asyncio.to_thread(store_of(request).players.rename, found.id, name or None):
            raise Unauthenticated(NO_PLAYER)
        return me(Player(found.id, name or None, found.created_at))

    @router.delete("", response_model=Deleted, responses=errors_for(401, 503))
    async def delete_me(request: Request, player: CurrentPlayer) -> Response:
        """Delete your data: your player, every browser's device and any move code; your
        deals stay only as anonymous games (no longer yours), deleted with age as theirs."""
        found = known(player)
        await asyncio.to_thread(store_of(request).players.delete, found.id)
        answer = JSONResponse({"deleted": True})
        answer.headers.append("set-cookie", cookie(None, request.url.scheme == "https"))
        return answer

    @router.post("/move", status_code=201, response_model=MoveCode,
                 responses=errors_for(401, 503))  # fmt: skip
    async def post_move(request: Request, player: CurrentPlayer) -> dict[str, str]:
        """Make a one-time code (and its link and QR code) that brings your history to
        another browser within ten minutes; a new code replaces the last one."""
        found = known(player)
        code = "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
        stamp = datetime.now(UTC)
        until = (stamp + timedelta(seconds=MOVE_S)).isoformat(timespec="seconds")
        await asyncio.to_thread(store_of(request).players.offer, found.id, token_hash(code),
                                stamp.isoformat(timespec="seconds"), until)  # fmt: skip
        shown = f"{code[:5]}-{code[5:]}"
        # the link as this request reached the server (the person reads it on the screen); the
        # code in its fragment, which a browser never sends: no server's log can hold it
        url = f"{str(request.base_url).rstrip('/')}/move#{shown}"
        return {"code": shown, "url": url, "expires_at": until, "qr": qr_svg(url)}

    @router.post("/move/redeem", response_model=Me,
                 responses=errors_for(400, 404, 422, 429, 503))  # fmt: skip
    async def redeem(body: MoveTo, request: Request, player: CurrentPlayer) -> JSONResponse:
        """Bring a player's history to this browser with their move code: this browser gets
        a device of its own for that player (its own deals, if it had a player, join the
        history). The code then opens nothing more."""
        try:
            request.app.state.games.rates.hit("move", client_of(request))
        except TooFast as e:  # codes are not to be guessed
            raise TooMany(SLOW_DOWN, e.retry_after) from None
        secret = secrets.token_urlsafe(32)
        previous = player.id if player else None
        found = await asyncio.to_thread(
            store_of(request).players.redeem,
            token_hash(normal_code(body.code)), token_hash(secret), now(), previous,
        )  # fmt: skip
        if found is None:
            raise NotFound(NO_CODE)
        answer = JSONResponse(me(found))
        answer.headers.append("set-cookie", cookie(secret, request.url.scheme == "https"))
        return answer

    return router
