"""The Ray batch solver on a local Ray cluster started by the test (`ray start --head` with
the machine's two CPUs): results equal to `prune solve`, a worker killed mid-run, a run
interrupted and resumed."""

import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

import prune
from prune.batch import read_positions

RAY = str(Path(sys.executable).parent / "ray")
# The test's cluster: on loopback, with a token of its own (Ray's token authentication), which
# the head, its workers and the runner read from the environment.
ENV = dict(
    os.environ,
    RAY_USAGE_STATS_ENABLED="0",
    PYTHONUNBUFFERED="1",
    RAY_AUTH_MODE="token",
    RAY_AUTH_TOKEN=os.urandom(16).hex(),
)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def cluster():
    port = free_port()
    subprocess.run(
        [RAY, "start", "--head", f"--port={port}", "--num-cpus=2", "--include-dashboard=false",
         "--disable-usage-stats", "--node-ip-address=127.0.0.1"],
        check=True, env=ENV, capture_output=True,
    )
    try:
        yield f"127.0.0.1:{port}"
    finally:
        subprocess.run([RAY, "stop", "--force"], env=ENV, capture_output=True)


def endgames(count, empties, seed):
    """`count` Othello positions with `empties` empties, reached by seeded random play."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        p = prune.Othello()
        while p.empties > empties and not p.is_over():
            p = p.play(rng.choice(p.legal_moves()))
        if not p.is_over() and p.empties == empties:
            out.append(str(p))
    return out


def write_obf(path, positions):
    path.write_text("".join(p + ";\n" for p in positions))


def runner(file, out, address, *extra):
    return [sys.executable, "-m", "prune.batch", "solve", str(file), "--out", str(out),
            "--address", address, "-q", *extra]


def results(out):
    return [json.loads(line) for line in Path(out).read_text().splitlines() if line.strip()]


def lines_in(path):
    try:
        return sum(1 for line in Path(path).read_text().splitlines() if line.strip())
    except FileNotFoundError:
        return 0


def wait_for(predicate, seconds, what):
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def test_sixty_four_positions_equal_prune_solve(cluster, cli, tmp_path):
    positions = endgames(64, 14, seed=1)
    file, out = tmp_path / "p.obf", tmp_path / "r.jsonl"
    write_obf(file, positions)
    done = subprocess.run(runner(file, out, cluster, "--chunk", "4"), env=ENV, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    assert summary == {**summary, "positions": 64, "already": 0, "solved": 64}
    got = results(out)
    assert [r["index"] for r in got] == list(range(64)), "one line per position, in order"
    truth = cli("solve", str(file), "--threads", "1")["positions"]
    assert [r["score"] for r in got] == [t["score"] for t in truth]
    assert all(r["position"] == p for r, p in zip(got, positions))
    assert all(r["best_move"] and r["worker"] for r in got)


def test_a_worker_killed_mid_run_is_replaced_and_nothing_is_lost(cluster, tmp_path):
    positions = endgames(40, 17, seed=2)
    file, out = tmp_path / "p.obf", tmp_path / "r.jsonl"
    write_obf(file, positions)
    run = subprocess.Popen(runner(file, out, cluster, "--chunk", "2"), env=ENV,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wait_for(lambda: lines_in(out) >= 4, 300, "the first results")
        busy = subprocess.run(["pgrep", "-f", "ray::_solve_here"], capture_output=True, text=True)
        pids = [int(p) for p in busy.stdout.split()]
        assert pids, "no worker was solving"
        os.kill(pids[0], signal.SIGKILL)
        stdout, stderr = run.communicate(timeout=600)
    finally:
        run.kill()
    assert run.returncode == 0, stderr
    got = results(out)
    assert [r["index"] for r in got] == list(range(40)), "every position exactly once"
    solver = prune.Solver()
    for r, p in zip(got, positions):
        assert r["score"] == solver.solve(prune.Othello(p)).score


def test_an_interrupted_run_resumes_from_its_partial_file(cluster, tmp_path):
    positions = endgames(40, 16, seed=3)
    file, out = tmp_path / "p.obf", tmp_path / "r.jsonl"
    write_obf(file, positions)
    first = subprocess.Popen(runner(file, out, cluster, "--chunk", "1"), env=ENV,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        wait_for(lambda: lines_in(out) >= 10, 300, "ten results")
    finally:
        first.kill()
        first.wait()
    partial = lines_in(out)
    assert 10 <= partial < 40, partial
    # A line cut short by the kill is dropped and its position solved again.
    with open(out, "a") as f:
        f.write('{"index": 39, "posi')
    again = subprocess.run(runner(file, out, cluster), env=ENV, capture_output=True, text=True,
                           timeout=600)
    assert again.returncode == 0, again.stderr
    summary = json.loads(again.stdout.strip().splitlines()[-1])
    assert summary["already"] >= partial - 1 and summary["already"] + summary["solved"] == 40
    got = results(out)
    assert [r["index"] for r in got] == list(range(40))
    solver = prune.Solver()
    for r, p in zip(got, positions):
        assert r["score"] == solver.solve(prune.Othello(p)).score


def test_connect4_files_and_bad_lines(tmp_path):
    assert read_positions("# a comment\n4453 -2\n-\n") == [("connect4", "4453"), ("connect4", "")]
    with pytest.raises(ValueError, match="line 2"):
        read_positions("4453\nnot a position\n")
    with pytest.raises(ValueError, match="line 1: position:"):
        read_positions("4444444\n")
