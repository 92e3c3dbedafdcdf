#!/bin/bash
# Times `nqueens count N` against a peer counter, run alternately in one command,
# and prints one row per n: the minimum wall time of each over the rounds, their
# ratio (ours / peer), CPU seconds and peak RSS (from GNU time).
#
# Usage: scripts/versus-peer.sh NQUEENS PEER_PATTERN THREADS ROUNDS N...
#   NQUEENS       the nqueens binary (e.g. target/release/nqueens)
#   PEER_PATTERN  the peer command with {n} for the board size and {t} for threads,
#                 e.g. '/work/ext/kluev/build/kluev-{n} {t}' (the peer is built
#                 outside this project; it is never a dependency)
#   THREADS       threads for both programs
#   ROUNDS        alternated rounds per n (the minimum is reported)
set -euo pipefail
ours=$1; pattern=$2; threads=$3; rounds=$4; shift 4
measure() { # prints "wall cpu rss_kb"
  { /usr/bin/time -f "%e %U %S %M" "$@" >/dev/null; } 2>&1 | tail -1 |
    awk '{printf "%s %.2f %s\n", $1, $2 + $3, $4}'
}
echo "| n | threads | ours min wall (s) | peer min wall (s) | ratio | ours CPU (s) | peer CPU (s) | ours peak RSS (MB) | peer peak RSS (MB) | rounds |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for n in "$@"; do
  peer=${pattern//\{n\}/$n}; peer=${peer//\{t\}/$threads}
  bo=1e9; bp=1e9; co=1e9; cp=1e9; mo=0; mp=0
  for r in $(seq 1 "$rounds"); do
    read -r w c m < <(measure "$ours" count "$n" --threads "$threads")
    echo "  n=$n round $r ours: $w s wall, $c s cpu, $m KB" >&2
    bo=$(awk -v a="$w" -v b="$bo" 'BEGIN{print (a<b)?a:b}'); co=$(awk -v a="$c" -v b="$co" 'BEGIN{print (a<b)?a:b}')
    mo=$(awk -v a="$m" -v b="$mo" 'BEGIN{print (a>b)?a:b}')
    # shellcheck disable=SC2086
    read -r w c m < <(measure $peer)
    echo "  n=$n round $r peer: $w s wall, $c s cpu, $m KB" >&2
    bp=$(awk -v a="$w" -v b="$bp" 'BEGIN{print (a<b)?a:b}'); cp=$(awk -v a="$c" -v b="$cp" 'BEGIN{print (a<b)?a:b}')
    mp=$(awk -v a="$m" -v b="$mp" 'BEGIN{print (a>b)?a:b}')
  done
  awk -v n="$n" -v t="$threads" -v bo="$bo" -v bp="$bp" -v co="$co" -v cp="$cp" -v mo="$mo" -v mp="$mp" -v r="$rounds" \
    'BEGIN{printf "| %d | %d | %.2f | %.2f | %.2f | %.2f | %.2f | %.1f | %.1f | %d |\n", n, t, bo, bp, bo/bp, co, cp, mo/1024, mp/1024, r}'
done
