"""The bounds of the server's connections and clients, as one value (no web dependency:
`tarocchi serve`'s options take their defaults from it; tarocchi.web.connections applies
them)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Limits:
    """What one connection and one client may hold (the `serve` options of the same names)."""

    head_bytes: int = 16 * 1024  # nginx's and Node's default; a browser's head is under 2 KB
    request_s: int = 10
    keep_alive_s: int = 5  # uvicorn's default
    per_client: int = 32  # a browser opens 6 per site; a tab's reloads a few more
    ws_ping_s: int = 20  # a live connection's ping interval, and the time to answer one

    def __post_init__(self) -> None:
        if not 1024 <= self.head_bytes <= 1024 * 1024:
            raise ValueError(f"--header-bytes is 1024 to 1048576, not {self.head_bytes}")
        if not all(0 < s <= 3600 for s in (self.request_s, self.keep_alive_s, self.ws_ping_s)):
            raise ValueError("--request-timeout, --keep-alive and --ws-ping are 1 to 3600 seconds")
        if self.per_client < 1:
            raise ValueError(f"--client-connections is at least 1, not {self.per_client}")
