//! `probcut`: fits Multi-ProbCut for Othello's fast midgame search and measures the trade it
//! makes. Three parts:
//!
//! 1. **Fit.** Positions of self-play games are searched to every depth up to the deepest of
//!    `--depths` (full width: one iterative-deepening search gives the value of each depth);
//!    for each band of empties and each deep depth `D`, the least-squares line of `v_D` on
//!    `v_d` (`d` the shallow depth prune pairs with `D`) and the deviation of its error. The
//!    parameters are written as `probcut.txt`, the file prune builds in.
//! 2. **Error and nodes.** The positions (FFO #40-#59 by default, or an OBF file with exact
//!    scores such as FFO #1-#79) are searched to the deepest depth at each selectivity level:
//!    nodes, time, the value's distance from the full-width value and from the exact score,
//!    and the moves that are optimal.
//! 3. **Matches.** Each selective level against full width at equal time per move, from the
//!    match openings with the colours swapped: wins, draws, losses and Elo with a 95% interval.

use std::sync::Arc;
use std::time::Duration;

use prune_othello::midgame::probcut::{self, Fit, ProbCutParams, Selectivity, LEVELS};
use prune_othello::midgame::MidgameSearch;
use prune_othello::{Move, OthelloEval, Position};
use prune_play::arena::{play_match, MatchSummary};
use prune_play::elo::signed;
use prune_play::openings::{pick, DEFAULT_PLIES, MAX_PLIES};
use prune_play::Playable;
use prune_play::{EnginePlayer, PlayerOptions};
use prune_play::{TimeControl, FAST};
use prune_search::rng::{Rng, XorShift64};
use prune_search::{Game, Score, SearchLimits};

use super::{depths, depths_setting, jobs_setting, position_set, positions_setting};
use crate::{run_tasks, Cell, LabError, LabOptions, Legend, Plot, Progress, Report, Series};
use crate::{Table, XAxis};

/// The defaults, in words.
pub(super) const DEFAULTS: &str =
    "fit on 200 self-play games (--fit-games), deep depths 3-12; FFO \
                                   #40-#59 at depth 12; 200 games per level at 100 ms per move";

/// Self-play games the fit's positions come from.
const FIT_GAMES: usize = 200;

/// The fit's positions: every third ply of a game between these empties.
const FIT_EMPTIES: std::ops::RangeInclusive<u32> = 12..=54;

/// Random plies at the start of a self-play game.
const RANDOM_PLIES: u32 = 8;

/// The chance (in percent) that a later self-play move is random rather than the evaluation's
/// choice.
const NOISE_PERCENT: u64 = 10;

/// The seed of the self-play games.
const SEED: u64 = 0x9c0f_11e5_0bad_cafe;

/// Fits with fewer positions are not kept.
const MIN_SAMPLES: usize = 30;

/// Match games per level by default.
const DEFAULT_GAMES: usize = 200;

/// The matches' time per move by default, in milliseconds.
const DEFAULT_MS: u64 = 100;

/// The table of each search, in MiB.
const TABLE_MIB: usize = 16;

/// Positions from `games` self-play games: `RANDOM_PLIES` random moves, then the move with the
/// best evaluation after it (one ply) or, `NOISE_PERCENT` of the time, a random one; every
/// third position with `FIT_EMPTIES` empties. Deterministic.
fn self_play_positions(games: usize) -> Vec<Position> {
    let eval = OthelloEval::default();
    let mut out = Vec::new();
    for g in 0..games {
        let mut rng = XorShift64::new(SEED ^ (g as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let mut position = Position::START;
        let mut ply = 0u32;
        while !position.is_game_over() {
            let moves = position.legal_moves();
            let random = ply < RANDOM_PLIES || rng.below(100) < NOISE_PERCENT;
            let mv = if random {
                moves[rng.below(moves.len() as u64) as usize]
            } else {
                *moves
                    .iter()
                    .max_by_key(|&&m| -eval.evaluate_board(position.play_unchecked(m).board()))
                    .expect("a position that is not over has a move")
            };
            position = position.play_unchecked(mv);
            ply += 1;
            if FIT_EMPTIES.contains(&position.empty_count())
                && ply % 3 == g as u32 % 3
                && !position.is_game_over()
            {
                out.push(position);
            }
        }
    }
    out
}

/// The value of each depth 1..=`max` of `position` by a full-width search (`None` for a depth
/// whose value is a proven result).
fn values_by_depth(position: &Position, max: u32) -> Vec<Option<i32>> {
    let mut search = MidgameSearch::new(TABLE_MIB).expect("a small table");
    let r = search.search(position, &SearchLimits::depth(max));
    let mut values = vec![None; max as usize + 1];
    for it in &r.iterations {
        if !it.score.is_decisive() {
            values[it.depth as usize] = Some(it.score.raw());
        }
    }
    values
}

/// The least-squares line of `y` on `x` and the deviation of its error.
fn fit_line(pairs: &[(f64, f64)]) -> Option<(f64, f64, f64)> {
    let n = pairs.len() as f64;
    if pairs.len() < MIN_SAMPLES {
        return None;
    }
    let (mx, my) = (
        pairs.iter().map(|p| p.0).sum::<f64>() / n,
        pairs.iter().map(|p| p.1).sum::<f64>() / n,
    );
    let sxx: f64 = pairs.iter().map(|p| (p.0 - mx).powi(2)).sum();
    let sxy: f64 = pairs.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    if sxx <= 0.0 {
        return None;
    }
    let a = sxy / sxx;
    let b = my - a * mx;
    let sse: f64 = pairs.iter().map(|p| (p.1 - a * p.0 - b).powi(2)).sum();
    let sigma = (sse / (n - 2.0)).sqrt();
    (a > 0.0 && sigma > 0.0).then_some((a, b, sigma))
}

/// One position searched at one level.
struct Searched {
    score: Score,
    best: Option<Move>,
    nodes: u64,
    cuts: u64,
    time: Duration,
}

/// The fast search as a player at `level` with the parameters `params`.
fn player(level: Selectivity, params: &Arc<ProbCutParams>) -> EnginePlayer {
    let mut options = PlayerOptions::preset(FAST, prune_search::Algorithm::NegaScout)
        .and_then(|o| o.with_selectivity(level))
        .expect("the fast search takes every level");
    options.probcut = Some(params.clone());
    EnginePlayer::new(options).expect("a player of the default sizes")
}

pub(super) fn run(options: &LabOptions, progress: &dyn Progress) -> Result<Report, LabError> {
    let fit_games = options.fit_games.unwrap_or(FIT_GAMES);
    if fit_games == 0 {
        return Err(LabError::Usage("--fit-games must be at least 1".into()));
    }
    let depths = depths(options, 3..=12, probcut::MAX_FITTED_DEPTH)?;
    let deep = *depths.last().expect("a depth");
    if depths[0] < probcut::MIN_DEPTH {
        return Err(LabError::Usage(format!(
            "--depths: ProbCut is tried from depth {} up",
            probcut::MIN_DEPTH
        )));
    }
    let games = options.games.unwrap_or(DEFAULT_GAMES);
    let ms = options.time_per_move.unwrap_or(DEFAULT_MS);
    if ms == 0 {
        return Err(LabError::Usage(
            "--time-per-move must be at least 1 ms".into(),
        ));
    }
    let jobs = options.jobs();

    // 1. The fit.
    let samples = self_play_positions(fit_games);
    progress.start("fit: searches", samples.len() as u64);
    let values = run_tasks(
        &samples,
        jobs,
        progress,
        |p| format!("{} empties", p.empty_count()),
        |p| values_by_depth(p, deep),
    );
    let provenance = format!(
        "fitted by `prune lab probcut` on {} positions ({}-{} empties) of {fit_games} \
         self-play games, full-width fast search with the built-in weights, deep depths {}-{deep}",
        samples.len(),
        FIT_EMPTIES.start(),
        FIT_EMPTIES.end(),
        depths[0]
    );
    let mut params = ProbCutParams::new(&provenance);
    let mut fits = Table::new(
        "probcut-fits",
        "The fitted lines v_D = a * v_d + b and the deviation of their error (hundredths of a \
         disc), per band of empties",
        &["empties", "D", "d", "a", "b", "sigma (discs)", "positions"],
    );
    for band in 0..probcut::BANDS {
        for &d_deep in &depths {
            let shallow = probcut::shallow_depth(d_deep);
            let pairs: Vec<(f64, f64)> = samples
                .iter()
                .zip(&values)
                .filter(|(p, _)| probcut::band_of(p.empty_count()) == band)
                .filter_map(|(_, v)| {
                    Some((
                        f64::from(v[shallow as usize]?),
                        f64::from(v[d_deep as usize]?),
                    ))
                })
                .collect();
            if let Some((a, b, sigma)) = fit_line(&pairs) {
                let fit = Fit {
                    depth: d_deep,
                    shallow,
                    a,
                    b,
                    sigma,
                    samples: pairs.len(),
                };
                params.set(band, fit);
                let from = band as u32 * probcut::BAND;
                let to = if band == probcut::BANDS - 1 {
                    60
                } else {
                    from + probcut::BAND - 1
                };
                fits.push(vec![
                    Cell::text(format!("{from}-{to}")),
                    Cell::Count(u64::from(d_deep)),
                    Cell::Count(u64::from(shallow)),
                    Cell::real(a, 3),
                    Cell::real(b, 1),
                    Cell::real(sigma / 100.0, 2),
                    Cell::Count(pairs.len() as u64),
                ]);
            }
        }
    }
    let params = Arc::new(params);

    // 2. Error and nodes per level.
    let set = position_set(options);
    let tasks: Vec<(usize, usize)> = (0..LEVELS.len())
        .flat_map(|l| (0..set.positions.len()).map(move |i| (l, i)))
        .collect();
    progress.start("levels: searches", tasks.len() as u64);
    let searched = run_tasks(
        &tasks,
        jobs,
        progress,
        |&(l, i)| format!("{} at {}", set.positions[i].name, LEVELS[l]),
        |&(l, i)| {
            let mut search = MidgameSearch::new(TABLE_MIB).expect("a small table");
            search.set_probcut_params(params.clone());
            search.set_selectivity(LEVELS[l]);
            let r = search.search(&set.positions[i].position, &SearchLimits::depth(deep));
            Searched {
                score: r.score,
                best: r.best_move,
                nodes: r.stats.total.nodes,
                cuts: r.stats.total.forward_cuts,
                time: r.stats.time,
            }
        },
    );
    let at = |l: usize, i: usize| &searched[l * set.positions.len() + i];
    let discs = |s: Score| match s.margin() {
        Some(m) => f64::from(m),
        None => f64::from(s.raw()) / 100.0,
    };
    let exact: Vec<Option<i32>> = set
        .positions
        .iter()
        .map(|p| p.scores.iter().map(|&(_, s)| s).max())
        .collect();
    let with_exact = exact.iter().flatten().count();
    let mut levels = Table::new(
        "probcut-levels",
        &format!("Each selectivity level at depth {deep} on {}", set.source),
        &[
            "selectivity",
            "nodes",
            "nodes (% of full width)",
            "ProbCut cuts",
            "time (s)",
            "mean |v - full width| (discs)",
            "same move as full width",
            "MAE against exact (discs)",
            "optimal moves",
        ],
    );
    let full_nodes: u64 = (0..set.positions.len()).map(|i| at(0, i).nodes).sum();
    let mut error_points = Vec::new();
    for (l, level) in LEVELS.iter().enumerate() {
        let runs: Vec<&Searched> = (0..set.positions.len()).map(|i| at(l, i)).collect();
        let nodes: u64 = runs.iter().map(|r| r.nodes).sum();
        let cuts: u64 = runs.iter().map(|r| r.cuts).sum();
        let time: f64 = runs.iter().map(|r| r.time.as_secs_f64()).sum();
        let n = runs.len() as f64;
        let drift = runs
            .iter()
            .enumerate()
            .map(|(i, r)| (discs(r.score) - discs(at(0, i).score)).abs())
            .sum::<f64>()
            / n;
        let same = (0..runs.len())
            .filter(|&i| runs[i].best == at(0, i).best)
            .count();
        let (mut abs, mut optimal) = (0.0, 0);
        for (i, r) in runs.iter().enumerate() {
            if let Some(best) = exact[i] {
                abs += (discs(r.score) - f64::from(best)).abs();
                let listed = &set.positions[i].scores;
                optimal += usize::from(listed.iter().any(|&(m, s)| s == best && Some(m) == r.best));
            }
        }
        let share = 100.0 * nodes as f64 / full_nodes.max(1) as f64;
        error_points.push((share, drift));
        levels.push(vec![
            Cell::text(level.to_string()),
            Cell::Count(nodes),
            Cell::real(share, 1),
            Cell::Count(cuts),
            Cell::real(time, 3),
            Cell::real(drift, 2),
            Cell::text(format!("{same} of {}", runs.len())),
            if with_exact > 0 {
                Cell::real(abs / with_exact as f64, 2)
            } else {
                Cell::Empty
            },
            if with_exact > 0 {
                Cell::text(format!("{optimal} of {with_exact}"))
            } else {
                Cell::Empty
            },
        ]);
    }

    // 3. Matches against full width.
    let mut matches = Table::new(
        "probcut-matches",
        &format!(
            "Each selective level (A) against full width (B), {ms} ms per move, the fast search \
             on one thread each"
        ),
        &[
            "selectivity",
            "games",
            "wins",
            "draws",
            "losses",
            "score",
            "Elo",
            "95% interval",
            "nodes per move A",
            "nodes per move B",
        ],
    );
    let mut elo_points = Vec::new();
    let mut findings = Vec::new();
    if games > 0 {
        let pairs = games.div_ceil(2);
        // The shortest openings of which there are enough for every pair to have its own.
        let plies = (DEFAULT_PLIES..=MAX_PLIES)
            .find(|&plies| prune_othello::openings::all_openings(plies).len() >= pairs)
            .unwrap_or(MAX_PLIES);
        let openings = pick(&Position::openings(plies), pairs, None);
        let tasks: Vec<(usize, usize)> = (1..LEVELS.len())
            .flat_map(|l| (0..pairs).map(move |p| (l, p)))
            .collect();
        progress.start("matches: game pairs", tasks.len() as u64);
        let played = run_tasks(
            &tasks,
            jobs,
            progress,
            |&(l, p)| format!("{} pair {}", LEVELS[l], p + 1),
            |&(l, p)| {
                let mut a = player(LEVELS[l], &params);
                let mut b = player(Selectivity::Off, &params);
                let n = if 2 * p + 1 < games { 2 } else { 1 };
                let control = TimeControl::PerMove(Duration::from_millis(ms));
                play_match(&mut a, &mut b, &openings[p..=p], n, control, |_| {})
            },
        );
        for (l, level) in LEVELS.iter().enumerate().skip(1) {
            let games_of_level: Vec<_> = tasks
                .iter()
                .zip(&played)
                .filter(|((tl, _), _)| *tl == l)
                .flat_map(|(_, g)| g.iter().cloned())
                .collect();
            let s = MatchSummary::of(&games_of_level);
            let per_move = |nodes: u64, moves: u32| {
                if moves == 0 {
                    0.0
                } else {
                    nodes as f64 / f64::from(moves)
                }
            };
            let elo = s.elo.and_then(|e| e.elo);
            let interval = s.elo.map_or(String::new(), |e| e.interval_text());
            if let Some(e) = elo {
                elo_points.push((l as f64, e));
            }
            matches.push(vec![
                Cell::text(level.to_string()),
                Cell::Count(u64::from(s.tally.games())),
                Cell::Count(u64::from(s.tally.wins)),
                Cell::Count(u64::from(s.tally.draws)),
                Cell::Count(u64::from(s.tally.losses)),
                Cell::real(100.0 * s.elo.map_or(0.0, |e| e.score), 1),
                elo.map_or(Cell::Empty, |e| Cell::text(signed(e))),
                Cell::text(interval),
                Cell::real(per_move(s.a_stats.nodes, s.a_stats.moves), 0),
                Cell::real(per_move(s.b_stats.nodes, s.b_stats.moves), 0),
            ]);
            findings.push(format!(
                "Selectivity {} against full width at {ms} ms per move: {}-{}-{} (W-D-L) in {} \
                 games, Elo {} ({}).",
                level,
                s.tally.wins,
                s.tally.draws,
                s.tally.losses,
                s.tally.games(),
                elo.map_or("unbounded".to_string(), signed),
                s.elo
                    .map_or(String::new(), |e| format!("95% {}", e.interval_text()))
            ));
        }
    }
    for (l, &(share, drift)) in error_points.iter().enumerate().skip(1) {
        findings.insert(
            l - 1,
            format!(
                "Selectivity {} at depth {deep}: {share:.1}% of the full-width nodes, the value \
                 {drift:.2} discs from the full-width value on average.",
                LEVELS[l]
            ),
        );
    }
    let names: Vec<String> = LEVELS.iter().map(|l| l.to_string()).collect();
    let mut plots = vec![Plot {
        name: "probcut-nodes".into(),
        title: format!("Nodes (% of full width) and error at depth {deep}, per selectivity"),
        x_label: "selectivity (margin in deviations)".into(),
        y_label: "nodes, % of the full-width search".into(),
        x_axis: XAxis::Categories(names.clone()),
        log_y: false,
        series: vec![Series::new(
            "nodes",
            error_points
                .iter()
                .enumerate()
                .map(|(l, &(share, _))| (l as f64, share))
                .collect(),
        )],
        legend: Legend::MiddleRight,
    }];
    if !elo_points.is_empty() {
        plots.push(Plot {
            name: "probcut-elo".into(),
            title: format!("Elo against full width at {ms} ms per move"),
            x_label: "selectivity (margin in deviations)".into(),
            y_label: "Elo (selective minus full width)".into(),
            x_axis: XAxis::Categories(names),
            log_y: false,
            series: vec![Series::new("Elo", elo_points)],
            legend: Legend::MiddleRight,
        });
    }
    Ok(Report {
        experiment: "probcut".into(),
        files: vec![("probcut.txt".into(), params.to_string())],
        title: "Multi-ProbCut: fitted, then measured".into(),
        reproduces: "Buro's ProbCut and Multi-ProbCut (Logistello): a shallow search predicts \
                     whether a deep one fails outside the window, from a linear regression of \
                     deep on shallow values fitted on many positions; the node is cut when the \
                     prediction holds with the chosen confidence. The fit is written as \
                     probcut.txt (prune's built-in copy is crates/othello/data/probcut.txt)."
            .into(),
        problems: Vec::new(),
        settings: vec![
            (
                "fit".into(),
                format!(
                    "{} positions of {fit_games} self-play games ({} random plies, then the \
                     evaluation's best move or {NOISE_PERCENT}% random), {}-{} empties",
                    samples.len(),
                    RANDOM_PLIES,
                    FIT_EMPTIES.start(),
                    FIT_EMPTIES.end()
                ),
            ),
            depths_setting(&depths),
            positions_setting(&set),
            (
                "matches".into(),
                format!(
                    "{games} games per level, {ms} ms per move, each opening (the distinct \
                     positions a few plies from the start, as many plies as give every pair \
                     of games its own) twice with the colours swapped"
                ),
            ),
            jobs_setting(options),
        ],
        findings,
        tables: vec![fits, levels, matches],
        plots,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_fitted_exactly_and_noise_gives_its_deviation() {
        let pairs: Vec<(f64, f64)> = (0..100)
            .map(|i| (f64::from(i), 2.0 * f64::from(i) + 3.0))
            .collect();
        assert!(fit_line(&pairs).is_none(), "no error: sigma 0 is refused");
        let noisy: Vec<(f64, f64)> = (0..100)
            .map(|i| {
                (
                    f64::from(i),
                    2.0 * f64::from(i) + 3.0 + if i % 2 == 0 { 1.0 } else { -1.0 },
                )
            })
            .collect();
        let (a, b, sigma) = fit_line(&noisy).unwrap();
        assert!((a - 2.0).abs() < 0.01 && (b - 3.0).abs() < 0.5, "{a} {b}");
        assert!((sigma - 1.0).abs() < 0.05, "{sigma}");
        assert!(fit_line(&noisy[..10]).is_none());
    }

    #[test]
    fn self_play_positions_are_deterministic_and_in_range() {
        let a = self_play_positions(3);
        assert_eq!(a, self_play_positions(3));
        assert!(a.len() > 20, "{}", a.len());
        assert!(a.iter().all(|p| FIT_EMPTIES.contains(&p.empty_count())));
    }

    #[test]
    fn a_small_run_fits_and_measures_every_level() {
        let options = LabOptions {
            depths: Some(3..=5),
            games: Some(2),
            time_per_move: Some(5),
            positions: Some(crate::load_positions("ffo-40-59").unwrap()),
            jobs: 2,
            fit_games: Some(12),
            ..LabOptions::default()
        };
        let report = run(&options, &crate::NoProgress).unwrap();
        let levels = report.table("probcut-levels").unwrap();
        assert_eq!(levels.rows.len(), LEVELS.len());
        assert!(report.table("probcut-fits").unwrap().rows.len() >= 3);
        assert_eq!(
            report.table("probcut-matches").unwrap().rows.len(),
            LEVELS.len() - 1
        );
        let params: ProbCutParams = report.files[0].1.parse().unwrap();
        assert!(params.fits().count() >= 3);
    }
}
