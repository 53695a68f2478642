"""The terminal as a client of a tarocchi site: `tarocchi join URL` takes a seat at a
friends' table and plays it over the site's live connection, and `tarocchi play GAME
--daily` plays today's deal of the day through the site's API (the scored try of this
terminal's device).

Everything shown comes from the site's messages (a seat's JSON view and what each change
showed it), rendered and read by the terminal's own functions (`tarocchi.terminal`), so a
seat played here has the view and the commands of `tarocchi play`. The live connection
speaks `tarocchi.web.live`'s protocol: a hello with the last version seen (a reconnect
misses nothing and sees nothing twice), actions with ids of ours, a ping every PING_S.
Refusals are the server's, in the language asked for, and so is a seat's hint (or why the
table gives none). A finished deal is kept for `tarocchi history` as the seat saw it. HTTP
is the standard library's, its device cookie kept beside the terminal's deals; the
WebSocket is the `websockets` package.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import http.cookiejar
import json
import secrets
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from tarocchi.games import GAMES, game
from tarocchi.games.base import Rules
from tarocchi.i18n import Msg, Translator, translator
from tarocchi.record import now
from tarocchi.terminal import (
    QUIT,
    SEATED,
    Teller,
    command,
    deals_dir,
    describe_result,
    hint_lines,
    keep,
    read_line,
    seat_label,
    show_turn,
)

if TYPE_CHECKING:
    from websockets.asyncio.client import ClientConnection, connect

PAR_WAIT_S = 10.0  # seconds to wait for the par (the AI's deal in South's seat, on the site)
PING_S = 10.0  # the site closes a connection silent for 30 s (as the page, ping every 10 s)
RETRY_S = 1.0  # wait before connecting again after a drop
FINAL = (4401, 4403, 4404, 4429)  # refusals: connecting again would be refused alike
COOKIES = "site-cookies.txt"  # the device cookies of the sites played, in the data folder
SEATS = "seats.json"  # the tokens of the seats taken with `tarocchi join`, by their link


class SiteError(Exception):
    """A site refused a request (its status and its reason, in the language asked) or
    could not be reached (status 0)."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason


class Site:
    """A tarocchi site's HTTP API, asked in one language, with a device cookie kept in a
    file (None: for this run only)."""

    def __init__(self, base: str, lang: str, cookies: str | None = None) -> None:
        self.base = base.rstrip("/")
        self.lang = lang
        self.jar = http.cookiejar.LWPCookieJar(cookies)
        if cookies is not None:
            with contextlib.suppress(OSError):  # none kept yet
                self.jar.load(ignore_discard=True)
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        """Return the JSON answer of a request (SiteError with the site's reason)."""
        headers = {"Accept-Language": self.lang, "Content-Type": "application/json"}
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        data = None if body is None else json.dumps(body).encode()
        asked = urllib.request.Request(self.base + path, data, headers, method=method)
        try:
            with self.opener.open(asked, timeout=30) as answer:
                found = json.load(answer)
        except urllib.error.HTTPError as e:
            with contextlib.suppress(ValueError):
                raise SiteError(e.code, str(json.load(e)["detail"])) from None
            raise SiteError(e.code, f"{e.code} {e.reason}") from None
        except (OSError, ValueError) as e:
            raise SiteError(0, str(e)) from None
        if self.jar.filename is not None:
            self.jar.save(ignore_discard=True)
        return found

    def socket_url(self, path: str) -> str:
        """Return the WebSocket URL of a path of the site, asking for its language."""
        scheme = "wss" if self.base.startswith("https:") else "ws"
        return f"{scheme}:{self.base.split(':', 1)[1]}{path}?lang={self.lang}"


@dataclass(frozen=True, slots=True)
class Invitation:
    """A friends' table invitation link: the site, the game, the table, the seat, the secret."""

    base: str
    game: str
    table: str
    seat: int
    secret: str


def invitation(url: str) -> Invitation:
    """Return the parts of an invitation link (ValueError, a Msg, when it is none)."""
    parts = urllib.parse.urlsplit(url.strip())
    query = urllib.parse.parse_qs(parts.query)
    name = parts.path.rstrip("/").rpartition("/play/")[2]
    seat = query.get("seat", [""])[0]
    table = query.get("table", [""])[0]
    if (parts.scheme not in ("http", "https") or name not in GAMES or not table
            or seat not in ("1", "2", "3") or not parts.fragment):  # fmt: skip
        raise ValueError(
            Msg(
                "%(url)s is not a friends' table invitation link (one looks like "
                "http://HOST/play/GAME?table=ID&seat=N#SECRET)",
                url=url,
            )
        )
    base = f"{parts.scheme}://{parts.netloc}{parts.path.rpartition('/play/')[0]}"
    return Invitation(base, name, table, int(seat), parts.fragment)


def websockets_client() -> tuple[type[connect], type[Exception]]:
    """Return the websockets package's asyncio connect and the exception of a closed
    connection (ImportError, a Msg, without the package)."""
    try:
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed
    except ImportError:
        needs = Msg(
            "this command needs the %(package)s package: pip install 'tarocchi[%(extra)s]'",
            package="websockets",
            extra="client",
        )
        raise ImportError(needs) from None
    return connect, ConnectionClosed


# -- tarocchi join ----------------------------------------------------------------------


def join(url: str, inp: TextIO, out: TextIO, lang: str) -> int:
    """Take the seat an invitation link opens and play it to the end of the deal in the
    terminal; return the exit status (1: refused or left, 2: not a link)."""
    tr = translator(lang)
    try:
        asked = invitation(url)
        dial, closed = websockets_client()
    except (ValueError, ImportError) as e:
        print(f"tarocchi join: {tr.text(e.args[0])}", file=out)
        return 2
    site = Site(asked.base, lang)
    rules = game(asked.game)
    try:
        token = seat_token(site, asked)
    except SiteError as e:
        print(f"tarocchi join: {e.reason}", file=out)
        return 1
    teller = Teller(rules, out, tr, asked.seat)
    _ = tr.gettext
    teller.say(_("%(game)s at a friends' table: you are %(seat)s; %(partner)s is your partner.")
               % {"game": rules.title, "seat": tr.seat(asked.seat),
                  "partner": tr.seat((asked.seat + 2) % 4)})  # fmt: skip
    teller.say(_("Type 'help' for commands.") + "\n")
    table = LiveTable(site, asked.table, token, teller, dial, closed)
    return asyncio.run(table.play(inp))


def seat_token(site: Site, asked: Invitation) -> str:
    """Return the token of the seat a link opens: the one kept from this link's first use
    (as a browser keeps it), else the seat taken now (SiteError if the site refuses)."""
    path = data_folder() / SEATS
    key = f"{asked.base} {asked.table} {asked.seat} {token_hash(asked.secret)}"
    try:
        kept = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        kept = {}
    if key in kept:
        return str(kept[key])
    token = str(site.call("POST", f"/api/games/{asked.table}/seats/{asked.seat}",
                          {"secret": asked.secret})["token"])  # fmt: skip
    kept[key] = token
    with contextlib.suppress(OSError):  # the seat is played all the same, once
        path.write_text(json.dumps(kept), encoding="utf-8")
        path.chmod(0o600)
    return token


class LiveTable:
    """A seat's live connection, followed to the end of the deal: what it was told last
    (its version and JSON view), the turn last shown, and the player's lines."""

    def __init__(self, site: Site, game_id: str, token: str, teller: Teller, dial: type[connect],
                 closed: type[Exception]) -> None:  # fmt: skip
        self.site = site
        self.path = f"/api/games/{game_id}"
        self.url = site.socket_url(self.path + "/live")
        self.token = token
        self.teller = teller
        self.rules: Rules = teller.rules
        self.dial = dial
        self.closed = closed
        self.version: int | None = None
        self.data: dict[str, Any] | None = None
        self.shown = -1  # the version whose turn was last shown
        self.sent = 0
        self.line: asyncio.Future[str | None] | None = None  # the line being read

    async def play(self, inp: TextIO) -> int:
        """Play the seat until the deal is over (0), the player leaves or the site refuses
        the seat (1); a dropped connection is made again, from the last version seen."""
        lines = read_lines(inp, self.teller)
        while True:
            try:
                async with self.dial(self.url, open_timeout=10) as ws:
                    status = await self.follow(ws, lines)
                    if status is not None:
                        return status
            except OSError as e:  # the site cannot be reached (yet)
                why = Msg("cannot reach %(url)s: %(reason)s", url=self.url, reason=str(e))
                self.teller.say(self.teller.tr.text(why))
            except self.closed as e:
                rcvd = getattr(e, "rcvd", None)
                code = rcvd.code if rcvd is not None else None
                if code in FINAL:
                    return 1
            self.teller.say(self.teller.tr.gettext("Connection lost; connecting again..."))
            await asyncio.sleep(RETRY_S)

    async def follow(self, ws: ClientConnection, lines: AsyncIterator[str | None]) -> int | None:
        """Follow one connection: tell each message, answer each line; return the exit
        status once the deal ends or the player leaves (None: the connection dropped)."""
        await ws.send(json.dumps({"type": "hello", "token": self.token, "since": self.version}))
        self.shown = -1  # the turn is shown again: a line typed as the connection fell is lost
        pinger = asyncio.create_task(ping(ws))
        incoming = asyncio.ensure_future(ws.recv())
        typed = self.line or asyncio.ensure_future(anext(lines))
        try:
            while True:
                await asyncio.wait((incoming, typed), return_when=asyncio.FIRST_COMPLETED)
                if typed.done():
                    line = typed.result()
                    if line is None or (await self.typed(ws, line)) == QUIT:
                        self.teller.say(self.teller.tr.gettext("You left the deal."))
                        return 1
                    typed = asyncio.ensure_future(anext(lines))
                if incoming.done():
                    if self.told(json.loads(incoming.result())):
                        return 0
                    incoming = asyncio.ensure_future(ws.recv())
        finally:
            pinger.cancel()
            incoming.cancel()
            # a line being read waits for the next connection
            self.line = None if typed.done() else typed

    def told(self, message: dict[str, Any]) -> bool:
        """Tell a message of the site; return whether the deal is over."""
        teller = self.teller
        kind = message["type"]
        if kind == "state":
            teller.told(message["view"].get("history", []))
        elif kind == "update":
            for event in message["events"]:
                teller.told(event["changes"])
        elif kind == "answer" and not message["ok"]:
            teller.say(teller.tr.gettext("Not allowed: %(reason)s.")
                       % {"reason": message["reason"]})  # fmt: skip
        elif kind == "error":
            teller.say(f"! {message['reason']}")
        if kind not in ("state", "update"):
            return False
        self.version, self.data = message["version"], message["view"]
        if self.data["over"]:
            teller.say(describe_result(self.rules, self.data["result"], teller.tr, teller.me))
            self.keep()
            return True
        if self.data["to_move"] == teller.me and self.shown != self.version:
            self.shown = self.version
            show_turn(self.rules, self.data, teller)
            print("> ", end="", file=teller.out, flush=True)
        elif self.data["to_move"] is not None and self.shown != self.version:
            waiting = seat_label(self.data["to_move"], teller.tr, teller.me)
            teller.say(teller.tr.gettext("Waiting for %(seat)s...") % {"seat": waiting})
        return False

    def keep(self) -> None:
        """Keep the finished deal for `tarocchi history`, as the seat saw it: its own final
        view (without the seed, which would tell every seat's cards), its level and result."""
        assert self.data is not None
        seen = {k: v for k, v in self.data.items() if k not in ("seed", "illegal")}
        me = self.teller.me
        keep({"format": SEATED, "game": self.rules.name, "seat": me, "level": seen["level"],
              "site": self.site.base, "table": self.path.rsplit("/", 1)[1], "view": seen,
              "result": seen["result"], "finished_at": now()}, self.teller,
             key=token_hash(f"{self.site.base} {self.path} {me}")[:12])  # fmt: skip

    async def typed(self, ws: ClientConnection, line: str) -> int | None:
        """Answer a line the player typed: a command, or an action sent to the site (whose
        answer comes as a message); return QUIT to leave."""
        if self.data is None or self.version is None:
            return None
        tr = self.teller.tr
        hint = functools.partial(site_hint, self.site, self.path, self.token, tr)
        # (a hint is the site's answer: asked from a thread, the connection keeps its pings)
        action = await asyncio.to_thread(command, self.rules, self.data, line, self.teller, hint)
        if action is None or action == QUIT:
            return action
        self.sent += 1
        await ws.send(json.dumps({"type": "act", "id": f"t{secrets.token_hex(4)}-{self.sent}",
                                  "action": self.rules.action_code(action),
                                  "version": self.version}))  # fmt: skip
        return action


async def ping(ws: ClientConnection) -> None:
    """Tell the site every PING_S that the seat is still here."""
    while True:
        await asyncio.sleep(PING_S)
        await ws.send(json.dumps({"type": "ping"}))


def read_lines(inp: TextIO, teller: Teller) -> AsyncIterator[str | None]:
    """Return the player's lines as they are typed (read by a thread, echoed when piped),
    then None at the end of the input."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[str | None] = asyncio.Queue()

    def reader() -> None:
        for line in iter(inp.readline, ""):
            loop.call_soon_threadsafe(queue.put_nowait, line.strip())
        loop.call_soon_threadsafe(queue.put_nowait, None)

    threading.Thread(target=reader, daemon=True).start()

    async def lines() -> AsyncIterator[str | None]:
        while True:
            line = await queue.get()
            if line is not None and not inp.isatty():
                teller.say(line)  # echo piped input so the transcript reads like a session
            yield line
            if line is None:
                return

    return lines()


# -- tarocchi play GAME --daily: today's deal through the site's API ----------------------


def play_today(server: str, game_name: str, inp: TextIO, out: TextIO, lang: str) -> int:
    """Play today's deal of the day of a game on a site, as this device's player (its
    cookie kept in the data folder): the first try of the day is scored, any other is
    practice; after a scored try, print its rank among the field and the par. Return the
    exit status (1: the site refused or could not be reached, or the player left)."""
    tr = translator(lang)
    _ = tr.gettext
    rules = game(game_name)
    teller = Teller(rules, out, tr)
    site = Site(server, lang, str(data_folder() / COOKIES))
    try:
        started = site.call("POST", f"/api/daily/{game_name}")
    except SiteError as e:
        why = Msg("cannot reach %(url)s: %(reason)s", url=server, reason=e.reason)
        print(f"tarocchi play: {tr.text(why) if e.status == 0 else e.reason}", file=out)
        return 1
    day = started["view"]["daily"]["date"]
    said = {"game": rules.title, "date": day}
    if started["scored"]:
        teller.say(_("%(game)s, the deal of the day of %(date)s: your scored try. You are "
                     "South; North, opposite you, is your AI partner.") % said)  # fmt: skip
    else:
        teller.say(_("%(game)s, the deal of the day of %(date)s, as practice (your scored try "
                     "is played). You are South; North, opposite you, is your AI "
                     "partner.") % said)  # fmt: skip
    teller.say(_("Type 'help' for commands.") + "\n")
    deal = SiteDeal(site, started, teller)
    if not deal.play(inp):
        teller.say(_("You left the deal."))
        return 1
    if started["scored"]:
        teller.say(standing(site, game_name, day, tr))
    return 0


class SiteDeal:
    """South's deal played through the site's HTTP API: its id and token, its version and
    South's JSON view as last told."""

    def __init__(self, site: Site, started: dict[str, Any], teller: Teller) -> None:
        self.site = site
        self.path = f"/api/games/{started['id']}"
        self.token = str(started["token"])
        self.teller = teller
        self.version = int(started["version"])
        self.data: dict[str, Any] = started["view"]
        self.tell(started["events"])

    def tell(self, events: list[dict[str, Any]]) -> None:
        """Tell what South saw at each action."""
        for event in events:
            self.teller.told(event["changes"])

    def play(self, inp: TextIO) -> bool:
        """Play South's turns until the deal is over (True) or the player leaves (False)."""
        rules, teller, tr = self.teller.rules, self.teller, self.teller.tr
        while not self.data["over"]:
            show_turn(rules, self.data, teller)
            while True:
                line = read_line(inp, teller)
                action = QUIT if line is None else command(rules, self.data, line, teller,
                                                           self.hint)  # fmt: skip
                if action == QUIT:
                    return False
                if action is None:
                    continue
                body = {"action": rules.action_code(action), "version": self.version}
                try:
                    moved = self.site.call("POST", self.path + "/actions", body, self.token)
                except SiteError as e:
                    teller.say(tr.gettext("Not allowed: %(reason)s.") % {"reason": e.reason})
                    continue
                self.version, self.data = moved["version"], moved["view"]
                self.tell(moved["events"])
                break
        teller.say(describe_result(rules, self.data["result"], tr))
        return True

    def hint(self) -> str:
        """Return the site's hint for South's turn as text."""
        return site_hint(self.site, self.path, self.token, self.teller.tr)


def site_hint(site: Site, path: str, token: str, tr: Translator) -> str:
    """Return the site's hint for a seat's turn at a game (its path) as text, or the site's
    reason for none (in the language asked: not its turn, say, or a friends' table whose
    creator has not allowed hints)."""
    try:
        found = site.call("GET", path + "/hint", token=token)
    except SiteError as e:
        return tr.gettext("No hint: %(reason)s") % {"reason": e.reason}
    ranked = [(s["action"], s["value"], s["reason"]) for s in found["suggestions"]]
    return hint_lines(ranked, tr)


def standing(site: Site, game_name: str, day: str, tr: Translator) -> str:
    """Return a scored try's place among the day's, as the results page says it: the
    margin, the share of the field beaten, the par (the AI's margin in the seat) once the
    site has it (waiting for it up to PAR_WAIT_S)."""
    _ = tr.gettext
    path = f"/api/daily/{game_name}/{day}/results"
    waited = 0.0
    while True:
        try:
            r = site.call("GET", path)
        except SiteError as e:
            return e.reason
        if r["par"] is not None or waited >= PAR_WAIT_S:
            break
        time.sleep(1.0)
        waited += 1.0
    lines = [_("Your margin %(margin)s: you beat %(percentile)s%% of the field (%(points)s "
               "matchpoints, %(tries)s scored tries).") % {
        "margin": f"{r['margin']:+g}", "percentile": f"{r['percentile']:.0f}",
        "points": f"{r['matchpoints']:g}", "tries": r["tries"]}]  # fmt: skip
    if r["par"] is None:
        lines.append(_("The AI's own margin in your seat follows shortly."))
    else:
        lines.append(_("Par, the AI's own margin in your seat: %(par)s.")
                     % {"par": f"{r['par']:+g}"})  # fmt: skip
    lines.append(_("Everyone's results: %(url)s") % {"url": f"{site.base}/daily/{game_name}/{day}"})
    return "\n".join(lines)


def data_folder() -> Path:
    """Return the folder of the terminal's kept deals' (made if missing): the seats' tokens
    and the sites' device cookies are kept there too."""
    folder = deals_dir().parent
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def token_hash(secret: str) -> str:
    """Return a secret's hash: a kept seat is found by its link without keeping the link."""
    return hashlib.sha256(secret.encode()).hexdigest()
