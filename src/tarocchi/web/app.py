"""The web application: pages, the play page, SVG cards and the JSON API, over the store."""

from __future__ import annotations

import asyncio
import multiprocessing
import time
from collections.abc import AsyncIterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, HTTPException, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.datastructures import MutableHeaders
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tarocchi.games import GAMES, game
from tarocchi.i18n import DEFAULT, N_, Msg, joined, match, translator
from tarocchi.web.api import Games, make_router, prepare_worker, worker_ready
from tarocchi.web.lang import language, render
from tarocchi.web.pages import router as pages_router
from tarocchi.web.store import Store, StoreUnavailable, default_url
from tarocchi.web.store.retention import Retention, keep_tidy
from tarocchi.web.svg import card_back_svg, card_svg

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
    "json_invalid": N_("not valid JSON"),
    "model_attributes_type": N_("must be a JSON object"),
    "dict_type": N_("must be a JSON object"),
    "": N_("not valid"),
}
# AI workers run at a lower priority: a request that only reads or applies a move must not
# wait for a core behind another game's search
AI_NICENESS = 10
# seconds a client is told to wait when the database is down or restarting
STORE_RETRY_AFTER_S = 2


class ServerTiming:
    """ASGI middleware: add the server's own time for each request to its Server-Timing
    header (after the AI's share, if the route reported one)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()

        async def timed_send(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                app_ms = f"app;dur={(time.perf_counter() - start) * 1000:.1f}"
                ai = headers.get("server-timing")
                headers["Server-Timing"] = f"{ai}, {app_ms}" if ai else app_ms
            await send(message)

        await self.app(scope, receive, timed_send)


def create_app(
    db_path: Path | str | None = None, ai_workers: int = 2, retention: Retention | None = None
) -> FastAPI:
    """Return the app; games are stored in db_path, a SQLite file or a postgresql:// URL
    (default: $TAROCCHI_DB or ./tarocchi.sqlite3) and deleted by the retention (default:
    from the environment); AI moves run in a pool of ai_workers processes."""
    db = db_path if db_path is not None else default_url()
    keep = retention or Retention.from_environment()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(db)
        store.upgrade()
        pool = ProcessPoolExecutor(
            ai_workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=prepare_worker,
            initargs=(AI_NICENESS,),
        )
        # start every worker now (the pool spawns them one by one as work arrives), so the
        # first players do not wait while a worker process starts and loads the bots
        loop = asyncio.get_running_loop()
        await asyncio.gather(*(loop.run_in_executor(pool, worker_ready) for _ in range(ai_workers)))
        app.state.games = Games(store, pool)
        tidy = asyncio.create_task(keep_tidy(store, keep))
        try:
            yield
        finally:
            tidy.cancel()
            pool.shutdown(wait=False, cancel_futures=True)
            store.close()

    app = FastAPI(title="tarocchi", version="1", lifespan=lifespan)
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")

    app.add_middleware(ServerTiming)

    @app.exception_handler(StarletteHTTPException)
    async def translated_error(request: Request, exc: StarletteHTTPException) -> Response:
        """An error's reason in the reader's language (the engine's and the API's reasons
        are messages with their recipe, see tarocchi.i18n)."""
        detail = exc.detail
        if isinstance(detail, str):
            detail = translator(language(request)).text(detail)
        return JSONResponse({"detail": detail}, exc.status_code, headers=exc.headers)

    @app.exception_handler(StoreUnavailable)
    async def store_unavailable(request: Request, exc: StoreUnavailable) -> Response:
        """The database is down or restarting: nothing was changed, the client may retry."""
        busy = Msg("the games' database is unavailable for a moment; try again shortly")
        retry = {"Retry-After": str(STORE_RETRY_AFTER_S)}
        return await translated_error(request, StarletteHTTPException(503, busy, retry))

    @app.exception_handler(RequestValidationError)
    async def malformed(request: Request, exc: RequestValidationError) -> Response:
        """A malformed request: which fields are wrong, in the reader's language (`detail`),
        and pydantic's own list for programs (`errors`)."""
        tr = translator(language(request))
        problems = [
            Msg(
                "%(field)s: %(problem)s",
                field=".".join(str(p) for p in e.get("loc", ())[1:]) or e.get("loc", ("?",))[0],
                problem=PROBLEMS.get(e.get("type", ""), PROBLEMS[""]),
            )
            for e in exc.errors()
        ]
        detail = Msg("malformed request (%(problems)s)", problems=joined(problems, "; "))
        errors = jsonable_encoder(exc.errors())
        return JSONResponse({"detail": tr.text(detail), "errors": errors}, 422)

    app.include_router(make_router(lambda request: request.app.state.games))
    app.include_router(pages_router)

    @app.get("/play/{game_name}", response_class=HTMLResponse)
    async def play_page(game_name: str, request: Request) -> Response:
        """The play page of a game: a table, your hand, and the deal driven by the API."""
        if game_name not in GAMES:
            raise HTTPException(404, Msg("no such game"))
        rules = game(game_name)
        return render(request, "play.html", {"game": game_name, "title": rules.title})

    @app.get("/cards/{game_name}/{code}.svg")
    async def card_image(game_name: str, code: str, lang: str = DEFAULT) -> Response:
        """One card drawn as SVG (or `back`), its words in `lang` (a query parameter, not
        the reader's cookie or headers, so each URL always holds the same image)."""
        if game_name not in GAMES:
            raise HTTPException(404, Msg("no such game"))
        lang = match([lang]) or DEFAULT
        try:
            svg = card_back_svg(game_name) if code == "back" else card_svg(game_name, code, lang)
        except ValueError:
            raise HTTPException(404, Msg("no such card")) from None
        return Response(svg, media_type="image/svg+xml",
                        headers={"Cache-Control": "public, max-age=86400"})  # fmt: skip

    @app.get("/api/packs/{game_name}")
    async def pack_cards(game_name: str, request: Request) -> dict[str, object]:
        """The cards of a game's pack: code, names (in the reader's language, English and
        Italian), suit and points (public data)."""
        if game_name not in GAMES:
            raise HTTPException(404, Msg("no such game"))
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

    return app
