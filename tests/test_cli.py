"""The command line, run in-process through main(argv) with captured output."""

from __future__ import annotations

import argparse
import io
import json
import re
import subprocess
import sys
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Protocol

import pytest

import pegs_rules
from pegs_rules import (
    ARIZONA,
    ReplayError,
    apply,
    from_json,
    legal_moves,
    new_game,
    record_of,
    replay,
    to_json,
)
from pegs_rules.cli import (
    EXIT_INTERRUPTED,
    HelpFormatter,
    build_parser,
    colour_board,
    main,
    run_simulation,
    use_colour,
)
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


def test_replay_of_a_file_that_is_not_utf8(run: Runner, tmp_path: Path) -> None:
    latin = tmp_path / "latin.json"
    data = b'{"format": 1, "type": "record", "caf\xe9": 1}'
    latin.write_bytes(data)
    code, out, err = run(["replay", str(latin)])
    assert code == 2 and not out
    assert f"{latin} is not UTF-8 text (byte {data.index(0xE9)})" in err


def test_replay_never_prints_escape_sequences_from_the_file(run: Runner, tmp_path: Path) -> None:
    record = record_of(new_game(4, seed=1, rules=replace(ARIZONA, name="evil\x1b[2J\x07")), [])
    path = tmp_path / "evil.json"
    path.write_text(to_json(record))
    code, out, _ = run(["replay", str(path)])
    assert code == 0
    assert "\x1b" not in out and "\x07" not in out
    assert "rules evil\\x1b[2J\\x07," in out


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


def test_explain_prints_the_whole_ruling_the_presets_and_where_to_read_more(run: Runner) -> None:
    code, out, _ = run(["explain", "team.control"])
    assert code == 0
    assert "arizona. On their turn a player may move any peg of their team" in out
    assert "standard. A player moves only their own pegs" in out
    assert "Sources. R6, R25, R35; Q17, Q19." in out
    assert "rules/team.control.html" in out and "specs/rulings.md" in out
    assert max(map(len, out.splitlines()[2:])) <= 80
    code, out, _ = run(["explain", "variant.face-values"])
    assert code == 0
    assert "arizona: 10 10 10" in out and "standard: 10 10 10" in out


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
    assert re.search(r"^seat \d \(medium\) plays ", out, re.M)
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


def test_play_to_the_end(run: Runner, tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    argv = ["play", "--seed", "2", "--players", "4", "--record", str(record)]
    code, out, _ = run(argv, "1\n" * 2000)
    assert code == 0
    final = replay(from_json(record.read_text(), "record"))
    team = final.winner
    assert team is not None
    seats = " and ".join(
        f"seat {s} ({'you' if s == 0 else 'medium'})" for s in range(4) if s % 2 == team
    )
    verdict = "Your team wins!" if team == 0 else "Your team loses."
    assert f"Team {team} wins after {final.ply} turns: {seats}. {verdict}" in out


def test_play_says_which_cards_were_drawn(run: Runner) -> None:
    state = new_game(4, seed=SEED)
    seat = first_seat()
    move = legal_moves(state)[0]
    after = apply(state, move)
    kept = list(state.hands[seat])
    kept.remove(move.card)  # type: ignore[union-attr]
    new = sorted((Counter(after.hands[seat]) - Counter(kept)).elements())
    code, out, _ = run(["play", "--seed", str(SEED), "--seat", str(seat)], "1\n")
    assert code == 0
    assert f"you drew {' '.join(c.symbol for c in new)}" in out


def test_play_keeps_the_seed_secret_unless_asked(run: Runner) -> None:
    code, out, _ = run(["play", "--seed", "123456789", "--seat", str(first_seat())], "q\n")
    assert code == 0 and "123456789" not in out
    code, out, _ = run(["play", "--seed", "123456789", "--show-seed"], "q\n")
    assert code == 0 and "seed 123456789" in out.splitlines()[0]


def test_play_offers_to_save_the_record_on_quit(run: Runner, tmp_path: Path) -> None:
    record = tmp_path / "left.json"
    seat = first_seat()
    code, out, _ = run(["play", "--seed", str(SEED), "--seat", str(seat)], f"1\nq\n{record}\n")
    assert code == 0
    assert "save the game record?" in out and f"game record written to {record}" in out
    saved = from_json(record.read_text(), "record")
    assert saved.seed == SEED and saved.moves[0] == str(legal_moves(new_game(4, seed=SEED))[0])
    code, out, _ = run(["play", "--seed", str(SEED), "--seat", str(seat)], "q\n\n")
    assert code == 0 and "not saved" in out


def test_play_board_fits_80_columns_at_8_players(run: Runner) -> None:
    code, out, _ = run(["play", "--players", "8", "--seed", "5", "--bots", "random"], "1\n" * 120)
    assert code == 0
    assert max(len(line) for line in out.splitlines()) <= 80


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
    plain = board_text(state, compact=True)
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


def test_simulate_records_each_game_and_resumes(run: Runner, tmp_path: Path) -> None:
    records = tmp_path / "r.jsonl"
    argv = ["simulate", "--bots", "greedy,random", "--seed", "3", "--quiet"]
    code, _, _ = run([*argv, "--games", "2", "--records", str(records)])
    assert code == 0 and len(records.read_text().splitlines()) == 3  # the run, then 2 games
    code, longer, _ = run([*argv, "--games", "4", "--records", str(records)])
    assert code == 0 and len(records.read_text().splitlines()) == 5  # 2 more played
    _, whole, _ = run([*argv, "--games", "4"])
    assert longer.splitlines()[2:7] == whole.splitlines()[2:7]  # the same wins
    code, _, err = run(["simulate", "--bots", "greedy", "--records", str(records)])
    assert code == 2 and "holds the games of another run" in err


def test_simulate_help_says_how_games_are_dealt(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        build_parser().parse_args(["simulate", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "SEED * 1,000,000 + I" in help_text and "never share a deal" in help_text
    assert "--preset PRESET the rules: arizona or standard (default: arizona)" in help_text
    assert "Rules(" not in help_text and "(default: [])" not in help_text


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
        ["play", "--seat", "-1"],
        ["demo", "--bots", "mcts:zero"],
        ["demo", "--max-turns", "0"],
        ["demo", "--board-every", "-2"],
        ["simulate", "--games", "0"],
        ["simulate", "--games", "-5"],
        ["simulate", "--games", "many"],
        ["simulate", "--max-turns", "0"],
        ["demo", "--players", "5"],
    ],
)
def test_bad_arguments_are_reported_by_their_subcommand(
    run: Runner, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        run(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert f"usage: pegs {argv[0]} " in err and f"pegs {argv[0]}: error: argument {argv[1]}" in err


def test_bare_pegs_prints_the_help(run: Runner) -> None:
    code, out, _ = run([])
    assert code == 0
    assert out.startswith("usage: pegs ") and "examples:" in out
    for command in ("demo", "play", "simulate", "replay", "explain", "web", "serve"):
        assert re.search(rf"^    {command} ", out, re.M)


def test_version(run: Runner, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        run(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out == f"pegs {pegs_rules.__version__}\n"


@pytest.mark.parametrize(
    "command", ["demo", "play", "simulate", "replay", "explain", "web", "serve"]
)
def test_every_option_has_help_and_its_default(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    parser = build_parser()
    with pytest.raises(SystemExit):
        parser.parse_args([command, "--help"])
    out = capsys.readouterr().out
    assert "examples:\n  pegs " + command in out
    sub = next(
        action.choices[command]
        for action in parser._actions
        if isinstance(action, argparse._SubParsersAction)
    )
    for action in sub._actions:
        if action.option_strings and action.dest != "help":
            assert action.help, action.dest
            said = f"{action.option_strings[-1]}"
            assert said in out
            if action.default not in (None, False) and not isinstance(action.default, str):
                assert "default: " in (action.help or "") or HelpFormatter("pegs")._get_help_string(
                    action
                ).count("default")


def test_python_dash_m() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pegs_rules", "explain", "card.eight"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0 and RULINGS["card.eight"] in done.stdout
