"""Shared fixtures: the `prune` command line to compare with."""

import json
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _find_cli():
    given = os.environ.get("PRUNE_BIN")
    if given:
        return given
    for profile in ("release", "debug"):
        path = ROOT / "target" / profile / "prune"
        if path.exists():
            return str(path)
    pytest.fail("no prune binary: build it (cargo build) or set PRUNE_BIN")


@pytest.fixture(scope="session")
def cli():
    """Runs `prune ARGS --json` and returns the parsed output."""
    binary = _find_cli()

    def run(*args):
        out = subprocess.run([binary, *args, "--json"], check=True, capture_output=True, text=True)
        return json.loads(out.stdout)

    run.binary = binary
    return run
