"""ASGI middleware around the whole app: a bound on request bodies, and the headers every
response carries (security headers, the server's own time)."""

from __future__ import annotations

import json
import time

from starlette.datastructures import MutableHeaders
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tarocchi.i18n import Msg, translator
from tarocchi.web.lang import language

MAX_BODY = 16 * 1024  # ample: the largest body the API takes is about 60 bytes
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


class BodyLimit:
    """Answer 413 to a request whose body is over MAX_BODY bytes, reading at most that much
    of it: a declared Content-Length over the bound is refused unread, a streamed body as
    soon as its bytes pass it. The app then gets the body in one message."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
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
        """Send 413 with the reason in the reader's language, and close the connection (the
        rest of the body is never read)."""
        tr = translator(language(Request(scope)))
        reason = Msg("the request body is larger than %(kb)d KB", kb=self.limit // 1024)
        body = json.dumps({"detail": tr.text(reason)}).encode()
        headers = [(b"content-type", b"application/json"), (b"connection", b"close"),
                   (b"content-length", str(len(body)).encode())]  # fmt: skip
        await send({"type": "http.response.start", "status": 413, "headers": headers})
        await send({"type": "http.response.body", "body": body})


class Headers:
    """Add the security headers to every response, and the server's own time for the
    request to its Server-Timing header (after the AI's share, if the route reported one)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    headers[name] = value
                app_ms = f"app;dur={(time.perf_counter() - start) * 1000:.1f}"
                ai = headers.get("server-timing")
                headers["Server-Timing"] = f"{ai}, {app_ms}" if ai else app_ms
            await send(message)

        await self.app(scope, receive, with_headers)
