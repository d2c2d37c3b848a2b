"""The ASGI application: HTTP routes, the WebSocket route, and :func:`serve` (``pegs serve``).

Routes:

* ``GET /``: the front door (:mod:`pegs_rules.server.front`): a page that sets up a game
  and shows its links while people join;
* ``POST /api/games``: create a game (body: ``players``, ``preset``, ``seats``,
  optionally ``house_rules``); answers its id, a join link per human seat and a
  spectator link;
* ``GET /api/games/{id}``: who sits where, the ply, whose turn, the winner (read from the
  store as it is: nothing replayed);
* ``GET /api/games/{id}/record``: a finished game's record, for ``pegs replay``;
* ``GET /api/open``: the games open to anyone with a free seat;
* ``POST /api/games/{id}/seat``: a free seat of an open game, with its new join link;
* ``POST /api/games/{id}/again``: the game after a finished one, for the same seats and
  links (body: ``token``, any of the game's; answers its id);
* ``WS /api/games/{id}/ws``: the game's WebSocket (:mod:`pegs_rules.server.protocol`);
* ``GET /play/{id}``: the browser client (:mod:`pegs_rules.web`'s page with its
  remote transport), which reads its token from the link;
* ``GET /rules/{id}.html``: a ruling's one line, where the page links ruling ids;
* ``GET /healthz``: whether the process runs (always ``200`` while it does), with
  whether its database answers, the games it holds, its version and the store's layout;
* ``GET /readyz``: ``200`` while the server can serve players, ``503`` while its
  database does not answer (for a load balancer's health check).

Every request and WebSocket handshake counts against its client's rate limit
(:mod:`~pegs_rules.server.limits`); a request whose headers or body do not
arrive in time is answered ``408``, one whose head is too long ``414`` or
``431``, and connections are bounded (:mod:`~pegs_rules.server.connections`).
A request the server refuses is a client's mistake, logged at WARNING in one
line (so many a minute: :class:`~pegs_rules.server.limits.Mistakes`). A
request the store could not serve is answered ``503`` with ``Retry-After``.
"""

from __future__ import annotations

import contextlib
import html
import json
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import AsyncIterator
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

try:
    import resource
except ImportError:  # pragma: no cover - not a POSIX system
    resource = None  # type: ignore[assignment]

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from pegs_rules import __version__
from pegs_rules.errors import FormatError
from pegs_rules.rules import PRESETS, Rules
from pegs_rules.rulings import RULINGS
from pegs_rules.serialize import from_data, to_data, to_json
from pegs_rules.server import front, logs, metrics
from pegs_rules.server.connections import (
    BODY_TIMEOUT,
    HEADER_TIMEOUT,
    Gate,
    Trusted,
    connection_limit,
    protocols,
)
from pegs_rules.server.database import has_password, open_store, safe_url
from pegs_rules.server.games import DAMAGED, UNREACHABLE, check_seat_kind
from pegs_rules.server.limits import FAILURES, MISTAKES, ClientLimits, client_key
from pegs_rules.server.operating import Operator
from pegs_rules.server.protocol import MAX_FRAME, ProtocolError
from pegs_rules.server.registry import (
    BOTS_SECONDS,
    FINISHED_SECONDS,
    IDLE_SECONDS,
    MAX_GAMES_PER_CLIENT,
    UNJOINED_SECONDS,
    Expiry,
    Full,
    Registry,
    TooManyGames,
)
from pegs_rules.server.session import SEND_TIMEOUT, Session
from pegs_rules.server.store import LAYOUT, Damaged, Store, StoreError
from pegs_rules.server.thinking import Thinking
from pegs_rules.web.build import STATIC

log = logging.getLogger("pegs_rules.server")

MAX_BODY = 16 * 1024
"""The largest request body read, in bytes."""
MAX_RULES_NAME = 40
"""The longest name a game's house rules may have (every seat is shown it)."""
PAGE_FILES = {"style.css": "text/css", "icon.svg": "image/svg+xml"}
"""The browser client's files besides its page and ``js/``."""
PAGE_HEADERS = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"}
RETRY_AFTER = 5
"""Seconds a request the store could not serve is told to wait (``Retry-After``)."""
GAMES_RETRY_AFTER = 60
"""Seconds a client with as many unfinished games as it may have is told to wait."""
NEW_GAME_FIELDS = {"players", "preset", "seats", "house_rules", "open"}
RULING_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{id}</title></head>
<body><h1>{id}</h1><p>{summary}</p>
<p>The full ruling, with its reasons and examples, is in the pegs-rules documentation.</p>
</body></html>
"""


@dataclass(frozen=True, slots=True)
class ServerConfig:
    """How ``pegs serve`` runs.

    Attributes:
        host: the address to listen on.
        port: the port to listen on.
        db: where the games are kept: an SQLite file, or a PostgreSQL database
            (``postgresql://USER@HOST:PORT/DB``) that any number of servers share.
        public_url: the address people reach the server at (behind a reverse
            proxy, ``https://pegs.example.org``); links are made from it. By
            default they are made from each request's own address.
        bot_workers: processes the bots think in (0: threads of this process).
        max_games: unfinished games in the store at once.
        sync: SQLite only: ``"full"``: every commit is flushed to disk;
            ``"normal"``: commits survive the server being killed, not the
            machine losing power (faster; see
            :class:`~pegs_rules.server.sqlite.SqliteStore`).
        header_timeout: seconds a client has to send a request's headers.
        body_timeout: seconds a client has to send the body its headers declare.
        send_timeout: seconds a WebSocket message may take to go out before
            the connection is closed (the peer is not reading).
        games_per_client: unfinished games one client address may have asked for.
        unjoined_expiry: seconds a game with a seat for a person waits, with no
            move, for a person to join before it is removed.
        idle_expiry: seconds an unfinished game may go without a move before
            it is removed.
        keep_finished: seconds a finished game's record is kept.
        bots_expiry: seconds a game of bots alone may run, from its creation,
            before it is removed unfinished.
        max_connections: connections held at once (at most, and by default,
            the open-file limit less what the server needs besides).
        metrics: ``PORT`` or ``HOST:PORT`` to serve Prometheus metrics on (off if ``None``).
        forwarded_allow_ips: the proxies whose ``X-Forwarded-For`` and
            ``X-Forwarded-Proto`` are believed (comma-separated; ``*`` for any).
        db_on_command_line: whether ``db`` was written on the command line (a
            password in it is then logged as a warning: anyone may read it).
        access_log: the share of requests and WebSocket handshakes logged, one
            line each: 1 (all), 0 (off) or a fraction; at most
            :data:`~pegs_rules.server.logs.ACCESS_PER_CLIENT` lines a minute
            about one client (:mod:`~pegs_rules.server.logs`).
    """

    host: str = "127.0.0.1"
    port: int = 8000
    db: str = "pegs-games.sqlite3"
    public_url: str | None = None
    bot_workers: int = 1
    max_games: int = 1000
    sync: str = "full"
    header_timeout: float = HEADER_TIMEOUT
    body_timeout: float = BODY_TIMEOUT
    send_timeout: float = SEND_TIMEOUT
    games_per_client: int = MAX_GAMES_PER_CLIENT
    unjoined_expiry: float = UNJOINED_SECONDS
    idle_expiry: float = IDLE_SECONDS
    keep_finished: float = FINISHED_SECONDS
    bots_expiry: float = BOTS_SECONDS
    max_connections: int | None = None
    metrics: str | None = None
    forwarded_allow_ips: str = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
    access_log: float = 1.0
    db_on_command_line: bool = False

    @property
    def expiry(self) -> Expiry:
        return Expiry(self.unjoined_expiry, self.idle_expiry, self.keep_finished, self.bots_expiry)


class BadRequest(Exception):
    """An HTTP request the server refuses: status and problems."""

    def __init__(self, status: int, *problems: str) -> None:
        super().__init__("; ".join(problems))
        self.status = status
        self.problems = list(problems)


def bot_pool(workers: int) -> Executor | None:
    """A process pool for bots (``None`` for a thread when ``workers`` is 0): one for the
    searching bots, and one of a single process for the quick ones (:mod:`~pegs_rules.server.thinking`).

    The workers are started afresh (``spawn``) and leave by themselves if the
    server dies without stopping them (:func:`leave_with_parent`).
    """
    if workers <= 0:
        return None
    context = multiprocessing.get_context("spawn")
    return ProcessPoolExecutor(
        workers, mp_context=context, initializer=leave_with_parent, initargs=(os.getpid(),)
    )


def leave_with_parent(parent: int) -> None:
    """In a bot worker: exit as soon as process ``parent`` (the server) is gone (and log, if at
    all, in the server's format: :func:`~pegs_rules.server.logs.configure_worker`)."""
    logs.configure_worker()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, daemon=True, name="pegs-parent-watch").start()


def create_app(config: ServerConfig, store: Store | None = None) -> Starlette:
    """The server as an ASGI application, on ``store`` (by default, it opens ``config.db``)."""

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        pools = [bot_pool(config.bot_workers), bot_pool(min(1, config.bot_workers))]
        registry = Registry(
            store or open_store(config.db, config.sync, serving=True),
            Thinking(pools[0], config.bot_workers, quick=pools[1]),
            config.max_games,
            games_per_client=config.games_per_client,
            expiry=config.expiry,
        )
        await registry.start()
        operator = Operator(registry)
        await operator.start()
        app.state.registry = registry
        try:
            yield
        finally:
            await operator.close()
            await registry.close()
            logs.sum_up()  # what the last minute did not log one by one
            for pool in pools:
                if pool is not None:
                    pool.shutdown(wait=False, cancel_futures=True)

    def registry_of(request: Request | WebSocket) -> Registry:
        registry: Registry = request.app.state.registry
        return registry

    def base_url(request: Request) -> str:
        if config.public_url:
            return config.public_url.rstrip("/")
        return str(request.base_url).rstrip("/")

    async def create_game(request: Request) -> Response:
        creator = client_key(request.client.host) if request.client else None
        try:
            body = await read_body(request)
            players, rules, seats = parse_new_game(body)
            listed = body.get("open", False)  # parse_new_game checked it
            created = await registry_of(request).create(rules, players, seats, creator, listed)
        except BadRequest as error:
            return refused(request, error.status, "bad_request", error.problems)
        except TooManyGames as error:
            headers = {"Retry-After": str(GAMES_RETRY_AFTER)}
            return refused(request, 429, "too_many_games", [str(error)], headers)
        except ProtocolError as error:
            return refused(request, 503, error.code, [error.message])
        except StoreError:
            return unreachable()
        base = base_url(request)
        ws_base = "ws" + base.removeprefix("http")
        page = f"{base}/play/{created.id}"
        body = {
            "id": created.id,
            "links": {str(s): f"{page}#token={t}" for s, t in sorted(created.tokens.items())},
            "spectator": f"{page}#token={created.spectator}",
            "websocket": f"{ws_base}/api/games/{created.id}/ws",
            "record": f"{base}/api/games/{created.id}/record",
        }
        return JSONResponse(body, 201)

    async def play_again(request: Request) -> Response:
        game_id = request.path_params["game"]
        creator = client_key(request.client.host) if request.client else None
        try:
            token = parse_again(await read_body(request))
            following = await registry_of(request).again(game_id, token, creator)
        except BadRequest as error:
            return refused(request, error.status, "bad_request", error.problems)
        except TooManyGames as error:
            headers = {"Retry-After": str(GAMES_RETRY_AFTER)}
            return refused(request, 429, "too_many_games", [str(error)], headers)
        except Full as error:
            return refused(request, 503, error.code, [error.message])
        except ProtocolError as error:
            status = 403 if error.code == "bad_token" else 409
            return refused(request, status, error.code, [error.message])
        except Damaged as error:
            return damaged(request, game_id, error)
        except StoreError:
            return unreachable()
        if following is None:
            return refused(request, 404, "not_found", ["no such game"])
        return JSONResponse({"id": following, "link": f"{base_url(request)}/play/{following}"})

    async def open_games(request: Request) -> Response:
        try:
            found = await registry_of(request).listed()
        except StoreError:
            return unreachable()
        games = [
            {
                "id": g.id,
                "rules": g.rules,
                "seats": list(g.seats),
                "free": list(g.free),
                "ply": g.ply,
            }
            for g in found
        ]
        return JSONResponse({"games": games})

    async def claim_seat(request: Request) -> Response:
        game_id = request.path_params["game"]
        try:
            claimed = await registry_of(request).claim(game_id)
        except Damaged as error:
            return damaged(request, game_id, error)
        except StoreError:
            return unreachable()
        if claimed is None:
            return refused(
                request, 409, "no_free_seat", ["this game has no free seat, or is not open"]
            )
        seat, token = claimed
        link = f"{base_url(request)}/play/{game_id}#token={token}"
        return JSONResponse({"seat": seat, "link": link})

    async def front_door(request: Request) -> Response:
        return Response(front.page(), 200, PAGE_HEADERS, "text/html")

    async def game_summary(request: Request) -> Response:
        game_id = request.path_params["game"]
        try:
            found = await registry_of(request).summary(game_id)
        except Damaged as error:
            return damaged(request, game_id, error)
        except StoreError:
            return unreachable()
        if found is None:
            return refused(request, 404, "not_found", ["no such game"])
        return JSONResponse(found)

    async def game_record(request: Request) -> Response:
        game_id = request.path_params["game"]
        try:
            record = await registry_of(request).record(game_id)
        except ProtocolError as error:
            return refused(request, 409, error.code, [error.message])
        except Damaged as error:
            return damaged(request, game_id, error)
        except StoreError:
            return unreachable()
        if record is None:
            return refused(request, 404, "not_found", ["no such game"])
        headers = {"Content-Disposition": f'attachment; filename="pegs-{game_id}.json"'}
        return Response(to_json(record, indent=1) + "\n", 200, headers, "application/json")

    async def health(request: Request) -> Response:
        registry = registry_of(request)
        return JSONResponse(
            {
                "ok": True,
                "database": registry.ready,
                "games": len(registry.games),
                "version": __version__,
                "layout": LAYOUT,
            }
        )

    async def ready(request: Request) -> Response:
        if registry_of(request).ready:
            return JSONResponse({"ok": True})
        problems = ["the server cannot reach its database"]
        headers = {"Retry-After": str(RETRY_AFTER)}
        return JSONResponse({"error": "unavailable", "problems": problems}, 503, headers)

    async def page(request: Request) -> Response:
        name = request.path_params["name"]
        if name == "config.json":
            config = {"transport": "remote", "docs": "../", "version": __version__}
            return JSONResponse(config, headers=PAGE_HEADERS)
        kind = PAGE_FILES.get(name)
        path = STATIC / name if kind else STATIC / "index.html"
        return FileResponse(path, media_type=kind or "text/html", headers=PAGE_HEADERS)

    async def ruling(request: Request) -> Response:
        key = request.path_params["ruling"]
        if key not in RULINGS:
            return Response("no such ruling\n", 404, media_type="text/plain")
        body = RULING_PAGE.format(id=html.escape(key), summary=html.escape(RULINGS[key]))
        return Response(body, 200, PAGE_HEADERS, "text/html")

    async def game_socket(socket: WebSocket) -> None:
        game_id = socket.path_params["game"]
        await Session(socket, registry_of(socket), game_id, config.send_timeout).run()

    routes = [
        Route("/api/games", create_game, methods=["POST"]),
        Route("/api/games/{game}", game_summary),
        Route("/api/games/{game}/record", game_record),
        Route("/api/games/{game}/again", play_again, methods=["POST"]),
        Route("/api/games/{game}/seat", claim_seat, methods=["POST"]),
        Route("/api/open", open_games),
        Route("/", front_door),
        Mount("/front", StaticFiles(directory=front.FILES)),
        Route("/healthz", health),
        Route("/readyz", ready),
        WebSocketRoute("/api/games/{game}/ws", game_socket),
        Mount("/play/js", StaticFiles(directory=STATIC / "js")),
        Route("/play/{name}", page),
        Route("/rules/{ruling}.html", ruling),
    ]
    return Starlette(routes=routes, lifespan=lifespan, middleware=[Middleware(ClientLimits)])


def refused(
    request: Request,
    status: int,
    code: str,
    problems: list[str],
    headers: dict[str, str] | None = None,
) -> Response:
    """An HTTP error answer to a client's mistake, logged in one line (so many a minute)."""
    client = client_key(request.client.host) if request.client else "unknown"
    metrics.REFUSED.labels(code).inc()
    MISTAKES.warn(
        client,
        "client %s: %s %s: %d %s: %s",
        client,
        request.method,
        request.url.path[:100],
        status,
        code,
        "; ".join(problems)[:200],
    )
    return JSONResponse({"error": code, "problems": problems}, status, headers)


def damaged(request: Request, game_id: str, error: Damaged) -> Response:
    """The answer about a game that no longer loads: the same to everyone; the details go to
    the log (so many times a minute for one client: :data:`~pegs_rules.server.limits.FAILURES`)."""
    if FAILURES.allow(client_key(request.client.host) if request.client else "unknown"):
        log.error("game %s: %s", game_id, error)
    return JSONResponse({"error": "unavailable", "problems": [DAMAGED]}, 500)


def unreachable() -> Response:
    """The answer to a request the store could not serve (the registry logs the store's failure)."""
    metrics.REFUSED.labels("unavailable").inc()
    headers = {"Retry-After": str(RETRY_AFTER)}
    return JSONResponse({"error": "unavailable", "problems": [UNREACHABLE]}, 503, headers)


async def read_body(request: Request) -> Any:
    """The request's JSON body, read no further than :data:`MAX_BODY` bytes."""
    chunks: list[bytes] = []
    size = 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > MAX_BODY:
                raise BadRequest(413, f"the body is longer than {MAX_BODY} bytes")
            chunks.append(chunk)
    except ClientDisconnect:
        raise BadRequest(400, "the body did not arrive") from None
    try:
        return json.loads(b"".join(chunks))
    except (ValueError, RecursionError):
        raise BadRequest(400, "the body is not JSON") from None


def parse_new_game(body: Any) -> tuple[int, Rules, tuple[str, ...]]:
    """Players, rules and seats from a ``POST /api/games`` body; :class:`BadRequest` listing
    every problem if wrong."""
    if not isinstance(body, dict):
        raise BadRequest(400, "the body is a JSON object")
    problems = []
    unknown = sorted(set(body) - NEW_GAME_FIELDS)
    if unknown:
        problems.append(f"unknown fields: {', '.join(map(repr, unknown))[:200]}")
    preset = body.get("preset", "arizona")
    if not isinstance(preset, str) or preset not in PRESETS:
        problems.append(f"preset: one of {', '.join(PRESETS)}, not {shown(preset)}")
        preset = None
    rules = PRESETS[preset] if preset else None
    house = body.get("house_rules", {})
    if not isinstance(house, dict):
        problems.append("house_rules: an object of rules fields")
        rules = None
    else:
        name = house.get("name", preset or "house rules")  # no preset: its own problem, above
        if not (isinstance(name, str) and 0 < len(name) <= MAX_RULES_NAME and name.isprintable()):
            problems.append(f"house_rules: name is 1 to {MAX_RULES_NAME} printable characters")
            rules = None
        elif rules is not None:
            fields = {k: v for k, v in house.items() if k not in ("format", "type")}
            try:
                rules = from_data(to_data(rules) | fields, "rules")
            except FormatError as error:
                problems.extend(f"house_rules: {p}"[:200] for p in error.problems)
                rules = None
    players = body.get("players", 4)
    counts = list(rules.player_counts) if rules else [4, 6, 8]
    if type(players) is not int or players not in counts:
        problems.append(f"players: one of {counts}, not {shown(players)}")
        players = None
    seats = body.get("seats", ["human"] * (players or 4))
    if not isinstance(seats, list) or (players is not None and len(seats) != players):
        problems.append(
            f"seats: a list of {players or 'the players'} seat kinds ('human' or a bot)"
        )
    for i, kind in enumerate(seats if isinstance(seats, list) else []):
        try:
            check_seat_kind(kind)
        except ValueError as error:
            problems.append(f"seats[{i}]: {str(error)[:200]}")
    if not isinstance(body.get("open", False), bool):
        problems.append(f"open: true or false, not {shown(body.get('open'))}")
    if problems or rules is None or players is None:
        raise BadRequest(400, *problems)
    return players, rules, tuple(seats)


def parse_again(body: Any) -> str:
    """The token of a ``POST /api/games/{id}/again`` body; :class:`BadRequest` if wrong."""
    if not isinstance(body, dict) or set(body) != {"token"} or not isinstance(body["token"], str):
        raise BadRequest(400, 'token: the body is {"token": T}, T a token of the game')
    token: str = body["token"]
    return token


def shown(value: object) -> str:
    """``value`` as a request's problem quotes it: JSON, cut short."""
    return json.dumps(value)[:40]


def serve(config: ServerConfig) -> int:
    """Run the server until interrupted (``pegs serve``); return the exit code.

    The store is opened first: a database that cannot be opened, or an SQLite
    file another server holds, ends it at once with one line saying why (exit code 2).
    """
    import uvicorn

    logs.configure(config.access_log)
    where = safe_url(config.db)
    if config.db_on_command_line and has_password(config.db):
        log.warning(
            "pegs serve: the database URL on the command line holds a password, which anyone on"
            " this machine may read (ps): give it with --db-file or $PEGS_DATABASE_URL instead,"
            " or leave it to a password file (PGPASSFILE)"
        )
    try:
        store = open_store(config.db, config.sync, serving=True)
    except StoreError as error:
        log.error("pegs serve: %s", error)
        return 2
    files = open_files()
    limit = connection_limit(files)
    if config.max_connections is not None:
        limit = min(limit, config.max_connections)
    gate = Gate(limit, Trusted(config.forwarded_allow_ips))
    http, ws = protocols(config.header_timeout, config.body_timeout, gate)
    if config.metrics:
        metrics.serve_metrics(config.metrics)
    log.info(
        "pegs serve: http://%s:%d, games in %s; at most %d connections (open files: %d)%s;"
        " access log: %s",
        config.host,
        config.port,
        where,
        limit,
        files,
        f"; metrics on {config.metrics}" if config.metrics else "",
        access_shown(config.access_log),
    )
    uvicorn.run(
        create_app(config, store),
        host=config.host,
        port=config.port,
        http=http,
        ws=ws,
        ws_max_size=4 * MAX_FRAME,
        proxy_headers=True,
        forwarded_allow_ips=config.forwarded_allow_ips,
        log_config=None,  # logs.configure did it: one line an event, in one format
        log_level="info",
        access_log=config.access_log > 0,
    )
    return 0


def open_files() -> int:
    """How many files this process may open, its soft limit raised to the hard one first
    (as a server should: the usual soft limit, 1,024, is for programs that do not ask)."""
    if resource is None:  # pragma: no cover - not a POSIX system: assume the usual
        return 1024
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 16)
    if wanted > soft:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    return soft


def access_shown(share: float) -> str:
    """The access log's share as the start-up line says it."""
    if share >= 1:
        return f"all (at most {logs.ACCESS_PER_CLIENT} lines a minute a client)"
    if share <= 0:
        return "off"
    return f"{share:g} of it (at most {logs.ACCESS_PER_CLIENT} lines a minute a client)"
