"""The bounds of the server's HTTP connections, below the app: uvicorn's h11 protocol, with

- a request's head (request line and headers) of at most `head_bytes`: past it, 431 and
  the connection closed, read no further;
- a deadline for each request to arrive whole (`request_s` from its first byte, or from the
  connection's opening, to the end of its body): a client sending a header line every few
  seconds, or nothing at all, is cut off (408 if it had begun);
- at most `per_client` open connections from one address (429 past it, before anything is
  read), except from the proxies uvicorn trusts to forward addresses (127.0.0.1 and ::1
  unless FORWARDED_ALLOW_IPS says otherwise): a proxy speaks for many clients and bounds
  them itself;
- the app's security headers on the answers given here, before the app is reached.

A kept-alive connection waiting for its next request is closed after `keep_alive_s`
(uvicorn's own timer). A connection upgraded to a WebSocket counts against its client
until it closes. The counts are per server process.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import re
from collections import Counter
from http import HTTPStatus
from typing import Any

import h11
from uvicorn.config import Config
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.server import ServerState

from tarocchi.web.bounds import Limits
from tarocchi.web.middleware import SECURITY_HEADERS

OPEN: Counter[str] = Counter()  # open connections by client address (this process)
HEAD_END = re.compile(rb"\n\r?\n")  # the blank line ending a head, as h11 finds it
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def trusted_networks(allowed: list[str] | str) -> list[Network]:
    """Return the networks of uvicorn's trusted proxies (forwarded_allow_ips; "*" and
    names that are not addresses are left out: they exempt no one)."""
    entries = allowed.split(",") if isinstance(allowed, str) else allowed
    networks: list[Network] = []
    for entry in entries:
        try:
            networks.append(ipaddress.ip_network(entry.strip()))
        except ValueError:
            continue
    return networks


def raw_answer(status: int, detail: str, *extra: tuple[str, str]) -> bytes:
    """Return a whole HTTP/1.1 error answer that closes the connection: the reason as the
    API's JSON, with the security headers (English: no request was read to ask for another
    language)."""
    body = json.dumps({"detail": detail}).encode()
    phrase = HTTPStatus(status).phrase
    headers = [("content-type", "application/json"), ("content-length", str(len(body))),
               ("connection", "close"), *SECURITY_HEADERS.items(), *extra]  # fmt: skip
    head = f"HTTP/1.1 {status} {phrase}\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers)
    return head.encode("latin-1") + b"\r\n" + body


class Bounded(H11Protocol):
    """uvicorn's h11 protocol within Limits (see the module's docstring)."""

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
        limits: Limits = Limits(),  # noqa: B008 (a frozen value)
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.limits = limits
        self.proxies = trusted_networks(config.forwarded_allow_ips)
        self.counted: str | None = None  # the address this connection counts against
        self.deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        host = self.client[0] if self.client else None
        if host is None or self.is_proxy(host):
            self.arm()
            return
        self.counted = host
        OPEN[host] += 1
        if OPEN[host] > self.limits.per_client:
            detail = f"more than {self.limits.per_client} connections from one address"
            self.refuse(429, detail, ("retry-after", "1"))
        else:
            self.arm()

    def is_proxy(self, host: str) -> bool:
        """Tell whether an address is one of the trusted proxies'."""
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return False
        return any(address in network for network in self.proxies)

    def connection_lost(self, exc: Exception | None) -> None:
        self.disarm()
        self.release()
        super().connection_lost(exc)

    def release(self) -> None:
        """Stop counting this connection against its client."""
        if self.counted is not None:
            OPEN[self.counted] -= 1
            if not OPEN[self.counted]:
                del OPEN[self.counted]
            self.counted = None

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        """Hand the connection to the WebSocket protocol, still counted against its client
        until it closes (the new protocol, not this one, hears of its end)."""
        self.disarm()
        super().handle_websocket_upgrade(event)
        ws = self.transport.get_protocol()
        lost = ws.connection_lost

        def released(exc: Exception | None) -> None:
            self.release()
            lost(exc)

        ws.connection_lost = released  # type: ignore[method-assign]

    def data_received(self, data: bytes) -> None:
        if self.conn.their_state is h11.IDLE:  # a request's head is arriving
            if self.deadline is None:
                self.arm()  # a kept-alive connection's next request begins
            # (h11 bounds only a head that arrives in pieces: one that came whole in a read
            # of up to 256 KB would pass)
            buffered = self.conn.trailing_data[0] + data
            end = HEAD_END.search(buffered)
            if (end.start() if end else len(buffered)) > self.limits.head_bytes:
                bound = self.limits.head_bytes
                self.refuse(431, f"the request's headers are larger than {bound} bytes")
                return
        super().data_received(data)
        if self.conn.their_state not in (h11.IDLE, h11.SEND_BODY):
            self.disarm()  # the request is whole (or refused): the app's time is its own

    def arm(self) -> None:
        """Start the deadline of the request being received."""
        self.deadline = self.loop.call_later(self.limits.request_s, self.too_slow)

    def disarm(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None

    def too_slow(self) -> None:
        """The request did not arrive whole in time: 408 if it had begun, else just close."""
        self.deadline = None
        if self.transport.is_closing() or self.conn.their_state not in (h11.IDLE, h11.SEND_BODY):
            return
        if self.conn.their_state is h11.SEND_BODY or self.conn.trailing_data[0]:
            self.refuse(408, f"the request did not arrive within {self.limits.request_s} s")
        else:
            self.transport.close()

    def send_400_response(self, msg: str) -> None:
        """Answer a request h11 could not read (uvicorn's own answer, in plain text, has no
        security headers)."""
        self.refuse(400, "the request is not valid HTTP/1.1")

    def refuse(self, status: int, detail: str, *extra: tuple[str, str]) -> None:
        """Answer with an error and close the connection, reading nothing more."""
        self.disarm()
        self.transport.write(raw_answer(status, detail, *extra))
        self.transport.close()
