"""The web application: pages, the play page, SVG cards and the JSON API, over the store.

Assembly only: the routes (tarocchi.web.api, tarocchi.web.pages), the middleware
(tarocchi.web.middleware: the body bound, the headers), the error answers (HTML pages in
the reader's language for page URLs, JSON for the API; 503 while the database is
unavailable), the health endpoints and the lifespan that starts the store (brought to the
current schema), its retention task and the supervised AI pool (tarocchi.web.workers), and
then moves every object existing at that point out of the garbage collector's sight.
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Query, Request
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import BaseRoute, Match, Mount

from tarocchi.games import GAMES, game
from tarocchi.i18n import DEFAULT, N_, Msg, joined, match, nmsg, translator
from tarocchi.web import live, tables, watch
from tarocchi.web.api import make_router
from tarocchi.web.daily import make_router as daily_routes
from tarocchi.web.daily import publish_ahead
from tarocchi.web.driver import Driver
from tarocchi.web.errors import NotFound, Refused, Unauthenticated, Unavailable, status
from tarocchi.web.history import make_router as history_routes
from tarocchi.web.jobs import prepare_worker
from tarocchi.web.lang import language, render
from tarocchi.web.lessons import LESSONS, Lesson
from tarocchi.web.lessons import LEVEL as LESSON_LEVEL
from tarocchi.web.lessons import make_router as lesson_routes
from tarocchi.web.middleware import SECURITY_HEADERS, BodyLimit, Door, Head, Headers
from tarocchi.web.models import Health, Pack, Readiness, errors_for, exact_bounds
from tarocchi.web.pages import router as pages_router
from tarocchi.web.players import DeviceCookie
from tarocchi.web.players import make_router as player_routes
from tarocchi.web.rates import Rates
from tarocchi.web.reviews import (
    REVIEW_DEADLINE_S,
    REVIEW_NICENESS,
    Reviewer,
)
from tarocchi.web.reviews import make_router as review_routes
from tarocchi.web.service import Games
from tarocchi.web.settings import Settings
from tarocchi.web.store import Store, StoreUnavailable
from tarocchi.web.store.retention import Retention, keep_tidy
from tarocchi.web.svg import INDEX_HEIGHT, INDEX_WIDTH, card_back_svg, card_svg
from tarocchi.web.workers import RETRY_AFTER_S, AiPool

HERE = Path(__file__).parent
# what is wrong with a field of a malformed request, by pydantic's error type
PROBLEMS = {
    "missing": N_("missing"),
    "int_type": N_("must be a whole number"),
    "int_parsing": N_("must be a whole number"),
    "int_from_float": N_("must be a whole number"),
    "string_type": N_("must be text"),
    "greater_than_equal": N_("out of range"),
    "less_than_equal": N_("out of range"),
    "string_too_long": N_("too long"),
    "string_pattern_mismatch": N_("not an action code"),
    "enum": N_("not one of the names offered"),
    "extra_forbidden": N_("unknown field"),
    "json_invalid": N_("not valid JSON"),
    "model_attributes_type": N_("must be a JSON object"),
    "model_type": N_("must be a JSON object"),
    "dict_type": N_("must be a JSON object"),
    "": N_("not valid"),
}
# the reasons of the framework's own errors (ours are messages already)
FRAMEWORK_ERRORS = {
    400: Msg("the body could not be read as JSON"),
    404: Msg("no such page"),
    405: Msg("this method is not allowed here"),
}
# page titles of error statuses (other statuses: WENT_WRONG)
HEADINGS = {404: N_("Page not found"), 405: N_("Not allowed here")}
WENT_WRONG = N_("Something went wrong")
EXCERPT = 40  # characters of a wrong value an error may quote
MAX_ERRORS = 10  # wrong fields a 422 lists (a body of 1,000 unknown fields gets 10, and a count)
METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")  # the methods a 405 may allow
# AI workers run at a lower priority: a request that only reads or applies a move must not
# wait for a core behind another game's search
AI_NICENESS = 10
# seconds a client is told to wait when the database is down or restarting
STORE_RETRY_AFTER_S = 2
READY_TIMEOUT_S = 10.0  # an AI pool that cannot run a trivial job in this time is not ready
# URL prefixes that answer JSON (or an image) even for errors: the rest are pages
NOT_PAGES = ("/api/", "/cards/", "/static/", "/openapi.json", "/healthz", "/readyz")


def excerpt(value: object) -> str:
    """Return a short, printable excerpt of a value a request sent (lone surrogates and
    other unencodable characters escaped, at most EXCERPT characters)."""
    text = value if isinstance(value, str) else repr(value)
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text if len(text) <= EXCERPT else text[: EXCERPT - 1] + "…"


def is_page(request: Request) -> bool:
    """Tell whether a URL is a page a person reads (its errors are pages too)."""
    return not request.url.path.startswith(NOT_PAGES)


def error_page(request: Request, status: int, detail: str) -> Response:
    """Return an error as a page in the reader's language, in the site's style."""
    tr = translator(language(request))
    heading = tr.gettext(HEADINGS.get(status, WENT_WRONG))
    context = {"status": status, "heading": heading, "detail": detail}
    return render(request, "error.html", context, status)


def create_app(
    db_path: Path | str | None = None,
    ai_workers: int | None = None,
    rates: Rates | None = None,
    retention: Retention | None = None,
    timing: bool | None = None,
    on_ready: Callable[[], None] | None = None,
    settings: Settings | None = None,
) -> FastAPI:
    """Return the app, run with its settings (default: from the environment, built here
    once; see tarocchi.web.settings), the arguments given overriding them: games are stored
    in db_path, a SQLite file or a postgresql:// URL, and deleted by the retention; AI moves
    run in a pool of ai_workers processes; rates are the limits of creation and hints per
    client (default: tarocchi.web.rates'); with timing, answers tell the server's and the
    AI's time, for benchmarks only (see tarocchi.web.middleware.Headers); on_ready is called
    once the app is about to answer (its AI workers started)."""
    given: dict[str, Any] = {
        "db": None if db_path is None else str(db_path),
        "ai_workers": ai_workers,
        "retention": retention,
        "timing": timing,
    }
    chosen = {name: value for name, value in given.items() if value is not None}
    run = replace(settings or Settings.from_environment(), **chosen)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(run.db, run.db_pool, run.daily_key)
        store.upgrade()
        pool = AiPool(run.ai_workers, prepare_worker, (AI_NICENESS,))
        await pool.start()
        app.state.games = Games(store, pool, rates)
        # the reviews' own process, started on its first job
        review_pool = AiPool(1, prepare_worker, (REVIEW_NICENESS,), REVIEW_DEADLINE_S)
        app.state.reviewer = reviewer = Reviewer(store, review_pool, run.review_lease_s)
        app.state.games.ended = reviewer.ended
        # friends' tables: their seats, the AI in the seats nobody holds, the live channels
        app.state.tables = tables.Tables(app.state.games, run.turn_timer_s)
        driver = Driver(app.state.games, run.table_lease_s, run.away_grace_s, run.watch_pace_s)
        app.state.tables.moved = driver.kick
        app.state.channels = live.Channels(app.state.tables, driver)
        tasks = [asyncio.create_task(keep_tidy(store, run.retention)),
                 asyncio.create_task(reviewer.run()),
                 asyncio.create_task(publish_ahead(store))]  # fmt: skip
        if on_ready is not None:
            on_ready()  # the AI workers are up: the app answers from now on
        # the ~150,000 objects of the code, the rules and the framework live as long as the
        # process: out of the collector's sight, a full collection no longer stops every
        # request for about 100 ms of CPU (measured), it only walks the games' objects
        gc.freeze()
        try:
            yield
        finally:
            for task in tasks:
                task.cancel()
            driver.close()
            review_pool.close(kill=True)
            pool.close()
            store.close()

    # /docs and /redoc are off: FastAPI serves them with scripts from a CDN, which the
    # Content-Security-Policy forbids (the OpenAPI document is at /openapi.json); redirects
    # to the slash-less URL are off: they are built from the Host header
    # every route may answer 413 and 431: the bounds of tarocchi.web.middleware.BodyLimit
    app = FastAPI(title="tarocchi", version="1", lifespan=lifespan, docs_url=None,
                  redoc_url=None, redirect_slashes=False,
                  responses=errors_for(413, 431))  # fmt: skip
    build_openapi = app.openapi
    app.openapi = lambda: app.openapi_schema or exact_bounds(build_openapi())  # type: ignore[method-assign]
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    # (FastAPI's own max_body_size answers 413 in plain English text, outside the app's
    # handlers and middleware: no security headers, not the documented JSON)
    app.add_middleware(BodyLimit)
    app.add_middleware(DeviceCookie)
    app.add_middleware(Door)
    app.add_middleware(Headers, timing=run.timing)
    app.add_middleware(Head)

    add_error_handlers(app)
    app.include_router(make_router(lambda request: request.app.state.games))
    app.include_router(
        review_routes(lambda request: request.app.state.games,
                      lambda request: request.app.state.reviewer)
    )  # fmt: skip
    app.include_router(lesson_routes(lambda request: request.app.state.games))
    app.include_router(
        tables.make_router(lambda request: request.app.state.games,
                           lambda request: request.app.state.tables)
    )  # fmt: skip
    app.include_router(live.make_router(lambda ws: ws.app.state.channels))
    app.include_router(
        watch.make_router(lambda request: request.app.state.games,
                          lambda conn: conn.app.state.tables)
    )  # fmt: skip
    app.include_router(player_routes())
    app.include_router(daily_routes(lambda request: request.app.state.games))
    app.include_router(history_routes())
    app.include_router(pages_router)
    add_routes(app)
    return app


def add_error_handlers(app: FastAPI) -> None:
    """Answer every error in the reader's language: a page for page URLs, JSON for the API."""

    @app.exception_handler(StarletteHTTPException)
    async def translated_error(request: Request, exc: StarletteHTTPException) -> Response:
        """An error's reason in the reader's language (the engine's and the API's reasons
        are messages with their recipe, see tarocchi.i18n); a page for page URLs."""
        detail = exc.detail
        if not isinstance(detail, Msg):
            detail = FRAMEWORK_ERRORS.get(exc.status_code, detail)
        if isinstance(detail, str):
            detail = translator(language(request)).text(detail)
        headers = exc.headers
        if exc.status_code == 405:  # Starlette names only the first route of the path's
            headers = {**(headers or {}), "Allow": ", ".join(allowed(request))}
        if is_page(request) and request.method in ("GET", "HEAD"):
            page = error_page(request, exc.status_code, detail)
            page.headers.update(headers or {})
            return page
        return JSONResponse({"detail": detail}, exc.status_code, headers=headers)

    @app.exception_handler(Refused)
    async def refused(request: Request, exc: Refused) -> Response:
        """A request the service refuses: its kind's status, and the headers that tell the
        client what to do (when to try again, how to say who it is)."""
        headers = {}
        if exc.retry_after is not None:
            headers["Retry-After"] = str(exc.retry_after)
        if isinstance(exc, Unauthenticated) and exc.bearer:
            headers["WWW-Authenticate"] = "Bearer"
        error = StarletteHTTPException(status(exc), exc.reason, headers or None)
        return await translated_error(request, error)

    @app.exception_handler(StoreUnavailable)
    async def store_unavailable(request: Request, exc: StoreUnavailable) -> Response:
        """The database is down or restarting: nothing was changed, the client may retry."""
        busy = Msg("the games' database is unavailable for a moment; try again shortly")
        return await refused(request, Unavailable(busy, STORE_RETRY_AFTER_S))

    @app.exception_handler(Exception)
    async def crashed(request: Request, exc: Exception) -> Response:
        """An unexpected error: 500, said plainly (the traceback goes to the server's log).
        Starlette answers it outside the middleware: the headers are set here."""
        detail = translator(language(request)).gettext(N_("the server failed; try again"))
        page = error_page(request, 500, detail) if is_page(request) else None
        answer = page or JSONResponse({"detail": detail}, 500)
        answer.headers.update(SECURITY_HEADERS)
        return answer

    @app.exception_handler(RequestValidationError)
    async def malformed(request: Request, exc: RequestValidationError) -> Response:
        """A malformed request: which fields are wrong, in the reader's language (`detail`),
        and the list for programs (`errors`: the first MAX_ERRORS, each where, pydantic's type,
        what is wrong in English, at most a short excerpt of the value)."""
        tr = translator(language(request))
        errors = [
            {"loc": [p if isinstance(p, int) else excerpt(p) for p in e.get("loc", ())],
             "type": e.get("type", ""), "msg": PROBLEMS.get(e.get("type", ""), PROBLEMS[""]),
             "input": excerpt(e.get("input"))}
            for e in exc.errors()[:MAX_ERRORS]
        ]  # fmt: skip
        problems = [
            Msg("%(field)s: %(problem)s",
                field=".".join(str(p) for p in e["loc"][1:]) or str(e["loc"][0]),
                problem=PROBLEMS.get(e["type"], PROBLEMS[""]))
            for e in errors
        ]  # fmt: skip
        if (more := len(exc.errors()) - len(errors)) > 0:
            problems.append(nmsg("%(n)d more problem", "%(n)d more problems", more))
        detail = Msg("malformed request (%(problems)s)", problems=joined(problems, "; "))
        return JSONResponse({"detail": tr.text(detail), "errors": errors}, 422)


def allowed(request: Request) -> list[str]:
    """Return the methods some route of the app answers at the request's path (HEAD
    wherever GET: see tarocchi.web.middleware.Head; the static files answer GET)."""

    # the request as the app received it (a mount's routing has moved its path since)
    scope = {"type": "http", "path": request.url.path, "root_path": "", "method": "GET"}

    def answers(route: BaseRoute, method: str) -> bool:
        if isinstance(route, Mount):
            return method == "GET" and route.matches(scope)[0] != Match.NONE
        return route.matches({**scope, "method": method})[0] == Match.FULL

    methods = {m for m in METHODS if any(answers(r, m) for r in request.app.router.routes)}
    return sorted(methods | {"HEAD"} if "GET" in methods else methods)


def add_routes(app: FastAPI) -> None:
    """Add the health endpoints, the play page, the card images and the packs' cards."""

    @app.get("/healthz", response_model=Health)
    async def healthz() -> dict[str, str]:
        """Liveness: the server answers requests."""
        return {"status": "ok"}

    @app.get("/readyz", response_model=Readiness, responses={503: {"model": Readiness}})
    async def readyz(request: Request) -> JSONResponse:
        """Readiness: the database answers and the AI pool runs a job (503 if either fails)."""
        games: Games = request.app.state.games
        try:
            await asyncio.to_thread(games.store.count)
            database = True
        except Exception:
            database = False
        ai = await games.pool.alive(READY_TIMEOUT_S)
        ready = database and ai
        headers = {} if ready else {"Retry-After": str(RETRY_AFTER_S)}
        body = {"ready": ready, "database": database, "ai": ai}
        return JSONResponse(body, 200 if ready else 503, headers)

    @app.get("/play/{game_name}", response_class=HTMLResponse, include_in_schema=False)
    async def play_page(game_name: str, request: Request) -> Response:
        """The play page of a game: a table, your hand, and the deal driven by the API."""
        return table_page(request, game_name, None)

    @app.get("/learn/{game_name}", response_class=HTMLResponse, include_in_schema=False)
    async def learn_page(game_name: str, request: Request) -> Response:
        """The guided deal of a game: the play page on the lesson's cards, explained."""
        return table_page(request, game_name, LESSONS.get(game_name))

    svg = {"content": {"image/svg+xml": {"schema": {"type": "string"}}},
           "description": "The card as an SVG image"}  # fmt: skip

    @app.get("/cards/{game_name}/{code}.svg", response_class=Response,
             responses={200: svg, **errors_for(404, 422)})  # fmt: skip
    async def card_image(
        game_name: Annotated[str, PathParam(max_length=32)],
        code: Annotated[str, PathParam(max_length=16)],
        lang: Annotated[str, Query(max_length=35)] = DEFAULT,
    ) -> Response:
        """One card drawn as SVG (or `back`), its words in `lang` (a query parameter, not
        the reader's cookie or headers, so each URL always holds the same image)."""
        if game_name not in GAMES:
            raise NotFound(Msg("no such game"))
        lang = match([lang]) or DEFAULT
        try:
            image = card_back_svg(game_name) if code == "back" else card_svg(game_name, code, lang)
        except ValueError:
            raise NotFound(Msg("no such card")) from None
        return Response(image, media_type="image/svg+xml",
                        headers={"Cache-Control": "public, max-age=86400"})  # fmt: skip

    @app.get("/api/packs/{game_name}", response_model=Pack, responses=errors_for(404, 422))
    async def pack_cards(
        game_name: Annotated[str, PathParam(max_length=32)], request: Request
    ) -> dict[str, object]:
        """The cards of a game's pack: code, names (in the reader's language, English and
        Italian), suit and points (public data)."""
        if game_name not in GAMES:
            raise NotFound(Msg("no such game"))
        rules = game(game_name)
        tr = translator(language(request))
        return {
            "game": game_name,
            "title": rules.title,
            "cards": [
                {"code": c.code, "name": tr.card(c), "name_en": c.name_en, "name_it": c.name_it,
                 "suit": c.suit, "points": c.points}
                for c in rules.pack.cards
            ],
        }  # fmt: skip


def table_page(request: Request, game_name: str, lesson: Lesson | None) -> Response:
    """Render the table of a game, for a real deal or (with a lesson) the guided one."""
    if game_name not in GAMES:
        raise NotFound(Msg("no such game"))
    rules = game(game_name)
    return render(request, "play.html", {"game": game_name, "title": rules.title,
                  "index_height": INDEX_HEIGHT, "index_width": INDEX_WIDTH,
                  "lesson": lesson, "lesson_level": LESSON_LEVEL})  # fmt: skip
