"""What the playground's set-up form offers (``pegs_rules.web.offer``): every house-rule switch
with its ruling, the presets as the library defines them, the bots, and the hint's bot.

The page's bots and hint (the TypeScript engine's, in its worker) are checked against this
library's bots in Chromium: tests/test_web_playground.py.
"""

from __future__ import annotations

import dataclasses

from pegs_rules import Rules
from pegs_rules.rules import PRESETS, rule_text
from pegs_rules.rulings import RULINGS
from pegs_rules.web.offer import SWITCHES, hello


def test_hello_offers_every_house_rule_switch_with_its_ruling() -> None:
    offered = hello()
    fields = {f.name for f in dataclasses.fields(Rules)}
    assert {s["name"] for s in offered["switches"]} == fields - {"name", "player_counts"}
    for switch in offered["switches"]:
        assert switch["ruling"] in RULINGS
        value = getattr(PRESETS["arizona"], switch["name"])
        if switch["kind"] == "choice":
            assert switch["choices"] == [m.value for m in type(value)]
        else:
            assert switch["kind"] == ("bool" if isinstance(value, bool) else "text")
    for name, preset in PRESETS.items():
        preset_offered = offered["presets"][name]
        assert preset_offered["players"] == list(preset.player_counts)
        assert preset_offered["rules"] == {n: rule_text(preset, n) for n, _, _ in SWITCHES}
    assert offered["rulings"] == RULINGS
    assert offered["bots"] == ["random", "easy", "medium", "hard", "expert", "greedy", "mcts"]
    assert offered["hint_bot"] == "expert" and offered["hint_bot"] in offered["bots"]
    assert offered["limits"] == {"position": 100_000, "move": 300}
