"""prune from Python: game-tree search on Othello, Connect Four, shogi, tic-tac-toe and games
written in Python, by the Rust library of the `prune` workbench.

    >>> import prune
    >>> position = prune.Othello(prune.ffo_suite()[0][1])   # FFO #40
    >>> prune.solve(position).score
    38

Searches take a :class:`SearchConfig` built from the command line's names (algorithm, preset,
switches, threads); results are plain objects (score, best move, principal variation, the
statistics as a dict). Errors are :class:`PruneError` (a ``ValueError``) with the command
line's messages. The GIL is released while a search runs. ``prune.batch`` solves many
positions on a Ray cluster.
"""

from ._prune import (
    ConnectFour,
    Othello,
    PruneError,
    SearchConfig,
    SearchResult,
    Shogi,
    SolveResult,
    Solver,
    TicTacToe,
    Tree,
    ffo_suite,
    perft,
    search,
    solve,
    tree,
)

__all__ = [
    "ConnectFour",
    "Othello",
    "PruneError",
    "SearchConfig",
    "SearchResult",
    "Shogi",
    "SolveResult",
    "Solver",
    "TicTacToe",
    "Tree",
    "ffo_suite",
    "perft",
    "search",
    "solve",
    "tree",
]
