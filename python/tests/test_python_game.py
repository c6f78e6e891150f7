"""A game written in Python, searched by the Rust library, against a pure-Python minimax."""

import pytest

import prune


class Tree:
    """A game tree written here: width 3, depth `left`, each leaf's value drawn from its path
    (a small multiplicative hash), in the leaf mover's favour when positive; every interior
    position evaluates to a hash of its path too."""

    def __init__(self, left=5, path=()):
        self.left, self.path = left, path

    def legal_moves(self):
        return [] if self.left == 0 else ["a", "b", "c"]

    def play(self, move):
        return Tree(self.left - 1, self.path + (move,))

    def _mix(self, salt):
        h = 2166136261 ^ salt
        for m in self.path:
            h = ((h ^ ord(m)) * 16777619) & 0xFFFFFFFF
        return h

    def outcome(self):
        if self.left > 0:
            return None
        return self._mix(7) % 21 - 10

    def evaluate(self):
        return self._mix(11) % 9 - 4

    def key(self):
        return self.path


def negamax(g, depth):
    """Pure-Python minimax in negamax form: the game's outcome at the end, else its
    evaluation at depth 0."""
    o = g.outcome()
    if o is not None:
        # prune scores a proven result as better than any heuristic value, by its margin.
        return ("exact", o)
    if depth == 0:
        return ("heuristic", g.evaluate())
    best = None
    for m in g.legal_moves():
        kind, v = negamax(g.play(m), depth - 1)
        value = (kind, -v)
        if best is None or rank(value) > rank(best):
            best = value
    return best


def rank(value):
    """Orders values as prune's Score does: losses < heuristic values < wins, a draw = 0."""
    kind, v = value
    if kind == "exact" and v > 0:
        return (2, v)
    if kind == "exact" and v < 0:
        return (0, v)
    return (1, v)


ALGORITHMS = ["minimax", "negamax", "alphabeta", "scout", "negascout", "mtdf"]


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("depth", [2, 3, 5])
def test_a_python_game_searched_by_rust_equals_python_minimax(algorithm, depth):
    game = Tree(left=5)
    r = prune.search(game, prune.SearchConfig(algorithm), depth=depth)
    kind, v = negamax(game, depth)
    if kind == "exact" and v != 0:
        assert (r.score_kind, r.score) == ("win" if v > 0 else "loss", v)
    else:
        assert r.score == v
    assert r.best_move in game.legal_moves()
    # The principal variation is made of the game's own moves, legal one after another.
    at = game
    for m in r.pv:
        assert m in at.legal_moves()
        at = at.play(m)


def test_perft_and_a_table_on_a_python_game():
    assert prune.perft(Tree(left=4), 4) == 81
    with_table = prune.search(Tree(left=5), prune.SearchConfig("negascout", "full"), depth=5)
    assert with_table.score == negamax(Tree(left=5), 5)[1]


class Broken(Tree):
    def evaluate(self):
        raise RuntimeError("evaluate() is broken")

    def play(self, move):
        return Broken(self.left - 1, self.path + (move,))


def test_an_exception_in_the_game_reaches_the_caller():
    with pytest.raises(RuntimeError, match="evaluate\\(\\) is broken"):
        prune.search(Broken(left=4), prune.SearchConfig("alphabeta"), depth=2)


def test_a_python_game_needs_a_limit_and_every_method():
    with pytest.raises(prune.PruneError, match="no natural depth"):
        prune.search(Tree(left=3))

    class NoKey:
        def legal_moves(self):
            return []

        def play(self, m):
            return self

        def outcome(self):
            return 0

        def evaluate(self):
            return 0

    with pytest.raises(prune.PruneError, match="no method key"):
        prune.search(NoKey(), depth=1)
