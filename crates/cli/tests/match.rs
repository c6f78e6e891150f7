//! `prune match`: results, JSON, GGF, external engines and clear errors on bad options.

mod common;

use common::{assert_usage_errors, json, prune, stderr, stdout};
use serde_json::Value;

fn count(v: &Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("a count: {v}"))
}

#[test]
fn a_json_match_has_every_game_and_the_results() {
    let v = json(&[
        "match", "--a", "plain", "--b", "full", "--games", "4", "--depth", "2", "--json",
    ]);
    let r = &v["results"];
    let (w, d, l) = (count(&r["wins"]), count(&r["draws"]), count(&r["losses"]));
    assert_eq!(w + d + l, 4, "{r}");
    assert_eq!(count(&r["games"]), 4);
    for key in ["score", "margin_mean", "score_error"] {
        assert!(r[key].is_number(), "results.{key} in {r}");
    }
    assert!(r["margin_total"].is_i64());
    assert!(r["elo_text"].is_string());
    let score = r["score"].as_f64().unwrap();
    assert!((score - (w as f64 + d as f64 / 2.0) / 4.0).abs() < 1e-12);
    assert_eq!(v["time_control"], "depth 2");
    assert_eq!(v["a"]["preset"], "plain");
    assert_eq!(v["b"]["preset"], "full");
    assert_eq!(v["openings"]["plies"], 4);
    assert_eq!(v["openings"]["available"], 60);
    assert_eq!(v["openings"]["repeated"], false);

    let games = v["games"].as_array().expect("games");
    assert_eq!(games.len(), 4);
    let mut total = 0;
    for (i, g) in games.iter().enumerate() {
        assert_eq!(count(&g["number"]), i as u64 + 1);
        // Colours alternate and each opening is played twice.
        let a_side = if i % 2 == 0 { "black" } else { "white" };
        assert_eq!(g["a_side"], a_side, "{g}");
        assert_eq!(g["a_first"], i % 2 == 0, "{g}");
        assert_eq!(g["opening"], games[i - i % 2]["opening"]);
        let opening = g["opening"].as_str().unwrap();
        assert!(opening.starts_with("f5") && opening.split(' ').count() == 4);
        assert!(g["moves"].as_str().unwrap().starts_with(opening));
        assert!(g["forfeit"].is_null());
        let black_margin = g["first_margin"].as_i64().unwrap();
        let a_margin = g["a_margin"].as_i64().unwrap();
        assert_eq!(
            a_margin,
            if i % 2 == 0 {
                black_margin
            } else {
                -black_margin
            }
        );
        let result = match a_margin.signum() {
            1 => "win",
            0 => "draw",
            _ => "loss",
        };
        assert_eq!(g["result"], result);
        let (black, white) = if i % 2 == 0 {
            ("plain", "full")
        } else {
            ("full", "plain")
        };
        assert_eq!(
            (g["first"].as_str(), g["second"].as_str()),
            (Some(black), Some(white))
        );
        let ggf = g["record"].as_str().unwrap();
        assert!(ggf.contains(&format!("PB[{black}]PW[{white}]")), "{ggf}");
        total += a_margin;
    }
    assert_eq!(r["margin_total"].as_i64(), Some(total));
    assert_ne!(games[0]["opening"], games[2]["opening"]);
}

#[test]
fn a_table_report_and_ggf_file() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let ggf = dir.join("games.ggf");
    let o = prune(&[
        "match",
        "--a",
        "tt",
        "--b",
        "tt",
        "--games",
        "3",
        "--time",
        "depth:1",
        "--seed",
        "5",
        "--ggf",
        ggf.to_str().unwrap(),
        "-q",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for expected in [
        "A = tt (A) (negascout) vs B = tt (B) (negascout)",
        "3 games, depth 1",
        "2 of the 60 distinct positions 4 plies",
        "shuffled by seed 5",
        "Elo difference (A - B): ",
        "Margin of A in discs: ",
    ] {
        assert!(out.contains(expected), "expected '{expected}' in:\n{out}");
    }
    let text = std::fs::read_to_string(&ggf).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3);
    assert!(lines
        .iter()
        .all(|l| l.starts_with("(;GM[Othello]") && l.ends_with(";)")));
    // The odd last game is played from a third opening with A black.
    assert!(lines[2].contains("PB[tt (A)]"), "{}", lines[2]);
}

#[test]
fn bad_options_are_usage_errors() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["match", "--a", "plain", "--b", "full", "--games", "0"],
            "--games must be at least 1",
        ),
        (
            &["match", "--a", "nope", "--b", "full"],
            "--a: unknown preset 'nope'",
        ),
        (
            &["match", "--a", "plain", "--b", "nope"],
            "--b: unknown preset 'nope'",
        ),
        (
            &["match", "--a", "plain", "--b", "full", "--b-engine", "x"],
            "cannot be used with",
        ),
        (
            &["match", "--a", "plain", "--b", "full", "--time", "soon"],
            "--time: bad time control",
        ),
        (
            &["match", "--a", "plain", "--b", "full", "--depth", "0"],
            "--depth",
        ),
        (&["match", "--a", "plain"], "player B is missing"),
        (
            &["match", "--a", "plain", "--b", "full", "--openings", "9"],
            "--openings",
        ),
        (
            &[
                "match",
                "--a",
                "plain",
                "--b",
                "full",
                "--algorithm",
                "best",
            ],
            "--algorithm",
        ),
        (
            &[
                "match", "--a", "plain", "--b", "full", "--depth", "2", "--time", "60",
            ],
            "cannot be used with",
        ),
    ];
    assert_usage_errors(cases);
}

#[test]
fn an_engine_that_cannot_start_is_an_error() {
    let o = prune(&[
        "match",
        "--a",
        "plain",
        "--b-engine",
        "/nonexistent/engine",
        "-q",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("cannot start engine"), "{}", stderr(&o));
}

/// An NBoard engine that answers every `go` with an illegal move (Unix: a shell script).
#[cfg(unix)]
#[test]
fn an_external_engine_that_plays_illegal_moves_forfeits() {
    let engine = fake_engine(
        "engine.sh",
        "while read cmd arg rest; do\n\
           case \"$cmd\" in\n\
             nboard) echo 'set myname Cheater' ;;\n\
             ping) echo \"pong $arg\" ;;\n\
             go) echo '=== A1/0.00/0.0' ;;\n\
             quit) exit 0 ;;\n\
           esac\n\
         done\n",
    );
    let v = json(&[
        "match",
        "--a",
        "plain",
        "--b-engine",
        engine.command(),
        "--games",
        "2",
        "--depth",
        "1",
        "--json",
    ]);
    assert_eq!(v["b"]["name"], "Cheater");
    assert_eq!(count(&v["results"]["wins"]), 2);
    assert_eq!(count(&v["results"]["b_forfeits"]), 2);
    for g in v["games"].as_array().unwrap() {
        assert_eq!(g["forfeit"]["by"], "b", "{g}");
        let reason = g["forfeit"]["reason"].as_str().unwrap();
        assert!(
            reason.contains("illegal move") && reason.contains("a1"),
            "{reason}"
        );
        assert_eq!(g["a_margin"], 64);
    }
}

/// prune against itself through the NBoard protocol.
#[test]
fn prune_plays_prune_nboard() {
    let engine = format!("{} nboard", env!("CARGO_BIN_EXE_prune"));
    let v = json(&[
        "match",
        "--a",
        "plain",
        "--b-engine",
        &engine,
        "--games",
        "2",
        "--depth",
        "2",
        "--json",
    ]);
    let r = &v["results"];
    assert_eq!(
        count(&r["wins"]) + count(&r["draws"]) + count(&r["losses"]),
        2
    );
    assert_eq!(count(&r["a_forfeits"]) + count(&r["b_forfeits"]), 0, "{v}");
    for g in v["games"].as_array().unwrap() {
        assert!(g["forfeit"].is_null(), "{g}");
    }
}

/// An executable shell script in a folder of its own, both removed when it is dropped.
#[cfg(unix)]
struct FakeEngine {
    _dir: tempfile::TempDir,
    path: std::path::PathBuf,
}

#[cfg(unix)]
impl FakeEngine {
    /// The command that starts it.
    fn command(&self) -> &str {
        self.path.to_str().expect("a UTF-8 path")
    }
}

/// Writes an executable shell script `name` with `body` into a fresh folder (closed before it
/// runs: a file still open for writing cannot be executed).
#[cfg(unix)]
fn fake_engine(name: &str, body: &str) -> FakeEngine {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    FakeEngine { _dir: dir, path }
}

/// An engine that behaves like Edax 4.6 in NBoard mode at start-up: before it reads anything
/// it writes more to stderr than a pipe holds (bytes that are not UTF-8 among them) and a search
/// line to stdout, and sleeps; it refuses any protocol but `nboard 1` (more strictly than Edax,
/// which writes an error and goes on); then it is `prune nboard`, which plays legal moves.
#[cfg(unix)]
fn edax_like_engine() -> FakeEngine {
    fake_engine(
        "edax-like.sh",
        &format!(
            "head -c 300000 /dev/zero | tr '\\0' x >&2\n\
             printf '\\nnot \\377 utf-8\\n' >&2\n\
             echo '21@73%  +00        0:38.230     365156582    9551572 d3 C3 c4 E3'\n\
             sleep 2\n\
             read cmd version\n\
             if [ \"$cmd $version\" != 'nboard 1' ]; then\n\
               echo \"Error: Edax expected \\\"nboard 1\\\" protocol, not '$cmd $version'\" >&2\n\
               exit 1\n\
             fi\n\
             exec '{}' nboard --preset plain\n",
            env!("CARGO_BIN_EXE_prune")
        ),
    )
}

/// A slow start (longer than nothing, shorter than the start-up wait), stderr noise and the
/// default `nboard 1`: the match is played through.
#[cfg(unix)]
#[test]
fn an_engine_slow_to_start_that_speaks_only_nboard_1_plays_the_match() {
    let engine = edax_like_engine();
    let o = prune(&[
        "match",
        "--a",
        "plain",
        "--b-engine",
        engine.command(),
        "--engine-start-timeout",
        "300",
        "--games",
        "2",
        "--depth",
        "2",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    let r = &v["results"];
    assert_eq!(
        count(&r["wins"]) + count(&r["draws"]) + count(&r["losses"]),
        2
    );
    assert_eq!(count(&r["a_forfeits"]) + count(&r["b_forfeits"]), 0, "{v}");
}

/// `--engine-protocol 2` is sent as asked; the engine's refusal ends the match with its reason.
#[cfg(unix)]
#[test]
fn a_refused_protocol_version_is_a_clear_error() {
    let engine = edax_like_engine();
    let o = prune(&[
        "match",
        "--a",
        "plain",
        "--b-engine",
        engine.command(),
        "--engine-protocol",
        "2",
        "--engine-start-timeout",
        "300",
        "--depth",
        "1",
        "-q",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("--b-engine: engine edax-like.sh: exited")
            && err.contains("expected \"nboard 1\" protocol, not 'nboard 2'"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

/// An engine that never answers within the start-up wait: an error that names the option.
#[cfg(unix)]
#[test]
fn an_engine_that_does_not_start_in_time_names_the_option() {
    let engine = fake_engine("asleep.sh", "exec sleep 30\n");
    let o = prune(&[
        "match",
        "--a",
        "plain",
        "--b-engine",
        engine.command(),
        "--engine-start-timeout",
        "0.2",
        "--depth",
        "1",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("no answer in time while starting (waited 0.2 s for 'pong 1')")
            && err.contains("--engine-start-timeout"),
        "{err}"
    );
}

#[test]
fn bad_engine_options_are_usage_errors() {
    let cases: &[(&[&str], &str)] = &[
        (
            &[
                "match",
                "--a",
                "plain",
                "--b-engine",
                "x",
                "--engine-start-timeout",
                "0",
            ],
            "--engine-start-timeout: '0' is not a positive number of seconds",
        ),
        (
            &[
                "match",
                "--a",
                "plain",
                "--b-engine",
                "x",
                "--engine-start-timeout",
                "soon",
            ],
            "--engine-start-timeout",
        ),
        (
            &[
                "match",
                "--a",
                "plain",
                "--b-engine",
                "x",
                "--engine-protocol",
                "3",
            ],
            "--engine-protocol",
        ),
        (
            &[
                "match",
                "--a",
                "plain",
                "--b",
                "full",
                "--engine-protocol",
                "2",
            ],
            "--engine-protocol concerns an external engine: it needs --b-engine",
        ),
        (
            &[
                "match",
                "--a",
                "plain",
                "--b",
                "full",
                "--engine-timeout",
                "5",
            ],
            "--engine-timeout concerns an external engine",
        ),
        (
            &[
                "match",
                "--a",
                "plain",
                "--b-engine",
                "x",
                "--engine-timeout=-1",
            ],
            "--engine-timeout",
        ),
    ];
    assert_usage_errors(cases);
}

#[test]
fn games_played_in_parallel_are_the_sequential_games() {
    // At a fixed depth the games do not depend on timing: two jobs play the same games, in
    // the same order, as one.
    let args = |jobs: &str| {
        json(&[
            "match", "--a", "fast", "--b", "full", "--games", "6", "--depth", "3", "--jobs", jobs,
            "--json",
        ])
    };
    let (one, two) = (args("1"), args("2"));
    let moves = |v: &Value| -> Vec<String> {
        v["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["moves"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(moves(&one), moves(&two));
    assert_eq!(one["results"], two["results"]);
    assert_eq!(one["a"]["preset"], "fast");
}

#[test]
fn selectivity_needs_a_search_that_can_prune_forward() {
    let o = prune(&[
        "match",
        "--a",
        "full",
        "--algorithm",
        "scout",
        "--a-selectivity",
        "2.0",
        "--b",
        "fast",
        "--games",
        "2",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("probcut prunes"), "{}", stderr(&o));
    let v = json(&[
        "match",
        "--a",
        "fast",
        "--a-selectivity",
        "1.5",
        "--b",
        "fast",
        "--games",
        "2",
        "--depth",
        "4",
        "--json",
    ]);
    assert_eq!(count(&v["results"]["games"]), 2);
    assert!(
        v["a"]["name"].as_str().unwrap().contains("selectivity 1.5"),
        "{}",
        v["a"]
    );
}
