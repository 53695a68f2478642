"""The `tarocchi` command: serve, db, play, join, history, arena, bots, bench, replay, review,
verify."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tarocchi.bots import LEVELS
from tarocchi.games import GAMES
from tarocchi.i18n import LANGUAGES, from_environment, translator
from tarocchi.web.bounds import Limits

if TYPE_CHECKING:  # the web app's modules load only to serve
    from fastapi import FastAPI

Option = tuple[tuple[str, ...], dict[str, Any]]
BOUNDS = Limits()  # the defaults of serve's bounds on connections
TODAY = "today"  # `play --daily` without a date


def opt(*flags: str, **settings: Any) -> Option:
    """Return one argument of a command: its flags and argparse's settings."""
    return flags, settings


GAME = opt("game", choices=sorted(GAMES))
JSON = opt("--json", action="store_true", help="print JSON")


def lang_option(what: str) -> Option:
    """Return the --lang option of a command showing `what`."""
    return opt("--lang", default=None, choices=sorted(LANGUAGES),
               help=f"the language {what} (default: from LANG, else English)")  # fmt: skip


DB_UPGRADE = ("bring the database to the current schema", (
    opt("--db", default=None, help="a SQLite file or a postgresql:// URL (default: as serve)"),
))  # fmt: skip

# every command: its help and its arguments, in the order `tarocchi -h` lists them
COMMANDS: dict[str, tuple[str, tuple[Option, ...]]] = {
    "serve": ("start the web app", (
        opt("--host", default="127.0.0.1"),
        opt("--port", type=int, default=8000),
        opt("--db", default=None,
            help="a SQLite file or a postgresql:// URL (default: $TAROCCHI_DB, else "
            "tarocchi.sqlite3)"),
        opt("--workers", type=int, default=1,
            help="server processes sharing the port (more than one: best on PostgreSQL)"),
        opt("--ai-workers", type=int, default=2, help="AI processes per server process"),
        opt("--keep-unfinished-days", default=None, metavar="DAYS",
            help="delete unfinished games left this long (default 7; `never` keeps them)"),
        opt("--keep-finished-days", default=None, metavar="DAYS",
            help="delete finished games this old (default 90; `never` keeps them)"),
        opt("--header-bytes", type=int, default=BOUNDS.head_bytes,
            help="the most a request's line and headers may take (431 past it)"),
        opt("--request-timeout", type=int, default=BOUNDS.request_s, metavar="SECONDS",
            help="the time a request has to arrive whole, head and body (408 past it)"),
        opt("--keep-alive", type=int, default=BOUNDS.keep_alive_s, metavar="SECONDS",
            help="how long an idle connection is kept open for its next request"),
        opt("--client-connections", type=int, default=BOUNDS.per_client, metavar="N",
            help="open connections per client address (429 past it; trusted proxies exempt)"),
        opt("--ws-ping", type=int, default=BOUNDS.ws_ping_s, metavar="SECONDS",
            help="how often a live connection is pinged, and how long it has to answer"),
        opt("--server-timing", action="store_true",
            help="tell each answer's server and AI time (Server-Timing), for benchmarks: it "
            "shows when an AI seat had one legal card, so never for players"),
    )),
    "db": ("manage the games database", ()),
    "play": ("play one deal in the terminal as South", (
        GAME,
        opt("--seed", type=int, default=None, help="deal number (random if omitted)"),
        opt("--level", default="normal", choices=sorted(LEVELS),
            help="how well the AI players play"),
        lang_option("to play in"),
        opt("--daily", nargs="?", const=TODAY, default=None, metavar="DATE",
            help="play today's deal of the day on --server (the first try of this device is "
            "scored), or a past day's (YYYY-MM-DD), its seed revealed by --server and checked "
            "against its commitment, as practice"),
        opt("--server", default=None, metavar="URL", help="the site of --daily's deal"),
    )),
    "join": ("take a seat at a friends' table from its invitation link, and play it here", (
        opt("url", help="the invitation link (http://HOST/play/GAME?table=ID&seat=N#SECRET)"),
        lang_option("to play in"),
    )),
    "arena": ("duplicate match between two bots", (
        GAME,
        opt("--a", required=True, help="bot of team A"),
        opt("--b", required=True, help="bot of team B"),
        opt("--pairs", type=int, default=100,
            help="seeds, each played twice (the most, with --target-ci)"),
        opt("--target-ci", type=float, default=None, metavar="W",
            help="stop once the 95%% interval's half-width is at most W (sequential rule, "
            "README)"),
        opt("--seed", type=int, default=0, help="first seed"),
        opt("--jobs", type=int, default=1, help="worker processes (local Ray: CPUs)"),
        opt("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
            help="play the pairs as Ray tasks: on a local Ray instance, or the cluster at "
            "ADDRESS (needs pip install 'tarocchi[ray]')"),
        opt("--json", action="store_true", help="print the full JSON summary"),
        opt("--save", type=Path, default=None, help="write one record per deal here"),
        opt("--log", type=Path, default=None,
            help="append each pair to this file, skipping seeds already in it (resumable)"),
    )),
    "bots": ("list the bots arena accepts, with those packages register", ()),
    "bench": ("engine and AI speed", (
        GAME,
        JSON,
        opt("--seconds", type=float, default=3.0, help="time per measurement"),
        opt("--ai-seconds", type=float, default=20.0, help="time per search level's timing"),
        opt("--review-deals", type=int, default=10, metavar="N",
            help="time the review of South's play in N seeded deals (0: skip)"),
        opt("--review-stability", type=int, default=0, metavar="N",
            help="review South's play in N seeded deals twice, with independent seeds, and "
            "report how often the marks agree"),
    )),
    "history": ("the deals played in the terminal, with their statistics", (
        opt("--game", default=None, choices=sorted(GAMES)),
        opt("--level", default=None, choices=sorted(LEVELS)),
        lang_option("to list them in"),
    )),
    "replay": ("verify and show a deal record", (opt("file", type=Path),)),
    "review": ("the AI's review of a seat's play in a deal record", (
        opt("file", type=Path),
        opt("--seat", type=int, default=0, choices=range(4), help="0 South (default)"),
        opt("--level", default=None, choices=sorted(LEVELS),
            help="the AI replayed in the seat (default: the record's table level, as the web "
            "shows it; else hard)"),
        opt("--json", action="store_true", help="print the review as JSON"),
        lang_option("of the review"),
    )),
    "verify": ("check a revealed deal of the day against its commitment, and a record of it", (
        GAME,
        opt("date", help="the day, YYYY-MM-DD (UTC)"),
        opt("--server", default=None, metavar="URL",
            help="take the seed and the commitment the server published (e.g. "
            "http://127.0.0.1:8000)"),
        opt("--seed", type=int, default=None, help="the revealed seed (without --server)"),
        opt("--commitment", default=None, metavar="HEX",
            help="the commitment published before the day (without --server)"),
        opt("--record", type=Path, default=None, metavar="FILE",
            help="a record of that day's deal: check that every AI action followed from the "
            "deal and the play"),
    )),
}  # fmt: skip


def add_options(parser: argparse.ArgumentParser, options: Sequence[Option]) -> None:
    """Add a command's arguments to its parser."""
    for flags, settings in options:
        parser.add_argument(*flags, **settings)


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser of every subcommand (COMMANDS)."""
    p = argparse.ArgumentParser(
        prog="tarocchi", description="Traditional Italian partnership tarot games."
    )
    sub = p.add_subparsers(dest="command", required=True)
    for name, (text, options) in COMMANDS.items():
        add_options(command := sub.add_parser(name, help=text), options)
        if name == "db":
            db_sub = command.add_subparsers(dest="db_command", required=True)
            add_options(db_sub.add_parser("upgrade", help=DB_UPGRADE[0]), DB_UPGRADE[1])
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    args = build_parser().parse_args(argv)
    try:
        return run(args)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130


def run(args: argparse.Namespace) -> int:
    """Dispatch a parsed command."""
    if args.command == "serve":
        return serve(args)
    if args.command == "db":
        return upgrade_db(args.db)
    if args.command == "play":
        from tarocchi.terminal import play_terminal

        lang = args.lang or from_environment()
        if args.daily is None:
            return play_terminal(args.game, args.seed, args.level, sys.stdin, sys.stdout, lang)
        return play_daily(args, lang)
    if args.command == "join":
        from tarocchi.remote import join

        return join(args.url, sys.stdin, sys.stdout, args.lang or from_environment())
    if args.command == "arena":
        from tarocchi.arena import run as run_arena

        try:
            summary = run_arena(
                args.game, args.a, args.b, args.pairs, args.seed, args.jobs, args.save, args.log,
                args.target_ci, args.ray,
            )  # fmt: skip
        except ValueError as e:
            print(f"tarocchi arena: {e}", file=sys.stderr)
            return 2
        if args.json:
            print(json.dumps(summary))
        else:
            low, high = summary["ci95"]
            print(
                f"{args.game}: {args.a} vs {args.b}, {summary['pairs']} pairs: "
                f"mean margin {summary['mean_margin']:+.2f} (95% CI {low:+.2f} .. {high:+.2f}, "
                f"sd {summary['sd']:.2f}); "
                f"{summary['wins']} wins, {summary['draws']} draws, {summary['losses']} losses"
                + (
                    f"; target half-width {args.target_ci} "
                    + ("reached" if summary["reached"] else "not reached within --pairs")
                    if args.target_ci is not None
                    else ""
                )
            )
        return 0
    if args.command == "bots":
        return list_bots()
    if args.command == "bench":
        from tarocchi.bench import run as run_bench

        report = run_bench(args.game, args.seconds, args.ai_seconds, args.review_deals)
        if args.review_stability:
            from tarocchi.stability import stability

            report.update(stability(args.game, args.review_stability))
        print(
            json.dumps(report) if args.json else "\n".join(f"{k}: {v}" for k, v in report.items())
        )
        return 0
    if args.command == "history":
        from tarocchi.terminal import describe_history, kept

        lang = args.lang or from_environment()
        print(describe_history(kept(args.game, args.level), translator(lang)))
        return 0
    if args.command == "replay":
        return replay_file(args.file)
    if args.command == "review":
        return review_file(args)
    if args.command == "verify":
        return verify_daily(args)
    raise AssertionError(args.command)


def list_bots() -> int:
    """Print every bot name arena accepts and what plays it; return 0."""
    from tarocchi.bots import BOTS, ENTRY_POINT_GROUP, registered_bots

    rows = [(level, f"level, played by {bot}") for level, bot in LEVELS.items()]
    rows += [("heuristic", "the rule-based player of each game")]
    rows += [(name, target) for name, target in BOTS.items()]
    rows += [
        (name, f"{target} (entry point {ENTRY_POINT_GROUP})")
        for name, target in registered_bots().items()
    ]
    width = max(len(name) for name, _ in rows)
    for name, what in dict(rows).items():
        print(f"{name:<{width}}  {what}")
    print("or any import path pkg.module:Class (docs/bots.md)")
    return 0


def serve(args: argparse.Namespace) -> int:
    """Start the web app on its database (--db, else $TAROCCHI_DB, else ./tarocchi.sqlite3),
    brought to the current schema first."""
    import functools
    import os

    import uvicorn

    from tarocchi.web.app import create_app
    from tarocchi.web.connections import Bounded
    from tarocchi.web.live import MAX_MESSAGE
    from tarocchi.web.settings import AI_WORKERS_ENV, DB_ENV, TIMING_ENV, Settings
    from tarocchi.web.store import database_url
    from tarocchi.web.store.retention import FINISHED_ENV, UNFINISHED_ENV

    # the settings go through the environment: that is all a --workers process receives
    if args.db:
        os.environ[DB_ENV] = args.db
    for name, value in ((UNFINISHED_ENV, args.keep_unfinished_days),
                        (FINISHED_ENV, args.keep_finished_days)):  # fmt: skip
        if value is not None:
            os.environ[name] = value
    if args.server_timing:
        os.environ[TIMING_ENV] = "1"
    try:
        settings = Settings.from_environment()  # a bad setting stops serve here, named
        limits = Limits(args.header_bytes, args.request_timeout, args.keep_alive,
                        args.client_connections, args.ws_ping)  # fmt: skip
    except ValueError as e:
        print(f"tarocchi serve: {e}", file=sys.stderr)
        return 2
    db = settings.db
    if upgrade_db(db):
        return 1
    shown = database_url(db).render_as_string(hide_password=True)
    address = f"tarocchi: http://{args.host}:{args.port}/  (games stored in {shown})"
    # uvicorn's h11 protocol, bounded (tarocchi.web.connections); the tables' live
    # connections (tarocchi.web.live) on the websockets library's sans-I/O protocol: a
    # frame over 4 KB closes one (1009) unread, a client that answers no ping within
    # --ws-ping seconds is cut off (1011), and nothing is compressed (a small frame could
    # inflate to a large one)
    ping = limits.ws_ping_s
    bounds: dict[str, Any] = {
        "http": functools.partial(Bounded, limits=limits), "ws": "websockets-sansio",
        "ws_max_size": MAX_MESSAGE, "ws_ping_interval": ping, "ws_ping_timeout": ping,
        "ws_per_message_deflate": False,
        "h11_max_incomplete_event_size": limits.head_bytes,
        "timeout_keep_alive": limits.keep_alive_s,
        "host": args.host, "port": args.port, "log_level": "warning",
    }  # fmt: skip
    if args.workers > 1:
        print(address, flush=True)
        os.environ[AI_WORKERS_ENV] = str(args.ai_workers)
        os.environ[SUPERVISOR_ENV] = str(os.getpid())
        uvicorn.run(f"{__name__}:app_from_environment", factory=True, workers=args.workers,
                    **bounds)  # fmt: skip
    else:
        # the address once it answers: the AI workers load the compiled search first (and
        # compile it, for a minute or more, if `make serve` has not: numba's cache is empty)
        print("tarocchi: starting the AI players...", flush=True)
        app = create_app(
            ai_workers=args.ai_workers,
            on_ready=lambda: print(address, flush=True),
            settings=settings,
        )
        uvicorn.run(app, **bounds)
    return 0


SUPERVISOR_ENV = "TAROCCHI_SUPERVISOR"  # the pid of `serve --workers`'s first process


def app_from_environment() -> FastAPI:
    """Return the app of one of `serve --workers`'s processes, set up by serve's environment.
    The process dies with the `serve` that started it, even by `kill -9` (then its AI
    workers die with it in turn): no orphan keeps serving the port."""
    import os

    from tarocchi.web.app import create_app
    from tarocchi.web.workers import die_with_parent

    die_with_parent(int(os.environ[SUPERVISOR_ENV]))
    return create_app()  # its settings from the environment serve set


def upgrade_db(db: str | None) -> int:
    """Bring a database (default: as serve's) to the current schema; return the exit status."""
    from tarocchi.web.settings import database
    from tarocchi.web.store import Store, StoreUnavailable

    store = Store(db or database())
    try:
        revision = store.upgrade()
    except StoreUnavailable as e:
        print(f"tarocchi: cannot reach the database {store}: {e}", file=sys.stderr)
        return 1
    finally:
        store.close()
    print(f"tarocchi: database {store} at schema revision {revision}", flush=True)
    return 0


def replay_file(path: Path) -> int:
    """Verify a record and print its deal; return 0 if it replays to its stored result."""
    from tarocchi.record import RecordError, load, replay
    from tarocchi.terminal import describe_result
    from tarocchi.views import to_json, view

    try:
        rules, state = replay(load(path))
    except RecordError as e:
        print(f"tarocchi replay: {path}: {e}", file=sys.stderr)
        return 1
    print(f"{path}: a valid {rules.title} record; the replay reproduces the stored result.")
    tr = translator("en")
    print(describe_result(rules, to_json(view(state, 0), tr)["result"], tr))
    return 0


def review_file(args: argparse.Namespace) -> int:
    """Review a record for a seat and print it (as text or JSON); 1 if it does not replay."""
    from tarocchi.record import RecordError, load
    from tarocchi.review import review, table_level, to_json
    from tarocchi.terminal_review import describe_review

    tr = translator(args.lang or from_environment())
    try:
        record = load(args.file)
        done = review(record, args.seat, args.level or table_level(record, args.seat))
    except RecordError as e:
        print(f"tarocchi review: {args.file}: {e}", file=sys.stderr)
        return 1
    print(json.dumps(to_json(done, tr)) if args.json else describe_review(done, tr))
    return 0


def verify_daily(args: argparse.Namespace) -> int:
    """Check a day's revealed seed against its commitment (from --server, or given) and a
    record of the deal if given; return 0 only when everything checks, 2 for bad options."""
    from tarocchi import daily
    from tarocchi.record import load

    def fail(why: str, status: int = 1) -> int:
        print(f"tarocchi verify: {why}", file=sys.stderr)
        return status

    try:
        day = date.fromisoformat(args.date)
    except ValueError:
        return fail(f"{args.date!r} is not a date YYYY-MM-DD", 2)
    if (args.server is None) == (args.seed is None or args.commitment is None):
        return fail("give either --server URL or both --seed and --commitment", 2)
    seed, published = args.seed, args.commitment
    try:
        if args.server is not None:
            seed, published = published_seed(args.server, args.game, day)
        record = None if args.record is None else load(args.record)
        done = daily.verify(args.game, day, seed, published, record)
    except (OSError, ValueError) as e:  # the server, the record file, or what verify found
        return fail(str(e))
    print(f"{args.game} {day}: the seed {done.seed} matches the commitment {published}; it "
          f"deals {done.dealer} as the dealer.")  # fmt: skip
    if record is not None:
        print(f"{args.record}: the deal of the day, replayed: its {done.ai_actions} AI actions "
              "all follow from the deal and the play.")  # fmt: skip
    return 0


def play_daily(args: argparse.Namespace, lang: str) -> int:
    """Play today's deal of the day through --server (the scored try of this device, the
    seed kept on the site), or a past day's in the terminal, its seed fetched from --server
    and checked against the commitment published before the day; return the exit status."""
    from datetime import UTC, datetime

    from tarocchi import daily
    from tarocchi.terminal import play_terminal

    if args.server is None:
        print("tarocchi play: --daily needs --server URL (the site deals it)", file=sys.stderr)
        return 2
    if args.daily in (TODAY, datetime.now(UTC).date().isoformat()):
        from tarocchi.remote import play_today

        return play_today(args.server, args.game, sys.stdin, sys.stdout, lang)
    try:
        day = date.fromisoformat(args.daily)
        seed, published = published_seed(args.server, args.game, day)
        daily.verify(args.game, day, seed, published)
    except (OSError, ValueError) as e:
        print(f"tarocchi play: {e}", file=sys.stderr)
        return 1
    return play_terminal(args.game, seed, daily.LEVEL, sys.stdin, sys.stdout, lang, day)


def published_seed(server: str, game_name: str, day: date) -> tuple[int, str]:
    """Return the revealed seed and the commitment a server published for a game and day
    (ValueError while the seed is not revealed, OSError when the server cannot answer)."""
    import urllib.error
    import urllib.request

    url = f"{server.rstrip('/')}/api/daily/{game_name}/{day.isoformat()}"
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            data = json.load(answer)
    except urllib.error.HTTPError as e:
        raise ValueError(f"{url}: {e.code} {e.reason}") from None
    except json.JSONDecodeError as e:
        raise ValueError(f"{url}: not JSON: {e}") from None
    if data.get("seed") is None:
        raise ValueError(f"the seed of {game_name} on {day} is not revealed yet")
    return int(data["seed"]), str(data["commitment"])


if __name__ == "__main__":
    sys.exit(main())
