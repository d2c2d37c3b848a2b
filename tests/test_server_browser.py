"""Two people in two browsers and two bots play a whole game through a real ``pegs serve``;
and a page plays on through connections cut at random moments.

Each person opens their join link in a separate browser context (separate storage, as
two machines would be) and plays through the page's contract: ``[data-move]`` buttons,
``[data-ply]``, ``[data-turn]``, ``[data-winner]``. The winner is checked against the
server's record replayed here. Screenshots go to ``test-artifacts/serve/``.
"""

from __future__ import annotations

import random
import re
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from browser import ARTIFACTS, CHROMIUM_ARGS, chromium, unavailable
from faults import Background, DroppingProxy
from served import Server, start_server, stop_server

from pegs_rules import legal_moves, replay, view
from pegs_rules.serialize import from_json, to_data

if TYPE_CHECKING:
    from playwright.sync_api import Page

SHOTS = ARTIFACTS / "serve"


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[list[Server]]:
    """The server, and the one started in its place after it is killed."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        unavailable("Playwright is not installed: pip install -e '.[dev]'")
    chromium()
    started = [start_server(tmp_path / "games.sqlite3")]
    yield started
    for server in started:
        stop_server(server)


def watch(page: Page, errors: list[str], server: Server) -> None:
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    own = re.compile(re.escape(server.url) + r"|ws://127\.0\.0\.1|blob:|data:")
    page.route(lambda url: not own.match(url), lambda route: route.abort())


def test_two_people_in_two_browsers_and_two_bots_play_to_the_end(servers: list[Server]) -> None:
    """Midway the server is killed and started again: the pages reconnect by themselves."""
    from playwright.sync_api import sync_playwright

    server = servers[0]
    name = "<i>Tom</i> & Jerry's"  # a house-rules name is shown as text, never as markup
    seats = ["human", "greedy", "human", "random"]
    created = server.create(players=4, seats=seats, house_rules={"name": name})
    SHOTS.mkdir(parents=True, exist_ok=True)
    rng = random.Random(11)
    errors: list[str] = []
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
        pages = {}
        for seat in (0, 2):
            # moves shown at once, not animated peg by peg: the test clicks through a whole game
            context = browser.new_context(
                viewport={"width": 1280, "height": 900}, reduced_motion="reduce"
            )
            page = context.new_page()
            page.set_default_timeout(30_000)
            watch(page, errors, server)
            page.goto(created["links"][str(seat)])
            page.wait_for_selector("main[aria-busy=false]")
            pages[seat] = page
        check_seat_sees_its_view(server, created["id"], pages)
        assert pages[0].inner_text("header .subtitle") == "online game"
        assert f"rules {name};" in pages[0].inner_text("#table-facts")
        assert pages[0].locator("main i").count() == 0
        pages[0].screenshot(path=str(SHOTS / "seat-0-start.png"))

        deadline = time.monotonic() + 600
        restarted = False
        while not pages[0].get_attribute("[data-winner]", "data-winner"):
            assert time.monotonic() < deadline, "the game did not end in time"
            for seat, page in pages.items():
                buttons = page.locator("[data-move]")
                if buttons.count() == 0:
                    continue
                ply = page.get_attribute("[data-ply]", "data-ply")
                buttons.nth(rng.randrange(buttons.count())).click()
                page.wait_for_function(
                    "ply => document.querySelector('[data-ply]').dataset.ply !== ply", arg=ply
                )
                if not restarted and int(ply or 0) >= 40:
                    page.screenshot(path=str(SHOTS / f"seat-{seat}-in-progress.png"))
                    server = restart(servers, pages, created["id"])
                    restarted = True
            time.sleep(0.02)
        assert restarted
        for seat, page in pages.items():
            page.wait_for_function("() => document.querySelector('[data-winner]').dataset.winner")
            page.screenshot(path=str(SHOTS / f"seat-{seat}-over.png"))
        winners = {page.get_attribute("[data-winner]", "data-winner") for page in pages.values()}
        plies = {page.get_attribute("[data-ply]", "data-ply") for page in pages.values()}
        browser.close()

    with urllib.request.urlopen(f"{server.url}/api/games/{created['id']}/record") as answer:
        final = replay(from_json(answer.read().decode(), "record"))
    assert winners == {str(final.winner)} and plies == {str(final.ply)}
    # while the server was down, the browser itself logged each refused reconnection attempt
    refused = re.compile(r"WebSocket connection to '.*' failed: .*ERR_CONNECTION_REFUSED")
    assert not [error for error in errors if not refused.search(error)], errors


def restart(servers: list[Server], pages: dict[int, Page], game_id: str) -> Server:
    """SIGKILL the server, start it again, and wait for both pages to show the same game."""
    killed = servers[-1]
    killed.kill()
    at_kill = killed.position(game_id)
    servers.append(start_server(killed.db, port=killed.port))
    for page in pages.values():
        page.wait_for_function(
            "() => /Reconnected/.test(document.querySelector('#engine-status').textContent)"
        )
    check_seat_sees_its_view(servers[-1], game_id, pages, at_least=at_kill.ply)
    return servers[-1]


def check_seat_sees_its_view(
    server: Server, game_id: str, pages: dict[int, Page], at_least: int = 0
) -> None:
    """Each page shows its own seat's hand, and the legal moves only on its turn.

    Checked once a person is to act (the bots have had their turns) at ply ``at_least`` or later.
    """
    deadline = time.monotonic() + 30
    truth = server.position(game_id)
    while truth.ply < at_least or truth.turn not in pages:
        assert time.monotonic() < deadline, "the bots did not hand the turn back"
        time.sleep(0.1)
        truth = server.position(game_id)
    for seat, page in pages.items():
        page.wait_for_function(
            "ply => document.querySelector('[data-ply]').dataset.ply === ply", arg=str(truth.ply)
        )
        hand = page.locator("#hands").inner_text()
        mine = to_data(view(truth, seat))["hand"]
        assert all(card in hand for card in mine), (hand, mine)
        shown = page.locator("[data-move]").evaluate_all(
            "buttons => buttons.map(b => b.dataset.move)"
        )
        expected = [str(m) for m in legal_moves(truth)] if truth.turn == seat else []
        assert shown == expected


def test_a_page_plays_on_through_connections_cut_at_random_moments(tmp_path: Path) -> None:
    """The page's WebSocket is cut after 0.3 to 1.5 s, or just before or just after a move:
    the page reconnects by itself and no move reaches the server twice."""
    from playwright.sync_api import sync_playwright

    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        unavailable("Playwright is not installed: pip install -e '.[dev]'")
    chromium()
    server = start_server(tmp_path / "games.sqlite3", bot_workers=0, metrics=True)
    proxy = DroppingProxy(server.port, random.Random(8), (0.3, 1.5), only_websockets=True)
    running = Background(proxy)
    try:
        created = server.create(players=4, seats=["human", "greedy", "greedy", "greedy"])
        link = created["links"]["0"].replace(f":{server.port}/", f":{proxy.port}/")
        rng = random.Random(3)
        made = again = 0
        with sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
            page = browser.new_context(reduced_motion="reduce").new_page()
            page.set_default_timeout(30_000)
            page.goto(link)
            page.wait_for_selector("main[aria-busy=false]")
            deadline = time.monotonic() + 120
            while made < 15 and not page.get_attribute("[data-winner]", "data-winner"):
                assert time.monotonic() < deadline, f"{made} moves made in time"
                buttons = page.locator("[data-move]")
                if buttons.count() == 0:
                    time.sleep(0.02)
                    continue
                ply = page.get_attribute("[data-ply]", "data-ply")
                buttons.nth(rng.randrange(buttons.count())).click()
                page.wait_for_selector("main[aria-busy=false]")  # the answer, whatever it is
                if page.get_attribute("[data-ply]", "data-ply") != ply:
                    made += 1
                else:  # it did not reach the server, or the page was not connected: again
                    again += 1
                    time.sleep(0.1)
            page.screenshot(path=str(SHOTS / "cut-connections.png"))
            browser.close()
        counted = server.metrics()
    finally:
        running.stop()
        stop_server(server)
    print(f"{made} moves made, {again} tried again; connections cut: {proxy.cuts}")
    assert made >= 15
    assert sum(proxy.cuts.values()) >= 10 and proxy.cuts["after"] + proxy.cuts["before"] >= 3
    for twice in ("stale", "not_your_turn"):  # no move reached the server twice
        assert counted.get(f'pegs_refused_total{{reason="{twice}"}}', 0) == 0, counted
