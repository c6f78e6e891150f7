//! A search with a root window ([`Engine::search_window`]) tells the truth about plain
//! minimax's value: exact when the value lies inside the window, and otherwise a bound on the
//! correct side of it, for every algorithm and configuration on random trees.

mod common;

use common::{all_configs, oracle};
use prune_games::{mix, RandomEval, RandomTree};
use prune_search::{Bound, Engine, Score, SearchLimits, Window};

#[test]
fn a_windowed_search_returns_the_value_or_a_true_bound_beyond_the_window() {
    let mut bounds_seen = [0usize; 3];
    for seed in 0..1500u64 {
        let mut tree = RandomTree::new(seed);
        tree.max_width = 1 + (seed % 5) as u32;
        tree.max_depth = 1 + (seed / 5 % 6) as u32;
        if seed % 3 == 0 {
            tree.states = Some(2 + seed % 6);
        }
        let root = tree.root();
        let depth = 1 + (mix(seed, 3) % u64::from(tree.max_depth + 1)) as u32;
        let (value, _) = oracle(&root, &RandomEval, depth);
        // A window around a point near the value: sometimes containing it, sometimes not.
        let centre = value.raw() + (mix(seed, 5) % 41) as i32 - 20;
        let half = 1 + (mix(seed, 6) % 8) as i32;
        let window = Window::new(
            Score::from_raw(centre - half),
            Score::from_raw(centre + half),
        )
        .expect("a non-empty window");
        for config in all_configs(seed) {
            let mut engine = Engine::new(config).unwrap();
            let r = engine
                .search_window(&root, &RandomEval, &SearchLimits::depth(depth), window)
                .unwrap();
            let context = format!("{tree:?} depth {depth} {window:?} {config:?}: {r:?}");
            match r.bound {
                Bound::Exact => assert_eq!(r.score, value, "{context}"),
                Bound::Lower => assert!(r.score >= window.beta && value >= r.score, "{context}"),
                Bound::Upper => assert!(r.score <= window.alpha && value <= r.score, "{context}"),
            }
            bounds_seen[r.bound as usize] += 1;
        }
    }
    // The windows missed the value both ways and caught it, many times each.
    assert!(bounds_seen.iter().all(|&n| n > 1000), "{bounds_seen:?}");
}

#[test]
fn the_full_window_finds_the_exact_value() {
    for seed in 0..300u64 {
        let tree = RandomTree::new(seed);
        let root = tree.root();
        let (value, _) = oracle(&root, &RandomEval, 4);
        for config in all_configs(seed) {
            let r = Engine::new(config)
                .unwrap()
                .search_window(&root, &RandomEval, &SearchLimits::depth(4), Window::FULL)
                .unwrap();
            assert_eq!((r.score, r.bound), (value, Bound::Exact), "{config:?}");
        }
    }
}

#[test]
fn an_empty_window_is_refused() {
    assert_eq!(Window::new(Score::DRAW, Score::DRAW), None);
    assert_eq!(Window::new(Score::WIN, Score::LOSS), None);
}
