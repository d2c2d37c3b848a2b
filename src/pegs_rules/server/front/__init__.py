"""The front door of ``pegs serve``: the page at ``/`` where a person sets up a game.

The page (``static/index.html`` with ``front.js``, in the playground's look:
its ``style.css`` is served at ``/play/style.css``) offers the presets, a few
house rules, and for each seat a person or a bot level; it creates the game
with ``POST /api/games`` and then shows the waiting room: a join link per
person's seat, the spectator link, who has joined (read from
``GET /api/games/{id}`` every two seconds), and the creator's own seat. What
it offers is written into the page as JSON (:func:`options`), from the
library's own lists.
"""

from __future__ import annotations

import functools
import json
from enum import Enum
from pathlib import Path
from typing import Any

from pegs_rules.bots.levels import LEVELS
from pegs_rules.rules import PRESETS
from pegs_rules.serialize import to_data
from pegs_rules.web.offer import SWITCHES

FILES = Path(__file__).parent / "static"
"""The page's files, served at ``/front/``."""
HOUSE_RULES = ("nine", "two_swap", "home_entry_compulsory", "wait_on_in_spot", "draw_first")
"""The house rules the page offers (of :data:`~pegs_rules.web.offer.SWITCHES`: those with
a few values; the rest are for ``POST /api/games`` itself)."""
MARK = "<!-- options -->"


def options() -> dict[str, Any]:
    """What the page offers: presets (player counts, house-rule values), house rules, bot levels."""
    labels = {name: (label, ruling) for name, label, ruling in SWITCHES}
    arizona = PRESETS["arizona"]
    rules = []
    for name in HOUSE_RULES:
        value = getattr(arizona, name)
        label, ruling = labels[name]
        entry: dict[str, Any] = {"name": name, "label": label, "ruling": ruling}
        if isinstance(value, Enum):
            entry["choices"] = [str(member.value) for member in type(value)]
        rules.append(entry)
    presets = {}
    for preset in PRESETS.values():
        data = to_data(preset)
        presets[preset.name] = {
            "players": list(preset.player_counts),
            "rules": {name: data[name] for name in HOUSE_RULES},
        }
    levels = [{"name": level.name, "label": level.label, "think": level.think} for level in LEVELS]
    return {"presets": presets, "house_rules": rules, "levels": levels}


@functools.cache
def page() -> str:
    """The front door's HTML, with :func:`options` written in."""
    text = json.dumps(options()).replace("</", "<\\/")
    return (FILES / "index.html").read_text(encoding="utf-8").replace(MARK, text)
