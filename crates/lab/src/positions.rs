//! The Othello positions an experiment runs on: a built-in suite or a user's OBF file.

use prune_othello::{load_suite_or_file, Move, Position};

use crate::LabError;

/// A named position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabPosition {
    /// Its name in tables: `#40` for a suite, `line 3` for a file.
    pub name: String,
    /// The position.
    pub position: Position,
    /// The exact final scores of moves the file lists (none for most files).
    pub scores: Vec<(Move, i32)>,
}

/// A set of positions and where it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionSet {
    /// The suite's name or the file's path.
    pub source: String,
    /// The positions, in order.
    pub positions: Vec<LabPosition>,
}

impl PositionSet {
    /// The built-in FFO #40-#59 positions (the default of the Othello experiments).
    pub fn ffo_40_59() -> PositionSet {
        load_positions("ffo-40-59").expect("the built-in suite exists")
    }
}

/// The positions named by `source`: a built-in suite (`ffo-40-59`) or an OBF file's path
/// (only the positions are used; listed move scores are ignored), read by
/// [`load_suite_or_file`]. A file that cannot be read, holds no position or has malformed
/// lines is an error naming the file and the line of each malformed record (an experiment
/// does not run on part of a set).
pub fn load_positions(source: &str) -> Result<PositionSet, LabError> {
    let loaded =
        load_suite_or_file(source).map_err(|e| LabError::Usage(format!("--positions: {e}")))?;
    if !loaded.bad_records.is_empty() {
        let lines: Vec<String> = loaded
            .bad_records
            .iter()
            .map(|b| format!("\n  {b}"))
            .collect();
        return Err(LabError::Usage(format!(
            "--positions {source}: {} malformed record{}:{}",
            lines.len(),
            if lines.len() == 1 { "" } else { "s" },
            lines.concat()
        )));
    }
    Ok(PositionSet {
        source: if loaded.builtin {
            format!("built-in suite {source}")
        } else {
            source.to_string()
        },
        positions: loaded
            .positions
            .iter()
            .map(|p| LabPosition {
                name: loaded.label(p.number),
                position: p.entry.position,
                scores: p.entry.moves.clone(),
            })
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_and_files() {
        let ffo = load_positions("ffo-40-59").unwrap();
        assert_eq!(ffo.positions.len(), 20);
        assert_eq!(ffo.positions[0].name, "#40");
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let file = dir.join("two.obf");
        let start = Position::START.to_string();
        std::fs::write(&file, format!("# comment\n{start}\n\n{start};\n")).unwrap();
        let set = load_positions(file.to_str().unwrap()).unwrap();
        let names: Vec<_> = set.positions.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["line 2", "line 4"]);
        std::fs::write(&file, format!("{start}\nnot a position\n{start}\nno\n")).unwrap();
        let err = load_positions(file.to_str().unwrap())
            .unwrap_err()
            .to_string();
        let path = file.to_str().unwrap();
        assert!(err.contains("2 malformed records"), "{err}");
        assert!(err.contains(&format!("{path}:2:")), "{err}");
        assert!(err.contains(&format!("{path}:4:")), "{err}");
        std::fs::write(&file, "# nothing\n").unwrap();
        let err = load_positions(file.to_str().unwrap())
            .unwrap_err()
            .to_string();
        assert!(err.contains("no position"), "{err}");
        let err = load_positions("/no/such/file.obf").unwrap_err().to_string();
        assert!(err.contains("ffo-40-59"), "{err}");
    }
}
