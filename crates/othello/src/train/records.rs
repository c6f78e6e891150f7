//! Training positions from recorded games (the WTHOR databases): every position in which a
//! move was played, with what the record says of its value.
//!
//! A WTHOR file with theoretical scores (header depth P, 24 in the FFO's files) gives each game
//! black's exact margin from the position with P empties. That position is labelled exactly
//! ([`Sample::exact`]), and every earlier position of the game carries it as its **outcome**
//! (from the side to move's view, averaged over the games that reach the position). Positions
//! after it carry nothing: the players could go wrong there, so they are solved or searched. A
//! file without theoretical scores (PlayOK's) gives positions only: its games are weaker and
//! their results as played say little, so their positions are labelled by solves and searches
//! alone. How much an outcome counts is [`TrainOptions::outcome_weight`]'s and
//! [`TrainOptions::outcome_fade`]'s: see [`label`](super::label).

use super::Sample;
use crate::board::Board;
use crate::position::Color;
use crate::square::Square;
use crate::wthor::{WthorError, WthorFile};

/// A bad game in recorded games: the file (its index in the list given) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{error}")]
pub struct RecordError {
    /// The file's index in the list given.
    pub file: usize,
    /// What is wrong, naming the game and the move.
    pub error: WthorError,
}

/// How many games, positions and labels the records gave.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecordCounts {
    /// Games read.
    pub games: usize,
    /// Games with a theoretical score (and a position with that many empties).
    pub scored: usize,
    /// Positions before the games' ends, counted once per game.
    pub positions: usize,
}

/// Every game of `files` replayed (games numbered across the files in order, from 0): one
/// sample per position in which a move was played, merged as in self-play (each distinct
/// position once, in the order first reached; outcomes added up, the first exact score kept).
/// With `children`, each such position also gives one position off the game's path: the
/// position after a legal move that was not played (chosen by the position's hash), with no
/// outcome, so that the fit also sees the positions after poor moves that a search's leaves
/// are full of.
pub fn record_samples(
    files: &[WthorFile],
    children: bool,
) -> Result<(Vec<Sample>, RecordCounts), RecordError> {
    let mut counts = RecordCounts::default();
    let mut games = Vec::new();
    let mut number = 0u32;
    for (file_index, file) in files.iter().enumerate() {
        let depth = u32::from(file.header.depth);
        for (i, game) in file.games.iter().enumerate() {
            let replay = game.replay(i + 1).map_err(|error| RecordError {
                file: file_index,
                error,
            })?;
            let black = game.theoretical_margin();
            let scored = depth > 0 && replay.at_empties(depth).is_some();
            counts.games += 1;
            counts.scored += usize::from(scored);
            counts.positions += replay.positions.len();
            let mut samples: Vec<Sample> = replay
                .positions
                .iter()
                .map(|&(board, color)| {
                    let mut s = Sample::new(&board, number);
                    let empties = board.empty_count();
                    if scored && empties >= depth {
                        let mine = if color == Color::Black { black } else { -black };
                        s.outcome_sum = mine;
                        s.outcome_count = 1;
                        if empties == depth {
                            s.exact = Some(mine as i8);
                        }
                    }
                    s
                })
                .collect();
            if children {
                for (&(board, _), &played) in replay.positions.iter().zip(&game.moves) {
                    if let Some(child) = off_path(&board, played) {
                        samples.push(Sample::new(&child, number));
                    }
                }
            }
            games.push(samples);
            number += 1;
        }
    }
    Ok((super::merge(games), counts))
}

/// The position after a legal move of `board` other than `played` (chosen by the board's
/// hash), from its side to move's view (after a forced pass); `None` when there is no other
/// move or the game ends there.
fn off_path(board: &Board, played: Square) -> Option<Board> {
    let others = board.moves() & !played.bit();
    if others == 0 {
        return None;
    }
    let k = board.hash() % u64::from(others.count_ones());
    let square = crate::squares(others).nth(k as usize)?;
    let child = board.play_unchecked(square);
    if child.is_game_over() {
        None
    } else if child.must_pass() {
        Some(child.pass())
    } else {
        Some(child)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wthor::{WthorGame, WthorHeader};

    fn game(moves: &[&str], theoretical: u8) -> WthorGame {
        WthorGame {
            tournament: 0,
            black: 0,
            white: 0,
            black_discs: 0,
            theoretical,
            moves: moves.iter().map(|m| m.parse().unwrap()).collect(),
        }
    }

    fn file(depth: u8, games: Vec<WthorGame>) -> WthorFile {
        WthorFile {
            header: WthorHeader {
                created: [0; 4],
                games: games.len() as u32,
                year: 2026,
                game_type: 0,
                depth,
            },
            games,
        }
    }

    #[test]
    fn outcomes_down_to_the_scored_position_then_nothing() {
        // Two games sharing their first two moves, scored from 57 empties (a depth chosen so
        // that four-move games reach it).
        let a = game(&["f5", "f6", "e6", "f4"], 40); // black +16
        let b = game(&["f5", "f6", "e6", "d6"], 30); // black -4
        let (samples, counts) = record_samples(&[file(57, vec![a, b])], false).unwrap();
        assert_eq!(counts.games, 2);
        assert_eq!(counts.scored, 2);
        assert_eq!(counts.positions, 8);
        // The positions before each move: the games share all four.
        assert_eq!(samples.len(), 4);
        let start = samples.iter().find(|s| s.board() == Board::START).unwrap();
        assert_eq!((start.outcome_sum, start.outcome_count), (16 - 4, 2));
        assert_eq!(start.game, 0);
        // After f5 white moves: the outcomes are negated.
        let after = &samples[1];
        assert_eq!((after.outcome_sum, after.outcome_count), (-12, 2));
        // The position with 57 empties (white to move after three moves) is labelled exactly
        // by the first game's score.
        let scored = samples.iter().find(|s| s.empties() == 57).unwrap();
        assert_eq!(scored.exact, Some(-16));
        assert!(samples
            .iter()
            .all(|s| s.empties() == 57 || s.exact.is_none()));

        // The same games in a file without theoretical scores carry nothing.
        let (plain, _) = record_samples(&[file(0, vec![game(&["f5", "f6"], 40)])], false).unwrap();
        assert!(plain
            .iter()
            .all(|s| s.outcome_count == 0 && s.exact.is_none()));

        // Games are numbered across files; an illegal one names its file and game.
        let err = record_samples(
            &[
                file(0, vec![game(&["f5"], 0)]),
                file(0, vec![game(&["f5"], 0), game(&["a1"], 0)]),
            ],
            false,
        )
        .unwrap_err();
        assert_eq!(err.file, 1);
        assert_eq!(err.to_string(), "game 2, move 1 (a1): not legal for black");
    }

    #[test]
    fn positions_after_the_scored_one_carry_no_outcome() {
        let g = game(&["f5", "f6", "e6", "f4", "e3"], 34);
        let (samples, _) = record_samples(&[file(58, vec![g.clone()])], false).unwrap();
        for s in &samples {
            assert_eq!(s.outcome_count == 1, s.empties() >= 58, "{}", s.empties());
        }
        // With children: one position off the path per move, a child of the position before
        // it by another legal move, without an outcome.
        let (with, _) = record_samples(&[file(58, vec![g.clone()])], true).unwrap();
        assert_eq!(with.len(), samples.len() + 5);
        let replay = g.replay(1).unwrap();
        for (extra, (&(board, _), &played)) in with[samples.len()..]
            .iter()
            .zip(replay.positions.iter().zip(&g.moves))
        {
            assert_eq!((extra.outcome_count, extra.exact), (0, None));
            let parent_children: Vec<Board> = crate::squares(board.moves() & !played.bit())
                .map(|sq| board.play_unchecked(sq))
                .collect();
            assert!(parent_children.contains(&extra.board()));
        }
    }
}
