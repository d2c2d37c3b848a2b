"""The library's exceptions. Every error it raises on bad input is one of these."""

from __future__ import annotations


class PegsError(ValueError):
    """Base class of every error the library raises on bad input."""


class IllegalMoveError(PegsError):
    """A move that the rules forbid in the given state.

    ``rule`` is the id of the ruling that forbids it (for example
    ``move.blocking``); the message starts with it.
    """

    def __init__(self, rule: str, reason: str) -> None:
        super().__init__(f"[{rule}] {reason}")
        self.rule = rule
        self.reason = reason


class PositionError(PegsError):
    """A position that cannot occur: bad text, impossible peg placement, bad values."""


class NotationError(PegsError):
    """Text that is not a move or position in the documented notation."""


class RulesError(PegsError):
    """A rules object whose values or combination of switches cannot be played."""
