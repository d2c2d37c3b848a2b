"""Give the strength records (and the fairness study's) committed before records named their code
what can be known of it without playing a game again (issue 38). Run once; running it again
changes nothing.

For each run of ``pegs simulate`` in docs/strength/results that has no ``provenance``: the
config gains ``"seeding": "arithmetic"`` (how its bots were seeded, the only way there was),
each game's record its bots' seeds (computed from that formula, which is what the games were
played with: the tests replay games with them), and the document a ``provenance`` saying what
the git history shows: version 0.2.0, played by the code of commits a2a05df to d3d687a (as the
strength page said), committed in the commits that added or changed the file, and whether its
games replay move for move. Nothing else is touched: the games, the summary and the layout stay
as ``write_json`` wrote them. The fairness study's runs (docs/study/results, 30,000 games) get
the same but their games' seeds, which the config's seeding gives (SimulationConfig.bot_seeds) and
which would add a tenth to their size; they were played by version 0.1.0, at commit 8fa4495 with
the --preset and --rule options added (as the fairness page says).

    python docs/strength/provenance.py
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parent / "results"
ROOT = RESULTS.parents[2]
STUDY = ROOT / "docs" / "study" / "results"
sys.path.insert(0, str(ROOT / "src"))

from pegs_rules.simulate import config_from_document, not_replayable  # noqa: E402

PLAYED_BY = (
    "pegs-rules 0.2.0, the code of commits a2a05df612b8519b7cf1a4975894a8663804ebab to "
    "d3d687ad90e8a5c5fb5b051eed2b8829366e5546 (whose bots choose the same moves); which "
    "commit played which game was not recorded"
)
STUDY_PLAYED_BY = (
    "pegs-rules 0.1.0, the code of commit 8fa4495d2ca08a9c1322edfc16d3a5d74e8195dd with the "
    "--preset and --rule options of pegs simulate added (the study's own commit, c66633c, was "
    "rebased away)"
)


BEFORE = "285be55fdd8163749e0fbeabb543f77d2c09ffbc"
"""The last commit before this script (issue 38): the commits that committed the games came
before it."""


def commits_of(path: Path) -> list[str]:
    """The commits that added or changed ``path`` before :data:`BEFORE`, oldest first."""
    out = subprocess.run(
        ["git", "-C", str(ROOT), "log", "--format=%H", "--follow", BEFORE, "--", str(path)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return out[::-1]


def layout(document: dict[str, Any], games: list[dict[str, Any]]) -> str:
    """``document`` and its ``games`` in the layout of :func:`pegs_rules.simulate.write_json`."""
    rows = ",\n".join(json.dumps(row, separators=(",", ":")) for row in games)
    head = json.dumps(document, indent=1)[:-2]
    return f'{head},\n "games": [\n{rows}\n ]\n}}\n'


def migrate(path: Path, played_by: str = PLAYED_BY, seeds: bool = True) -> bool:
    """Add what is known to the run in ``path`` (with each game's bot seeds if ``seeds``);
    ``False`` if it had it already."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if "config" not in data or "provenance" in data:  # a match of ideas.py: migrate_idea
        return False
    data["config"].setdefault("seeding", "arithmetic")
    config = config_from_document(data["config"])
    why = not_replayable(config)
    games = data.pop("games")
    for row in games if seeds else ():
        items = list(row.items())
        at = [key for key, _ in items].index("first_team")
        bot_seeds = list(config.bot_seeds(int(row["index"])))
        row.clear()
        row.update([*items[:at], ("bot_seeds", bot_seeds), *items[at:]])
    document = {
        "config": data.pop("config"),
        "provenance": {
            "written_by": f"{played_by.split(',')[0]}, before records named their code",
            "played_by": [played_by],
            "committed_in": commits_of(path),
            "added_later": (
                "docs/strength/provenance.py (issue 38) added the config's seeding, "
                + (
                    "each game's bot_seeds (from that seeding's formula)"
                    if seeds
                    else "no bot_seeds (the seeding's formula gives them)"
                )
                + " and this provenance, replaying nothing"
            ),
            "python": "not recorded (CPython 3.11 on the project's machine)",
            "platform": None,
            "seeding": "arithmetic",
            "replayable": why is None,
            "not_replayable_because": why,
        },
        **data,
    }
    path.write_text(layout(document, games), encoding="utf-8")
    return True


def migrate_idea(path: Path) -> bool:
    """Give a match of docs/strength/ideas.py its provenance; ``False`` if it had one."""
    text = path.read_text(encoding="utf-8")
    data = json.loads(text)
    if "provenance" in data:
        return False
    timed = data["match"] != "joker"
    provenance = {
        "written_by": "pegs-rules 0.2.0, before records named their code",
        "played_by": [PLAYED_BY],
        "committed_in": commits_of(path),
        "added_later": "docs/strength/provenance.py (issue 38), replaying nothing",
        "seeding": "arithmetic",
        "replayable": not timed,
        "not_replayable_because": "both sides think for 0.05 s a move" if timed else None,
    }
    head, games = text.split(',\n "games": [\n', 1)
    document = json.loads(head + "}")
    document["provenance"] = provenance
    path.write_text(json.dumps(document, indent=1)[:-2] + ',\n "games": [\n' + games, "utf-8")
    return True


def main() -> int:
    for path in sorted(RESULTS.glob("*.json")):
        if migrate(path):
            print(f"{path.name}: provenance added")
    for path in sorted(RESULTS.glob("idea-*.json")):
        if migrate_idea(path):
            print(f"{path.name}: provenance added")
    for path in sorted(STUDY.glob("*.json")):
        if migrate(path, STUDY_PLAYED_BY, seeds=False):
            print(f"{path.name}: provenance added")
    return 0


if __name__ == "__main__":
    sys.exit(main())
