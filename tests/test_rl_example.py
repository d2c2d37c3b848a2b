"""The docs' learning example: it trains and tests, and the page reports the committed run as
its records give it (its features, which read only what a seat may see, are tested with the td
bot in test_td_bot.py).

The full run (minutes of training, 400 test games) is reported in docs/rl.rst
from docs/examples/results/td-learner.json, not run here.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import ModuleType

import pytest
from scripts import load_script

from pegs_rules.simulate import wilson

np = pytest.importorskip("numpy")

DOCS = Path(__file__).resolve().parents[1] / "docs"
EXAMPLE = DOCS / "examples" / "td_learner.py"
RUN = DOCS / "examples" / "results" / "td-learner.json"


def example() -> ModuleType:
    return load_script(EXAMPLE, "td_learner_example")


def test_a_few_games_of_training_then_test_games() -> None:
    learner = example()
    value = learner.Value()
    done = learner.train(value, seconds=60.0, max_games=2)
    assert done.games == 2 and np.count_nonzero(value.weights) > 0
    learnt = value.weights.copy()
    results = learner.test(value, 2)
    assert len(results) == 2 and set(results) <= {True, False}
    assert value.learning and (value.weights == learnt).all()  # the test learns nothing


def test_the_page_reports_the_committed_run() -> None:
    run = json.loads(RUN.read_text(encoding="utf-8"))
    wins, deals = sum(run["test"]), len(run["test"])
    low, high = wilson(wins, deals)
    page = (DOCS / "rl.rst").read_text(encoding="utf-8")
    said = f"won {wins} of {deals} new deals against medium ({wins / deals:.1%}, 95% interval [{low:.1%}, {high:.1%}])"
    assert said in page
    assert deals >= 400 and wins / deals >= 0.55 and run["cpu_seconds"] <= 30 * 60
    trained = f"trained on {run['games']} games in {run['cpu_seconds'] / 60:.1f} minutes of CPU"
    assert trained in page
    for games, spent, share in run["curve"][4::5]:
        assert re.search(
            rf"after +{games} games \( *{spent / 60:.1f} min\): won {share:.0%} of the last 200",
            page,
        )
