"""A mutation pass over the rules engine: do the tests catch deliberate rule bugs?

Each mutant below is one small, plausible bug in a core module (a wrong comparison, a forgotten
case, an off-by-one), written by hand so that each one breaks a rule a player would notice, not
just the code's shape. For each mutant this script copies ``src/`` and ``specs/`` to a temporary
folder, plants the bug there, and runs the test suite against the copy, stopping at the first
failure. A mutant the tests fail on is *killed*; one they pass is a *survivor*: either a gap in
the tests or a change that alters no behaviour (say which in the mutant's note once you know).

Run it from the repository root, in the development venv (not part of CI; about 40 minutes on
one shared core)::

    python tools/mutants.py                  # every mutant
    python tools/mutants.py --list           # what the mutants are
    python tools/mutants.py movegen turn     # only the mutants of these modules
    python tools/mutants.py --jobs 2         # two mutants at a time
    python tools/mutants.py --only 4 23      # mutants 4 and 23 of the list

It prints one line per mutant and the score (killed / run). Some mutants are *equivalent*: they
change no behaviour a valid game can show, so no test can kill them; each says why, and is
expected to survive. A mutant whose original text is no longer in its module is reported as
*stale* and skipped: update it when the code moves on. The tests are read from this checkout
while the pass runs: do not edit them meanwhile.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = [
    # cheap and broad first, so that most mutants die within seconds
    "tests/test_spec.py",
    "tests/test_rulings_cards.py",
    "tests/test_rulings_movement.py",
    "tests/test_rulings_turn.py",
    "tests/test_variants.py",
    "tests/test_memo.py",
    "tests/test_reference_agreement.py",
    "tests/test_hostile_input.py",
    "tests/test_serialize.py",
    "tests/test_views.py",
    "tests/test_records.py",
    "tests/test_notation.py",
    "tests/test_events.py",
    "tests/test_robustness.py",
    "tests/test_properties.py",
    "tests/test_variants_agreement.py",
    "tests/test_random_games.py",
    "tests/test_bots.py",
    "tests/test_render.py",
]
TIMEOUT = 900
"""Seconds before a mutant's run counts as hanging (and so as killed)."""


@dataclass(frozen=True)
class Mutant:
    module: str
    original: str
    mutated: str
    bug: str
    equivalent: str = ""
    """Why the mutant changes no behaviour, if it does not: then it is expected to survive."""


MUTANTS = [
    # --- board ---------------------------------------------------------------------------------
    Mutant(
        "board",
        "return SIDE_HOLES * seat + IN_SPOT_OFFSET",
        "return SIDE_HOLES * seat + IN_SPOT_OFFSET + 1",
        "in-spot one hole late",
    ),
    Mutant(
        "board",
        "return SIDE_HOLES * seat + COME_OUT_OFFSET",
        "return SIDE_HOLES * seat + COME_OUT_OFFSET - 1",
        "come-out one hole early",
    ),
    Mutant("board", "return seat % 2", "return seat // 2 % 2", "teams seated in pairs"),
    Mutant(
        "board",
        "return location > _HOME_BASE",
        "return location >= _HOME_BASE",
        "1000 counts as home",
        equivalent="no location is 1000: track holes end below it and home holes start above it",
    ),
    Mutant(
        "board",
        "or 0 <= location < self.track_length",
        "or 0 <= location <= self.track_length",
        "one hole past the track",
    ),
    # --- rules ---------------------------------------------------------------------------------
    Mutant(
        "rules",
        "if count == players:",
        "if count >= players:",
        "deck row by >= (decks listed out of order)",
    ),
    Mutant(
        "rules",
        "if 52 * decks + jokers < 2 * hands:",
        "if 52 * decks + jokers < hands:",
        "too few cards accepted",
    ),
    Mutant(
        "rules", "nine=Nine.PLAIN,\n)", "nine=Nine.FORWARD_FORWARD,\n)", "standard splits the 9"
    ),
    Mutant(
        "rules", "    draw_first=True,\n", "    draw_first=False,\n", "standard draws after playing"
    ),
    Mutant(
        "rules",
        "1 <= v <= 13 for v in values",
        "1 <= v <= 14 for v in values",
        "face cards may move 14",
    ),
    # --- state and sequence --------------------------------------------------------------------
    Mutant(
        "state",
        "order = [(dealer + 1 + i) % players for i in range(players)]",
        "order = [(dealer + i) % players for i in range(players)]",
        "the dealer acts first",
    ),
    Mutant(
        "state",
        "        hands[order[0]] += draw[:1]\n",
        "        hands[order[1]] += draw[:1]\n",
        "standard: the wrong seat gets the sixth card",
    ),
    Mutant(
        "state",
        "if seed >= 0:\n        return random.Random(seed)",
        "if True:\n        return random.Random(seed)",
        "n and -n deal alike",
    ),
    Mutant(
        "sequence",
        "                if not pile:\n                    break",
        "                if True:\n                    break",
        "no reshuffle",
    ),
    Mutant(
        "sequence",
        "deal = Deal(reshuffled(deal.seed, number, pile), deal.seed, number + 1)",
        "deal = Deal(pile, deal.seed, number + 1)",
        "reshuffle without shuffling",
    ),
    Mutant(
        "sequence",
        "deal = Deal(reshuffled(deal.seed, number, pile), deal.seed, number + 1)",
        "deal = Deal(reshuffled(deal.seed, number, pile), deal.seed, number)",
        "every reshuffle shuffles alike",
    ),
    Mutant(
        "sequence",
        "                self.winner = team\n",
        "                self.winner = 1 - team\n",
        "the other team wins",
    ),
    Mutant(
        "sequence",
        "drawer = following if rules.draw_first else seat",
        "drawer = seat",
        "standard: the player draws after playing",
    ),
    Mutant(
        "sequence",
        "                self.winner = team\n",
        "                self.winner = team\n                self.turn = (seat + 1) % len(self.pegs)\n",
        "the turn moves on after the win",
    ),
    Mutant(
        "sequence",
        "following = (seat + 1) % len(self.pegs)",
        "following = (seat - 1) % len(self.pegs)",
        "play goes counter-clockwise",
    ),
    Mutant(
        "sequence",
        "    for _, _, dst in effects:\n        if is_home(dst):\n            return all(",
        "    if True:\n        if True:\n            return all(",
        "a discard can win",
        equivalent="a team whose pegs were all home before the discard has already won, and a won game has no moves",
    ),
    # --- turn ----------------------------------------------------------------------------------
    Mutant(
        "turn",
        "if not has_playable_card(state):",
        "if True:",
        "discard allowed while a card can move",
    ),
    Mutant(
        "turn",
        "elif isinstance(move, Pass) and not hand:",
        "elif isinstance(move, Pass):",
        "pass while holding cards",
    ),
    Mutant(
        "turn",
        "            same = other_writing(state, move)",
        "            same = None",
        "the other order of a split or a swap is refused",
    ),
    # --- paths: movement -----------------------------------------------------------------------
    Mutant(
        "paths",
        "if 1 <= n - to_spot <= HOME_HOLES:",
        "if 1 <= n - to_spot <= HOME_HOLES + 1:",
        "overshooting home 5",
    ),
    Mutant(
        "paths",
        "if 1 <= n - to_spot <= HOME_HOLES:",
        "if 2 <= n - to_spot <= HOME_HOLES:",
        "no entry to home 1",
    ),
    Mutant(
        "paths",
        "if k + n <= HOME_HOLES:",
        "if k + n <= HOME_HOLES + 1:",
        "moving past home 5 inside home",
    ),
    # --- plays: moves --------------------------------------------------------------------------
    Mutant(
        "plays",
        "                    and not track_mask & own\n                    and not (board.compulsory",
        "                    and not (board.compulsory",
        "own pegs do not block on the track",
    ),
    Mutant(
        "plays",
        "into_home = home != 0 and not home_mask & own\n                if (",
        "into_home = home != 0\n                if (",
        "own pegs do not block into home",
    ),
    Mutant(
        "plays",
        "                if dst and not passed & own:",
        "                if dst:",
        "the 8 is not blocked",
    ),
    Mutant(
        "plays",
        "dst, passed = paths.back[src][8]",
        "dst, passed = paths.back[src][7]",
        "the 8 moves 7 back",
    ),
    Mutant(
        "plays",
        "and not (board.compulsory and into_home)",
        "and not (board.compulsory and not into_home)",
        "compulsory entry inverted",
    ),
    Mutant(
        "plays",
        "and not (board.wait and src == paths.in_spot[seat])",
        "and not (board.wait and src == paths.come_out[seat])",
        "waits on the come-out hole",
    ),
    Mutant(
        "plays",
        "if board.start[seat] and board.at[spot] != seat:",
        "if board.start[seat]:",
        "come out onto an own peg",
    ),
    Mutant(
        "plays",
        "sources = in_start + on_track if switches.joker_any else in_start or on_track",
        "sources = in_start + on_track",
        "arizona joker from the track while a start holds pegs",
    ),
    Mutant(
        "plays",
        "                if colour != seat:\n                    board.add(seat, src, dst, out)",
        "                board.add(seat, src, dst, out)",
        "joker onto an own peg",
    ),
    Mutant(
        "plays",
        "            if not 0 < src <= length:\n                continue",
        "            if not src:\n                continue",
        "swap a peg from home",
    ),
    # --- plays: landing ------------------------------------------------------------------------
    Mutant(
        "plays",
        "            if victim & 1 != self.team:",
        "            if victim != seat:",
        "a knocked team peg goes to start",
    ),
    Mutant(
        "plays",
        "            if spot == hole or after == victim:\n                return None",
        "            if after == victim:\n                return None",
        "knocking a team peg off its own in-spot is legal",
    ),
    Mutant(
        "plays",
        "            if spot == hole or after == victim:\n                return None",
        "            if spot == hole:\n                return None",
        "same colour on the in-spot does not forbid",
        equivalent="the chain's next step finds the knocked peg's own in-spot held and refuses the move all the same",
    ),
    Mutant(
        "plays",
        "                if self.policy == ILLEGAL:\n                    return None",
        "                if self.policy == ILLEGAL:\n                    break",
        "illegal policy lets the move stand",
    ),
    # --- plays: splits -------------------------------------------------------------------------
    Mutant(
        "plays",
        "        for a in range(1, self.total):\n            b = self.total - a",
        "        for a in range(1, self.total - 1):\n            b = self.total - a",
        "no split with a 1 second part",
    ),
    Mutant(
        "plays",
        "# peg i first\n                        if touched_x & reads_b:",
        "# peg i first\n                        if False:",
        "interacting split parts judged on the unchanged board",
    ),
    # --- movegen -------------------------------------------------------------------------------
    Mutant(
        "movegen",
        "return rules.face_values[rank - Rank.JACK]",
        "return rules.face_values[0]",
        "every face card moves the jack's count",
    ),
    Mutant(
        "movegen",
        "        if not all(p > 1000 for p in pegs[mate]):",
        "        if all(p > 1000 for p in pegs[mate]):",
        "standard: help a finished teammate",
    ),
    Mutant(
        "movegen",
        "discards = [] if playable else [Discard(rank) for rank, _, _ in found]",
        "discards = [Discard(rank) for rank, _, _ in found]",
        "discards always listed",
    ),
    Mutant(
        "movegen",
        "playable = playable or (bool(keys) and rank is not _JOKER)",
        "playable = playable or bool(keys)",
        "a playable joker forces play",
    ),
    Mutant(
        "movegen",
        "key = (id(pegs), seats, ranks, id(rules))",
        "key = (id(pegs), (), ranks, id(rules))",
        "the memo keyed without the seats to move",
    ),
    # --- workboard -----------------------------------------------------------------------------
    Mutant(
        "workboard",
        "        if 0 <= src < 1000:\n            placed[src] = None\n",
        "",
        "a knocked team peg finds its in-spot held by the peg that just left it",
    ),
    # --- views ---------------------------------------------------------------------------------
    Mutant("views", "seed=rng.getrandbits(32),", "seed=0,", "every sample reshuffles alike"),
    Mutant(
        "views",
        "known = Counter(seen.hand) + Counter(seen.discard_pile)",
        "known = Counter(seen.hand)",
        "discarded cards dealt again",
    ),
    Mutant(
        "views",
        "draw_pile_size=len(state.draw_pile),",
        "draw_pile_size=len(state.draw_pile) + len(state.discard_pile),",
        "wrong draw pile size",
    ),
    # --- serialize and validate ----------------------------------------------------------------
    Mutant("serialize", 'if values["seat"] < 0:', 'if values["seat"] < -1:', "seat -1 accepted"),
    Mutant(
        "serialize",
        '"steps": lambda r, x, p: _list(r, x, p, _read_step, size=(1, 2)),',
        '"steps": lambda r, x, p: _list(r, x, p, _read_step),',
        "a play of three steps accepted",
    ),
    Mutant("validate", "if len(seats) > 1:", "if len(seats) > 2:", "two pegs on one hole accepted"),
    Mutant(
        "validate",
        "extra = rules.draw_first and seat == state.turn and state.winner is None",
        "extra = rules.draw_first",
        "every hand may hold six",
    ),
]


def planted(mutant: Mutant, folder: Path) -> bool:
    """Plant ``mutant`` in the copy at ``folder``; False if its original text is gone (stale)."""
    path = folder / "src" / "pegs_rules" / f"{mutant.module}.py"
    text = path.read_text(encoding="utf-8")
    if text.count(mutant.original) != 1:
        return False
    path.write_text(text.replace(mutant.original, mutant.mutated), encoding="utf-8")
    return True


def run(mutant: Mutant) -> tuple[str, float]:
    """``killed``, ``survived`` or ``stale``, and the seconds the tests took."""
    with tempfile.TemporaryDirectory(prefix="pegs-mutant-") as tmp:
        folder = Path(tmp)
        shutil.copytree(ROOT / "src", folder / "src")
        shutil.copytree(ROOT / "specs", folder / "specs")
        if not planted(mutant, folder):
            return "stale", 0.0
        env = {**os.environ, "PYTHONPATH": str(folder / "src"), "HYPOTHESIS_PROFILE": "ci"}
        command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider"]
        command += ["-o", "addopts=", "--strict-markers", *TESTS]
        start = time.perf_counter()
        try:
            done = subprocess.run(
                command, cwd=ROOT, env=env, capture_output=True, timeout=TIMEOUT, check=False
            )
        except subprocess.TimeoutExpired:
            return "killed", time.perf_counter() - start
        took = time.perf_counter() - start
        return ("survived" if done.returncode == 0 else "killed"), took


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("modules", nargs="*", help="only the mutants of these modules")
    parser.add_argument("--list", action="store_true", help="list the mutants and stop")
    parser.add_argument("--jobs", type=int, default=1, help="mutants run at once (default 1)")
    parser.add_argument("--only", type=int, nargs="+", metavar="N", help="only these mutants")
    args = parser.parse_args()
    numbered = list(enumerate(MUTANTS, 1))
    chosen = [
        (n, m)
        for n, m in numbered
        if (not args.modules or m.module in args.modules) and (not args.only or n in args.only)
    ]
    if args.list:
        for number, mutant in chosen:
            same = f" (equivalent: {mutant.equivalent})" if mutant.equivalent else ""
            print(f"{number:3d}. {mutant.module}: {mutant.bug}{same}")
        return 0
    counts = {"killed": 0, "survived": 0, "stale": 0}
    gaps = []
    with ThreadPoolExecutor(max(1, args.jobs)) as pool:
        outcomes = pool.map(run, [mutant for _, mutant in chosen])
        for (number, mutant), (outcome, took) in zip(chosen, outcomes, strict=True):
            counts[outcome] += 1
            same = " (equivalent)" if outcome == "survived" and mutant.equivalent else ""
            if outcome == "survived" and not mutant.equivalent:
                gaps.append(number)
            print(
                f"{number:3d}. {outcome:<8} {took:6.1f}s  {mutant.module}: {mutant.bug}{same}",
                flush=True,
            )
    tried = counts["killed"] + counts["survived"]
    score = 100 * counts["killed"] / tried if tried else 0.0
    print(
        f"mutation score: {counts['killed']}/{tried} killed ({score:.0f}%), "
        f"{counts['survived']} survived ({len(gaps)} not known to be equivalent: "
        f"{' '.join(map(str, gaps)) or 'none'}), {counts['stale']} stale"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
