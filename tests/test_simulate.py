"""simulate(): seats, swaps, statistics, executors and the files it writes."""

from __future__ import annotations

import csv
import io
import json
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from pegs_rules import new_game
from pegs_rules.simulate import (
    DEALS_PER_SEED,
    GameResult,
    ProgressBar,
    RecordFile,
    SimulationConfig,
    config_document,
    config_from_document,
    play_game,
    read_json,
    report,
    simulate,
    wilson,
    write_csv,
    write_json,
)

QUICK = SimulationConfig(games=4, players=4, bots=("greedy",), seed=2)
"""Greedy against greedy: short games."""


def test_wilson() -> None:
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(5, 10)
    assert low == pytest.approx(1 - high)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)
    assert wilson(120, 200) == pytest.approx((0.5308, 0.6654), abs=1e-4)


def test_seats_are_cyclic_and_swapped() -> None:
    config = SimulationConfig(games=4, players=6, bots=("mcts", "greedy", "random"))
    assert config.seats(0) == ("mcts", "greedy", "random", "mcts", "greedy", "random")
    assert config.seats(1) == ("greedy", "random", "mcts", "greedy", "random", "mcts")
    assert config.game_seed(0) == config.game_seed(1) != config.game_seed(2)
    assert config.side(0) == "mcts+random+greedy" and config.side(1) == "greedy+mcts+random"
    pair = SimulationConfig(players=4, bots=("mcts", "greedy"))
    assert pair.seats(0) == ("mcts", "greedy", "mcts", "greedy")
    assert pair.seats(1) == ("greedy", "mcts", "greedy", "mcts")
    assert (pair.side(0), pair.side(1)) == ("mcts", "greedy")
    plain = SimulationConfig(players=4, bots=("mcts", "greedy"), swap=False)
    assert plain.seats(1) == plain.seats(0) and plain.game_seed(1) != plain.game_seed(0)


def test_bad_configs() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        SimulationConfig(bots=("greedy", "clever"))
    with pytest.raises(ValueError, match="players"):
        SimulationConfig(players=5)
    with pytest.raises(ValueError, match="games"):
        SimulationConfig(games=-1)


def test_play_game_is_a_real_game() -> None:
    game = play_game(QUICK, 1)
    state = new_game(4, seed=game.seed)
    assert game.first_seat == state.turn
    assert game.winner in (0, 1) and game.plies > 20
    assert sum(game.moves) == game.plies
    assert game.winner_side == game.winner ^ game.swapped


def test_serial_and_threads_agree() -> None:
    seen: list[tuple[int, int]] = []
    serial = simulate(QUICK, progress=lambda done, total: seen.append((done, total)))
    assert seen[0] == (0, 4) and seen[-1] == (4, 4)
    with ThreadPoolExecutor(2) as pool:
        threaded = simulate(QUICK, executor=pool)
    assert [g.index for g in threaded.games] == [0, 1, 2, 3]
    key = [(g.seed, g.seats, g.winner, g.plies) for g in serial.games]
    assert key == [(g.seed, g.seats, g.winner, g.plies) for g in threaded.games]
    summary = serial.summary
    assert summary.games == 4 and summary.unfinished == 0
    assert sum(summary.team_wins) == sum(summary.side_wins) == 4
    assert summary.mean_plies == sum(g.plies for g in serial.games) / 4
    assert summary.timing["greedy"].moves == summary.mean_plies * 4


def test_process_pool() -> None:
    config = SimulationConfig(games=2, bots=("greedy",), seed=5)
    with ProcessPoolExecutor(1) as pool:
        result = simulate(config, executor=pool)
    assert [g.winner for g in result.games] == [g.winner for g in simulate(config).games]


def test_unfinished_games() -> None:
    config = SimulationConfig(games=2, bots=("random",), max_turns=10)
    result = simulate(config)
    assert result.summary.unfinished == 2 and result.summary.team_wins == (0, 0)
    assert "unfinished" in report(result)


def test_report_and_files(tmp_path: Path) -> None:
    result = simulate(SimulationConfig(games=4, bots=("greedy", "random"), seed=3))
    text = report(result)
    assert "side 0: greedy" in text and "side 1: random" in text
    assert "team of the first seat to act" in text and "game length" in text
    write_json(result, tmp_path / "games.json")
    document = json.loads((tmp_path / "games.json").read_text())
    assert document["config"]["bots"] == ["greedy", "random"]
    assert len(document["games"]) == 4
    assert document["summary"]["sides"][0]["wins"] == result.summary.side_wins[0]
    assert document["games"][1]["seats"] == ["random", "greedy", "random", "greedy"]
    write_csv(result, tmp_path / "games.csv")
    with (tmp_path / "games.csv").open() as rows:
        table = list(csv.DictReader(rows))
    assert [int(row["index"]) for row in table] == [0, 1, 2, 3]
    assert table[0]["seats"] == "greedy random greedy random"
    assert {row["winner_side"] for row in table} <= {"0", "1"}


def test_progress_bar() -> None:
    stream = io.StringIO()
    bar = ProgressBar(stream, width=10)
    for done in range(21):
        bar(done, 20)
    lines = stream.getvalue().splitlines()
    assert lines[0].startswith("[----------] 0/20")
    assert lines[-1].startswith("[##########] 20/20")
    assert len(lines) == 11  # a line per tenth when not on a terminal


def test_a_stopped_run_resumes_from_its_records(tmp_path: Path) -> None:
    config = SimulationConfig(games=6, players=4, bots=("greedy", "random"), seed=4)
    whole = simulate(config)
    path = tmp_path / "games.jsonl"
    first = RecordFile(path, replace(config, games=3))  # a shorter run, as if stopped
    assert first.games == []
    simulate(replace(config, games=3), on_result=first)
    with path.open("a", encoding="utf-8") as out:
        out.write('{"index": 3, "seed": 40')  # the line being written when it stopped
    records = RecordFile(path, config)
    assert [game.index for game in records.games] == [0, 1, 2]
    played: list[int] = []

    def kept(game: GameResult) -> None:
        records(game)
        played.append(game.index)

    resumed = simulate(config, played=records.games, on_result=kept)
    assert played == [3, 4, 5]  # only the games the records lacked
    key = [(g.seed, g.seats, g.winner, g.plies, g.home) for g in resumed.games]
    assert key == [(g.seed, g.seats, g.winner, g.plies, g.home) for g in whole.games]
    assert [g.index for g in RecordFile(path, config).games] == [0, 1, 2, 3, 4, 5]
    with pytest.raises(ValueError, match="another run"):
        RecordFile(path, replace(config, bots=("greedy",)))


def test_results_read_back_with_their_summary_made_again(tmp_path: Path) -> None:
    result = simulate(SimulationConfig(games=4, bots=("greedy", "random"), seed=3))
    write_json(result, tmp_path / "games.json")
    document = json.loads((tmp_path / "games.json").read_text())
    document["summary"]["sides"][0]["wins"] = 99  # a summary for people, not read back
    (tmp_path / "games.json").write_text(json.dumps(document))
    again = read_json(tmp_path / "games.json")
    assert again.config == result.config

    def without_times(game: GameResult) -> GameResult:
        return replace(game, seconds=0, think_seconds=(), think_max=(), think_wall=())

    assert list(map(without_times, again.games)) == list(map(without_times, result.games))
    assert again.summary.side_wins == result.summary.side_wins == (4, 0)
    for name, timing in again.summary.timing.items():  # times to the microsecond
        assert timing.moves == result.summary.timing[name].moves
        assert timing.seconds == pytest.approx(result.summary.timing[name].seconds, abs=1e-4)
        assert timing.mean_wall is not None and timing.mean_wall >= timing.mean * 0.5
    (tmp_path / "bad.json").write_text('{"config": {}}')
    with pytest.raises(ValueError, match="not a simulation"):
        read_json(tmp_path / "bad.json")


def _spoiled(row: dict[str, Any], how: str) -> object:
    """``row``, a game's record, spoiled as ``how`` says."""
    changes: dict[str, Any] = {
        "index 99": {"index": 99},
        "index -1": {"index": -1},
        "another deal": {"seed": row["seed"] + 1},
        "other seats": {"seats": row["seats"][::-1]},
        "unswapped": {"swapped": not row["swapped"]},
        "winner 5": {"winner": 5},
        "first seat 9": {"first_seat": 9},
        "moves for 3 seats": {"moves": row["moves"][:3]},
        "clock for 5 seats": {"think_wall": [0.1] * 5},
        "seats not a list": {"seats": 4},
    }
    if how in changes:
        return {**row, **changes[how]}
    return {"a list": [], "a number": 5, "a string": "game"}[how]


SPOILED = (
    "index 99",
    "index -1",
    "another deal",
    "other seats",
    "unswapped",
    "winner 5",
    "first seat 9",
    "moves for 3 seats",
    "clock for 5 seats",
    "seats not a list",
    "a list",
    "a number",
    "a string",
)


@pytest.mark.parametrize("how", SPOILED)
def test_a_record_that_is_not_one_of_the_runs_games_is_refused(tmp_path: Path, how: str) -> None:
    """Records and results are read with their file named in a ValueError, never a crash, and
    never taken for a game the run did not deal (which would count in its results)."""
    config = SimulationConfig(games=2, players=4, bots=("greedy", "random"), seed=5)
    result = simulate(config)
    write_json(result, tmp_path / "games.json")
    document = json.loads((tmp_path / "games.json").read_text(encoding="utf-8"))
    good = document["games"][1]
    document["games"][0] = _spoiled(document["games"][0], how)
    (tmp_path / "games.json").write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(ValueError, match=r"games\.json: "):
        read_json(tmp_path / "games.json")
    lines = [{"config": document["config"]}, document["games"][0], good]  # spoiled: not last
    path = tmp_path / "games.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    with pytest.raises(ValueError, match=r"games\.jsonl, line 2: "):
        RecordFile(path, config)


def test_a_records_file_that_is_not_text_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    path.write_bytes(b"\xff\xfe not text\n")
    with pytest.raises(ValueError, match=r"games\.jsonl: not a records file"):
        RecordFile(path, SimulationConfig(games=2))
    (tmp_path / "games.json").write_bytes(b"\xff\xfe not text\n")
    with pytest.raises(ValueError, match=r"games\.json: "):
        read_json(tmp_path / "games.json")


def test_no_two_seeds_share_a_deal() -> None:
    one, two = SimulationConfig(games=10, seed=1), SimulationConfig(games=10, seed=2)
    assert not {one.game_seed(i) for i in range(10)} & {two.game_seed(i) for i in range(10)}
    with pytest.raises(ValueError, match="deals a seed"):
        SimulationConfig(games=2 * DEALS_PER_SEED + 1)


def test_a_record_names_its_seeds_moves_and_code_and_verify_replays_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each game keeps its bots' seeds, a digest of its moves and the code that played it; the
    file a provenance; ``pegs verify`` replays the games and finds a changed move."""
    from pegs_rules.cli import main
    from pegs_rules.simulate import played_by

    config = SimulationConfig(games=2, bots=("greedy", "random"), seed=4)
    result = simulate(config)
    game = result.games[1]
    assert game.bot_seeds == config.bot_seeds(1) and game.played_by == played_by()
    assert game.moves_sha256 is not None and len(game.moves_sha256) == 64
    path = tmp_path / "run.json"
    write_json(result, path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["config"]["seeding"] == "keyed"
    assert data["provenance"]["played_by"] == [played_by()]
    assert data["provenance"]["replayable"] is True
    assert main(["verify", str(path), "--games", "all"]) == 0
    assert "game 1: the same" in capsys.readouterr().out
    data["games"][1]["moves_sha256"] = "0" * 64
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["verify", str(path), "--games", "all"]) == 1
    assert "game 1: moves_sha256 recorded '000" in capsys.readouterr().err
    data["games"][1]["bot_seeds"][0] += 1  # seeds not those the config gives: no such game
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["verify", str(path)]) == 2
    assert "not seeded as this run seeds them" in capsys.readouterr().err


def test_a_time_budget_run_says_why_it_is_not_replayed() -> None:
    from pegs_rules.simulate import not_replayable

    assert not_replayable(SimulationConfig(games=1, bots=("expert:300", "greedy"))) is None
    why = not_replayable(SimulationConfig(games=1, bots=("expert:0.5s", "greedy")))
    assert why is not None and why.startswith("expert:0.5s think for a time")


def test_records_written_before_seeding_was_named_read_as_arithmetic(tmp_path: Path) -> None:
    """A config without ``seeding`` (every record before keyed seeds) replays its games with
    the formula they were played with, and a records file of such a run resumes."""
    config = SimulationConfig(games=2, bots=("greedy", "random"), seed=1, seeding="arithmetic")
    document = config_document(config)
    del document["seeding"]
    assert config_from_document(document) == config
    path = tmp_path / "old.jsonl"
    row = json.loads(json.dumps(_row_of(config, 0)))
    for name in ("bot_seeds", "moves_sha256", "played_by"):
        del row[name]
    path.write_text(json.dumps({"config": document}) + "\n" + json.dumps(row) + "\n")
    records = RecordFile(path, config)
    assert [game.index for game in records.games] == [0] and records.games[0].bot_seeds is None


def _row_of(config: SimulationConfig, index: int) -> dict[str, Any]:
    from pegs_rules.simulate import _row

    return _row(play_game(config, index))


def test_a_record_no_game_could_leave_is_refused() -> None:
    """Moves a seat that are not its turns, or a winner without every peg home, are no game."""
    from pegs_rules.simulate import _row, game_from_row

    row = _row(play_game(SimulationConfig(games=1, bots=("greedy", "random"), seed=5), 0))
    assert game_from_row(row).moves == tuple(row["moves"])
    moved = {**row, "moves": [row["moves"][0] + 1, *row["moves"][1:]]}
    with pytest.raises(ValueError, match="moves a seat"):
        game_from_row(moved)
    for home in ([9, 9], [10, 10], [11, 3]):
        with pytest.raises(ValueError, match="do not make team"):
            game_from_row({**row, "home": home})
