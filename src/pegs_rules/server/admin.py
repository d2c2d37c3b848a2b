"""``pegs admin``: the operator's tools, against the live database of running servers.

Each subcommand opens the database (``--db``, ``--db-file`` or
``$PEGS_DATABASE_URL``, as ``pegs serve``), does one thing and says what it
did, one line (a list, one line a game or block):

* ``games``: the games, the most recently active first: state, seats (and which
  are joined now, on PostgreSQL), moves, the last move's time, who asked for it;
* ``remove GAME``: remove a game (its connections are told and closed);
* ``block ADDRESS|NETWORK`` and ``unblock ...``: the servers refuse, or no
  longer refuse, requests from there (``403``) and close its connections;
* ``blocks``: what is blocked;
* ``log``: what the operator did, oldest first.

Every change is kept in the database as an action, with the note given and
who gave it (user and machine), and each server logs it as it takes it up,
within :data:`~pegs_rules.server.operating.OPERATOR_POLL` seconds
(:mod:`~pegs_rules.server.operating`).
"""

from __future__ import annotations

import argparse
import getpass
import json
import os
import socket
import sys
import time

from pegs_rules.server.database import database_url, is_postgres, open_store
from pegs_rules.server.store import Action, GameInfo, Store, StoreError


def when(seconds: float, now: float | None = None) -> str:
    """A time as ``pegs admin`` shows it: UTC to the second, and how long ago.

    >>> when(0.0, now=5400.0)
    '1970-01-01T00:00:00Z (90m ago)'
    """
    ago = max(0.0, (time.time() if now is None else now) - seconds)
    if ago < 120:
        age = f"{ago:.0f}s"
    elif ago < 7200:
        age = f"{ago / 60:.0f}m"
    elif ago < 172800:
        age = f"{ago / 3600:.0f}h"
    else:
        age = f"{ago / 86400:.0f}d"
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(seconds)) + f" ({age} ago)"


def state_of(game: GameInfo) -> str:
    """``finished``, ``playing`` or ``waiting`` (for a person to join)."""
    if game.winner is not None:
        return "finished"
    return "playing" if game.joined else "waiting"


def game_line(game: GameInfo) -> str:
    """One game as ``pegs admin games`` lists it."""
    people = [seat for seat, kind in enumerate(game.seats) if kind == "human"]
    seats = f"{len(people)} people, {len(game.seats) - len(people)} bots"
    if game.connected is not None:
        seats += f", joined now: {','.join(map(str, game.connected)) or 'none'}"
    won = f" (team {game.winner} won)" if game.winner is not None else ""
    return (
        f"{game.id}  {state_of(game)}{won}  {seats}  ply {game.ply}"
        f"  last move {when(game.active)}  from {game.creator or '-'}"
    )


def game_data(game: GameInfo) -> dict[str, object]:
    """One game as ``pegs admin games --json`` gives it."""
    return {
        "id": game.id,
        "state": state_of(game),
        "seats": list(game.seats),
        "joined_now": None if game.connected is None else list(game.connected),
        "ply": game.ply,
        "winner": game.winner,
        "last_move": game.active,
        "creator": game.creator,
    }


def action_line(action: Action) -> str:
    note = f"  {action.note}" if action.note else ""
    return f"{action.seq}  {when(action.at)}  {action.action} {action.target}{note}"


def signed(note: str | None) -> str:
    """The note kept with an action: what the operator wrote, and who and where they are."""
    try:
        user = getpass.getuser()
    except (KeyError, OSError):  # pragma: no cover - no user name (a container, say)
        user = "unknown"
    who = f"by {user} on {socket.gethostname()}"
    return f"{note.strip()[:200]}; {who}" if note and note.strip() else who


def run(args: argparse.Namespace) -> int:
    """Run one ``pegs admin`` subcommand; return the exit code."""
    try:
        url = database_url(args.db, args.db_file)
        if not is_postgres(url) and not os.path.isfile(url):  # not a new, empty one
            raise StoreError(f"no database at {url}: give --db the file pegs serve was given")
        store = open_store(url)
    except StoreError as error:
        print(f"pegs admin: {error}", file=sys.stderr)
        return 2
    try:
        return act(store, args)
    except StoreError as error:
        print(f"pegs admin: {error}", file=sys.stderr)
        return 2
    finally:
        store.close()


def act(store: Store, args: argparse.Namespace) -> int:
    command: str = args.admin_command
    if command == "games":
        games = store.games(args.limit, finished=not args.unfinished)
        if args.json:
            print(json.dumps([game_data(game) for game in games], indent=1))
        else:
            for game in games:
                print(game_line(game))
            print(
                f"{len(games)} games{' (the limit: --limit N for more)' if len(games) == args.limit else ''}"
            )
        return 0
    if command == "remove":
        if not store.remove(args.game, signed(args.note)):
            print(f"pegs admin: no game {args.game!r}", file=sys.stderr)
            return 1
        print(f"removed game {args.game}: its players are told within seconds")
        return 0
    if command == "block":
        network = store.block(args.network, signed(args.note))
        print(f"blocked {network}: the servers refuse it within seconds")
        return 0
    if command == "unblock":
        if not store.unblock(args.network, signed(args.note)):
            print(f"pegs admin: {args.network} is not blocked", file=sys.stderr)
            return 1
        print(f"unblocked {args.network}")
        return 0
    if command == "blocks":
        for block in store.blocks():
            print(f"{block.network}  since {when(block.at)}  {block.note}")
        return 0
    actions = store.actions(0, 1_000_000)
    for action in actions[-args.limit :]:
        print(action_line(action))
    return 0
