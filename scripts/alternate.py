#!/usr/bin/env python3
"""Times several commands alternately, round by round, and prints the minimum and
median wall time of each and its ratio to the first command's minimum.

Usage: scripts/alternate.py ROUNDS 'CMD ARGS...' 'CMD ARGS...' ...

Each command is split on spaces; its output is discarded and it must succeed.
Alternating the commands in one process spreads the machine's load over all of them,
so the ratios mean more than the times on a shared machine.
"""
import shlex
import statistics
import subprocess
import sys
import time


def main() -> None:
    rounds = int(sys.argv[1])
    commands = [shlex.split(c) for c in sys.argv[2:]]
    times = [[] for _ in commands]
    for _ in range(rounds):
        for i, command in enumerate(commands):
            start = time.perf_counter()
            subprocess.run(command, stdout=subprocess.DEVNULL, check=True)
            times[i].append(time.perf_counter() - start)
    base = min(times[0])
    print("| command | min (s) | median (s) | min / first min |")
    print("|---|---:|---:|---:|")
    for command, samples in zip(commands, times):
        print(
            f"| `{' '.join(command)}` | {min(samples):.4f} | "
            f"{statistics.median(samples):.4f} | {min(samples) / base:.3f} |"
        )


if __name__ == "__main__":
    main()
