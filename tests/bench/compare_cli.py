"""Two whole commands timed from outside, in turn, for a speed figure beside a baseline.

    python3 tests/bench/compare_cli.py [-n RUNS] [--warmup W] --vs "BASELINE COMMAND" -- COMMAND ARG...

A (COMMAND) and B (the baseline) run in turn, A B A B ..., after W unrecorded
runs of each (default 1), so that a machine whose speed drifts during the
call moves both alike. Each run's CPU time is the operating system's account
of the finished child (user + system, getrusage), its wall time a monotonic
clock around it; output goes to /dev/null. Printed: min, median and max of
each figure for A and B, and of the ratio A/B taken pair by pair. Quote the
median. A command that fails stops the comparison with its exit status.
"""
import argparse
import resource
import shlex
import statistics
import subprocess
import sys
import time


def run(argv):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    code = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL).returncode
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if code != 0:
        sys.exit(f"compare_cli: {shlex.join(argv)} exited {code}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def line(name, values):
    return f"{name:<10} {min(values):10.3f} {statistics.median(values):10.3f} {max(values):10.3f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-n", "--runs", type=int, default=5)
    parser.add_argument("--warmup", type=int, default=1)
    parser.add_argument("--vs", required=True, help="the baseline command, split as a shell splits words")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    a = args.command[1:] if args.command[:1] == ["--"] else args.command
    b = shlex.split(args.vs)
    if not a:
        parser.error("name the command after --")
    for _ in range(args.warmup):
        run(a)
        run(b)
    figures = {k: [] for k in ("A cpu s", "A wall s", "B cpu s", "B wall s", "A/B cpu", "A/B wall")}
    for _ in range(args.runs):
        cpu_a, wall_a = run(a)
        cpu_b, wall_b = run(b)
        figures["A cpu s"].append(cpu_a)
        figures["A wall s"].append(wall_a)
        figures["B cpu s"].append(cpu_b)
        figures["B wall s"].append(wall_b)
        figures["A/B cpu"].append(cpu_a / cpu_b if cpu_b > 0 else float("nan"))
        figures["A/B wall"].append(wall_a / wall_b if wall_b > 0 else float("nan"))
    print(f"A: {shlex.join(a)}\nB: {shlex.join(b)}\n{args.runs} runs each, in turn")
    print(f"{'':<10} {'min':>10} {'median':>10} {'max':>10}")
    for name, values in figures.items():
        print(line(name, values))


if __name__ == "__main__":
    main()
