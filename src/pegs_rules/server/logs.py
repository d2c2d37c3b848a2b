"""The server's log: one format, one line an event, and so many lines a minute about a client.

Every line is ``TIME LEVEL SOURCE MESSAGE``: the time in UTC (ISO 8601, to the
millisecond), the level, where it comes from (``server``: this package;
``access``: a request or WebSocket handshake; ``uvicorn``: the web server;
otherwise the logger's name) and the message (:class:`OneLine`). A message of
several lines (a database's error, a traceback) is folded onto one, each line
break written ``\\n``, and any other control character as ``\\xNN``: a client
can neither break a line nor send escape codes to the operator's terminal.

The access log (a line per request and per WebSocket handshake) may be
``all``, ``off``, or a fraction of it (``0.1``: one line in ten, counted, not
drawn at random); of what is left, at most :data:`ACCESS_PER_CLIENT` lines a
minute are about one client address (:func:`~pegs_rules.server.limits.client_key`),
the rest summed up in one line at the end of the minute (:class:`AccessLog`).
With the clients' mistakes (:data:`~pegs_rules.server.limits.MISTAKES`, 10 a
minute) and the requests that failed on the server's side
(:data:`~pegs_rules.server.limits.FAILURES`, 3), one client makes the server
write at most 76 lines a minute about it, summing-up lines included.
The web server's own lines about a connection ("connection open", "connection
closed") say nothing the access line does not, and are left out; its warnings
about a malformed request go through the clients' mistakes
(:data:`~pegs_rules.server.limits.MISTAKES`), so many a minute.

>>> import logging
>>> line = OneLine().format(logging.makeLogRecord(
...     {"name": "pegs_rules.server", "levelname": "ERROR", "msg": "failed:\\nline 2\\x1b[31m",
...      "created": 0.0, "msecs": 0.0}))
>>> line
'1970-01-01T00:00:00.000Z ERROR server failed:\\\\nline 2\\\\x1b[31m'
"""

from __future__ import annotations

import logging
import re
import sys
import threading
import time
from typing import Any

from pegs_rules.server.limits import FAILURES, MISTAKES, Budget, client_key

ACCESS_PER_CLIENT = 60
"""Access lines a minute about one client address; the rest are summed up in one line."""
SOURCES = {"pegs_rules.server": "server", "uvicorn.access": "access", "uvicorn.error": "uvicorn"}
"""The short name of each logger in the log's lines."""
QUIET = ("connection open", "connection closed", "connection rejected")
"""The web server's lines about a connection that the access line already says."""
CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")


def fold(text: str) -> str:
    """``text`` on one line: line breaks as ``\\n``, other control characters as ``\\xNN``."""
    text = text.replace("\r\n", "\n")
    return CONTROL.sub(lambda m: "\\n" if m[0] == "\n" else f"\\x{ord(m[0]):02x}", text)


class OneLine(logging.Formatter):
    """Each record as one line: ``TIME LEVEL SOURCE MESSAGE`` (see the module), folded."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(source)s %(message)s")

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        """The record's time in UTC, ISO 8601 to the millisecond."""
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
        return f"{stamp}.{int(record.msecs):03d}Z"

    def format(self, record: logging.LogRecord) -> str:
        """The record on one line (its traceback too, if any)."""
        record.source = SOURCES.get(record.name, record.name)
        if record.name == "uvicorn.error" and str(record.msg).startswith('%s - "WebSocket '):
            record.source = "access"  # uvicorn writes its handshakes' lines there
        return fold(super().format(record))


def access_client(record: logging.LogRecord) -> str:
    """The client an access line is about (its :func:`client_key`), from its first argument,
    uvicorn's ``HOST:PORT`` (an IPv6 host unbracketed).

    >>> access_client(logging.makeLogRecord({"args": ("2001:db8:1:2:3:4:5:6:443", "GET")}))
    '2001:db8:1:2::/64'
    """
    args = record.args if isinstance(record.args, tuple) else ()
    address = str(args[0]) if args else ""
    return client_key(address.rsplit(":", 1)[0].strip("[]")) if address else "unknown"


class AccessLog(logging.Filter):
    """A filter on uvicorn's loggers: the access log sampled (``share``) and bounded per client.

    Attached to ``uvicorn.access`` (a line per HTTP request) and
    ``uvicorn.error`` (where uvicorn writes its WebSocket handshakes, its
    warnings about malformed requests and its connections' comings and goings).
    """

    def __init__(self, share: float, per_client: int = ACCESS_PER_CLIENT) -> None:
        super().__init__()
        self.share = share
        self.credit = 0.0
        self.budget = Budget(per_client, None, "access log lines", logging.INFO)

    def filter(self, record: logging.LogRecord) -> bool:
        message = str(record.msg)
        if record.name == "uvicorn.error":
            if message.startswith(QUIET):
                return False
            if record.levelno == logging.WARNING and not message.startswith("%s - "):
                # a malformed request, an unsupported upgrade: so many a minute, as mistakes
                MISTAKES.warn("malformed HTTP", "a client sent a bad request: %s", message[:200])
                return False
            if not message.startswith('%s - "WebSocket '):
                return True  # the web server's own news: starting, stopping, its errors
        if self.share <= 0.0:
            return False
        self.credit += self.share
        if self.credit < 1.0 - 1e-9:
            return False
        self.credit -= 1.0
        return self.budget.allow(access_client(record))


ACCESS = AccessLog(1.0)
"""The server process's access log filter (:func:`configure` sets its share)."""


def sum_up() -> None:
    """Write the summary lines of what this minute did not log one by one (at shutdown)."""
    ACCESS.budget.sum_up()
    MISTAKES.sum_up()
    FAILURES.sum_up()


def catch_uncaught() -> None:
    """Send an exception nobody caught (in the main thread or another) to the log, folded
    onto one line like the rest, rather than as a bare traceback on standard error."""
    logger = logging.getLogger("pegs_rules.server")

    def main_thread(kind: type[BaseException], error: BaseException, trace: Any) -> None:
        if issubclass(kind, KeyboardInterrupt):
            sys.__excepthook__(kind, error, trace)
            return
        logger.critical("uncaught %s", kind.__name__, exc_info=(kind, error, trace))

    def other_thread(args: threading.ExceptHookArgs) -> None:
        if args.exc_value is None:
            return
        where = args.thread.name if args.thread else "a thread"
        exc_info = (args.exc_type, args.exc_value, args.exc_traceback)
        logger.error("uncaught %s in %s", args.exc_type.__name__, where, exc_info=exc_info)

    sys.excepthook = main_thread
    threading.excepthook = other_thread


def configure_worker() -> None:
    """In a bot worker process: its log lines, if any (WARNING and up), in the server's format."""
    handler = logging.StreamHandler()
    handler.setFormatter(OneLine())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.WARNING)
    catch_uncaught()


def configure(access: float) -> AccessLog:
    """Send every log line to standard error as one line (:class:`OneLine`), INFO and up, the
    access log at ``access`` (a share from 0, off, to 1, all); returns the access log's filter."""
    handler = logging.StreamHandler()
    handler.setFormatter(OneLine())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    # the registry logs the database's comings and goings, once each: not the pool's every try
    logging.getLogger("psycopg.pool").setLevel(logging.ERROR)
    catch_uncaught()
    access_log = ACCESS
    access_log.share = access
    for name in ("uvicorn.access", "uvicorn.error"):
        logger = logging.getLogger(name)
        logger.handlers.clear()
        logger.propagate = True
        logger.addFilter(access_log)
    return access_log
