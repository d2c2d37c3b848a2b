"""Helpers for the tests of the conformance tools: the command as a user runs it, the engine
double's command line, the closing line of a check, and the protocol's schemas."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from pegs_rules.spec import SPECS

ROOT = Path(__file__).resolve().parents[1]
DOUBLE = ROOT / "tests" / "engine_double.py"


def check(*args: str, cwd: Path = ROOT) -> tuple[int, str]:
    """``python -m pegs_rules.spec ARGS`` as a user runs it, in the environment this session
    runs in (its ``python`` first on the path, as in an activated venv): exit status and output."""
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    done = subprocess.run(
        [sys.executable, "-m", "pegs_rules.spec", *args],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=cwd,
        env={**os.environ, "PATH": path},
    )
    return done.returncode, done.stdout + done.stderr


def double(tmp_path: Path, config: object) -> str:
    """The engine double's command line with ``config`` as its faults file."""
    path = tmp_path / "double.json"
    path.write_text(json.dumps(config), encoding="utf-8")
    return f"{sys.executable} {DOUBLE} {path}"


def summary(output: str) -> tuple[int, int, int, int]:
    """Passed, failed, skipped and declined from the closing line."""
    found = re.search(
        r"^(\d+) passed, (\d+) failed, (\d+) skipped, (\d+) declined in ", output, re.MULTILINE
    )
    assert found, output[-2000:]
    passed, failed, skipped, declined = found.groups()
    return int(passed), int(failed), int(skipped), int(declined)


@cache
def validator(name: str) -> Draft202012Validator:
    """A validator for ``specs/schema/protocol/<name>.schema.json``, other schemas resolved."""
    resources = []
    for path in (SPECS / "schema").rglob("*.schema.json"):
        schema = json.loads(path.read_text(encoding="utf-8"))
        resources.append((schema["$id"], Resource.from_contents(schema)))
    registry: Registry[Any] = Registry().with_resources(resources)
    schema = json.loads((SPECS / "schema" / "protocol" / f"{name}.schema.json").read_text("utf-8"))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema, registry=registry)


def output_blocks(command: str) -> list[tuple[str, list[str]]]:
    """The ``<!-- output: COMMAND ARGS -->`` blocks of the page "Checking your engine": the
    arguments and the lines shown."""
    text = (ROOT / "docs" / "checking.md").read_text(encoding="utf-8")
    found = rf"<!-- output: {command} (.*?) -->\n```console\n(.*?)```"
    return [(args, shown.splitlines()) for args, shown in re.findall(found, text, re.DOTALL)]
