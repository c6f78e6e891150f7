//! `prune bench`: its total is the sum of its searches, it is deterministic on one thread, and
//! its total is the signature recorded in `bench_cmd.rs`.

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
    // update SIGNATURE in crates/cli/src/bench_cmd.rs to the total `prune bench` prints).
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
