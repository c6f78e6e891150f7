//! Games and matches between two [`Agent`]s, for every [`Playable`] game.
//!
//! A game starts from an opening (its moves are part of the record) and alternates the agents,
//! each with its own [`Clock`]; a side whose only move is a pass passes without being asked.
//! An agent that fails ([`AgentError`](crate::AgentError)) or answers an illegal move loses
//! the game by forfeit (by [`Playable::FORFEIT_MARGIN`], Othello's 64–0), and the reason is
//! kept. Running over a clock does not lose the game: the overruns are counted. A game that
//! reaches [`Playable::MAX_PLIES`] is a draw.
//!
//! A match of N games plays each opening twice with the sides swapped: games 1 and 2 start
//! from the first opening, the first agent ("A") moving first in game 1 and second in game 2,
//! and so on. With N odd the last opening is played once, A first. [`play_match_in_parallel`]
//! plays the pairs of games on several threads, each with its own two agents.

use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use prune_registry::RegisteredGame;

use crate::elo::EloEstimate;
use crate::playable::{Ending, Playable};
use crate::{Agent, Clock, GameRecord, TimeControl};

/// The disc margin of an Othello game won by forfeit.
pub const FORFEIT_MARGIN: i32 = 64;

/// What one side spent in a game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideStats {
    /// Moves the agent was asked for (forced passes and opening moves are not counted).
    pub moves: u32,
    /// Wall time spent choosing them.
    pub time: Duration,
    /// Positions searched, as the agent reported them.
    pub nodes: u64,
    /// Moves that took longer than the clock had left (clock time controls only).
    pub overruns: u32,
}

impl SideStats {
    /// Adds another game's figures.
    pub fn add(&mut self, other: &SideStats) {
        self.moves += other.moves;
        self.time += other.time;
        self.nodes += other.nodes;
        self.overruns += other.overruns;
    }
}

/// A game lost because a side failed to give a legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Forfeit {
    /// Whether the side that failed moves first.
    pub first: bool,
    /// Why: the agent's error, or the illegal move.
    pub reason: String,
}

/// One game played to its end (or to a forfeit).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedGame<G: RegisteredGame> {
    /// The moves, the opening's included.
    pub record: GameRecord<G>,
    /// How it ended: the result from the first player's side, in words too.
    pub ending: Ending,
    /// Set when the game ended by a forfeit.
    pub forfeit: Option<Forfeit>,
    /// The first player's figures.
    pub first: SideStats,
    /// The second player's figures.
    pub second: SideStats,
}

impl<G: RegisteredGame> PlayedGame<G> {
    /// The result from the first player's side (see [`Ending::first_margin`]).
    pub fn first_margin(&self) -> i32 {
        self.ending.first_margin
    }
}

/// Plays one game from `opening`, `first` against `second`, each side with a fresh clock of
/// `control`. Never panics on what the agents do: a failing agent forfeits.
pub fn play_game<G: Playable>(
    first: &mut dyn Agent<G>,
    second: &mut dyn Agent<G>,
    opening: &GameRecord<G>,
    control: TimeControl,
) -> PlayedGame<G> {
    let mut record = opening.clone();
    first.new_game();
    second.new_game();
    let mut clocks = [Clock::new(control), Clock::new(control)];
    let mut stats = [SideStats::default(), SideStats::default()];
    let mut forfeit = None;
    let side_names = prune_registry::info(G::NAME).map_or(["first", "second"], |i| i.sides);
    let ending = loop {
        if let Some(ending) = G::ending(&record) {
            break ending;
        }
        if G::MAX_PLIES.is_some_and(|max| record.moves().len() >= max) {
            break Ending {
                first_margin: 0,
                how: "move limit".into(),
            };
        }
        let current = record.current();
        let side = usize::from(current.side_to_move() != prune_registry::Side::First);
        let legal = current.legal_moves();
        if let [only] = legal[..] {
            if current.is_pass(only) {
                record.play(only).expect("the pass is the only legal move");
                continue;
            }
        }
        let budget = clocks[side].budget(current.plies_left());
        let agent: &mut dyn Agent<G> = if side == 0 { first } else { second };
        let start = Instant::now();
        let answer = agent.choose(&record, &budget);
        let elapsed = start.elapsed();
        clocks[side].spend(elapsed);
        stats[side].moves += 1;
        stats[side].time += elapsed;
        let failure = match answer {
            Ok(thought) => {
                stats[side].nodes += thought.nodes;
                match record.play(thought.mv) {
                    Ok(()) => None,
                    Err(e) => Some(format!("illegal move: {e}")),
                }
            }
            Err(e) => Some(e.to_string()),
        };
        if let Some(reason) = failure {
            forfeit = Some(Forfeit {
                first: side == 0,
                reason: format!("{} ({}): {reason}", agent.name(), side_names[side]),
            });
            let margin = if side == 0 {
                -G::FORFEIT_MARGIN
            } else {
                G::FORFEIT_MARGIN
            };
            break Ending {
                first_margin: margin,
                how: format!("forfeit by {}", side_names[side]),
            };
        }
    };
    for (s, clock) in stats.iter_mut().zip(&clocks) {
        s.overruns = clock.overruns();
    }
    PlayedGame {
        record,
        ending,
        forfeit,
        first: stats[0],
        second: stats[1],
    }
}

/// One of the two players of a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The first player (whose results the match reports).
    A,
    /// The second player.
    B,
}

/// A game of a match, from the first player's side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchGame<G: RegisteredGame> {
    /// Its number in the match (1 = the first).
    pub number: usize,
    /// The index of its opening in the match's openings.
    pub opening: usize,
    /// The opening's moves.
    pub opening_line: String,
    /// Whether A moved first.
    pub a_first: bool,
    /// The game.
    pub game: PlayedGame<G>,
}

impl<G: Playable> MatchGame<G> {
    /// A's result: its margin (see [`Ending::first_margin`]).
    pub fn a_margin(&self) -> i32 {
        if self.a_first {
            self.game.first_margin()
        } else {
            -self.game.first_margin()
        }
    }

    /// A's score: 1 for a win, ½ for a draw, 0 for a loss.
    pub fn a_score(&self) -> f64 {
        match self.a_margin().signum() {
            1 => 1.0,
            0 => 0.5,
            _ => 0.0,
        }
    }

    /// The side that forfeited, if one did.
    pub fn forfeited_by(&self) -> Option<Side> {
        let f = self.game.forfeit.as_ref()?;
        Some(if f.first == self.a_first {
            Side::A
        } else {
            Side::B
        })
    }

    /// A's figures in this game.
    pub fn a_stats(&self) -> &SideStats {
        if self.a_first {
            &self.game.first
        } else {
            &self.game.second
        }
    }

    /// B's figures in this game.
    pub fn b_stats(&self) -> &SideStats {
        if self.a_first {
            &self.game.second
        } else {
            &self.game.first
        }
    }

    /// The players' names in the order they moved.
    pub fn players<'a>(&self, a_name: &'a str, b_name: &'a str) -> [&'a str; 2] {
        if self.a_first {
            [a_name, b_name]
        } else {
            [b_name, a_name]
        }
    }

    /// The game as the game's record ([`Playable::record_text`]: GGF for Othello), with the
    /// players' names and the result filled in.
    pub fn record_text(&self, a_name: &str, b_name: &str) -> String {
        G::record_text(
            &self.game.record,
            self.players(a_name, b_name),
            &self.game.ending,
        )
    }
}

/// Wins, draws and losses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

impl Tally {
    /// Counts a result by its margin.
    pub fn add(&mut self, margin: i32) {
        match margin.signum() {
            1 => self.wins += 1,
            0 => self.draws += 1,
            _ => self.losses += 1,
        }
    }

    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }
}

/// A match's results from A's side.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchSummary {
    /// A's results.
    pub tally: Tally,
    /// A's results when it moved first.
    pub as_first: Tally,
    /// A's results when it moved second.
    pub as_second: Tally,
    /// The sum of A's margins.
    pub margin_total: i64,
    /// A's mean margin per game (0 with no games).
    pub margin_mean: f64,
    /// The score fraction and the Elo difference A − B (`None` with no games).
    pub elo: Option<EloEstimate>,
    /// Games A lost by forfeit.
    pub a_forfeits: u32,
    /// Games B lost by forfeit.
    pub b_forfeits: u32,
    /// A's figures over all games.
    pub a_stats: SideStats,
    /// B's figures over all games.
    pub b_stats: SideStats,
    /// Whether some opening was played in more than one pair (the set was too small).
    pub openings_repeated: bool,
}

impl MatchSummary {
    /// The summary of `games`.
    pub fn of<G: Playable>(games: &[MatchGame<G>]) -> MatchSummary {
        let mut s = MatchSummary {
            tally: Tally::default(),
            as_first: Tally::default(),
            as_second: Tally::default(),
            margin_total: 0,
            margin_mean: 0.0,
            elo: None,
            a_forfeits: 0,
            b_forfeits: 0,
            a_stats: SideStats::default(),
            b_stats: SideStats::default(),
            openings_repeated: false,
        };
        let mut lines = std::collections::HashMap::new();
        for g in games {
            let margin = g.a_margin();
            s.tally.add(margin);
            if g.a_first {
                s.as_first.add(margin);
            } else {
                s.as_second.add(margin);
            }
            s.margin_total += i64::from(margin);
            match g.forfeited_by() {
                Some(Side::A) => s.a_forfeits += 1,
                Some(Side::B) => s.b_forfeits += 1,
                None => {}
            }
            s.a_stats.add(g.a_stats());
            s.b_stats.add(g.b_stats());
            let pair = (g.number - 1) / 2;
            if *lines.entry(g.opening_line.clone()).or_insert(pair) != pair {
                s.openings_repeated = true;
            }
        }
        if !games.is_empty() {
            s.margin_mean = s.margin_total as f64 / games.len() as f64;
        }
        s.elo = EloEstimate::from_results(s.tally.wins, s.tally.draws, s.tally.losses);
        s
    }
}

/// The opening of game `i` (from 0) of a match: `openings[i / 2]`, the list used again from
/// its start if it is too short, the game's start if it is empty; with its index.
fn opening_of<G: Playable>(openings: &[GameRecord<G>], i: usize) -> (usize, GameRecord<G>) {
    if openings.is_empty() {
        (0, GameRecord::new(G::start()))
    } else {
        let index = (i / 2) % openings.len();
        (index, openings[index].clone())
    }
}

/// Plays game `i` of a match (from 0) between `a` and `b`, A first when `i` is even.
fn match_game<G: Playable>(
    a: &mut dyn Agent<G>,
    b: &mut dyn Agent<G>,
    openings: &[GameRecord<G>],
    i: usize,
    control: TimeControl,
) -> MatchGame<G> {
    let (index, opening) = opening_of(openings, i);
    let a_first = i.is_multiple_of(2);
    let game = if a_first {
        play_game(a, b, &opening, control)
    } else {
        play_game(b, a, &opening, control)
    };
    MatchGame {
        number: i + 1,
        opening: index,
        opening_line: opening.line(),
        a_first,
        game,
    }
}

/// Plays a match of `games` games between `a` and `b` with `control`: game `i` (from 0) starts
/// from `openings[i / 2]` (the list is used again from its start if it is too short; the
/// game's start if it is empty), A first when `i` is even. `on_game` is called after each
/// game (for progress).
pub fn play_match<G: Playable>(
    a: &mut dyn Agent<G>,
    b: &mut dyn Agent<G>,
    openings: &[GameRecord<G>],
    games: usize,
    control: TimeControl,
    mut on_game: impl FnMut(&MatchGame<G>),
) -> Vec<MatchGame<G>> {
    let mut results = Vec::with_capacity(games);
    for i in 0..games {
        let played = match_game(a, b, openings, i, control);
        on_game(&played);
        results.push(played);
    }
    results
}

/// The two agents of one job of [`play_match_in_parallel`], or why they cannot be made.
pub type AgentPair<G, E> = Result<(Box<dyn Agent<G>>, Box<dyn Agent<G>>), E>;

/// Plays the games of a match as [`play_match`] does, `jobs` threads at a time: each pair of
/// games (one opening, both sides) is played by one job's own two agents from `make`; the
/// games come back in match order. An error of `make` is the match's error.
pub fn play_match_in_parallel<G: Playable, E: Send>(
    jobs: usize,
    openings: &[GameRecord<G>],
    games: usize,
    control: TimeControl,
    make: impl Fn() -> AgentPair<G, E> + Sync,
    on_game: &(impl Fn(&MatchGame<G>) + Sync),
) -> Result<Vec<MatchGame<G>>, E> {
    let pairs = games.div_ceil(2);
    let next = AtomicUsize::new(0);
    let played: Mutex<Vec<MatchGame<G>>> = Mutex::new(Vec::with_capacity(games));
    let failed: Mutex<Option<E>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, pairs.max(1)) {
            scope.spawn(|| {
                let (mut a, mut b) = match make() {
                    Ok(agents) => agents,
                    Err(e) => {
                        let mut failed = failed.lock().unwrap_or_else(|p| p.into_inner());
                        failed.get_or_insert(e);
                        return;
                    }
                };
                loop {
                    let p = next.fetch_add(1, Relaxed);
                    if p >= pairs {
                        break;
                    }
                    for i in 2 * p..(2 * p + 2).min(games) {
                        let g = match_game(a.as_mut(), b.as_mut(), openings, i, control);
                        on_game(&g);
                        played.lock().unwrap_or_else(|p| p.into_inner()).push(g);
                    }
                }
            });
        }
    });
    if let Some(e) = failed.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(e);
    }
    let mut results = played.into_inner().unwrap_or_else(|p| p.into_inner());
    results.sort_by_key(|g| g.number);
    Ok(results)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openings::pick;
    use crate::Playable;
    use crate::{AgentError, Budget, EnginePlayer, PlayerOptions, Thought};
    use prune_othello::{Move, Position};
    use prune_search::Algorithm;
    use prune_search::Game;

    fn engine(preset: &str) -> EnginePlayer {
        EnginePlayer::new(PlayerOptions::preset(preset, Algorithm::NegaScout).unwrap()).unwrap()
    }

    /// Plays the first legal move, or a fixed (possibly illegal) move from move `from` on.
    struct Scripted {
        bad: Option<(usize, Move)>,
        fail: Option<usize>,
        asked: usize,
        games: usize,
    }

    impl Scripted {
        fn new() -> Scripted {
            Scripted {
                bad: None,
                fail: None,
                asked: 0,
                games: 0,
            }
        }
    }

    impl Agent for Scripted {
        fn name(&self) -> String {
            "scripted".into()
        }

        fn new_game(&mut self) {
            self.games += 1;
        }

        fn choose(&mut self, game: &GameRecord, _: &Budget) -> Result<Thought, AgentError> {
            self.asked += 1;
            assert!(!game.is_over());
            if self.fail.is_some_and(|n| self.asked >= n) {
                return Err(AgentError("the engine went away".into()));
            }
            let mv = match self.bad {
                Some((n, mv)) if self.asked >= n => mv,
                _ => game.current().legal_moves()[0],
            };
            Ok(Thought {
                mv,
                eval: 0.0,
                exact: false,
                depth: 0,
                pv: vec![mv],
                nodes: 1,
                time: Duration::ZERO,
            })
        }
    }

    #[test]
    fn engines_play_a_legal_game_to_the_end() {
        let opening = &<Position as Playable>::openings(4)[5];
        let (mut a, mut b) = (engine("plain"), engine("full"));
        let g = play_game(&mut a, &mut b, opening, TimeControl::Depth(2));
        assert!(g.forfeit.is_none());
        assert!(g.record.is_over());
        assert_eq!(&g.record.moves()[..4], opening.moves());
        // Every move was legal: replaying them from the start reaches the same end.
        let mut replay = GameRecord::default();
        for &mv in g.record.moves() {
            replay.play(mv).unwrap();
        }
        assert_eq!(replay.current(), g.record.current());
        assert_eq!(Some(g.first_margin()), g.record.black_margin());
        let (black, white) = g.record.disc_counts();
        assert_eq!(
            g.first_margin().signum(),
            (black as i32 - white as i32).signum()
        );
        // Each side was asked for its moves (no passes or opening moves among them).
        let passes = g.record.moves().iter().filter(|m| m.is_pass()).count() as u32;
        assert_eq!(
            g.first.moves + g.second.moves + passes + 4,
            g.record.moves().len() as u32
        );
        assert!(g.first.nodes > 0 && g.second.nodes > 0);
    }

    #[test]
    fn an_illegal_move_or_an_error_forfeits() {
        let opening = &<Position as Playable>::openings(2)[0];
        let mut good = Scripted::new();
        let mut bad = Scripted::new();
        bad.bad = Some((3, "a1".parse().unwrap()));
        let g = play_game(&mut good, &mut bad, opening, TimeControl::Depth(1));
        let f = g.forfeit.clone().expect("a forfeit");
        assert!(!f.first);
        assert!(
            f.reason.contains("illegal move") && f.reason.contains("a1"),
            "{f:?}"
        );
        assert!(f.reason.starts_with("scripted (white)"), "{f:?}");
        assert_eq!(g.first_margin(), FORFEIT_MARGIN);
        assert!(!g.record.is_over());
        // The illegal move is not in the record: 2 opening moves, 3 for black, 2 for white.
        assert_eq!(g.record.moves().len(), 7);
        assert_eq!((g.first.moves, g.second.moves), (3, 3));

        let mut failing = Scripted::new();
        failing.fail = Some(1);
        let g = play_game(&mut failing, &mut good, opening, TimeControl::Depth(1));
        let f = g.forfeit.clone().expect("a forfeit");
        assert!(f.first);
        assert!(f.reason.contains("went away"), "{f:?}");
        assert_eq!(g.first_margin(), -FORFEIT_MARGIN);
    }

    #[test]
    fn a_match_swaps_colours_on_each_opening() {
        let openings = pick(&<Position as Playable>::openings(4), 3, None);
        let (mut a, mut b) = (engine("plain"), engine("killers"));
        let mut seen = 0;
        let games = play_match(&mut a, &mut b, &openings, 5, TimeControl::Depth(1), |_| {
            seen += 1
        });
        assert_eq!((games.len(), seen), (5, 5));
        for (i, g) in games.iter().enumerate() {
            assert_eq!(g.number, i + 1);
            assert_eq!(g.opening, i / 2);
            assert_eq!(g.opening_line, openings[i / 2].line());
            assert_eq!(g.a_first, i % 2 == 0);
            assert!(g.game.forfeit.is_none());
            assert_eq!(Some(g.game.first_margin()), g.game.record.black_margin());
            let ggf = g.record_text("A", "B");
            let (pb, pw) = if g.a_first {
                ("PB[A]", "PW[B]")
            } else {
                ("PB[B]", "PW[A]")
            };
            assert!(ggf.contains(pb) && ggf.contains(pw), "{ggf}");
            assert_eq!(crate::ggf::parse_ggf(ggf.trim()).unwrap(), g.game.record);
        }
        let s = MatchSummary::of(&games);
        assert_eq!(s.tally.games(), 5);
        assert_eq!(s.as_first.games(), 3);
        assert_eq!(s.as_second.games(), 2);
        let total: i64 = games.iter().map(|g| i64::from(g.a_margin())).sum();
        assert_eq!(s.margin_total, total);
        assert!((s.margin_mean - total as f64 / 5.0).abs() < 1e-12);
        let points: f64 = games.iter().map(MatchGame::a_score).sum();
        assert!((s.elo.unwrap().score - points / 5.0).abs() < 1e-12);
        assert!(!s.openings_repeated);
        assert_eq!(s.a_forfeits + s.b_forfeits, 0);
    }

    #[test]
    fn forfeits_and_repeats_are_counted() {
        let openings = pick(&<Position as Playable>::openings(2), 1, None);
        let mut good = Scripted::new();
        let mut bad = Scripted::new();
        bad.fail = Some(1);
        let games = play_match(
            &mut good,
            &mut bad,
            &openings,
            4,
            TimeControl::PerMove(Duration::from_millis(5)),
            |_| {},
        );
        let s = MatchSummary::of(&games);
        assert_eq!(s.tally.wins, 4);
        assert_eq!((s.a_forfeits, s.b_forfeits), (0, 4));
        assert_eq!(s.margin_total, 4 * i64::from(FORFEIT_MARGIN));
        assert!(s.openings_repeated);
        assert_eq!(good.games, 4);
        assert_eq!(s.elo.unwrap().elo, None);
    }

    /// A match of `games` games of `G` between the players `a` and `b` on two threads.
    fn parallel<G: Playable>(
        a: &str,
        b: &str,
        games: usize,
        plies: u32,
        control: TimeControl,
    ) -> Vec<MatchGame<G>> {
        let openings = pick(&G::openings(plies), games.div_ceil(2), None);
        let make = || -> AgentPair<G, String> {
            Ok((
                G::agent(&crate::AgentSpec::new(a))?,
                G::agent(&crate::AgentSpec::new(b))?,
            ))
        };
        play_match_in_parallel(2, &openings, games, control, make, &|_| {}).unwrap()
    }

    #[test]
    fn perfect_tic_tac_toe_is_drawn_and_never_lost() {
        // Searched to its default depth, tic-tac-toe is solved: perfect play draws every game,
        // and MCTS may lose to it but never win.
        let games = parallel::<prune_games::TicTacToe>("full", "full", 4, 1, TimeControl::Depth(9));
        assert_eq!(games.len(), 4);
        for (i, g) in games.iter().enumerate() {
            assert_eq!((g.number, g.a_first), (i + 1, i % 2 == 0));
            assert_eq!(g.a_margin(), 0, "{:?}", g.game.ending);
            assert!(g.game.forfeit.is_none());
        }
        let games =
            parallel::<prune_games::TicTacToe>("mcts", "full", 4, 1, TimeControl::Nodes(200));
        let s = MatchSummary::of(&games);
        assert_eq!((s.tally.games(), s.tally.wins), (4, 0), "{s:?}");
    }

    #[test]
    fn connect_four_and_shogi_play_through_the_same_arena() {
        let games =
            parallel::<prune_connect4::Position>("full", "plain", 4, 2, TimeControl::Depth(2));
        for g in &games {
            let end = g.game.record.current();
            assert!(end.is_won() || end.moves_played() == prune_connect4::CELLS);
            assert!(g.record_text("A", "B").contains("[X \"A\"]") == g.a_first);
        }
        // Parallel jobs play the same games as one thread (fresh tables every game).
        let openings = pick(&prune_connect4::Position::openings(2), 2, None);
        let spec = crate::AgentSpec::new("full");
        let (mut a, mut b) = (
            prune_connect4::Position::agent(&spec).unwrap(),
            prune_connect4::Position::agent(&crate::AgentSpec::new("plain")).unwrap(),
        );
        let one = play_match(
            a.as_mut(),
            b.as_mut(),
            &openings,
            4,
            TimeControl::Depth(2),
            |_| {},
        );
        let lines = |v: &[MatchGame<prune_connect4::Position>]| -> Vec<String> {
            v.iter().map(|g| g.game.record.line()).collect()
        };
        assert_eq!(lines(&one), lines(&games));

        let games =
            parallel::<prune_shogi::Position>("minimal", "minimal", 2, 2, TimeControl::Depth(1));
        for g in &games {
            let how = &g.game.ending.how;
            assert!(
                ["checkmate", "repetition", "perpetual check", "move limit"]
                    .contains(&how.as_str()),
                "{how}"
            );
            assert!(g.game.record.moves().len() <= crate::playable::SHOGI_MAX_PLIES);
            let record = g.record_text("A", "B");
            assert!(record.contains("[Game \"shogi\"]"), "{record}");
            assert!(record.contains(&g.game.record.line()), "{record}");
        }
    }

    #[test]
    fn players_that_cannot_be_made_say_why() {
        let err = |r: Result<Box<dyn Agent<prune_shogi::Position>>, String>| r.err().unwrap();
        assert!(err(prune_shogi::Position::agent(&crate::AgentSpec::new("nope"))).contains("nope"));
        let mut spec = crate::AgentSpec::new("full");
        spec.eval = Some("pattern".into());
        assert!(err(prune_shogi::Position::agent(&spec)).contains("pattern"));
        let mut spec = crate::AgentSpec::new("full");
        spec.selectivity = Some(prune_othello::midgame::Selectivity::Sigma(2.0));
        assert!(prune_connect4::Position::agent(&spec).is_err());
        assert!(prune_games::TicTacToe::agent(&crate::AgentSpec::new("fast")).is_err());
        let mut spec = crate::AgentSpec::new("full");
        spec.eval = Some("lines".into());
        assert!(prune_games::TicTacToe::agent(&spec).is_ok());
        spec.eval = Some("threat".into());
        assert!(prune_games::TicTacToe::agent(&spec).is_err());
    }
}
