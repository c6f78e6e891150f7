//! Pictures of the tree one search visited (`prune tree` from Python).

use crate::config::{Plan, PySearchConfig};
use crate::err;
use crate::pygame::PyEval;
use crate::search::{any_game, AnyGame};
use prune_lab::tree::{render, Passes, Picture, TreeFormat};
use prune_registry::{GameVisitor, RegisteredGame};
use prune_search::{
    Algorithm, Engine, Evaluator, FailMode, Game, SearchConfig, SearchLimits, TreeRecorder,
};
use pyo3::prelude::*;

/// Draws the tree of one search of one of prune's games.
pub(crate) struct Draw<'py> {
    py: Python<'py>,
    config: SearchConfig,
    depth: u32,
}

impl GameVisitor for Draw<'_> {
    type Output = Result<Tree, String>;
    fn visit<G: RegisteredGame, E: Evaluator<G> + Clone + 'static>(
        self,
        game: G,
        eval: E,
    ) -> Self::Output {
        self.py
            .allow_threads(|| draw(&game, &eval, self.config, self.depth))
    }
}

/// A picture of the tree one search visited.
#[pyclass(module = "prune._prune", frozen, get_all)]
pub(crate) struct Tree {
    /// The picture, as SVG.
    svg: String,
    /// Nodes and leaves drawn, moves pruned.
    summary: String,
}

#[pymethods]
impl Tree {
    fn _repr_svg_(&self) -> String {
        self.svg.clone()
    }

    fn __repr__(&self) -> String {
        format!("Tree({})", self.summary)
    }
}

pub(crate) fn draw<G: Game, E: Evaluator<G>>(
    game: &G,
    eval: &E,
    config: SearchConfig,
    depth: u32,
) -> Result<Tree, String> {
    let limits = SearchLimits {
        depth: Some(depth),
        nodes: Some(200_000),
        time: None,
    };
    let mut engine = Engine::<G>::new(config).map_err(|e| format!("config: {e}"))?;
    let mut recorder = TreeRecorder::new();
    let r = engine
        .search_traced(game, eval, &limits, &mut recorder)
        .map_err(|e| e.to_string())?;
    if r.interrupted {
        return Err("the search visited more than 200,000 nodes: search less deep".into());
    }
    let title = format!("{} · depth {depth}: value {}", config.algorithm, r.score);
    let picture = Picture::new(title, &recorder.into_tree(), &r.pv, Passes::Last);
    Ok(Tree {
        svg: render(std::slice::from_ref(&picture), TreeFormat::Svg),
        summary: picture.summary(),
    })
}

/// The `prune tree` picture of a search of `game` to `depth` with `config` (alpha-beta by
/// default): `_repr_svg_` shows it in Jupyter.
#[pyfunction]
#[pyo3(signature = (game, config=None, *, depth=3))]
pub(crate) fn tree(
    py: Python<'_>,
    game: &Bound<'_, PyAny>,
    config: Option<PyRef<'_, PySearchConfig>>,
    depth: u32,
) -> PyResult<Tree> {
    if depth == 0 || depth > 10 {
        return Err(err(format!(
            "depth {depth}: a tree to draw is 1 to 10 plies deep"
        )));
    }
    let c = match config.as_deref().map(|c| &c.plan) {
        None => SearchConfig::new(Algorithm::AlphaBeta(FailMode::Soft)),
        Some(Plan::AlphaBeta(c)) => *c,
        Some(Plan::Mcts(..)) => return Err(err("tree draws alpha-beta searches, not MCTS")),
        Some(Plan::Proof(p)) => {
            return Err(err(format!(
                "tree draws alpha-beta searches, not proof-number search ({p})"
            )))
        }
    };
    let drawn = match any_game(game)? {
        AnyGame::Native(native) => native.visit(
            None,
            Draw {
                py,
                config: c,
                depth,
            },
        )?,
        AnyGame::Python(g) => {
            let drawn = py.allow_threads(|| draw(&g, &PyEval, c, depth));
            if let Some(e) = g.error.lock().ok().and_then(|mut slot| slot.take()) {
                return Err(e);
            }
            drawn
        }
    };
    drawn.map_err(err)
}
