"""The browser playground in a real browser: the system Chromium, driven by Playwright.

The playground is built once per session (``pegs web build``, with ``npm ci`` first if
esbuild or axe-core is missing), served by ``python -m http.server`` on a
free loopback port, and driven through its documented contract: ``[data-move]`` buttons,
``[data-ply]``, ``[data-turn]``, ``[data-winner]``, ``[data-position-input]``, the
viewer's ``[data-replay-ply]``, ``[data-replay-end]`` and ``[data-replay]`` buttons,
``main[aria-busy]`` and the ``?players=``/``?position=``/``?record=`` addresses. Every
expectation is checked against the engine run here in CPython.

Most tests share one page that asks for reduced motion (moves are not animated, which
keeps them quick); the animation test turns motion back on. The page plays on the
TypeScript engine, its bots and hint too (in a Web Worker): no Python runs in it. The first
visits, the service worker and the network cut off
are tested in a browser context of their own.

Screenshots of each screen, at desktop and phone sizes, are saved in
``test-artifacts/playground/`` to look at.
"""

from __future__ import annotations

import itertools
import json
import math
import re
import time
import urllib.parse
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from browser import (
    ARTIFACTS,
    CHROMIUM_ARGS,
    StaticServer,
    chromium,
    npm_ci,
    unavailable,
)
from played import bots_game

from pegs_rules import (
    __version__,
    apply,
    explain,
    format_move,
    legal_moves,
    new_game,
    parse_notation,
    parse_position,
    to_json,
)
from pegs_rules.board import START, is_track
from pegs_rules.bots import Bot, ExpertBot, MctsBot, decide, make_bot
from pegs_rules.errors import ReplayError
from pegs_rules.events import Event, PegDisplaced, PegMoved, apply_with_events
from pegs_rules.moves import Play
from pegs_rules.records import GameRecord, record_of, replay
from pegs_rules.render import svg
from pegs_rules.spec import load_cases
from pegs_rules.state import GameState
from pegs_rules.web.build import build
from pegs_rules.web.offer import BOARD_SIZE, HINT_BOT, PAGE_BOTS

if TYPE_CHECKING:
    from playwright.sync_api import Browser, FilePayload, Page

ROOT = Path(__file__).resolve().parents[1]
SHOTS = ARTIFACTS / "playground"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
LOAD_TIMEOUT = 30_000
"""Milliseconds for the page to load on a busy machine."""
SPLIT = """players: 4
turn: 0
pegs 0: 70 h2 h5 30
pegs 1: 21 26 h1
pegs 2: 33 h3 8
pegs 3: 3 60
hand 0: 7
"""
PASTE = """([line, times]) => {
    const text = line.repeat(times);
    const box = document.querySelector('[data-position-input]');
    const clipboard = new DataTransfer();
    clipboard.setData('text/plain', text);
    box.focus();
    box.dispatchEvent(new ClipboardEvent('paste', {clipboardData: clipboard, bubbles: true, cancelable: true}));
}"""
"""Paste ``line`` ``times`` over into the position box as a person would (a paste event)."""
FOCUSED = "(e => e.id || e.dataset.pick || e.textContent)(document.activeElement)"
PEG_STROKES = """(() => {
    const stroke = (e) => { const s = getComputedStyle(e); return [s.stroke, s.strokeWidth]; };
    const ring = document.querySelector("#board .ring.movable");
    return [stroke(document.activeElement), stroke(ring)];
})()"""
"""The outline of the focused peg, and the ring of a movable one."""
FOCUS_WATCH = """() => {
    window.lostFocus = [];
    window.focusWatch = setInterval(() => {
        if (document.body.dataset.screen === "game" && document.activeElement === document.body)
            window.lostFocus.push(Number(document.querySelector("[data-ply]").dataset.ply));
    }, 5);
}"""
"""Note each ply at which the keyboard's focus is found left on the page itself (checked every
5 ms) in a game."""
KEY_TO_PRESS = """[Number(document.querySelector("[data-ply]").dataset.ply),
    (e => e.dataset.pick !== undefined || e.dataset.move !== undefined
        || e.closest("#choice") !== null)(document.activeElement)]"""
"""The ply shown, and whether Enter acts on what has the focus (a peg or hole to pick, a move,
a choice offered), else Tab goes on."""
HUMAN_SEAT_2 = "?players=4&seed=4&seats=greedy,greedy,human,greedy&delay=0"
"""Seed 4 deals seat 2 the first turn, with a K to come out with (see the test below)."""
STEPS = ("first", "prev", "next", "last")
"""The record viewer's step buttons (data-replay)."""
SMALL_DESKTOP = {"width": 1280, "height": 800}
"""The smaller of the usual laptop windows."""
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
EIGHT_SEED = 3
"""Seed 3 gives the shortest of the first 40 eight-player games between greedy bots (383
moves), with splits that knock pegs: the full replay's game."""
SPEED = "pegs-playground.speed"
"""Where the page keeps the move speed the person chose (localStorage)."""
UNSEEDED = "?players=4&seats=human,greedy,greedy,greedy&delay=0"
"""A game dealt from a fresh seed."""
HOLES = """() => {
    const svg = document.querySelector("#board svg");
    const at = (e) => [Number(e.getAttribute("cx")), Number(e.getAttribute("cy"))];
    return {
        track: [...svg.querySelectorAll("circle.hole.track")].map((e) => [e.dataset.loc, ...at(e)]),
        other: [...svg.querySelectorAll("circle.hole.home, circle.hole.start")]
            .map((e) => [`${e.dataset.seat}:${e.dataset.loc}`, ...at(e)]),
    };
}"""
"""Where every hole of the board shown is: track holes by number, the others as seat:loc."""
WATCH = """() => {
    const watched = { moves: [], before: null, after: null };
    window.watched = watched;
    const pegs = (svg) => [...svg.querySelectorAll("circle.peg")]
        .map((p) => `${p.dataset.seat}@${Math.round(p.getAttribute("cx"))},${Math.round(p.getAttribute("cy"))}`)
        .sort();
    window.watcher?.disconnect();
    window.watcher = new MutationObserver((records) => {
        for (const record of records) {
            if (record.type === "attributes" && record.target.matches("circle.peg")) {
                const peg = record.target;
                watched.moves.push([peg.dataset.seat, Number(peg.getAttribute("cx")), Number(peg.getAttribute("cy"))]);
            } else if (record.type === "childList") {
                for (const node of record.removedNodes) if (node.nodeName === "svg") watched.before = pegs(node);
                for (const node of record.addedNodes) if (node.nodeName === "svg") watched.after = pegs(node);
            }
        }
    });
    window.watcher.observe(document.querySelector("#board"),
        { subtree: true, childList: true, attributes: true, attributeFilter: ["cy"] });
}"""
"""Record every position a peg takes on the board, and the pegs of the board taken away
(where the animation left them) and of the one put in its place (the engine's)."""
PATHS = """async () => {
    const { pathOf } = await import("./js/animate.js");
    const four = { players: 4 };
    return [
        pathOf({ seat: 0, from: "70", to: "h2" }, { ...four, card: "7" }),
        pathOf({ seat: 1, from: "21", to: "h3" }, { ...four, card: "3" }),
        pathOf({ seat: 2, from: "h1", to: "h3" }, { ...four, card: "2" }),
        pathOf({ seat: 0, from: "10", to: "2" }, { ...four, card: "8" }),
        pathOf({ seat: 3, from: "1", to: "70" }, { ...four, card: "9" }),
        pathOf({ seat: 0, from: "s", to: "8" }, { ...four, card: "A" }),
        pathOf({ seat: 0, from: "30", to: "60" }, { ...four, card: "JK" }),
        pathOf({ seat: 0, from: "30", to: "33" }, { ...four, card: "2", jump: true }),
    ];
}"""
"""The page's paths for steps of each kind, from its animation module."""
DROP = """([text, name]) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([text], name, { type: "application/json" }));
    document.body.dispatchEvent(new DragEvent("drop", { dataTransfer: transfer, bubbles: true, cancelable: true }));
}"""
"""Drop a file on the page, as a person dragging it from their files would."""
ANNOUNCED = """() => {
    window.announced = [];
    const live = '[aria-live], [role="status"], [role="alert"], [role="log"]';
    new MutationObserver((records) => {
        const changed = new Set();
        for (const record of records) {
            const node = record.target.nodeType === 1 ? record.target : record.target.parentElement;
            const region = node.closest(live);
            if (region) changed.add(region);
        }
        for (const region of changed) if (region.textContent) window.announced.push(region.textContent);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
}"""
"""Keep the text of every live region each time it changes (what a screen reader reads out)."""
OLD_SNAPSHOTS = """async (sites) => {
    const old = await caches.open("pegs-playground engine");
    for (const site of sites) await old.put(new URL("__engine/0123456789abcdef", site).href, new Response("x"));
}"""
"""Keep a snapshot in Cache Storage for each of ``sites``, as builds before the private file
system did."""
OLD_SNAPSHOTS_LEFT = """async () =>
    (await caches.has("pegs-playground engine"))
        ? (await (await caches.open("pegs-playground engine")).keys()).map((request) => request.url)
        : null"""
"""The addresses of the snapshots kept in Cache Storage (null: no such cache)."""
OLD_FILE_SNAPSHOTS = """async (sites) => {
    const root = await navigator.storage.getDirectory();
    const folder = await root.getDirectoryHandle("pegs-playground engine", { create: true });
    for (const site of sites) {
        const name = `${encodeURIComponent(site)} 0123456789abcdef 1`;
        const file = await (await folder.getFileHandle(name, { create: true })).createWritable();
        await file.write("x");
        await file.close();
    }
}"""
"""Keep a snapshot in the private file system for each of ``sites``, as the builds that
started Python with every page did."""
OLD_FILE_SNAPSHOTS_LEFT = """async () => {
    const root = await navigator.storage.getDirectory();
    const folder = await root.getDirectoryHandle("pegs-playground engine", { create: true });
    const names = [];
    for await (const name of folder.keys()) names.push(decodeURIComponent(name.split(" ")[0]));
    return names;
}"""
"""The sites whose snapshots are left in the private file system."""
HEADER_WATCH = """() => {
    const seen = [];
    window.headerSeen = seen;
    const sample = () => {
        const sentence = document.querySelector("#engine-status");
        const bar = document.querySelector("#engine-progress");
        seen.push({
            t: performance.now(),
            sentence: sentence.textContent,
            full: bar.hasAttribute("value") && bar.value >= bar.max,
            indeterminate: !bar.hasAttribute("value"),
            clipped: sentence.scrollHeight > sentence.clientHeight + 1,
            header: document.querySelector("header").getBoundingClientRect().height,
            play: document.querySelector("#play-button").getBoundingClientRect().top,
            screen: document.body.dataset.screen,
            ready: document.body.dataset.engine === "ready",
        });
    };
    document.addEventListener("DOMContentLoaded", () => {
        if (!document.querySelector("#engine-status")) return; // not the playground's page
        sample();
        new MutationObserver(sample).observe(document.querySelector("header"),
            { subtree: true, childList: true, characterData: true, attributes: true });
    });
}"""
"""Record the playground's header at first and at every change of it: the engine's sentence,
its bar, the header's height and where "Play" is (run in a page before it loads)."""


# --- fixtures ----------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def playground(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The playground, built once for the session."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        unavailable("Playwright is not installed: pip install -e '.[dev]'")
    chromium()
    npm_ci(ROOT)
    out = tmp_path_factory.mktemp("playground") / "site"
    build(out)
    return out


@pytest.fixture(scope="session")
def site(playground: Path) -> Iterator[str]:
    with StaticServer(playground) as server:
        yield server.url


@pytest.fixture(scope="module")
def browser(site: str) -> Iterator[Browser]:
    """Chromium for this module's tests, stopped when they end: Playwright's synchronous driver
    runs an event loop in this thread while it lives, which another module's driver may not."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


class Tab:
    """One page for the whole module, with what went wrong in it."""

    def __init__(self, page: Page, site: str) -> None:
        self.page = page
        self.site = site
        self.errors: list[str] = []
        self.outside: list[str] = []
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        local = re.compile(re.escape(site) + r"|blob:|data:")
        page.route(lambda url: not local.match(url), self.refuse)

    def refuse(self, route: Any) -> None:
        self.outside.append(route.request.url)
        route.abort()


@pytest.fixture(scope="module")
def tab(browser: Browser, site: str) -> Iterator[Tab]:
    page = browser.new_page(viewport=DESKTOP, reduced_motion="reduce")  # type: ignore[arg-type]
    page.set_default_timeout(30_000)
    page.add_init_script(f"({HEADER_WATCH})()")
    yield Tab(page, site)
    page.close()


@pytest.fixture(scope="session")
def eight_player_game() -> GameRecord:
    """A whole 8-player game between seeded greedy bots, recorded by the library."""
    return bots_game(8, EIGHT_SEED)


@pytest.fixture(scope="session")
def records(playground: Path, eight_player_game: GameRecord) -> str:
    """The site's folder of records (beside the page, so that ``?record=`` can name them)."""
    folder = playground / "records"
    folder.mkdir(exist_ok=True)
    (folder / "eight.json").write_text(to_json(eight_player_game), encoding="utf-8")
    return "records/"


@pytest.fixture
def page(tab: Tab) -> Iterator[Page]:
    """The module's page; the test fails on any console error or request off this machine."""
    tab.errors.clear()
    yield tab.page
    assert tab.errors == [], "console errors"
    assert tab.outside == [], "requests to other hosts"


# --- helpers -----------------------------------------------------------------------------------


def goto(page: Page, site: str, query: str = "") -> None:
    page.goto(site + query)
    page.wait_for_selector('main[aria-busy="false"]', timeout=LOAD_TIMEOUT)


def idle(page: Page) -> None:
    page.wait_for_selector('main[aria-busy="false"]')


def shot(page: Page, name: str, *, full_page: bool = True) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full_page)


def in_view(page: Page, selector: str) -> bool:
    """Whether the element is wholly inside the window as it is scrolled now."""
    inside: bool = page.eval_on_selector(
        selector,
        """e => { const r = e.getBoundingClientRect();
            return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight
                && r.left >= 0 && r.right <= innerWidth; }""",
    )
    return inside


def listed(page: Page) -> list[str]:
    moves: list[str] = page.eval_on_selector_all(
        "[data-move]", "els => els.map(e => e.dataset.move)"
    )
    return moves


def history(page: Page) -> list[str]:
    moves: list[str] = page.eval_on_selector_all(
        "#history li", "els => els.map(e => e.textContent)"
    )
    return moves


def data(page: Page, name: str) -> str:
    value: str = page.get_attribute(f"[data-{name}]", f"data-{name}") or ""
    return value


def wait_for_turn(page: Page, after_ply: int) -> None:
    """Wait until the person is to act again, later than ``after_ply``."""
    page.wait_for_function(
        "ply => Number(document.querySelector('[data-ply]').dataset.ply) > ply"
        " && document.querySelector('[data-move]') !== null",
        arg=after_ply,
    )


def position_at(record: GameRecord, ply: int) -> GameState:
    state = record.start()
    for text in record.moves[:ply]:
        state = apply(state, parse_notation(text))
    return state


def move_events(record: GameRecord) -> list[tuple[Event, ...]]:
    """The events of each move of ``record``, in order."""
    state = record.start()
    out = []
    for text in record.moves:
        state, events = apply_with_events(state, parse_notation(text))
        out.append(events)
    return out


def track_path(src: int, dst: int, length: int) -> list[str]:
    """The track holes a peg passes from ``src`` to ``dst`` (move.forward; an 8 goes back)."""
    ahead = (dst - src) % length
    step = 1 if ahead <= 13 else -1
    count = ahead if step == 1 else (src - dst) % length
    return [str((src + step * i) % length) for i in range(count + 1)]


def where(holes: dict[str, list[list[Any]]], x: float, y: float) -> str | None:
    """The hole a point stands on (within a quarter of the holes' spacing), if any."""
    spacing = math.dist(holes["track"][0][1:], holes["track"][1][1:])
    for name, hx, hy in holes["track"] + holes["other"]:
        if math.dist((x, y), (hx, hy)) < spacing / 4:
            return str(name)
    return None


def unheld_come_out(state: GameState) -> str:
    """A move out of the start area of the seat to act with a card that comes out but that the
    seat does not hold (illegal: turn.sequence)."""
    return next(
        f"{card} {state.turn}:s-{state.board.come_out(state.turn)}"
        for card in ("A", "K", "Q", "J")
        if all(c.symbol != card for c in state.hands[state.turn])
    )


def tap_targets(page: Page) -> list[float]:
    """The smaller side, in CSS pixels, of the tap area of each pickable on the board."""
    sides: list[float] = page.eval_on_selector_all(
        "#board .hits circle",
        "els => els.map(e => { const r = e.getBoundingClientRect(); return Math.min(r.width, r.height); })",
    )
    assert len(sides) == page.locator("#board [data-pick]").count() > 0
    return sides


def is_subsequence(part: list[str], whole: list[str]) -> bool:
    rest = iter(whole)
    return all(item in rest for item in part)


def started_seed(page: Page) -> int:
    """The seed of the game in the page, from the record it saves."""
    page.click("#history >> xpath=.. >> summary")
    with page.expect_download() as saved:
        page.click("#record-button")
    seed: int = json.loads(Path(saved.value.path()).read_text(encoding="utf-8"))["seed"]
    return seed


def counted(record: GameRecord) -> list[dict[str, int]]:
    """Per seat, from the engine's events: plays made, pegs knocked back, pegs knocked, and
    pegs home at the end."""
    state = record.start()
    seats = [{"played": 0, "knocked_back": 0, "knocked": 0} for _ in range(record.players)]
    for text in record.moves:
        mover = seats[state.turn]
        move = parse_notation(text)
        mover["played"] += isinstance(move, Play)
        state, events = apply_with_events(state, move)
        for event in events:
            if isinstance(event, PegDisplaced):
                seats[event.seat]["knocked_back"] += 1
                mover["knocked"] += 1
    for seat, locs in enumerate(state.pegs):
        seats[seat]["home"] = sum(loc >= 1000 for loc in locs)
    return seats


def board_title(page: Page) -> str:
    """The board's description, which names the place of every peg."""
    label: str = page.get_attribute("#board svg", "aria-label") or ""
    return label


def title_of(state: GameState) -> str:
    return svg(state, size=BOARD_SIZE).split("<title>", 1)[1].split("</title>", 1)[0]


def serious_violations(page: Page) -> list[str]:
    """What axe-core finds wrong on the page, at impact "serious" or "critical"."""
    page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = page.evaluate(
        """async () => (await axe.run(document, { resultTypes: ["violations"] })).violations
            .map((v) => ({ id: v.id, impact: v.impact,
                           where: v.nodes.slice(0, 3).map((n) => n.target.join(" ")) }))"""
    )
    return [
        f"{v['id']} ({v['impact']}): {v['where']}"
        for v in found
        if v["impact"] in ("serious", "critical")
    ]


def replayed(seed: int, moves: list[str]) -> GameState:
    state = new_game(4, seed=seed)
    for text in moves:
        state = apply(state, parse_notation(text))
    return state


def position_of(case: dict[str, Any]) -> str:
    return "\n".join([f"rules: {case['preset']}", *case["position"]])


def study(page: Page, text: str) -> None:
    page.fill("[data-position-input]", text)
    page.click("#position-form button")
    idle(page)


# --- the tests ---------------------------------------------------------------------------------


def test_play_is_one_click_with_the_last_set_up_and_the_form_one_more(
    page: Page, site: str, playground: Path
) -> None:
    goto(page, site)
    page.evaluate("localStorage.clear()")
    goto(page, site)
    assert page.is_visible("#play-button") and not page.is_visible("#setup-form")
    assert page.is_visible('.first-board[data-players="4"]')  # until a game is started
    assert page.inner_text("#play-summary") == (
        "4 players, arizona rules: you at seat 0; medium bots at seats 1, 2 and 3."
    )
    shot(page, "1-home")
    page.click("#change-setup")
    assert page.locator("#setup-form select[id^=seat-]").count() == 4
    kinds = page.eval_on_selector_all("#seat-1 option", "els => els.map(e => e.value)")
    assert kinds == ["human", *PAGE_BOTS]  # the engine's bots, as the engine names them
    page.click("#players-8")
    assert page.locator("#setup-form select[id^=seat-]").count() == 8
    page.click("#players-6")
    page.click("details.house-rules summary")
    assert page.locator("[data-switch]").count() == 11
    page.select_option("#seat-1", "random")
    page.select_option("#setup-pace", "0")
    shot(page, "1-setup")
    assert serious_violations(page) == []
    page.click("#setup-form button[type=submit]")
    page.wait_for_selector('body[data-screen="game"] [data-turn]:not([data-turn=""])')
    assert page.inner_text("#table-facts").startswith("6 players")
    goto(page, site)  # a later visit: "Play" is the last game's set-up
    assert page.inner_text("#play-summary").startswith("6 players, arizona rules: you at seat 0;")
    assert "random bot at seat 1" in page.inner_text("#play-summary")
    assert page.get_attribute("html", "data-players") == "6"
    assert page.is_visible('.first-board[data-players="6"]')
    assert not page.is_visible('.first-board[data-players="4"]')
    page.focus("#play-button")
    page.keyboard.press("Enter")  # the keyboard's focus then waits on the person's first peg
    page.wait_for_selector('body[data-screen="game"] #board svg [data-pick][tabindex="0"]')
    idle(page)
    assert page.inner_text("#table-facts").startswith("6 players")
    first = page.eval_on_selector(
        "#board svg", "svg => svg.querySelector('[data-pick][tabindex=\"0\"]').dataset.pick"
    )
    assert first.startswith("source|") and page.evaluate(FOCUSED) == first
    page.click("#new-game-button")  # the form shows the last set-up
    assert page.is_checked("#players-6") and page.input_value("#seat-1") == "random"
    # One version: the build's (the footer) is the engine's (the header) and the library's.
    config = json.loads((playground / "config.json").read_text(encoding="utf-8"))
    package = json.loads((ROOT / "js" / "package.json").read_text(encoding="utf-8"))
    assert config["version"] == package["version"] == __version__
    assert page.inner_text("#build-line").startswith(f"pegs-rules {__version__}, build ")
    assert f"pegs-rules {__version__} (TypeScript)" in page.inner_text("#engine-status")
    assert not (playground / "pyodide").exists() and not (playground / "wheels").exists()


def test_the_listed_moves_are_the_engines_and_a_person_moves_by_click_and_by_typing(
    page: Page, site: str
) -> None:
    goto(page, site, HUMAN_SEAT_2)
    state = new_game(4, seed=4)
    assert (data(page, "ply"), data(page, "turn"), data(page, "winner")) == ("0", "2", "")
    assert listed(page) == [str(m) for m in legal_moves(state)] == ["K 0:s-8", "K 2:s-44"]
    hand = page.eval_on_selector_all("#hands .card", "els => els.map(e => e.textContent)")
    assert hand == [card.symbol for card in state.hands[2]]
    # By clicking: seat 0's peg in start, then its come-out hole 8.
    page.evaluate(ANNOUNCED)
    page.click('circle.peg[data-seat="0"][data-pick^="source"]')
    assert page.get_attribute('[data-pick^="target"]', "data-loc") == "8"
    shot(page, "2-game-peg-chosen")
    page.click('[data-pick^="target"]', force=True)
    wait_for_turn(page, 0)
    assert history(page)[0] == "K 0:s-8"
    # Each move, the person's and the bots' after it, is read out once, then the person's turn.
    said: list[str] = page.evaluate("window.announced")
    state = new_game(4, seed=4)
    for text in history(page):
        state, events = apply_with_events(state, parse_notation(text))
        assert sum(line.count(str(events[0])) for line in said) == 1, (events[0], said)
    assert said[-1].endswith(f"Your turn, seat 2: {len(legal_moves(state))} legal moves.")
    assert (data(page, "ply"), data(page, "turn")) == (str(state.ply), "2")
    assert listed(page) == [str(m) for m in legal_moves(state)]
    # By typing, in shorthand.
    move = next(m for m in legal_moves(state) if isinstance(m, Play))
    page.fill("#move-input", format_move(state, move, short=True))
    page.press("#move-input", "Enter")
    wait_for_turn(page, state.ply)
    assert history(page)[state.ply] == str(move)
    state = replayed(4, history(page))
    assert listed(page) == [str(m) for m in legal_moves(state)]
    shot(page, "3-game-in-progress")


def test_moves_offered_for_a_pick_go_when_the_turn_ends_and_never_play_for_another_seat(
    page: Page, site: str
) -> None:
    """Seat 1's peg in start and hole 26 fit three moves (an A, a Q or a K brings it out): the
    page offers them. The person plays another move from the list instead; the offer goes at
    once, stays gone through the bots' turns, and its buttons play nothing for anyone."""
    goto(page, site, "?players=4&seed=2&seats=greedy,human,greedy,greedy&delay=300")
    state = new_game(4, seed=2)
    assert state.turn == 1
    page.click('circle.peg[data-seat="1"][data-pick^="source"]')
    page.click('[data-pick^="target"][data-loc="26"]', force=True)
    offered = page.locator("#choice button")
    assert offered.all_inner_texts() == ["A 1:s-26", "Q 1:s-26", "K 1:s-26"]
    stale = offered.element_handles()
    page.click('.moves [data-move="K 3:s-62"]')
    page.wait_for_selector('[data-ply="1"]', state="attached")
    assert page.is_hidden("#choice"), "gone when the move is made"
    for button in stale:  # pressed while a bot is to act: nothing is sent
        button.evaluate("b => b.click()")
    wait_for_turn(page, 1)
    assert page.is_hidden("#choice") and page.locator("#choice button").count() == 0
    bots = {seat: make_bot("greedy", 200 + seat) for seat in (0, 2, 3)}
    moves = ["K 3:s-62"]
    state = apply(state, parse_notation(moves[0]))
    while state.turn != 1:
        move = decide(bots[state.turn], state)
        moves.append(str(move))
        state = apply(state, move)
    assert history(page) == moves
    assert page.inner_text("#message") == ""


def test_a_game_between_bots_ends_with_the_winner_the_engine_finds_and_its_summary(
    page: Page, site: str
) -> None:
    goto(page, site)
    page.click("#new-game-button")
    page.click("#players-4")
    seats = ["easy", "medium", "random", "greedy"]
    for seat, name in enumerate(seats):
        page.select_option(f"#seat-{seat}", name)
    page.select_option("#setup-pace", "0")
    page.fill("#setup-seed", "5")
    page.click("#setup-form button[type=submit]")
    page.wait_for_selector('[data-winner]:not([data-winner=""])', timeout=180_000)
    state = new_game(4, seed=5)
    bots = [make_bot(name, 5 * 100 + seat) for seat, name in enumerate(seats)]
    moves = []
    while not state.is_over:
        move = decide(bots[state.turn], state)
        moves.append(str(move))
        state = apply(state, move)
    assert history(page) == moves  # each bot chose as Python's of its name and seed
    assert data(page, "winner") == str(state.winner)
    assert data(page, "ply") == str(state.ply)
    assert page.is_visible("#winner-banner")
    page.wait_for_selector("#summary tr[data-seat]")
    assert page.get_attribute("#summary", "data-winner") == str(state.winner)
    assert f"{state.ply} turns" in page.inner_text("#summary-line")
    counts = counted(record_of(new_game(4, seed=5), moves))
    for seat in range(4):
        row = f'#summary tr[data-seat="{seat}"]'
        for key in ("played", "knocked_back", "knocked", "home"):
            shown = page.inner_text(f'{row} td[data-key="{key}"]')
            assert shown == str(counts[seat][key]), (seat, key)
    assert page.is_visible("#summary-again")
    assert page.evaluate("document.activeElement.id") == "summary" and in_view(page, "#summary")
    for width in (320, 390, 761, 1280):  # every column and the caption shown
        page.set_viewport_size({"width": width, "height": 900})
        fits = page.eval_on_selector(
            "#summary",
            """box => { const table = box.querySelector(".summary-table");
                return table.scrollWidth <= table.clientWidth
                    && box.querySelector("table").getBoundingClientRect().right
                       <= box.getBoundingClientRect().right; }""",
        )
        assert fits, width
    page.set_viewport_size(DESKTOP)  # type: ignore[arg-type]
    with page.expect_download() as saved:
        page.click("#summary-download")
    record = json.loads(Path(saved.value.path()).read_text(encoding="utf-8"))
    assert record["type"] == "record" and record["moves"] == moves
    assert serious_violations(page) == []
    shot(page, "4-game-over")
    page.click("#summary-replay")  # the game just played, in the record viewer
    page.wait_for_selector(f'[data-replay-end="{state.ply}"]')
    idle(page)
    assert data(page, "replay-ply") == "0"
    page.click('[data-replay="last"]')
    page.wait_for_selector(f'[data-replay-ply="{state.ply}"]')
    assert board_title(page) == title_of(state)


def test_rules_lawyer_lists_the_legal_moves_of_the_spec_cases(page: Page, site: str) -> None:
    goto(page, site)
    page.click("#lawyer-button")
    idle(page)
    cases = [c for c in load_cases() if "legal" in c["expect"]]
    assert len(cases) >= 20
    # every fourth (in the order of the files): the suite checks the TypeScript engine on all
    # (pegs_rules.spec check --engine "node js/dist/bin/protocol.js", in the test command)
    for case in cases[::4]:
        study(page, position_of(case))
        got = listed(page)
        assert sorted(got) == sorted(case["expect"]["legal"]), case["id"]
        assert got == [str(m) for m in legal_moves(parse_position(position_of(case)))]
    shot(page, "5-lawyer-position")


def test_an_illegal_move_shows_its_ruling_linked_to_the_docs(page: Page, site: str) -> None:
    cases = [c for c in load_cases() if "illegal" in c["expect"]]
    first = cases[0]
    query = urllib.parse.urlencode({"position": position_of(first), "move": first["move"]})
    goto(page, site, "?" + query)
    rule = first["expect"]["illegal"]
    assert page.get_attribute("#verdict", "data-verdict") == "illegal"
    assert page.get_attribute("#verdict", "data-rule") == rule
    link = page.get_attribute(f'#verdict a[data-ruling="{rule}"]', "href") or ""
    assert link == f"{site}rules/{rule}.html#{rule}"  # the playground's own page of it
    ruling = page.request.get(link)
    assert ruling.ok and f'id="{rule}"' in ruling.text()
    shot(page, "6-lawyer-illegal")
    for case in cases[1::5]:  # a spread over every file; the bridge's tests check them all
        study(page, position_of(case))
        page.fill("#move-input", case["move"])
        page.click("#move-submit")
        idle(page)
        assert page.get_attribute("#verdict", "data-rule") == case["expect"]["illegal"], case["id"]
    page.goto(link)  # the ruling's page, as a link opens it
    assert page.inner_text("h1") == f"Ruling {rule}"
    assert serious_violations(page) == []


def test_a_split_is_chosen_part_by_part_and_its_events_stepped_through(
    page: Page, site: str
) -> None:
    goto(page, site, "?" + urllib.parse.urlencode({"position": SPLIT}))
    page.click('circle.peg[data-seat="0"][data-loc="30"]')
    # The focus is on the first hole the peg can go to; the arrow keys go round them all, in
    # the order of the holes, and the peg chosen (which puts it back), clockwise from hole 0.
    firsts = {
        m.steps[0].dst
        for m in legal_moves(parse_position(SPLIT))
        if isinstance(m, Play) and m.steps[0][:2] == (0, 30)
    }
    order = ["selected|0|30"] + [f"target|0|{hole}" for hole in sorted(firsts)]
    assert page.evaluate(FOCUSED) == order[1]
    visited = []
    for _ in order:
        page.keyboard.press("ArrowRight")
        visited.append(page.evaluate(FOCUSED))
    assert visited == order[2:] + order[:2]
    page.click('[data-pick^="target"][data-loc="33"]', force=True)  # knocks seat 2's peg to 39
    shot(page, "7-split-half-chosen")
    page.click('[data-pick="source|2|39"]', force=True)
    page.click('[data-pick^="target"][data-loc="43"]', force=True)
    idle(page)
    assert page.get_attribute("#verdict", "data-verdict") == "legal"
    assert page.inner_text("#verdict .verdict-head") == "7 0:30-33 2:39-43: legal"
    captions = [page.inner_text("#frame-caption")]
    while page.is_enabled("#frame-next"):
        page.click("#frame-next")
        captions.append(page.inner_text("#frame-caption"))
        if "knocked" in captions[-1]:
            shot(page, "8-lawyer-stepping")
    assert captions[2] == "Board 3 of 5: seat 2's peg is knocked from 33 to its in-spot 39"
    assert captions[-1] == "Board 5 of 5: after"


def test_keyboard_alone_plays_a_move_with_visible_focus(page: Page, site: str) -> None:
    goto(page, site, HUMAN_SEAT_2)
    # The person's turn puts the focus on their first movable peg, clockwise from hole 0; the
    # arrow keys go round the pegs that can move, and only one of them is a Tab stop.
    assert page.evaluate(FOCUSED) == "source|0|s"
    visited = []
    for key in ("ArrowRight", "ArrowRight", "ArrowLeft", "ArrowDown", "ArrowUp"):
        page.keyboard.press(key)
        visited.append(page.evaluate(FOCUSED))
    assert visited == ["source|2|s", "source|0|s", "source|2|s", "source|0|s", "source|2|s"]
    page.keyboard.press("Shift+Tab")
    assert page.evaluate(FOCUSED) == "replay-button", "the control before the board"
    page.keyboard.press("Tab")
    assert page.evaluate(FOCUSED) == "source|2|s", "the board's Tab stop is the peg last visited"
    page.keyboard.press("ArrowRight")
    focused, other = page.evaluate(PEG_STROKES)
    # The movable pegs are ringed in black (3.5 px); the focused one is outlined in blue, thicker.
    assert focused == ["rgb(10, 88, 202)", "6px"] and other != focused
    page.keyboard.press("Enter")  # the peg: focus moves to its only destination
    assert page.evaluate("document.activeElement.dataset.pick") == "target|0|8"
    page.keyboard.press(" ")
    wait_for_turn(page, 0)
    assert history(page)[0] == "K 0:s-8"
    assert page.evaluate(FOCUSED).startswith("source|"), "the next turn waits on a peg again"
    # The list of moves is reached with Tab and played with Enter.
    for _ in range(100):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.dataset.move !== undefined"):
            break
    chosen = page.evaluate("document.activeElement.dataset.move")
    ply = int(data(page, "ply"))
    page.keyboard.press("Enter")
    wait_for_turn(page, ply)
    assert history(page)[ply] == chosen
    assert page.get_attribute("#announce", "aria-live") == "polite"
    assert "Your turn, seat 2" in page.inner_text("#announce")


def test_keyboard_alone_plays_a_whole_game_and_the_focus_is_always_somewhere_seen(
    page: Page, site: str
) -> None:
    """From the home screen, Tab to "Play" and Enter; then every turn of the person's seat is
    played with Enter alone (the peg the turn focuses, the hole, the choice offered) or, when no
    peg can move, Tab to the list of moves: to the end of the game, which the engine agrees on.
    The focus is never left on the page itself, and is always drawn."""
    goto(page, site)
    setup = {"players": 4, "preset": "arizona", "rules": {}, "pace": 0,
             "seats": ["greedy", "greedy", "human", "greedy"]}  # fmt: skip
    page.evaluate("s => localStorage.setItem('pegs-playground.setup', JSON.stringify(s))", setup)
    goto(page, site)
    page.evaluate(FOCUS_WATCH)
    for _ in range(20):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "play-button":
            break
    page.keyboard.press("Enter")
    page.wait_for_selector('[data-turn="2"]')
    pressed = 0
    while not data(page, "winner"):
        ply = int(data(page, "ply"))
        assert page.evaluate("document.activeElement.matches(':focus-visible')"), ply
        if page.evaluate("document.activeElement.id === 'board'"):  # no peg can move
            outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
            assert outline == "solid", "the board is outlined"
        for _ in range(40):
            now, acts = page.evaluate(KEY_TO_PRESS)
            if now > ply:
                break
            page.keyboard.press("Enter" if acts else "Tab")
            pressed += 1
        else:
            pytest.fail(f"no move made at ply {ply} by 40 keys")
        page.wait_for_function(  # the bots' turns, then seat 2 again, or the end
            "ply => Number(document.querySelector('[data-ply]').dataset.ply) > ply"
            " && (document.querySelector('[data-move]') !== null"
            " || document.querySelector('[data-winner]').dataset.winner !== '')",
            arg=ply,
        )
    state = new_game(4, seed=started_seed(page))
    for text in history(page):
        state = apply(state, parse_notation(text))  # each move legal, in the engine too
    assert state.is_over and data(page, "winner") == str(state.winner)
    assert page.evaluate("window.lostFocus") == [], "the focus left on the page"
    print(f"a whole game by keyboard: {state.ply} plies, {pressed} keys")


def test_bad_input_gets_a_clear_message_and_the_page_goes_on(page: Page, site: str) -> None:
    goto(page, site, HUMAN_SEAT_2)
    page.fill("#move-input", "jump over the moon")
    page.press("#move-input", "Enter")
    idle(page)
    assert "no card" in page.inner_text("#message") or "not" in page.inner_text("#message")
    page.fill("#move-input", "K 2:s-45")
    page.press("#move-input", "Enter")
    idle(page)
    assert page.get_attribute("#message", "data-rule") == "card.come-out"
    assert page.get_attribute("#message a", "href", timeout=1000)
    page.click("#lawyer-button")
    idle(page)
    study(page, "hello world")
    assert "This position cannot be read: line 1" in page.inner_text("#message")
    page.evaluate(PASTE, ["pegs 0: 5\n", 1_000_000])  # 10 MB
    assert "10,000,000 characters long" in page.inner_text("#message")
    assert page.input_value("[data-position-input]") == "hello world"  # the box kept its text
    study(page, '{"format": 1, "type": "state", "pegs": 7}')
    assert "This position cannot be read" in page.inner_text("#message")
    study(page, SPLIT)
    assert page.is_hidden("#message")
    assert len(listed(page)) == len(legal_moves(parse_position(SPLIT)))
    page.fill("#move-input", "7 0:30-99")
    page.click("#move-submit")
    idle(page)
    assert page.get_attribute("#verdict", "data-verdict") == "illegal"


def test_a_phone_sized_screen_shows_everything_in_one_column(
    page: Page, site: str, records: str
) -> None:
    page.set_viewport_size(PHONE)  # type: ignore[arg-type]
    try:
        goto(page, site, HUMAN_SEAT_2)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], "nothing runs off the side"
        board = page.locator("#board svg").bounding_box()
        moves = page.locator("#moves").bounding_box()
        assert board is not None and moves is not None
        assert board["width"] >= 0.9 * (PHONE["width"] - 40) and moves["y"] > board["y"]
        # A finger: every peg that can move, then every hole the chosen one can go to, can be
        # tapped within 12 CSS pixels of its centre (a 24 by 24 target), though the holes are
        # drawn 6 pixels wide; a tap 10 pixels off a peg's centre picks it.
        assert min(tap_targets(page)) >= 24
        peg = page.locator('circle.peg[data-pick="source|2|s"]').bounding_box()
        assert peg is not None and peg["width"] < 24
        page.mouse.click(peg["x"] + peg["width"] / 2 + 10, peg["y"] + peg["height"] / 2)
        page.wait_for_selector('[data-pick="target|2|44"]')
        hole = page.locator('[data-pick="target|2|44"]').bounding_box()
        assert hole is not None and hole["width"] < 12 and min(tap_targets(page)) >= 24
        page.mouse.click(hole["x"] + hole["width"] / 2, hole["y"] + hole["height"] / 2 - 10)
        wait_for_turn(page, 0)
        assert history(page)[0] == "K 2:s-44"
        shot(page, "9-phone-game")
        assert serious_violations(page) == []
        page.click("#lawyer-button")
        idle(page)
        shot(page, "10-phone-lawyer")
        goto(page, site)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        # Nothing moved while the engine started (here from its snapshot).
        seen = page.evaluate("window.headerSeen")
        assert len({(s["header"], s["play"]) for s in seen}) == 1, seen
        assert not any(s["clipped"] for s in seen)
        shot(page, "11-phone-home")
        goto(page, site, f"?record={records}eight.json&ply=120")
        page.wait_for_selector('[data-replay-ply="120"]')
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        assert all(in_view(page, f'[data-replay="{step}"]') for step in STEPS)
        shot(page, "12-phone-viewer")
    finally:
        page.set_viewport_size(DESKTOP)  # type: ignore[arg-type]


PICKABLES = """() => [...document.querySelectorAll("#board [data-pick]")].map((e) => {
    const r = e.getBoundingClientRect();
    return [e.dataset.pick, r.x + r.width / 2, r.y + r.height / 2];
})"""
"""Each pickable of the board, with its centre on the screen."""


def closest_pickables(page: Page) -> float:
    """The smallest distance, in CSS pixels, between the centres of two pickables."""
    centres = [(x, y) for _, x, y in page.evaluate(PICKABLES)]
    return min(math.dist(a, b) for a, b in itertools.combinations(centres, 2))


def test_a_phone_plays_six_and_eight_players_with_a_finger_and_shows_no_keys(
    browser: Browser, site: str, records: str
) -> None:
    """On a touch phone the board of 6 or 8 players is zoomed to the person's pegs: every peg
    and hole they can pick is a tap target 24 px wide, 24 px from the next; the set-up's boxes
    are 24 px high; keyboard help is left out."""
    context = browser.new_context(
        viewport=PHONE,  # type: ignore[arg-type]
        reduced_motion="reduce",
        has_touch=True,
        is_mobile=True,
        service_workers="block",
    )
    try:
        page = context.new_page()
        page.set_default_timeout(30_000)
        goto(page, site)
        page.click("#new-game-button")
        page.click("#setup-form details summary")  # the house rules' switches too
        boxes = page.eval_on_selector_all(
            "#setup-form input[type=radio], #setup-form input[type=checkbox], #setup-form select",
            "els => els.map(e => e.getBoundingClientRect().height)",
        )
        assert len(boxes) > 10 and min(boxes) >= 24, boxes
        for players in (6, 8):
            seats = ",".join(["human"] + ["greedy"] * (players - 1))
            goto(page, site, f"?players={players}&seed=4&seats={seats}&delay=0")
            page.wait_for_selector("[data-move]")
            assert "arrow keys" not in page.inner_text("#moves-note")
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
            assert closest_pickables(page) >= 24 and min(tap_targets(page)) >= 24
            ply = int(data(page, "ply"))
            state = new_game(players, seed=4)
            for text in history(page):
                state = apply(state, parse_notation(text))
            peg = page.evaluate(PICKABLES)[0][0]  # source|seat|loc
            page.tap(f'[data-pick="{peg}"]')
            page.wait_for_selector('[data-pick^="target"]')
            if len(page.evaluate(PICKABLES)) > 2:  # the peg and more than one hole
                assert closest_pickables(page) >= 24 and min(tap_targets(page)) >= 24
            assert "Escape" not in page.inner_text("#announce")
            shot(page, f"19-phone-{players}-players", full_page=False)  # the board's window
            page.tap('[data-pick^="target"]')
            if page.is_visible("#choice"):
                page.tap("#choice button")
            page.wait_for_function(
                "ply => Number(document.querySelector('[data-ply]').dataset.ply) > ply", arg=ply
            )
            played = parse_notation(history(page)[ply])
            assert played in legal_moves(state)
            _, seat, loc = peg.split("|")  # the peg tapped moved
            assert str(played).split()[1].startswith(f"{seat}:{loc}-"), played
        goto(page, site, f"?record={records}eight.json&ply=5")
        page.wait_for_selector('[data-replay-ply="5"]')
        assert page.is_hidden(".replay-keys")
    finally:
        context.close()


def test_a_move_is_watched_peg_by_peg_and_ends_on_the_engines_board(
    page: Page, site: str, records: str, eight_player_game: GameRecord
) -> None:
    record = eight_player_game
    ply, events = next(  # a split whose first part knocks a peg back, both parts on the track
        (ply, events)
        for ply, events in enumerate(move_events(record))
        if len([e for e in events if isinstance(e, PegMoved)]) == 2
        and any(isinstance(e, PegDisplaced) for e in events)
        and all(is_track(e.src) and is_track(e.dst) for e in events if isinstance(e, PegMoved))
    )
    goto(page, site, f"?record={records}eight.json&ply={ply}")
    page.wait_for_selector(f'[data-replay-ply="{ply}"]')
    holes = page.evaluate(HOLES)
    page.evaluate(f"localStorage.setItem('{SPEED}', JSON.stringify('fast'))")
    page.emulate_media(reduced_motion="no-preference")
    try:
        page.evaluate(WATCH)
        started = time.monotonic()
        page.click('[data-replay="next"]')
        page.wait_for_selector(f'[data-replay-ply="{ply + 1}"]')
        idle(page)
        took = time.monotonic() - started
        seen = page.evaluate("window.watched")
        shot(page, "13-animated-move-marked")
    finally:
        page.emulate_media(reduced_motion="reduce")
    assert seen["before"] == seen["after"], "the pegs end where the engine's board has them"
    assert board_title(page) == title_of(position_at(record, ply + 1))
    pegs = [e for e in events if isinstance(e, (PegMoved, PegDisplaced))]
    runs = [seat for seat, _ in itertools.groupby(sample[0] for sample in seen["moves"])]
    assert runs == [str(e.seat) for e in pegs], "each peg in turn, in the events' order"
    length = len(holes["track"])
    for event in pegs:  # each slides along its path, hole by hole, in order
        trail = [where(holes, x, y) for seat, x, y in seen["moves"] if seat == str(event.seat)]
        passed = [name for name, _ in itertools.groupby(trail) if name is not None]
        if isinstance(event, PegMoved):
            path = track_path(event.src, event.dst, length)
            assert is_subsequence(passed, path) and passed[-1] == path[-1], (passed, path)
            assert len(passed) > len(path) // 2, (passed, path)
        else:  # a knocked peg goes straight back to its in-spot or its start
            assert passed[-1] == (str(event.dst) if event.dst != START else f"{event.seat}:s")
    steps = sum(len(track_path(e.src, e.dst, length)) - 1 for e in pegs if isinstance(e, PegMoved))
    assert took >= 0.8 * steps * 0.055, "at the person's speed: 55 ms a hole"
    marks = page.evaluate(
        "[...document.querySelectorAll('#board .last-move .ring.went-to, #board .last-move .knocked-from')]"
        ".map(e => e.getAttribute('class'))"
    )
    moved = sum(isinstance(e, PegMoved) for e in events)
    assert marks.count("ring went-to") == moved and marks.count("knocked-from") == len(pegs) - moved
    # The paths of the other kinds of step, as the rules' geometry gives them (board.geometry).
    paths = page.evaluate(PATHS)
    assert paths == [
        ["70", "71", "0", "1", "2", "3", "h1", "h2"],  # 7 0:70-h2: round the corner, in at 3
        ["21", "h1", "h2", "h3"],  # seat 1 from its in-spot into home
        ["h1", "h2", "h3"],  # within home
        ["10", "9", "8", "7", "6", "5", "4", "3", "2"],  # an 8 goes back
        ["1", "0", "71", "70"],  # the backward part of a 9 split
        ["s", "8"],  # out of the start area: straight
        ["30", "60"],  # a joker: straight
        ["30", "33"],  # one of a 2's swapped pegs: straight
    ]
    # Under reduced motion (the page's setting here) nothing moves: the next board is shown.
    page.evaluate(WATCH)
    page.click('[data-replay="prev"]')
    page.click('[data-replay="next"]')
    page.wait_for_selector(f'[data-replay-ply="{ply + 1}"]')
    idle(page)
    assert page.evaluate("window.watched.moves") == []
    assert page.is_disabled("#move-speed")


def test_a_recorded_eight_player_game_replays_to_the_end(
    page: Page, site: str, records: str, eight_player_game: GameRecord
) -> None:
    record = eight_player_game
    final = replay(record)
    page.set_viewport_size(SMALL_DESKTOP)  # type: ignore[arg-type]
    try:
        goto(page, site, f"?record={records}eight.json&delay=0")
        assert all(in_view(page, f'[data-replay="{step}"]') for step in STEPS), "above the board"
        end = len(record.moves)
        assert (data(page, "replay-end"), data(page, "replay-ply")) == (str(end), "0")
        assert page.inner_text("#replay-title-line").startswith("An 8-player game, arizona rules")
        assert page.inner_text("#replay-move-title").startswith("The deal")
        page.click('[data-replay="next"]')
        page.wait_for_selector('[data-replay-ply="1"]')
        assert page.inner_text("#replay-move-title").endswith(f"played {record.moves[0]}")
        page.click('[data-replay="last"]')
        page.wait_for_selector(f'[data-replay-ply="{end}"]')
        page.click('[data-replay="prev"]')
        page.wait_for_selector(f'[data-replay-ply="{end - 1}"]')
        page.click('[data-replay="first"]')
        page.wait_for_selector('[data-replay-ply="0"]')
        page.locator("#replay-slider").fill("200")
        page.wait_for_selector('[data-replay-ply="200"]')
        idle(page)
        # The lawyer mode at that ply: every legal move, the record's next one marked, and any
        # move typed explained there, the verdict brought into view.
        state = position_at(record, 200)
        assert listed(page) == [str(m) for m in legal_moves(state)]
        assert page.get_attribute(".moves button.marked", "data-move") == record.moves[200]
        assert board_title(page) == title_of(state)
        wrong = unheld_come_out(state)
        page.fill("#move-input", wrong)
        page.click("#move-submit")
        idle(page)
        verdict = explain(state, parse_notation(wrong))
        assert page.get_attribute("#verdict", "data-rule") == verdict.rule
        assert page.evaluate("document.activeElement.id") == "verdict"
        assert in_view(page, "#verdict")
        shot(page, "19-viewer-verdict-in-view")
    finally:
        page.set_viewport_size(DESKTOP)  # type: ignore[arg-type]
    assert serious_violations(page) == []
    # The keys: → and ← a ply, End and Home to the ends (instead of scrolling the page: their
    # default is prevented); each step is read out.
    page.evaluate(
        """() => { window.prevented = [];
            addEventListener("keydown", (e) => window.prevented.push(e.defaultPrevented)); }"""
    )
    for key, ply in (("ArrowRight", 201), ("ArrowLeft", 200), ("End", end), ("Home", 0)):
        page.keyboard.press(key)
        page.wait_for_selector(f'[data-replay-ply="{ply}"]')
        idle(page)
    assert page.evaluate("window.prevented") == [True] * 4
    assert page.inner_text("#announce") == f"Ply 0 of {end}: the deal."
    page.focus("#move-input")  # keys typed into a field stay there
    page.keyboard.press("End")
    page.keyboard.press("ArrowRight")
    idle(page)
    assert data(page, "replay-ply") == "0"
    assert page.get_attribute('[data-replay="next"]', "aria-keyshortcuts") == "ArrowRight"
    page.click('[data-replay="next"]')
    page.wait_for_selector('[data-replay-ply="1"]')
    # Autoplay, ply by ply, to the end (the last 30 plies: every ply is one the engine replayed
    # when the record opened, and the steps above showed single plies).
    page.locator("#replay-slider").fill(str(end - 30))
    page.wait_for_selector(f'[data-replay-ply="{end - 30}"]')
    page.click("#autoplay")
    page.wait_for_selector(f'[data-replay-ply="{end}"]', timeout=120_000)
    idle(page)
    assert data(page, "winner") == str(final.winner) and data(page, "ply") == str(final.ply)
    assert board_title(page) == title_of(final)
    counts = counted(record)
    for seat in range(8):
        for key in ("played", "knocked_back", "knocked", "home"):
            shown = page.inner_text(f'#summary tr[data-seat="{seat}"] td[data-key="{key}"]')
            assert shown == str(counts[seat][key]), (seat, key)
    shot(page, "15-viewer-end")
    # Dark when the system is: the page, not the board's own paper.
    page.emulate_media(color_scheme="dark")
    try:
        colours = page.evaluate(
            """() => [document.documentElement, document.querySelector("#board")]
                .map((e) => getComputedStyle(e).backgroundColor)"""
        )
        assert colours == ["rgb(13, 17, 23)", "rgb(255, 255, 255)"]
        page.hover('[data-screen-button="replay"]')  # the pressed mode, under the pointer
        shot(page, "21-dark-viewer-summary")
        assert serious_violations(page) == []
    finally:
        page.emulate_media(color_scheme="light")


def test_a_record_opens_from_a_file_a_drop_or_the_address_and_an_illegal_move_stops_it(
    page: Page, site: str
) -> None:
    record = bots_game(4, seed=3)
    state = position_at(record, 9)
    wrong = unheld_come_out(state)
    broken = replace(record, moves=(*record.moves[:9], wrong, *record.moves[10:]))
    with pytest.raises(ReplayError) as refused:
        replay(broken)
    short = replace(record, moves=record.moves[:12])
    goto(page, site, "?" + urllib.parse.urlencode({"record": to_json(short)}))  # inline JSON
    assert data(page, "replay-end") == "12" and page.is_hidden("#replay-stopped")
    chosen: FilePayload = {
        "name": "broken.json",
        "mimeType": "application/json",
        "buffer": to_json(broken).encode(),
    }
    page.set_input_files("#record-file", files=[chosen])  # the file picker
    page.wait_for_selector('[data-replay-end="9"]')
    idle(page)
    assert refused.value.turn == 10
    assert page.get_attribute("#replay-stopped", "data-rule") == refused.value.rule
    page.click('[data-replay="last"]')
    page.wait_for_selector('[data-replay-ply="9"]')
    assert page.inner_text("#replay-next").startswith(f"Next in the record: move 10, {wrong}")
    shot(page, "16-viewer-stopped")
    page.evaluate(DROP, [to_json(record), "game.json"])  # dropped anywhere on the page
    page.wait_for_selector(f'[data-replay-end="{len(record.moves)}"]')
    assert page.is_hidden("#replay-stopped")
    page.evaluate(DROP, ['{"format": 1, "type": "state"}', "not-a-record.json"])
    page.wait_for_selector("#message:not([hidden])")
    assert page.inner_text("#message").startswith("This record cannot be opened")
    nothing_left_to_click(page)


SEARCHING_SEATS = "?players=4&seed=4&seats=expert:30,greedy,human,hard:20&delay=0"
"""HUMAN_SEAT_2 with searching bots (30 and 20 playouts a move) at seats 0 and 3."""
HINT_SHOWN = """() => {
    const hint = document.querySelector("#hint");
    new MutationObserver(() => {
        if (hint.dataset.hint && !window.hintShown) window.hintShown = performance.now();
    }).observe(hint, { attributes: true });
}"""
"""Note the page's clock when the hint's move first shows."""


def uncapped(name: str, seed: int) -> Bot:
    """This library's bot ``name``, with no cap on its thinking time: its choice then depends
    on its budget of playouts alone, as the page's does when that budget fits in the cap."""
    bot = make_bot(name, seed)
    assert isinstance(bot, MctsBot | ExpertBot)
    bot.max_seconds = 600.0
    return bot


def test_the_hint_and_every_bot_level_run_in_the_pages_worker_with_no_python(
    browser: Browser, site: str, eight_player_game: GameRecord
) -> None:
    """The hint and the searching bots are the TypeScript engine's, in the page's worker: the
    board is playable before the worker has started, the hint waits for it saying so, then
    comes within a second; the bots and the hint choose as this library's of the same names
    and seeds; nothing of Python is requested."""
    context = browser.new_context(
        viewport=DESKTOP,  # type: ignore[arg-type]
        reduced_motion="reduce",
        service_workers="block",  # so that the test can hold the worker's script
    )
    requested: list[str] = []
    errors: list[str] = []
    context.on("request", lambda request: requested.append(request.url))
    held: list[Any] = []
    try:
        context.route("**/js/search-worker.js", lambda route: held.append(route))
        page = context.new_page()
        page.set_default_timeout(30_000)
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.add_init_script(f"document.addEventListener('DOMContentLoaded', {HINT_SHOWN})")
        page.goto(site + SEARCHING_SEATS)
        idle(page)
        state = new_game(4, seed=4)
        assert listed(page) == [str(m) for m in legal_moves(state)], "playable at once"
        page.click("#hint-button")
        assert page.inner_text("#hint") == "Thinking…"
        assert page.get_attribute("#hint", "data-hint") is None
        shot(page, "17-game-hint-thinking")
        assert serious_violations(page) == [], "the hint's waiting state, light"
        page.emulate_media(color_scheme="dark")
        assert serious_violations(page) == [], "the hint's waiting state, dark"
        page.emulate_media(color_scheme="light")
        while not held:
            page.wait_for_timeout(20)
        released = page.evaluate("performance.now()")
        held[0].continue_()
        context.unroute("**/js/search-worker.js")
        page.wait_for_selector("#hint[data-hint]")
        waited = page.evaluate("window.hintShown") - released
        assert waited < 1000, f"the hint came {waited:.0f} ms after its worker's script"
        # The expert's move seeded from the position (seed 4 + ply 0), seeing seat 2's view.
        expected = str(decide(uncapped(HINT_BOT, 4), state))
        assert page.get_attribute("#hint", "data-hint") == expected
        assert f"the {HINT_BOT} bot, seeing only seat 2's cards" in page.inner_text("#hint")
        assert page.get_attribute(".moves button.marked", "data-move") == expected
        assert page.locator("#board .move-arrow").count() == 1  # the move drawn on the board
        assert listed(page) == [str(m) for m in legal_moves(state)]  # still the person's choice
        assert page.evaluate("document.activeElement.id") == "hint" and in_view(page, "#hint")
        shot(page, "17-game-hint")
        assert serious_violations(page) == []
        page.click("#hint-play")
        wait_for_turn(page, 0)
        # The searching bots chose as this library's of their names and seeds, so did greedy.
        seats = {0: "expert:30", 1: "greedy", 3: "hard:20"}
        bots = {
            seat: uncapped(n, 400 + seat) if ":" in n else make_bot(n, 400 + seat)
            for seat, n in seats.items()
        }
        moves = [expected]
        state = apply(state, parse_notation(expected))
        while state.turn != 2:
            move = decide(bots[state.turn], state)
            moves.append(str(move))
            state = apply(state, move)
        assert history(page) == moves
        # Rules-lawyer mode shows its own position, nothing of the game's: no last move.
        assert page.is_visible("#last-move") and page.locator("#board .last-move *").count()
        page.click("#lawyer-button")
        idle(page)
        position = parse_position(page.input_value("[data-position-input]"))
        assert board_title(page) == title_of(position) and data(page, "ply") == str(position.ply)
        assert listed(page) == [str(m) for m in legal_moves(position)]
        assert page.is_hidden("#last-move") and page.is_hidden("#events")
        assert page.locator("#board .last-move *").count() == 0
        # The viewer's hint at a ply of a record: the expert's move for the seat to act there.
        page.evaluate(DROP, [to_json(eight_player_game), "eight.json"])
        page.wait_for_selector(f'[data-replay-end="{len(eight_player_game.moves)}"]')
        page.locator("#replay-slider").fill("200")
        page.wait_for_selector('[data-replay-ply="200"]')
        idle(page)
        state = position_at(eight_player_game, 200)
        page.click("#hint-button")
        page.wait_for_selector("#hint[data-hint]")
        hint = str(decide(uncapped(HINT_BOT, state.seed + state.ply), state))
        assert page.get_attribute("#hint", "data-hint") == hint
        assert f"seeing only seat {state.turn}'s cards" in page.inner_text("#hint")
        shot(page, "14-viewer-hint")
        python = [url for url in requested if re.search(r"pyodide|\.whl|python", url, re.I)]
        assert python == [] and errors == []
    finally:
        context.close()


def test_every_screen_passes_the_accessibility_check_and_names_pegs_and_moves(
    page: Page, site: str, records: str
) -> None:
    goto(page, site)
    assert serious_violations(page) == []
    goto(page, site, HUMAN_SEAT_2)
    pegs = page.eval_on_selector_all(
        "#board circle.peg",
        "els => els.map(e => [e.getAttribute('role'), e.getAttribute('aria-label')])",
    )
    assert len(pegs) == 20 and all(role in ("img", "button") and label for role, label in pegs)
    assert ["img", "seat 1's peg, team 1, in its start area"] in pegs
    named = page.eval_on_selector_all(
        "[data-move]", "els => els.map(e => e.getAttribute('aria-label'))"
    )
    assert named == [
        "K 0:s-8: K: seat 0's peg from start to hole 8",
        "K 2:s-44: K: seat 2's peg from start to hole 44",
    ]
    page.click('circle.peg[data-seat="0"][data-pick^="source"]')
    assert serious_violations(page) == []
    goto(page, site, "?" + urllib.parse.urlencode({"position": SPLIT, "move": "7 0:30-33 2:39-43"}))
    assert serious_violations(page) == []
    goto(page, site, f"?record={records}eight.json&ply=50")
    page.wait_for_selector('[data-replay-ply="50"]')
    page.hover('[data-screen-button="replay"]')  # the pressed mode, under the pointer
    assert serious_violations(page) == []


def test_an_answer_comes_into_view_and_takes_the_focus(page: Page, site: str) -> None:
    page.set_viewport_size(SMALL_DESKTOP)  # type: ignore[arg-type]
    try:
        # Rules-lawyer mode: the verdict on a move picked from the list, below the fold.
        goto(page, site, "?" + urllib.parse.urlencode({"position": SPLIT}))
        assert not in_view(page, "#move-form")
        page.click('[data-move="7 0:30-33 2:39-43"]')
        idle(page)
        assert page.get_attribute("#verdict", "data-verdict") == "legal"
        assert page.evaluate("document.activeElement.id") == "verdict"
        assert in_view(page, "#verdict")
        # The move's steps, above the board beside the verdict, in view too: and stay there.
        assert in_view(page, ".frame-buttons") and in_view(page, "#frame-caption")
        page.click("#frame-next")
        assert in_view(page, ".frame-buttons") and in_view(page, "#board svg")
        shot(page, "18-lawyer-verdict-in-view", full_page=False)
        # A phone: the steps and the board, scrolled to.
        page.set_viewport_size(PHONE)  # type: ignore[arg-type]
        goto(page, site, "?" + urllib.parse.urlencode({"position": SPLIT}))
        page.click('[data-move="7 0:30-33 2:39-43"]')
        idle(page)
        assert in_view(page, ".frame-buttons") and in_view(page, "#frame-caption")
        assert in_view(page, "#board svg")
        shot(page, "18-phone-lawyer-steps-in-view", full_page=False)
        page.set_viewport_size(SMALL_DESKTOP)  # type: ignore[arg-type]
        # An error is brought into view and read out (an alert), the focus left in the field.
        page.evaluate("scrollTo(0, 0)")
        page.fill("#move-input", "jump over the moon")
        page.press("#move-input", "Enter")
        idle(page)
        assert page.get_attribute("#message", "role") == "alert" and in_view(page, "#message")
        assert page.evaluate("document.activeElement.id") == "move-input"
    finally:
        page.set_viewport_size(DESKTOP)  # type: ignore[arg-type]


def nothing_left_to_click(page: Page) -> None:
    """The record viewer with no record open (the last failed to open): nothing to step, pick,
    ask or hint on the first paint's board, only the way to open another."""
    page.wait_for_selector('body[data-record="none"]')
    idle(page)
    live = page.eval_on_selector_all(
        "#replay-controls button, #replay-controls input, #board [data-pick], "
        "#hint-button, #move-input, #move-submit, [data-move]",
        "els => els.filter(e => e.checkVisibility() && !e.disabled).map(e => e.outerHTML)",
    )
    assert live == []
    assert page.is_visible(".first-board") and page.is_visible("#record-file")
    assert page.is_hidden("#hands") and page.is_hidden("#summary")


def test_a_record_that_fails_to_open_leaves_nothing_to_click(
    tab: Tab, page: Page, site: str, records: str
) -> None:
    goto(page, site, f"?record={records}missing.json")  # (a file or a drop: the test above)
    tab.errors = [e for e in tab.errors if "404" not in e]  # the missing record's
    assert page.inner_text("#message").startswith(f"The record at {records}missing.json")
    nothing_left_to_click(page)
    shot(page, "20-viewer-failed-record")
    assert serious_violations(page) == []
    page.click("#replay-button")  # the viewer with no record offers only to open one
    nothing_left_to_click(page)
    assert page.evaluate("document.activeElement.id") == "record-file"


# --- the first visit, the service worker, a new build, the network cut off ---------------------


def check_the_header_said_what_happened(seen: list[dict[str, Any]], clicked: float) -> None:
    """The header, sampled at every change from the first paint until the game began
    (HEADER_WATCH), said what the engine was doing (loading, its bar moving, then ready),
    kept "Play"'s promise from its click until then, never moved "Play", never changed its
    height, never cut its sentence short."""
    loading = [s for s in seen if not s["ready"]]
    assert {s["sentence"].split("…")[0] for s in loading} == {"Loading the rules engine"}
    assert all(s["indeterminate"] for s in loading), "the bar moves: never one standing still"
    ready = next(s for s in seen if s["ready"])
    version = json.loads((ROOT / "js" / "package.json").read_text(encoding="utf-8"))["version"]
    assert ready["sentence"].startswith(f"Engine ready: pegs-rules {version} (TypeScript)")
    promised = [s["sentence"] for s in loading if s["t"] > clicked]
    assert promised and all(
        text.endswith("… Your game starts once the engine is ready.") for text in promised
    ), promised
    home = [s for s in seen if s["screen"] == "home"]
    assert {(s["header"], s["play"]) for s in home} == {(home[0]["header"], home[0]["play"])}
    assert not any(s["clipped"] for s in seen)


def test_the_first_visit_shows_a_board_and_the_next_are_instant_offline_and_up_to_date(
    browser: Browser, playground: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "site"
    build(folder)
    server = StaticServer(folder).__enter__()
    context = browser.new_context(viewport=DESKTOP, reduced_motion="reduce")  # type: ignore[arg-type]
    context.add_init_script(f"({HEADER_WATCH})()")
    held: list[Any] = []  # the engine arrives when the test lets it: a slow network
    try:
        context.route("**/js/pegs-rules.js", lambda route: held.append(route))
        page = context.new_page()
        page.set_default_timeout(30_000)
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        # The first paint: a board and the engine loading, and "Play" works at once.
        page.goto(server.url, wait_until="domcontentloaded")
        assert page.is_visible('.first-board[data-players="4"]')
        assert page.is_visible("#engine-progress")
        clicked = page.evaluate("performance.now()")
        page.click("#play-button")  # before the engine is here: the game starts once it is
        assert page.inner_text("#engine-status") == (
            "Loading the rules engine… Your game starts once the engine is ready."
        )
        shot(page, "0-first-paint")
        assert serious_violations(page) == [], "while loading"
        # Snapshots of Python that older builds kept, for this site and another.
        other = "http://127.0.0.1:1/elsewhere/"
        page.evaluate(OLD_SNAPSHOTS, [server.url, other])
        page.evaluate(OLD_FILE_SNAPSHOTS, [server.url, other])
        assert page.get_attribute("body", "data-engine") is None, "still loading"
        while not held:
            page.wait_for_timeout(20)
        held[0].continue_()
        context.unroute("**/js/pegs-rules.js")
        page.wait_for_selector('body[data-screen="game"] [data-turn]:not([data-turn=""])')
        assert page.inner_text("#table-facts").startswith("4 players")
        check_the_header_said_what_happened(page.evaluate("window.headerSeen"), clicked)
        fetched = page.evaluate("performance.getEntriesByType('resource').map((e) => e.name)")
        assert not [url for url in fetched if "pyodide/" in url or "wheels/" in url]
        page.wait_for_function("navigator.serviceWorker.controller !== null")
        assert page.evaluate(OLD_SNAPSHOTS_LEFT) == [other + "__engine/0123456789abcdef"]
        assert page.evaluate(OLD_FILE_SNAPSHOTS_LEFT) == [other]
        session = context.new_cdp_session(page)
        manifest = session.send("Page.getAppManifest")
        assert manifest["url"] == server.url + "manifest.webmanifest" and manifest["errors"] == []
        installable = session.send("Page.getInstallabilityErrors")["installabilityErrors"]
        # A test browser's profile is a private one, which never installs apps; nothing else stops it.
        assert [error["errorId"] for error in installable] in ([], ["in-incognito"])
        # The second visit: from the cache.
        page.goto(server.url + HUMAN_SEAT_2)
        page.wait_for_selector("[data-move]")
        cached = page.evaluate(
            "performance.getEntriesByType('resource').filter((e) => e.name.endsWith('.js'))"
            ".every((e) => e.workerStart > 0)"
        )
        assert cached, "every script through the service worker"
        page.goto(server.url + UNSEEDED)
        page.wait_for_selector("[data-move]")
        first_seed = started_seed(page)
        # A new build (another docs address) replaces the old on the next visit.
        old = json.loads((folder / "config.json").read_text(encoding="utf-8"))
        build(folder, docs_url="https://example.org/pegs/")
        new = json.loads((folder / "config.json").read_text(encoding="utf-8"))
        assert new["build"] != old["build"]
        page.goto(server.url)
        page.wait_for_selector(f'body[data-build="{new["build"]}"][data-engine="ready"]')
        caches = page.evaluate("caches.keys()")
        assert [name for name in caches if name.startswith("pegs-playground /")] == [
            f"pegs-playground / {new['build']}"
        ]
        # With the server gone and the network off, it all still works.
        server.stop()
        context.set_offline(True)
        page.goto(server.url + UNSEEDED)
        page.wait_for_selector("[data-move]")
        ply = int(data(page, "ply"))
        page.click("[data-move]")
        wait_for_turn(page, ply)
        assert started_seed(page) != first_seed, "each visit deals afresh"
        page.click("#lawyer-button")
        idle(page)
        position = page.input_value("[data-position-input]")
        assert listed(page) == [str(m) for m in legal_moves(parse_position(position))]
        config = page.evaluate("fetch('config.json').then((response) => response.json())")
        assert config["build"] == new["build"]
        assert [e for e in errors if "sw.js" not in e] == []
    finally:
        context.close()
        server.stop()
