//! The mate solver against facts: the tsume suites in `../shared/data/tsume/` (beside the
//! repository, not copied into it; its README gives the sources and what cshogi checked).
//!
//! - sugyan's and antma's library test positions: every mate found, its line legal with a
//!   check at every attacker move and a checkmate at the end, of the length the source states
//!   or, where the source counts by the tsume convention (futile interpositions ignored) and
//!   strict rules give the defender more, of the strict length cshogi's `DfPn` reports in the
//!   README; the no-mate rows without a mate; the row where the attacker starts in check
//!   refused.
//! - The shortest mate checked against a brute-force oracle (every check, every reply, no
//!   table) on the short problems: a mate within the length found, none two plies shorter.
//! - The Edo collections' easier problems (Zuko and Musou): mates found and lines checked.
//! - The tsume convention ([`MateRules::Tsume`]): antma's rows solved with the lengths the
//!   source states (it counts by the convention), sugyan's no longer than strictly, and the
//!   Edo sources' 200 lines all mates by it, the 7 that end before a futile drop (flagged by
//!   the source and the suite's README) mates by it alone; two Zuko problems whose strict
//!   mates are longer by futile drops in the middle solved with the source's lengths.
//! - Searches that once went round until the limits, each within a node budget it met only
//!   once mended: numbers grown to the cap, a child called again unchanged (two ways), and
//!   searches of different depths sharing one entry.

use std::path::PathBuf;

use prune_shogi::mate::{
    check_line, check_mating_line, solve_and_audit, solve_mate, MateConfig, MateError, MateOutcome,
    MateRules,
};
use prune_shogi::{Color, Kind, Move, Position};

/// One row of a suite: id, SFEN, the source's plies (0: no mate).
struct Row {
    id: String,
    sfen: String,
    plies: usize,
    /// The source's line (USI moves), `-` or `nomate` without one.
    solution: String,
}

fn suite(name: &str) -> Vec<Row> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data/tsume")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            assert_eq!(f.len(), 4, "{line}");
            Row {
                id: f[0].to_string(),
                sfen: f[1].to_string(),
                plies: f[2].parse().unwrap(),
                solution: f[3].to_string(),
            }
        })
        .collect()
}

/// The rows of suite `name` with the given ids, in the suite's order (all of them found).
fn rows(name: &str, ids: &[&str]) -> Vec<Row> {
    let rows: Vec<Row> = suite(name)
        .into_iter()
        .filter(|r| ids.contains(&r.id.as_str()))
        .collect();
    assert_eq!(rows.len(), ids.len(), "{name}: {ids:?}");
    rows
}

impl Row {
    /// The start position.
    fn position(&self) -> Position {
        self.sfen.parse().unwrap()
    }

    /// The source's line as moves from the start.
    fn line(&self) -> Vec<Move> {
        let mut p = self.position();
        self.solution
            .split(' ')
            .map(|text| {
                let mv = p.parse_move(text).unwrap();
                p = p.play(mv);
                mv
            })
            .collect()
    }
}

/// Panics unless `line` mates from `position` (legal moves, a check at every attacker move,
/// a checkmate at the end).
fn assert_mating_line(id: &str, position: &Position, line: &[Move]) {
    if let Err(e) = check_mating_line(position, line) {
        panic!("{id}: {e}");
    }
}

/// The rows whose strict-rule length differs from the length the source states (which
/// ignores futile interpositions, or, for `readme-01`, is one line and not the defender's
/// best). The lengths: cshogi's `DfPn` proves each at that depth in the suite's README, except
/// `tsume1-03`, which it proves at depth 7 with a 15-ply line, and `tsume1-05`, at depth 9 with
/// a 15-ply line (its depth is not plies); for those two the brute-force oracle below settles
/// it: a mate within 13 and none within 11, a mate within 15 and none within 13.
const STRICT: [(&str, usize); 10] = [
    ("tsume1-03", 13),
    ("tsume1-05", 15),
    ("tsume1_futile_drops-01", 3),
    ("tsume1_futile_drops-02", 3),
    ("tsume1_futile_drops-03", 3),
    ("tsume3-19", 5),
    ("tsume5-03", 7),
    ("tsume5-06", 7),
    ("readme-01", 9),
    // antma's "no mate in 1": a mate in 3 (DfPn's at depth 3 in the README).
    ("no_tsume1-01", 3),
];

#[test]
fn the_library_suites_are_solved_with_their_strict_lengths() {
    let splits = library_suites_by_strict_rules(&MateConfig::default());
    assert_eq!(splits, 0, "one thread by default");
}

/// The same with the searches that shorten each mate shared out among threads from their
/// first node: every shortening search goes through the split, and the lengths and lines
/// must be the same facts.
#[test]
fn the_shortening_searches_shared_out_among_threads_give_the_same_lengths() {
    let splits = library_suites_by_strict_rules(&MateConfig {
        threads: 3,
        split_after: 0,
        ..MateConfig::default()
    });
    assert!(splits >= 50, "the searches were shared out {splits} times");
}

/// Solves sugyan's and antma's rows by the strict rules with `config` and checks each
/// verdict, length and line against the suites' (see [`STRICT`]). Returns the times their
/// searches were shared out among threads.
fn library_suites_by_strict_rules(config: &MateConfig) -> u64 {
    let mut solved = 0;
    let mut splits = 0;
    for name in ["sugyan.tsv", "antma.tsv"] {
        for row in suite(name) {
            let p: Position = row
                .sfen
                .parse()
                .unwrap_or_else(|e| panic!("{}: {e}", row.id));
            let result = solve_mate(&p, config, None);
            if row.id == "tsume1_futile_drops-nomate-01" {
                // The attacker starts in check (the README says so).
                assert_eq!(result.unwrap_err(), MateError::AttackerInCheck);
                continue;
            }
            let report = result.unwrap_or_else(|e| panic!("{}: {e}", row.id));
            splits += report.splits;
            let expected = STRICT
                .iter()
                .find(|(id, _)| *id == row.id)
                .map_or(row.plies, |&(_, plies)| plies);
            if expected == 0 {
                assert_eq!(report.outcome, MateOutcome::NoMate, "{}", row.id);
                continue;
            }
            assert_eq!(report.outcome, MateOutcome::Mate, "{}", row.id);
            assert!(report.shortest, "{}: not shown shortest", row.id);
            assert_mating_line(&row.id, &p, &report.line);
            assert_eq!(report.plies, expected, "{}: {:?}", row.id, report.line);
            assert_eq!(report.line.len(), expected, "{}", row.id);
            solved += 1;
        }
    }
    assert_eq!(solved, 36 + 67 + 1, "every mate of the two suites");
    splits
}

/// Whether the side to move in `p` (the attacker) mates within `plies` (odd), by trying every
/// check and every reply: the oracle, with no table and no proof numbers.
fn mates_within(p: &Position, plies: usize) -> bool {
    if plies == 0 {
        return false;
    }
    p.legal_moves()
        .into_iter()
        .filter(|&mv| p.gives_check(mv))
        .any(|mv| {
            let q = p.play(mv);
            let replies = q.legal_moves();
            replies.is_empty()
                || (plies >= 3 && replies.iter().all(|&r| mates_within(&q.play(r), plies - 2)))
        })
}

#[test]
fn the_shortest_mate_is_the_brute_force_oracles() {
    let mut checked = 0;
    for name in ["sugyan.tsv", "antma.tsv"] {
        for row in suite(name) {
            let p: Position = row.sfen.parse().unwrap();
            let Ok(report) = solve_mate(&p, &MateConfig::default(), None) else {
                continue;
            };
            if report.outcome != MateOutcome::Mate {
                continue;
            }
            assert!(report.shortest, "{}", row.id);
            let length = report.plies;
            assert!(mates_within(&p, length), "{}: no mate in {length}", row.id);
            assert!(
                length < 3 || !mates_within(&p, length - 2),
                "{}: a mate shorter than {length}",
                row.id
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 36 + 67 + 1, "every mate of the two suites");
}

/// A line in USI notation.
fn line_text(line: &[Move]) -> String {
    line.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// How many pieces `color` holds in hand in `p`.
fn pieces_in_hand(p: &Position, color: Color) -> usize {
    Kind::HAND
        .iter()
        .map(|&kind| usize::from(p.in_hand(color, kind)))
        .sum()
}

/// The problem convention's value of the side to move in `p` (the attacker) within `plies`
/// (odd), by trying every check and every reply with no table: the mate's length and whether
/// the attacker is left pieces in hand at its end, the attacker taking the shortest and of
/// those one that spends its hand, the defender the longest and of those one that leaves the
/// attacker pieces never by choice. `None` without a mate within `plies`.
fn convention_value(p: &Position, plies: usize) -> Option<(usize, bool)> {
    if plies == 0 {
        return None;
    }
    p.legal_moves()
        .into_iter()
        .filter(|&mv| p.gives_check(mv))
        .filter_map(|mv| {
            let q = p.play(mv);
            let replies = q.legal_moves();
            if replies.is_empty() {
                return Some((1, pieces_in_hand(&q, p.side_to_move()) > 0));
            }
            if plies < 3 {
                return None;
            }
            // The defender's best: the longest, then the one with nothing left in hand.
            let mut worst: Option<(usize, bool)> = None;
            for r in replies {
                let v = convention_value(&q.play(r), plies - 2)?;
                if worst.is_none_or(|w| (v.0, !v.1) > (w.0, !w.1)) {
                    worst = Some(v);
                }
            }
            worst.map(|(n, surplus)| (n + 2, surplus))
        })
        .min()
}

/// The line's choices on pieces left in hand (駒余り) against the brute-force oracle: on
/// every mate of nine plies or fewer (102 of the 104) in the two library suites (strict rules), the solver's
/// main line leaves the attacker pieces in hand exactly when every shortest mate against the
/// longest defence does, and the count it reports is the hand at the line's end.
#[test]
fn the_main_line_leaves_nothing_in_hand_where_the_oracle_can() {
    let mut checked = 0;
    let mut spent = 0;
    for name in ["sugyan.tsv", "antma.tsv"] {
        for row in suite(name) {
            let p: Position = row.sfen.parse().unwrap();
            let Ok(report) = solve_mate(&p, &MateConfig::default(), None) else {
                continue;
            };
            if report.outcome != MateOutcome::Mate || report.plies > 9 {
                continue;
            }
            let oracle = convention_value(&p, report.plies);
            assert_eq!(
                Some((report.plies, report.in_hand > 0)),
                oracle,
                "{}: {}",
                row.id,
                line_text(&report.line)
            );
            let end = report.line.iter().fold(p.clone(), |q, &mv| q.play(mv));
            assert_eq!(
                pieces_in_hand(&end, p.side_to_move()),
                report.in_hand,
                "{}",
                row.id
            );
            checked += 1;
            spent += usize::from(report.in_hand == 0);
        }
    }
    eprintln!("{checked} mates checked, {spent} of them spending the hand");
    assert!(
        checked >= 100 && spent >= 30,
        "{checked} checked, {spent} spent"
    );
}

/// The Edo problems the solver settles within a small budget (the first mate, not
/// shortened): each a mate, its line legal and mating; none said to have no mate but two
/// whose transcriptions the defender escapes under the rules: in musou-037, after the
/// source's 19th ply 9f8d, the capture 8a8d instead of 9b9c; in musou-088, after its 13th
/// ply 4h3h, the dragon's 2i2g instead of 1f2e (cshogi's `DfPn` finds no mate after either,
/// nor from either start).
const ESCAPED: [&str; 2] = ["musou-037", "musou-088"];

#[test]
fn easy_edo_problems_are_mated() {
    let config = MateConfig {
        max_nodes: 100_000,
        shortest: false,
        ..MateConfig::default()
    };
    let mut mated = 0;
    for name in ["zukou.tsv", "musou.tsv"] {
        for row in suite(name) {
            let p: Position = row.sfen.parse().unwrap();
            let report = solve_mate(&p, &config, None).unwrap();
            match report.outcome {
                MateOutcome::Mate => {
                    assert_mating_line(&row.id, &p, &report.line);
                    mated += 1;
                }
                MateOutcome::NoMate => assert!(
                    ESCAPED.contains(&row.id.as_str()),
                    "{}: said to have no mate",
                    row.id
                ),
                MateOutcome::Unknown => {}
            }
        }
    }
    eprintln!("{mated} of the 200 mated within the limit");
    // 119 since the defender's drops on one square wait for each other (76 and 77 before, in
    // the runs of 2026-11-28; the count moves a little with the search's order); 126 with a
    // check of one reply tested for a mate in three, 125 with the checks near the root
    // tested too (2026-11-29). Far fewer would mean a weaker solver.
    assert!(
        mated >= 110,
        "only {mated} of the 200 mated within the limit"
    );
}

/// The tsume rules: solved as the whole suite would be (shortest mates), each line checked by
/// those rules; lengths as antma states them (it counts by the convention: its rows named
/// `futile_drops`, and `tsume1-03`, `tsume1-05`, `tsume3-19`, `tsume5-03`, `tsume5-06`, whose
/// strict lengths are longer, see `STRICT`); sugyan's (strict lengths, checked by cshogi) at
/// most as long as stated.
#[test]
fn the_library_suites_under_the_tsume_convention() {
    let config = MateConfig {
        rules: MateRules::Tsume,
        ..MateConfig::default()
    };
    let mut as_stated = 0;
    let mut shorter = Vec::new();
    for name in ["antma.tsv", "sugyan.tsv"] {
        for row in suite(name) {
            let p: Position = row.sfen.parse().unwrap();
            let Ok(report) = solve_mate(&p, &config, None) else {
                assert_eq!(row.id, "tsume1_futile_drops-nomate-01");
                continue;
            };
            if row.plies == 0 {
                // antma's "no mate in 1" that mates in 3, as under strict rules.
                let expected = if row.id == "no_tsume1-01" {
                    MateOutcome::Mate
                } else {
                    MateOutcome::NoMate
                };
                assert_eq!(report.outcome, expected, "{}", row.id);
                continue;
            }
            assert_eq!(report.outcome, MateOutcome::Mate, "{}", row.id);
            assert!(report.shortest, "{}", row.id);
            if let Err(e) = check_line(&p, &report.line, MateRules::Tsume) {
                panic!("{}: {e}", row.id);
            }
            assert_eq!(report.line.len(), report.plies, "{}", row.id);
            if name == "antma.tsv" || report.plies == row.plies {
                assert_eq!(report.plies, row.plies, "{}: {:?}", row.id, report.line);
                as_stated += 1;
            } else {
                // Shorter where the strict defence's longest line ends in futile drops.
                assert!(report.plies < row.plies, "{}", row.id);
                shorter.push(row.id);
            }
        }
    }
    eprintln!("shorter than sugyan's strict lengths: {shorter:?}");
    assert_eq!(
        as_stated + shorter.len(),
        67 + 36,
        "every mate of the two suites"
    );
}

/// The two-ply rule (2手変長駒余り): in antma's `tsume9-02` and `tsume9-03` the longest
/// defence (9 plies, antma's count) leaves the attacker a piece in hand and a defence two
/// plies shorter leaves none; with the rule the main line is the shorter, by the tsume rules.
#[test]
fn the_two_ply_rule_takes_the_shorter_defence_that_spends_the_hand() {
    let rows = rows("antma.tsv", &["tsume9-02", "tsume9-03"]);
    for row in rows {
        let p: Position = row.sfen.parse().unwrap();
        let tsume = MateConfig {
            rules: MateRules::Tsume,
            ..MateConfig::default()
        };
        let longest = solve_mate(&p, &tsume, None).unwrap();
        let two_ply = MateConfig {
            two_ply_rule: true,
            ..tsume
        };
        let main = solve_mate(&p, &two_ply, None).unwrap();
        assert!(longest.shortest && main.shortest, "{}", row.id);
        assert_eq!((longest.plies, main.plies), (9, 7), "{}", row.id);
        assert!(longest.in_hand > 0 && main.in_hand == 0, "{}", row.id);
        for line in [&longest.line, &main.line] {
            if let Err(e) = check_line(&p, line, MateRules::Tsume) {
                panic!("{}: {e}", row.id);
            }
        }
        // The two lines part at a defender's move: the same length up to it.
        let common = longest
            .line
            .iter()
            .zip(&main.line)
            .take_while(|(a, b)| a == b)
            .count();
        assert!(common % 2 == 1, "{}: {}", row.id, line_text(&main.line));
    }
}

/// The source's line read against the solver (`solve_and_audit`): Zuko #18's is best play
/// throughout (23 plies by the tsume rules); Zuko #33's (15 plies) has the defender at its
/// 4th ply move the king (9d9e) where a pawn drop (P*8e) holds two plies longer (the
/// source passes over it; the tsume rules count it as a defence): the solver's 17. Each length the audit gives is checked by a fresh solve of the position after
/// the move, and the stated length is the solver's plus each deviation's change.
#[test]
fn a_sources_line_is_read_against_best_play() {
    let rows = rows("zukou.tsv", &["zukou-018", "zukou-033"]);
    let config = MateConfig {
        rules: MateRules::Tsume,
        ..MateConfig::default()
    };
    let shortest = |p: &Position| {
        let report = solve_mate(p, &config, None).unwrap();
        assert!(report.shortest);
        report.plies
    };
    for row in rows {
        let p = row.position();
        let line = row.line();
        let (report, audit) = solve_and_audit(&p, &config, &line, None).unwrap();
        let audit = audit.expect("shown shortest");
        assert!(audit.complete, "{}", row.id);
        assert_eq!(audit.length, Some(report.plies), "{}", row.id);
        let change: i64 = audit
            .deviations
            .iter()
            .map(|d| d.length as i64 - d.best as i64)
            .sum();
        assert_eq!(row.plies as i64, report.plies as i64 + change, "{}", row.id);
        if row.id == "zukou-018" {
            assert!(audit.deviations.is_empty(), "{:?}", audit.deviations);
            assert_eq!(report.plies, row.plies);
            continue;
        }
        assert_eq!(report.plies, 17);
        assert_eq!(audit.deviations.len(), 1, "{:?}", audit.deviations);
        let d = &audit.deviations[0];
        assert_eq!((d.ply, d.side(), d.length, d.best), (3, "defender", 12, 14));
        assert_eq!(d.played.to_string(), "9d9e");
        let better = d.better.expect("a longer defence");
        assert_eq!(better.to_string(), "P*8e");
        // Fresh solves after each move: the source's lasts 11 more plies, the better 13.
        let before = line[..d.ply].iter().fold(p.clone(), |q, &mv| q.play(mv));
        assert_eq!(shortest(&before.play(d.played)), d.length - 1);
        assert_eq!(shortest(&before.play(better)), d.best - 1);
    }
}

/// Futile drops in the middle of a line: Zuko #18 and #25, whose shortest strict mates (25
/// and 39 plies) have the defender drop a piece that the attacker's checker simply takes
/// (one such drop in #18, two in #25), are mated by the tsume rules in the source's 23 and
/// 35 plies, shown shortest, with lines those rules accept.
#[test]
fn futile_drops_in_the_middle_of_a_line_are_not_counted() {
    let rows = rows("zukou.tsv", &["zukou-018", "zukou-025"]);
    for row in rows {
        let p: Position = row.sfen.parse().unwrap();
        let strict = solve_mate(&p, &MateConfig::default(), None).unwrap();
        let tsume = solve_mate(
            &p,
            &MateConfig {
                rules: MateRules::Tsume,
                ..MateConfig::default()
            },
            None,
        )
        .unwrap();
        assert!(strict.shortest && tsume.shortest, "{}", row.id);
        assert_eq!(
            (strict.plies, tsume.plies),
            (
                row.plies + if row.id == "zukou-018" { 2 } else { 4 },
                row.plies
            ),
            "{}",
            row.id
        );
        assert_mating_line(&row.id, &p, &strict.line);
        if let Err(e) = check_line(&p, &tsume.line, MateRules::Tsume) {
            panic!("{}: {e}", row.id);
        }
    }
}

/// The Edo sources' lines: every one a mate by the tsume convention; by the strict rules all
/// but the 7 the suite's README lists (each ends with the defender left only drops that the
/// attacker takes with mate; the source marks them unverified).
#[test]
fn every_edo_line_mates_by_the_tsume_convention() {
    let flagged = [
        "zukou-026",
        "zukou-073",
        "zukou-093",
        "musou-028",
        "musou-031",
        "musou-037",
        "musou-043",
    ];
    let mut strict_failures = Vec::new();
    for name in ["zukou.tsv", "musou.tsv"] {
        for row in suite(name) {
            let line = row.line();
            let start = row.position();
            if let Err(e) = check_line(&start, &line, MateRules::Tsume) {
                panic!("{}: {e}", row.id);
            }
            if check_mating_line(&start, &line).is_err() {
                strict_failures.push(row.id);
            }
        }
    }
    assert_eq!(strict_failures, flagged);
}

/// Proof and disproof numbers are sums over a graph where transpositions count some positions
/// many times, and can grow without bound. Zuko #48 by the tsume rules: before they were held
/// below the infinite number, one reached it unsettled about 3.4 M nodes into the shortest
/// solve, and from then on the root's search returned at once, again and again (no verdict in
/// 10 M nodes); held below it, the 25 plies are shown shortest in about 9.3 M nodes (3.4 M
/// before the attacker's disproof numbers were summed the weak way).
#[test]
fn numbers_grown_to_the_cap_do_not_stall_the_search() {
    let row = &rows("zukou.tsv", &["zukou-048"])[0];
    let config = MateConfig {
        rules: MateRules::Tsume,
        max_nodes: 12_000_000,
        ..MateConfig::default()
    };
    let report = solve_mate(&row.position(), &config, None).unwrap();
    assert_eq!(report.outcome, MateOutcome::Mate);
    assert!(
        report.shortest && report.plies == row.plies,
        "zukou-048: {} plies, shortest {}, {} nodes",
        report.plies,
        report.shortest,
        report.nodes
    );
    check_line(&row.position(), &report.line, MateRules::Tsume).unwrap();
}

/// Two ways a node could call the same child again and again, the child returning at once
/// unchanged, until the limits (by the tsume rules, where a defender's drop is the OR of the
/// drop and its takeback):
/// - Musou #34: a drop back to a position of the path (disproved for this path) whose own
///   entry was proved elsewhere: the takeback was given a threshold from the proof, not from
///   what the node counted (no verdict in 20 M nodes; mated in about 0.13 M).
/// - Musou #83: a takeback's disproof number held at the cap, taken from the root's infinite
///   threshold, left the drop a threshold of 1 (no verdict in 50 M nodes; mated in about
///   0.22 M). An infinite threshold now stays infinite.
#[test]
fn a_child_is_never_called_again_unchanged() {
    for row in rows("musou.tsv", &["musou-034", "musou-083"]) {
        let config = MateConfig {
            rules: MateRules::Tsume,
            max_nodes: 1_000_000,
            shortest: false,
            ..MateConfig::default()
        };
        let report = solve_mate(&row.position(), &config, None).unwrap();
        assert_eq!(
            report.outcome,
            MateOutcome::Mate,
            "{}: {} nodes",
            row.id,
            report.nodes
        );
        check_line(&row.position(), &report.line, MateRules::Tsume).unwrap();
        assert!(report.plies >= row.plies, "{}: {}", row.id, report.plies);
    }
}

/// Musou #73 has no mate by the tsume rules: the source's line breaks down after its 42nd
/// ply, where the defender can drop a pawn between the horse and the king (`P*4d`, which
/// neither prune nor cshogi's `DfPn` can mate, while the line goes on as if it were futile),
/// and KomoringHeights also answers `nomate`. Its positions are a king running round the
/// same squares, checked by pieces that lead to the same places: summed over the checks,
/// the disproof numbers counted those places many times and grew around the repetitions
/// without the search getting anywhere, and each path's repetitions were found again at
/// every visit. After the line's first 22 plies, no mate is shown within 1.5 M nodes (about
/// 0.96 M) with the attacker's disproof numbers summed the weak way and the path's
/// disproofs kept; the weak sum alone took 2.4 M nodes, the search before both 2.0 M.
#[test]
fn a_king_running_round_is_shown_to_escape() {
    let row = &rows("musou.tsv", &["musou-073"])[0];
    let position = row
        .line()
        .iter()
        .take(22)
        .fold(row.position(), |p, &mv| p.play(mv));
    let config = MateConfig {
        rules: MateRules::Tsume,
        max_nodes: 1_500_000,
        ..MateConfig::default()
    };
    let report = solve_mate(&position, &config, None).unwrap();
    assert_eq!(
        report.outcome,
        MateOutcome::NoMate,
        "musou-073 after 22 plies: {} nodes",
        report.nodes
    );
}

/// A search within a few plies and one within many see different numbers for one position;
/// kept in one table entry, each overwrote the other's. musou-071 after the source's first
/// two plies, by the tsume rules: a first mate of 23 plies, then the search for one within
/// 21 went round the same positions (no verdict in 20 M nodes, the table not growing past
/// 93,000 entries). With an entry for each number of plies left, 23 is shown shortest in about
/// 0.19 M nodes.
#[test]
fn searches_of_different_depths_keep_their_own_numbers() {
    let row = &rows("musou.tsv", &["musou-071"])[0];
    let line = row.line();
    let position = row.position().play(line[0]).play(line[1]);
    let config = MateConfig {
        rules: MateRules::Tsume,
        max_nodes: 2_000_000,
        ..MateConfig::default()
    };
    let report = solve_mate(&position, &config, None).unwrap();
    assert_eq!(report.outcome, MateOutcome::Mate);
    assert!(
        report.shortest && report.plies == 23,
        "{} plies, shortest {}, {} nodes",
        report.plies,
        report.shortest,
        report.nodes
    );
    check_line(&position, &report.line, MateRules::Tsume).unwrap();
}
