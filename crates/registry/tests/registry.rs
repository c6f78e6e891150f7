//! The registry against the rules and published facts: every game's positions, moves, boards
//! and evaluations by name, its perft counts, and its scores in its own words.

use std::sync::atomic::AtomicBool;

use prune_registry::{
    svg, with_game, BoardView, GameChoice, GameError, GameVisitor, LegalMoveNames, RegisteredGame,
    Setup, GAMES,
};
use prune_search::{Algorithm, Evaluator, FailMode, Game, Score, SearchConfig, SearchLimits};

/// Checks what the registry says of one position against the game's own rules.
struct Consistent;

impl GameVisitor for Consistent {
    type Output = (usize, Option<BoardView>);
    fn visit<G: RegisteredGame, E: Evaluator<G> + Clone + 'static>(
        self,
        game: G,
        eval: E,
    ) -> Self::Output {
        let _ = eval.evaluate(&game);
        let moves = game.legal_moves();
        for &mv in &moves {
            let name = game.move_name(mv);
            assert_eq!(game.find_move(&name), Ok(mv), "{name}");
            assert_eq!(game.find_move(&name.to_uppercase()), Ok(mv), "{name}");
            let view = game.move_view(mv);
            assert_eq!(view.name, name);
            if let (Some(board), Some((row, col))) = (game.board(), view.to) {
                assert!(row < board.height && col < board.width, "{name}");
            }
            // The text after a move reads back as the position after it.
            if let Some(after) = game.text().and_then(|t| game.text_after(&t, mv)) {
                let back = G::read(&after).unwrap_or_else(|e| panic!("{after}: {e}"));
                assert_eq!(back.hash(), game.play(mv).hash(), "{after}");
            }
        }
        let err = game.find_move("zz99").unwrap_err();
        assert!(err.contains("zz99") && err.contains("not legal"), "{err}");
        if let Some(text) = game.text() {
            if !text.is_empty() {
                assert_eq!(G::read(&text).unwrap().hash(), game.hash(), "{text}");
            }
        }
        let board = game.board();
        if let Some(b) = &board {
            assert_eq!(b.cells.len(), b.height);
            assert!(b.cells.iter().all(|r| r.len() == b.width));
            assert_eq!((b.files.len(), b.ranks.len()), (b.width, b.height));
        }
        (moves.len(), board)
    }
}

fn setup(position: Option<&'static str>) -> Setup<'static> {
    Setup {
        position,
        ..Setup::default()
    }
}

#[test]
fn every_game_reads_names_and_draws_its_positions_consistently() {
    let cases: [(&str, Option<&str>, usize); 9] = [
        ("othello", None, 4),
        (
            "othello",
            // FFO #40 as an OBF line (../shared/data/ffo-40-59.obf), its best moves listed.
            Some("O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+38;"),
            0,
        ),
        ("connect4", None, 7),
        ("connect4", Some("4453"), 7),
        ("shogi", None, 30),
        (
            "shogi",
            Some("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2"),
            30,
        ),
        ("tictactoe", Some("XO./.X./..."), 6),
        ("uniform:width=3,depth=2", None, 3),
        ("random:seed=1,width=2", None, 0),
    ];
    for (name, position, expected) in cases {
        let choice: GameChoice = name.parse().unwrap();
        let (n, board) = with_game(choice, &setup(position), Consistent).unwrap();
        if expected > 0 {
            assert_eq!(n, expected, "{name} {position:?}");
        } else {
            assert!(n > 0, "{name}");
        }
        assert_eq!(board.is_some(), choice.info().board, "{name}");
    }
}

#[test]
fn the_shogi_board_has_both_hands_and_the_pieces_where_sfen_puts_them() {
    let sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGS1L b 2Gn 1";
    let game: prune_shogi::Position = RegisteredGame::read(sfen).unwrap();
    let b = game.board().unwrap();
    // Rank a on top, file 9 on the left: White's lance on 9a, Black's rook on 2h.
    let label = |r: usize, c: usize| {
        b.cells[r][c]
            .as_ref()
            .map(|s| (s.owner.letter(), s.label.clone().unwrap()))
    };
    assert_eq!(label(0, 0), Some(('O', "L".into())));
    assert_eq!(label(7, 7), Some(('X', "R".into())));
    assert_eq!(label(7, 1), Some(('X', "B".into())));
    assert_eq!(label(8, 7), None, "the knight of 2i is in White's hand");
    assert_eq!(b.hands[0].pieces, vec![("G".to_string(), 2)]);
    assert_eq!(b.hands[1].pieces, vec![("N".to_string(), 1)]);
    // A drop names its kind; a promotion says so.
    let drop = game.find_move("G*5e").unwrap();
    let v = game.move_view(drop);
    assert_eq!(
        (v.drop.as_deref(), v.to, v.from),
        (Some("G"), Some((4, 4)), None)
    );
    let picture = svg(&b);
    assert_eq!(picture.matches("<polygon").count(), 39);
    assert!(
        picture.contains("☗ G2") && picture.contains("☖ N"),
        "{picture}"
    );
}

#[test]
fn published_perft_counts_hold_for_every_game_that_has_them() {
    struct Perft;
    impl GameVisitor for Perft {
        type Output = Vec<(u32, u64)>;
        fn visit<G: RegisteredGame, E: Evaluator<G> + Clone + 'static>(
            self,
            game: G,
            _: E,
        ) -> Vec<(u32, u64)> {
            let max = match G::NAME {
                "shogi" => 3,
                "othello" => 6,
                _ => 9,
            };
            let facts = prune_registry::info(G::NAME).unwrap().perft.unwrap();
            facts
                .counts
                .iter()
                .filter(|&&(d, _)| d <= max)
                .map(|&(d, _)| (d, prune_search::perft(&game, d)))
                .collect()
        }
    }
    let mut checked = 0;
    for info in GAMES {
        let Some(facts) = info.perft else { continue };
        let counts = with_game(info.name.parse().unwrap(), &Setup::default(), Perft).unwrap();
        assert!(counts.len() >= 4, "{}", info.name);
        assert_eq!(counts, facts.counts[..counts.len()], "{}", info.name);
        checked += 1;
    }
    assert_eq!(
        checked, 3,
        "othello, shogi and tic-tac-toe have published counts"
    );
}

#[test]
fn scores_read_in_each_games_own_words() {
    use prune_connect4::Position as C4;
    use prune_othello::Position as Othello;
    use prune_shogi::Position as Shogi;
    assert_eq!(Othello::score_text(Score::heuristic(47)), "+0.47 discs");
    assert_eq!(Othello::score_text(Score::heuristic(-250)), "-2.50 discs");
    assert_eq!(Othello::score_text(Score::exact(12)), "win by 12 discs");
    assert_eq!(Othello::score_text(Score::exact(-4)), "loss by 4 discs");
    assert_eq!(C4::score_text(Score::exact(18)), "win, +18 on Pons's scale");
    // An exact draw and an even value share the encoding: "0", never "draw" for an estimate.
    assert_eq!(C4::score_text(Score::heuristic(0)), "0");
    assert_eq!(C4::score_text(Score::INFINITY), "+inf");
    assert_eq!(prune_games::TicTacToe::score_text(Score::heuristic(0)), "0");
    assert_eq!(Othello::score_text(Score::heuristic(0)), "+0.00 discs");
    assert_eq!(Shogi::score_text(Score::heuristic(-130)), "-130 cp");
    assert_eq!(Shogi::score_text(Score::WIN), "win: mate");
    assert_eq!(prune_games::TicTacToe::score_text(Score::exact(-1)), "loss");
}

#[test]
fn bad_positions_evaluations_and_options_are_named() {
    let err = |game: &str, position: Option<&str>, eval: Option<&str>| {
        let s = Setup {
            position,
            eval,
            ..Setup::default()
        };
        with_game(game.parse().unwrap(), &s, LegalMoveNames).unwrap_err()
    };
    let e = err("shogi", Some("lnsgkgsnl/9 b - 1"), None);
    assert!(matches!(e, GameError::Position(_)), "{e:?}");
    let e = err("connect4", Some("4448"), None);
    assert!(matches!(e, GameError::Position(_)), "{e:?}");
    let e = err("shogi", None, Some("nnue"));
    assert!(e.to_string().contains("hand, material"), "{e}");
    let e = err("connect4", None, Some("pattern"));
    assert!(e.to_string().contains("threat"), "{e}");
    let e = err("othello", None, Some("/no/such/weights"));
    assert!(e.to_string().contains("cannot be read"), "{e}");
    let e = err("uniform:width=2,depth=2", Some("x"), None);
    assert!(matches!(e, GameError::Option { .. }), "{e:?}");
    // The evaluation's name picks the type: material-only shogi sees no king danger.
    struct Value;
    impl GameVisitor for Value {
        type Output = i32;
        fn visit<G: RegisteredGame, E: Evaluator<G> + Clone + 'static>(
            self,
            game: G,
            eval: E,
        ) -> i32 {
            eval.evaluate(&game).raw()
        }
    }
    let sfen = "lnsgk2nl/1r4gs1/p1pppp1pp/1p4p2/7P1/2P6/PP1PPPP1P/1SG4R1/LN2KGSNL b Bb 11";
    let value = |eval| {
        let s = Setup {
            position: Some(sfen),
            eval: Some(eval),
            ..Setup::default()
        };
        with_game(GameChoice::Shogi, &s, Value).unwrap()
    };
    assert_eq!(value("material"), 0, "even material");
    assert_ne!(value("hand"), value("material"));
}

#[test]
fn othello_near_the_end_is_solved_as_the_plain_search_to_the_end_finds() {
    // A position reached by always playing the first legal move, ten empties left.
    let mut game = prune_othello::Position::START;
    while game.empty_count() > 10 {
        let moves = game.legal_moves();
        game = Game::play(&game, moves[moves.len() / 2]);
    }
    let stop = AtomicBool::new(false);
    let (score, best) = game.exact(&stop).expect("ten empties are solved");
    let limits = SearchLimits {
        depth: Some(40),
        ..SearchLimits::default()
    };
    let plain = prune_search::search(
        &game,
        &prune_othello::OthelloEval::Hand,
        &SearchConfig::new(Algorithm::AlphaBeta(FailMode::Soft)),
        &limits,
    )
    .unwrap();
    assert_eq!(score, plain.score);
    assert!(best.is_some());
    assert!(prune_othello::Position::START.exact(&stop).is_none());
}

#[test]
fn the_games_with_an_engine_of_their_own_search_with_it_and_the_others_say_none() {
    struct Native;
    impl GameVisitor for Native {
        type Output = Option<(bool, usize)>;
        fn visit<G: RegisteredGame, E: Evaluator<G> + Clone + 'static>(
            self,
            game: G,
            _: E,
        ) -> Self::Output {
            let limits = prune_registry::NativeLimits {
                depth: Some(3),
                threads: 1,
                ..Default::default()
            };
            let stop = std::sync::Arc::new(AtomicBool::new(false));
            let mut reports = 0;
            let r = game.native_search(&limits, &stop, &mut |_| reports += 1)?;
            let r = r.unwrap();
            let legal = r.best.is_some_and(|m| game.legal_moves().contains(&m));
            assert_eq!(r.last.pv.first().copied(), r.best);
            Some((legal, reports))
        }
    }
    for info in GAMES {
        let choice = info.example.parse().unwrap();
        let found = with_game(choice, &Setup::default(), Native).unwrap();
        match found {
            Some((legal, reports)) => {
                assert!(info.native_engine.is_some(), "{}", info.name);
                assert!(legal, "{}: the best move is legal", info.name);
                assert_eq!(reports, 3, "{}: one report per iteration", info.name);
            }
            None => assert!(info.native_engine.is_none(), "{}", info.name),
        }
    }
}

#[test]
fn a_move_number_at_its_largest_plays_and_reads_back() {
    // SFEN's move number is read up to u32::MAX; playing on saturates instead of wrapping to
    // 0, which SFEN refuses.
    let sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 4294967295";
    let game = <prune_shogi::Position as RegisteredGame>::read(sfen).unwrap();
    let mv = game.find_move("7g7f").unwrap();
    let after = game.text_after(sfen, mv).unwrap();
    assert!(after.ends_with(" 4294967295"), "{after}");
    assert!(<prune_shogi::Position as RegisteredGame>::read(&after).is_ok());
}

#[test]
fn a_games_own_engine_searches_again_with_its_table_kept() {
    use prune_shogi::Position as Shogi;
    let mut engine = <Shogi as RegisteredGame>::native_engine().expect("shogi has one");
    let limits = prune_registry::NativeLimits {
        depth: Some(4),
        threads: 1,
        ..Default::default()
    };
    let stop = std::sync::Arc::new(AtomicBool::new(false));
    let start = <Shogi as RegisteredGame>::read("startpos").unwrap();
    let first = engine.search(&start, &limits, &stop, &mut |_| {}).unwrap();
    // A child of the start, then the start again: each answer legal where it was asked.
    let child = Game::play(&start, first.best.unwrap());
    let reply = engine.search(&child, &limits, &stop, &mut |_| {}).unwrap();
    assert!(child.legal_moves().contains(&reply.best.unwrap()));
    let again = engine.search(&start, &limits, &stop, &mut |_| {}).unwrap();
    assert!(start.legal_moves().contains(&again.best.unwrap()));
    // A raised stop flag ends the next search at once, with a legal move still.
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let stopped = engine.search(&start, &limits, &stop, &mut |_| {}).unwrap();
    assert!(start.legal_moves().contains(&stopped.best.unwrap()));
}
