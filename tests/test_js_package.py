"""The TypeScript package in ``js/`` as its users get it: the docs' example, and the tarball.

Its own tests (``npm test --prefix js``) and its run of the conformance suite
(``python -m pegs_rules.spec check --engine "node js/dist/bin/protocol.js" --ids strict``) are
steps of README's test command; its agreement with this library is ``test_js_agreement.py``.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tarfile
from pathlib import Path
from typing import Any

import pytest
from jsengine import JS, ROOT, node_command


def test_the_docs_example_prints_what_the_page_shows() -> None:
    page = (ROOT / "docs" / "javascript.rst").read_text(encoding="utf-8")
    block = page.split(":name: js-quickstart-output", 1)[1].split("\n\n", 2)[1]
    shown = [line.strip() for line in block.splitlines()]
    done = subprocess.run(
        node_command(JS / "examples" / "quickstart.mjs"),
        capture_output=True,
        text=True,
        check=True,
        cwd=JS,
    )
    assert done.stdout.splitlines() == shown


@pytest.fixture(scope="module")
def packed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """``npm pack`` of the package (which builds it first): the tarball and npm's account of it."""
    node_command(JS / "examples" / "quickstart.mjs")  # skips without Node or the build
    npm = shutil.which("npm")
    assert npm is not None, "npm comes with Node.js"
    where = tmp_path_factory.mktemp("packed")
    done = subprocess.run(
        [npm, "pack", "--json", "--pack-destination", str(where)],
        cwd=JS,
        capture_output=True,
        text=True,
        check=True,
    )
    (info,) = json.loads(done.stdout)
    return where / info["filename"], info


def install(tarball: Path, app: Path, manifest: dict[str, Any]) -> None:
    """An app in ``app`` (its ``package.json`` being ``manifest``) with the tarball installed."""
    npm = shutil.which("npm")
    assert npm is not None
    app.mkdir()
    (app / "package.json").write_text(json.dumps(manifest))
    subprocess.run(
        [npm, "install", "--no-audit", "--no-fund", "--offline", str(tarball)],
        cwd=app,
        capture_output=True,
        text=True,
        check=True,
    )


@pytest.mark.packaging
def test_npm_pack_makes_a_tarball_that_installs_and_runs(
    packed: tuple[Path, dict[str, Any]], tmp_path: Path
) -> None:
    node = node_command(JS / "examples" / "quickstart.mjs")[0]
    tarball, info = packed
    names = {entry["path"] for entry in info["files"]}
    assert {"package.json", "README.md", "LICENSE", "dist/index.js", "dist/index.d.ts"} <= names
    assert "dist/bin/protocol.js" in names
    assert not any(
        n.startswith(("src/", "test/", "node_modules/")) or n.endswith(".map") for n in names
    )
    with tarfile.open(tarball) as archive:
        manifest = json.load(archive.extractfile("package/package.json"))  # type: ignore[arg-type]
        for name in names:  # no shipped file points to one left out (a source map, say)
            text = archive.extractfile(f"package/{name}").read().decode()  # type: ignore[union-attr]
            assert "sourceMappingURL" not in text, name
    assert "dependencies" not in manifest  # no runtime dependencies
    app = tmp_path / "app"
    install(tarball, app, {"name": "app", "private": True, "type": "module"})
    script = (
        'import { newGame, legalMoves, moveText } from "pegs-rules";'
        "console.log(legalMoves(newGame(4, { seed: 1n })).map(moveText).join(','));"
    )
    done = subprocess.run(
        [node, "--input-type=module", "-e", script],
        cwd=app,
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.strip() == "discard 7,discard 10"
    protocol = subprocess.run(
        [str(app / "node_modules" / ".bin" / "pegs-rules-protocol")],
        input='{"id": 1, "type": "hello", "protocol": 1}\n',
        capture_output=True,
        text=True,
        check=True,
    )
    assert re.fullmatch(
        r'\{"id": 1, "engine": "pegs-rules-js", "version": "[0-9.]+", "protocol": 1\}\n',
        protocol.stdout,
    )


@pytest.mark.packaging
def test_a_commonjs_app_requires_the_package_and_typescript_compiles_one(
    packed: tuple[Path, dict[str, Any]], tmp_path: Path
) -> None:
    """A CommonJS app (no ``"type": "module"``) on Node.js 20.19 or later ``require``s both entry
    points (Node loads the ES modules for it); a TypeScript app compiled as CommonJS with
    ``module: nodenext`` type-checks against the tarball's declarations and runs."""
    node = node_command(JS / "examples" / "quickstart.mjs")[0]
    app = tmp_path / "app"
    install(packed[0], app, {"name": "app", "private": True})
    use = (
        "const game = newGame(4, { seed: 1n });\n"
        "console.log(legalMoves(game).map(moveText).join(','), svg(game).startsWith('<?xml'));\n"
    )
    (app / "app.cjs").write_text(
        'const { newGame, legalMoves, moveText } = require("pegs-rules");\n'
        'const { svg } = require("pegs-rules/render");\n' + use
    )
    (app / "app.ts").write_text(
        'import { newGame, legalMoves, moveText } from "pegs-rules";\n'
        'import { svg } from "pegs-rules/render";\n' + use
    )
    options = {"module": "nodenext", "target": "es2022", "strict": True, "outDir": "out"}
    (app / "tsconfig.json").write_text(
        json.dumps({"compilerOptions": options | {"types": []}, "files": ["app.ts"]})
    )
    tsc = JS / "node_modules" / "typescript" / "bin" / "tsc"
    subprocess.run([node, str(tsc), "-p", str(app)], cwd=app, check=True)
    compiled = (app / "out" / "app.js").read_text()
    assert 'require("pegs-rules")' in compiled and 'require("pegs-rules/render")' in compiled
    for script in ("app.cjs", "out/app.js"):
        done = subprocess.run([node, script], cwd=app, capture_output=True, text=True, check=True)
        assert (done.stdout, done.stderr) == ("discard 7,discard 10 true\n", ""), script


def test_the_protocol_answers_every_line_up_to_quit_whole_and_none_after() -> None:
    """At the end of its input the engine's answers still in the pipe reach the harness (a
    long one included: an id of 900,000 characters comes back whole), and nothing read after
    ``quit`` is answered."""
    junk = "x" * 900_000
    lines = [
        {"id": junk, "type": "legal", "position": "zork"},
        {"id": 2, "type": "hello"},
        {"id": 3, "type": "quit"},
        {"id": 4, "type": "hello"},
    ]
    done = subprocess.run(
        node_command(JS / "dist" / "bin" / "protocol.js"),
        input="".join(json.dumps(line) + "\n" for line in lines),
        capture_output=True,
        text=True,
        timeout=60,
    )
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert done.returncode == 0 and [a["id"] for a in answers] == [junk, 2]
    assert answers[0]["error"] == "line 1: expected 'key: values', got 'zork'"
    assert answers[1]["engine"] == "pegs-rules-js"
