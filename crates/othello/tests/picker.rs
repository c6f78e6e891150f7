//! Perft through the staged move picker equals perft through plain move generation: in every
//! combination of stages (hash moves legal, illegal or repeated; tactical stage on or off;
//! killers legal, illegal or none), every legal move is yielded exactly once. Checked against
//! the published start-position counts and, on FFO endgame positions (with passes), against
//! plain perft.

use prune_othello::perft::START_PERFT;
use prune_othello::{builtin_suite, Move, Position, StaticOrdering};
use prune_search::rng::mix;
use prune_search::{perft, Game, MovePicker, Stage};

/// Which stages a walk exercises.
#[derive(Clone, Copy, Debug)]
struct Combo {
    /// How many moves to offer before generation (0, 1 or 2; with 2, sometimes the same one).
    hash_moves: u32,
    /// Whether the tactical stage (corners) is on.
    tactical: bool,
    /// Whether killers are offered.
    killers: bool,
}

/// Any move, legal here or not (squares and the pass).
fn any_move(seed: u64) -> Move {
    Move::new((seed % 65) as u8).expect("0..=64 are moves")
}

/// Walks `depth` plies with the picker at every node, checking each node's moves, and returns
/// the leaf count. `killers` are the moves offered as killers, updated with the moves played
/// by siblings (so many are legal, some not).
fn walk(
    p: &Position,
    depth: u32,
    combo: Combo,
    killers: &mut Vec<Move>,
    stages: &mut [u64; 6],
) -> u64 {
    if depth == 0 || p.outcome().is_some() {
        return 1;
    }
    let h = Game::hash(p);
    let legal = p.legal_moves();
    let first = match combo.hash_moves {
        0 => [None, None],
        1 => [Some(legal[(h % legal.len() as u64) as usize]), None],
        _ => {
            let a = any_move(mix(h, 1));
            let b = if h.is_multiple_of(3) {
                a
            } else {
                any_move(mix(h, 2))
            };
            [Some(a), Some(b)]
        }
    };
    let offered: Vec<Move> = if combo.killers {
        killers
            .iter()
            .copied()
            .chain([any_move(mix(h, 3))])
            .collect()
    } else {
        Vec::new()
    };
    let mut picker = MovePicker::default();
    picker.reset(first, &offered, combo.tactical);
    let mut order = |g: &Position, moves: &mut [Move]| {
        if h.is_multiple_of(2) {
            StaticOrdering::SquareValue.sort(g.board(), moves)
        } else {
            moves.reverse()
        }
    };
    let mut yielded = Vec::new();
    let mut saw_stage = Stage::HashMove;
    while let Some(mv) = picker.next(p, &mut order) {
        let stage = picker.last_stage();
        assert!(
            stage >= saw_stage,
            "stages went back: {saw_stage:?} then {stage:?}"
        );
        saw_stage = stage;
        stages[stage as usize] += 1;
        if stage == Stage::Tactical {
            assert!(p.is_tactical(mv) && combo.tactical);
        }
        yielded.push(mv);
    }
    let mut a = yielded.clone();
    let mut b = legal.clone();
    a.sort_by_key(|m| m.index());
    b.sort_by_key(|m| m.index());
    assert_eq!(a, b, "{p} with {combo:?}: yielded {yielded:?}");
    let mut total = 0;
    for mv in yielded {
        total += walk(&p.play_unchecked(mv), depth - 1, combo, killers, stages);
        if killers.len() < 3 {
            killers.push(mv);
        } else {
            killers.rotate_right(1);
            killers[0] = mv;
        }
    }
    total
}

fn combos() -> Vec<Combo> {
    let mut out = Vec::new();
    for hash_moves in 0..3 {
        for tactical in [false, true] {
            for killers in [false, true] {
                out.push(Combo {
                    hash_moves,
                    tactical,
                    killers,
                });
            }
        }
    }
    out
}

#[test]
fn picker_perft_matches_the_published_counts() {
    let mut stages = [0u64; 6];
    for combo in combos() {
        for depth in 1..=6 {
            let got = walk(&Position::START, depth, combo, &mut Vec::new(), &mut stages);
            assert_eq!(got, START_PERFT[depth as usize], "depth {depth} {combo:?}");
        }
    }
    let all = Combo {
        hash_moves: 2,
        tactical: true,
        killers: true,
    };
    assert_eq!(
        walk(&Position::START, 8, all, &mut Vec::new(), &mut stages),
        START_PERFT[8]
    );
    // Every yielding stage was reached.
    for stage in [
        Stage::HashMove,
        Stage::Tactical,
        Stage::Killers,
        Stage::Rest,
    ] {
        assert!(stages[stage as usize] > 0, "{stage:?} never yielded");
    }
}

#[test]
fn picker_perft_matches_plain_perft_in_endgames() {
    let suite = builtin_suite("ffo-40-59").unwrap();
    let mut stages = [0u64; 6];
    for sp in suite.iter().take(8) {
        let p = sp.entry.position;
        let expected = perft(&p, 4);
        for combo in combos() {
            assert_eq!(
                walk(&p, 4, combo, &mut Vec::new(), &mut stages),
                expected,
                "FFO #{} {combo:?}",
                sp.number
            );
        }
    }
    assert!(stages[Stage::Tactical as usize] > 0);
}
