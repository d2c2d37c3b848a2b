"""The command line, ``pegs`` (or ``python -m pegs_rules``).

* ``pegs demo --seed 1``: a seeded game between bots, a line per turn and the board at the end;
* ``pegs play``: play one seat in the terminal against bots;
* ``pegs simulate --games 200 --bots mcts,greedy --workers 2``: many games, with statistics;
* ``pegs verify FILE``: check a ``pegs simulate --json`` file and replay a sample of its games;
* ``pegs replay FILE``: replay a game record (JSON), turn by turn;
* ``pegs analyze FILE``: each team's chance of winning at every ply of a record;
* ``pegs explain [ID]``: the rulings, or one of them in full;
* ``pegs web build OUT_DIR``: the browser playground as a folder of static files;
* ``pegs serve``: a game server for network play (:mod:`pegs_rules.server`).

Every command is :func:`main` with its arguments, so it runs in-process too.
Each subcommand is a pair of functions, ``add_NAME`` (its parser, options and
help) and ``run_NAME`` (what it does with the parsed arguments); adding one
is adding such a pair to :data:`SUBCOMMANDS`.
"""

from __future__ import annotations

import argparse
import difflib
import json
import math
import os
import random
import re
import secrets
import signal
import sys
import textwrap
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from pathlib import Path
from typing import TextIO

from pegs_rules import __version__, analysis
from pegs_rules.board import location_name, team_of
from pegs_rules.bots import Bot, decide, make_bot
from pegs_rules.cards import Rank, format_cards
from pegs_rules.cluster import cluster_executor
from pegs_rules.errors import AmbiguousMoveError, IllegalMoveError, NotationError, PegsError
from pegs_rules.movegen import legal_moves
from pegs_rules.moves import Discard, Move, Play, parse_notation
from pegs_rules.notation import format_move, parse_move
from pegs_rules.records import GameRecord, record_of
from pegs_rules.render import text as board_text
from pegs_rules.rules import ARIZONA, PRESETS, Rules, find_preset, rule_text, with_rule
from pegs_rules.rulings import ADDED, RULINGS
from pegs_rules.serialize import from_json, to_json
from pegs_rules.simulate import (
    ProgressBar,
    RecordFile,
    SimulationConfig,
    not_replayable,
    read_json,
    replay_differences,
    report,
    simulate,
    write_csv,
    write_json,
)
from pegs_rules.specfiles import ruling_text
from pegs_rules.state import GameState, new_game
from pegs_rules.turn import apply

EXIT_INTERRUPTED = 130
"""The exit code after Ctrl-C, as shells report a process ended by SIGINT."""
DOCS = "https://pegs-rules.readthedocs.io/en/latest"
"""Where the documentation is published."""


def printable(text: str) -> str:
    r"""``text`` with every control character escaped, safe to print to a terminal.

    Text read from a file (a rules name in a record) may hold escape sequences
    that would recolour, move or retitle the terminal; they are shown as
    ``\x1b`` and the like instead.

    >>> printable("house\x1b[2J rules")
    'house\\x1b[2J rules'
    """
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


# --------------------------------------------------------------------------
# option types: bad values are reported by the parser that owns the option
# --------------------------------------------------------------------------


def seconds(text: str) -> float:
    """An option type: a positive number of seconds."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, not {text}")
    return value


DURATION_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86_400}
LONGEST = 36_500 * 86_400
"""The longest time an option takes (a hundred years: forever, as far as a game is concerned,
and well inside what a database's date arithmetic holds)."""


def duration(text: str) -> float:
    """An option type: a positive time, in seconds, or with a unit: ``90s``, ``60m``, ``24h``,
    ``30d``; at most :data:`LONGEST`.

    >>> duration("60m")
    3600.0
    >>> duration("99999999999999999999d")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: not a time: '99999999999999999999d' (seconds, or a number and s, m, h or d, at most 36500d)
    """
    unit = DURATION_UNITS.get(text[-1:].lower())
    try:
        value = seconds(text[:-1] if unit else text) * (unit or 1)
    except argparse.ArgumentTypeError:
        value = math.inf
    if value > LONGEST:
        raise argparse.ArgumentTypeError(
            f"not a time: {text!r} (seconds, or a number and s, m, h or d, at most 36500d)"
        )
    return value


def at_least(minimum: int) -> Callable[[str], int]:
    """An option type: a whole number no smaller than ``minimum``."""

    def whole(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, not {value}")
        return value

    whole.__name__ = f"a whole number >= {minimum}"
    return whole


def preset(text: str) -> Rules:
    """``--preset``: a preset by name."""
    try:
        return find_preset(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def rule_change(text: str) -> tuple[str, str]:
    """``--rule FIELD=VALUE``: a field of :class:`~pegs_rules.Rules` and its value as text."""
    field, equals, value = text.partition("=")
    try:
        if not equals:
            raise ValueError(f"write FIELD=VALUE, not {text!r}")
        with_rule(ARIZONA, field.strip(), value)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return field.strip(), value


def bot_list(text: str) -> tuple[str, ...]:
    """An option type: comma-separated bot names, each one :func:`make_bot` knows."""
    names = tuple(name.strip() for name in text.split(",") if name.strip())
    if not names:
        raise argparse.ArgumentTypeError("name at least one bot")
    for name in names:
        try:
            make_bot(name)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None
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
    print(f"pegs-rules demo: {players} players, preset {printable(state.rules.name)}, seed {seed}")
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
_SEAT_LINE = re.compile(r"^(seat (\d+)\s*:\s*\d+ )(.{36})( +\d+  start \d  home )(.*)$")


def _paint(text: str, seat: int) -> str:
    return f"\x1b[1;38;5;{_ANSI[seat % len(_ANSI)]}m{text}\x1b[0m"


def _paint_digits(text: str, seat: int) -> str:
    return re.sub(r"\d", lambda m: _paint(m.group(), seat), text)


def colour_board(board: str) -> str:
    """The compact board of :func:`pegs_rules.render.text` with every peg in its seat's colour."""
    lines = []
    for line in board.splitlines():
        match = _SEAT_LINE.match(line)
        if match:
            head, seat, cells, middle, lane = match.groups()
            cells = re.sub(r"\d", lambda m: _paint(m.group(), int(m.group())), cells)
            lane = _paint_digits(lane, int(seat))
            line = _paint(head.rstrip(), int(seat)) + " " + cells + middle + lane
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
        board = board_text(state, compact=True)
        print(colour_board(board) if self.colour else board)
        others = " ".join(f"{s}:{len(h)}" for s, h in enumerate(state.hands) if s != self.seat)
        top = state.discard_pile[-1].symbol if state.discard_pile else "none"
        print(f"cards held by seat {others}; draw pile {len(state.draw_pile)}; discard top {top}")

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


def drawn(before: GameState, after: GameState, seat: int, played: Move) -> tuple[Rank, ...]:
    """The cards ``seat`` drew while ``played`` was carried out (``turn.sequence``)."""
    kept = Counter(before.hands[seat])
    if before.turn == seat and isinstance(played, (Play, Discard)):
        kept[played.card] -= 1
    return tuple(sorted((Counter(after.hands[seat]) - kept).elements()))


def winners_text(state: GameState, seat: int, names: dict[int, str]) -> str:
    """Who won, in words: the team, its seats, and whether that is the player's team."""
    team = state.winner
    members = [s for s in range(state.players) if team_of(s) == team]
    who = " and ".join(f"seat {s} ({'you' if s == seat else names[s]})" for s in members)
    verdict = "Your team wins!" if team == team_of(seat) else "Your team loses."
    return f"Team {team} wins after {state.ply} turns: {who}. {verdict}"


def save_record(path: str, start: GameState, moves: Sequence[Move]) -> bool:
    """Write the game record to ``path``; say where, or why not."""
    try:
        Path(path).write_text(to_json(record_of(start, moves), indent=1) + "\n", encoding="utf-8")
    except OSError as error:
        print(f"could not write {path}: {error.strerror or error}")
        return False
    print(f"game record written to {path} (replay it with: pegs replay {path})")
    return True


def offer_record(human: HumanSeat, start: GameState, moves: Sequence[Move]) -> None:
    """On leaving: ask whether to save the game record, and where."""
    print("The record holds the seed, so it reveals every card; keep it to yourself until")
    print("the game is over for everyone.")
    while True:
        try:
            answer = human.ask("save the game record? file name (Enter: don't save): ")
        except EOFError:
            answer = ""
        if not answer:
            print("not saved")
            return
        if save_record(answer, start, moves):
            return


def play(
    players: int,
    seat: int,
    seed: int | None,
    bot_names: Sequence[str],
    colour: bool,
    *,
    record: str | None = None,
    show_seed: bool = False,
) -> int:
    """A game in the terminal: the player at ``seat``, bots elsewhere. Returns the exit code.

    Without ``seed`` the deal comes from a secret seed that is never printed
    unless ``show_seed``: the seed decides every hidden card. ``record`` names
    a file to write the game record to when the game ends or the player leaves;
    without it, leaving offers to save it.
    """
    if seed is None:
        seed = secrets.randbits(128)
    state = start = new_game(players, seed=seed)
    others = [s for s in range(players) if s != seat]
    names = {s: bot_names[i % len(bot_names)] for i, s in enumerate(others)}
    bots = {s: make_bot(names[s], seed * 100 + s) for s in others}
    mates = [s for s in range(players) if team_of(s) == team_of(seat) and s != seat]
    shown = f", seed {seed}" if show_seed else ""
    print(f"Pegs and Jokers: {players} players, rules {printable(state.rules.name)}{shown}")
    print(
        f"You are seat {seat}, team {team_of(seat)} with seat(s) "
        + " ".join(map(str, mates))
        + "; you may move any peg of your team."
    )
    by_bot: dict[str, list[int]] = {}
    for other in others:
        by_bot.setdefault(names[other], []).append(other)
    print(
        "bots: "
        + "; ".join(f"{name} at seat(s) {' '.join(map(str, at))}" for name, at in by_bot.items())
    )
    print("Type ? for help. Ctrl-D or q leaves.")
    human = HumanSeat(seat, colour)
    moves: list[Move] = []
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
            after = apply(state, move)
            moves.append(move)
            if after.reshuffles != state.reshuffles:
                print("the draw pile ran out: the discard pile is shuffled into a new one")
            new_cards = drawn(state, after, seat, move)
            if new_cards:
                print(f"you drew {format_cards(new_cards)}")
            state = after
    except (EOFError, _Quit) as leaving:
        print()
        print(f"leaving the game after {state.ply} turns")
        if record:
            save_record(record, start, moves)
        elif isinstance(leaving, _Quit):
            offer_record(human, start, moves)
        return 0
    print()
    human.show(state)
    print(winners_text(state, seat, names))
    if record:
        save_record(record, start, moves)
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
    records: RecordFile | None = None,
    quiet: bool = False,
    executor: Executor | None = None,
) -> int:
    """Play the games of ``config`` on ``workers`` processes (or ``executor``) and report;
    with ``records``, write each game there as it finishes, and play only the games it lacks."""
    progress = None if quiet else ProgressBar(sys.stderr)
    own = executor is None and workers > 1
    pool = ProcessPoolExecutor(workers, initializer=_ignore_interrupts) if own else executor
    try:
        result = simulate(
            config,
            executor=pool,
            progress=progress,
            played=() if records is None else records.games,
            on_result=records,
        )
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
    record = read_record(path, "replay")
    return record if isinstance(record, int) else _replay(record, board)


def read_record(path: str, command: str) -> GameRecord | int:
    """The game record in ``path`` (``-``: standard input), or 2 once the problem is printed."""
    try:
        data = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    except OSError as error:
        print(f"pegs {command}: cannot read {path}: {error.strerror or error}", file=sys.stderr)
        return 2
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        print(
            f"pegs {command}: {path} is not UTF-8 text (byte {error.start}), so not a game record",
            file=sys.stderr,
        )
        return 2
    try:
        return from_json(text, "record")
    except PegsError as error:
        print(f"pegs {command}: {path} is not a game record: {error}", file=sys.stderr)
        return 2


def _replay(record: GameRecord, board: bool) -> int:
    state = record.start()
    dealer = "drawn from the seed" if record.dealer is None else f"seat {record.dealer}"
    print(
        f"replaying: {record.players} players, rules {printable(record.rules.name)}, "
        f"seed {record.seed}, dealer {dealer}, {len(record.moves)} moves"
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


def plain(markdown: str) -> str:
    """The Markdown of ``specs/rulings.md`` as terminal text: no marks, wrapped to 78 columns."""
    paragraphs = re.sub(r"\*\*|`|(?<!\w)\*|\*(?!\w)", "", markdown).split("\n\n")
    return "\n\n".join(textwrap.fill(" ".join(p.split()), 78) for p in paragraphs)


def explain_rulings(ruling: str | None) -> int:
    """List every ruling id with its summary, or print one in full; 2 for an unknown id."""
    if ruling is None:
        width = max(map(len, RULINGS))
        for key, summary in RULINGS.items():
            mark = " (added)" if key in ADDED else ""
            print(f"{key:<{width}}  {summary}{mark}")
        print()
        print("(added): decided by this library where the project's original rulings are silent")
        print("'pegs explain ID' prints a ruling in full.")
        return 0
    if ruling in RULINGS:
        kind = "added by this library" if ruling in ADDED else "from the original design"
        text = ruling_text(ruling)
        print(f"{ruling} ({kind})")
        print(RULINGS[ruling])
        print()
        print(plain(text))
        switch = re.search(r"\*\*Switch `(\w+)`", text)
        if switch:
            print()
            print(f"Presets: the field {switch.group(1)} is")
            for name, rules in PRESETS.items():
                print(f"  {name}: {rule_text(rules, switch.group(1))}")
        print()
        print(f"Read more: {DOCS}/rules/{ruling}.html")
        print("(reasons and worked examples), and specs/rulings.md, which states every ruling.")
        return 0
    related = [key for key in RULINGS if key.startswith(ruling.rstrip(".") + ".")]
    if related:
        for key in related:
            print(f"{key}  {RULINGS[key]}")
        return 0
    close = difflib.get_close_matches(ruling, list(RULINGS), n=3)
    hint = f"; did you mean {' or '.join(close)}?" if close else "; 'pegs explain' lists them all"
    print(f"pegs explain: no ruling {printable(ruling)!r}{hint}", file=sys.stderr)
    return 2


def web_build(out_dir: str, docs_url: str | None) -> int:
    """Build the browser playground into ``out_dir`` (:mod:`pegs_rules.web.build`)."""
    from pegs_rules.web.build import BuildError, build

    try:
        page = build(Path(out_dir), docs_url=docs_url)
    except (BuildError, OSError) as error:
        print(f"pegs web build: {error}", file=sys.stderr)
        return 2
    print(f"playground written to {page.parent}")
    print(f"serve it with: python -m http.server -d {out_dir}  (then open http://127.0.0.1:8000/)")
    return 0


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
    from pegs_rules.server.database import database_url
    from pegs_rules.server.store import StoreError

    skip = ("command", "run", "parser", "db", "db_file")
    options = {k: v for k, v in vars(args).items() if k not in skip and v is not None}
    try:
        db = database_url(args.db, args.db_file)
    except StoreError as error:
        print(f"pegs serve: {error}", file=sys.stderr)
        return 2
    return serve(ServerConfig(db=db, db_on_command_line=args.db is not None, **options))


# --------------------------------------------------------------------------
# the parser: one add_NAME and one run_NAME per subcommand
# --------------------------------------------------------------------------


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Help text as written (for the examples), each option followed by its default."""

    def _get_help_string(self, action: argparse.Action) -> str:
        help_text = action.help or ""
        default = action.default
        if (
            "%(default)" in help_text
            or "(default: " in help_text
            or not action.option_strings
            or default is None
            or default is False
            or default == argparse.SUPPRESS
        ):
            return help_text
        if isinstance(default, tuple):
            return help_text + f" (default: {','.join(map(str, default))})"
        return help_text + " (default: %(default)s)"


def _subcommand(
    commands: argparse._SubParsersAction[argparse.ArgumentParser],
    name: str,
    summary: str,
    examples: str,
    run: Callable[[argparse.Namespace], int],
) -> argparse.ArgumentParser:
    """A subcommand's parser, with its help, its examples and the function that runs it."""
    parser = commands.add_parser(
        name,
        help=summary,
        description=summary[0].upper() + summary[1:] + ".",
        epilog="examples:\n" + textwrap.indent(textwrap.dedent(examples).strip(), "  "),
        formatter_class=HelpFormatter,
    )
    parser.set_defaults(run=run, parser=parser)
    return parser


BOTS_HELP = (
    "comma-separated bots, given to the seats in turn: a level (easy, medium, hard, expert) or "
    "random, greedy, mcts, or td (learnt by TD(lambda)); mcts, hard and expert take a budget a move: NAME:ITERATIONS or "
    "NAME:SECONDSs (CPU seconds)"
)


def add_demo(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sub = _subcommand(
        commands,
        "demo",
        "play and print a seeded game between bots",
        """
        pegs demo --seed 7 --players 6
        pegs demo --bots mcts:200,greedy --record game.json
        """,
        run_demo,
    )
    sub.add_argument("--seed", type=int, default=1, help="the game's seed (any whole number)")
    sub.add_argument("--players", type=int, choices=(4, 6, 8), default=4, help="how many seats")
    sub.add_argument("--bots", type=bot_list, default=("greedy", "random"), help=BOTS_HELP)
    sub.add_argument(
        "--max-turns", type=at_least(1), default=100_000, help="stop after this many turns"
    )
    sub.add_argument(
        "--board-every",
        type=at_least(0),
        default=0,
        metavar="N",
        help="also show the board every N turns (0: only at the end)",
    )
    sub.add_argument(
        "--record", metavar="FILE", help="write the game record (JSON) to FILE (default: none)"
    )


def run_demo(args: argparse.Namespace) -> int:
    return demo(
        args.players,
        args.seed,
        args.bots,
        args.max_turns,
        board_every=args.board_every,
        record=args.record,
    )


def add_play(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sub = _subcommand(
        commands,
        "play",
        "play a seat against bots in the terminal",
        """
        pegs play --bots expert
        pegs play --players 8 --seat 3 --bots hard,easy
        pegs play --seed 12 --show-seed --record game.json
        """,
        run_play,
    )
    sub.add_argument("--seat", type=at_least(0), default=0, help="your seat")
    sub.add_argument("--players", type=int, choices=(4, 6, 8), default=4, help="how many seats")
    sub.add_argument(
        "--seed",
        type=int,
        help="the deal (default: a secret 128-bit seed; the seed reveals every hidden card)",
    )
    sub.add_argument(
        "--show-seed", action="store_true", help="print the seed at the start (default: don't)"
    )
    sub.add_argument("--bots", type=bot_list, default=("medium",), help=BOTS_HELP)
    sub.add_argument(
        "--colour",
        "--color",
        choices=("auto", "always", "never"),
        default="auto",
        help="colour the pegs (auto: on a terminal, unless NO_COLOR is set)",
    )
    sub.add_argument(
        "--record",
        metavar="FILE",
        help="write the game record to FILE at the end or on leaving (default: ask on leaving)",
    )


def run_play(args: argparse.Namespace) -> int:
    if args.seat >= args.players:
        args.parser.error(f"argument --seat: a seat 0..{args.players - 1}, not {args.seat}")
    return play(
        args.players,
        args.seat,
        args.seed,
        args.bots,
        use_colour(sys.stdout, args.colour),
        record=args.record,
        show_seed=args.show_seed,
    )


def add_simulate(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sub = _subcommand(
        commands,
        "simulate",
        "play many games between bots and report",
        """
        pegs simulate --games 200 --bots greedy,random --workers 2
        pegs simulate --games 50 --players 8 --bots mcts:100,greedy --json results.json
        """,
        run_simulate,
    )
    sub.add_argument("--games", type=at_least(1), default=100, help="how many games")
    sub.add_argument("--players", type=int, choices=(4, 6, 8), default=4, help="how many seats")
    sub.add_argument("--bots", type=bot_list, default=("greedy", "random"), help=BOTS_HELP)
    sub.add_argument("--workers", type=at_least(1), default=1, help="processes (1: in this one)")
    sub.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run the games on the Dask cluster whose scheduler is at ADDRESS "
        "(needs pegs-rules[cluster]; default: none)",
    )
    sub.add_argument(
        "--preset", type=preset, default="arizona", help="the rules: arizona or standard"
    )
    sub.add_argument(
        "--rule",
        type=rule_change,
        action="append",
        default=[],
        metavar="FIELD=VALUE",
        help="a house rule as position text writes it (nine=plain, two_swap=true); "
        "repeatable (default: none)",
    )
    sub.add_argument(
        "--seed",
        type=int,
        default=0,
        help="all chance comes from it: game I is dealt from seed SEED * 1,000,000 + I, "
        "or + I // 2 with --swap (each deal played twice), so runs with different seeds "
        "never share a deal",
    )
    sub.add_argument(
        "--seeding",
        choices=("keyed", "arithmetic"),
        default="keyed",
        help="how the bots' generators are seeded: keyed (the default: a keyed hash of the "
        "deal's seed, which tells a bot nothing of the deal) or arithmetic (a simple formula "
        "of it, which does: only to replay the runs recorded with it)",
    )
    sub.add_argument(
        "--swap",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="play each deal twice, the bots one seat on the second time",
    )
    sub.add_argument(
        "--max-turns",
        type=at_least(1),
        default=20_000,
        help="give up a game after this many turns",
    )
    sub.add_argument(
        "--json", metavar="FILE", help="write per-game results as JSON to FILE (default: none)"
    )
    sub.add_argument(
        "--csv", metavar="FILE", help="write per-game results as CSV to FILE (default: none)"
    )
    sub.add_argument(
        "--records",
        metavar="FILE",
        help="write each game to FILE (JSON Lines) as soon as it finishes; if FILE holds "
        "games of the same run (a run stopped half-way, or a shorter one), they are kept "
        "and not played again (default: none)",
    )
    sub.add_argument(
        "--quiet", action="store_true", help="no progress bar (default: show one on stderr)"
    )


def run_simulate(args: argparse.Namespace) -> int:
    try:
        rules = args.preset
        for field, value in args.rule:
            rules = with_rule(rules, field, value)
        config = SimulationConfig(
            games=args.games,
            players=args.players,
            bots=args.bots,
            seed=args.seed,
            swap=args.swap,
            rules=rules,
            max_turns=args.max_turns,
            seeding=args.seeding,
        )
    except ValueError as error:
        print(f"pegs simulate: {error}", file=sys.stderr)
        return 2
    try:
        records = None if args.records is None else RecordFile(args.records, config)
    except (ValueError, OSError) as error:  # another run's records, or no file to be had
        print(f"pegs simulate: {error}", file=sys.stderr)
        return 2
    files = {"json_path": args.json, "csv_path": args.csv, "records": records, "quiet": args.quiet}
    if args.scheduler is None:
        return run_simulation(config, args.workers, **files)
    try:
        with cluster_executor(args.scheduler) as executor:
            return run_simulation(config, 1, executor=executor, **files)
    except (ModuleNotFoundError, OSError) as error:
        print(f"pegs simulate: {error}", file=sys.stderr)
        return 2


def add_verify(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sub = _subcommand(
        commands,
        "verify",
        "check a simulation's results: every game dealt as its config says, the summary "
        "made again from the games, and a sample of the games replayed",
        """
        pegs verify results.json
        pegs verify results.json --games all
        pegs verify results.json --games 10 --seed 7
        """,
        run_verify,
    )
    sub.add_argument("file", help="a file written by 'pegs simulate --json'")
    sub.add_argument(
        "--games",
        default="3",
        help="how many games to replay, drawn at random, or 'all' (default: 3)",
    )
    sub.add_argument(
        "--seed",
        type=int,
        help="draws the games to replay (default: a new draw, printed, to repeat it)",
    )


def run_verify(args: argparse.Namespace) -> int:
    """Check the results file ``args.file``; 0 if all agrees, 1 if not, 2 if it is no such file."""
    try:
        simulation = read_json(args.file)  # every game dealt and seeded as the config says
        document = json.loads(Path(args.file).read_text(encoding="utf-8"))
    except (ValueError, OSError) as error:
        print(f"pegs verify: {error}", file=sys.stderr)
        return 2
    config, games = simulation.config, simulation.games
    count = len(games) if args.games == "all" else int(args.games) if args.games.isdigit() else -1
    if count < 0:
        print(f"pegs verify: --games: a whole number or all, not {args.games!r}", file=sys.stderr)
        return 2
    problems = []
    if len(games) != config.games:
        problems.append(f"{len(games)} games recorded, {config.games} in the config")
    written = document.get("summary", {})
    summary = simulation.summary
    made = {
        "games": summary.games,
        "unfinished": summary.unfinished,
        "side wins": list(summary.side_wins),
        "team wins": list(summary.team_wins),
        "first seat wins": summary.first_seat_wins,
    }
    found = {
        "games": written.get("games"),
        "unfinished": written.get("unfinished"),
        "side wins": [side.get("wins") for side in written.get("sides", [])],
        "team wins": [team.get("wins") for team in written.get("teams", [])],
        "first seat wins": written.get("first_seat_wins"),
    }
    problems += [
        f"summary: {name} {found[name]!r}, the games give {value!r}"
        for name, value in made.items()
        if found[name] != value
    ]
    played_by = document.get("provenance", {}).get("played_by") or ["not recorded"]
    print(f"{args.file}: {len(games)} games, bots {','.join(config.bots)}, seed {config.seed}")
    print(f"  seeding {config.seeding}; played by {'; '.join(played_by)}")
    why = not_replayable(config)
    if why is not None:
        print(f"  not replayed: {why}")
    else:
        seed = secrets.randbits(32) if args.seed is None else args.seed
        picked = sorted(random.Random(seed).sample(range(len(games)), min(count, len(games))))
        print(f"  replaying {len(picked)} of the games (--seed {seed}): {picked}")
        for index in picked:
            differences = replay_differences(config, games[index])
            problems += differences
            print(f"  game {index}: {'differs' if differences else 'the same'}")
    for problem in problems:
        print(f"pegs verify: {problem}", file=sys.stderr)
    print("  all agrees" if not problems else f"  {len(problems)} problems")
    return 1 if problems else 0


def add_replay(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sub = _subcommand(
        commands,
        "replay",
        "replay a game record (JSON) turn by turn",
        """
        pegs replay game.json --board
        pegs replay - < game.json
        """,
        run_replay,
    )
    sub.add_argument("file", help="the record, as written by 'pegs demo --record' (- for stdin)")
    sub.add_argument(
        "--board", action="store_true", help="show the board at the end (default: don't)"
    )


def run_replay(args: argparse.Namespace) -> int:
    return replay_file(args.file, board=args.board)


def add_analyze(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sub = _subcommand(
        commands,
        "analyze",
        "each team's chance of winning at every ply of a game record, by playouts that know "
        "every card (docs: Post-game analysis)",
        """
        pegs analyze game.json --json analysis.json --svg chart.svg
        pegs analyze game.json --playouts 200 --seed 7
        """,
        run_analyze,
    )
    sub.add_argument("file", help="the record (- for stdin)")
    sub.add_argument(
        "--playouts",
        type=at_least(1),
        default=analysis.PLAYOUTS,
        help=f"playouts a state (default: {analysis.PLAYOUTS}, the playground's)",
    )
    sub.add_argument(
        "--seed", type=at_least(0), default=0, help="the playouts' and the expert's seed"
    )
    sub.add_argument(
        "--expert",
        type=at_least(1),
        default=analysis.EXPERT,
        help=f"the expert's playouts a move, at the costly plies (default: {analysis.EXPERT})",
    )
    sub.add_argument("--json", metavar="FILE", help="write the numbers here (- for stdout)")
    sub.add_argument("--svg", metavar="FILE", help="write the chart here")


def run_analyze(args: argparse.Namespace) -> int:
    record = read_record(args.file, "analyze")
    if isinstance(record, int):
        return record
    try:
        result = analysis.analyze(
            record, playouts=args.playouts, seed=args.seed, expert=args.expert
        )
    except PegsError as error:
        print(f"pegs analyze: {args.file}: {error}", file=sys.stderr)
        return 1
    numbers = json.dumps(result.to_json(), indent=1) + "\n"
    if args.json == "-":
        sys.stdout.write(numbers)
    elif args.json:
        Path(args.json).write_text(numbers, encoding="utf-8")
    if args.svg:
        Path(args.svg).write_text(analysis.chart_svg(result), encoding="utf-8")
    if args.json != "-":
        last = len(result.points) - 1
        print(
            f"{last} plies, {result.playouts} playouts a state: team 0's chance "
            f"{result.chance(0):.0%} at the deal, {result.chance(last):.0%} at the end"
        )
        for costly in result.costly:
            team = team_of(result.seats[costly.ply - 1])
            print(
                f"  ply {costly.ply}: seat {result.seats[costly.ply - 1]} played {costly.played}, "
                f"team {team} {result.chance(costly.ply - 1, team):.0%} -> "
                f"{result.chance(costly.ply, team):.0%}; the expert: {costly.expert}"
            )
    return 0


def add_explain(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sub = _subcommand(
        commands,
        "explain",
        "list the rulings, or print one in full",
        """
        pegs explain
        pegs explain card.seven.split
        pegs explain turn
        """,
        run_explain,
    )
    sub.add_argument(
        "ruling", nargs="?", help="a ruling id such as card.seven.split, or a prefix such as turn"
    )


def run_explain(args: argparse.Namespace) -> int:
    return explain_rulings(args.ruling)


def add_web(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sub = _subcommand(
        commands,
        "web",
        "the browser playground",
        """
        pegs web build site/play
        pegs web build site/play --docs-url https://example.org/pegs-docs/
        """,
        run_web,
    )
    web_commands = sub.add_subparsers(dest="web_command", required=True, metavar="COMMAND")
    build = web_commands.add_parser(
        "build",
        help="build the playground into a folder",
        description="Build the browser playground into a folder of static files.",
        epilog="examples:\n  pegs web build site/play\n  pegs web build out --docs-url ../",
        formatter_class=HelpFormatter,
    )
    build.set_defaults(run=run_web, parser=build)
    build.add_argument("out_dir", metavar="OUT_DIR", help="the folder to write (new or empty)")
    build.add_argument(
        "--docs-url",
        help="where the docs are, for the rulings' links (default: pages of the rulings "
        "written into the playground; ../ is the docs site's layout)",
    )


def run_web(args: argparse.Namespace) -> int:
    return web_build(args.out_dir, args.docs_url)


def access_share(value: str) -> float:
    """``--access-log``: ``all`` (1), ``off`` (0) or a share in between (:mod:`pegs_rules.server.logs`)."""
    words = {"all": 1.0, "on": 1.0, "off": 0.0}
    if value.strip().lower() in words:
        return words[value.strip().lower()]
    try:
        share = float(value)
    except ValueError:
        share = -1.0
    if not 0.0 <= share <= 1.0:
        raise argparse.ArgumentTypeError(
            f"all, off or a share from 0 to 1 (0.1: one line in ten), not {value!r}"
        )
    return share


def add_serve(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sub = _subcommand(
        commands,
        "serve",
        "run a game server for network play (needs pegs-rules[server])",
        """
        pegs serve
        pegs serve --host 0.0.0.0 --port 8080 --public-url https://pegs.example.org
        pegs serve --db postgresql://pegs@db.example.org:5432/pegs   # one of several servers
        pegs serve --db-file /etc/pegs/database-url   # a URL with a password, kept out of ps
        pegs serve --metrics 9464 --forwarded-allow-ips 10.0.0.5   # behind a proxy at 10.0.0.5
        """,
        serve,
    )
    sub.add_argument("--host", default="127.0.0.1", help="address to listen on")
    sub.add_argument("--port", type=at_least(0), default=8000, help="port to listen on")
    sub.add_argument(
        "--db",
        metavar="URL",
        help="an SQLite file, or postgresql://USER@HOST:PORT/DB shared by several servers "
        "(default: $PEGS_DATABASE_URL, else pegs-games.sqlite3); a password here is seen by "
        "anyone on the machine: use --db-file, $PEGS_DATABASE_URL or PGPASSFILE",
    )
    sub.add_argument(
        "--db-file",
        metavar="PATH",
        help="read the database URL from the first line of this file (keep it readable by "
        "the server's user only)",
    )
    sub.add_argument(
        "--public-url",
        help="the address people use, e.g. https://pegs.example.org (default: host and port)",
    )
    sub.add_argument(
        "--bot-workers", type=at_least(0), default=1, help="bot processes (0: threads)"
    )
    sub.add_argument("--max-games", type=at_least(1), default=1000, help="unfinished games at once")
    sub.add_argument(
        "--sync",
        choices=("full", "normal"),
        default="full",
        help="SQLite: full: flush every move to disk; normal: survive a killed server, not a power cut",
    )
    for name, kind, what in [
        (
            "header-timeout",
            seconds,
            "seconds a client has to send a request's headers (default 10)",
        ),
        ("body-timeout", seconds, "seconds a client has to send the body declared (default 30)"),
        ("send-timeout", seconds, "seconds a message may take to go out to a peer (default 10)"),
        ("unjoined-expiry", duration, "how long a game with no move waits to be joined (60m)"),
        ("idle-expiry", duration, "how long an unfinished game may go without a move (24h)"),
        ("keep-finished", duration, "how long a finished game's record is kept (30d)"),
        ("bots-expiry", duration, "how long a game of bots alone may run, unfinished (60m)"),
    ]:
        metavar = "S" if kind is seconds else "TIME"
        sub.add_argument(f"--{name}", type=kind, metavar=metavar, help=what)
    sub.add_argument(
        "--games-per-client",
        type=at_least(1),
        metavar="N",
        help="unfinished games one client address may have asked for (default 20)",
    )
    sub.add_argument(
        "--max-connections",
        type=at_least(1),
        metavar="N",
        help="connections at once (default and at most: the open-file limit less 100)",
    )
    sub.add_argument(
        "--metrics",
        metavar="[HOST:]PORT",
        help="serve Prometheus metrics there (the host is 127.0.0.1 unless given)",
    )
    sub.add_argument(
        "--access-log",
        type=access_share,
        metavar="all|off|SHARE",
        help="log every request and WebSocket handshake (all), none (off), or a share of them "
        "(0.1: one in ten); at most 60 lines a minute about one client, the rest summed up "
        "(default: all)",
    )
    sub.add_argument(
        "--forwarded-allow-ips",
        metavar="ADDRESSES",
        help="the proxies whose X-Forwarded-For is believed, comma-separated "
        "(default: $FORWARDED_ALLOW_IPS or 127.0.0.1)",
    )


def admin(args: argparse.Namespace) -> int:
    """``pegs admin``: the operator's tools against the servers' database (:mod:`pegs_rules.server.admin`)."""
    from pegs_rules.server.admin import run

    return run(args)


def add_admin(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sub = _subcommand(
        commands,
        "admin",
        "the operator's tools: list games, remove one, block addresses, on a live database",
        """
        pegs admin --db /var/lib/pegs/games.sqlite3 games --unfinished
        pegs admin remove Zq0p1W8sG7Yx --note "abusive names"
        pegs admin block 203.0.113.0/24 --note "join flood at 03:00"
        pegs admin --db-file /etc/pegs/database-url log
        """,
        admin,
    )
    sub.add_argument(
        "--db",
        metavar="URL",
        help="the servers' database: the SQLite file (by the name the server was given) or "
        "postgresql://USER@HOST:PORT/DB (default: $PEGS_DATABASE_URL, else pegs-games.sqlite3)",
    )
    sub.add_argument(
        "--db-file", metavar="PATH", help="read the database URL from this file's first line"
    )
    actions = sub.add_subparsers(dest="admin_command", required=True, metavar="COMMAND")

    def command(name: str, what: str) -> argparse.ArgumentParser:
        parser = actions.add_parser(name, help=what, description=what + ".")
        parser.formatter_class = HelpFormatter
        return parser

    games = command("games", "list the games, the most recently active first")
    games.add_argument("--limit", type=at_least(1), default=100, help="at most this many")
    games.add_argument("--unfinished", action="store_true", help="only the games not yet over")
    games.add_argument("--json", action="store_true", help="as JSON")
    remove = command("remove", "remove a game: its players are told, and it is gone")
    remove.add_argument("game", metavar="GAME", help="the game's id")
    remove.add_argument("--note", help="why (kept with the action, as who and where)")
    block = command("block", "refuse an address or network on every server (403)")
    block.add_argument("network", metavar="ADDRESS|NETWORK", help="203.0.113.7, 2001:db8::/48, ...")
    block.add_argument("--note", help="why (kept with the action, as who and where)")
    unblock = command("unblock", "refuse an address or network no more")
    unblock.add_argument("network", metavar="ADDRESS|NETWORK", help="as it was blocked")
    unblock.add_argument("--note", help="why (kept with the action, as who and where)")
    command("blocks", "list the blocked addresses and networks")
    done = command("log", "what the operator did (removed, blocked, unblocked), oldest first")
    done.add_argument("--limit", type=at_least(1), default=50, help="the last this many")


SUBCOMMANDS: tuple[Callable[[argparse._SubParsersAction[argparse.ArgumentParser]], None], ...] = (
    add_demo,
    add_play,
    add_simulate,
    add_verify,
    add_replay,
    add_analyze,
    add_explain,
    add_web,
    add_serve,
    add_admin,
)
"""Each subcommand's ``add_NAME``, in the order ``pegs --help`` lists them."""


def build_parser() -> argparse.ArgumentParser:
    """The parser of ``pegs`` with every subcommand of :data:`SUBCOMMANDS`."""
    parser = argparse.ArgumentParser(
        prog="pegs",
        description="Pegs and Jokers: play, watch, measure and explain games.",
        epilog=textwrap.dedent(
            """\
            examples:
              pegs demo --seed 1                 a seeded game between bots
              pegs play --players 6              play seat 0 against bots
              pegs simulate --games 200          win rates of two bots
              pegs explain card.seven.split      a ruling in full

            'pegs COMMAND --help' shows a command's options.
            """
        ),
        formatter_class=HelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    for add in SUBCOMMANDS:
        add(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); return the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    try:
        code: int = args.run(args)
        return code
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # pragma: no cover - output piped into a program that stopped reading
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
