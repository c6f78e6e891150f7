//! The WTHOR reader on the real databases in `../shared/data/wthor` (beside the repository; not
//! copied into it): every game of every file read and replayed legally, the counts its README
//! gives, and the theoretical scores checked by exact solves.

use std::path::PathBuf;

use prune_othello::wthor::{
    parse_names, parse_wtb, WthorFile, PLAYER_NAME_BYTES, TOURNAMENT_NAME_BYTES,
};
use prune_othello::{solve, Color, Position, SolveOptions};

fn folder() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/wthor")
}

fn read(name: &str) -> WthorFile {
    let path = folder().join(name);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    parse_wtb(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn every_game_replays_legally_and_the_counts_are_the_readme_s() {
    let mut wthor = 0;
    let mut playok = 0;
    let mut full_boards = 0;
    for entry in std::fs::read_dir(folder()).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if !name.ends_with(".wtb") {
            continue;
        }
        let file = read(&name);
        assert_eq!(file.games.len(), file.header.games as usize, "{name}");
        if name.starts_with("WTH_") {
            wthor += file.games.len();
            assert_eq!(file.header.depth, 24, "{name}");
            let year: u16 = name[4..8].parse().unwrap();
            assert_eq!(file.header.year, year, "{name}");
        } else {
            playok += file.games.len();
            assert_eq!(file.header.depth, 0, "{name}");
        }
        for (i, game) in file.games.iter().enumerate() {
            let replay = game.replay(i + 1).unwrap_or_else(|e| panic!("{name}: {e}"));
            // A game played to a full board: the recorded count is the replayed one.
            if replay.finished && replay.last.0.empty_count() == 0 {
                full_boards += 1;
                let margin = replay.black_margin().unwrap();
                assert_eq!(
                    2 * i32::from(game.black_discs) - 64,
                    margin,
                    "{name} game {}",
                    i + 1
                );
            }
        }
    }
    // The README's counts.
    assert_eq!(wthor, 137_548);
    assert_eq!(playok, 54_366);
    assert!(
        full_boards > 100_000,
        "{full_boards} games with a full board"
    );
}

#[test]
fn the_first_game_of_2020_and_the_names() {
    let file = read("WTH_2020.wtb");
    let first: Vec<String> = file.games[0].moves[..5]
        .iter()
        .map(|s| s.to_string())
        .collect();
    // The README: "The first game of WTH_2020.wtb starts 56 66 65 46 57 = f5 f6 e6 f4 g5".
    assert_eq!(first, ["f5", "f6", "e6", "f4", "g5"]);
    let players = parse_names(
        &std::fs::read(folder().join("WTH.JOU")).unwrap(),
        PLAYER_NAME_BYTES,
    )
    .unwrap();
    let tournaments = parse_names(
        &std::fs::read(folder().join("WTH.TRN")).unwrap(),
        TOURNAMENT_NAME_BYTES,
    )
    .unwrap();
    assert_eq!(players.len(), 4448);
    assert_eq!(tournaments.len(), 492);
    // Every game of the year names players and a tournament that the files hold.
    for g in &file.games {
        assert!(usize::from(g.black.max(g.white)) < players.len());
        assert!(usize::from(g.tournament) < tournaments.len());
    }
}

#[test]
fn theoretical_scores_are_exact_play_from_24_empties() {
    // Solve the position with 24 empties of a few games exactly: black's margin is twice the
    // theoretical count minus 64 (the README checked four games of 2019 this way).
    let file = read("WTH_2021.wtb");
    let mut checked = 0;
    for (i, game) in file.games.iter().enumerate().step_by(97).take(3) {
        let replay = game.replay(i + 1).unwrap();
        let Some((board, color)) = replay.at_empties(24) else {
            continue;
        };
        let position = Position::new(board, color);
        let score = solve(&position, &SolveOptions::default()).unwrap().score;
        let black = if color == Color::Black { score } else { -score };
        assert_eq!(black, game.theoretical_margin(), "game {}", i + 1);
        checked += 1;
    }
    assert!(checked >= 2);
}

#[test]
fn eval_check_positions_come_from_held_out_games_with_exact_scores() {
    let file = read("WTH_2021.wtb");
    let positions =
        prune_othello::check::record_positions(std::slice::from_ref(&file), &[12, 24], 4, 10);
    assert_eq!(positions.len(), 8);
    let generic = SolveOptions {
        kind: prune_othello::SolverKind::Generic,
        ..SolveOptions::default()
    };
    for p in &positions[..4] {
        assert_eq!(p.board.empty_count(), 12);
        let position = Position::new(p.board, Color::Black);
        assert_eq!(solve(&position, &generic).unwrap().score, p.score);
    }
    // The 24-empty positions are the held-out games' (0, 10, 20, 30), scored by the record.
    for (p, game) in positions[4..].iter().zip([0, 10, 20, 30]) {
        let replay = file.games[game].replay(game + 1).unwrap();
        let (board, color) = replay.at_empties(24).unwrap();
        assert_eq!(p.board, board);
        let black = file.games[game].theoretical_margin();
        assert_eq!(p.score, if color == Color::Black { black } else { -black });
    }
}
