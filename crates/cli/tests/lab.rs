//! `prune lab` from the command line: the list of experiments, report folders written by a
//! quick run (and by `lab connect4` on two of Pons's sets), and clear errors on bad options.

mod common;

use common::{assert_usage_errors, json, prune, stderr, stdout};
use serde_json::Value;

#[test]
fn lab_lists_its_experiments() {
    let o = prune(&["lab", "list"]);
    assert!(o.status.success(), "{}", stderr(&o));
    for name in [
        "nodes",
        "killers",
        "ablation",
        "minimal-tree",
        "algorithms",
        "parallel",
        "connect4",
        "probcut",
        "mcts-vs-alphabeta",
        "proof-number",
        "shogi-killers",
        "selective",
        "wthor",
    ] {
        assert!(stdout(&o).contains(name), "{name}");
    }
    let list = json(&["lab", "list", "--json"]);
    assert_eq!(list.as_array().unwrap().len(), 13);
    assert_eq!(list[0]["name"], "nodes");
}

#[test]
fn lab_writes_a_report_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("report");
    let out = dir.to_str().unwrap();
    let o = prune(&[
        "lab",
        "minimal-tree",
        "--width",
        "3",
        "--depths",
        "2-4",
        "--trees",
        "2",
        "--jobs",
        "2",
        "--out",
        out,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("report.md"), "{}", stdout(&o));
    for file in ["report.md", "report.json", "minimal-tree.csv"] {
        assert!(dir.join(file).is_file(), "{file}");
    }
    let svgs = std::fs::read_dir(&dir)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "svg")
        })
        .count();
    assert!(svgs >= 1);
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    assert_eq!(report["settings"]["width"], "3");
}

/// `prune lab connect4` on a sample of two of Pons's sets (read from ../shared/data).
#[test]
fn lab_connect4_writes_a_report_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("report");
    let o = prune(&[
        "lab",
        "connect4",
        "--positions",
        "3",
        "--sets",
        "end-easy,begin-easy",
        "--node-limit",
        "1e5",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("Every finished solve scored what the file says"),
        "{}",
        stdout(&o)
    );
    assert!(
        stdout(&o).contains("Capped: step negamax"),
        "{}",
        stdout(&o)
    );
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    assert_eq!(report["problems"].as_array().unwrap().len(), 0);
    let capped = &report["tables"]["connect4-capped"]["rows"][0];
    assert_eq!(capped["step"], "negamax");
    assert_eq!(capped["Begin-Easy"], 3);
    for file in ["report.md", "connect4-nodes.csv", "connect4-time.svg"] {
        assert!(dir.join(file).is_file(), "{file}");
    }
}

#[test]
fn lab_refuses_bad_options() {
    assert_usage_errors(&[
        (&["lab", "nodez"], "unknown experiment 'nodez'"),
        (
            &["lab", "nodes", "--width", "4"],
            "--width does not apply to experiment nodes",
        ),
        (&["lab", "nodes", "--depths", "9-3"], "runs backwards"),
        (&["lab", "nodes", "--depths", "two"], "--depths 'two'"),
        (
            &["lab", "ablation", "--positions", "/no/such.obf"],
            "/no/such.obf",
        ),
        (
            &["lab", "nodes", "--preset", "warp"],
            "unknown preset 'warp'",
        ),
        (&["lab", "killers", "--jobs", "0"], "--jobs"),
        (&["lab", "killers", "--json"], "prune lab list"),
        (&["lab", "minimal-tree", "--width", "1"], "--width 1"),
        (
            &["lab", "nodes", "--positions", "20"],
            "applies to experiment connect4",
        ),
        (
            &["lab", "connect4", "--node-limit", "lots"],
            "--node-limit 'lots'",
        ),
        (
            &["lab", "connect4", "--sets", "begin-hard"],
            "unknown set 'begin-hard'",
        ),
        (
            &[
                "lab",
                "connect4",
                "--data",
                "/no/such/folder",
                "--sets",
                "end-easy",
            ],
            "/no/such/folder",
        ),
        (&["lab", "connect4", "--depths", "3"], "--node-limit"),
    ]);
}
