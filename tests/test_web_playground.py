"""The browser playground in a real browser: the system Chromium, driven by Playwright.

The playground is built once per session (``pegs web build``, with ``npm ci`` first if
the Pyodide runtime is missing), served by ``python -m http.server`` on a free loopback
port, and driven through its documented contract: ``[data-move]`` buttons,
``[data-ply]``, ``[data-turn]``, ``[data-winner]``, ``[data-position-input]``,
``main[aria-busy]`` and the ``?players=``/``?position=`` addresses. Every expectation
is checked against the engine run here in CPython.

Screenshots of each screen are saved in ``test-artifacts/playground/`` to look at.
"""

from __future__ import annotations

import json
import re
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from browser import ARTIFACTS, CHROMIUM_ARGS, StaticServer, chromium, npm_ci, unavailable

from pegs_rules import apply, format_move, legal_moves, new_game, parse_notation, parse_position
from pegs_rules.bots import decide, make_bot
from pegs_rules.moves import Play
from pegs_rules.spec import load_cases
from pegs_rules.state import GameState
from pegs_rules.web.build import build

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

ROOT = Path(__file__).resolve().parents[1]
SHOTS = ARTIFACTS / "playground"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
LOAD_TIMEOUT = 90_000
"""Milliseconds for a cold load (Pyodide and the wheel) on a busy machine."""
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
HUMAN_SEAT_2 = "?players=4&seed=4&seats=greedy,greedy,human,greedy&delay=0"
"""Seed 4 deals seat 2 the first turn, with a K to come out with (see the test below)."""


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


@pytest.fixture(scope="session")
def browser(site: str) -> Iterator[Browser]:
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
    page = browser.new_page(viewport=DESKTOP)  # type: ignore[arg-type]
    page.set_default_timeout(30_000)
    yield Tab(page, site)
    page.close()


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


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


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


def test_the_page_loads_offline_and_offers_a_game(page: Page, site: str, playground: Path) -> None:
    goto(page, site)
    assert page.is_visible("#setup-form") and not page.is_visible("#table")
    assert page.locator("#setup-form select[id^=seat-]").count() == 4
    page.click("#players-8")
    assert page.locator("#setup-form select[id^=seat-]").count() == 8
    page.click("#players-4")
    page.click("details.house-rules summary")
    assert page.locator("[data-switch]").count() == 11
    shot(page, "1-setup")
    python = json.loads((playground / "pyodide" / "pyodide-lock.json").read_text())["info"][
        "python"
    ]
    required = re.search(
        r'requires-python = ">=(\d+)\.(\d+)"', (ROOT / "pyproject.toml").read_text()
    )
    assert required is not None
    assert tuple(map(int, python.split(".")[:2])) >= tuple(map(int, required.groups())), python
    config = json.loads((playground / "config.json").read_text(encoding="utf-8"))
    assert (
        config["pyodide_version"]
        == json.loads((ROOT / "package.json").read_text())["dependencies"]["pyodide"]
    )


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
    page.click('circle.peg[data-seat="0"][data-pick^="source"]')
    assert page.get_attribute('[data-pick^="target"]', "data-loc") == "8"
    shot(page, "2-game-peg-chosen")
    page.click('[data-pick^="target"]', force=True)
    wait_for_turn(page, 0)
    assert history(page)[0] == "K 0:s-8"
    state = replayed(4, history(page))
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


def test_a_game_between_bots_ends_with_the_winner_the_engine_finds(page: Page, site: str) -> None:
    goto(page, site)
    for seat in range(4):
        page.select_option(f"#seat-{seat}", "greedy")
    page.select_option("#setup-pace", "0")
    page.fill("#setup-seed", "5")
    page.click("#setup-form button[type=submit]")
    page.wait_for_selector('[data-winner]:not([data-winner=""])', timeout=180_000)
    state = new_game(4, seed=5)
    bots = [make_bot("greedy", 5 * 100 + seat) for seat in range(4)]
    moves = []
    while not state.is_over:
        move = decide(bots[state.turn], state)
        moves.append(str(move))
        state = apply(state, move)
    assert history(page) == moves
    assert data(page, "winner") == str(state.winner)
    assert data(page, "ply") == str(state.ply)
    assert page.is_visible("#winner-banner")
    shot(page, "4-game-over")


def test_rules_lawyer_lists_the_legal_moves_of_the_spec_cases(page: Page, site: str) -> None:
    goto(page, site)
    page.click("#lawyer-button")
    idle(page)
    cases = [c for c in load_cases() if "legal" in c["expect"]]
    assert len(cases) >= 20
    for case in cases:
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
    assert link == urllib.parse.urljoin(site, f"../rules/{rule}.html#{rule}")
    shot(page, "6-lawyer-illegal")
    for case in cases[1::5]:  # a spread over every file; the bridge's tests check them all
        study(page, position_of(case))
        page.fill("#move-input", case["move"])
        page.click("#move-submit")
        idle(page)
        assert page.get_attribute("#verdict", "data-rule") == case["expect"]["illegal"], case["id"]


def test_a_split_is_chosen_part_by_part_and_its_events_stepped_through(
    page: Page, site: str
) -> None:
    goto(page, site, "?" + urllib.parse.urlencode({"position": SPLIT}))
    page.click('circle.peg[data-seat="0"][data-loc="30"]')
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
    stops = []
    for _ in range(4):
        page.keyboard.press("Tab")
        stops.append(page.evaluate(FOCUSED))
    assert stops == ["Skip to the board", "new-game-button", "lawyer-button", "source|0|s"]
    focused = page.evaluate(
        "(() => { const s = getComputedStyle(document.activeElement); return [s.stroke, s.strokeWidth]; })()"
    )
    assert focused == ["rgb(0, 0, 0)", "5px"], "a focused peg is drawn with a thick outline"
    page.keyboard.press("Enter")  # the peg: focus moves to its only destination
    assert page.evaluate("document.activeElement.dataset.pick") == "target|0|8"
    page.keyboard.press(" ")
    wait_for_turn(page, 0)
    assert history(page)[0] == "K 0:s-8"
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
    assert page.get_attribute("#events", "role") == "log"
    assert page.get_attribute("#announce", "aria-live") == "polite"
    assert "Your turn, seat 2" in page.inner_text("#announce")


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


def test_a_phone_sized_screen_shows_everything_in_one_column(page: Page, site: str) -> None:
    page.set_viewport_size(PHONE)  # type: ignore[arg-type]
    try:
        goto(page, site, HUMAN_SEAT_2)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], "nothing runs off the side"
        board = page.locator("#board svg").bounding_box()
        moves = page.locator("#moves").bounding_box()
        assert board is not None and moves is not None
        assert board["width"] >= 0.9 * (PHONE["width"] - 40) and moves["y"] > board["y"]
        shot(page, "9-phone-game")
        page.click("#lawyer-button")
        idle(page)
        shot(page, "10-phone-lawyer")
    finally:
        page.set_viewport_size(DESKTOP)  # type: ignore[arg-type]
