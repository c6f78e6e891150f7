//! Game strings of the command line (`uniform:width=3,depth=4`, `random:seed=1`): reading
//! never panics, and a child order prints back to text that reads as the same order.
#![no_main]

use libfuzzer_sys::fuzz_target;
use prune_games::{parse_key_values, ChildOrder, GameSpec};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = parse_key_values(text);
    let _ = text.parse::<GameSpec>();
    if let Ok(order) = text.parse::<ChildOrder>() {
        assert_eq!(
            order.to_string().parse::<ChildOrder>(),
            Ok(order),
            "{text:?}"
        );
    }
});
