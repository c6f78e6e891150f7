//! `prune lab wthor` from the command line: its options parse, it is listed, and it writes a
//! report folder from ../shared/data/wthor.

mod common;

use common::{assert_usage_errors, json, prune, stderr, stdout};

#[test]
fn lab_wthor_is_listed_and_writes_a_report_folder() {
    let list = json(&["lab", "list", "--json"]);
    let wthor = list
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == "wthor")
        .expect("wthor is listed");
    for option in ["positions", "empties", "eval", "depths", "data"] {
        assert!(
            wthor["options"]
                .as_array()
                .unwrap()
                .iter()
                .any(|o| o == option),
            "{option}"
        );
    }

    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("report");
    let o = prune(&[
        "lab",
        "wthor",
        "--positions",
        "3",
        "--empties",
        "10,24",
        "--depths",
        "1",
        "--out",
        dir.to_str().unwrap(),
        "-q",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("hand-made"), "{}", stdout(&o));
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    let rows = report["tables"]["wthor-static"]["rows"].as_array().unwrap();
    let empties: Vec<String> = rows.iter().map(|r| r["empties"].to_string()).collect();
    assert_eq!(empties, ["10", "24", "\"all\""]);
    assert!(dir.join("wthor-depth-1.svg").is_file());
}

#[test]
fn lab_wthor_refuses_bad_options() {
    assert_usage_errors(&[
        (
            &["lab", "wthor", "--data", "/no/such/wthor-folder"],
            "/no/such/wthor-folder",
        ),
        (&["lab", "wthor", "--empties", "30"], "--empties 30"),
        (&["lab", "wthor", "--empties", "many"], "--empties"),
        (
            &["lab", "wthor", "--positions", "ffo-40-59"],
            "takes a count",
        ),
        (
            &["lab", "nodes", "--eval", "w.bin"],
            "--eval does not apply",
        ),
    ]);
}
