#!/usr/bin/env bash
# The simulations behind docs/fairness.rst, exactly as they were run.
# Usage: bash docs/study/run.sh [GAMES] [OUTDIR]   (defaults: 2000 games, docs/study/results)
# Every run uses the same seed, so the house-rule runs share their deals with the baseline.
# The runs were played before bots were seeded by a keyed hash (--seeding keyed, the default
# now), so they seed them as they were then: --seeding arithmetic.
set -euo pipefail
games=${1:-2000}
out=${2:-docs/study/results}
mkdir -p "$out"
run() {
  local name=$1
  shift
  echo "+ pegs simulate --games $games --workers 2 --seed 1 --seeding arithmetic --quiet $* --json $out/$name.json"
  pegs simulate --games "$games" --workers 2 --seed 1 --seeding arithmetic --quiet "$@" --json "$out/$name.json" >"$out/$name.txt"
  head -1 "$out/$name.txt"
}
# Fairness: greedy at every seat, each preset and player count.
for preset in arizona standard; do
  for players in 4 6 8; do
    run "fair-$preset-$players" --preset "$preset" --players "$players" --bots greedy
  done
done
# House rules: arizona, 4 players, greedy (team 0 / side 0) against random, one switch at a time.
run house-baseline --players 4 --bots greedy,random
run house-face-values --players 4 --bots greedy,random --rule "face_values=11 12 13"
run house-nine-plain --players 4 --bots greedy,random --rule nine=plain
run house-nine-forward-backward --players 4 --bots greedy,random --rule nine=forward_backward
run house-home-entry-compulsory --players 4 --bots greedy,random --rule home_entry_compulsory=true
run house-wait-on-in-spot --players 4 --bots greedy,random --rule wait_on_in_spot=true
run house-in-spot-illegal --players 4 --bots greedy,random --rule in_spot_occupied=illegal
run house-in-spot-to-start --players 4 --bots greedy,random --rule in_spot_occupied=to_start
run house-two-swap --players 4 --bots greedy,random --rule two_swap=true
