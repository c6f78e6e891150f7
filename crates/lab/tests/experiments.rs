//! Every experiment on tiny settings: the report folder's structure, deterministic counts
//! (whatever the number of jobs), and the published facts the experiments reproduce.

use std::collections::BTreeMap;

use prune_lab::{load_positions, run_experiment, Cell, LabOptions, NoProgress, Report};

/// The first `n` FFO positions (#40 has 20 empties: shallow searches are quick).
fn ffo(n: usize) -> prune_lab::PositionSet {
    let mut set = load_positions("ffo-40-59").unwrap();
    set.positions.truncate(n);
    set
}

/// `n` positions of 14 empties: FFO #40, #41, ... after their first legal moves (quick to
/// solve exactly).
fn endgames(n: usize) -> prune_lab::PositionSet {
    let mut set = ffo(n);
    for p in &mut set.positions {
        while p.position.empty_count() > 14 {
            let moves = prune_search::Game::legal_moves(&p.position);
            p.position = prune_search::Game::play(&p.position, moves[0]);
        }
    }
    set
}

/// The node limit of the tiny connect4 runs: plain negamax reaches it on every position of
/// the opening sets.
const CONNECT4_LIMIT: u64 = 20_000;

fn tiny(experiment: &str, jobs: usize) -> LabOptions {
    let mut o = LabOptions {
        jobs,
        ..LabOptions::default()
    };
    match experiment {
        "nodes" | "algorithms" => {
            o.positions = Some(ffo(2));
            o.depths = Some(2..=3);
        }
        "ablation" => {
            o.positions = Some(ffo(2));
            o.depths = Some(3..=3);
        }
        "killers" => {
            o.depths = Some(2..=2);
            o.games = Some(2);
            o.slots = Some(vec![1, 4]);
        }
        "minimal-tree" => {
            o.depths = Some(2..=4);
            o.width = Some(3);
            o.trees = Some(2);
        }
        "parallel" => {
            o.positions = Some(endgames(3));
            o.depths = Some(3..=3);
            o.threads_max = Some(2);
        }
        "connect4" => {
            // Pons's five sets from ../shared/data/connect4 (found from the crate's folder).
            o.per_set = Some(5);
            o.node_limit = Some(Some(CONNECT4_LIMIT));
        }
        "probcut" => {
            o.positions = Some(ffo(2));
            o.depths = Some(3..=4);
            o.fit_games = Some(12);
            o.games = Some(2);
            o.time_per_move = Some(2);
        }
        "mcts-vs-alphabeta" => {
            // One game per pairing at 1 ms per move; solves of 20 ms.
            o.games = Some(1);
            o.time_per_move = Some(1);
        }
        "proof-number" => {
            // 5,000 nodes per solve.
            o.node_limit = Some(Some(5_000));
        }
        "shogi-killers" => {
            // One self-play game's three positions, depth 3.
            o.depths = Some(3..=3);
            o.games = Some(3);
            o.slots = Some(vec![0, 2]);
        }
        "selective" => {
            // One self-play game's three positions, depth 3.
            o.depths = Some(3..=3);
            o.games = Some(3);
        }
        "wthor" => {
            // Three positions at three numbers of empties from ../shared/data/wthor, depth 2.
            o.per_set = Some(3);
            o.empties = Some(vec![6, 12, 24]);
            o.depths = Some(2..=2);
        }
        other => panic!("no tiny settings for {other}"),
    }
    o
}

/// A fresh temporary folder for one test, removed when it is dropped (also when the test
/// fails).
fn scratch(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("prune-lab-{name}-"))
        .tempdir()
        .unwrap()
}

/// Every count column of every table (times left out), to compare runs.
fn counts(report: &Report) -> BTreeMap<String, Vec<Vec<Cell>>> {
    report
        .tables
        .iter()
        .filter(|t| !t.name.contains("time"))
        .map(|t| {
            let keep: Vec<usize> = (0..t.columns.len())
                .filter(|&i| !t.columns[i].contains("time") && !t.columns[i].contains("second"))
                .collect();
            let rows = t
                .rows
                .iter()
                .map(|r| keep.iter().map(|&i| r[i].clone()).collect())
                .collect();
            (t.name.clone(), rows)
        })
        .collect()
}

#[test]
fn every_experiment_writes_a_complete_report() {
    for info in prune_lab::EXPERIMENTS {
        let report = run_experiment(info.name, &tiny(info.name, 2), &NoProgress).unwrap();
        let tmp = scratch(info.name);
        let dir = tmp.path().join("report");
        let files = report.write(&dir).unwrap();
        let names: Vec<String> = files
            .iter()
            .map(|f| f.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert!(names.contains(&"report.md".to_string()), "{names:?}");
        assert!(names.contains(&"report.json".to_string()), "{names:?}");
        assert!(names.iter().any(|n| n.ends_with(".csv")), "{names:?}");
        assert!(names.iter().any(|n| n.ends_with(".svg")), "{names:?}");

        let md = std::fs::read_to_string(dir.join("report.md")).unwrap();
        assert!(md.starts_with(&format!("# {}", report.title)), "{md}");
        for plot in &report.plots {
            assert!(
                md.contains(&format!("({}.svg)", plot.name)),
                "{}",
                plot.name
            );
            let svg = std::fs::read_to_string(dir.join(format!("{}.svg", plot.name))).unwrap();
            let doc = roxmltree::Document::parse(&svg).expect("well-formed SVG");
            assert_eq!(doc.root_element().tag_name().name(), "svg");
            for series in &plot.series {
                assert!(
                    svg.contains(&series.label.replace('&', "&amp;")),
                    "{}",
                    series.label
                );
            }
        }

        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap())
                .unwrap();
        assert_eq!(json["experiment"], info.name);
        for table in &report.tables {
            let csv = std::fs::read_to_string(dir.join(format!("{}.csv", table.name))).unwrap();
            let lines: Vec<&str> = csv.lines().collect();
            assert_eq!(lines.len(), table.rows.len() + 1, "{}", table.name);
            assert_eq!(lines[0], table.columns.join(","), "{}", table.name);
            assert!(!table.rows.is_empty(), "{} is empty", table.name);
            let rows = json["tables"][&table.name]["rows"].as_array().unwrap();
            assert_eq!(rows.len(), table.rows.len(), "{}", table.name);
            for (col, cell) in table.columns.iter().zip(&table.rows[0]) {
                if let Some(v) = cell.as_f64() {
                    let stored = rows[0][col].as_f64().unwrap();
                    assert!((stored - v).abs() <= 1e-9 * v.abs().max(1.0), "{col}");
                }
            }
            if table.in_markdown {
                assert!(md.contains(&table.title), "{}", table.title);
            }
        }
    }
}

#[test]
fn node_counts_do_not_depend_on_jobs_or_on_the_run() {
    for name in [
        "nodes",
        "killers",
        "ablation",
        "minimal-tree",
        "algorithms",
        "connect4",
        "shogi-killers",
        "selective",
    ] {
        let one = run_experiment(name, &tiny(name, 1), &NoProgress).unwrap();
        let three = run_experiment(name, &tiny(name, 3), &NoProgress).unwrap();
        let again = run_experiment(name, &tiny(name, 3), &NoProgress).unwrap();
        assert_eq!(counts(&one), counts(&three), "{name}: jobs changed a count");
        assert_eq!(
            counts(&three),
            counts(&again),
            "{name}: a second run changed a count"
        );
    }
}

fn column(report: &Report, table: &str, col: &str) -> Vec<Cell> {
    let t = report.table(table).unwrap();
    let i = t.columns.iter().position(|c| c == col).unwrap();
    t.rows.iter().map(|r| r[i].clone()).collect()
}

/// Knuth & Moore (1975): perfect ordering gives exactly w^ceil(d/2) + w^floor(d/2) - 1 leaves
/// for alpha-beta and NegaScout; the worst gives all w^d for alpha-beta.
#[test]
fn minimal_tree_reproduces_knuth_and_moore() {
    let report = run_experiment("minimal-tree", &tiny("minimal-tree", 2), &NoProgress).unwrap();
    let t = report.table("minimal-tree").unwrap();
    let col = |name: &str| t.columns.iter().position(|c| c == name).unwrap();
    let mut checked = 0;
    for row in &t.rows {
        let text = |i: usize| match &row[i] {
            Cell::Text(s) => s.clone(),
            other => panic!("{other:?}"),
        };
        let depth = row[col("depth")].as_f64().unwrap() as u32;
        let leaves = row[col("leaves")].as_f64().unwrap();
        let expected_minimal =
            3f64.powi(depth.div_ceil(2) as i32) + 3f64.powi((depth / 2) as i32) - 1.0;
        assert_eq!(row[col("minimal tree")].as_f64(), Some(expected_minimal));
        let (algorithm, ordering) = (text(col("algorithm")), text(col("ordering")));
        if ordering == "perfect" && algorithm != "mtdf" {
            assert_eq!(leaves, expected_minimal, "{algorithm} depth {depth}");
            checked += 1;
        }
        if ordering == "worst" && algorithm == "alphabeta" {
            assert_eq!(leaves, 3f64.powi(depth as i32), "depth {depth}");
            checked += 1;
        }
        // No ordering beats the minimal tree.
        assert!(
            leaves >= expected_minimal,
            "{algorithm} {ordering} depth {depth}"
        );
    }
    assert_eq!(checked, 3 * 3);
    assert!(report
        .findings
        .iter()
        .any(|f| f.starts_with("Every search returned the tree's true value")));
}

/// Without a table every algorithm finds the minimax value: the `algorithms` experiment
/// checks each against minimax, and `nodes` each against the others.
#[test]
fn algorithms_agree_with_minimax() {
    let report = run_experiment("algorithms", &tiny("algorithms", 2), &NoProgress).unwrap();
    let same = column(&report, "algorithms", "same value as minimax");
    assert_eq!(same.len(), 2 * 7);
    assert!(same.iter().all(|c| c == &Cell::text("2/2")), "{same:?}");
    let nodes = run_experiment("nodes", &tiny("nodes", 2), &NoProgress).unwrap();
    assert!(
        nodes
            .findings
            .iter()
            .any(|f| f.contains("Preset plain") && f.contains("same value in 4 of 4")),
        "{:?}",
        nodes.findings
    );
}

#[test]
fn killer_games_are_played_to_the_end() {
    let report = run_experiment("killers", &tiny("killers", 2), &NoProgress).unwrap();
    let configs = column(&report, "killers-summary", "configuration");
    assert_eq!(
        configs,
        ["baseline", "1 slots", "4 slots"].map(Cell::text).to_vec()
    );
    let saved = column(&report, "killers-summary", "nodes saved (%)");
    assert_eq!(saved[0].as_f64(), Some(0.0));
    for moves in column(&report, "killers-games", "moves") {
        // The shortest possible game of Othello has 9 moves: at least 5 after the opening.
        assert!(moves.as_f64().unwrap() >= 5.0, "{moves:?}");
    }
    assert_eq!(column(&report, "killers-games", "moves").len(), 3 * 2);

    // Games from the user's positions instead of the built-in openings.
    let mut options = tiny("killers", 1);
    options.positions = Some(ffo(3));
    options.games = Some(2);
    let report = run_experiment("killers", &options, &NoProgress).unwrap();
    assert_eq!(
        column(&report, "killers-openings", "opening"),
        [Cell::text("#40"), Cell::text("#41")]
    );
}

/// Exact solves on 2 threads give one thread's scores, with every scheme.
#[test]
fn parallel_solves_keep_the_scores() {
    let report = run_experiment("parallel", &tiny("parallel", 1), &NoProgress).unwrap();
    let parts = column(&report, "parallel", "part");
    let same = column(&report, "parallel", "same scores as 1 thread");
    let threads = column(&report, "parallel", "threads");
    let mut solves = 0;
    for ((part, same), threads) in parts.iter().zip(&same).zip(&threads) {
        if part == &Cell::text("exact solve") {
            assert_eq!(same, &Cell::text("3/3"));
            solves += 1;
        }
        assert!(threads.as_f64().unwrap() <= 2.0);
    }
    assert_eq!(solves, 1 + 3, "one sequential line and three schemes");
}

#[test]
fn bad_settings_are_refused_with_a_reason() {
    let err = |name: &str, o: LabOptions| run_experiment(name, &o, &NoProgress).unwrap_err();
    let e = err(
        "minimal-tree",
        LabOptions {
            width: Some(10),
            depths: Some(2..=9),
            ..LabOptions::default()
        },
    );
    assert!(e.to_string().contains("leaves"), "{e}");
    let e = err(
        "nodes",
        LabOptions {
            presets: vec!["fastest".into()],
            ..LabOptions::default()
        },
    );
    assert!(e.to_string().contains("fastest"), "{e}");
    let e = err(
        "killers",
        LabOptions {
            slots: Some(vec![0]),
            ..LabOptions::default()
        },
    );
    assert!(e.to_string().contains("--slots"), "{e}");
    let e = err(
        "killers",
        LabOptions {
            presets: vec!["killers".into()],
            ..LabOptions::default()
        },
    );
    assert!(e.to_string().contains("already has killers"), "{e}");
    for (o, expected) in [
        (
            LabOptions {
                slots: Some(vec![2, 100]),
                ..LabOptions::default()
            },
            "--slots 100",
        ),
        (
            LabOptions {
                games: Some(0),
                ..LabOptions::default()
            },
            "--games",
        ),
    ] {
        let e = err("shogi-killers", o);
        assert!(e.to_string().contains(expected), "{e}");
    }
    let e = err(
        "ablation",
        LabOptions {
            depths: Some(0..=2),
            ..LabOptions::default()
        },
    );
    assert!(e.to_string().contains("--depths"), "{e}");
}

/// Pons's sets: every step on five positions of each, the slow steps cut off by the node
/// limit and reported as capped (lower bounds), every finished score the file's.
#[test]
fn connect4_caps_slow_steps_and_checks_every_score() {
    let report = run_experiment("connect4", &tiny("connect4", 2), &NoProgress).unwrap();
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    assert!(report.table("connect4-wrong").is_none());
    assert!(
        report.findings[0].starts_with("Every finished solve scored what the file says"),
        "{:?}",
        report.findings
    );
    let steps: Vec<Cell> = prune_connect4::Step::ALL
        .iter()
        .map(|s| Cell::text(s.to_string()))
        .collect();
    for name in ["connect4-nodes", "connect4-time", "connect4-capped"] {
        let t = report.table(name).unwrap();
        assert_eq!(
            t.columns,
            [
                "step",
                "adds",
                "End-Easy",
                "Middle-Easy",
                "Middle-Medium",
                "Begin-Easy",
                "Begin-Medium"
            ],
            "{name}"
        );
        assert_eq!(column(&report, name, "step"), steps, "{name}");
    }
    // Plain negamax cannot finish an opening position in 20,000 nodes: all five capped, and
    // the means shown as lower bounds.
    let capped = column(&report, "connect4-capped", "Begin-Medium");
    assert_eq!(capped[0].as_f64(), Some(5.0));
    let nodes = column(&report, "connect4-nodes", "Begin-Medium");
    assert!(matches!(nodes[0], Cell::AtLeast(_)), "{:?}", nodes[0]);
    assert!(nodes[0].as_f64().unwrap() >= CONNECT4_LIMIT as f64);
    assert!(report
        .findings
        .iter()
        .any(|f| f.starts_with("Capped: step negamax") && f.contains("Begin-Medium 5 of 5")));
    // The full solver finishes the end-game positions: no bound there.
    let last = steps.len() - 1;
    assert_eq!(
        column(&report, "connect4-capped", "End-Easy")[last].as_f64(),
        Some(0.0)
    );
    assert!(matches!(
        column(&report, "connect4-nodes", "End-Easy")[last],
        Cell::Count(_)
    ));

    // Every (set, step): solved + capped = positions, no wrong score, bounds where capped.
    let t = report.table("connect4-runs").unwrap();
    assert_eq!(t.rows.len(), 5 * steps.len());
    let col = |name: &str| t.columns.iter().position(|c| c == name).unwrap();
    let mut solved_total = 0.0;
    for row in &t.rows {
        let n = |name: &str| row[col(name)].as_f64().unwrap();
        assert_eq!(n("positions"), 5.0);
        assert_eq!(n("solved") + n("capped"), 5.0, "{row:?}");
        assert_eq!(n("wrong scores"), 0.0, "{row:?}");
        // A capped solve stops within a few nodes of the limit (plain negamax's children
        // count themselves before they see it).
        assert!(n("max nodes") <= CONNECT4_LIMIT as f64 + 500.0, "{row:?}");
        let bounded = row[col("means are lower bounds")] == Cell::text("yes");
        assert_eq!(bounded, n("capped") > 0.0, "{row:?}");
        solved_total += n("solved");
    }
    assert!(solved_total > 0.0);
    let md = report.to_markdown();
    assert!(md.contains("| negamax | plain negamax | "), "{md}");
    assert!(md.contains("≥ "), "{md}");
    assert!(md.contains("published"), "{md}");
}

/// A score that differs from the file's is a problem at the top of the report, with a table
/// naming the position.
#[test]
fn connect4_reports_a_wrong_score_loudly() {
    let data =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/connect4");
    let text = std::fs::read_to_string(data.join("Test_L3_R1")).unwrap();
    let mut lines: Vec<String> = text.lines().take(3).map(String::from).collect();
    // Change the second position's score to another valid one.
    let (moves, score) = lines[1].split_once(' ').unwrap();
    let score: i32 = score.trim().parse().unwrap();
    let wrong = if score == 0 { -1 } else { -score };
    lines[1] = format!("{moves} {wrong}");
    let tmp = scratch("connect4-wrong");
    let dir = tmp.path();
    std::fs::write(dir.join("Test_L3_R1"), lines.join("\n") + "\n").unwrap();
    let options = LabOptions {
        sets: Some(vec!["end-easy".into()]),
        data: Some(dir.to_path_buf()),
        node_limit: Some(None),
        ..LabOptions::default()
    };
    let report = run_experiment("connect4", &options, &NoProgress).unwrap();
    let steps = prune_connect4::Step::ALL.len();
    assert_eq!(report.problems.len(), steps, "{:?}", report.problems);
    assert!(report.problems[0].contains("WRONG SCORES: step negamax on End-Easy"));
    assert!(report.problems[0].contains(&format!("scored {score} instead of {wrong}")));
    assert!(report.findings[0].starts_with("WRONG SCORES"));
    let t = report.table("connect4-wrong").unwrap();
    assert_eq!(t.rows.len(), steps);
    assert_eq!(t.rows[0][2], Cell::Count(2));
    let md = report.to_markdown();
    assert!(md.find("## Problems").unwrap() < md.find("## Settings").unwrap());
    assert!(md.contains("WRONG SCORES: finished solves"), "{md}");

    // A folder without the sets: an error that says how to give one.
    let options = LabOptions {
        data: Some(dir.join("nowhere")),
        ..LabOptions::default()
    };
    let e = run_experiment("connect4", &options, &NoProgress).unwrap_err();
    assert!(e.to_string().contains("nowhere"), "{e}");
}

#[test]
fn connect4_takes_a_count_of_positions_and_the_othello_experiments_a_file() {
    let err = |name: &str, o: LabOptions| {
        run_experiment(name, &o, &NoProgress)
            .unwrap_err()
            .to_string()
    };
    let e = err(
        "nodes",
        LabOptions {
            per_set: Some(20),
            ..LabOptions::default()
        },
    );
    assert!(e.contains("applies to experiment connect4"), "{e}");
    let e = err(
        "connect4",
        LabOptions {
            positions: Some(ffo(2)),
            ..LabOptions::default()
        },
    );
    assert!(e.contains("takes a count"), "{e}");
    let e = err(
        "connect4",
        LabOptions {
            depths: Some(2..=3),
            ..LabOptions::default()
        },
    );
    assert!(e.contains("--node-limit"), "{e}");
    let e = err(
        "connect4",
        LabOptions {
            sets: Some(vec!["begin-hard".into()]),
            ..LabOptions::default()
        },
    );
    assert!(e.contains("unknown set 'begin-hard'"), "{e}");
}
