"""Talking to an engine over the protocol: in this process, or as a program with timeouts.

An :class:`Engine` answers requests in order. :class:`ReferenceEngine`
is this library, called directly; :class:`EngineProcess` runs any program
that speaks the protocol on its standard input and output. :meth:`~Engine.ask`
sends a request and waits for its answer; :meth:`~Engine.send` and
:meth:`~Engine.receive` keep several requests in flight (the engine still
reads one line and answers one line at a time, in order), so that a program
is never left waiting for the next request: the fuzzer works so. Fields
shared by many requests (a position) can be encoded once (:class:`Shared`).
A process that does not answer within the timeout, exits, or answers out of
turn makes the call raise :class:`EngineFailure` for that request and is
stopped, every request in flight lost; the next request starts it again
(with a new handshake). If it cannot even answer the handshake,
:class:`EngineUnusable` is raised.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import shlex
import signal
import subprocess
import threading
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import IO, Any, Protocol

from pegs_rules.errors import PegsError
from pegs_rules.spec.protocol import PROTOCOL, handle

_STDERR_LINES = 20
MAX_ANSWER = 1 << 24
"""The longest answer line read, in bytes (16 MiB): a longer one fails as the engine's, so that
an engine writing without end cannot fill the harness's memory."""
_TOO_LONG = b""
"""What the reader queues for an answer longer than :data:`MAX_ANSWER` (no line read is empty)."""
_ERROR_PIECE = 4096
"""The longest piece of a line of error output kept: longer lines are kept in pieces."""


class EngineFailure(PegsError):
    """An engine gave no usable answer to a request (timeout, exit, garbage)."""


class EngineUnusable(EngineFailure):
    """An engine that cannot be started or does not answer the handshake."""


@dataclass(frozen=True, slots=True)
class Shared:
    """Fields that many requests carry alike (a position), encoded as JSON once."""

    fields: dict[str, Any]
    text: str

    @classmethod
    def of(cls, fields: dict[str, Any]) -> Shared:
        return cls(fields, json.dumps(fields))


_NOTHING = Shared({}, "{}")


class Engine(Protocol):
    """Anything that answers protocol requests."""

    name: str

    def handshake(self) -> dict[str, Any]:
        """The engine's ``hello`` answer (starting it if need be); :class:`EngineUnusable`
        if there is none."""
        ...

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        """The answer to ``request``; :class:`EngineFailure` if there is none."""
        ...

    def send(self, request: dict[str, Any], shared: Shared = _NOTHING) -> None:
        """Send ``request`` with the ``shared`` fields, without waiting for its answer."""
        ...

    def receive(self) -> dict[str, Any]:
        """The answer to the oldest request sent and not yet answered; :class:`EngineFailure`
        if there is none (the requests still in flight are lost)."""
        ...

    def close(self) -> None:
        """Stop the engine."""
        ...


class ReferenceEngine:
    """This library, answering through :func:`~pegs_rules.spec.protocol.handle`."""

    name = "pegs-rules (in process)"

    def __init__(self) -> None:
        self._answers: deque[dict[str, Any]] = deque()

    def handshake(self) -> dict[str, Any]:
        return self.ask({"id": 0, "type": "hello", "protocol": PROTOCOL})

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        answer = handle(request)
        if answer is None:  # pragma: no cover - the harness never sends quit here
            raise EngineFailure("no answer to quit")
        return answer

    def send(self, request: dict[str, Any], shared: Shared = _NOTHING) -> None:
        self._answers.append(self.ask({"id": 0, **request, **shared.fields}))

    def receive(self) -> dict[str, Any]:
        return self._answers.popleft()

    def close(self) -> None:
        """Nothing to stop."""


class EngineProcess:
    """A program that speaks the protocol, started from ``command`` (a list or a shell-like string).

    Each request waits at most ``timeout`` seconds for its answer.
    """

    def __init__(self, command: str | Sequence[str], timeout: float = 10.0) -> None:
        self.command = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.command:
            raise EngineUnusable("no engine command given")
        self.timeout = timeout
        self.name = " ".join(self.command)
        self.hello: dict[str, Any] = {}
        self.restarts = 0
        self._process: subprocess.Popen[bytes] | None = None
        self._lines: queue.Queue[bytes | None] = queue.Queue()
        self._outbox: queue.Queue[bytes | None] = queue.Queue()
        self._stderr: deque[str] = deque(maxlen=_STDERR_LINES)
        self._stderr_reader = threading.Thread()
        self._next_id = 0
        self._in_flight: deque[int] = deque()

    def handshake(self) -> dict[str, Any]:
        if self._process is None:
            self._start()
        return self.hello

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        self.send(request)
        return self.receive()

    def send(self, request: dict[str, Any], shared: Shared = _NOTHING) -> None:
        if self._process is None:
            self._start()
        self._put(request, shared)

    def receive(self) -> dict[str, Any]:
        return self._take()

    def close(self) -> None:
        """Ask the engine to quit; stop it if it does not within a second."""
        process = self._process
        if process is None:
            return
        self._next_id += 1
        self._outbox.put(json.dumps({"id": self._next_id, "type": "quit"}).encode("utf-8") + b"\n")
        self._outbox.put(None)  # the writer closes the engine's input
        try:
            process.wait(timeout=1)
        except subprocess.TimeoutExpired:
            self._kill()
        self._process = None
        self._in_flight.clear()

    def __enter__(self) -> EngineProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- the process ----------------------------------------------------------------------------

    def _start(self) -> None:
        if self.hello:
            self.restarts += 1
        self._lines = queue.Queue()
        self._outbox = queue.Queue()
        self._stderr = deque(maxlen=_STDERR_LINES)
        try:
            process = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=os.name == "posix",  # so that a stop reaches its children
            )
        except OSError as error:
            raise EngineUnusable(f"cannot start {self.name!r}: {error}") from None
        self._process = process
        assert process.stdin is not None
        assert process.stdout is not None and process.stderr is not None
        threading.Thread(
            target=_write_lines, args=(process.stdin, self._outbox), daemon=True
        ).start()
        threading.Thread(
            target=_read_lines, args=(process.stdout, self._lines), daemon=True
        ).start()
        self._stderr_reader = threading.Thread(
            target=_keep_tail, args=(process.stderr, self._stderr), daemon=True
        )
        self._stderr_reader.start()
        try:
            hello = self._exchange({"type": "hello", "protocol": PROTOCOL})
        except EngineFailure as error:
            raise EngineUnusable(f"the engine did not answer hello: {error}") from None
        if hello.get("protocol") != PROTOCOL:
            self._kill()
            raise EngineUnusable(
                f"the engine speaks protocol {hello.get('protocol')!r}, not {PROTOCOL}"
            )
        self.hello = hello
        self.name = f"{' '.join(self.command)} ({hello.get('engine')} {hello.get('version')})"

    def _exchange(self, request: dict[str, Any]) -> dict[str, Any]:
        self._put(request, _NOTHING)
        return self._take()

    def _put(self, request: dict[str, Any], shared: Shared) -> None:
        """Queue ``request`` (its id the next one), with the ``shared`` fields spliced in, for
        the writer: a program that stops reading its input never blocks the caller, whose
        wait for the answer then times out."""
        self._next_id += 1
        text = json.dumps({"id": self._next_id, **request})
        if shared.fields:
            text = text[:-1] + ", " + shared.text[1:]
        self._outbox.put(text.encode("utf-8") + b"\n")
        self._in_flight.append(self._next_id)

    def _take(self) -> dict[str, Any]:
        """The answer to the oldest request in flight, which must carry its id."""
        if not self._in_flight:
            raise EngineFailure("no request is waiting for an answer")
        ident = self._in_flight.popleft()
        try:
            line = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            raise self._failure(f"no answer within {self.timeout:g} s") from None
        if line is _TOO_LONG:
            raise self._failure(f"an answer longer than {MAX_ANSWER:,} bytes")
        if line is None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                assert self._process is not None
                self._process.wait(timeout=2)
            raise self._failure("the engine exited")
        try:
            answer = json.loads(line)
        except ValueError:
            raise self._failure(f"the answer is not JSON: {_clip(line)}") from None
        if not isinstance(answer, dict) or answer.get("id") != ident:
            raise self._failure(f"an answer out of turn (not id {ident}): {_clip(line)}")
        return answer

    def _failure(self, what: str) -> EngineFailure:
        """Stop the engine (it is restarted for the next request) and say what went wrong."""
        self._in_flight.clear()
        code = self._kill()
        self._stderr_reader.join(timeout=1)
        tail = list(self._stderr)
        text = what + ("" if code is None else f" (exit status {code})")
        if tail:
            text += "; its last error output:\n" + "\n".join(f"    {x}" for x in tail)
        return EngineFailure(text)

    def _kill(self) -> int | None:
        """Stop the process and its children; its exit status if it had already exited."""
        process, self._process = self._process, None
        if process is None:
            return None
        self._outbox.put(None)
        code = process.poll()
        if code is None:
            if os.name == "posix":
                with contextlib.suppress(OSError):
                    os.killpg(process.pid, signal.SIGKILL)
            else:  # pragma: no cover
                process.kill()
        process.wait()
        for pipe in (process.stdin, process.stdout, process.stderr):
            with contextlib.suppress(OSError):
                if pipe is not None:
                    pipe.close()
        return code


def _write_lines(pipe: IO[bytes], lines: queue.Queue[bytes | None]) -> None:
    """Write each line queued, until ``None``; then close the pipe. A pipe that fails (the
    program exited) ends the writing: the reader sees the program's end."""
    with contextlib.suppress(OSError, ValueError):
        for line in iter(lines.get, None):
            pipe.write(line)
            if lines.empty():
                pipe.flush()
        pipe.close()


def _read_lines(pipe: IO[bytes], lines: queue.Queue[bytes | None]) -> None:
    """Queue each line the program writes, then ``None`` at its end; a line longer than
    :data:`MAX_ANSWER` ends the reading with :data:`_TOO_LONG`."""
    with contextlib.suppress(OSError, ValueError):
        while line := pipe.readline(MAX_ANSWER + 1):
            if len(line) > MAX_ANSWER:
                lines.put(_TOO_LONG)
                return
            lines.put(line)
    lines.put(None)


def _keep_tail(pipe: IO[bytes], tail: deque[str]) -> None:
    """Keep the last lines of the program's error output (a long one in pieces)."""
    with contextlib.suppress(OSError, ValueError):
        while piece := pipe.readline(_ERROR_PIECE):
            tail.append(piece.decode("utf-8", "replace").rstrip())


def _clip(line: bytes, size: int = 120) -> str:
    text = line.decode("utf-8", "replace").strip()
    return text if len(text) <= size else text[:size] + "..."
