"""Seeds for the bots' generators that reveal nothing of the deal: :func:`derive_seed`.

A bot (or any agent) is handed a seed for its generator. If that seed were a
simple function of the deal's seed (``deal * 16 + seat``, say), an agent could
work the deal's seed out from its own and rebuild every hidden card with
:func:`~pegs_rules.new_game`. So a seat's seed is derived with a keyed hash:
HMAC-SHA-256 keyed with a secret the agent never sees (the deal's seed, which
the run's seed decides), over a label naming the purpose and the seat. Without
the key, the derived seed is indistinguishable from random bits (HMAC is a
pseudo-random function), so no value an agent holds lets it compute the deal,
as long as the key itself cannot be guessed.

That last condition is the run's to meet: a deal's seed that is a small number
(``pegs simulate --seed 1`` deals from seeds 1,000,000 on) can be found by
anyone who tries seeds one by one and compares the hand :func:`~pegs_rules.new_game`
deals with their own, whatever the bots' seeds are. A run whose agents are not
to be trusted (a competition between third parties) takes its seed from
:mod:`secrets` (``pegs simulate --seed $(python -c 'import secrets;
print(secrets.randbits(128))')``) and publishes it after the games, so that
every game can then be replayed.

>>> derive_seed(1_000_000, "simulate", "bot", "seat 0") == derive_seed(1_000_000, "simulate", "bot", "seat 0")
True
>>> derive_seed(1_000_000, "simulate", "bot", "seat 0") == derive_seed(1_000_000, "simulate", "bot", "seat 1")
False
>>> derive_seed(1, "x").bit_length() <= 128
True
"""

from __future__ import annotations

import hashlib
import hmac

__all__ = ["SEEDINGS", "derive_seed"]

SEEDINGS = ("keyed", "arithmetic")
"""The ways a run seeds its bots' generators: ``keyed`` (:func:`derive_seed`, the default), and
``arithmetic``, the simple formula of the runs recorded before it (a bot's seed a small function
of the deal's seed: kept only to replay those records, never for agents that are not trusted)."""


def derive_seed(secret: int, *label: str | int) -> int:
    """A 128-bit seed derived from ``secret`` for the purpose ``label`` names.

    The first 16 bytes (big-endian) of HMAC-SHA-256 keyed with the decimal text of
    ``secret``, over ``pegs-rules`` and the parts of ``label`` joined by ``/``.
    Different labels give unrelated seeds; the seed tells nothing of ``secret``.
    """
    message = "/".join(["pegs-rules", *(str(part) for part in label)]).encode("utf-8")
    digest = hmac.new(str(secret).encode("ascii"), message, hashlib.sha256).digest()
    return int.from_bytes(digest[:16], "big")
