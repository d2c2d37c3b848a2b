"""A throwaway PostgreSQL server for tests: ``initdb`` and ``pg_ctl`` in a temporary folder.

The server is Debian's (package ``postgresql``; its programs are found on the
``PATH`` or in ``/usr/lib/postgresql/VERSION/bin``), listening on a free
loopback port, with the user ``pegs`` trusted; it is stopped and its folder
removed afterwards. PostgreSQL refuses to run as root, so as root it runs as
the ``postgres`` user that the package creates.

Where PostgreSQL is missing the tests that need it skip, saying why; with
``PEGS_REQUIRE_POSTGRES=1`` in the environment (CI sets it) they fail instead.
"""

from __future__ import annotations

import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

import pytest

REQUIRE = "PEGS_REQUIRE_POSTGRES"
"""The environment variable that turns a missing PostgreSQL into a failure."""
USER = "pegs"
"""The database user the tests connect as (trusted: no password)."""


def unavailable(reason: str) -> NoReturn:
    """Skip the test for lack of ``reason``; fail it where PostgreSQL is required."""
    if os.environ.get(REQUIRE, "") not in ("", "0"):
        pytest.fail(f"{reason} ({REQUIRE} is set, so the PostgreSQL tests must run)", pytrace=False)
    pytest.skip(reason)


def programs() -> Path:
    """The folder holding ``initdb`` and ``pg_ctl``, or skip (see :func:`unavailable`)."""
    found = shutil.which("pg_ctl")
    if found and shutil.which("initdb"):
        return Path(found).resolve().parent
    versions = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"), key=lambda p: int(p.parts[-3])
    )
    if versions:
        return versions[-1].parent
    unavailable("PostgreSQL is not installed (Debian: apt-get install postgresql)")


def driver() -> None:
    """Skip (see :func:`unavailable`) unless the PostgreSQL driver is installed."""
    try:
        import psycopg  # noqa: F401
        import psycopg_pool  # noqa: F401
    except ImportError:
        unavailable("the PostgreSQL driver is not installed: pip install -e '.[dev]'")


def free_port() -> int:
    """A loopback port that was free a moment ago."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass
class Cluster:
    """A running PostgreSQL server, which a test may also stop, start and restart."""

    folder: Path
    port: int
    _names: Iterator[int]
    _pg_ctl: list[str]
    """``pg_ctl -D DATA -l LOG -o OPTIONS``, run as the data folder's owner."""

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """The URL of a new, empty database."""
        import psycopg

        name = f"pegs{next(self._names)}"
        with psycopg.connect(self.url(), autocommit=True) as db:
            db.execute(f"create database {name}")
        return self.url(name)

    def restart(self, mode: str = "fast") -> None:
        """``pg_ctl restart -m MODE``: every connection is cut, and the server is back at once."""
        self._control("-m", mode, "-w", "restart")

    def stop(self, mode: str = "fast") -> None:
        self._control("-m", mode, "-w", "stop")

    def start(self) -> None:
        self._control("-w", "start")

    def _control(self, *arguments: str) -> None:
        done = subprocess.run([*self._pg_ctl, *arguments], capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"pg_ctl {' '.join(arguments)} failed: {done.stderr}")


def as_owner(command: list[str], owner: str | None) -> list[str]:
    return ["runuser", "-u", owner, "--", *command] if owner else command


@contextmanager
def cluster() -> Iterator[Cluster]:
    """Start a PostgreSQL server in a temporary folder; stop it and remove the folder after."""
    driver()
    bin_dir = programs()
    owner = None
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            unavailable("running as root, and there is no 'postgres' user to run PostgreSQL as")
        owner = "postgres"
    folder = Path(tempfile.mkdtemp(prefix="pegs-postgres-"))
    if owner:
        shutil.chown(folder, owner)
    data = folder / "data"
    log = folder / "server.log"
    try:
        initdb = [str(bin_dir / "initdb"), "-D", str(data), "-A", "trust", "-U", USER]
        initdb += ["-E", "UTF8", "--no-sync", "--no-instructions"]
        subprocess.run(as_owner(initdb, owner), check=True, capture_output=True)
        port = free_port()
        options = f"-h 127.0.0.1 -p {port} -k {folder} -F -c max_connections=200"
        pg_ctl = as_owner(
            [str(bin_dir / "pg_ctl"), "-D", str(data), "-l", str(log), "-o", options], owner
        )
        started = subprocess.run([*pg_ctl, "-w", "start"], capture_output=True, text=True)
        if started.returncode != 0:
            text = log.read_text() if log.exists() else started.stderr
            raise RuntimeError(f"PostgreSQL did not start: {text}")
        try:
            yield Cluster(folder, port, itertools.count(1), pg_ctl)
        finally:
            subprocess.run([*pg_ctl, "-m", "immediate", "-w", "stop"], capture_output=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
