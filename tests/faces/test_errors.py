"""The service's refusals: one handler gives each kind its status, its headers and its
reason in the reader's language, as the API answered them when the service raised HTTP's
exceptions itself."""

from __future__ import annotations

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from tarocchi.i18n import Msg
from tarocchi.web.app import add_error_handlers
from tarocchi.web.errors import (
    Conflict,
    Forbidden,
    Invalid,
    NotFound,
    Refused,
    TooMany,
    Unauthenticated,
    Unavailable,
    status,
)
from tarocchi.web.service import BUSY, NO_GAME

KINDS: dict[str, Refused] = {
    "missing": NotFound(NO_GAME),
    "nobody": Unauthenticated(Msg("missing bearer token"), bearer=True),
    "wrong": Forbidden(Msg("wrong token for this game")),
    "stale": Conflict(Msg("the deal is over")),
    "invalid": Invalid(Msg("the deal is over")),
    "flood": TooMany(BUSY, 7),
    "away": Unavailable(Msg("the AI is restarting; try again in a moment"), 2),
}


@pytest.fixture(scope="module")
def client() -> TestClient:
    app = FastAPI()
    add_error_handlers(app)

    @app.get("/api/refuse/{kind}")
    async def refuse(kind: str) -> None:
        raise KINDS[kind]

    return TestClient(app)


@pytest.mark.parametrize(
    ("kind", "code", "headers"),
    [("missing", 404, {}), ("nobody", 401, {"www-authenticate": "Bearer"}), ("wrong", 403, {}),
     ("stale", 409, {}), ("invalid", 422, {}), ("flood", 429, {"retry-after": "7"}),
     ("away", 503, {"retry-after": "2"})],
)  # fmt: skip
def test_each_kind_answers_its_status_and_headers(
    client: TestClient, kind: str, code: int, headers: dict[str, str]
) -> None:
    r = client.get(f"/api/refuse/{kind}")
    assert r.status_code == code == status(KINDS[kind])
    assert {k: r.headers[k] for k in headers} == headers
    assert ("retry-after" in r.headers) == ("retry-after" in headers)  # only where told
    assert r.json() == {"detail": str(KINDS[kind].reason)}


def test_a_refusal_is_told_in_the_readers_language(client: TestClient) -> None:
    r = client.get("/api/refuse/missing", headers={"Accept-Language": "it"})
    assert (r.status_code, r.json()) == (404, {"detail": "partita inesistente"})
    r = client.get("/api/refuse/flood", headers={"Accept-Language": "it"})
    assert r.json() == {"detail": "troppe richieste insieme; attendi le risposte"}


def test_a_refusal_of_no_kind_is_a_bad_request() -> None:
    assert status(Refused(Msg("no"))) == 400
