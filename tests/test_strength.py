"""The bots' strength page shows what its per-game records give, the levels are in order, the
records name their code and seeds, the summaries written beside them are what they give, and a
sample of the games of every run that can replay does.

Every figure of docs/strength.rst is in docs/strength/figures.inc (the page's
text holds none of its own); the figures are computed here again from the
records of every game, never from the summaries the results files also hold.
"""

from __future__ import annotations

import json
import os
import random
import re
import secrets
import shutil
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from scripts import load_script
from test_study import config_of

from pegs_rules.bots.td import shipped_weights
from pegs_rules.simulate import (
    SimulationConfig,
    config_from_document,
    game_from_row,
    not_replayable,
    play_game,
    read_json,
    replay_differences,
    report,
    summarize,
    wilson,
    write_json,
)

DOCS = Path(__file__).resolve().parents[1] / "docs"
RESULTS = DOCS / "strength" / "results"
PAGE = DOCS / "strength.rst"
FIGURES = DOCS / "strength" / "figures.inc"
LEVELS = ("random", "easy", "medium", "hard", "expert")
QUICK = ("rr-easy-random", "rr-medium-random", "rr-medium-easy")
"""The round-robin runs without a searching bot: cheap enough to replay here."""


def figures() -> ModuleType:
    """docs/strength/figures.py, which computes the page's figures."""
    return load_script(DOCS / "strength" / "figures.py", "strength_figures")


def computed(results: Path = RESULTS) -> str:
    made = figures()
    text: str = made.figures(made.Results.load(results))
    return text


def test_the_page_shows_what_the_records_give() -> None:
    assert FIGURES.read_text(encoding="utf-8") == computed(), (
        "docs/strength/figures.inc is not what the per-game records give: "
        "run python docs/strength/figures.py (and read the page again)"
    )


def test_the_page_holds_no_figure_of_its_own() -> None:
    """Win counts, shares and times on the page come from figures.inc, which the test checks."""
    text = PAGE.read_text(encoding="utf-8")
    results = re.sub(r"(?<![\d.])95%", "", text)  # the intervals' level is no result
    assert not re.findall(r"\d+(?:\.\d+)?%|\b\d[\d,]* of \d[\d,]* games|\d ms\b", results)
    used = set(re.findall(r"\|([\w.-]+)\|", text))
    given = set(re.findall(r"^\.\. \|([\w.-]+)\| replace::", FIGURES.read_text(), re.M))
    assert used <= given
    for table in re.findall(r"^\.\. table ([\w-]+)$", FIGURES.read_text(), re.M):
        assert f":start-after: .. table {table}\n" in text  # every table is on the page


def run_file(folder: Path, name: str) -> Path:
    """The file of run ``name``: its ``--json`` file, or the records of a run stopped early."""
    path = folder / f"{name}.json"
    return path if path.exists() else folder / f"{name}.jsonl"


def games_of(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A run's config and its games' records, from either kind of file."""
    if path.suffix == ".jsonl":
        head, *rows = path.read_text(encoding="utf-8").splitlines()
        return json.loads(head)["config"], [json.loads(row) for row in rows]
    data = json.loads(path.read_text(encoding="utf-8"))
    return data["config"], data["games"]


@pytest.mark.parametrize(
    ("name", "index"),
    [
        ("rr-hard-medium", 7),
        ("rr-medium-easy", 150),
        ("rr-expert-hard", 5),
        ("expert-mcts-6p-0.05s", 20),
        ("expert-mcts-8p-0.05s", 12),
        ("idea-joker", 3),
        ("td-medium", 100),
        ("td-hard", 3),
    ],
)
def test_one_game_won_by_the_other_side_changes_the_page(
    tmp_path: Path, name: str, index: int
) -> None:
    for path in RESULTS.glob("*.json*"):
        shutil.copy(path, tmp_path)
    path = run_file(tmp_path, name)
    lines = path.read_text(encoding="utf-8").splitlines()
    if path.suffix == ".jsonl":  # the records of a run stopped early, one game a line
        number = next(
            n for n, line in enumerate(lines[1:], 1) if json.loads(line)["index"] == index
        )
        game = json.loads(lines[number])
    else:
        data = json.loads(path.read_text(encoding="utf-8"))
        game = data["games"][index]
    game["winner_side"] = 1 - game["winner_side"]
    if "winner" in game:  # a simulation's record: the winning team too, and the pegs home
        game["winner"] = 1 - game["winner"]
        game["home"] = game["home"][::-1]
    if path.suffix == ".jsonl":
        lines[number] = json.dumps(game)
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    else:
        path.write_text(json.dumps(data), encoding="utf-8")
    assert computed(tmp_path) != FIGURES.read_text(encoding="utf-8")


@pytest.mark.parametrize("path", sorted(RESULTS.glob("[ret]*.json*")), ids=lambda path: path.name)
def test_each_game_record_agrees_with_itself_and_the_summary(path: Path) -> None:
    """A record's winning side is its winning team seen from the seats it was dealt; a finished
    run holds all its games and the summary written for people to read is the one they give; a
    run stopped early holds its first games."""
    document, games = games_of(path)
    config = config_of({"config": document})
    games.sort(key=lambda row: int(row["index"]))
    if path.suffix == ".jsonl":
        assert 0 < len(games) < config.games
    else:
        assert len(games) == config.games
    for index, row in enumerate(games):
        assert row["index"] == index and row["seats"] == list(config.seats(index))
        assert row["swapped"] == config.swapped(index) and row["seed"] == config.game_seed(index)
        assert row["winner_side"] == row["winner"] ^ row["swapped"]
    if path.suffix == ".json":
        data = json.loads(path.read_text(encoding="utf-8"))
        summary = summarize(config, read_json(path).games)
        assert [side["wins"] for side in data["summary"]["sides"]] == list(summary.side_wins)
        assert data["summary"]["unfinished"] == summary.unfinished == 0


def test_a_stopped_run_counts_its_first_games_and_says_how_many_were_planned(
    tmp_path: Path,
) -> None:
    """A run stopped early is committed as its records file: the page counts the games it holds,
    says how many were planned, and shows a pair in order only as far as those games do; records
    that are not the run's first games are refused."""
    for path in RESULTS.glob("*.json"):
        shutil.copy(path, tmp_path)
    finished = tmp_path / "rr-expert-hard.json"
    data = json.loads(finished.read_text(encoding="utf-8"))
    finished.unlink()
    played = 40
    first = data["games"][:played]
    stopped = tmp_path / "rr-expert-hard.jsonl"
    stopped.write_text(
        "\n".join(json.dumps(row) for row in [{"config": data["config"]}, *reversed(first)]),
        encoding="utf-8",
    )
    wins = sum(row["winner_side"] == 0 for row in first)
    low, high = wilson(wins, played)
    page = computed(tmp_path)
    shown = (
        f"|rr-expert-hard| replace:: {wins} of {played} games, {100 * wins / played:.1f}% "
        f"[{100 * low:.1f}%, {100 * high:.1f}%] (the first {played} of 120 planned)\n"
    )
    assert shown in page
    assert f"- {played} (of 120 planned)\n" in page
    assert ("``expert`` over ``hard`` not yet" in page) == (low <= 0.5)

    stopped.write_text(
        "\n".join(json.dumps(row) for row in [{"config": data["config"]}, *first[1:]]),
        encoding="utf-8",
    )
    with pytest.raises(ValueError, match="not the first games of its run"):
        computed(tmp_path)


def side_wins(name: str) -> tuple[int, int, int]:
    """Side 0's wins, the games played and the games planned, counted from the records."""
    document, games = games_of(run_file(RESULTS, name))
    wins = sum(game["winner"] ^ game["swapped"] == 0 for game in games)
    return wins, len(games), int(document["games"])


def test_each_finished_run_shows_what_it_was_run_for() -> None:
    """Each pair of neighbouring levels, and the expert against mcts at 6 and 8 players, was
    given at least 100 games before it was played; once a run has played them all, the 95%
    interval of the stronger side's share lies above one half."""
    runs = [f"rr-{LEVELS[i + 1]}-{LEVELS[i]}" for i in range(1, len(LEVELS) - 1)]
    runs += ["expert-mcts-6p-0.05s", "expert-mcts-8p-0.05s"]
    finished = []
    for name in runs:
        wins, games, planned = side_wins(name)
        assert planned >= 100, name
        if games == planned:
            finished.append(name)
            assert wilson(wins, games)[0] > 0.5, name
    assert finished == runs


def test_the_ratings_come_in_the_order_of_the_levels() -> None:
    made = figures()
    ratings = made.Results.load(RESULTS).ratings()
    elo = [ratings[level].elo for level in LEVELS]
    assert elo == sorted(elo)
    for searching in ("hard", "expert"):  # as the page says: medium's rating is fixed
        assert ratings[searching].low > ratings["medium"].elo


def test_random_wins_no_game() -> None:
    """As the page says (and the ratings chart's caption takes for granted)."""
    for level in LEVELS[1:]:
        wins, games, _ = side_wins(f"rr-{level}-random")
        assert wins == games


def test_the_round_robin_has_every_pairing() -> None:
    names = {path.stem for path in RESULTS.glob("rr-*.json*")}
    expected = {f"rr-{a}-{b}" for i, b in enumerate(LEVELS) for a in LEVELS[i + 1 :]}
    assert names == expected


@pytest.mark.parametrize("name", QUICK)
def test_a_round_robin_run_replays(name: str) -> None:
    data = json.loads((RESULTS / f"{name}.json").read_text(encoding="utf-8"))
    config = config_of(data)
    games = data["games"]
    for index in (0, 1):  # a deal played both ways round
        game = play_game(config, index)
        recorded = games[index]
        replayed = (game.seed, list(game.seats), game.winner, game.plies, list(game.home))
        assert replayed == (
            recorded["seed"],
            recorded["seats"],
            recorded["winner"],
            recorded["plies"],
            recorded["home"],
        )


# --- the records prove themselves -----------------------------------------------------------

REPLAY_SEED = int(os.environ.get("PEGS_REPLAY_SEED") or secrets.randbits(32))
"""Draws the games replayed: new each test run (a failure prints it), or PEGS_REPLAY_SEED."""
FINISHED = sorted(RESULTS.glob("[ret]*.json"))
"""The finished runs of ``pegs simulate``: ``rr-``, ``expert-`` and ``td-`` (not the ideas')."""
SEARCHING = ("hard", "mcts", "expert")


def config_at(path: Path) -> SimulationConfig:
    return config_from_document(json.loads(path.read_text(encoding="utf-8"))["config"])


def searches(config: SimulationConfig) -> bool:
    return any(name.partition(":")[0] in SEARCHING for name in config.bots)


REPLAYABLE = [path for path in FINISHED if not_replayable(config_at(path)) is None]
QUICK_RUNS = [path for path in REPLAYABLE if not searches(config_at(path))]
SEARCH_RUNS = [path for path in REPLAYABLE if searches(config_at(path))]


@pytest.mark.parametrize("path", FINISHED, ids=lambda path: path.stem)
def test_each_record_names_its_code_seeds_and_whether_it_replays(path: Path) -> None:
    """The run names the code that played it and how its bots were seeded; every game names its
    bots' seeds (read_json checks them against the run's config); a run on a time budget says
    why it cannot be replayed, every other run that it can."""
    data = json.loads(path.read_text(encoding="utf-8"))
    config, made = config_of(data), data["provenance"]
    assert made["played_by"] and all(made["played_by"]) and made["written_by"]
    assert made["seeding"] == config.seeding == data["config"]["seeding"]
    assert all(row.get("bot_seeds") for row in data["games"])
    read_json(path)  # every game dealt and seeded as its config says
    why = not_replayable(config)
    assert made["replayable"] == (why is None) and made["not_replayable_because"] == why
    assert (why is None) == all(":" not in name or not name.endswith("s") for name in config.bots)
    assert (path in REPLAYABLE) == (why is None)


@pytest.mark.parametrize("path", FINISHED, ids=lambda path: path.stem)
def test_each_summary_written_beside_the_records_is_what_they_give(
    path: Path, tmp_path: Path
) -> None:
    """The ``.txt`` a run wrote for people, and the JSON's own ``summary``, are made again from
    the games' records: a game changed in the records and not in them (or the other way round)
    fails here."""
    simulation = read_json(path)
    text = path.with_suffix(".txt").read_text(encoding="utf-8").rstrip("\n").split("\n")
    assert text[-1].startswith("per-game results written to ")
    assert "\n".join(text[:-1]) == report(simulation), f"{path.with_suffix('.txt')}"
    write_json(simulation, tmp_path / "again.json")
    again = json.loads((tmp_path / "again.json").read_text(encoding="utf-8"))["summary"]
    summary = json.loads(path.read_text(encoding="utf-8"))["summary"]
    for name in ("games", "unfinished", "sides", "teams", "first_seat_wins", "first_seat_ci95"):
        assert summary[name] == again[name], name
    assert summary["mean_plies"] == pytest.approx(again["mean_plies"])
    assert summary["timing"].keys() == again["timing"].keys()
    for bot, timing in summary["timing"].items():
        assert timing["moves"] == again["timing"][bot]["moves"]
        for name in ("mean_seconds", "longest_seconds", "mean_wall_seconds"):
            if name not in timing:  # a summary written before simulations kept it
                continue
            made = again["timing"][bot][name]
            assert timing[name] == (made if made is None else pytest.approx(made, rel=1e-4))


def replays(path: Path, indices: list[int]) -> None:
    config, data = config_at(path), json.loads(path.read_text(encoding="utf-8"))
    for index in indices:
        game = game_from_row(data["games"][index])
        differences = replay_differences(config, game)
        assert not differences, f"{path.name} (PEGS_REPLAY_SEED={REPLAY_SEED}): {differences}"


@pytest.mark.parametrize("path", QUICK_RUNS, ids=lambda path: path.stem)
def test_a_sample_of_a_quick_runs_games_replays(path: Path) -> None:
    """Twenty games of each run without a searching bot, drawn anew each test run, play again
    exactly as recorded (winner, length, pegs home, moves per seat, seeds; and the digest of
    every move where the record keeps it)."""
    games = config_at(path).games
    replays(path, random.Random(f"{REPLAY_SEED} {path.stem}").sample(range(games), 20))


def test_the_searching_runs_replay_in_rotation() -> None:
    """A game of a run with a searching bot on a playout budget plays again exactly as
    recorded. Such a game takes 5 to 60 s to play, so each test run replays one game of one
    run, both drawn anew (all runs in rotation; the game among the quarter of the run's games
    whose bots thought least, to bound the time). PEGS_REPLAY_ALL=1 replays a game of every run,
    drawn from all its games."""
    everything = bool(os.environ.get("PEGS_REPLAY_ALL"))
    paths = SEARCH_RUNS if everything else [random.Random(REPLAY_SEED).choice(SEARCH_RUNS)]
    for path in paths:
        rows = json.loads(path.read_text(encoding="utf-8"))["games"]
        rows.sort(key=lambda row: sum(row["think_seconds"]))
        cheap = rows if everything else rows[: max(1, len(rows) // 4)]
        drawn = random.Random(f"{REPLAY_SEED} {path.stem}").choice(cheap)["index"]
        replays(path, [drawn])


def test_a_replay_finds_a_game_whose_record_was_changed() -> None:
    """What the replays above would say of a record flipped to the other side's win (the pegs
    home swapped too: a record whose winner has not every peg home is refused when read)."""
    path = RESULTS / "rr-medium-random.json"
    row = json.loads(path.read_text(encoding="utf-8"))["games"][3]
    home = row["home"]
    row["winner"], row["winner_side"] = 1 - row["winner"], 1 - row["winner_side"]
    with pytest.raises(ValueError, match="do not make team 0 the winner"):
        game_from_row(row)
    row["home"] = home[::-1]
    differences = replay_differences(config_at(path), game_from_row(row))
    assert differences == [
        f"game 3: winner recorded {row['winner']}, replayed {1 - row['winner']}",
        f"game 3: home recorded ({home[1]}, {home[0]}), replayed ({home[0]}, {home[1]})",
    ]


def test_a_sample_of_the_joker_match_replays() -> None:
    """The ideas' match whose bots do not search (the expert's evaluation alone against greedy)
    replays: ten games, drawn anew each test run; the time-budget matches say why they cannot."""
    ideas = load_script(DOCS / "strength" / "ideas.py", "strength_ideas")
    for path in sorted(RESULTS.glob("idea-*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        made = data["provenance"]
        assert made["played_by"] and made["seeding"] == "arithmetic"
        assert made["replayable"] == (data["match"] == "joker")
        assert made["replayable"] or made["not_replayable_because"]
    games = json.loads((RESULTS / "idea-joker.json").read_text(encoding="utf-8"))["games"]
    for index in random.Random(f"{REPLAY_SEED} idea-joker").sample(range(len(games)), 10):
        again = ideas.play("joker", index)
        recorded = games[index]
        for name in ("index", "seed", "swapped", "winner_side", "plies", "moves"):
            assert again[name] == recorded[name], (index, name, REPLAY_SEED)


def test_the_td_runs_play_deals_it_never_trained_on() -> None:
    """The td bot's runs: it holds side 0, four players, the bots seeded by the keyed hash, and
    no deal is one it trained on (as its weights file records them)."""
    first, last = shipped_weights().training["deals"]
    paths = sorted(RESULTS.glob("td-*.json"))
    assert [path.stem for path in paths] == ["td-expert", "td-hard", "td-medium"]
    for path in paths:
        config = config_at(path)
        assert config.bots[0] == "td" and config.players == 4 and config.seeding == "keyed"
        assert not [i for i in range(config.games) if first <= config.game_seed(i) <= last]


def test_the_td_bot_is_as_strong_as_the_page_says() -> None:
    """Each td run played all its games; its team beats medium (the 95% interval above one half),
    in line with the test its training command ran on other deals (the intervals overlap); it
    beats hard; and the match against expert does not tell them apart (the interval holds one
    half)."""
    shares = {}
    for level in ("medium", "hard", "expert"):
        wins, games, planned = side_wins(f"td-{level}")
        assert games == planned
        shares[level] = wilson(wins, games)
    test = shipped_weights().training["test"]
    low, high = wilson(test["won"], test["deals"])
    assert shares["medium"][0] > 0.5 and shares["medium"][0] <= high and low <= shares["medium"][1]
    assert shares["hard"][0] > 0.5
    assert shares["expert"][0] < 0.5 < shares["expert"][1]
