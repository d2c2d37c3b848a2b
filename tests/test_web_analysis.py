"""The playground's post-game analysis in Chromium (analysis.js, analysis-worker.js): the chart
fills in with its progress shown once asked for, the shown ply's ``data-win-chance`` is this library's number,
the costly plies carry the expert's move and jump the viewer there, in the record viewer and
after a game played on the page; axe finds nothing serious, light or dark, running or done.

The page is asked for 2 playouts a state (``?playouts=2``) so that the analysis is quick; the
default budget's time is measured in docs/analysis.rst. Screenshots go to
``test-artifacts/playground/``."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from played import bots_game
from test_web_playground import (  # noqa: F401  (fixtures)
    DESKTOP,
    PHONE,
    browser,
    goto,
    playground,
    serious_violations,
    shot,
    site,
)

from pegs_rules import to_json
from pegs_rules.analysis import Analysis, analyze
from pegs_rules.records import GameRecord

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

PLAYOUTS = 2
SEED = 7
"""Seats of greedy bots with this seed play ``bots_game(4, SEED)`` (as the page seeds them)."""
GAME = f"?players=4&seed={SEED}&seats=greedy,greedy,greedy,greedy&delay=0&playouts={PLAYOUTS}"


@cache
def game() -> GameRecord:
    return bots_game(4, SEED)


@cache
def analysed() -> Analysis:
    """What the page must show: the library's analysis at the page's seed and expert budget."""
    return analyze(game(), playouts=PLAYOUTS)


@pytest.fixture(scope="module")
def record(playground: Path) -> str:  # noqa: F811
    folder = playground / "records"
    folder.mkdir(exist_ok=True)
    (folder / "analysed.json").write_text(to_json(game()), encoding="utf-8")
    return "records/analysed.json"


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:  # noqa: F811
    errors: list[str] = []
    tab = browser.new_page(viewport=DESKTOP, reduced_motion="reduce")  # type: ignore[arg-type]
    tab.set_default_timeout(60_000)
    tab.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    tab.on("pageerror", lambda error: errors.append(str(error)))
    yield tab
    tab.close()
    assert errors == [], "console errors"


def start(page: Page) -> None:
    """Ask for the analysis, offered once a record is open or a game is over."""
    page.wait_for_selector('#analysis[data-analysis="offered"]')
    page.click("#analysis-start")


def done(page: Page) -> None:
    page.wait_for_selector('#analysis[data-analysis="done"]', timeout=120_000)


def show_ply(page: Page, ply: int) -> None:
    page.eval_on_selector(
        "#replay-slider",
        "(s, p) => { s.value = p; s.dispatchEvent(new Event('input')); }",
        ply,
    )
    page.wait_for_selector(f'[data-replay-ply="{ply}"]')


def test_the_viewer_fills_in_the_chart_and_shows_each_plys_chance_as_python_finds_it(
    page: Page,
    site: str,  # noqa: F811
    record: str,
) -> None:
    goto(page, site, f"?record={record}&playouts={PLAYOUTS}")
    assert page.is_hidden("#analysis-ply")  # nothing is worked out unasked
    start(page)
    done(page)
    numbers = analysed().to_json()
    plies = numbers["plies"]
    assert isinstance(plies, list)
    assert "every hand and the order of the deck" in page.inner_text("#analysis")
    for ply in (0, 1, 27, len(plies)):
        show_ply(page, ply)
        chance = float(page.get_attribute("#analysis-ply", "data-win-chance") or "nan")
        if ply == 0:
            team = plies[0]["team"]
            first = numbers["chances"][0]  # type: ignore[index]
            assert chance == (first if team == 0 else 1 - first)
        else:
            assert chance == plies[ply - 1]["after"], ply
    assert chance == 1.0  # the last move won the game for its team
    costly = analysed().costly
    assert costly
    shown = page.eval_on_selector_all(
        "#analysis-costly li",
        "items => items.map((i) => [Number(i.dataset.ply), i.dataset.expert])",
    )
    assert shown == [[c.ply, c.expert] for c in costly]
    marks = page.locator("#analysis-chart a.costly")
    assert marks.count() == len(costly)
    assert page.eval_on_selector(".analysis-chart polyline.chance", "l => l.points.length") == (
        len(plies) + 1
    )
    marks.nth(0).focus()
    page.keyboard.press("Enter")  # a mark is a link to its ply
    page.wait_for_selector(f'[data-replay-ply="{costly[0].ply}"]')
    assert serious_violations(page) == []
    shot(page, "30-analysis-desktop-light")


@pytest.mark.parametrize(("scheme", "size"), [("light", PHONE), ("dark", DESKTOP), ("dark", PHONE)])
def test_the_analysis_shows_its_progress_and_passes_axe_running_and_done(
    browser: Browser,  # noqa: F811
    site: str,  # noqa: F811
    record: str,
    scheme: str,
    size: dict[str, int],
) -> None:
    tab = browser.new_page(viewport=size, color_scheme=scheme, reduced_motion="reduce")  # type: ignore[arg-type]
    tab.set_default_timeout(60_000)
    try:
        name = f"{'phone' if size == PHONE else 'desktop'}-{scheme}"
        goto(tab, site, f"?record={record}&playouts=4000000")  # a link asks too much
        start(tab)
        assert tab.get_attribute("#analysis", "data-playouts") == "1000", "capped"
        goto(tab, site, f"?record={record}&playouts=400")  # slow: seen while running
        start(tab)
        tab.wait_for_function(
            "() => document.querySelector('#analysis-chart polyline')?.points.length > 3"
        )
        assert tab.get_attribute("#analysis", "data-analysis") == "running"
        assert tab.is_visible("#analysis-bar") and "positions" in tab.inner_text("#analysis-status")
        assert tab.get_attribute("#analysis-ply", "data-win-chance") == ""
        assert serious_violations(tab) == []
        shot(tab, f"31-analysis-running-{name}")
        goto(tab, site, f"?record={record}&playouts={PLAYOUTS}&ply=27")
        start(tab)
        done(tab)
        assert serious_violations(tab) == []
        if size == PHONE:  # one column: nothing wider than the screen
            assert tab.evaluate("document.documentElement.scrollWidth") <= size["width"]
        tab.locator("#analysis").scroll_into_view_if_needed()
        shot(tab, f"32-analysis-done-{name}")
    finally:
        tab.close()


def test_a_game_played_on_the_page_is_analysed_at_its_summary(
    page: Page,
    site: str,  # noqa: F811
) -> None:
    goto(page, site, GAME)
    page.wait_for_selector('[data-winner]:not([data-winner=""])', timeout=180_000)
    page.wait_for_selector("#summary tr[data-seat]")
    start(page)
    done(page)
    costly = analysed().costly
    shown = page.eval_on_selector_all(
        "#analysis-costly li",
        "items => items.map((i) => [Number(i.dataset.ply), i.dataset.expert])",
    )
    assert shown == [[c.ply, c.expert] for c in costly]
    shot(page, "33-analysis-game-over")
    page.click(f'#analysis-costly li[data-ply="{costly[-1].ply}"] button')  # into the viewer
    page.wait_for_selector(f'[data-replay-ply="{costly[-1].ply}"]')
    after = analysed().to_json()["plies"][costly[-1].ply - 1]  # type: ignore[index]
    page.wait_for_selector('#analysis-ply:not([data-win-chance=""])')
    assert float(page.get_attribute("#analysis-ply", "data-win-chance") or "nan") == after["after"]
