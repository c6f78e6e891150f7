//! `prune solve` and `prune perft` as a user meets them: the FFO suite's published scores,
//! the instruction sets, a wrong expected score, presets, and clear errors on bad input.

mod common;

use common::{assert_usage_errors, json, prune, stderr, stdout};
use serde_json::Value;

#[test]
fn solve_ffo_40_is_correct_in_json() {
    let v = json(&["solve", "ffo-40-59", "--only", "40", "--json"]);
    let p = &v["positions"][0];
    assert_eq!(p["id"], 40);
    assert_eq!(p["empties"], 20);
    assert_eq!(p["score"], 38);
    assert_eq!(p["expected"], 38);
    assert_eq!(p["best_move"], "a2");
    assert_eq!(p["correct"], true);
    assert!(p["nodes"].as_u64().unwrap() > 0 && p["time_ms"].is_number());
}

#[test]
fn solve_runs_each_instruction_set_with_the_same_work() {
    // One thread: the node counts of parallel solves vary from run to run.
    let solve = |isa: &str| {
        json(&[
            "solve",
            "ffo-40-59",
            "--only",
            "40",
            "--threads",
            "1",
            "--isa",
            isa,
            "--json",
        ])
    };
    let auto = solve("auto");
    let portable = solve("portable");
    assert_eq!(portable["isa"], "portable");
    // The instruction sets from the most portable on: auto picks the newest this CPU (and
    // build) runs, and every one up to it searches the same nodes.
    let all = ["portable", "x86-64-v3", "x86-64-v4"];
    let best = all
        .iter()
        .position(|&name| auto["isa"] == name)
        .unwrap_or_else(|| panic!("{}", auto["isa"]));
    let (a, b) = (&auto["positions"][0], &portable["positions"][0]);
    assert_eq!(
        (&a["score"], &a["best_move"]),
        (&b["score"], &b["best_move"])
    );
    assert_eq!(a["nodes"], b["nodes"]);
    for &name in &all[1..=best] {
        let run = solve(name);
        assert_eq!(run["isa"], name);
        assert_eq!(run["positions"][0]["nodes"], b["nodes"], "{name}");
    }
    // The generic engine has no instruction sets of its own.
    assert_eq!(
        json(&[
            "solve",
            "ffo-40-59",
            "--only",
            "40",
            "--engine",
            "generic",
            "--tt",
            "8",
            "--json"
        ])["isa"],
        Value::Null
    );
    assert_usage_errors(&[
        (
            &["solve", "ffo-40-59", "--isa", "sse9"],
            "'sse9' is not an instruction set",
        ),
        (
            &[
                "solve",
                "ffo-40-59",
                "--isa",
                "portable",
                "--engine",
                "generic",
            ],
            "--isa",
        ),
    ]);
}

#[test]
fn solve_flags_a_wrong_expected_score_and_fails() {
    // FFO #40 with its best score altered from +38 to +30: the solver must say WRONG.
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let file = dir.join("wrong.obf");
    std::fs::write(
        &file,
        "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+30;\n",
    )
    .unwrap();
    let o = prune(&["solve", file.to_str().unwrap(), "--json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("WRONG"), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["positions"][0]["correct"], false);
    // A malformed line is named by file, line and column; the good line is still solved,
    // and the run fails (see tests/bad_records.rs).
    std::fs::write(
        &file,
        "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+38;\nbad line\n",
    )
    .unwrap();
    let o = prune(&["solve", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let at = format!("{}:2:", file.display());
    assert!(stderr(&o).contains(&at), "{}", stderr(&o));
    assert!(stdout(&o).contains('✓'), "{}", stdout(&o));
}

#[test]
fn solve_and_perft_refuse_bad_input() {
    let cases: &[(&[&str], &str)] = &[
        (&["solve", "no-such-suite"], "no-such-suite"),
        (&["solve", "ffo-40-59", "--only", "12"], "#12"),
        (&["solve", "ffo-40-59", "--only", "x-y"], "--only"),
        (&["solve", "ffo-40-59", "--window", "maybe"], "maybe"),
        (&["solve", "ffo-40-59", "--engine", "turbo"], "turbo"),
        (&["perft", "--depth", "3", "--position", "XX"], "position"),
        (
            &[
                "search",
                "--game",
                "othello",
                "--position",
                "---------------------------OX------XO--------------------------- Z",
            ],
            "column",
        ),
    ];
    assert_usage_errors(cases);
}

#[test]
fn perft_matches_the_published_counts() {
    let v = json(&["perft", "--depth", "8", "--json"]);
    let text = v.to_string();
    // 390,216 leaves at depth 8 from the start position (published Othello perft counts).
    assert!(text.contains("390216"), "{text}");
}

/// FFO #40 after the first six moves of its principal variation (a2 b1 c1 pass b6 c7): 15
/// empties, still worth the published +38, reached only by a7.
const FFO_40_AFTER_6: &str =
    "OOXXXXXXXOXXXXXXOOXOXOOXOOXXOOXXOOXOOOXX-O-OOOOX--O-O--X-------- X; A7:+38;\n";

#[test]
fn solve_with_a_preset_uses_the_generic_engine_and_its_configuration() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let file = dir.join("ffo-40-after-6.obf");
    std::fs::write(&file, FFO_40_AFTER_6).unwrap();
    let path = file.to_str().unwrap();
    let v = json(&["solve", path, "--preset", "tt", "-a", "negascout", "--json"]);
    assert_eq!(v["engine"], "generic", "{v}");
    let c = &v["config"];
    assert_eq!(c["transposition_table"]["size_mib"], 64, "{v}");
    assert_eq!(c["static_ordering"], false);
    assert_eq!(c["killers"], Value::Null);
    let p = &v["positions"][0];
    assert_eq!(p["score"], 38, "{v}");
    assert_eq!(p["correct"], true, "{v}");
    assert!(p["stats"]["tt_probes"].as_u64().unwrap() > 0, "{v}");
    assert!(v["totals"]["stats"]["hash_move_cutoffs"].is_number(), "{v}");
    // An ordering switch alone picks the generic engine too.
    let v = json(&["solve", path, "--history", "--tt", "8", "--json"]);
    assert_eq!(v["engine"], "generic", "{v}");
    assert_eq!(v["config"]["history"], true);
    assert_eq!(v["config"]["transposition_table"]["size_mib"], 8);
    assert_eq!(v["positions"][0]["correct"], true, "{v}");
    // `--engine generic` and `--tt` alone keep the default generic configuration.
    let v = json(&["solve", path, "--engine", "generic", "--tt", "8", "--json"]);
    assert_eq!(v["config"]["static_ordering"], true, "{v}");
    assert_eq!(v["config"]["transposition_table"]["size_mib"], 8);
    // `--tt` alone sizes the fast solver's table.
    let v = json(&["solve", path, "--tt", "8", "--json"]);
    assert_eq!(v["engine"], "fast", "{v}");
    assert_eq!(v["tt_mib"], 8);
    assert_eq!(v["config"], Value::Null);
    assert_eq!(v["positions"][0]["correct"], true, "{v}");
}
