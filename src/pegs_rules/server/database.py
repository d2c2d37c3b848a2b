"""Which database a server uses: :func:`open_store` chooses the store for a URL.

The interface (:mod:`~pegs_rules.server.store`) knows nothing of its
implementations; each of :mod:`~pegs_rules.server.sqlite` and
:mod:`~pegs_rules.server.postgres` imports it, and this module imports them,
PostgreSQL's only when a ``postgresql://`` URL asks for it (its driver is an
optional extra).
"""

from __future__ import annotations

from pegs_rules.server.store import Store, StoreError


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
