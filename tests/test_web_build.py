"""``pegs web build``: what goes into the playground folder, and what stops a build.

The TypeScript engine is bundled from ``js/`` with its esbuild (``npm ci --prefix js``,
which the README's test command runs first). The browser tests serve and drive the build.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
from pathlib import Path

import pytest

from pegs_rules import __version__, new_game
from pegs_rules.cli import main
from pegs_rules.render import SEAT_COLOURS, svg
from pegs_rules.rulings import RULINGS
from pegs_rules.web.build import (
    BUNDLE,
    FIRST_BOARDS,
    PAGE_BUNDLE,
    STATIC,
    BuildError,
    build,
    digests,
    find_esbuild,
    first_paint,
)
from pegs_rules.web.offer import BOARD_SIZE, hello

ROOT = Path(__file__).resolve().parents[1]


def test_the_folder_holds_the_page_its_engine_and_its_config(tmp_path: Path) -> None:
    out = tmp_path / "site"
    page = build(out, docs_url="https://d/")
    assert page == out / "index.html"
    static = sorted(p.relative_to(STATIC) for p in STATIC.rglob("*") if p.is_file())
    assert not (STATIC / BUNDLE).exists() and (out / BUNDLE).is_file()
    filled = {Path("index.html"), Path("sw.js")}
    assert static and all(
        (out / p).read_bytes() == (STATIC / p).read_bytes() for p in static if p not in filled
    )
    assert sorted(p.name for p in out.iterdir()) == sorted(
        {p.parts[0] for p in static} | {"config.json"}
    )
    config = json.loads((out / "config.json").read_text(encoding="utf-8"))
    assert config == {
        "app": "pegs-rules playground",
        "version": __version__,
        "transport": "local",
        "hello": json.loads(json.dumps(hello())),
        "board_size": BOARD_SIZE,
        "docs": "https://d/",
        "build": config["build"],
    }
    assert re.fullmatch("[0-9a-f]{16}", config["build"])


def test_every_ruling_the_page_names_has_a_page_here_and_in_the_docs(tmp_path: Path) -> None:
    out = tmp_path / "site"
    build(out)  # served on its own: its own pages of the rulings
    assert json.loads((out / "config.json").read_text(encoding="utf-8"))["docs"] == "./"
    assert sorted(p.stem for p in (out / "rules").iterdir()) == sorted(RULINGS)
    for rule, line in RULINGS.items():
        page = (out / "rules" / f"{rule}.html").read_text(encoding="utf-8")
        assert f'<article id="{rule}"' in page and html.escape(line) in page, rule
        # The docs' page of the ruling, rules/<id>.html, whose section the directive names
        # after the ruling: where a playground built into the docs (docs_url ../) links.
        docs_page = (ROOT / "docs" / "rules" / f"{rule}.rst").read_text(encoding="utf-8")
        assert f".. ruling:: {rule}\n" in docs_page, rule
    ace = (out / "rules" / "card.ace.html").read_text(encoding="utf-8")
    assert "<p><strong>Both presets.</strong> Besides coming out, an ace moves a peg one" in ace
    verdict = (out / "rules" / "move.verdict.html").read_text(encoding="utf-8")
    assert (
        '<p class="ruling-item depth-2">8. the landing of a peg the player may move that' in verdict
    )
    # The sources a ruling ends with ("R16; Q11") are said under it, in the words of
    # specs/rulings.md's "How to read a ruling".
    seven = (out / "rules" / "card.seven.split.html").read_text(encoding="utf-8")
    assert "<strong>Sources.</strong> R16; Q11." in seven
    assert (
        "<code>R1</code>..<code>R35</code> are the numbered rules of the seed texts, "
        "<code>Q1</code>..<code>Q24</code> the open questions that the project decided"
    ) in seven
    docs = tmp_path / "docs-site" / "play"
    build(docs, docs_url="../")  # the docs' own copy
    assert json.loads((docs / "config.json").read_text(encoding="utf-8"))["docs"] == "../"
    assert not (docs / "rules").exists()


def test_the_first_paint_holds_a_new_board_for_each_player_count(tmp_path: Path) -> None:
    build(tmp_path / "site")
    page = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert '<link rel="manifest" href="manifest.webmanifest">' in page
    assert "<!-- build:" not in page
    for players in FIRST_BOARDS:
        drawn = svg(new_game(players, seed=0, dealer=players - 1), size=BOARD_SIZE)
        body = drawn.split("?>", 1)[1].strip().replace("<svg ", '<svg aria-hidden="true" ', 1)
        assert f'<div class="first-board" data-players="{players}" role="img"' in page
        assert body in page
    with pytest.raises(BuildError, match="lack the mark"):
        first_paint("<html></html>")


def test_the_page_runs_its_bundle_and_fetches_the_engine_at_once(tmp_path: Path) -> None:
    out = tmp_path / "site"
    build(out)
    head = (out / "index.html").read_text(encoding="utf-8").split("</head>", 1)[0]
    scripts = re.findall(r'<script[^>]*src="([^"]+)"', head)
    assert scripts == ["js/first.js", PAGE_BUNDLE]
    assert re.findall(r'<link rel="modulepreload" href="([^"]+)">', head) == [BUNDLE]
    assert '<link rel="preload" href="config.json" as="fetch" crossorigin>' in head
    assert "worker.js" not in head  # the search worker starts with the first game or hint
    # The page's modules are in its bundle; it imports only the engine, which it leaves out.
    bundled = (out / PAGE_BUNDLE).read_text(encoding="utf-8")
    assert re.findall(r'import\(\s*"([^"]+)"\s*\)', bundled) == ["./pegs-rules.js"]
    assert not re.search(r'from\s*"\./', bundled)
    assert "js/search-worker.js" in bundled  # search.js, say
    assert "js/search-worker.js" not in (out / BUNDLE).read_text(encoding="utf-8")
    # The worker imports the engine beside it, the only module it imports.
    worker = (out / "js" / "search-worker.js").read_text(encoding="utf-8")
    assert re.findall(r'from\s*"([^"]+)"', worker) == ["./pegs-rules.js"]


def test_the_service_worker_holds_the_build_and_a_digest_of_every_file(tmp_path: Path) -> None:
    out = tmp_path / "site"
    build(out)
    worker = (out / "sw.js").read_text(encoding="utf-8")
    config = json.loads((out / "config.json").read_text(encoding="utf-8"))
    assert f'const BUILD = "{config["build"]}";' in worker
    files = json.loads(worker.split("const FILES = ", 1)[1].split(";\n", 1)[0])
    listed = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert sorted(files) == sorted(set(listed) - {"sw.js"})
    for path, digest in files.items():
        assert digest == hashlib.sha256((out / path).read_bytes()).hexdigest(), path
    assert digests(out) == {k: v for k, v in files.items() if k != "config.json"}


def test_a_build_is_named_by_its_contents(tmp_path: Path) -> None:
    def config(**options: str) -> dict[str, str]:
        out = tmp_path / "site"
        build(out, **options)
        written: dict[str, str] = json.loads((out / "config.json").read_text(encoding="utf-8"))
        return written

    first, again, elsewhere = config(), config(), config(docs_url="https://d/")
    assert first["build"] == again["build"] != elsewhere["build"]


def test_the_page_has_the_boards_colours_and_a_web_app_manifest() -> None:
    style = (STATIC / "style.css").read_text(encoding="utf-8")
    colours = dict(re.findall(r"--seat-(\d): (#[0-9A-Fa-f]{6});", style))
    assert [colours[str(seat)] for seat in range(8)] == list(SEAT_COLOURS)
    manifest = json.loads((STATIC / "manifest.webmanifest").read_text(encoding="utf-8"))
    assert manifest["start_url"] == manifest["scope"] == "./"
    assert manifest["display"] == "standalone" and manifest["name"]
    assert all((STATIC / icon["src"]).is_file() for icon in manifest["icons"])


def test_the_page_loads_nothing_from_other_hosts() -> None:
    for path in STATIC.rglob("*"):
        if path.suffix in (".html", ".js", ".css"):
            text = path.read_text(encoding="utf-8")
            assert not re.search(r"(src|href)=[\"']?(https?:)?//", text), path
            assert not re.search(r"import[^;]*[\"']https?://", text), path


def test_an_earlier_build_is_replaced_but_nothing_else_is_overwritten(tmp_path: Path) -> None:
    out = tmp_path / "site"
    build(out)
    (out / "stale.txt").write_text("old", encoding="utf-8")
    build(out)
    assert not (out / "stale.txt").exists()
    other = tmp_path / "documents"
    other.mkdir()
    (other / "thesis.tex").write_text("precious", encoding="utf-8")
    with pytest.raises(BuildError, match="not empty and holds no playground"):
        build(other)
    assert (other / "thesis.tex").read_text(encoding="utf-8") == "precious"


def test_a_checkout_without_the_typescript_engines_tools_says_to_run_npm_ci(
    tmp_path: Path,
) -> None:
    with pytest.raises(BuildError, match="no source checkout with js/"):
        find_esbuild(tmp_path)
    (tmp_path / "js" / "src").mkdir(parents=True)
    (tmp_path / "js" / "src" / "index.ts").write_text("export {};\n", encoding="utf-8")
    with pytest.raises(BuildError, match=re.escape("run `npm ci --prefix js` in")):
        find_esbuild(tmp_path)


def test_the_pin_is_exact_and_locked() -> None:
    pinned = json.loads((ROOT / "package.json").read_text(encoding="utf-8"))
    lock = json.loads((ROOT / "package-lock.json").read_text(encoding="utf-8"))
    checker = pinned["devDependencies"]["axe-core"]  # the accessibility check's, for the tests
    assert re.fullmatch(r"\d+\.\d+\.\d+", checker)
    assert lock["packages"]["node_modules/axe-core"]["version"] == checker


def test_the_command_reports_what_stops_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = tmp_path / "documents"
    other.mkdir()
    (other / "thesis.tex").write_text("precious", encoding="utf-8")
    assert main(["web", "build", str(other)]) == 2
    assert "holds no playground" in capsys.readouterr().err
    out = tmp_path / "site"
    assert main(["web", "build", str(out)]) == 0
    assert f"python -m http.server -d {out}" in capsys.readouterr().out
    assert not (out / "pyodide").exists() and not (out / "wheels").exists()


def test_the_pages_modules_import_each_other_in_no_cycle() -> None:
    """Each module of ``static/js`` imports only modules that do not import it back, however
    far round (``transport.js`` and its transports share ``listeners.js`` instead)."""
    imports = {
        path.name: set(re.findall(r'^import .*? from "\./([\w-]+\.js)";', text, re.M | re.S))
        for path in (STATIC / "js").glob("*.js")
        for text in [path.read_text(encoding="utf-8")]
    }
    assert imports["local.js"] >= {"listeners.js"}, "the pattern finds the imports"

    cycles = []
    for module in imports:
        stack, seen = list(imports[module]), set()
        while stack:
            name = stack.pop()
            if name == module:
                cycles.append(module)
                break
            if name not in seen:
                seen.add(name)
                stack.extend(imports.get(name, ()))  # pegs-rules.js: the bundle
    assert cycles == []
