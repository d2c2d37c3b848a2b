#!/usr/bin/env bash
# The games behind docs/strength.rst ("How strong are the bots"), exactly as they were run.
# Usage: bash docs/strength/run.sh [PART] [OUTDIR] [GAMES]
#   PART: expert (4 players, 0.05 s a move), more (6 and 8 players; 0.5 s a move), rating (the
#   round robin) or all (the default); OUTDIR: default docs/strength/results; GAMES: play this
#   many games in every run instead, to try it out. Each run is one `pegs simulate` on two
#   worker processes; docs/strength/ideas.py plays the matches that measure the expert's ideas.
set -euo pipefail
part=${1:-all}
out=${2:-docs/strength/results}
games=${3:-}
mkdir -p "$out"
run() {
  local name=$1 count=${games:-$2}
  shift 2
  echo "+ pegs simulate --games $count --workers 2 --seed 1 --quiet $* --json $out/$name.json"
  pegs simulate --games "$count" --workers 2 --seed 1 --quiet "$@" --json "$out/$name.json" >"$out/$name.txt"
  head -1 "$out/$name.txt"
}
# expert against mcts at equal thinking time (CPU seconds a move), seats swapped every other game
if [[ $part == expert || $part == all ]]; then
  run expert-mcts-4p-0.05s 400 --players 4 --bots expert:0.05s,mcts:0.05s
fi
if [[ $part == more || $part == all ]]; then
  run expert-mcts-6p-0.05s 24 --players 6 --bots expert:0.05s,mcts:0.05s
  run expert-mcts-8p-0.05s 16 --players 8 --bots expert:0.05s,mcts:0.05s
  run expert-mcts-4p-0.5s 8 --players 4 --bots expert:0.5s,mcts:0.5s
fi
# the round robin between the levels (and random), 4 players, each at its default budget
if [[ $part == rating || $part == all ]]; then
  run rr-easy-random 40 --bots easy,random
  run rr-medium-random 40 --bots medium,random
  run rr-medium-easy 200 --bots medium,easy
  run rr-hard-random 4 --bots hard,random
  run rr-hard-easy 6 --bots hard,easy
  run rr-hard-medium 12 --bots hard,medium
  run rr-expert-random 4 --bots expert,random
  run rr-expert-easy 6 --bots expert,easy
  run rr-expert-medium 12 --bots expert,medium
  run rr-expert-hard 12 --bots expert,hard
fi
