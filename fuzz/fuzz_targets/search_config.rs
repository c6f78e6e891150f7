//! Algorithm, killer-index and preset names, and search configurations as JSON: reading never
//! panics, names print back to names that read as the same value, and a configuration that
//! validates writes back to JSON that reads as the same configuration.
#![no_main]

use libfuzzer_sys::fuzz_target;
use prune_search::{Algorithm, KillerIndex, Named, Preset, SearchConfig};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(algorithm) = text.parse::<Algorithm>() {
        assert_eq!(
            algorithm.to_string().parse::<Algorithm>(),
            Ok(algorithm),
            "{text:?}"
        );
    }
    if let Ok(index) = text.parse::<KillerIndex>() {
        assert_eq!(index.name().parse::<KillerIndex>(), Ok(index), "{text:?}");
    }
    if let Ok(preset) = Preset::find(text) {
        for algorithm in Algorithm::ALL {
            let _ = preset.config(algorithm);
        }
    }
    if let Ok(config) = serde_json::from_str::<SearchConfig>(text) {
        if config.validate().is_ok() {
            let _ = config.enhancements();
            let json = serde_json::to_string(&config).expect("a config serialises");
            let again: SearchConfig = serde_json::from_str(&json)
                .unwrap_or_else(|e| panic!("{json} does not read back: {e}"));
            assert_eq!(again, config, "{json}");
        }
    }
});
