//! `prune lab wthor` on a small sample of ../shared/data/wthor: a row per number of empties,
//! finite errors, the trained weights closer to the exact scores than the hand-made evaluation,
//! and the same numbers whatever the number of jobs.

use prune_lab::{run_experiment, Cell, LabOptions, NoProgress, Report, Table};

/// Five positions at each of four numbers of empties, and a depth-2 search.
fn small(jobs: usize) -> LabOptions {
    LabOptions {
        jobs,
        per_set: Some(5),
        empties: Some(vec![24, 8, 14, 20]),
        depths: Some(2..=2),
        ..LabOptions::default()
    }
}

/// The numbers of a column of the long table for one evaluation and way of valuing, by
/// empties.
fn errors(report: &Report, eval: &str, valued_by: &str, column: &str) -> Vec<(u32, f64)> {
    let t = report.table("wthor-errors").unwrap();
    let col = |name: &str| t.columns.iter().position(|c| c == name).unwrap();
    t.rows
        .iter()
        .filter(|r| {
            r[col("evaluation")] == Cell::text(eval) && r[col("valued by")] == Cell::text(valued_by)
        })
        .map(|r| {
            (
                r[col("empties")].as_f64().unwrap() as u32,
                r[col(column)].as_f64().unwrap(),
            )
        })
        .collect()
}

/// The mean of a column over the numbers of empties.
fn mean(values: &[(u32, f64)]) -> f64 {
    values.iter().map(|v| v.1).sum::<f64>() / values.len() as f64
}

fn summary_rows(t: &Table) -> Vec<String> {
    t.rows
        .iter()
        .map(|r| match &r[0] {
            Cell::Count(n) => n.to_string(),
            Cell::Text(s) => s.clone(),
            other => panic!("{other:?}"),
        })
        .collect()
}

#[test]
fn wthor_measures_every_evaluation_by_empties() {
    let report = run_experiment("wthor", &small(2), &NoProgress).unwrap();
    for name in ["wthor-static", "wthor-depth-2"] {
        let t = report.table(name).unwrap();
        assert_eq!(t.columns[..2], ["empties", "positions"]);
        assert!(
            ["pattern", "gen1", "hand"]
                .iter()
                .all(|e| t.columns.iter().any(|c| c == e)),
            "{:?}",
            t.columns
        );
        assert_eq!(summary_rows(t), ["8", "14", "20", "24", "all"]);
        for row in &t.rows[..4] {
            assert_eq!(row[1], Cell::Count(5));
        }
        assert_eq!(t.rows[4][1], Cell::Count(20));
        assert!(report.plots.iter().any(|p| p.name == name));
    }
    for eval in ["pattern", "gen1", "hand"] {
        for valued_by in ["static", "depth 2"] {
            let mae = errors(&report, eval, valued_by, "mean absolute error");
            let bias = errors(&report, eval, valued_by, "mean error");
            assert_eq!(
                mae.iter().map(|v| v.0).collect::<Vec<_>>(),
                [8, 14, 20, 24],
                "{eval} {valued_by}"
            );
            for ((_, m), (_, b)) in mae.iter().zip(&bias) {
                assert!(m.is_finite() && b.is_finite() && *m >= b.abs(), "{m} {b}");
            }
            assert!(
                errors(&report, eval, valued_by, "positions")
                    .iter()
                    .all(|v| v.1 == 5.0),
                "{eval} {valued_by}"
            );
        }
    }
    // The hand-made evaluation errs more than the trained weights, statically and searched.
    for valued_by in ["static", "depth 2"] {
        let trained = mean(&errors(
            &report,
            "pattern",
            valued_by,
            "mean absolute error",
        ));
        let hand = mean(&errors(&report, "hand", valued_by, "mean absolute error"));
        assert!(
            hand > trained,
            "{valued_by}: hand {hand}, pattern {trained}"
        );
    }
    assert!(report.findings.iter().any(|f| f.contains("hand-made")));

    // The report folder: the tables as CSV, the plots as SVG.
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("report");
    let files = report.write(&dir).unwrap();
    for name in [
        "report.md",
        "report.json",
        "wthor-static.csv",
        "wthor-static.svg",
        "wthor-depth-2.svg",
        "wthor-errors.csv",
    ] {
        assert!(files.iter().any(|f| f.ends_with(name)), "{name}");
    }
    let md = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(md.contains("| 24 | 5 |"), "{md}");

    // The same numbers with one job, and a weights file given with --eval measures as gen1.
    let gen1 =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../othello/data/weights-gen1.bin");
    let one = run_experiment(
        "wthor",
        &LabOptions {
            evals: vec![gen1],
            ..small(1)
        },
        &NoProgress,
    )
    .unwrap();
    for eval in ["pattern", "gen1", "hand"] {
        for valued_by in ["static", "depth 2"] {
            assert_eq!(
                errors(&one, eval, valued_by, "mean absolute error"),
                errors(&report, eval, valued_by, "mean absolute error"),
                "{eval} {valued_by}"
            );
        }
    }
    assert_eq!(
        errors(&one, "weights-gen1", "static", "mean error"),
        errors(&one, "gen1", "static", "mean error")
    );
}

#[test]
fn wthor_refuses_bad_settings_naming_them() {
    let err = |o: LabOptions| {
        run_experiment("wthor", &o, &NoProgress)
            .unwrap_err()
            .to_string()
    };
    let e = err(LabOptions {
        data: Some("/no/such/wthor".into()),
        ..LabOptions::default()
    });
    assert!(e.contains("/no/such/wthor"), "{e}");
    let e = err(LabOptions {
        empties: Some(vec![23]),
        ..LabOptions::default()
    });
    assert!(e.contains("--empties 23"), "{e}");
    let e = err(LabOptions {
        per_set: Some(0),
        ..LabOptions::default()
    });
    assert!(e.contains("--positions 0"), "{e}");
    let e = err(LabOptions {
        positions: Some(prune_lab::load_positions("ffo-40-59").unwrap()),
        ..LabOptions::default()
    });
    assert!(e.contains("takes a count"), "{e}");
    let e = err(LabOptions {
        evals: vec!["/no/such/weights.bin".into()],
        ..LabOptions::default()
    });
    assert!(e.contains("/no/such/weights.bin"), "{e}");
    let e = run_experiment(
        "nodes",
        &LabOptions {
            empties: Some(vec![8]),
            ..LabOptions::default()
        },
        &NoProgress,
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("--empties does not apply"), "{e}");
}
