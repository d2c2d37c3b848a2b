"""A real browser for tests: the system Chromium driven by Playwright, and a static file server.

Where no Chromium (or no Playwright, or no npm for axe-core and esbuild) is found the
browser tests skip, saying why; with ``PEGS_REQUIRE_BROWSER=1`` in the environment
(CI sets it) a missing piece fails them instead.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from types import TracebackType
from typing import NoReturn

import pytest

REQUIRE = "PEGS_REQUIRE_BROWSER"
"""The environment variable that turns a missing browser into a failure."""
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"
"""Screenshots and other files the tests leave to look at (ignored by git)."""


def unavailable(reason: str) -> NoReturn:
    """Skip the test for lack of ``reason``; fail it where a browser is required."""
    if os.environ.get(REQUIRE, "") not in ("", "0"):
        pytest.fail(f"{reason} ({REQUIRE} is set, so the browser tests must run)", pytrace=False)
    pytest.skip(reason)


def chromium() -> str:
    """The system Chromium's path, or skip (see :func:`unavailable`)."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    if Path("/usr/bin/chromium").is_file():
        return "/usr/bin/chromium"
    unavailable("no Chromium found: install it (Debian: apt-get install chromium)")


NPM_FILES = {
    ".": ("axe-core/axe.min.js",),
    "js": (".bin/esbuild",),
}
"""What the browser tests need from ``node_modules``, by folder: axe-core; the TypeScript
engine's esbuild, which bundles it into the playground."""


def npm_ci(root: Path) -> None:
    """Install what :data:`NPM_FILES` lists with ``npm ci`` where any of it is missing, or skip."""
    for folder, files in NPM_FILES.items():
        where = root / folder
        if all((where / "node_modules" / name).is_file() for name in files):
            continue
        npm = shutil.which("npm")
        if npm is None:
            unavailable("node_modules is not installed and npm is not found: install Node.js")
        result = subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund"],
            cwd=where,
            capture_output=True,
            text=True,
            check=False,
            timeout=600,
        )
        if result.returncode != 0:
            unavailable(f"npm ci failed in {where}:\n{result.stdout}{result.stderr}")


def free_port() -> int:
    """A TCP port that is free on the loopback interface now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class StaticServer:
    """``python -m http.server`` serving ``folder`` on a free loopback port, as a subprocess."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        self.process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> StaticServer:
        command = [sys.executable, "-m", "http.server", str(self.port), "--bind", "127.0.0.1"]
        command += ["--directory", str(self.folder)]
        self.process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(self.url + "config.json", timeout=2):
                    return self
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(f"no static server on port {self.port}") from None
                time.sleep(0.1)

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.stop()

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            self.process = None
