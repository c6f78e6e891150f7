#!/usr/bin/env python3
"""Node counts of each move-ordering enhancement against plain alpha-beta, through the CLI.

Usage: scripts/ordering-nodes.py midgame DEPTH [CONFIG ...]
       scripts/ordering-nodes.py solve LIST [CONFIG ...]

`midgame`: `prune search --game othello --depth DEPTH` on each FFO #40-#59 position (the
hand-made evaluation at the horizon); `solve`: `prune solve ffo-40-59 --only LIST` through the
generic engine. A CONFIG is a string of prune options (default: the list below). Prints a
Markdown table: total nodes per config and the ratio to the first config. Build first with
`cargo build --release`. (A stop-gap until the lab runs these experiments.)
"""
import json
import os
import shlex
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PRUNE = os.environ.get("PRUNE", os.path.join(ROOT, "target", "release", "prune"))
SUITE = os.path.join(ROOT, "crates", "othello", "data", "ffo-40-59.obf")

CONFIGS = [
    "--preset plain",
    "--static-ordering --othello-ordering square",
    "--static-ordering --othello-ordering mobility",
    "--static-ordering --othello-ordering eval",
    "--tt-mb 64",
    "--killers 1",
    "--killers 2",
    "--killers 4",
    "--killers 2 --killer-index depth",
    "--staged-killers",
    "--history",
    "--iterative",
    "--iterative --refutation",
    "--shallow-order 4",
    "--iterative --tt-mb 64 --static-ordering",
    "--iterative --tt-mb 64 --static-ordering --killers 2",
    "--iterative --tt-mb 64 --static-ordering --history",
    "--iterative --tt-mb 64 --static-ordering --killers 2 --history",
    "--iterative --tt-mb 64 --static-ordering --staged-killers",
    "--iterative --tt-mb 64 --static-ordering --refutation",
    "--iterative --tt-mb 64 --static-ordering --shallow-order 4",
    "--preset full",
]


def positions():
    with open(SUITE) as f:
        return [line[:66] for line in f if line.strip()]


def run(args, timeout=None):
    out = subprocess.run([PRUNE] + args + ["--json"], capture_output=True, text=True,
                         timeout=timeout)
    if out.returncode != 0:
        sys.exit(f"prune {' '.join(args)} failed: {out.stderr}")
    return json.loads(out.stdout)


def midgame(depth, config):
    nodes = 0
    for pos in positions():
        result = run(["search", "--game", "othello", "--position", pos, "--depth", depth]
                     + shlex.split(config))
        nodes += result["stats"]["nodes"]
    return nodes


def solve(only, config):
    """Total nodes over the positions of `only` (each solved alone, so that the table does
    not carry over), and how many did not finish within SOLVE_TIMEOUT seconds (default 300)."""
    if "--othello-ordering" in config:
        return None  # the solver's evaluator has its own ordering
    timeout = float(os.environ.get("SOLVE_TIMEOUT", "300"))
    first, _, last = only.partition("-")
    nodes, unfinished = 0, 0
    for number in range(int(first), int(last or first) + 1):
        args = ["solve", "ffo-40-59", "--only", str(number), "--engine", "generic"]
        try:
            result = run(args + shlex.split(config), timeout)
        except subprocess.TimeoutExpired:
            unfinished += 1
            continue
        assert all(p["correct"] for p in result["positions"]), config
        nodes += sum(p["nodes"] for p in result["positions"])
    return nodes, unfinished


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ("midgame", "solve"):
        sys.exit(__doc__)
    kind, arg = sys.argv[1], sys.argv[2]
    configs = sys.argv[3:] or CONFIGS
    measure = midgame if kind == "midgame" else solve
    print(f"| config | nodes | vs {configs[0]} |")
    print("|---|---:|---:|")
    base = None
    for config in configs:
        nodes = measure(arg, config)
        if nodes is None:
            continue
        nodes, unfinished = nodes if isinstance(nodes, tuple) else (nodes, 0)
        base = base or nodes
        note = f" ({unfinished} not finished)" if unfinished else ""
        print(f"| `{config}` | {nodes:,}{note} | {nodes / base:.3f} |", flush=True)


if __name__ == "__main__":
    main()
