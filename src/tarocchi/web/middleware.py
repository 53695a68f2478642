"""ASGI middleware around the whole app: HEAD answered as GET, a bound on request headers
and bodies, the door that turns away a client told to wait, and the headers every response
carries (security headers, no
caching of the API's answers, and only when asked for benchmarks the server's time)."""

from __future__ import annotations

import json
import time

from starlette.datastructures import MutableHeaders
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tarocchi.i18n import Msg, translator
from tarocchi.web.lang import language
from tarocchi.web.rates import SLOW_DOWN

MAX_BODY = 16 * 1024  # ample: the largest body the API takes is about 60 bytes
MAX_HEADERS = 100  # header lines of a request (Apache's bound; a browser sends about 15)
# nothing but our own files, no inline script or style, no framing, no other site's forms
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; "
    "form-action 'self'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
}


class HttpOnly:
    """An ASGI middleware of HTTP requests (`http`): any other scope passes through."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not self.applies(scope):
            await self.app(scope, receive, send)
            return
        await self.http(scope, receive, send)

    def applies(self, scope: Scope) -> bool:
        """Return whether the middleware acts on this HTTP request (else it passes)."""
        return True

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Handle an HTTP request the middleware acts on."""
        raise NotImplementedError


class BodyLimit(HttpOnly):
    """Answer 431 to a request of more than MAX_HEADERS header lines (their bytes are
    bounded below the app, see tarocchi.web.connections), and 413 to one whose body is over
    MAX_BODY bytes, reading at most that much of it: a declared Content-Length over the
    bound is refused unread, a streamed body as soon as its bytes pass it. The app then
    gets the body in one message."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        super().__init__(app)
        self.limit = limit

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        if len(scope["headers"]) > MAX_HEADERS:
            reason = Msg("the request has more than %(most)d headers", most=MAX_HEADERS)
            await answer(scope, send, 431, reason, [(b"connection", b"close")])
            return
        declared = dict(scope["headers"]).get(b"content-length", b"0")
        if not declared.isdigit() or int(declared) > self.limit:
            await self.refuse(scope, send)
            return
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client left before sending its body
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            if size > self.limit:
                await self.refuse(scope, send)
                return
            if not message.get("more_body", False):
                break
        first: Message | None = {"type": "http.request", "body": b"".join(chunks)}

        async def replay() -> Message:
            nonlocal first
            if first is not None:
                message, first = first, None
                return message
            return await receive()

        await self.app(scope, replay, send)

    async def refuse(self, scope: Scope, send: Send) -> None:
        """Send 413 and close the connection (the rest of the body is never read)."""
        reason = Msg("the request body is larger than %(kb)d KB", kb=self.limit // 1024)
        await answer(scope, send, 413, reason, [(b"connection", b"close")])


async def answer(
    scope: Scope, send: Send, status: int, reason: Msg, headers: list[tuple[bytes, bytes]]
) -> None:
    """Send an error at the ASGI level: its reason in the reader's language, as JSON."""
    tr = translator(language(Request(scope)))
    body = json.dumps({"detail": tr.text(reason)}).encode()
    headers = [(b"content-type", b"application/json"),
               (b"content-length", str(len(body)).encode()), *headers]  # fmt: skip
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def asks_the_ai(scope: Scope) -> bool:
    """Tell whether a request asks for AI work: a new game, an action, a hint (the routes
    of tarocchi.web.api)."""
    method: str = scope["method"]
    path: str = scope["path"]
    if method == "POST":
        return path == "/api/games" or path.endswith("/actions")
    return method == "GET" and path.endswith("/hint")


class Door:
    """Turn away, before any routing or reading, a request for AI work from a client still
    inside the Retry-After of its last 429: a flood then costs the server next to nothing
    (the client's address as the server knows it; the game service keeps the waits)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        games = getattr(scope["app"].state, "games", None) if scope["type"] == "http" else None
        if games is not None and asks_the_ai(scope):
            client = scope["client"][0] if scope.get("client") else "unknown"
            wait = games.rates.wait_left(client)
            if wait:
                await answer(scope, send, 429, SLOW_DOWN, [(b"retry-after", str(wait).encode())])
                return
        await self.app(scope, receive, send)


class Headers(HttpOnly):
    """Add the security headers to every response, `Cache-Control: no-store` to the API's
    (they carry tokens and hands), and keep a Server-Timing header (the AI's share a route
    reported, then the server's own time) only when `timing` is on: it tells how long the AI
    thought, so a client would learn when an AI seat had a single legal card (rules: a
    seat's hand is hidden) — the bench asks for it, a server for players does not."""

    def __init__(self, app: ASGIApp, timing: bool = False) -> None:
        super().__init__(app)
        self.timing = timing

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        start = time.perf_counter()
        api = scope["path"].startswith("/api/")

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers.update(SECURITY_HEADERS)
                if api:
                    headers["Cache-Control"] = "no-store"
                ai = headers.get("server-timing")
                del headers["server-timing"]
                if self.timing:
                    app_ms = f"app;dur={(time.perf_counter() - start) * 1000:.1f}"
                    headers["Server-Timing"] = f"{ai}, {app_ms}" if ai else app_ms
            await send(message)

        await self.app(scope, receive, with_headers)


class Head(HttpOnly):
    """Answer HEAD as GET without the body, on every route that answers GET (RFC 9110: the
    same headers; FastAPI's routes answer only the methods they name)."""

    def applies(self, scope: Scope) -> bool:
        return bool(scope["method"] == "HEAD")

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def without_body(message: Message) -> None:
            if message["type"] == "http.response.body":
                message = {**message, "body": b""}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, without_body)
