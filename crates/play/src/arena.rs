//! Games and matches between two [`Agent`]s.
//!
//! A game starts from an [`Opening`] (its moves are part of the record) and alternates the
//! agents, each with its own [`Clock`]; a side whose only move is the pass passes without
//! being asked. An agent that fails ([`AgentError`](crate::AgentError)) or answers an illegal
//! move loses the game by forfeit, scored 64–0 (the largest margin there is), and the reason
//! is kept. Running over a clock does not lose the game: the overruns are counted.
//!
//! A match of N games plays each opening twice with the colours swapped: games 1 and 2 start
//! from the first opening, the first agent ("A") black in game 1 and white in game 2, and so
//! on. With N odd the last opening is played once, A black.

use std::time::{Duration, Instant};

use prune_othello::{Color, Move};
use prune_search::Game;

use crate::elo::EloEstimate;
use crate::ggf::to_ggf;
use crate::openings::Opening;
use crate::record::color_name;
use crate::{Agent, Clock, GameRecord, TimeControl};

/// The disc margin of a game won by forfeit.
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
    /// The colour that failed.
    pub color: Color,
    /// Why: the agent's error, or the illegal move.
    pub reason: String,
}

/// One game played to its end (or to a forfeit).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedGame {
    /// The moves, the opening's included.
    pub record: GameRecord,
    /// The final disc margin from black's side (empty squares go to the winner; a forfeit
    /// counts [`FORFEIT_MARGIN`] for the other side).
    pub black_margin: i32,
    /// Set when the game ended by a forfeit.
    pub forfeit: Option<Forfeit>,
    /// Black's figures.
    pub black: SideStats,
    /// White's figures.
    pub white: SideStats,
}

/// Plays one game from `opening`, `black` against `white`, each side with a fresh clock of
/// `control`. Never panics on what the agents do: a failing agent forfeits.
pub fn play_game(
    black: &mut dyn Agent,
    white: &mut dyn Agent,
    opening: &Opening,
    control: TimeControl,
) -> PlayedGame {
    let mut record = GameRecord::default();
    for &mv in &opening.moves {
        if record.play(mv).is_err() {
            // An opening that is not legal (openings are generated legal): play on from the
            // position its legal part reaches.
            break;
        }
    }
    black.new_game();
    white.new_game();
    let mut clocks = [Clock::new(control), Clock::new(control)];
    let mut stats = [SideStats::default(), SideStats::default()];
    let mut forfeit = None;
    while !record.is_over() {
        let color = record.current().to_move();
        let side = usize::from(color == Color::White);
        let legal = record.current().legal_moves();
        if legal == [Move::PASS] {
            record
                .play(Move::PASS)
                .expect("the pass is the only legal move");
            continue;
        }
        let budget = clocks[side].budget(record.current().empty_count());
        let agent: &mut dyn Agent = if side == 0 { black } else { white };
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
                color,
                reason: format!("{} ({}): {reason}", agent.name(), color_name(color)),
            });
            break;
        }
    }
    for (s, clock) in stats.iter_mut().zip(&clocks) {
        s.overruns = clock.overruns();
    }
    let black_margin = match &forfeit {
        Some(f) if f.color == Color::Black => -FORFEIT_MARGIN,
        Some(_) => FORFEIT_MARGIN,
        None => record.black_margin().unwrap_or(0),
    };
    PlayedGame {
        record,
        black_margin,
        forfeit,
        black: stats[0],
        white: stats[1],
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
pub struct MatchGame {
    /// Its number in the match (1 = the first).
    pub number: usize,
    /// The index of its opening in the match's openings.
    pub opening: usize,
    /// The opening's moves.
    pub opening_line: String,
    /// A's colour.
    pub a_color: Color,
    /// The game.
    pub game: PlayedGame,
}

impl MatchGame {
    /// A's final disc margin.
    pub fn a_margin(&self) -> i32 {
        match self.a_color {
            Color::Black => self.game.black_margin,
            Color::White => -self.game.black_margin,
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
        Some(if f.color == self.a_color {
            Side::A
        } else {
            Side::B
        })
    }

    /// A's figures in this game.
    pub fn a_stats(&self) -> &SideStats {
        match self.a_color {
            Color::Black => &self.game.black,
            Color::White => &self.game.white,
        }
    }

    /// B's figures in this game.
    pub fn b_stats(&self) -> &SideStats {
        match self.a_color {
            Color::Black => &self.game.white,
            Color::White => &self.game.black,
        }
    }

    /// The game as GGF, with the players' names and the result (black's margin) filled in.
    pub fn ggf(&self, a_name: &str, b_name: &str) -> String {
        let (black, white) = match self.a_color {
            Color::Black => (a_name, b_name),
            Color::White => (b_name, a_name),
        };
        to_ggf(&self.game.record, black, white).replacen(
            "RE[?]",
            &format!("RE[{:+}]", self.game.black_margin),
            1,
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
    /// A's results as black.
    pub as_black: Tally,
    /// A's results as white.
    pub as_white: Tally,
    /// The sum of A's disc margins.
    pub margin_total: i64,
    /// A's mean disc margin per game (0 with no games).
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
    pub fn of(games: &[MatchGame]) -> MatchSummary {
        let mut s = MatchSummary {
            tally: Tally::default(),
            as_black: Tally::default(),
            as_white: Tally::default(),
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
            match g.a_color {
                Color::Black => s.as_black.add(margin),
                Color::White => s.as_white.add(margin),
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

/// Plays a match of `games` games between `a` and `b` with `control`: game `i` (from 0) starts
/// from `openings[i / 2]` (the list is used again from its start if it is too short; the
/// standard start if it is empty), A black when `i` is even. `on_game` is called after each
/// game (for progress).
pub fn play_match(
    a: &mut dyn Agent,
    b: &mut dyn Agent,
    openings: &[Opening],
    games: usize,
    control: TimeControl,
    mut on_game: impl FnMut(&MatchGame),
) -> Vec<MatchGame> {
    let start = Opening {
        moves: Vec::new(),
        position: prune_othello::Position::START,
    };
    let mut results = Vec::new();
    for i in 0..games {
        let index = if openings.is_empty() {
            0
        } else {
            (i / 2) % openings.len()
        };
        let opening = openings.get(index).unwrap_or(&start);
        let a_color = if i % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let game = match a_color {
            Color::Black => play_game(a, b, opening, control),
            Color::White => play_game(b, a, opening, control),
        };
        let played = MatchGame {
            number: i + 1,
            opening: index,
            opening_line: opening.line(),
            a_color,
            game,
        };
        on_game(&played);
        results.push(played);
    }
    results
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openings::{all_openings, pick};
    use crate::{AgentError, Budget, EnginePlayer, PlayerOptions, Thought};
    use prune_search::Algorithm;

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
        let opening = &all_openings(4)[5];
        let (mut a, mut b) = (engine("plain"), engine("full"));
        let g = play_game(&mut a, &mut b, opening, TimeControl::Depth(2));
        assert!(g.forfeit.is_none());
        assert!(g.record.is_over());
        assert_eq!(&g.record.moves()[..4], &opening.moves[..]);
        // Every move was legal: replaying them from the start reaches the same end.
        let mut replay = GameRecord::default();
        for &mv in g.record.moves() {
            replay.play(mv).unwrap();
        }
        assert_eq!(replay.current(), g.record.current());
        assert_eq!(Some(g.black_margin), g.record.black_margin());
        let (black, white) = g.record.disc_counts();
        assert_eq!(
            g.black_margin.signum(),
            (black as i32 - white as i32).signum()
        );
        // Each side was asked for its moves (no passes or opening moves among them).
        let passes = g.record.moves().iter().filter(|m| m.is_pass()).count() as u32;
        assert_eq!(
            g.black.moves + g.white.moves + passes + 4,
            g.record.moves().len() as u32
        );
        assert!(g.black.nodes > 0 && g.white.nodes > 0);
    }

    #[test]
    fn an_illegal_move_or_an_error_forfeits() {
        let opening = &all_openings(2)[0];
        let mut good = Scripted::new();
        let mut bad = Scripted::new();
        bad.bad = Some((3, "a1".parse().unwrap()));
        let g = play_game(&mut good, &mut bad, opening, TimeControl::Depth(1));
        let f = g.forfeit.clone().expect("a forfeit");
        assert_eq!(f.color, Color::White);
        assert!(
            f.reason.contains("illegal move") && f.reason.contains("a1"),
            "{f:?}"
        );
        assert!(f.reason.starts_with("scripted (white)"), "{f:?}");
        assert_eq!(g.black_margin, FORFEIT_MARGIN);
        assert!(!g.record.is_over());
        // The illegal move is not in the record: 2 opening moves, 3 for black, 2 for white.
        assert_eq!(g.record.moves().len(), 7);
        assert_eq!((g.black.moves, g.white.moves), (3, 3));

        let mut failing = Scripted::new();
        failing.fail = Some(1);
        let g = play_game(&mut failing, &mut good, opening, TimeControl::Depth(1));
        let f = g.forfeit.expect("a forfeit");
        assert_eq!(f.color, Color::Black);
        assert!(f.reason.contains("went away"), "{f:?}");
        assert_eq!(g.black_margin, -FORFEIT_MARGIN);
    }

    #[test]
    fn a_match_swaps_colours_on_each_opening() {
        let openings = pick(&all_openings(4), 3, None);
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
            let expected = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            assert_eq!(g.a_color, expected);
            assert!(g.game.forfeit.is_none());
            assert_eq!(Some(g.game.black_margin), g.game.record.black_margin());
            let ggf = g.ggf("A", "B");
            let (pb, pw) = if expected == Color::Black {
                ("PB[A]", "PW[B]")
            } else {
                ("PB[B]", "PW[A]")
            };
            assert!(ggf.contains(pb) && ggf.contains(pw), "{ggf}");
            assert_eq!(crate::ggf::parse_ggf(&ggf).unwrap(), g.game.record);
        }
        let s = MatchSummary::of(&games);
        assert_eq!(s.tally.games(), 5);
        assert_eq!(s.as_black.games(), 3);
        assert_eq!(s.as_white.games(), 2);
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
        let openings = pick(&all_openings(2), 1, None);
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
}
