#!/usr/bin/env python3
"""Times several commands alternately, round by round, and prints the minimum and
median wall time of each and its ratio to the first command's minimum, then the same
for the CPU time (user + system of the command and its children), which a machine
shared with other work disturbs less than the wall time.

Usage: scripts/alternate.py ROUNDS 'CMD ARGS...' 'CMD ARGS...' ...

Each command is split on spaces; its output is discarded and it must succeed.
Alternating the commands in one process spreads the machine's load over all of them,
so the ratios mean more than the times on a shared machine.
"""
import resource
import shlex
import statistics
import subprocess
import sys
import time


def main() -> None:
    rounds = int(sys.argv[1])
    commands = [shlex.split(c) for c in sys.argv[2:]]
    times = [[] for _ in commands]
    cpu = [[] for _ in commands]
    for _ in range(rounds):
        for i, command in enumerate(commands):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            subprocess.run(command, stdout=subprocess.DEVNULL, check=True)
            times[i].append(time.perf_counter() - start)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu[i].append(
                after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
            )
    for what, table in (("wall", times), ("CPU", cpu)):
        base = min(table[0])
        print(f"| command | min {what} (s) | median {what} (s) | min / first min |")
        print("|---|---:|---:|---:|")
        for command, samples in zip(commands, table):
            print(
                f"| `{' '.join(command)}` | {min(samples):.4f} | "
                f"{statistics.median(samples):.4f} | {min(samples) / base:.3f} |"
            )


if __name__ == "__main__":
    main()
