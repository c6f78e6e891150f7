//! `prune bench`: its total is the sum of its searches, it is deterministic on one thread, and
//! its total is the signature recorded in `bench_cmd/mod.rs`.

mod common;

use common::{assert_usage_errors, json, prune, stderr, stdout};
use serde_json::Value;

/// The node counts of the items, in order.
fn item_nodes(v: &Value) -> Vec<u64> {
    v["items"]
        .as_array()
        .expect("an items array")
        .iter()
        .map(|item| item["nodes"].as_u64().expect("a node count"))
        .collect()
}

/// The whole default bench, twice: the signature is what `prune bench` prints without options,
/// so it is checked on that run (about 5 s in the test profile, which is optimised).
#[test]
fn the_default_bench_adds_up_repeats_and_matches_the_signature() {
    let first = json(&["bench", "--json"]);
    let nodes = item_nodes(&first);
    let items = first["items"].as_array().unwrap();
    assert!(items.len() >= 20, "{} items", items.len());
    let kinds = |kind: &str| items.iter().filter(|i| i["kind"] == kind).count();
    assert!(kinds("endgame") > 0 && kinds("midgame") > 0, "{first}");
    assert!(nodes.iter().all(|&n| n > 0), "{nodes:?}");

    // The total is the sum of the items, and of the parts.
    let total = first["total"]["nodes"].as_u64().unwrap();
    assert_eq!(total, nodes.iter().sum::<u64>());
    let endgame = first["parts"]["endgame"]["nodes"].as_u64().unwrap();
    let midgame = first["parts"]["midgame"]["nodes"].as_u64().unwrap();
    assert_eq!(total, endgame + midgame);

    // Every exact solve gives the score the bench file lists.
    for item in items.iter().filter(|i| i["kind"] == "endgame") {
        assert_eq!(item["correct"], true, "{item}");
        assert_eq!(
            item["score"].as_str().unwrap().parse::<i64>().ok(),
            item["expected"].as_i64(),
            "{item}"
        );
    }

    // The same searches again: exactly the same node counts, item by item.
    let second = json(&["bench", "--json"]);
    assert_eq!(item_nodes(&second), nodes);

    // The total is the recorded signature (if a search changed its node counts on purpose,
    // update SIGNATURE in crates/cli/src/bench_cmd/mod.rs to the total `prune bench` prints).
    let signature = &first["signature"];
    assert_eq!(signature["nodes"].as_u64(), Some(total));
    assert_eq!(signature["checked"], true);
    assert_eq!(
        signature["recorded"].as_u64(),
        Some(total),
        "the bench's total is no longer the recorded signature"
    );
    assert_eq!(signature["matches"], true);
}

#[test]
fn a_part_prints_its_table_and_leaves_the_signature_unchecked() {
    let o = prune(&["bench", "--part", "midgame"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for expected in [
        "midgame",
        "#40",
        "#59",
        "depth",
        "nodes searched:",
        "not checked",
    ] {
        assert!(out.contains(expected), "'{expected}' in:\n{out}");
    }
    assert!(!out.contains("endgame"), "{out}");
}

#[test]
fn several_threads_solve_the_endgames_correctly_but_are_not_compared() {
    let v = json(&["bench", "--part", "endgame", "--threads", "2", "--json"]);
    assert_eq!(v["threads"], 2);
    let items = v["items"].as_array().unwrap();
    assert!(!items.is_empty());
    assert!(items
        .iter()
        .all(|i| i["kind"] == "endgame" && i["correct"] == true));
    assert_eq!(v["signature"]["checked"], false);
    assert_eq!(v["signature"]["matches"], Value::Null);
}

#[test]
fn bad_options_are_usage_errors() {
    assert_usage_errors(&[
        (&["bench", "--threads", "0"], "--threads"),
        (&["bench", "--threads", "513"], "--threads"),
        (&["bench", "--threads", "two"], "--threads"),
        (&["bench", "--part", "opening"], "endgame, midgame or all"),
        (&["bench", "--depth", "3"], "--depth"),
    ]);
}

/// `--scaling`: FFO positions solved at 1, 2, ... threads, every score exact, the node
/// overhead and speed-up against the first run, and the plot written.
#[test]
fn scaling_solves_at_each_thread_count_and_draws_the_plot() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let plot = dir.join("plot").join("scaling.svg");
    let v = json(&[
        "bench",
        "--scaling",
        "--only",
        "40,41",
        "--max-threads",
        "3",
        "--plot",
        plot.to_str().unwrap(),
        "--json",
    ]);
    let runs = v["runs"].as_array().expect("runs");
    let threads: Vec<u64> = runs
        .iter()
        .map(|r| r["threads"].as_u64().unwrap())
        .collect();
    assert_eq!(threads, [1, 2, 3]);
    for run in runs {
        assert_eq!(run["correct"], true, "{run}");
        let solves = run["solves"].as_array().unwrap();
        let ffo: Vec<u64> = solves.iter().map(|s| s["ffo"].as_u64().unwrap()).collect();
        assert_eq!(ffo, [40, 41]);
        let nodes: u64 = solves.iter().map(|s| s["nodes"].as_u64().unwrap()).sum();
        assert_eq!(run["nodes"].as_u64(), Some(nodes));
        // FFO #40 is +38 and #41 is 0 for the side to move (the suite's scores).
        let scores: Vec<i64> = solves
            .iter()
            .map(|s| s["score"].as_i64().unwrap())
            .collect();
        assert_eq!(scores, [38, 0]);
    }
    let first = &runs[0];
    assert_eq!(first["node_overhead"].as_f64(), Some(1.0));
    assert_eq!(first["split_wasted_nodes"].as_u64(), Some(0));
    assert!(
        runs[1]["node_overhead"].as_f64().unwrap() > 0.5,
        "{}",
        runs[1]
    );
    let svg = std::fs::read_to_string(&plot).expect("the plot was written");
    assert!(
        svg.contains("<svg") && svg.contains("speed-up"),
        "{svg:.200}"
    );
}

#[test]
fn scaling_options_are_checked() {
    assert_usage_errors(&[
        (&["bench", "--scaling", "--threads", "2"], "--threads"),
        (&["bench", "--max-threads", "2"], "--scaling"),
        (&["bench", "--scaling", "--only", "39"], "#39"),
        (
            &["bench", "--scaling", "--max-threads", "0"],
            "--max-threads",
        ),
        (&["bench", "--scaling", "--tt", "0"], "--tt"),
    ]);
}
