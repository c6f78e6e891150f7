//! Files with malformed records: every command that reads a file names the file and line of
//! each bad record, goes on with the good ones where that makes sense, and exits non-zero.

mod common;

use common::{prune, stderr, stdout};
use serde_json::Value;

/// FFO #40 (20 empties) with its best move's score.
const FFO_40: &str = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+38;";

/// A fresh temporary folder for one test, removed when dropped (also when the test fails).
struct Scratch(tempfile::TempDir);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let prefix = format!("prune-bad-records-{name}-");
        Scratch(tempfile::Builder::new().prefix(&prefix).tempdir().unwrap())
    }

    /// Writes `text` to `name` in the folder and returns its path.
    fn file(&self, name: &str, text: &str) -> String {
        let path = self.0.path().join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    }
}

#[test]
fn solve_solves_the_good_lines_names_each_bad_one_and_exits_with_1() {
    let dir = Scratch::new("solve");
    let file = dir.file(
        "mixed.obf",
        &format!("# two good lines around two bad ones\n{FFO_40}\nnot a position\n{FFO_40} B9:+1;\n{FFO_40}\n"),
    );
    let o = prune(&["solve", &file, "--json"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    // Each bad record by file and line, then the summary.
    assert!(err.contains(&format!("{file}:3:")), "{err}");
    assert!(err.contains(&format!("{file}:4:")), "{err}");
    assert!(err.contains("B9") || err.contains("b9"), "{err}");
    assert!(err.contains("2 malformed records"), "{err}");
    // The good lines are solved, and right.
    let v: Value = serde_json::from_str(&stdout(&o)).expect("the JSON report is printed");
    let positions = v["positions"].as_array().unwrap();
    let lines: Vec<u64> = positions
        .iter()
        .map(|p| p["id"].as_u64().unwrap())
        .collect();
    assert_eq!(lines, [2, 5]);
    assert!(positions.iter().all(|p| p["score"] == 38), "{positions:?}");
    assert_eq!(v["totals"]["wrong"], 0);
    let malformed: Vec<u64> = v["malformed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["line"].as_u64().unwrap())
        .collect();
    assert_eq!(malformed, [3, 4]);
}

#[test]
fn solve_refuses_a_file_without_a_good_line_naming_each_bad_one() {
    let dir = Scratch::new("solve-none");
    let file = dir.file("bad.obf", "# nothing good\nnonsense\n\nXO X\n");
    let o = prune(&["solve", &file]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("no well-formed position"), "{err}");
    assert!(err.contains(&format!("{file}:2:")), "{err}");
    assert!(err.contains(&format!("{file}:4:")), "{err}");
    // Selecting a bad line says that it is malformed.
    let file = dir.file("one-bad.obf", &format!("{FFO_40}\nnonsense\n"));
    let o = prune(&["solve", &file, "--only", "2"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("line 2") && err.contains("malformed"), "{err}");
}

#[test]
fn lab_refuses_a_position_set_with_bad_records_naming_each() {
    let dir = Scratch::new("lab");
    let file = dir.file(
        "set.obf",
        &format!("{FFO_40}\nnonsense\n{FFO_40}\nXO X\n{FFO_40}\n"),
    );
    let o = prune(&["lab", "ablation", "--positions", &file]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("2 malformed records"), "{err}");
    assert!(err.contains(&format!("{file}:2:")), "{err}");
    assert!(err.contains(&format!("{file}:4:")), "{err}");
}

#[test]
fn train_names_each_bad_line_of_its_work_files() {
    let dir = Scratch::new("train");
    let work = dir.0.path().join("work");
    std::fs::create_dir_all(&work).unwrap();
    let good = "0000000810000000 0000001008000000 0";
    let positions = work.join("positions.txt");
    std::fs::write(
        &positions,
        format!("{good}\nzz 0000001008000000 0\n{good}\n0000000810000000 0000000810000000 1\n"),
    )
    .unwrap();
    let out = dir.0.path().join("w.bin");
    let args = [
        "train",
        "-q",
        "--work",
        work.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--games",
        "6",
        "--exact-empties",
        "10",
        "--epochs",
        "20",
    ];
    let o = prune(&args);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    let path = positions.display().to_string();
    assert!(err.contains("2 malformed lines"), "{err}");
    assert!(err.contains(&format!("{path}:2:")), "{err}");
    assert!(err.contains(&format!("{path}:4:")), "{err}");
    assert!(!err.contains(&format!("{path}:3:")), "{err}");
}
