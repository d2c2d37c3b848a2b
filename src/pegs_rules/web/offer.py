"""What the playground's set-up form offers, and the limits the page keeps.

``pegs web build`` writes :func:`hello` into the page's ``config.json``: the presets
with their house-rule switches, the bots, the rulings, the longest texts the page
accepts, and :data:`HINT_BOT`, the bot whose move a hint shows. The page plays,
and its bots and hints think, on the TypeScript engine (``js/pegs-rules.js``, see
:mod:`pegs_rules.web.build`); nothing of this library runs in the page.

>>> offer = hello()
>>> offer["hint_bot"], sorted(offer["presets"])
('expert', ['arizona', 'standard'])
>>> [switch["name"] for switch in offer["switches"]][:3]
['nine', 'face_values', 'two_swap']
"""

from __future__ import annotations

from enum import Enum
from typing import Any

from pegs_rules import __version__
from pegs_rules.bots import BOTS
from pegs_rules.rules import PRESETS, rule_text
from pegs_rules.rulings import RULINGS

MAX_POSITION = 100_000
"""The longest position text (or state JSON) accepted, in characters; real ones are a few kB."""
MAX_MOVE = 300
"""The longest move text accepted, in characters."""
HINT_BOT = "expert"
"""The bot whose move a hint shows: the strongest (any name
:func:`~pegs_rules.bots.make_bot` takes; the page makes it with the TypeScript engine's
``makeBot``, which chooses as this library's bot of that name and seed). It plays the seat
to act seeing only that seat's view, seeded from the position (its seed plus its ply), so a
hint repeats."""
PAGE_BOTS = tuple(name for name in BOTS if name != "td")
"""The bots the setup form offers: the library's but ``td``, which the TypeScript engine (where
the page's bots think) does not have."""
BOARD_SIZE = 640
"""Width of the board pictures, in pixels (the page scales them)."""

SWITCHES: tuple[tuple[str, str, str], ...] = (
    ("nine", "What a 9 may do", "variant.nine-split"),
    ("face_values", "Holes a J, Q and K move", "variant.face-values"),
    ("two_swap", "A 2 may swap two pegs", "variant.two-swap"),
    ("home_entry_compulsory", "A peg that can enter home must", "variant.home-entry-compulsory"),
    ("wait_on_in_spot", "A peg on its in-spot waits to go home", "variant.wait-on-in-spot"),
    ("in_spot_occupied", "A knocked team peg whose in-spot is held", "variant.in-spot-occupied"),
    ("decks", "Decks and jokers (players,decks,jokers)", "variant.decks"),
    ("control", "Whose pegs a seat moves", "team.control"),
    ("joker_source", "Which pegs a joker moves", "card.joker.source"),
    ("draw_first", "Draw a sixth card before playing", "turn.sequence"),
    ("hand_size", "Cards in a hand", "deal.hands"),
)
"""The house-rule switches the setup form offers: a field of
:class:`~pegs_rules.Rules`, its label and the ruling that defines it."""


def hello() -> dict[str, Any]:
    """What the setup form offers: presets with their switches, bots, limits."""
    switches = []
    for name, label, ruling in SWITCHES:
        value = getattr(PRESETS["arizona"], name)
        entry: dict[str, Any] = {"name": name, "label": label, "ruling": ruling, "kind": "text"}
        if isinstance(value, bool):
            entry["kind"] = "bool"
        elif isinstance(value, Enum):
            entry |= {"kind": "choice", "choices": [str(m.value) for m in type(value)]}
        switches.append(entry)
    return {
        "type": "hello",
        "version": __version__,
        "presets": {
            preset.name: {
                "players": list(preset.player_counts),
                "rules": {name: rule_text(preset, name) for name, _, _ in SWITCHES},
            }
            for preset in PRESETS.values()
        },
        "switches": switches,
        "bots": list(PAGE_BOTS),
        "rulings": RULINGS,
        "limits": {"position": MAX_POSITION, "move": MAX_MOVE},
        "hint_bot": HINT_BOT,
    }
