"""The command line, ``pegs`` (or ``python -m pegs_rules``).

* ``pegs demo --seed 1``: a seeded game between bots, a line per turn and the board at the end;
* ``pegs play``: play one seat in the terminal against bots;
* ``pegs simulate --games 200 --bots mcts,greedy --workers 2``: many games, with statistics;
* ``pegs replay FILE``: replay a game record (JSON), turn by turn;
* ``pegs explain [ID]``: the rulings, or one of them;
* ``pegs web build OUT_DIR``: the browser playground as a folder of static files;
* ``pegs serve``: a game server for network play (:mod:`pegs_rules.server`).

Every command is :func:`main` with its arguments, so it runs in-process too.
"""

from __future__ import annotations

import argparse
import difflib
import os
import random
import re
import signal
import sys
from collections.abc import Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from pathlib import Path
from typing import TextIO

from pegs_rules.board import location_name, team_of
from pegs_rules.bots import Bot, decide, make_bot
from pegs_rules.cards import format_cards
from pegs_rules.errors import AmbiguousMoveError, IllegalMoveError, NotationError, PegsError
from pegs_rules.movegen import legal_moves
from pegs_rules.moves import Move, parse_notation
from pegs_rules.notation import format_move, parse_move
from pegs_rules.records import GameRecord, record_of
from pegs_rules.render import text as board_text
from pegs_rules.rulings import ADDED, RULINGS
from pegs_rules.serialize import from_json, to_json
from pegs_rules.simulate import (
    ProgressBar,
    SimulationConfig,
    report,
    simulate,
    write_csv,
    write_json,
)
from pegs_rules.state import GameState, new_game
from pegs_rules.turn import apply

EXIT_INTERRUPTED = 130
"""The exit code after Ctrl-C, as shells report a process ended by SIGINT."""


def _bots(parser: argparse.ArgumentParser, text: str) -> tuple[str, ...]:
    names = tuple(name.strip() for name in text.split(",") if name.strip())
    if not names:
        parser.error("--bots: name at least one bot")
    for name in names:
        try:
            make_bot(name)
        except ValueError as error:
            parser.error(f"--bots: {error}")
    return names


# --------------------------------------------------------------------------
# demo
# --------------------------------------------------------------------------


def demo(
    players: int,
    seed: int,
    bot_names: Sequence[str],
    max_turns: int,
    *,
    board_every: int = 0,
    record: str | None = None,
) -> int:
    """Play and print one seeded game between bots; return 0."""
    state = start = new_game(players, seed=seed)
    seats = [bot_names[s % len(bot_names)] for s in range(players)]
    bots: list[Bot] = [make_bot(seats[s], seed * 100 + s) for s in range(players)]
    width = max(len(name) for name in seats)
    print(f"pegs-rules demo: {players} players, preset {state.rules.name}, seed {seed}")
    print(f"dealer: seat {state.dealer}; teams: 0 = even seats, 1 = odd seats")
    print("bots: " + ", ".join(f"seat {s} {name}" for s, name in enumerate(seats)))
    moves: list[Move] = []
    while not state.is_over and state.ply < max_turns:
        seat = state.turn
        hand = format_cards(state.hands[seat])
        move = decide(bots[seat], state)
        state = apply(state, move)
        moves.append(move)
        print(f"turn {state.ply:4d}  seat {seat} {seats[seat]:<{width}} [{hand:<18}] {move}")
        if board_every and state.ply % board_every == 0 and not state.is_over:
            print(board_text(state))
    print()
    print(board_text(state))
    print()
    for seat, locs in enumerate(state.pegs):
        print(f"seat {seat} (team {team_of(seat)}): " + " ".join(location_name(p) for p in locs))
    if state.winner is None:
        print(f"no winner after {state.ply} turns")
    else:
        winners = " and ".join(
            f"seat {s} ({seats[s]})" for s in range(players) if team_of(s) == state.winner
        )
        print(f"team {state.winner} wins after {state.ply} turns: {winners}")
    if record:
        Path(record).write_text(to_json(record_of(start, moves), indent=1) + "\n", encoding="utf-8")
        print(f"record written to {record} (replay it with: pegs replay {record})")
    return 0


# --------------------------------------------------------------------------
# play
# --------------------------------------------------------------------------

_ANSI = (25, 214, 36, 175, 74, 166, 244, 227)
"""256-colour terminal approximations of :data:`pegs_rules.render.SEAT_COLOURS`."""
_SEAT_LINE = re.compile(r"^(seat (\d+)\s*:\s*\d+ )(.{54})(.*)$")


def _paint(text: str, seat: int) -> str:
    return f"\x1b[1;38;5;{_ANSI[seat % len(_ANSI)]}m{text}\x1b[0m"


def _paint_digits(text: str, seat: int) -> str:
    return re.sub(r"\d", lambda m: _paint(m.group(), seat), text)


def colour_board(board: str) -> str:
    """The text board of :func:`pegs_rules.render.text` with every peg in its seat's colour."""
    lines = []
    for line in board.splitlines():
        match = _SEAT_LINE.match(line)
        if match:
            head, seat, cells, tail = match.groups()
            cells = re.sub(r"\d", lambda m: _paint(m.group(), int(m.group())), cells)
            lane = tail.rfind("[")
            if lane >= 0:
                tail = tail[:lane] + _paint_digits(tail[lane:], int(seat))
            line = _paint(head.rstrip(), int(seat)) + " " + cells + tail
        lines.append(line)
    return "\n".join(lines)


def use_colour(stream: TextIO, choice: str = "auto") -> bool:
    """Colour on ``always``; on ``auto`` only for a terminal and with ``NO_COLOR`` unset."""
    if choice != "auto":
        return choice == "always"
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty()) and not os.environ.get("NO_COLOR")


_HELP = """\
Choose a move by its number, or write it in notation:
  card and steps   7 0:70-h2 2:33-37   (seat:from-to; s = start, h1..h5 = home)
  shorthand        7 70-h2 33-37, K s (come out), 5 3-h (into home), JK (its only play)
  discard 7        (only when nothing but a joker can move)
Other commands: m (list the moves again), b (show the board), ? (this help), q (quit)."""


class _Quit(Exception):
    """The player asked to leave."""


class HumanSeat:
    """The terminal player: shows the position its seat may see and reads a move."""

    def __init__(self, seat: int, colour: bool) -> None:
        self.seat = seat
        self.colour = colour

    def ask(self, prompt: str) -> str:
        """A line from the player; :class:`EOFError` at the end of input."""
        sys.stdout.write(prompt)
        sys.stdout.flush()
        line = sys.stdin.readline()
        if not line:
            raise EOFError
        return line.strip()

    def show(self, state: GameState) -> None:
        board = board_text(state)
        print(colour_board(board) if self.colour else board)
        others = ", ".join(
            f"seat {s} {len(h)}" for s, h in enumerate(state.hands) if s != self.seat
        )
        top = state.discard_pile[-1].symbol if state.discard_pile else "none"
        print(f"cards held: {others}; draw pile {len(state.draw_pile)}; discard pile top: {top}")

    def list_moves(self, state: GameState, moves: tuple[Move, ...]) -> None:
        print(f"your hand: {format_cards(state.hands[self.seat])}")
        print("legal moves:")
        for number, move in enumerate(moves, 1):
            short = format_move(state, move, short=True)
            extra = f"   ({short})" if short != str(move) else ""
            print(f"  {number:3d}. {move}{extra}")

    def choose(self, state: GameState) -> Move:
        """Read moves until one is legal; :class:`_Quit` if the player leaves."""
        moves = legal_moves(state)
        self.show(state)
        self.list_moves(state, moves)
        while True:
            answer = self.ask(f"seat {self.seat}, your move (number, notation, ? for help): ")
            command = answer.lower()
            if not command:
                continue
            if command in ("q", "quit", "exit"):
                raise _Quit
            if command in ("?", "help"):
                print(_HELP)
                continue
            if command in ("m", "moves"):
                self.list_moves(state, moves)
                continue
            if command in ("b", "board"):
                self.show(state)
                continue
            if command.isdigit():
                number = int(command)
                if 1 <= number <= len(moves):
                    return moves[number - 1]
                print(f"there is no move {number}: choose 1 to {len(moves)}")
                continue
            try:
                return parse_move(state, answer)
            except AmbiguousMoveError as error:
                listed = ", ".join(str(m) for m in error.candidates)
                print(f"{answer!r} could be any of: {listed}; say which")
            except IllegalMoveError as error:
                print(f"illegal move: {error.reason} (rule {error.rule})")
                if error.rule in RULINGS:
                    print(f"  {error.rule}: {RULINGS[error.rule]}")
            except NotationError as error:
                print(f"not understood: {error}")
                print("type ? for help, or a move's number")


def play(
    players: int,
    seat: int,
    seed: int,
    bot_names: Sequence[str],
    colour: bool,
) -> int:
    """A game in the terminal: the player at ``seat``, bots elsewhere. Returns the exit code."""
    state = new_game(players, seed=seed)
    others = [s for s in range(players) if s != seat]
    names = {s: bot_names[i % len(bot_names)] for i, s in enumerate(others)}
    bots = {s: make_bot(names[s], seed * 100 + s) for s in others}
    mates = [s for s in range(players) if team_of(s) == team_of(seat) and s != seat]
    print(f"Pegs and Jokers: {players} players, rules {state.rules.name}, seed {seed}")
    print(
        f"You are seat {seat}, team {team_of(seat)} with seat(s) "
        + " ".join(map(str, mates))
        + "; you may move any peg of your team."
    )
    print("bots: " + ", ".join(f"seat {s} {names[s]}" for s in others))
    print("Type ? for help. Ctrl-D or q leaves.")
    human = HumanSeat(seat, colour)
    try:
        while not state.is_over:
            actor = state.turn
            if actor == seat:
                print()
                move = human.choose(state)
                print(f"you play {move}")
            else:
                move = decide(bots[actor], state)
                print(f"seat {actor} ({names[actor]}) plays {move}")
            state = apply(state, move)
    except (EOFError, _Quit):
        print()
        print(f"leaving the game after {state.ply} turns (seed {seed})")
        return 0
    print()
    human.show(state)
    verdict = "your team wins" if state.winner == team_of(seat) else "the other team wins"
    print(f"team {state.winner} wins after {state.ply} turns: {verdict}")
    return 0


# --------------------------------------------------------------------------
# simulate
# --------------------------------------------------------------------------


def _ignore_interrupts() -> None:
    """In a worker process: leave Ctrl-C to the parent, which stops the workers."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run_simulation(
    config: SimulationConfig,
    workers: int,
    *,
    json_path: str | None = None,
    csv_path: str | None = None,
    quiet: bool = False,
    executor: Executor | None = None,
) -> int:
    """Play the games of ``config`` on ``workers`` processes (or ``executor``) and report."""
    progress = None if quiet else ProgressBar(sys.stderr)
    own = executor is None and workers > 1
    pool = ProcessPoolExecutor(workers, initializer=_ignore_interrupts) if own else executor
    try:
        result = simulate(config, executor=pool, progress=progress)
    except KeyboardInterrupt:
        if own and pool is not None:  # the workers ignore Ctrl-C: stop them here
            processes = list(getattr(pool, "_processes", {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                process.terminate()
        raise
    if own and pool is not None:
        pool.shutdown()
    print(report(result))
    if json_path:
        write_json(result, json_path)
        print(f"per-game results written to {json_path}")
    if csv_path:
        write_csv(result, csv_path)
        print(f"per-game results written to {csv_path}")
    return 0


# --------------------------------------------------------------------------
# replay and explain
# --------------------------------------------------------------------------


def replay_file(path: str, *, board: bool = False) -> int:
    """Replay the game record in ``path`` (``-`` for standard input), printing each turn."""
    try:
        data = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except OSError as error:
        print(f"pegs replay: cannot read {path}: {error.strerror or error}", file=sys.stderr)
        return 2
    try:
        record = from_json(data, "record")
    except PegsError as error:
        print(f"pegs replay: {path} is not a game record: {error}", file=sys.stderr)
        return 2
    return _replay(record, board)


def _replay(record: GameRecord, board: bool) -> int:
    state = record.start()
    dealer = "drawn from the seed" if record.dealer is None else f"seat {record.dealer}"
    print(
        f"replaying: {record.players} players, rules {record.rules.name}, seed {record.seed}, "
        f"dealer {dealer}, {len(record.moves)} moves"
    )
    for turn, text in enumerate(record.moves, 1):
        seat = state.turn
        try:
            state = apply(state, parse_notation(text))
        except (IllegalMoveError, NotationError) as error:
            rule = error.rule if isinstance(error, IllegalMoveError) else "turn.sequence"
            reason = error.reason if isinstance(error, IllegalMoveError) else str(error)
            print(f"turn {turn:4d}  seat {seat}  {text}  <- illegal")
            print(f"illegal move at turn {turn}: seat {seat} cannot play {text!r}")
            print(f"rule {rule}: {reason}")
            if rule in RULINGS:
                print(f"  {rule}: {RULINGS[rule]}")
            if board:
                print(board_text(state))
            return 1
        print(f"turn {turn:4d}  seat {seat}  {text}")
    if board:
        print(board_text(state))
    if state.winner is not None:
        print(f"team {state.winner} wins after {state.ply} turns")
    else:
        print(f"the record ends after {state.ply} turns with seat {state.turn} to act")
    return 0


def explain_rulings(ruling: str | None) -> int:
    """List every ruling id with its summary, or print one; 2 for an unknown id."""
    if ruling is None:
        width = max(map(len, RULINGS))
        for key, summary in RULINGS.items():
            mark = " (added)" if key in ADDED else ""
            print(f"{key:<{width}}  {summary}{mark}")
        print()
        print("(added): decided by this library where the project's rulings are silent")
        return 0
    if ruling in RULINGS:
        kind = "added by this library" if ruling in ADDED else "normative"
        print(f"{ruling} ({kind})")
        print(RULINGS[ruling])
        return 0
    related = [key for key in RULINGS if key.startswith(ruling.rstrip(".") + ".")]
    if related:
        for key in related:
            print(f"{key}  {RULINGS[key]}")
        return 0
    close = difflib.get_close_matches(ruling, list(RULINGS), n=3)
    hint = f"; did you mean {' or '.join(close)}?" if close else "; 'pegs explain' lists them all"
    print(f"pegs explain: no ruling {ruling!r}{hint}", file=sys.stderr)
    return 2


def web_build(out_dir: str, docs_url: str, wheel: str | None, pyodide: str | None) -> int:
    """Build the browser playground into ``out_dir`` (:mod:`pegs_rules.web.build`)."""
    from pegs_rules.web.build import BuildError, build

    try:
        page = build(
            Path(out_dir),
            docs_url=docs_url,
            wheel=Path(wheel) if wheel else None,
            pyodide=Path(pyodide) if pyodide else None,
        )
    except (BuildError, OSError) as error:
        print(f"pegs web build: {error}", file=sys.stderr)
        return 2
    print(f"playground written to {page.parent}")
    print(f"serve it with: python -m http.server -d {out_dir}  (then open http://127.0.0.1:8000/)")
    return 0


# --------------------------------------------------------------------------
# main
# --------------------------------------------------------------------------


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pegs", description="Pegs and Jokers rules engine")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    bots_help = "comma-separated bots, given to the seats in turn: random, greedy, mcts, mcts:ITERATIONS, mcts:SECONDSs"

    demo_ = commands.add_parser("demo", help="play and print a seeded game between bots")
    demo_.add_argument("--seed", type=int, default=1)
    demo_.add_argument("--players", type=int, choices=(4, 6, 8), default=4)
    demo_.add_argument("--bots", default="greedy,random", help=bots_help)
    demo_.add_argument("--max-turns", type=int, default=100_000)
    demo_.add_argument(
        "--board-every", type=int, default=0, metavar="N", help="also show the board every N turns"
    )
    demo_.add_argument("--record", metavar="FILE", help="write the game record (JSON) to FILE")

    play_ = commands.add_parser("play", help="play a seat against bots in the terminal")
    play_.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    play_.add_argument("--players", type=int, choices=(4, 6, 8), default=4)
    play_.add_argument("--seed", type=int, help="the deal (default: a random one, printed)")
    play_.add_argument("--bots", default="greedy", help="the other seats' bots, in turn")
    play_.add_argument("--colour", "--color", choices=("auto", "always", "never"), default="auto")

    sim = commands.add_parser("simulate", help="play many games between bots and report")
    sim.add_argument("--games", type=int, default=100)
    sim.add_argument("--players", type=int, choices=(4, 6, 8), default=4)
    sim.add_argument("--bots", default="greedy,random", help=bots_help)
    sim.add_argument("--workers", type=int, default=1, help="processes (default 1: in this one)")
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument(
        "--swap",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="play each deal twice, the bots one seat on the second time (default: on)",
    )
    sim.add_argument("--max-turns", type=int, default=20_000)
    sim.add_argument("--json", metavar="FILE", help="write per-game results as JSON")
    sim.add_argument("--csv", metavar="FILE", help="write per-game results as CSV")
    sim.add_argument("--quiet", action="store_true", help="no progress bar")

    rep = commands.add_parser("replay", help="replay a game record (JSON) turn by turn")
    rep.add_argument("file", help="the record, as written by 'pegs demo --record' (- for stdin)")
    rep.add_argument("--board", action="store_true", help="show the board at the end")

    exp = commands.add_parser("explain", help="list the rulings, or show one")
    exp.add_argument("ruling", nargs="?", help="a ruling id, such as card.seven.split")

    web = commands.add_parser("web", help="the browser playground")
    web_commands = web.add_subparsers(dest="web_command", required=True, metavar="COMMAND")
    web_build_ = web_commands.add_parser("build", help="build the playground into a folder")
    web_build_.add_argument("out_dir", metavar="OUT_DIR", help="the folder to write (new or empty)")
    web_build_.add_argument(
        "--docs-url",
        default="../",
        help="where the docs are, for the rulings' links (default ../: the docs site's layout)",
    )
    web_build_.add_argument("--wheel", help="a pegs_rules wheel (default: build one here)")
    web_build_.add_argument(
        "--pyodide", metavar="DIR", help="a Pyodide runtime (default: node_modules/pyodide)"
    )

    srv = commands.add_parser("serve", help="run a game server (needs pegs-rules[server])")
    srv.add_argument("--host", default="127.0.0.1", help="address to listen on")
    srv.add_argument("--port", type=int, default=8000)
    srv.add_argument("--db", default="pegs-games.sqlite3", help="SQLite file holding the games")
    srv.add_argument("--public-url", help="the address people use, e.g. https://pegs.example.org")
    srv.add_argument("--bot-workers", type=int, default=1, help="bot processes (0: threads)")
    srv.add_argument("--max-games", type=int, default=1000, help="unfinished games at once")
    srv.add_argument(
        "--sync",
        choices=("full", "normal"),
        default="full",
        help="full: flush every move to disk; normal: survive a killed server, not a power cut",
    )
    return parser


def serve(args: argparse.Namespace) -> int:
    """``pegs serve``: run the game server (:mod:`pegs_rules.server`)."""
    try:
        from pegs_rules.server.app import ServerConfig, serve
    except ImportError as error:
        print(
            f"pegs serve: {error}; install it with: pip install 'pegs-rules[server]'",
            file=sys.stderr,
        )
        return 2
    options = {k: v for k, v in vars(args).items() if k != "command"}
    return serve(ServerConfig(**options))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); return the exit code."""
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "demo":
            names = _bots(parser, args.bots)
            return demo(
                args.players,
                args.seed,
                names,
                args.max_turns,
                board_every=args.board_every,
                record=args.record,
            )
        if args.command == "play":
            names = _bots(parser, args.bots)
            if not 0 <= args.seat < args.players:
                parser.error(f"--seat: a seat 0..{args.players - 1}, not {args.seat}")
            seed = random.randrange(1_000_000) if args.seed is None else args.seed
            return play(args.players, args.seat, seed, names, use_colour(sys.stdout, args.colour))
        if args.command == "simulate":
            names = _bots(parser, args.bots)
            if args.games < 0 or args.workers < 1 or args.max_turns < 1:
                parser.error("--games must be >= 0, --workers and --max-turns >= 1")
            config = SimulationConfig(
                games=args.games,
                players=args.players,
                bots=names,
                seed=args.seed,
                swap=args.swap,
                max_turns=args.max_turns,
            )
            return run_simulation(
                config, args.workers, json_path=args.json, csv_path=args.csv, quiet=args.quiet
            )
        if args.command == "replay":
            return replay_file(args.file, board=args.board)
        if args.command == "web":
            return web_build(args.out_dir, args.docs_url, args.wheel, args.pyodide)
        if args.command == "serve":
            return serve(args)
        return explain_rulings(args.ruling)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # pragma: no cover - output piped into a program that stopped reading
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
