#!/usr/bin/env bash
# The games behind docs/strength.rst ("How strong are the bots"), exactly as they were run.
# Usage: bash docs/strength/run.sh [PART ...] [--out OUTDIR] [--games GAMES]
#   PART: expert (4 players, 0.05 s a move), more (6 and 8 players; 0.5 s a move), rating (the
#   round robin), td (the learnt bot against medium, hard and expert), all (the default) or the
#   name of one run (rr-hard-medium); OUTDIR: default
#   docs/strength/results; GAMES: play this many games in every run instead, to try it out.
# Each run is one `pegs simulate` on two worker processes (WORKERS in the environment: as many)
# at the lowest priority. It writes every game to OUTDIR/NAME.jsonl as it finishes, so a run
# that is stopped carries on from where it was when started again; the file is removed once
# NAME.json is written. The runs before td's were played before bots were seeded by a keyed hash
# (--seeding keyed, the default now), so they seed them as they were then: --seeding arithmetic,
# a formula from which a bot could work out the deal (our bots do not look; an agent that is not
# trusted must never be seeded so).
# docs/strength/ideas.py plays the matches that measure the expert's ideas.
set -euo pipefail
parts=() out=docs/strength/results games= seed=1 seeding=arithmetic
while (($#)); do
  case $1 in
    --out) out=$2; shift 2 ;;
    --games) games=$2; shift 2 ;;
    *) parts+=("$1"); shift ;;
  esac
done
((${#parts[@]})) || parts=(all)
mkdir -p "$out"
wanted() {
  local part
  for part in "${parts[@]}"; do
    [[ $part == all || $part == "$1" || $part == "$2" ]] && return 0
  done
  return 1
}
run() {
  local part=$1 name=$2 count=${games:-$3}
  shift 3
  wanted "$part" "$name" || return 0
  echo "+ pegs simulate --games $count --workers ${WORKERS:-2} --seed $seed --seeding $seeding --quiet $* --json $out/$name.json"
  nice -n 19 pegs simulate --games "$count" --workers "${WORKERS:-2}" --seed "$seed" --seeding "$seeding" --quiet "$@" \
    --records "$out/$name.jsonl" --json "$out/$name.json" >"$out/$name.txt"
  rm "$out/$name.jsonl"
  head -1 "$out/$name.txt"
}
# expert against mcts at equal thinking time (CPU seconds a move), seats swapped every other game
run expert expert-mcts-4p-0.05s 400 --players 4 --bots expert:0.05s,mcts:0.05s
run more expert-mcts-6p-0.05s 100 --players 6 --bots expert:0.05s,mcts:0.05s
run more expert-mcts-8p-0.05s 100 --players 8 --bots expert:0.05s,mcts:0.05s
run more expert-mcts-4p-0.5s 8 --players 4 --bots expert:0.5s,mcts:0.5s
# the round robin between the levels (and random), 4 players, each at its default budget; the
# pairs of neighbouring levels play enough games to tell them apart
run rating rr-easy-random 40 --bots easy,random
run rating rr-medium-random 40 --bots medium,random
run rating rr-medium-easy 200 --bots medium,easy
run rating rr-hard-random 4 --bots hard,random
run rating rr-hard-easy 6 --bots hard,easy
run rating rr-hard-medium 200 --bots hard,medium
run rating rr-expert-random 4 --bots expert,random
run rating rr-expert-easy 6 --bots expert,easy
run rating rr-expert-medium 12 --bots expert,medium
run rating rr-expert-hard 120 --bots expert,hard
# the td bot (make_bot("td"): the weights docs/examples/td_learner.py learnt on the deals of seeds
# 1,000,000 to 1,004,515, which --seed 1 deals) against medium, hard and expert, 4 players:
# --seed 2, deals it never saw, and bots seeded by the keyed hash
seed=2 seeding=keyed
run td td-medium 1000 --bots td,medium
run td td-hard 100 --bots td,hard
run td td-expert 50 --bots td,expert
