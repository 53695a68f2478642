"""The web service's domain errors: what a request asked that the service refuses, and why.

The service (tarocchi.web.service and its friends) raises these and knows nothing of HTTP;
the app's one handler (tarocchi.web.app) gives each kind its status, its headers and the
reason in the reader's language.
"""

from __future__ import annotations

from tarocchi.i18n import Msg


class Refused(Exception):
    """A request the service refuses, with the reason (a message, translated when told)."""

    def __init__(self, reason: Msg | str, retry_after: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.retry_after = retry_after  # seconds after which the same request may succeed


class NotFound(Refused):
    """No such thing (a game, a table, a day, a code)."""


class Unauthenticated(Refused):
    """Nothing says who asks: no token, a malformed one (bearer: the API's bearer token is
    the way to say it), no player."""

    def __init__(self, reason: Msg | str, bearer: bool = False) -> None:
        super().__init__(reason)
        self.bearer = bearer


class Forbidden(Refused):
    """Who asks may not open it: a wrong token or invitation."""


class Conflict(Refused):
    """Not now: the state of the game or the table refuses it (a stale version, not your
    turn, a deal not over, an action the rules refuse)."""


class Invalid(Refused):
    """Well formed, but not something this thing has (a decision a deal does not have)."""


class TooMany(Refused):
    """Too many requests from a client: it is told when to try again."""


class Unavailable(Refused):
    """A part the service needs is away for a moment (the AI restarting)."""


# the status of each kind, as HTTP's: the app's answers, and a live connection's close code
STATUSES: dict[type[Refused], int] = {
    NotFound: 404,
    Unauthenticated: 401,
    Forbidden: 403,
    Conflict: 409,
    Invalid: 422,
    TooMany: 429,
    Unavailable: 503,
}


def status(error: Refused) -> int:
    """Return the status of a refusal (400 for a refusal of no kind above)."""
    return next((STATUSES[k] for k in type(error).__mro__ if k in STATUSES), 400)
