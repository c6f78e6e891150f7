"""Solving many positions exactly on a Ray cluster.

    python -m prune.batch solve POSITIONS --out RESULTS [--address HOST:PORT]

POSITIONS is an OBF file of Othello positions (one per line: 64 squares, the side to move,
then optionally ``;`` and scores) or a file of Connect Four positions (the columns played,
optionally followed by a score, as in Pons's test sets). Blank lines and lines starting with
``#`` are skipped.

The positions are split into tasks of ``--chunk`` positions, run as Ray tasks on the cluster
(``ray.init(address=...)``; a local Ray by default). Each result is appended to RESULTS as a
JSON line as soon as its task ends: ``index`` (the position's number in the file, from 0),
``position``, ``score``, ``best_move``, ``nodes``, ``time_ms``, ``worker`` (host and process).
A task lost with its worker is run again (Ray's retries). A run that stops part-way is
resumed by running the same command again: the positions already in RESULTS are not solved
again. When the run ends, RESULTS holds exactly one line per position, in the file's order.
A progress line on stderr shows the positions solved, positions per second and an ETA.

The same as an API: :func:`solve_file`.
"""

import argparse
import json
import os
import socket
import sys
import time
from typing import Dict, Iterable, List, Optional, Tuple

__all__ = ["read_positions", "solve_positions", "solve_file", "main"]


def read_positions(text: str) -> List[Tuple[str, str]]:
    """The positions of a file's text as (game, position) pairs, in order.

    A line is Othello if its first field is 64 squares of X, O and -; Connect Four if it is
    a string of columns 1-7 (the empty board is written ``-``). Raises ``ValueError`` naming
    the line of a malformed one.
    """
    import prune

    out = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        head = line.split(";", 1)[0].strip()
        fields = head.split()
        try:
            if fields and len(fields[0]) == 64 and set(fields[0]) <= set("XO-xo"):
                prune.Othello(head)
                out.append(("othello", head))
                continue
            if fields and (fields[0] == "-" or fields[0].isdigit()):
                moves = "" if fields[0] == "-" else fields[0]
                prune.ConnectFour(moves)
                out.append(("connect4", moves))
                continue
        except prune.PruneError as e:
            raise ValueError(f"line {number}: {e}") from None
        if True:
            raise ValueError(
                f"line {number}: '{line[:40]}' is neither an Othello position (64 squares "
                f"and the side to move) nor Connect Four moves (columns 1-7)"
            )
    return out


# One solver per worker process and thread count, kept from task to task with its tables.
_SOLVERS: Dict[int, object] = {}


def _solve_here(items: List[Tuple[int, str, str]], threads: int) -> List[Dict]:
    """Solves (index, game, position) items in this process."""
    import prune

    worker = f"{socket.gethostname()}:{os.getpid()}"
    solver = _SOLVERS.setdefault(threads, prune.Solver(threads=threads))
    results = []
    for index, game, text in items:
        position = prune.Othello(text) if game == "othello" else prune.ConnectFour(text)
        r = solver.solve(position)
        results.append(
            {
                "index": index,
                "game": game,
                "position": text,
                "score": r.score,
                "best_move": r.best_move,
                "nodes": r.nodes,
                "time_ms": round(r.time_ms, 3),
                "worker": worker,
            }
        )
    return results


def _read_done(out: str, positions: List[Tuple[str, str]]) -> Dict[int, Dict]:
    """The results already in `out` that match their position (by index and text)."""
    done: Dict[int, Dict] = {}
    if not os.path.exists(out):
        return done
    with open(out, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            try:
                r = json.loads(line)
            except json.JSONDecodeError:
                continue  # a line cut short when the last run stopped
            i = r.get("index")
            if isinstance(i, int) and 0 <= i < len(positions) and r.get("position") == positions[i][1]:
                done.setdefault(i, r)
    return done


class _Progress:
    """A progress line on stderr: solved, positions/s, ETA."""

    def __init__(self, total: int, already: int, show: bool):
        self.total, self.done, self.show = total, already, show
        self.start, self.new = time.monotonic(), 0

    def add(self, n: int) -> None:
        self.done += n
        self.new += n
        if self.show:
            elapsed = time.monotonic() - self.start
            rate = self.new / elapsed if elapsed > 0 else 0.0
            left = self.total - self.done
            eta = f"{left / rate:.0f} s" if rate > 0 else "?"
            sys.stderr.write(
                f"\r{self.done}/{self.total} positions  {rate:.1f}/s  ETA {eta}   "
            )
            sys.stderr.flush()

    def close(self) -> None:
        if self.show:
            sys.stderr.write("\n")


def solve_positions(
    positions: List[Tuple[str, str]],
    out: str,
    *,
    address: Optional[str] = None,
    chunk: int = 4,
    threads: int = 1,
    retries: int = 3,
    progress: bool = True,
) -> Dict:
    """Solves `positions` ((game, position) pairs) on Ray, writing `out` as the module says.

    Returns a summary: positions, already (found in `out`), solved (this run), seconds.
    """
    import ray

    if chunk < 1:
        raise ValueError(f"chunk: {chunk} is not a positive number of positions")
    done = _read_done(out, positions)
    todo = [(i, g, p) for i, (g, p) in enumerate(positions) if i not in done]
    # Keep only the lines that match (a partial last line, or another file's, is dropped).
    with open(out, "w", encoding="utf-8") as f:
        for i in sorted(done):
            f.write(json.dumps(done[i]) + "\n")
    started = time.monotonic()
    bar = _Progress(len(positions), len(done), progress)
    if todo:
        if not ray.is_initialized():
            ray.init(address=address, ignore_reinit_error=True, log_to_driver=False)
        remote = ray.remote(num_cpus=threads, max_retries=retries, retry_exceptions=False)(
            _solve_here
        )
        pending = [
            remote.remote(todo[k : k + chunk], threads) for k in range(0, len(todo), chunk)
        ]
        with open(out, "a", encoding="utf-8") as f:
            while pending:
                ready, pending = ray.wait(pending, num_returns=1)
                for ref in ready:
                    for r in ray.get(ref):
                        if r["index"] in done:
                            continue
                        done[r["index"]] = r
                        f.write(json.dumps(r) + "\n")
                        f.flush()
                        bar.add(1)
    bar.close()
    # The final file: one line per position, in the input's order.
    tmp = out + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        for i in range(len(positions)):
            f.write(json.dumps(done[i]) + "\n")
    os.replace(tmp, out)
    return {
        "positions": len(positions),
        "already": len(positions) - len(todo),
        "solved": len(todo),
        "seconds": round(time.monotonic() - started, 3),
    }


def solve_file(path: str, out: str, **options) -> Dict:
    """Reads the positions of `path` and solves them (see :func:`solve_positions`)."""
    with open(path, encoding="utf-8") as f:
        positions = read_positions(f.read())
    return solve_positions(positions, out, **options)


def main(argv: Optional[Iterable[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m prune.batch",
        description="Solve many Othello or Connect Four positions exactly on a Ray cluster.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    s = sub.add_parser("solve", help="solve every position of a file")
    s.add_argument("file", help="an OBF file, or a file of Connect Four move strings")
    s.add_argument("--out", required=True, help="the results, JSON lines (resumed if present)")
    s.add_argument("--address", default=None, help="a Ray cluster (HOST:PORT, or auto); a local Ray by default")
    s.add_argument("--chunk", type=int, default=4, help="positions per task (default 4)")
    s.add_argument("--threads", type=int, default=1, help="threads (and CPUs) per task (default 1)")
    s.add_argument("--retries", type=int, default=3, help="runs of a task lost with its worker (default 3)")
    s.add_argument("-q", "--quiet", action="store_true", help="no progress line")
    args = parser.parse_args(list(argv) if argv is not None else None)
    try:
        summary = solve_file(
            args.file,
            args.out,
            address=args.address,
            chunk=args.chunk,
            threads=args.threads,
            retries=args.retries,
            progress=not args.quiet,
        )
    except (OSError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
