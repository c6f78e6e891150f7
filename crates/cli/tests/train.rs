//! `prune train` end to end on tiny data: it writes a weights file that the Othello commands
//! load, an interrupted run resumes to the same result, and bad input gets clear errors.

mod common;

use common::{assert_usage_errors, json, prune, stderr, stdout};

/// A fresh temporary folder for one test, removed when it is dropped (also when the test
/// fails).
fn scratch(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("prune-train-{name}-"))
        .tempdir()
        .unwrap()
}

const TINY: [&str; 8] = [
    "--games",
    "6",
    "--exact-empties",
    "10",
    "--epochs",
    "20",
    "--threads",
    "2",
];

#[test]
fn train_writes_weights_that_load_and_resumes_to_the_same_file() {
    let tmp = scratch("resume");
    let dir = tmp.path();
    let (work, out) = (dir.join("work"), dir.join("w.bin"));
    let mut args = vec!["train", "-q", "--work", work.to_str().unwrap()];
    args.extend(["--out", out.to_str().unwrap()]);
    args.extend(TINY);
    let o = prune(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("held-out MAE"), "{}", stdout(&o));
    let first = std::fs::read(&out).unwrap();

    // As if interrupted after the labels of the first three phases: the rest is redone.
    for entry in std::fs::read_dir(&work).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        if name.starts_with("labels-") && name.as_str() > "labels-02.txt" {
            std::fs::remove_file(path).unwrap();
        }
    }
    std::fs::remove_file(&out).unwrap();
    let o = prune(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        std::fs::read(&out).unwrap(),
        first,
        "resuming changed the weights"
    );

    // The file is an evaluation for the Othello commands.
    let r = json(&[
        "search",
        "--game",
        "othello",
        "--depth",
        "3",
        "--eval",
        out.to_str().unwrap(),
        "--json",
    ]);
    assert!(r["best_move"].is_string(), "{r}");

    // Other settings in the same folder are refused, not mixed in.
    let mut other = args.clone();
    other.extend(["--seed", "2"]);
    let o = prune(&other);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("other settings"), "{}", stderr(&o));
}

#[test]
fn second_generation_blocks_resume_and_make_the_same_weights() {
    let tmp = scratch("gen2");
    let dir = tmp.path();
    let (work, out) = (dir.join("work"), dir.join("w.bin"));
    let mut args = vec!["train", "-q", "--work", work.to_str().unwrap()];
    args.extend(["--out", out.to_str().unwrap()]);
    args.extend(TINY);
    args.extend([
        "--play-depth",
        "2",
        "--search-depth",
        "0",
        "--outcome-weight",
        "1",
        "--l2-toward",
        "previous",
    ]);
    // The games of block 0 alone, as one machine of several would play them.
    let mut block = args.clone();
    block.extend(["--play-blocks", "0-0"]);
    let o = prune(&block);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("blocks 0-0"), "{}", stdout(&o));
    assert!(work.join("games-000000.txt").exists());
    assert!(!out.exists(), "--play-blocks only plays");
    let o = prune(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let first = std::fs::read(&out).unwrap();

    // Played again from nothing: the same weights.
    std::fs::remove_dir_all(&work).unwrap();
    let o = prune(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read(&out).unwrap(), first, "the games changed");
    let r = json(&[
        "eval-check",
        "--eval",
        out.to_str().unwrap(),
        "--eval",
        "hand",
        "--start-depth",
        "2",
        "--depth",
        "1",
        "--solved",
        "2",
        "--solved-empties",
        "9",
        "--json",
    ]);
    assert_eq!(r["start"].as_array().unwrap().len(), 2, "{r}");
    assert_eq!(r["suite"]["results"][1]["positions"], 20, "{r}");
    assert_eq!(r["solved"]["results"][0][0]["positions"], 2, "{r}");
}

/// `prune search` of Othello with `--eval EVAL`.
fn search(eval: &str) -> Vec<&str> {
    vec![
        "search", "--game", "othello", "--depth", "2", "--eval", eval,
    ]
}

#[test]
fn bad_weights_files_and_options_are_refused_with_the_reason() {
    let tmp = scratch("bad");
    let dir = tmp.path();
    let garbage = dir.join("garbage.bin");
    std::fs::write(&garbage, b"not weights at all, just some text").unwrap();
    let damaged = dir.join("damaged.bin");
    let mut bytes = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../othello/data/weights.bin"),
    )
    .unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x40;
    std::fs::write(&damaged, bytes).unwrap();
    let (garbage, damaged) = (garbage.to_str().unwrap(), damaged.to_str().unwrap());
    let (a, b, c) = (
        search(garbage),
        search(damaged),
        search("/no/such/file.bin"),
    );
    assert_usage_errors(&[
        (&a, "bad magic"),
        (&b, "corrupt"),
        (&c, "cannot be read"),
        (
            &["solve", "ffo-40-59", "--only", "40", "--eval", damaged],
            "checksum",
        ),
        (&["train", "--random-plies", "9-3"], "--random-plies"),
        (&["train", "--search-depth", "2"], "--search-depth"),
        (&["train", "--noise", "1.5"], "--noise"),
        (&["train", "--search-depth", "0"], "--play-depth"),
        (
            &["train", "--play-depth", "2", "--outcome-weight", "2"],
            "--outcome-weight",
        ),
        (
            &["train", "--play-depth", "2", "--player", "hand"],
            "--player hand",
        ),
        (
            &["train", "--play-depth", "2", "--play-blocks", "3-1"],
            "--play-blocks",
        ),
        (&["train", "--play-blocks", "0-1"], "needs --play-depth"),
        (&["train", "--l2-toward", "one"], "--l2-toward"),
        (
            &["train", "--opening-temperature", "1"],
            "needs --play-depth",
        ),
        (
            &["train", "--play-depth", "2", "--opening-temperature", "65"],
            "--opening-temperature",
        ),
        (&["train", "--base", "pattern"], "needs --refit-from"),
        (&["train", "--refit-from", "36"], "needs --base"),
        (
            &["train", "--base", "pattern", "--refit-from", "37"],
            "--refit-from 37",
        ),
        (
            &["train", "--base", "hand", "--refit-from", "36"],
            "--base hand",
        ),
        (&["train", "--bias", "none"], "--bias"),
        (
            &[
                "train",
                "--play-depth",
                "2",
                "--search-depth",
                "0",
                "--average-depths",
            ],
            "--average-depths",
        ),
        (&["eval-check", "--solved-empties", "10,x"], "'x'"),
        (&["eval-check", "--records-per", "0"], "--records-per"),
        (&["eval-check", "--records-empties", "25"], "'25'"),
        (&["eval-check", "--suite", "/no/such.obf"], "/no/such.obf"),
        (&["eval-check", "--eval", garbage], "bad magic"),
        (
            &["match", "--a", "full", "--b", "full", "--b-eval", garbage],
            "--b-eval",
        ),
    ]);
}

/// The WTHOR databases beside the repository (not copied into it).
fn wthor(name: &str) -> String {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data/wthor")
        .join(name)
        .to_str()
        .unwrap()
        .to_string()
}

#[test]
fn recorded_games_train_resume_in_blocks_and_bad_records_are_named() {
    let tmp = scratch("records");
    let dir = tmp.path();
    let (work, out) = (dir.join("work"), dir.join("w.bin"));
    let (a, b) = (wthor("WTH_1977.wtb"), wthor("WTH_1978.wtb"));
    let args = vec![
        "train",
        "-q",
        "--work",
        work.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--games",
        &a,
        &b,
        "--exact-empties",
        "12",
        "--search-depth",
        "4",
        "--outcome-weight",
        "0.5",
        "--outcome-fade",
        "24",
        "--epochs",
        "20",
        "--threads",
        "2",
    ];
    let o = prune(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let first = std::fs::read(&out).unwrap();
    // 12 + 8 games of 1977 and 1978 (the files' lengths: 16 + 68 per game), about 60
    // positions each, few shared.
    let positions = std::fs::read_to_string(work.join("positions.txt")).unwrap();
    let n = positions.lines().count();
    assert!((1000..=1200).contains(&n), "{n} positions");
    // The positions with 24 empties carry the games' theoretical scores as exact labels.
    let exact24 = positions
        .lines()
        .filter(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let discs = u64::from_str_radix(f[0], 16).unwrap().count_ones()
                + u64::from_str_radix(f[1], 16).unwrap().count_ones();
            discs == 40 && f[5] != "-"
        })
        .count();
    assert_eq!(exact24, 20);
    let settings = std::fs::read_to_string(work.join("settings.json")).unwrap();
    assert!(settings.contains("WTH_1977.wtb") && settings.contains("\"outcome_fade\": 24"));

    // As if interrupted inside phase 6's labels: its finished block stays, the rest is redone
    // and the weights come out the same.
    let phase6 = std::fs::read_to_string(work.join("labels-06.txt")).unwrap();
    for entry in std::fs::read_dir(&work).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        if name.starts_with("labels-") && name.as_str() >= "labels-06.txt" {
            std::fs::remove_file(path).unwrap();
        }
    }
    std::fs::write(work.join("labels-06-0000.part"), &phase6).unwrap();
    std::fs::remove_file(&out).unwrap();
    let o = prune(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        std::fs::read(&out).unwrap(),
        first,
        "resuming changed the weights"
    );
    assert!(!work.join("labels-06-0000.part").exists());
    // The finished block is read, not computed again: a block of other labels changes the
    // weights.
    std::fs::remove_file(work.join("labels-06.txt")).unwrap();
    let shifted: String = phase6
        .lines()
        .map(|l| format!("{}\n", l.parse::<f32>().unwrap() + 8.0))
        .collect();
    std::fs::write(work.join("labels-06-0000.part"), shifted).unwrap();
    let o = prune(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_ne!(
        std::fs::read(&out).unwrap(),
        first,
        "the saved block was not used"
    );

    // A damaged record: its file, game and move are named, and nothing is written.
    let mut bytes = std::fs::read(&a).unwrap();
    bytes[16 + 68 + 8 + 5] = 11; // game 2's sixth move: a1, not legal there
    let bad = dir.join("bad.wtb");
    std::fs::write(&bad, &bytes).unwrap();
    let o = prune(&[
        "train",
        "-q",
        "--work",
        dir.join("work-bad").to_str().unwrap(),
        "--games",
        bad.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("bad.wtb") && err.contains("game 2, move 6 (a1): not legal"),
        "{err}"
    );
    let truncated = dir.join("short.wtb");
    std::fs::write(&truncated, &bytes[..100]).unwrap();
    let o = prune(&["train", "--games", truncated.to_str().unwrap()]);
    let err = stderr(&o);
    assert!(
        err.contains("short.wtb") && err.contains("100 bytes"),
        "{err}"
    );
    assert_usage_errors(&[
        (
            &["train", "--games", &a, "--play-depth", "2"],
            "no game is played",
        ),
        (&["train", "--outcome-fade", "60"], "--outcome-fade 60"),
        (&["train", "--games", "0"], "--games"),
    ]);
}
