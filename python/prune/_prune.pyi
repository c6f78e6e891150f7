"""Type stubs of prune's native module (prune._prune)."""

from typing import Any, Dict, List, Optional, Protocol, Sequence, Tuple, Union

class PruneError(ValueError):
    """Bad input: a malformed position, an illegal move, an unknown option."""

class Othello:
    def __init__(self, text: Optional[str] = None) -> None:
        """64 squares a1..h8 of X, O, - and the side to move, or an OBF line; the start by default."""
    def legal_moves(self) -> List[str]: ...
    def play(self, move: str) -> "Othello": ...
    def is_over(self) -> bool: ...
    def outcome(self) -> Optional[int]:
        """The final disc difference for the side to move once the game is over."""
    @property
    def to_move(self) -> str: ...
    @property
    def empties(self) -> int: ...
    def rows(self) -> List[str]: ...
    def _repr_svg_(self) -> str: ...

class ConnectFour:
    def __init__(self, moves: str = "") -> None:
        """The columns played from the empty board, 1-7, such as '4453'."""
    def legal_moves(self) -> List[str]: ...
    def play(self, move: str) -> "ConnectFour": ...
    def is_over(self) -> bool: ...
    def outcome(self) -> Optional[int]:
        """The test sets' score for the side to move once the game is over."""
    @property
    def to_move(self) -> str: ...
    def rows(self) -> List[str]: ...
    def _repr_svg_(self) -> str: ...

class TicTacToe:
    def __init__(self, cells: Optional[str] = None) -> None:
        """Nine cells such as 'XO./.X./...'; the empty board by default."""
    def legal_moves(self) -> List[str]: ...
    def play(self, move: str) -> "TicTacToe": ...
    def is_over(self) -> bool: ...
    def outcome(self) -> Optional[int]: ...
    @property
    def to_move(self) -> str: ...
    def rows(self) -> List[str]: ...
    def _repr_svg_(self) -> str: ...

class Shogi:
    def __init__(self, sfen: Optional[str] = None) -> None:
        """An SFEN or 'startpos'; the start position by default."""
    def legal_moves(self) -> List[str]:
        """USI: '7g7f', '8h2b+', 'P*5e'."""
    def play(self, move: str) -> "Shogi": ...
    def is_over(self) -> bool: ...
    def outcome(self) -> Optional[int]: ...
    def in_check(self) -> bool: ...
    @property
    def to_move(self) -> str: ...
    @property
    def sfen(self) -> str: ...
    def hands(self) -> Dict[str, Dict[str, int]]: ...
    def _repr_svg_(self) -> str: ...

class PythonGame(Protocol):
    """A game written in Python: every method of a position, `play` returning a new one."""
    def legal_moves(self) -> Sequence[Any]: ...
    def play(self, move: Any) -> "PythonGame": ...
    def outcome(self) -> Optional[int]:
        """None while the game goes on; else the final score for the side to move (> 0 a win)."""
    def evaluate(self) -> int: ...
    def key(self) -> Any: ...

Game = Union[Othello, ConnectFour, Shogi, TicTacToe, PythonGame]

class SearchConfig:
    def __init__(
        self,
        algorithm: Optional[str] = None,
        preset: Optional[str] = None,
        *,
        iterative: bool = False,
        aspiration: Optional[int] = None,
        tt_mb: Optional[int] = None,
        static_ordering: bool = False,
        killers: Optional[int] = None,
        killer_index: Optional[str] = None,
        staged_killers: bool = False,
        history: bool = False,
        refutation: bool = False,
        shallow_order: Optional[int] = None,
        shallow_depth: Optional[int] = None,
        threads: int = 1,
        playouts: Optional[int] = None,
        exploration: Optional[float] = None,
        playout_cutoff: Optional[int] = None,
        transpositions: bool = False,
        seed: Optional[int] = None,
    ) -> None:
        """The command line's names: algorithm (minimax, negamax, alphabeta, alphabeta-hard,
        scout, negascout, mtdf, or mcts), preset (plain, static, tt, killers, staged, history,
        refutation, shallow, full) and each switch."""

class SearchResult:
    score: Optional[int]
    score_kind: str
    score_text: str
    depth: int
    exhausted: bool
    @property
    def best_move(self) -> Any: ...
    @property
    def pv(self) -> List[Any]: ...
    @property
    def stats(self) -> Dict[str, Any]: ...

class SolveResult:
    score: int
    best_move: Optional[str]
    nodes: int
    time_ms: float

class Solver:
    """An exact solver that keeps its tables from one solve to the next."""
    def __init__(self, *, threads: int = 1, tt_mb: int = 64) -> None: ...
    def solve(self, position: Union[Othello, ConnectFour]) -> SolveResult: ...

class Tree:
    svg: str
    summary: str
    def _repr_svg_(self) -> str: ...

def search(
    game: Game,
    config: Optional[SearchConfig] = None,
    *,
    depth: Optional[int] = None,
    time_ms: Optional[int] = None,
    nodes: Optional[int] = None,
    playouts: Optional[int] = None,
    eval: Optional[str] = None,
    engine: Optional[str] = None,
    threads: int = 1,
) -> SearchResult:
    """engine='native': the game's own engine (Othello's midgame search, the shogi engine)."""
def solve(position: Union[Othello, ConnectFour], *, threads: int = 1, tt_mb: int = 64) -> SolveResult: ...
def perft(game: Game, depth: int) -> int: ...
def tree(game: Game, config: Optional[SearchConfig] = None, *, depth: int = 3) -> Tree: ...
def ffo_suite() -> List[Tuple[int, str, int]]:
    """FFO #40-#59: (number, position, best score)."""
