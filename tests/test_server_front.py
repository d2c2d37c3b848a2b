"""The front door of ``pegs serve`` and "Play again": a game set up at ``/``, joined from its
links in separate browsers, played to the end with the mouse and the keyboard, played again
with the same links, and watched by a spectator who sees every move; on SQLite (a game whose
links the creator sends, and one open to anyone, its seat taken from the list), and on PostgreSQL
(open to anyone) with each person on a different server process.

The people choose the moves the greedy bot would (read from the store here), so a game is as
short as one between greedy bots; the other two seats are the server's own bots. Screenshots
go to ``test-artifacts/serve/``.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
import websockets
from browser import ARTIFACTS, CHROMIUM_ARGS, chromium, npm_ci, unavailable
from pgcluster import Cluster
from served import Server, check_message, chooser, run, start_server, stop_server

from pegs_rules.bots import GreedyBot, decide
from pegs_rules.server.app import BadRequest, parse_new_game
from pegs_rules.server.client import socket_url
from pegs_rules.server.games import next_id

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

SHOTS = ARTIFACTS / "serve"
AXE = Path(__file__).resolve().parents[1] / "node_modules" / "axe-core" / "axe.min.js"
SEATS = ["human", "medium", "human", "medium"]


def needs_browser() -> None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        unavailable("Playwright is not installed: pip install -e '.[dev]'")
    chromium()
    npm_ci(AXE.parents[2])  # axe-core, into the checkout's node_modules


@pytest.fixture
def sqlite_servers(tmp_path: Path) -> Iterator[list[Server]]:
    needs_browser()
    server = start_server(tmp_path / "games.sqlite3", bot_workers=0)
    yield [server, server]
    stop_server(server)


@pytest.fixture
def postgres_servers(postgres: Cluster, tmp_path: Path) -> Iterator[list[Server]]:
    needs_browser()
    url = postgres.new_database()
    started = [start_server(url, bot_workers=0, log=tmp_path / f"server-{n}.log") for n in (0, 1)]
    yield started
    for server in started:
        stop_server(server)


def test_again_starts_one_next_game_for_the_same_tokens(tmp_path: Path) -> None:
    """The API behind "Play again": refused before the end and for a stranger's token; then
    one next game, whoever asks first, with the same seats and tokens and a new deal."""
    server = start_server(tmp_path / "games.sqlite3", bot_workers=0)
    try:
        created = server.create(players=4, seats=["human", "greedy", "greedy", "greedy"])
        game = created["id"]
        token = created["links"]["0"].split("#token=")[1]
        spectator = created["spectator"].split("#token=")[1]

        def again(which: str) -> tuple[int, dict[str, object]]:
            body = json.dumps({"token": which}).encode()
            status, answer = server.request("POST", f"/api/games/{game}/again", body)
            return status, answer

        assert again(token) == (
            409,
            {"error": "unavailable", "problems": ["the game is still in play"]},
        )
        assert again("not-a-token")[0] == 403
        status, answer = server.request("POST", f"/api/games/{game}/again", b'{"tok": 1}')
        assert status == 400 and "token" in answer["problems"][0]

        async def play() -> int:
            client = server.client(created["links"]["0"])
            winner = await client.play(chooser(1))
            await client.stop()
            return winner

        run(play(), timeout=120)
        status, summary = server.request("GET", f"/api/games/{game}")
        check_message(summary, "game-summary")
        assert summary["winner"] is not None and summary["next"] is None
        assert again(spectator)[0] == 409  # a spectator finds the next game, never starts it
        status, first = again(token)
        assert status == 200 and first["id"] == next_id(game) != game
        check_message(first, "next-game")
        assert again(token) == (200, first) and again(spectator) == (200, first)
        assert server.request("GET", f"/api/games/{game}")[1]["next"] == first["id"]
        before, after = server.stored(game), server.stored(str(first["id"]))
        assert after.seed != before.seed and after.rules == before.rules
        status, summary = server.request("GET", f"/api/games/{first['id']}")
        assert summary["seats"] == ["human", "greedy", "greedy", "greedy"]

        async def rejoin() -> dict[str, object]:  # the old token opens seat 0 of the next game
            client = server.client(f"{server.url}/play/{first['id']}#token={token}")
            await client.start()
            await client.wait_ready()
            await client.stop()
            assert client.welcome is not None
            return client.welcome

        welcome = run(rejoin())
        assert welcome["game"] == first["id"] and welcome["seat"] == 0
    finally:
        stop_server(server)


def test_an_open_game_gives_each_free_seat_once(tmp_path: Path) -> None:
    """Listed while a seat is free; a claimed seat gets a new token (the old link stops working);
    the creator's seat is never free; a private game is never listed nor claimed."""
    server = start_server(tmp_path / "games.sqlite3", bot_workers=0)
    try:
        private = server.create(players=4, seats=["human"] * 4)
        created = server.create(players=4, seats=["human", "greedy", "human", "human"], open=True)
        game = created["id"]
        status, listing = server.request("GET", "/api/open")
        check_message(listing, "open-games")
        assert [(g["id"], g["free"]) for g in listing["games"]] == [(game, [2, 3])]
        claimed = [server.request("POST", f"/api/games/{game}/seat")[1] for _ in range(2)]
        for answer in claimed:
            check_message(answer, "seat-claimed")
        assert [answer["seat"] for answer in claimed] == [2, 3]
        assert server.request("GET", "/api/open")[1] == {"games": []}
        for refused_game in (game, private["id"], "no-such-game"):
            status, answer = server.request("POST", f"/api/games/{refused_game}/seat")
            assert (status, answer["error"]) == (409, "no_free_seat")
            check_message(answer, "http-error")

        async def join(link: str) -> int | None:
            """The seat the link joins (``None``: refused)."""
            url, token = socket_url(link)
            async with websockets.connect(url) as socket:
                await socket.send(json.dumps({"type": "join", "token": token}))
                first = json.loads(await socket.recv())
            return first["seat"] if first["type"] == "welcome" else None

        assert run(join(claimed[0]["link"])) == 2
        assert run(join(created["links"]["2"])) is None  # the creator's link for it: gone
        assert run(join(created["links"]["0"])) == 0
    finally:
        stop_server(server)


def test_a_refused_game_is_explained_on_the_page(tmp_path: Path) -> None:
    """Over the per-address limit, the page says why in an alert, and stays accessible."""
    needs_browser()
    from playwright.sync_api import sync_playwright

    server = start_server(
        tmp_path / "games.sqlite3", bot_workers=0, options=["--games-per-client", "1"]
    )
    try:
        server.create(players=4)
        with sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
            page = new_page(browser, [server])
            page.set_viewport_size({"width": 390, "height": 844})  # a phone
            page.goto(server.url + "/")
            page.get_by_role("button", name="Create game").click()
            alert = page.get_by_role("alert")
            alert.wait_for()
            text = alert.inner_text()
            assert "as many unfinished games as the server allows" in text
            assert "this address has 1 unfinished games" in text  # the server's own words
            assert page.evaluate("document.activeElement.id") == "refusal"
            assert serious_violations(page) == []
            page.screenshot(path=str(SHOTS / "front-refused-phone.png"), full_page=True)
            browser.close()
    finally:
        stop_server(server)


@pytest.mark.parametrize("listed", [False, True], ids=["private", "open"])
def test_sqlite_front_door_game_played_again_in_browsers(
    sqlite_servers: list[Server], listed: bool
) -> None:
    """Seat 2 joins from the link the creator sent, or (an open game) is a stranger who takes
    it from the list of open games."""
    name = "sqlite-open" if listed else "sqlite"
    play_from_the_front_door(sqlite_servers, name, listed=listed)


def test_postgres_front_door_game_on_two_servers(postgres_servers: list[Server]) -> None:
    """The game is open to anyone: seat 2 is a stranger who takes it from the other server's
    list of open games."""
    play_from_the_front_door(postgres_servers, "postgres", listed=True)


def play_from_the_front_door(servers: list[Server], name: str, listed: bool) -> None:
    """Seat 0 (the creator, the mouse) on ``servers[0]``, seat 2 (the keyboard) and the
    spectator on ``servers[1]``."""
    from playwright.sync_api import sync_playwright

    SHOTS.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
        creator = new_page(browser, servers)
        creator.goto(servers[0].url + "/")
        assert serious_violations(creator) == []
        for seat, kind in enumerate(SEATS):
            creator.select_option(f"#seat-{seat}", kind)
        creator.set_checked("#open", listed)
        creator.get_by_role("button", name="Create game").click()
        creator.wait_for_selector("a[data-spectator-link]")
        assert serious_violations(creator) == []
        links = {
            int(link.get_attribute("data-seat") or -1): link.get_attribute("href") or ""
            for link in creator.locator("a[data-seat-link]").all()
        }
        assert sorted(links) == [0, 2]
        watch_link = creator.get_attribute("a[data-spectator-link]", "href") or ""
        game = re.findall(r"/play/([\w-]+)#", watch_link)[0]
        assert creator.locator("button.copy").count() == 3
        assert creator.is_visible("#open-note") == listed  # links of an open game may be taken

        other = new_page(browser, servers)
        if listed:
            status, answer = servers[1].request("GET", "/api/open")
            assert [(g["id"], g["free"]) for g in answer["games"]] == [(game, [2])]
            other.goto(servers[1].url + "/")
            other.click(f"[data-open-game='{game}'] button[data-claim]")
            other.wait_for_url(re.compile(f"/play/{game}#token="))
            assert other.url != on(servers[1], links[2])  # a token of its own
            status, answer = servers[0].request("GET", "/api/open")
            assert status == 200 and answer == {"games": []}  # no seat is free now
            check_message(answer, "open-games")
        else:
            other.goto(on(servers[1], links[2]))
        watcher = new_page(browser, servers)
        watcher.goto(on(servers[1], watch_link))
        creator.wait_for_function(
            "() => document.querySelector('[data-seat-state=\"2\"]').dataset.joined === 'true'"
        )
        creator.screenshot(path=str(SHOTS / f"front-{name}-waiting.png"))
        assert creator.inner_text("[data-seat-state='0']") == "not joined yet"
        creator.click("a[data-own-seat]")  # the creator's seat, one click away
        pages = {0: creator, 2: other}
        for page in (*pages.values(), watcher):
            page.wait_for_selector("main[aria-busy=false]")
        play_to_the_end(servers[0], game, pages)
        record = servers[0].stored(game)
        for page in (*pages.values(), watcher):
            page.wait_for_function(
                "ply => document.querySelector('[data-ply]').dataset.ply === ply",
                arg=str(len(record.moves)),
            )
        seen = watcher.locator("#history li").evaluate_all("items => items.map(i => i.textContent)")
        assert [
            text.split()[-len(m.split()) :] for text, m in zip(seen, record.moves, strict=True)
        ] == [m.split() for m in record.moves]
        assert watcher.locator("[data-move]").count() == 0
        creator.screenshot(path=str(SHOTS / f"front-{name}-over.png"))

        creator.click("#summary-again")  # "Play again": the same links, a new deal
        following = next_id(game)
        creator.wait_for_url(re.compile(f"/play/{following}#token="))
        watcher.wait_for_url(re.compile(f"/play/{following}#token="))  # it follows by itself
        other.wait_for_function(
            "() => /started the next game/.test(document.querySelector('#engine-status').textContent)"
        )
        other.click("#summary-again")
        other.wait_for_url(re.compile(f"/play/{following}#token="))
        for page in (creator, other, watcher):
            page.wait_for_selector("main[aria-busy=false]")
        deadline = time.monotonic() + 20
        while servers[1].request("GET", f"/api/games/{following}")[1]["connected"] != [0, 2]:
            assert time.monotonic() < deadline, "the seats did not join the next game"
            time.sleep(0.1)
        again = servers[0].stored(following)
        assert again.seed != record.seed and again.rules == record.rules
        browser.close()
    print(f"\n{name}: front door to the next game in {time.monotonic() - started:.1f} s")


def new_page(browser: Browser, servers: list[Server]) -> Page:
    """A page in a browser context of its own (as another machine would be), animations off,
    allowed to reach only the servers; its console errors fail the test."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, reduced_motion="reduce")
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.set_default_timeout(30_000)
    own = re.compile("|".join(re.escape(s.url) for s in servers) + r"|ws://127\.0\.0\.1|data:")
    page.route(lambda url: not own.match(url), lambda route: route.abort())
    page.on("pageerror", lambda error: pytest.fail(f"page error: {error}"))
    return page


def on(server: Server, link: str) -> str:
    """``link`` on ``server``'s port."""
    return re.sub(r"^http://127\.0\.0\.1:\d+", server.url, link)


def play_to_the_end(server: Server, game: str, pages: dict[int, Page]) -> None:
    """Each person plays the greedy bot's move: seat 0 clicks it, seat 2 types it."""
    deadline = time.monotonic() + 240
    while True:
        assert time.monotonic() < deadline, "the game did not end in time"
        state = server.position(game)
        if state.is_over:
            return
        page = pages.get(state.turn)
        if page is None:  # a bot's turn
            time.sleep(0.02)
            continue
        ply = str(state.ply)
        page.wait_for_function(
            "ply => document.querySelector('[data-ply]').dataset.ply === ply && "
            "document.querySelectorAll('[data-move]').length > 0",
            arg=ply,
        )
        move = str(decide(GreedyBot(state.ply), state))
        if state.turn == 0:
            page.locator(f"[data-move='{move}']").click()
        else:
            page.fill("#move-input", move)
            page.press("#move-input", "Enter")
        page.wait_for_function(
            "ply => document.querySelector('[data-ply]').dataset.ply !== ply", arg=ply
        )


def serious_violations(page: Page) -> list[str]:
    """What axe-core finds wrong on the page, at impact "serious" or "critical"."""
    page.add_script_tag(path=str(AXE))
    found: list[str] = page.evaluate(
        """async () => (await axe.run(document, { resultTypes: ["violations"] })).violations
            .filter((v) => v.impact === "serious" || v.impact === "critical")
            .map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(" "))}`)"""
    )
    return found


@pytest.mark.parametrize(
    ("body", "named"),
    [
        ({"players": 5}, "players: "),
        ({"preset": "x"}, "preset: "),
        ({"seats": ["human", "robot", "human", "greedy"]}, "seats[1]: "),
        ({"seats": ["human"] * 3}, "seats: "),
        ({"house_rules": {"nine": "sideways"}}, "house_rules: $.nine: "),
        ({"open": "yes"}, "open: "),
        ({"colour": "red"}, "unknown fields: 'colour'"),
    ],
)
def test_a_refused_new_game_names_the_field_at_fault(body: dict[str, object], named: str) -> None:
    """Each problem of a ``400`` starts with the field it is about (the page shows them)."""
    with pytest.raises(BadRequest) as refused:
        parse_new_game(body)
    assert refused.value.status == 400
    assert [problem[: len(named)] for problem in refused.value.problems] == [named]
