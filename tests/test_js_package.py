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


@pytest.mark.packaging
def test_npm_pack_makes_a_tarball_that_installs_and_runs(tmp_path: Path) -> None:
    node = node_command(JS / "examples" / "quickstart.mjs")[0]
    npm = shutil.which("npm")
    assert npm is not None, "npm comes with Node.js"
    packed = subprocess.run(
        [npm, "pack", "--json", "--pack-destination", str(tmp_path)],
        cwd=JS,
        capture_output=True,
        text=True,
        check=True,
    )
    (info,) = json.loads(packed.stdout)
    names = {entry["path"] for entry in info["files"]}
    assert {"package.json", "README.md", "LICENSE", "dist/index.js", "dist/index.d.ts"} <= names
    assert "dist/bin/protocol.js" in names
    assert not any(
        n.startswith(("src/", "test/", "node_modules/")) or n.endswith(".map") for n in names
    )
    tarball = tmp_path / info["filename"]
    with tarfile.open(tarball) as archive:
        manifest = json.load(archive.extractfile("package/package.json"))  # type: ignore[arg-type]
    assert "dependencies" not in manifest  # no runtime dependencies
    app = tmp_path / "app"
    app.mkdir()
    (app / "package.json").write_text('{"name": "app", "private": true, "type": "module"}')
    subprocess.run(
        [npm, "install", "--no-audit", "--no-fund", "--offline", str(tarball)],
        cwd=app,
        capture_output=True,
        text=True,
        check=True,
    )
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
