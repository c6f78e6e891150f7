//! The request bodies of `prune serve` (`crates/cli/src/serve/`): the input's first byte picks
//! the endpoint (`search`, `position`, `play`, `tree`), the rest is its JSON body, handled as
//! the server handles it short of running a search. Never panics; an error is a message; a
//! view has the shape it says (rows, labels, every legal move's cells on the board) and the
//! view of its own position text is the same view.
#![no_main]

use libfuzzer_sys::fuzz_target;
use prune_cli::fuzzing::{request, View, ENDPOINTS};

fn check(view: &View) {
    assert_eq!(view.cells.len(), view.height, "{view:?}");
    assert!(view.cells.iter().all(|r| r.chars().count() == view.width), "{view:?}");
    if let Some(labels) = &view.labels {
        assert_eq!(labels.len(), view.height);
        assert!(labels.iter().all(|r| r.len() == view.width));
    }
    assert_eq!((view.files.len(), view.ranks.len()), (view.width, view.height));
    for m in &view.legal {
        if let (Some(r), Some(c)) = (m.row, m.col) {
            assert!(r < view.height && c < view.width, "{m:?}");
        }
        if let Some((r, c)) = m.from {
            assert!(r < view.height && c < view.width, "{m:?}");
        }
    }
    assert_eq!(view.legal.is_empty(), view.outcome.is_some(), "{view:?}");
    let body = serde_json::json!({ "game": view.game, "position": view.position });
    let again = request("position", body.to_string().as_bytes())
        .unwrap_or_else(|e| panic!("the view's own position does not read: {e}: {view:?}"));
    assert_eq!(again.as_ref(), Some(view), "the view of its own text differs");
}

fuzz_target!(|data: &[u8]| {
    let Some((&first, body)) = data.split_first() else {
        return;
    };
    let endpoint = ENDPOINTS[usize::from(first) % ENDPOINTS.len()];
    match request(endpoint, body) {
        Ok(Some(view)) => check(&view),
        Ok(None) => {}
        Err(message) => assert!(!message.is_empty(), "an empty error message"),
    }
});
