//! `prune mate`: tsume-shogi from the command line and from a suite file (the suites'
//! `id<TAB>sfen<TAB>plies<TAB>solution` lines), JSON lines, and clear errors for bad input.

mod common;

use common::{assert_usage_errors, prune, stderr, stdout};
use serde_json::Value;

/// antma tsume3-02 (in `../shared/data/tsume/antma.tsv`): a mate in 3.
const MATE_IN_THREE: &str = "3sks3/9/4S4/9/9/8B/9/9/9 b S 1";

#[test]
fn a_position_on_the_command_line_is_solved() {
    let o = prune(&["mate", MATE_IN_THREE, "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["result"], "mate", "{v}");
    assert_eq!(v["plies"], 3, "{v}");
    assert_eq!(v["shortest"], true, "{v}");
    assert_eq!(v["line"].as_str().unwrap().split(' ').count(), 3, "{v}");
    // The line (1f5b+ 4a5b S*4b) spends the silver in hand: nothing left over.
    assert_eq!(v["in_hand"], 0, "{v}");
    // The start position has no check at all: no mate.
    let o = prune(&["mate", "startpos"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("no mate"), "{}", stdout(&o));
}

/// antma tsume1_futile_drops-01 (in `../shared/data/tsume/antma.tsv`): a mate in 1 by the
/// tsume convention (antma's count), 3 by the strict rules (a drop on 2a, taken with mate).
const FUTILE_DROPS: &str = "6Snl/5+Rg1k/6ppp/9/9/9/9/9/9 b r2b3g3s3n3l15p 1";

#[test]
fn the_rules_say_what_counts_as_mate() {
    for (rules, plies) in [("strict", 3), ("tsume", 1)] {
        let o = prune(&["mate", FUTILE_DROPS, "--rules", rules, "--json"]);
        assert!(o.status.success(), "{}", stderr(&o));
        let v: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
        assert_eq!(v["result"], "mate", "{v}");
        assert_eq!(v["plies"], plies, "{v}");
        assert_eq!(v["rules"], rules, "{v}");
        assert_eq!(v["shortest"], true, "{v}");
    }
    // The default is strict, and the table says so.
    let o = prune(&["mate", FUTILE_DROPS, "--json"]);
    let v: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["rules"], "strict", "{v}");
    let o = prune(&["mate", FUTILE_DROPS, "--rules", "tsume"]);
    assert!(stdout(&o).contains("; tsume rules"), "{}", stdout(&o));
}

#[test]
fn a_suite_file_is_checked_against_its_stated_lengths() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data/tsume/sugyan.tsv");
    let o = prune(&["mate", "--file", path.to_str().unwrap(), "--limit", "5"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("5 positions: 5 mates"), "{out}");
    assert!(
        out.contains("lengths as the source states: 5 of 5"),
        "{out}"
    );
}

#[test]
fn a_sources_line_is_audited() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data/tsume/zukou.tsv");
    let text = std::fs::read_to_string(&path).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let one = dir.join("zukou-033.tsv");
    let row = text.lines().find(|l| l.starts_with("zukou-033\t")).unwrap();
    std::fs::write(&one, format!("{row}\n")).unwrap();
    let file = one.to_str().unwrap();
    let o = prune(&["mate", "--rules", "tsume", "--file", file, "--audit"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("zukou-033: stated 15, best play 17; ply 4 (defender) 9d9e"),
        "{out}"
    );
    assert!(out.contains("1 of 1 read to the end"), "{out}");
    let o = prune(&[
        "mate", "--rules", "tsume", "--file", file, "--audit", "--json",
    ]);
    let v: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["audit"]["complete"], true, "{v}");
    assert_eq!(v["audit"]["deviations"][0]["better"], "P*8e", "{v}");
    // A source's line with a move that is not legal there is named with its ply.
    let bad = dir.join("bad.tsv");
    std::fs::write(&bad, format!("{}\n", row.replace("9d9e", "9d9f"))).unwrap();
    // One that stops before the mate is refused as not a mate.
    let short = dir.join("short.tsv");
    let cut: Vec<&str> = row.split('\t').collect();
    let moves: Vec<&str> = cut[3].split(' ').take(14).collect();
    std::fs::write(
        &short,
        format!("{}\t{}\t15\t{}\n", cut[0], cut[1], moves.join(" ")),
    )
    .unwrap();
    assert_usage_errors(&[
        (
            &["mate", "--file", bad.to_str().unwrap(), "--audit"],
            "zukou-033: the source's line, ply 4: '9d9f'",
        ),
        (
            &["mate", "--file", short.to_str().unwrap(), "--audit"],
            "zukou-033: the line is not a mate: 14 plies",
        ),
        (
            &["mate", "--file", file, "--audit", "--first"],
            "--audit: a line is read against the shortest mate",
        ),
    ]);
}

#[test]
fn bad_input_gets_a_clear_error() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let bad = dir.join("bad.tsv");
    std::fs::write(
        &bad,
        format!("one\t{MATE_IN_THREE}\t3\t-\ntwo\t9/9/9 b - 1\t1\t-\n"),
    )
    .unwrap();
    let bad_plies = dir.join("bad_plies.tsv");
    std::fs::write(&bad_plies, format!("one\t{MATE_IN_THREE}\tthree\t-\n")).unwrap();
    assert_usage_errors(&[
        (&["mate", "9/9/9 b - 1"], "'9/9/9 b - 1'"),
        (
            &["mate", "--file", bad.to_str().unwrap()],
            "two: '9/9/9 b - 1'",
        ),
        (
            &["mate", "--file", bad_plies.to_str().unwrap()],
            "bad_plies.tsv:1: the third field",
        ),
        (
            &["mate", "--game", "othello", MATE_IN_THREE],
            "only shogi has a mate solver",
        ),
        (&["mate"], "no position"),
        (
            &["mate", MATE_IN_THREE, "--rules", "loose"],
            "--rules: unknown rules 'loose': expected strict or tsume",
        ),
        (
            &["mate", MATE_IN_THREE, "--two-ply-rule"],
            "--two-ply-rule: the rule is the tsume convention's",
        ),
        (
            &["mate", MATE_IN_THREE, "--time", "0"],
            "--time: expected a positive number",
        ),
        // The attacker (Black, to move) is in check.
        (
            &["mate", "4r4/9/9/9/9/9/9/9/4K1k2 b - 1"],
            "the side to move is in check",
        ),
        // A tsume SFEN with the wrong side to move: White attacks, and Black has no king.
        (
            &["mate", "3sks3/9/4S4/9/9/8B/9/9/9 w S 1"],
            "has no king to mate",
        ),
    ]);
}
