#!/usr/bin/env bash
# Times nqueens against the C baseline nqref_count, back to back, and prints ratios.
#
#   scripts/compare-nqref.sh N [RUNS] [THREADS]
#
# Needs ../shared/reference/nqref built (`make` there) and `cargo build --release`.
# Each round runs nqref_count, then `nqueens count` (plain output) in each symmetry mode
# with the default kernel, then with `--kernel scalar` (and `--kernel avx2` where the
# processor runs it); the script reports the minimum
# wall time of each whole command over RUNS rounds and its ratio to nqref's.
set -euo pipefail
n=${1:?usage: compare-nqref.sh N [RUNS] [THREADS]}
runs=${2:-5}
threads=${3:-1}
here=$(cd "$(dirname "$0")/.." && pwd)
nqref=${NQREF:-$here/../shared/reference/nqref/nqref_count}
nq=$here/target/release/nqueens
[ -x "$nqref" ] || { echo "no $nqref: run make in ../shared/reference/nqref" >&2; exit 2; }
[ -x "$nq" ] || { echo "no $nq: run cargo build --release" >&2; exit 2; }

best() { sort -g | head -1; }
# Wall time of a whole command, in seconds (its output is discarded).
wall() {
    local start end
    start=$(date +%s%N)
    "$@" > /dev/null
    end=$(date +%s%N)
    awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f\n", (b - a) / 1e9 }'
}
variants=("mirror auto" "full auto" "mirror scalar" "full scalar")
# The AVX2 kernel too, where it is not what auto picks but the processor runs it.
if "$nq" count 4 --kernel avx2 > /dev/null 2>&1; then
    variants+=("mirror avx2" "full avx2")
fi
declare -A times
for ((i = 0; i < runs; i++)); do
    times[nqref]+="$(wall "$nqref" "$n" --threads "$threads")"$'\n'
    for v in "${variants[@]}"; do
        read -r mode kernel <<< "$v"
        times[$v]+="$(wall "$nq" count "$n" --threads "$threads" --symmetry "$mode" --kernel "$kernel")"$'\n'
    done
done
base=$(printf '%s' "${times[nqref]}" | best)
printf 'n=%s threads=%s runs=%s kernel auto=%s (minimum wall seconds)\n' "$n" "$threads" "$runs" \
    "$("$nq" count 4 --json | sed 's/.*"kernel":"\([a-z0-9]*\)".*/\1/')"
printf '%-40s %10.3f s  1.000\n' "nqref_count" "$base"
for v in "${variants[@]}"; do
    read -r mode kernel <<< "$v"
    t=$(printf '%s' "${times[$v]}" | best)
    printf '%-40s %10.3f s  %.3f\n' "nqueens --symmetry $mode --kernel $kernel" "$t" \
        "$(awk -v a="$t" -v b="$base" 'BEGIN { print a / b }')"
done
