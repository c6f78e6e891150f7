"""The built-in games from Python, against the command line and against published counts."""

import threading
from pathlib import Path
import xml.etree.ElementTree as ET

import pytest

import prune

ALGORITHMS = ["minimax", "negamax", "alphabeta", "alphabeta-hard", "scout", "negascout", "mtdf"]

# (game object, the command line's --game and --position, depth)
POSITIONS = [
    (lambda: prune.Othello(), ("othello", None), 3),
    (
        lambda: prune.Othello("---------------------------OX------XXX-------X------------------ O"),
        ("othello", "---------------------------OX------XXX-------X------------------ O"),
        4,
    ),
    (lambda: prune.ConnectFour("4453"), ("connect4", "4453"), 5),
    (lambda: prune.TicTacToe("X../.O./..."), ("tictactoe", "X../.O./..."), 7),
    (lambda: prune.Shogi(), ("shogi", None), 2),
]


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("make,where,depth", POSITIONS)
def test_every_game_and_algorithm_agrees_with_the_command_line(cli, algorithm, make, where, depth):
    game = make()
    r = prune.search(game, prune.SearchConfig(algorithm), depth=depth)
    args = ["search", "--game", where[0], "--algorithm", algorithm, "--depth", str(depth), "--threads", "1"]
    if where[1]:
        args += ["--position", where[1]]
    if where[0] == "othello":
        args += ["--engine", "generic"]
    expected = cli(*args)
    assert {"kind": r.score_kind, "value": r.score} == expected["score"], (algorithm, where)
    assert r.best_move in game.legal_moves()
    assert r.pv[0] == r.best_move
    assert r.stats["nodes"] == expected["stats"]["nodes"], "the same search, node for node"


def test_presets_and_switches_by_the_command_lines_names(cli):
    config = prune.SearchConfig("negascout", "full", history=True, killers=2)
    r = prune.search(prune.Othello(), config, depth=5)
    expected = cli(
        "search", "--game", "othello", "-a", "negascout", "--preset", "full", "--history",
        "--killers", "2", "--depth", "5", "--threads", "1",
    )
    assert r.score == expected["score"]["value"]
    assert r.stats["nodes"] == expected["stats"]["nodes"]
    timed = prune.search(prune.Othello(), prune.SearchConfig("negascout", "full"), time_ms=100)
    assert timed.depth >= 1 and timed.best_move in prune.Othello().legal_moves()


def test_exact_solves_match_the_published_ffo_scores():
    number, text, score = prune.ffo_suite()[0]
    assert number == 40
    r = prune.solve(prune.Othello(text))
    assert (r.score, r.best_move) == (score, "a2")  # FFO #40: +38, a2
    # The first ten positions of Pons's End-Easy set (../shared/data/connect4/Test_L3_R1),
    # with the scores the file gives.
    data = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "connect4" / "Test_L3_R1"
    solver = prune.Solver()
    for line in data.read_text().splitlines()[:10]:
        moves, score = line.split()
        assert solver.solve(prune.ConnectFour(moves)).score == int(score), moves


def test_perft_equals_the_published_counts():
    # Othello perft (Aart Bik's counts) and the 255,168 games of tic-tac-toe.
    assert [prune.perft(prune.Othello(), d) for d in range(1, 8)] == [4, 12, 56, 244, 1396, 8200, 55092]
    assert prune.perft(prune.TicTacToe(), 9) == 255168
    # Shogi perft from the start (the published counts, as crates/shogi's START_PERFT).
    assert [prune.perft(prune.Shogi(), d) for d in range(1, 4)] == [30, 900, 25470]


def test_shogi_positions_moves_hands_and_scores():
    s = prune.Shogi()
    assert len(s.legal_moves()) == 30 and s.to_move == "X" and "7g7f" in s.legal_moves()
    after = s.play("7g7f").play("3c3d").play("8h2b+")
    assert after.to_move == "O" and after.hands() == {"X": {"B": 1}, "O": {}}
    assert prune.Shogi(after.sfen) == after
    assert prune.Shogi("startpos") == s
    # Black's bishop took White's and promoted on 2b: White takes the horse back, with the
    # silver of 3a or the rook of 8b (along the empty rank b), of its 30-odd moves.
    r = prune.search(after, depth=2)
    assert r.best_move in ("3a2b", "8b2b") and len(after.legal_moves()) > 20
    assert r.score_text.endswith(" cp")
    m = prune.search(after, depth=2, eval="material")
    assert m.score_text.endswith(" cp")
    # Scores read in each game's own words.
    o = prune.search(prune.Othello(), depth=2)
    assert o.score_text.endswith(" discs")
    # The shogi engine of `prune usi`, through the registry: a mate in one found and said so.
    mate = prune.Shogi("8k/9/8P/9/9/9/9/9/K8 b G 1")
    n = prune.search(mate, engine="native", depth=3)
    assert (n.best_move, n.score_kind, n.score_text) == ("G*1b", "win", "win: mate in 1 ply")
    assert prune.search(after, engine="native", depth=3).best_move in ("3a2b", "8b2b")
    o = prune.search(prune.Othello(), engine="native", depth=4)
    assert o.best_move in prune.Othello().legal_moves() and o.score_text.endswith(" discs")
    # Mated: White's king on 1a, Black's gold on 1b held by the pawn of 1c.
    mated = prune.Shogi("8k/8G/8P/9/9/9/9/9/K8 w - 1")
    assert mated.is_over() and mated.outcome() == -1 and mated.legal_moves() == []


def test_playing_and_reading_positions():
    p = prune.Othello()
    assert p.legal_moves() == ["d3", "c4", "f5", "e6"] and p.to_move == "X"
    q = p.play("d3")
    assert q.to_move == "O" and q.empties == 59 and not q.is_over()
    assert prune.Othello(str(q)) == q
    t = prune.TicTacToe("XXX/OO./...")
    assert t.is_over() and t.outcome() == -1  # O to move has lost
    c = prune.ConnectFour("44").play("3")
    assert str(c) == "443" and c.to_move == "O"


def test_mcts_proves_tic_tac_toe_a_draw():
    r = prune.search(prune.TicTacToe(), prune.SearchConfig("mcts", playouts=1_000_000))
    assert r.score_kind == "draw" and r.exhausted
    assert r.stats["playouts"] < 1_000_000


@pytest.mark.parametrize("algorithm", ["pns", "dfpn", "dfpn+"])
def test_proof_number_searches_settle_tic_tac_toe(algorithm):
    config = prune.SearchConfig(algorithm)
    r = prune.search(prune.TicTacToe(), config)
    assert r.score_kind == "draw" and r.exhausted
    assert [p["goal"] for p in r.stats["proofs"]] == ["win", "at least a draw"]
    # X to move completes the top row: a win, and the move given wins at once.
    won = prune.search(prune.TicTacToe("XX./OO./..."), config)
    assert won.score_kind == "win"
    after = prune.TicTacToe("XX./OO./...").play(won.best_move)
    assert after.is_over() and after.outcome() == -1  # O to move has lost
    # Too few nodes: no verdict.
    assert prune.search(prune.TicTacToe(), config, nodes=3).score_kind == "unknown"


@pytest.mark.parametrize(
    "call,words",
    [
        (lambda: prune.Othello("XO"), "position:"),
        (lambda: prune.Othello().play("a1"), "move 'a1'"),
        (lambda: prune.ConnectFour("4444444"), "position:"),
        (lambda: prune.TicTacToe().play("z9"), "not legal"),
        (lambda: prune.SearchConfig("nosuch"), "algorithm:"),
        (lambda: prune.SearchConfig(preset="nosuch"), "preset:"),
        (lambda: prune.SearchConfig("minimax", history=True), "invalid configuration"),
        (lambda: prune.SearchConfig(killers=0), "killer slots"),
        (lambda: prune.SearchConfig("negascout", playouts=5), "options of algorithm mcts"),
        (lambda: prune.SearchConfig("dfpn", preset="full"), "takes no other option"),
        (lambda: prune.search(prune.TicTacToe(), prune.SearchConfig("pns"), time_ms=5), "not time_ms"),
        (lambda: prune.search(prune.TicTacToe(), eval="hand"), "unknown evaluation 'hand' of tictactoe"),
        (lambda: prune.search(prune.Shogi(), eval="nnue"), "expected hand, material"),
        (lambda: prune.Shogi("lnsgkgsnl/9 b - 1"), "sfen:"),
        (lambda: prune.Shogi().play("5e5d"), "not legal"),
        (lambda: prune.search(prune.ConnectFour(), engine="native", depth=2), "no native engine"),
        (lambda: prune.search(prune.Shogi(), engine="turbo"), "unknown engine 'turbo'"),
        (lambda: prune.search(prune.Othello(), engine="native", threads=100000), "threads:"),
        (lambda: prune.search(object(), depth=2), "not a game of prune"),
        (lambda: prune.perft(prune.Othello(), 99), "at most 20"),
    ],
)
def test_bad_input_raises_prune_error_with_the_message(call, words):
    with pytest.raises(prune.PruneError) as e:
        call()
    assert words in str(e.value)
    assert isinstance(e.value, ValueError)


@pytest.mark.parametrize(
    "thing", [prune.Othello(), prune.ConnectFour("4453"), prune.TicTacToe("XO./.X./..."), prune.Shogi()]
)
def test_positions_draw_as_well_formed_svg(thing):
    root = ET.fromstring(thing._repr_svg_())
    assert root.tag.endswith("svg")


def test_a_search_tree_draws_as_well_formed_svg():
    t = prune.tree(prune.TicTacToe("XO./.X./..."), prune.SearchConfig("alphabeta"), depth=2)
    root = ET.fromstring(t._repr_svg_())
    assert root.tag.endswith("svg")
    assert "leaves" in t.summary


def test_the_gil_is_released_during_a_search():
    ticks = []
    stop = threading.Event()

    def count():
        while not stop.is_set():
            ticks.append(1)

    counter = threading.Thread(target=count)
    counter.start()
    try:
        prune.search(prune.Othello(), prune.SearchConfig("negascout", "full"), time_ms=300)
        during = len(ticks)
    finally:
        stop.set()
        counter.join()
    assert during > 1000, "another Python thread ran while the Rust search did"
