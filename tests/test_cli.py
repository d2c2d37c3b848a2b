"""The command line, run in-process through main(argv) with captured output."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Protocol

import pytest

from pegs_rules import ReplayError, apply, from_json, legal_moves, new_game, replay
from pegs_rules.cli import EXIT_INTERRUPTED, colour_board, main, run_simulation, use_colour
from pegs_rules.notation import format_move
from pegs_rules.render import text as board_text
from pegs_rules.rulings import RULINGS
from pegs_rules.simulate import SimulationConfig

Run = tuple[int, str, str]


class Runner(Protocol):
    def __call__(self, argv: list[str], stdin: object = "") -> Run: ...


@pytest.fixture
def run(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Runner:
    """main(argv) with ``stdin`` as standard input: (exit code, stdout, stderr)."""

    def go(argv: list[str], stdin: object = "") -> Run:
        source = io.StringIO(stdin) if isinstance(stdin, str) else stdin
        monkeypatch.setattr(sys, "stdin", source)
        code = main(argv)
        out, err = capsys.readouterr()
        return code, out, err

    return go


# --------------------------------------------------------------------------
# demo and replay
# --------------------------------------------------------------------------


def test_demo_prints_turns_a_board_and_the_winner(run: Runner, tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    code, out, _ = run(["demo", "--seed", "1", "--record", str(record)])
    assert code == 0
    assert out.startswith("pegs-rules demo: 4 players, preset arizona, seed 1")
    assert re.search(r"^turn +1  seat \d greedy|^turn +1  seat \d random", out, re.M)
    assert re.search(r"^team [01] wins after \d+ turns", out, re.M)
    assert "Pegs and Jokers: 4 players" in out  # the board
    turns = len(re.findall(r"^turn ", out, re.M))
    state = replay(from_json(record.read_text(), "record"))
    assert state.is_over and state.ply == turns

    code, out, _ = run(["replay", str(record), "--board"])
    assert code == 0
    assert f"team {state.winner} wins after {state.ply} turns" in out
    assert len(re.findall(r"^turn ", out, re.M)) == turns


def test_demo_board_every_and_other_bots(run: Runner) -> None:
    code, out, _ = run(
        ["demo", "--seed", "2", "--players", "6", "--bots", "greedy", "--board-every", "50"]
    )
    assert code == 0
    assert out.count("Pegs and Jokers: 6 players") >= 2
    assert "wins after" in out


def test_replay_reports_the_first_illegal_move(run: Runner, tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    run(["demo", "--seed", "3", "--record", str(good)])
    data = json.loads(good.read_text())
    data["moves"][4] = "pass"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(ReplayError) as expected:
        replay(from_json(bad.read_text(), "record"))
    code, out, _ = run(["replay", str(bad)])
    assert code == 1
    assert "illegal move at turn 5" in out
    assert f"rule {expected.value.rule}: " in out
    assert len(re.findall(r"^turn ", out, re.M)) == 5


def test_replay_of_something_else(run: Runner, tmp_path: Path) -> None:
    junk = tmp_path / "junk.json"
    junk.write_text('{"format": 1, "type": "move", "action": "pass"}')
    code, _, err = run(["replay", str(junk)])
    assert code == 2 and "not a game record" in err
    code, _, err = run(["replay", str(tmp_path / "missing.json")])
    assert code == 2 and "cannot read" in err


# --------------------------------------------------------------------------
# explain
# --------------------------------------------------------------------------


def test_explain(run: Runner) -> None:
    code, out, _ = run(["explain"])
    assert code == 0
    for ruling in RULINGS:
        assert re.search(rf"^{re.escape(ruling)} ", out, re.M)
    code, out, _ = run(["explain", "card.seven.split"])
    assert code == 0 and RULINGS["card.seven.split"] in out
    code, out, _ = run(["explain", "card.nine"])
    assert code == 0 and RULINGS["card.nine"] in out
    code, out, _ = run(["explain", "turn"])
    assert code == 0 and "turn.must-play" in out and "turn.discard" in out
    code, _, err = run(["explain", "card.seven.spilt"])
    assert code == 2 and "did you mean card.seven.split" in err


# --------------------------------------------------------------------------
# play
# --------------------------------------------------------------------------

SEED = 4


def first_seat() -> int:
    return new_game(4, seed=SEED).turn


def test_play_by_number_then_end_of_input(run: Runner) -> None:
    state = new_game(4, seed=SEED)
    moves = legal_moves(state)
    code, out, err = run(["play", "--seed", str(SEED), "--seat", str(first_seat())], "1\n")
    assert code == 0 and not err
    assert "legal moves:" in out and f"  1. {moves[0]}" in out
    assert f"you play {moves[0]}" in out
    assert re.search(r"^seat \d \(greedy\) plays ", out, re.M)
    assert "leaving the game" in out
    assert "\x1b[" not in out  # not a terminal: no colour


def test_play_by_notation_and_shorthand(run: Runner) -> None:
    state = new_game(4, seed=SEED)
    last = legal_moves(state)[-1]
    argv = ["play", "--seed", str(SEED), "--seat", str(first_seat())]
    code, out, _ = run(argv, f"{last}\n")
    assert code == 0 and f"you play {last}" in out
    short = format_move(state, last, short=True)
    code, out, _ = run(argv, f"{short}\n")
    assert code == 0 and f"you play {last}" in out


def test_play_rejects_bad_input_and_goes_on(run: Runner) -> None:
    state = new_game(4, seed=SEED)
    seat = first_seat()
    moves = legal_moves(state)
    script = "\n".join(["", "zz", "999", f"5 {seat}:40-45", "?", "m", "b", "1", "q"])
    code, out, _ = run(["play", "--seed", str(SEED), "--seat", str(seat)], script + "\n")
    assert code == 0
    assert "not understood" in out
    assert "there is no move 999" in out
    assert "illegal move: " in out and re.search(r"\(rule [a-z.-]+\)", out)
    assert "Choose a move by its number" in out  # the help
    assert f"you play {moves[0]}" in out
    assert out.count("you play") == 1
    assert "leaving the game" in out


def test_play_to_the_end(run: Runner) -> None:
    code, out, _ = run(["play", "--seed", "2", "--players", "4"], "1\n" * 2000)
    assert code == 0
    assert re.search(r"team [01] wins after \d+ turns: (your|the other) team wins", out)


class Interrupted:
    """Standard input at which the player presses Ctrl-C."""

    def readline(self) -> str:
        raise KeyboardInterrupt


def test_play_ctrl_c(run: Runner) -> None:
    code, _, err = run(["play", "--seed", str(SEED), "--seat", str(first_seat())], Interrupted())
    assert code == EXIT_INTERRUPTED
    assert "interrupted" in err and "Traceback" not in err


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_colour(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert use_colour(Terminal()) and not use_colour(io.StringIO())
    assert use_colour(io.StringIO(), "always") and not use_colour(Terminal(), "never")
    monkeypatch.setenv("NO_COLOR", "1")
    assert not use_colour(Terminal())
    state = new_game(4, seed=1)
    for _ in range(40):
        state = apply(state, legal_moves(state)[-1])
    plain = board_text(state)
    painted = colour_board(plain)
    assert "\x1b[1;38;5;" in painted
    assert re.sub(r"\x1b\[[0-9;]*m", "", painted) == plain


# --------------------------------------------------------------------------
# simulate
# --------------------------------------------------------------------------


def test_simulate_writes_results(run: Runner, tmp_path: Path) -> None:
    argv = ["simulate", "--games", "4", "--bots", "greedy,random", "--seed", "3"]
    argv += ["--json", str(tmp_path / "r.json"), "--csv", str(tmp_path / "r.csv")]
    code, out, err = run(argv)
    assert code == 0
    assert re.search(r"^side 0: greedy +\d+ +[\d.]+% +\[", out, re.M)
    assert "team of the first seat to act" in out and "game length" in out
    assert "4/4 games" in err
    assert len(json.loads((tmp_path / "r.json").read_text())["games"]) == 4
    assert len((tmp_path / "r.csv").read_text().splitlines()) == 5


def test_simulate_no_swap_quiet(run: Runner) -> None:
    code, out, err = run(["simulate", "--games", "2", "--bots", "greedy", "--no-swap", "--quiet"])
    assert code == 0 and not err and "not swapped" in out


def test_simulate_on_a_thread_pool(capsys: pytest.CaptureFixture[str]) -> None:
    config = SimulationConfig(games=2, bots=("greedy",), seed=9)
    with ThreadPoolExecutor(2) as pool:
        assert run_simulation(config, 1, executor=pool, quiet=True) == 0
    assert "2 games, 4 players" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "--bots", "greedy,clever"],
        ["simulate", "--workers", "0"],
        ["play", "--seat", "4"],
        ["demo", "--bots", "mcts:zero"],
        [],
    ],
)
def test_bad_arguments(run: Runner, argv: list[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        run(argv)
    assert exit_.value.code == 2


def test_python_dash_m() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pegs_rules", "explain", "card.eight"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0 and RULINGS["card.eight"] in done.stdout
