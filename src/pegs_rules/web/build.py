"""``pegs web build OUT_DIR``: the playground as a folder of static files.

The folder holds:

* the page: ``index.html``, ``style.css``, ``icon.svg``, ``manifest.webmanifest``
  (which makes it an installable web app) and ``js/``, copied from this package's
  ``static/`` folder; ``index.html`` gets the manifest's link and the board of a new
  game for 4, 6 and 8 players, drawn by :func:`pegs_rules.render.svg`, so that the
  first paint shows a board;
* ``js/pegs-rules.js``: the rules engine the page plays on: the TypeScript engine of the
  checkout's ``js/`` folder (the npm package ``pegs-rules`` with ``pegs-rules/render``)
  bundled into one module by esbuild, which ``npm ci --prefix js`` installs; and
  ``js/playground.js``, the page's own modules (``js/main.js`` and all it imports but the
  engine) bundled into one, which ``index.html`` runs, so that the page starts after two
  downloads, not twenty (the modules stay beside it, as the page's sources). The bots and
  the hint run on the same engine in a Web Worker (``js/search-worker.js``), so that the
  page answers while they think;
* ``config.json``: the page's transport (``local``: the engine in the page), what the
  set-up form offers (``hello``, :func:`pegs_rules.web.offer.hello`), where the docs
  are, and the ``build``: a digest of everything above;
* ``rules/``: a page for each ruling (:mod:`pegs_rules.web.ruling_pages`), unless the
  build is given the docs' address;
* ``sw.js``: the service worker, with the build's digest and a digest of each file
  written in, so that a second visit is served from the browser's cache (offline
  too) and a new build replaces the old one on the next visit.

Nothing in it is fetched from the network when the page runs: any static file
server serves a working playground, for example ``python -m http.server -d OUT_DIR``.

The page links each ruling id it names to ``<docs_url>rules/<id>.html#<id>``. By
default the links go to the playground's own ``rules/`` pages; the docs site builds its
playground into its ``play/`` folder with ``docs_url="../"``, so that they go to the
docs' pages of the rulings (any address of the docs works the same way).
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
from pathlib import Path

from pegs_rules import __version__
from pegs_rules.render import svg
from pegs_rules.state import new_game
from pegs_rules.web.offer import BOARD_SIZE, hello
from pegs_rules.web.ruling_pages import write_pages

STATIC = Path(__file__).resolve().parent / "static"
"""The page's own files (package data)."""
CHECKOUT = Path(__file__).resolve().parents[3]
"""The source checkout this module lives in, if it lives in one (see :func:`checkout`)."""
BUNDLE = "js/pegs-rules.js"
"""Where the playground holds the TypeScript engine, bundled."""
PAGE_BUNDLE = "js/playground.js"
"""Where the playground holds its own modules, bundled (all but the engine)."""
FIRST_BOARDS = (4, 6, 8)
"""The player counts whose new board ``index.html`` holds for its first paint."""


class BuildError(Exception):
    """The playground cannot be built; the message says what to do."""


def checkout() -> Path | None:
    """The source checkout holding this package, or ``None`` for an installed copy."""
    if (CHECKOUT / "pyproject.toml").is_file() and (CHECKOUT / "src" / "pegs_rules").is_dir():
        return CHECKOUT
    return None


def find_esbuild(root: Path) -> Path:
    """The esbuild that ``js/package.json`` of the checkout pins, installed by ``npm ci``."""
    if not (root / "js" / "src" / "index.ts").is_file():
        raise BuildError("no source checkout with js/ here: the page's engine is built from it")
    esbuild = root / "js" / "node_modules" / ".bin" / "esbuild"
    if not esbuild.is_file():
        raise BuildError(f"esbuild is not installed: run `npm ci --prefix js` in {root}")
    return esbuild


def bundle_engine(root: Path, esbuild: Path, out: Path) -> None:
    """Bundle the TypeScript engine of ``root/js`` (``pegs-rules`` and ``pegs-rules/render``)
    into the one module ``out``, minified, for the browser."""
    source = root / "js" / "src"
    entry = (
        f"export * from {json.dumps(str(source / 'index.ts'))};\n"
        f"export {{ svg }} from {json.dumps(str(source / 'render.ts'))};\n"
    )
    _esbuild(esbuild, ["--sourcefile=pegs-rules.js", "--loader=js", f"--outfile={out}"], entry)


def bundle_page(esbuild: Path, out_dir: Path) -> None:
    """Bundle ``js/main.js`` of the playground ``out_dir`` and the modules it imports, but the
    engine (:data:`BUNDLE`, imported as it is), into :data:`PAGE_BUNDLE`."""
    main = str(out_dir / "js" / "main.js")
    engine = "./" + Path(BUNDLE).name
    _esbuild(esbuild, [main, f"--external:{engine}", f"--outfile={out_dir / PAGE_BUNDLE}"])


def _esbuild(esbuild: Path, arguments: list[str], entry: str | None = None) -> None:
    command = [str(esbuild), "--bundle", "--format=esm", "--minify", "--target=es2022"]
    command += ["--legal-comments=none", "--log-level=error", *arguments]
    result = subprocess.run(
        command, input=entry, capture_output=True, text=True, check=False, timeout=300
    )
    if result.returncode != 0:
        raise BuildError(f"bundling the page's scripts failed:\n{result.stderr}")


def build(out_dir: Path, *, docs_url: str | None = None) -> Path:
    """Write the playground into ``out_dir`` (see the module docstring); return its page.

    ``out_dir`` must be new, empty, or an earlier build.
    """
    root = checkout()
    if root is None:
        raise BuildError("no source checkout here: the page's engine is built from its js/ folder")
    esbuild = find_esbuild(root)
    _clear(out_dir)
    shutil.copytree(STATIC, out_dir, dirs_exist_ok=True)
    bundle_engine(root, esbuild, out_dir / BUNDLE)
    bundle_page(esbuild, out_dir)
    if docs_url is None:
        write_pages(out_dir)
    page = out_dir / "index.html"
    page.write_text(first_paint(page.read_text(encoding="utf-8")), encoding="utf-8")
    config: dict[str, object] = {
        "app": "pegs-rules playground",
        "version": __version__,
        "transport": "local",
        "hello": hello(),
        "board_size": BOARD_SIZE,
        "docs": "./" if docs_url is None else docs_url,
    }
    files = digests(out_dir)
    config["build"] = _digest(json.dumps([files, config], sort_keys=True).encode())[:16]
    (out_dir / "config.json").write_text(json.dumps(config, indent=1) + "\n", encoding="utf-8")
    files["config.json"] = _digest((out_dir / "config.json").read_bytes())
    worker = out_dir / "sw.js"
    worker.write_text(
        service_worker(worker.read_text(encoding="utf-8"), str(config["build"]), files),
        encoding="utf-8",
    )
    return page


def first_paint(page: str) -> str:
    """``index.html`` running :data:`PAGE_BUNDLE` instead of ``js/main.js``, with the manifest
    linked, the engine and ``config.json`` preloaded (fetched with the page's script, not once
    it has run), and the board of a new game for each of :data:`FIRST_BOARDS` (``js/first.js``
    shows the one of the last game's player count)."""
    boards = []
    for players in FIRST_BOARDS:
        drawn = svg(new_game(players, seed=0, dealer=players - 1), size=BOARD_SIZE)
        drawn = drawn.split("?>", 1)[1].strip().replace("<svg ", '<svg aria-hidden="true" ', 1)
        boards.append(
            f'<div class="first-board" data-players="{players}" role="img" '
            f'aria-label="The board of a new {players}-player game">{drawn}</div>'
        )
    head = "\n  ".join(
        [
            '<link rel="manifest" href="manifest.webmanifest">',
            '<link rel="preload" href="config.json" as="fetch" crossorigin>',
            f'<link rel="modulepreload" href="{BUNDLE}">',
        ]
    )
    script = '<script type="module" src="{}"></script>'
    page = _fill(page, script.format("js/main.js"), script.format(PAGE_BUNDLE))
    return _fill(
        _fill(page, "<!-- build: head -->", head), "<!-- build: board -->", "".join(boards)
    )


def service_worker(template: str, build_id: str, files: dict[str, str]) -> str:
    """``sw.js`` with the build's digest and its files' digests written in."""
    worker = _fill(template, 'const BUILD = "";', f"const BUILD = {json.dumps(build_id)};")
    return _fill(worker, "const FILES = {};", f"const FILES = {json.dumps(files, indent=1)};")


def digests(folder: Path) -> dict[str, str]:
    """Each file of ``folder`` but ``sw.js`` and ``config.json`` (by its path with ``/``):
    the SHA-256 of its contents, in hex."""
    return {
        path.relative_to(folder).as_posix(): _digest(path.read_bytes())
        for path in sorted(folder.rglob("*"))
        if path.is_file() and path.relative_to(folder).as_posix() not in ("sw.js", "config.json")
    }


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _fill(text: str, mark: str, value: str) -> str:
    if text.count(mark) != 1:
        raise BuildError(f"the page's files lack the mark {mark!r}: reinstall pegs-rules")
    return text.replace(mark, value)


def _clear(out_dir: Path) -> None:
    """Make ``out_dir`` an empty folder, removing only an earlier playground build."""
    if out_dir.exists():
        if not out_dir.is_dir():
            raise BuildError(f"{out_dir} is a file, not a folder")
        if any(out_dir.iterdir()):
            if not _is_build(out_dir):
                raise BuildError(f"{out_dir} is not empty and holds no playground: choose another")
            shutil.rmtree(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)


def _is_build(folder: Path) -> bool:
    try:
        config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(config, dict) and config.get("app") == "pegs-rules playground"
