"""`prune usi` driven by real shogi software: cshogi's USI engine class (the driver of the
dlshogi project) starts prune by a path with no arguments, as GUIs do, through a link named
`prune-usi`, and plays a few moves of a game against itself; cshogi's own board checks every
move prune answers."""

import os
import signal

import pytest

cshogi = pytest.importorskip("cshogi")
from cshogi.usi import Engine  # noqa: E402


def test_cshogi_plays_prune_usi_legally(cli, tmp_path):
    link = tmp_path / "prune-usi"
    os.symlink(os.path.abspath(cli.binary), link)
    signal.alarm(120)  # cshogi waits forever on an engine that stops answering
    try:
        engine = Engine(str(link))
        assert engine.name.startswith("prune")
        engine.setoption("USI_Hash", 16)
        engine.isready()
        engine.usinewgame()
        board = cshogi.Board()
        moves = []
        for _ in range(8):
            engine.position(moves=moves)
            bestmove, _ = engine.go(byoyomi=200)
            move = board.move_from_usi(bestmove)
            assert board.is_legal(move), f"{bestmove} after {moves}"
            board.push(move)
            moves.append(bestmove)
        engine.quit()
    finally:
        signal.alarm(0)
    assert len(moves) == 8
