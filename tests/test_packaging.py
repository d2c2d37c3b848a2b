"""The release artefacts: the sdist and the wheel build, pass the packaging checks, and the
installed wheel checks itself against the conformance suite it ships (``specs/`` as package data).

The sdist and wheel are built once per session (``python -m build``, from the sdist, so a file
missing from the sdist fails here too) and the wheel is installed once into a fresh venv.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tarfile
import venv
import zipfile
from pathlib import Path

import pytest

import pegs_rules
from pegs_rules.spec import SPECS, load_cases, load_games, load_perft

pytestmark = pytest.mark.packaging

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run a command; fail the test with its output if it fails."""
    done = subprocess.run(
        [str(a) for a in args], cwd=cwd, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, f"{args} exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="session")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the sdist and the wheel of this checkout."""
    out = tmp_path_factory.mktemp("dist")
    run(sys.executable, "-m", "build", "--no-isolation", "--outdir", out, ROOT)
    return out


@pytest.fixture(scope="session")
def wheel(dist: Path) -> Path:
    (found,) = dist.glob("*.whl")
    return found


@pytest.fixture(scope="session")
def sdist(dist: Path) -> Path:
    (found,) = dist.glob("*.tar.gz")
    return found


@pytest.fixture(scope="session")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The ``bin`` folder of a fresh venv with only the wheel installed."""
    env = tmp_path_factory.mktemp("venv")
    venv.create(env, with_pip=False)
    bin_dir = env / ("Scripts" if os.name == "nt" else "bin")
    python = bin_dir / "python"
    run(sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-deps", wheel)
    return bin_dir


def test_the_packaging_checks_pass(dist: Path, wheel: Path) -> None:
    run(sys.executable, "-m", "twine", "check", "--strict", *sorted(dist.iterdir()))
    run(sys.executable, "-m", "check_wheel_contents", wheel)


def test_the_wheel_holds_the_package_its_data_and_the_licence(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    assert "pegs_rules/py.typed" in names
    assert "pegs_rules/specs/rulings.md" in names
    assert "pegs_rules/bots/td-weights.json" in names  # the td bot's weights
    for folder in ("cases", "games", "schema"):
        shipped = {n for n in names if n.startswith(f"pegs_rules/specs/{folder}/")}
        expected = {
            f"pegs_rules/specs/{p.relative_to(SPECS).as_posix()}"
            for p in (SPECS / folder).rglob("*")
            if p.is_file()
        }
        assert shipped == expected
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    assert not [n for n in names if n.startswith(("tests/", "docs/", "specs/"))]


def test_the_metadata_says_what_a_release_needs(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        (meta,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        text = archive.read(meta).decode("utf-8")
    assert f"Version: {pegs_rules.__version__}" in text
    assert "License-Expression: MIT" in text
    for label in ("Documentation", "Source", "Changelog", "Issues"):
        assert f"Project-URL: {label}, https://" in text
    for minor in (10, 11, 12, 13):
        assert f"Classifier: Programming Language :: Python :: 3.{minor}" in text


def test_the_sdist_has_the_sources_and_no_ci_files(sdist: Path) -> None:
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    assert {"LICENSE", "README.md", "pyproject.toml", "specs/rulings.md"} <= names
    assert "src/pegs_rules/__init__.py" in names and "tests/test_spec.py" in names
    assert not [n for n in names if n.startswith((".ci", ".github", "docs/_build", ".venv"))]


def test_the_installed_wheel_checks_every_case_from_any_folder(
    installed: Path, tmp_path: Path
) -> None:
    done = run(installed / "python", "-m", "pegs_rules.spec", "check", cwd=tmp_path)
    total = len(load_cases()) + len(load_games()) + len(load_perft())
    assert re.fullmatch(
        rf"{total} passed, 0 failed, 0 skipped, 0 declined in [\d.]+ s",
        done.stdout.splitlines()[-1],
    )
    dumped = run(installed / "python", "-m", "pegs_rules.spec", "dump", cwd=tmp_path).stdout
    assert len(json.loads(dumped)["cases"]) == len(load_cases())


def test_the_installed_command_knows_its_version_and_its_rulings(
    installed: Path, tmp_path: Path
) -> None:
    version = run(installed / "pegs", "--version", cwd=tmp_path).stdout
    assert version.strip() == f"pegs {pegs_rules.__version__}"
    explained = run(installed / "pegs", "explain", "card.eight", cwd=tmp_path).stdout
    assert "exactly eight holes backwards, counter-clockwise" in " ".join(explained.split())


def test_the_installed_td_bot_loads_its_weights_from_the_wheel(
    installed: Path, tmp_path: Path
) -> None:
    demo = run(installed / "pegs", "demo", "--bots", "td,random", "--seed", "1", cwd=tmp_path)
    assert re.fullmatch(
        r"team 0 wins after \d+ turns: seat 0 \(td\) and seat 2 \(td\)",
        demo.stdout.splitlines()[-1],
    )


def test_a_check_that_finds_no_cases_fails(installed: Path, tmp_path: Path) -> None:
    """An installation whose suite went missing must not report success."""
    site = run(
        installed / "python",
        "-c",
        "import pegs_rules, os; print(os.path.dirname(pegs_rules.__file__))",
    ).stdout.strip()
    cases = Path(site) / "specs" / "cases"
    hidden = cases.with_name("cases-hidden")
    cases.rename(hidden)
    try:
        done = subprocess.run(
            [installed / "python", "-m", "pegs_rules.spec", "check"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            check=False,
        )
    finally:
        hidden.rename(cases)
    assert done.returncode != 0
    assert "missing" in done.stderr or "no conformance cases" in done.stderr
