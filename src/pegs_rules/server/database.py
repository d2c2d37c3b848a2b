"""Which database a server uses: :func:`database_url` finds its URL, :func:`open_store` chooses
the store for it.

The URL may hold a password (``postgresql://pegs:PASSWORD@HOST/pegs``): on the
command line (``--db``) anyone on the machine reads it (``ps``), so it may come
from a file (``--db-file PATH``, readable by the server's user only) or the
environment (:data:`ENVIRONMENT`), or be left out of the URL altogether for
libpq's password file (``PGPASSFILE``, ``~/.pgpass``). :func:`safe_url` is the URL
as the log may show it, without its password.

The interface (:mod:`~pegs_rules.server.store`) knows nothing of its
implementations; each of :mod:`~pegs_rules.server.sqlite` and
:mod:`~pegs_rules.server.postgres` imports it, and this module imports them,
PostgreSQL's only when a ``postgresql://`` URL asks for it (its driver is an
optional extra).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from urllib.parse import urlsplit, urlunsplit

from pegs_rules.server.store import Store, StoreError

DEFAULT = "pegs-games.sqlite3"
"""The database when none is given: an SQLite file in the working folder."""
ENVIRONMENT = "PEGS_DATABASE_URL"
"""The environment variable that may hold the database's URL."""


def database_url(
    db: str | None = None, db_file: str | None = None, environ: Mapping[str, str] = os.environ
) -> str:
    """The database's URL: ``db`` (``--db``) if given, else the first line of the file
    ``db_file`` (``--db-file``), else ``$PEGS_DATABASE_URL``, else :data:`DEFAULT`.

    Raises :class:`~pegs_rules.server.store.StoreError` if both ``db`` and
    ``db_file`` are given, or the file cannot be read or is empty.

    >>> database_url(environ={})
    'pegs-games.sqlite3'
    >>> database_url(environ={"PEGS_DATABASE_URL": "postgresql://pegs@db/pegs"})
    'postgresql://pegs@db/pegs'
    """
    if db is not None and db_file is not None:
        raise StoreError("give the database with --db or with --db-file, not both")
    if db is not None:
        return db
    if db_file is not None:
        try:
            with open(db_file, encoding="utf-8") as file:
                url = file.readline().strip()
        except (OSError, UnicodeDecodeError) as error:
            raise StoreError(f"cannot read the database's URL from {db_file}: {error}") from None
        if not url:
            raise StoreError(f"{db_file} holds no database URL (its first line is empty)")
        return url
    return environ.get(ENVIRONMENT, "").strip() or DEFAULT


def has_password(url: str) -> bool:
    """Whether ``url`` is a PostgreSQL URL with a password in it."""
    return is_postgres(url) and urlsplit(url).password is not None


def safe_url(url: str) -> str:
    """``url`` as the log may show it: a PostgreSQL URL without its password (and query).

    >>> safe_url("postgresql://pegs:s3cret@db.example.org:5432/pegs?sslmode=verify-full")
    'postgresql://pegs@db.example.org:5432/pegs'
    >>> safe_url("games.sqlite3")
    'games.sqlite3'
    """
    if not is_postgres(url):
        return url
    parts = urlsplit(url)
    host = parts.netloc.rsplit("@", 1)[-1]
    user = f"{parts.username}@" if parts.username else ""
    return urlunsplit((parts.scheme, user + host, parts.path, "", ""))


def is_postgres(url: str) -> bool:
    """Whether ``url`` names a PostgreSQL database (else it is an SQLite file's path)."""
    return url.startswith(("postgresql://", "postgres://"))


def open_store(url: str, sync: str = "full", serving: bool = False) -> Store:
    """The store at ``url``: ``postgresql://USER@HOST:PORT/DB`` or an SQLite file's path.

    ``sync`` is how hard an SQLite commit waits for the disk (see
    :class:`~pegs_rules.server.sqlite.SqliteStore`). ``serving``: the store
    of a server process; an SQLite file then refuses a second one
    (:class:`~pegs_rules.server.store.StoreError`), while any number share a
    PostgreSQL database.
    """
    if is_postgres(url):
        try:
            from pegs_rules.server.postgres import PostgresStore
        except ImportError as error:
            raise StoreError(
                f"{error}; install the PostgreSQL driver with: pip install 'pegs-rules[postgres]'"
            ) from None
        return PostgresStore(url)
    from pegs_rules.server.sqlite import SqliteStore

    return SqliteStore(url, sync, serving=serving)
