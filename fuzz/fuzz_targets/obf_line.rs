//! OBF text: reading a file never panics, and a line read prints back to a line that reads
//! as the same entry.
#![no_main]

use libfuzzer_sys::fuzz_target;
use prune_othello::{parse_obf, ObfEntry};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = parse_obf(text);
    if let Ok(entry) = text.parse::<ObfEntry>() {
        let printed = entry.to_string();
        let again = printed
            .parse::<ObfEntry>()
            .unwrap_or_else(|e| panic!("{printed:?} does not read back: {e}"));
        assert_eq!(again, entry, "{printed:?}");
    }
});
