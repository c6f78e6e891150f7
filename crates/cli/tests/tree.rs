//! `prune tree`: the drawn tree has the search's node counts, the Knuth–Moore leaves on a
//! perfectly ordered tree, well-formed SVG, and bad options are refused with a clear message.

mod common;

use common::{assert_usage_errors, json, prune, stderr, stdout};

/// Runs `prune tree ARGS --format svg` and returns how many nodes the SVG draws.
fn svg_nodes(args: &[&str]) -> usize {
    let mut all = vec!["tree", "--format", "svg"];
    all.extend_from_slice(args);
    let o = prune(&all);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    let svg = stdout(&o);
    let doc = roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("{args:?}: {e}"));
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    // One box or ellipse per node, and the background.
    doc.descendants()
        .filter(|n| n.has_tag_name("rect") || n.has_tag_name("ellipse"))
        .count()
        - 1
}

#[test]
fn drawn_nodes_are_the_search_statistics() {
    let cases: &[&[&str]] = &[
        &[
            "--game",
            "uniform:width=3,depth=3",
            "--algorithm",
            "alphabeta",
        ],
        &[
            "--game",
            "uniform:width=3,depth=4,order=random,seed=4",
            "-a",
            "negascout",
        ],
        &[
            "--game",
            "uniform:width=2,depth=5,order=random",
            "-a",
            "scout",
        ],
        &[
            "--game",
            "uniform:width=3,depth=3,order=random",
            "-a",
            "mtdf",
        ],
        &[
            "--game",
            "tictactoe",
            "--position",
            "XO./.X./O..",
            "-a",
            "minimax",
        ],
        &[
            "--game",
            "tictactoe",
            "--position",
            "XO./.X./O..",
            "--preset",
            "full",
            "-a",
            "negascout",
        ],
        &[
            "--game",
            "othello",
            "--depth",
            "2",
            "-a",
            "alphabeta",
            "--eval",
            "hand",
        ],
    ];
    for args in cases {
        let mut search = vec!["search", "--json", "--threads", "1"];
        search.extend_from_slice(args);
        let stats = &json(&search)["stats"];
        let nodes = stats["nodes"].as_u64().unwrap() as usize;
        assert_eq!(svg_nodes(args), nodes, "{args:?}");
        // The text form says the same.
        let mut text = vec!["tree"];
        text.extend_from_slice(args);
        let o = prune(&text);
        let expected = format!("{nodes} nodes, {} leaves", stats["leaves"]);
        assert!(stdout(&o).contains(&expected), "{args:?}: {}", stdout(&o));
    }
}

#[test]
fn perfect_ordering_visits_the_knuth_moore_leaves_and_marks_the_rest_pruned() {
    for (w, d) in [(3u64, 3u32), (2, 4), (4, 2)] {
        let game = format!("uniform:width={w},depth={d},order=perfect");
        let o = prune(&["tree", "--game", &game, "-a", "alphabeta"]);
        assert!(o.status.success(), "{}", stderr(&o));
        let text = stdout(&o);
        // Knuth and Moore (1975): w^ceil(d/2) + w^floor(d/2) - 1 leaves.
        let minimal = w.pow(d.div_ceil(2)) + w.pow(d / 2) - 1;
        let leaves = text.lines().filter(|l| l.contains("  end")).count() as u64;
        assert_eq!(leaves, minimal, "{game}:\n{text}");
        let pruned = text.lines().filter(|l| l.ends_with("✕ pruned")).count();
        assert!(pruned > 0, "{game}");
        assert!(text.contains(&format!("{minimal} leaves, {pruned} moves pruned")));
        // Minimax draws every leaf and prunes nothing.
        let o = prune(&["tree", "--game", &game, "--compare", "alphabeta,minimax"]);
        let both = stdout(&o);
        assert!(
            both.contains(&format!("{} leaves, 0 moves pruned", w.pow(d))),
            "{both}"
        );
    }
}

#[test]
fn writes_the_file_in_the_format_of_its_extension() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    for (name, starts) in [
        ("t.svg", "<svg"),
        ("t.dot", "digraph"),
        ("t.txt", "alphabeta"),
    ] {
        let path = dir.join(name);
        let o = prune(&[
            "tree",
            "--game",
            "uniform:width=3,depth=3",
            "--out",
            path.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(stderr(&o).contains("wrote"));
        let written = std::fs::read_to_string(&path).unwrap();
        assert!(written.starts_with(starts), "{name}: {written}");
    }
}

#[test]
fn bad_options_are_refused() {
    assert_usage_errors(&[
        (&["tree", "--game", "chess"], "--game"),
        (
            &[
                "tree",
                "--game",
                "uniform:width=3,depth=3",
                "--format",
                "png",
            ],
            "unknown format 'png'",
        ),
        (
            &[
                "tree",
                "--game",
                "uniform:width=3,depth=3",
                "--out",
                "x.png",
            ],
            "'.png'",
        ),
        (
            &["tree", "--game", "uniform:width=3,depth=3", "--depth", "0"],
            "at least 1",
        ),
        (
            &[
                "tree",
                "--game",
                "uniform:width=3,depth=3",
                "--passes",
                "some",
            ],
            "--passes",
        ),
        (
            &[
                "tree",
                "--game",
                "uniform:width=3,depth=3",
                "--compare",
                "alphabeta",
            ],
            "at least two",
        ),
        (
            &[
                "tree",
                "--game",
                "uniform:width=3,depth=3",
                "--compare",
                "alphabeta,bogus",
            ],
            "bogus",
        ),
        (
            &[
                "tree",
                "--game",
                "uniform:width=3,depth=3",
                "-a",
                "mtdf",
                "--tt",
                "0",
            ],
            "size",
        ),
        (
            &[
                "tree",
                "--game",
                "uniform:width=3,depth=3",
                "--position",
                "x",
            ],
            "--position",
        ),
        (
            &["tree", "--game", "othello", "--position", "xyz"],
            "--position",
        ),
        (
            &["tree", "--game", "tictactoe", "-a", "minimax"],
            "--max-nodes 500",
        ),
        (
            &["tree", "--game", "othello", "--eval", "nofile.bin"],
            "nofile.bin",
        ),
    ]);
    // The limit can be raised.
    let o = prune(&[
        "tree",
        "--game",
        "tictactoe",
        "--max-nodes",
        "1000000",
        "--passes",
        "last",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn the_picture_of_docs_commands_is_what_the_command_draws() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/tree/alphabeta-vs-minimax.svg"
    );
    let committed = std::fs::read_to_string(path).expect("docs/commands.md's picture");
    let o = prune(&[
        "tree",
        "--game",
        "uniform:width=3,depth=3,order=random,seed=2",
        "--compare",
        "alphabeta,minimax",
        "--format",
        "svg",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o) == committed,
        "docs/tree/alphabeta-vs-minimax.svg is stale: regenerate it with the command in docs/commands.md"
    );
}

#[test]
fn the_text_example_of_docs_commands_is_what_the_command_prints() {
    // The block shows values and windows from MAX's view, bounds, a cutoff and a re-search.
    // Its window arithmetic was checked by hand when it was written (the null window (-3, -2)
    // failing low for MAX, hence high for MIN, and the re-search on (-inf, -9)); this keeps it
    // what the command prints.
    let readme = include_str!("../../../docs/commands.md");
    let command = "$ cargo run --release -- tree --game uniform:width=2,depth=3,order=random,seed=5 -a negascout\n";
    let start = readme
        .find(command)
        .expect("docs/commands.md's text example")
        + command.len();
    let block = &readme[start..start + readme[start..].find("```").expect("its end")];
    let o = prune(&[
        "tree",
        "--game",
        "uniform:width=2,depth=3,order=random,seed=5",
        "-a",
        "negascout",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).trim_end(), block.trim_end());
    for expected in [
        "MIN ≤-17  (-9, -8)  α cutoff: -17 ≤ α = -9",
        "MAX ≥-9*  (-inf, -9)  re-search",
        "MAX ≤-9  (-3, -2)",
    ] {
        assert!(block.contains(expected), "{expected}");
    }
}

/// `prune tree ... | head`: when the reader of its output goes away, prune stops quietly (the
/// status a shell reports for a closed pipe), with no panic message.
#[test]
fn a_closed_output_pipe_ends_the_program_quietly() {
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_prune"))
        .args([
            "tree",
            "--game",
            "uniform:width=4,depth=6",
            "--algorithm",
            "minimax",
            "--format",
            "text",
            "--max-nodes",
            "100000",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the prune binary runs");
    // Close the reading end at once: the picture (5,461 nodes, well over a pipe's 64 KiB
    // buffer) cannot all be written.
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("prune ends");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(out.status.code(), Some(141), "{stderr}");
}
