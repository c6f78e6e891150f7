//! The Othello positions an experiment runs on: a built-in suite or a user's OBF file.

use std::path::Path;

use prune_othello::{builtin_suite, parse_obf_numbered, Position, BUILTIN_SUITES};

use crate::LabError;

/// A named position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabPosition {
    /// Its name in tables: `#40` for a suite, `line 3` for a file.
    pub name: String,
    /// The position.
    pub position: Position,
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
        load_builtin("ffo-40-59").expect("the built-in suite exists")
    }
}

fn load_builtin(name: &str) -> Option<PositionSet> {
    let suite = builtin_suite(name)?;
    Some(PositionSet {
        source: format!("built-in suite {name}"),
        positions: suite
            .into_iter()
            .map(|p| LabPosition {
                name: format!("#{}", p.number),
                position: p.entry.position,
            })
            .collect(),
    })
}

/// The positions named by `source`: a built-in suite (`ffo-40-59`) or an OBF file's path
/// (only the positions are used; listed move scores are ignored). A file that cannot be read,
/// is malformed or holds no position is an error naming the file and line.
pub fn load_positions(source: &str) -> Result<PositionSet, LabError> {
    if let Some(set) = load_builtin(source) {
        return Ok(set);
    }
    let path = Path::new(source);
    let text = std::fs::read_to_string(path).map_err(|e| {
        LabError::Usage(format!(
            "--positions {source}: {e} (give an OBF file or a built-in suite: {})",
            BUILTIN_SUITES.join(", ")
        ))
    })?;
    let entries = parse_obf_numbered(&text)
        .map_err(|e| LabError::Usage(format!("--positions {source}: {e}")))?;
    if entries.is_empty() {
        return Err(LabError::Usage(format!(
            "--positions {source}: no position in the file"
        )));
    }
    Ok(PositionSet {
        source: source.to_string(),
        positions: entries
            .into_iter()
            .map(|(line, entry)| LabPosition {
                name: format!("line {line}"),
                position: entry.position,
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
        let dir = std::env::temp_dir().join(format!("prune-lab-pos-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("two.obf");
        let start = Position::START.to_string();
        std::fs::write(&file, format!("# comment\n{start}\n\n{start};\n")).unwrap();
        let set = load_positions(file.to_str().unwrap()).unwrap();
        let names: Vec<_> = set.positions.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["line 2", "line 4"]);
        std::fs::write(&file, format!("{start}\nnot a position\n")).unwrap();
        let err = load_positions(file.to_str().unwrap())
            .unwrap_err()
            .to_string();
        assert!(err.contains("line 2"), "{err}");
        std::fs::write(&file, "# nothing\n").unwrap();
        let err = load_positions(file.to_str().unwrap())
            .unwrap_err()
            .to_string();
        assert!(err.contains("no position"), "{err}");
        let err = load_positions("/no/such/file.obf").unwrap_err().to_string();
        assert!(err.contains("ffo-40-59"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
