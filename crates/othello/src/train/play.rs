//! Self-play: the games of both generations and the samples they give (see the module above).

use prune_search::rng::{mix, Rng, XorShift64Star};
use prune_search::{Algorithm, Engine, Preset, SearchConfig, SearchLimits, TtConfig};

use super::{in_parallel, Sample, TrainOptions};
use crate::board::Board;
use crate::endgame::EndgameSolver;
use crate::ordering::{Ordered, StaticOrdering};
use crate::pattern::{PatternEval, PatternWeights};
use crate::position::{Color, Position};
use crate::square::Square;
use crate::{HandEval, OthelloEval};

/// The `k`-th set bit of `mask`.
fn nth_square(mut mask: u64, k: u64) -> Square {
    for _ in 0..k {
        mask &= mask - 1;
    }
    Square::new(mask.trailing_zeros() as u8).expect("a set bit")
}

/// One self-play game: every position reached before the end, side to move first.
fn play_game(rng: &mut XorShift64Star, options: &TrainOptions) -> Vec<Board> {
    let (low, high) = options.random_plies;
    let random_plies = low + rng.below(u64::from(high.saturating_sub(low)) + 1) as u32;
    let mut board = Board::START;
    let mut seen = Vec::with_capacity(64);
    for ply in 0.. {
        let moves = board.moves();
        if moves == 0 {
            if board.opponent_moves() == 0 {
                break;
            }
            seen.push(board);
            board = board.pass();
            continue;
        }
        seen.push(board);
        let n = u64::from(moves.count_ones());
        let square = if ply < random_plies || rng.chance(options.noise) {
            nth_square(moves, rng.below(n))
        } else {
            // The move leaving the opponent the worst position; ties go to the first.
            crate::squares(moves)
                .min_by_key(|&s| HandEval.evaluate_board(&board.play_unchecked(s)))
                .expect("a move")
        };
        board = board.play_unchecked(square);
    }
    seen
}

/// The training positions of `options.games` self-play games, each distinct position once (in
/// the order first reached), with the outcomes of the games that reached it added up.
/// `progress` is called with the number of games played so far. The first generation plays
/// its games one after the other from one random sequence; the second plays them on
/// `options.threads` threads, each from its own seed (see [`play_games`]).
pub fn self_play(options: &TrainOptions, progress: &(dyn Fn(usize) + Sync)) -> Vec<Sample> {
    if options.play_depth > 0 {
        let games = play_games(options, 0..options.games as u32, progress);
        return merge(games);
    }
    let mut rng = XorShift64Star::new(options.seed);
    let mut games = Vec::with_capacity(options.games);
    for game in 0..options.games {
        let boards = play_game(&mut rng, options);
        games.push(boards.iter().map(|b| Sample::new(b, game as u32)).collect());
        if game % 64 == 63 {
            progress(game + 1);
        }
    }
    progress(options.games);
    merge(games)
}

/// Each distinct position of `games` (one list of samples per game, in game order) once, in
/// the order first reached: the first game's number and exact score, every game's outcome
/// added up.
pub fn merge(games: impl IntoIterator<Item = Vec<Sample>>) -> Vec<Sample> {
    let mut index = std::collections::HashMap::new();
    let mut out: Vec<Sample> = Vec::new();
    for sample in games.into_iter().flatten() {
        match index.entry((sample.player, sample.opponent)) {
            std::collections::hash_map::Entry::Occupied(e) => {
                let first: &mut Sample = &mut out[*e.get()];
                first.outcome_sum += sample.outcome_sum;
                first.outcome_count += sample.outcome_count;
                first.exact = first.exact.or(sample.exact);
            }
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(out.len());
                out.push(sample);
            }
        }
    }
    out
}

/// The full preset's NegaScout, as the second generation plays and the labels search, with a
/// table of `tt_mib` MiB.
pub(super) fn search_config(tt_mib: usize) -> SearchConfig {
    let mut config = Preset::find("full")
        .and_then(|p| p.config(Algorithm::NegaScout))
        .expect("the full preset exists");
    config.transposition_table = Some(TtConfig { size_mib: tt_mib });
    config
}

/// A second-generation player: the search with its evaluation, and the exact solver, kept by
/// a thread from game to game (cleared at each game's start, so that a game depends only on
/// its number).
struct Searcher {
    engine: Engine<Position>,
    eval: Ordered<OthelloEval>,
    limits: SearchLimits,
    solver: EndgameSolver,
}

impl Searcher {
    fn new(options: &TrainOptions) -> Searcher {
        let weights = options
            .player
            .clone()
            .unwrap_or_else(PatternWeights::builtin);
        let eval = OthelloEval::Pattern(PatternEval::new(weights));
        // The solver orders its moves with the same weights (by default it would take the
        // built-in ones, and which optimal move it plays, so the games, would change with them).
        let mut solver = EndgameSolver::new(16);
        solver.set_eval(eval.clone());
        Searcher {
            engine: Engine::new(search_config(8)).expect("the full preset is valid"),
            eval: Ordered {
                eval,
                ordering: StaticOrdering::Mobility,
            },
            limits: SearchLimits {
                depth: Some(options.play_depth),
                nodes: None,
                time: None,
            },
            solver,
        }
    }

    /// Game number `game` of the second generation: its random opening, then the search's
    /// moves, then from `options.exact_empties` empties the solver's (with `options.noise`
    /// random ones), every position from there solved. Its samples: every position before the
    /// end, with the exact score where solved and the game's outcome after the opening.
    fn play(&mut self, game: u32, options: &TrainOptions) -> Vec<Sample> {
        let mut rng = XorShift64Star::new(mix(options.seed, u64::from(game)));
        let (low, high) = options.random_plies;
        let random_plies = low + rng.below(u64::from(high.saturating_sub(low)) + 1) as u32;
        self.engine.clear();
        self.solver.clear();
        let mut board = Board::START;
        let mut black = true;
        let mut ply = 0;
        // Sampled openings are sound play: their positions carry the outcome too.
        let sampled_opening = options.opening_temperature > 0.0;
        // Each sample, whether black is to move, whether it carries the outcome.
        let mut seen: Vec<(Sample, bool, bool)> = Vec::with_capacity(64);
        // The outcome from black's view: the first solved position's score.
        let mut outcome = None;
        loop {
            let moves = board.moves();
            if moves == 0 && board.opponent_moves() == 0 {
                let score = board.final_score();
                outcome.get_or_insert(if black { score } else { -score });
                break;
            }
            let mut sample = Sample::new(&board, game);
            let solved = (board.empty_count() <= options.exact_empties)
                .then(|| self.solver.solve(&board, -64, 64));
            if let Some(r) = &solved {
                sample.exact = Some(r.score as i8);
                outcome.get_or_insert(if black { r.score } else { -r.score });
            }
            seen.push((sample, black, sampled_opening || ply >= random_plies));
            black = !black;
            if moves == 0 {
                board = board.pass();
                continue;
            }
            let square = if ply < random_plies && sampled_opening {
                self.sampled(&board, moves, options, &mut rng)
            } else if ply < random_plies || (solved.is_some() && rng.chance(options.noise)) {
                nth_square(moves, rng.below(u64::from(moves.count_ones())))
            } else {
                let best = match solved {
                    Some(r) => r.best_move,
                    None => {
                        let position = Position::new(board, Color::Black);
                        self.engine
                            .search(&position, &self.eval, &self.limits)
                            .expect("a depth limit is given")
                            .best_move
                    }
                };
                best.and_then(|m| m.square())
                    .expect("a position with moves has a best square")
            };
            board = board.play_unchecked(square);
            ply += 1;
        }
        let outcome = outcome.expect("set at the game's end at the latest");
        seen.into_iter()
            .map(|(mut sample, black, carries_outcome)| {
                if carries_outcome && sample.exact.is_none() {
                    sample.outcome_sum = if black { outcome } else { -outcome };
                    sample.outcome_count = 1;
                }
                sample
            })
            .collect()
    }

    /// One of `moves` (not empty) drawn with probability proportional to `exp(v / T)`, `v`
    /// its value in discs for the side to move of `board` by a search one ply shallower than
    /// the play (at least one ply) and `T` the opening temperature.
    fn sampled(
        &mut self,
        board: &Board,
        moves: u64,
        options: &TrainOptions,
        rng: &mut XorShift64Star,
    ) -> Square {
        let limits = SearchLimits {
            depth: Some(options.play_depth.saturating_sub(1).max(1)),
            ..self.limits
        };
        let values: Vec<(Square, f64)> = crate::squares(moves)
            .map(|square| {
                let child = Position::new(board.play_unchecked(square), Color::Black);
                let result = self
                    .engine
                    .search(&child, &self.eval, &limits)
                    .expect("a depth limit is given");
                (square, -super::in_discs(result.score))
            })
            .collect();
        let temperature = f64::from(options.opening_temperature);
        let best = values.iter().map(|&(_, v)| v).fold(f64::MIN, f64::max);
        let weights: Vec<f64> = values
            .iter()
            .map(|&(_, v)| ((v - best) / temperature).exp())
            .collect();
        let mut draw = rng.unit() * weights.iter().sum::<f64>();
        for (&(square, _), &w) in values.iter().zip(&weights) {
            if draw < w {
                return square;
            }
            draw -= w;
        }
        // Rounding can leave the draw just past the last weight.
        values.last().expect("a move").0
    }
}

/// The second generation's games numbered `games` (see [`TrainOptions::play_depth`]), each
/// from its own seed, on `options.threads` threads: one list of samples per game, in order.
/// `progress` gets the number played so far.
pub fn play_games(
    options: &TrainOptions,
    games: std::ops::Range<u32>,
    progress: &(dyn Fn(usize) + Sync),
) -> Vec<Vec<Sample>> {
    in_parallel(
        options.threads,
        games.start as usize..games.end as usize,
        1,
        || Searcher::new(options),
        |searcher, game| searcher.play(game as u32, options),
        progress,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Second-generation settings with a sampled opening of six moves, small enough for a test.
    fn sampled(temperature: f32) -> TrainOptions {
        TrainOptions {
            seed: 11,
            games: 6,
            random_plies: (6, 6),
            opening_temperature: temperature,
            play_depth: 2,
            exact_empties: 12,
            search_depth: 0,
            outcome_weight: 1.0,
            threads: 2,
            ..TrainOptions::default()
        }
    }

    /// Each move of `board` with its value for the side to move by a fresh one-ply search.
    fn values(board: &Board) -> Vec<(Board, f64)> {
        let mut engine = Engine::new(search_config(8)).unwrap();
        let eval = Ordered {
            eval: OthelloEval::Pattern(PatternEval::new(PatternWeights::builtin())),
            ordering: StaticOrdering::Mobility,
        };
        let limits = SearchLimits {
            depth: Some(1),
            nodes: None,
            time: None,
        };
        crate::squares(board.moves())
            .map(|s| {
                let child = board.play_unchecked(s);
                let r = engine
                    .search(&Position::new(child, Color::Black), &eval, &limits)
                    .unwrap();
                (child, -super::super::in_discs(r.score))
            })
            .collect()
    }

    #[test]
    fn a_cold_opening_plays_the_best_moves_and_a_warm_one_varies_them() {
        let cold = play_games(&sampled(0.01), 0..6, &|_| {});
        for game in &cold {
            for pair in game[..7].windows(2) {
                let options = values(&pair[0].board());
                let best = options.iter().map(|o| o.1).fold(f64::MIN, f64::max);
                let played = options
                    .iter()
                    .find(|o| o.0 == pair[1].board())
                    .expect("the next position is a child");
                assert_eq!(
                    played.1, best,
                    "a cold opening played a move below the best"
                );
            }
            // Sampled openings are sound play: their positions carry the game's outcome.
            assert!(game[..6].iter().all(|s| s.outcome_count == 1));
        }
        let warm = play_games(&sampled(8.0), 0..6, &|_| {});
        let openings: std::collections::HashSet<_> =
            warm.iter().map(|g| (g[6].player, g[6].opponent)).collect();
        assert!(openings.len() > 1, "a warm opening played one line only");
        assert_eq!(
            warm,
            play_games(
                &TrainOptions {
                    threads: 1,
                    ..sampled(8.0)
                },
                0..6,
                &|_| {}
            ),
            "the threads changed the games"
        );
    }
}
