//! [`Report`]: what an experiment found, as data (settings, findings, tables, plots), and
//! [`Report::write`], which turns it into a report folder: `report.md` with the tables and the
//! plots embedded, one CSV per table, `report.json` with everything, one SVG per plot.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use serde_json::{json, Map, Value};

use crate::plot::{render_svg, Plot};
use crate::LabError;

/// One value of a table.
#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    /// A count (nodes, leaves).
    Count(u64),
    /// A signed integer (a score).
    Int(i64),
    /// A real number shown with `decimals` digits after the point (the CSV and JSON keep all).
    Real {
        /// The value.
        value: f64,
        /// Digits after the point in the Markdown report.
        decimals: usize,
    },
    /// Text.
    Text(String),
    /// No value (a search that was not run, a rate with nothing to divide).
    Empty,
    /// A lower bound (a mean over searches some of which were cut off): `≥ value` in the
    /// Markdown report; the CSV and JSON keep the number alone.
    AtLeast(Box<Cell>),
}

impl Cell {
    /// A real number with `decimals` digits in the report.
    pub fn real(value: f64, decimals: usize) -> Cell {
        Cell::Real { value, decimals }
    }

    /// A real number if there is one, else [`Cell::Empty`].
    pub fn maybe_real(value: Option<f64>, decimals: usize) -> Cell {
        value.map_or(Cell::Empty, |v| Cell::real(v, decimals))
    }

    /// Text.
    pub fn text(s: impl Into<String>) -> Cell {
        Cell::Text(s.into())
    }

    /// `cell` as a lower bound if `bound`, else `cell` itself.
    pub fn at_least_if(bound: bool, cell: Cell) -> Cell {
        if bound {
            Cell::AtLeast(Box::new(cell))
        } else {
            cell
        }
    }

    /// The value for a Markdown table: counts with thousands separators, reals rounded.
    fn markdown(&self) -> String {
        match self {
            Cell::Count(n) => thousands(*n),
            Cell::Int(n) => n.to_string(),
            Cell::Real { value, decimals } => format!("{value:.decimals$}"),
            Cell::Text(s) => s.replace('|', "\\|"),
            Cell::Empty => "–".to_string(),
            Cell::AtLeast(cell) => format!("≥ {}", cell.markdown()),
        }
    }

    /// The value for a CSV file: plain numbers, quoted text where needed.
    fn csv(&self) -> String {
        match self {
            Cell::Count(n) => n.to_string(),
            Cell::Int(n) => n.to_string(),
            Cell::Real { value, .. } => value.to_string(),
            Cell::Text(s) => csv_field(s),
            Cell::Empty => String::new(),
            Cell::AtLeast(cell) => cell.csv(),
        }
    }

    fn json(&self) -> Value {
        match self {
            Cell::Count(n) => json!(n),
            Cell::Int(n) => json!(n),
            Cell::Real { value, .. } if value.is_finite() => json!(value),
            Cell::Real { .. } | Cell::Empty => Value::Null,
            Cell::Text(s) => json!(s),
            Cell::AtLeast(cell) => cell.json(),
        }
    }

    /// The number in the cell, if it holds one.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Cell::Count(n) => Some(*n as f64),
            Cell::Int(n) => Some(*n as f64),
            Cell::Real { value, .. } => Some(*value),
            Cell::Text(_) | Cell::Empty => None,
            Cell::AtLeast(cell) => cell.as_f64(),
        }
    }
}

/// `1234567` as `1,234,567`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// A table: written to `NAME.csv`, into `report.json`, and (if `in_markdown`) into `report.md`.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// The file stem and JSON key (`nodes-totals`).
    pub name: String,
    /// A heading for the report.
    pub title: String,
    /// The column headings.
    pub columns: Vec<String>,
    /// The rows, each as long as `columns`.
    pub rows: Vec<Vec<Cell>>,
    /// Whether `report.md` shows the table (a raw table of every search is only linked).
    pub in_markdown: bool,
}

impl Table {
    /// An empty table shown in the report.
    pub fn new(name: &str, title: &str, columns: &[&str]) -> Table {
        Table {
            name: name.to_string(),
            title: title.to_string(),
            columns: columns.iter().map(|c| c.to_string()).collect(),
            rows: Vec::new(),
            in_markdown: true,
        }
    }

    /// Adds a row (padded with empty cells or cut to the columns).
    pub fn push(&mut self, mut row: Vec<Cell>) {
        row.resize(self.columns.len(), Cell::Empty);
        self.rows.push(row);
    }

    /// The CSV text: a header line, then one line per row.
    pub fn to_csv(&self) -> String {
        let mut out = String::new();
        let header: Vec<String> = self.columns.iter().map(|c| csv_field(c)).collect();
        out.push_str(&header.join(","));
        out.push('\n');
        for row in &self.rows {
            let line: Vec<String> = row.iter().map(Cell::csv).collect();
            out.push_str(&line.join(","));
            out.push('\n');
        }
        out
    }

    /// The Markdown table (numbers right-aligned).
    pub fn to_markdown(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "| {} |", self.columns.join(" | "));
        let align: Vec<&str> = (0..self.columns.len())
            .map(|i| {
                let numeric = self.rows.iter().any(|r| r[i].as_f64().is_some());
                if numeric {
                    "---:"
                } else {
                    "---"
                }
            })
            .collect();
        let _ = writeln!(out, "|{}|", align.join("|"));
        for row in &self.rows {
            let cells: Vec<String> = row.iter().map(Cell::markdown).collect();
            let _ = writeln!(out, "| {} |", cells.join(" | "));
        }
        out
    }

    fn to_json(&self) -> Value {
        let rows: Vec<Value> = self
            .rows
            .iter()
            .map(|row| {
                let mut obj = Map::new();
                for (col, cell) in self.columns.iter().zip(row) {
                    obj.insert(col.clone(), cell.json());
                }
                Value::Object(obj)
            })
            .collect();
        json!({ "title": self.title, "columns": self.columns, "rows": rows })
    }
}

/// What an experiment found: ready to be written as a report folder.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The experiment's name (`nodes`).
    pub experiment: String,
    /// Files the experiment makes beside its tables (name and contents), such as fitted
    /// parameters; written into the report folder.
    pub files: Vec<(String, String)>,
    /// The report's title.
    pub title: String,
    /// What the experiment reproduces, with its source.
    pub reproduces: String,
    /// Results that contradict a known answer (a solver's score that differs from the file's):
    /// shown first in the report, and `prune lab` fails after writing it. Empty when all is
    /// well.
    pub problems: Vec<String>,
    /// The settings it ran with (positions, depths, presets, jobs), as name and value.
    pub settings: Vec<(String, String)>,
    /// Findings in sentences, computed from the tables.
    pub findings: Vec<String>,
    /// The tables, in report order.
    pub tables: Vec<Table>,
    /// The plots, in report order.
    pub plots: Vec<Plot>,
}

impl Report {
    /// The table called `name`.
    pub fn table(&self, name: &str) -> Option<&Table> {
        self.tables.iter().find(|t| t.name == name)
    }

    /// The Markdown report: title, settings, findings, plots (as images), tables.
    pub fn to_markdown(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "# {}\n", self.title);
        let _ = writeln!(
            out,
            "Experiment `{}`. {}\n",
            self.experiment, self.reproduces
        );
        if !self.problems.is_empty() {
            let _ = writeln!(out, "## Problems\n");
            for problem in &self.problems {
                let _ = writeln!(out, "- **{problem}**");
            }
            out.push('\n');
        }
        let _ = writeln!(out, "## Settings\n");
        for (name, value) in &self.settings {
            let _ = writeln!(out, "- {name}: {value}");
        }
        if !self.findings.is_empty() {
            let _ = writeln!(out, "\n## Findings\n");
            for finding in &self.findings {
                let _ = writeln!(out, "- {finding}");
            }
        }
        if !self.plots.is_empty() {
            let _ = writeln!(out, "\n## Plots\n");
            for plot in &self.plots {
                let _ = writeln!(out, "![{}]({}.svg)\n", plot.title, plot.name);
            }
        }
        for table in &self.tables {
            let _ = writeln!(out, "\n## {}\n", table.title);
            if table.in_markdown {
                out.push_str(&table.to_markdown());
                let _ = writeln!(out, "\nAs CSV: [{0}.csv]({0}.csv)", table.name);
            } else {
                let _ = writeln!(
                    out,
                    "{} rows, in [{1}.csv]({1}.csv) and `report.json`.",
                    table.rows.len(),
                    table.name
                );
            }
        }
        out
    }

    /// Everything as one JSON document: settings, findings, every table (rows as objects keyed
    /// by column) and the plots' files.
    pub fn to_json(&self) -> Value {
        let settings: Map<String, Value> = self
            .settings
            .iter()
            .map(|(k, v)| (k.clone(), json!(v)))
            .collect();
        let tables: Map<String, Value> = self
            .tables
            .iter()
            .map(|t| (t.name.clone(), t.to_json()))
            .collect();
        let plots: Vec<Value> = self
            .plots
            .iter()
            .map(|p| json!({ "name": p.name, "title": p.title, "file": format!("{}.svg", p.name) }))
            .collect();
        json!({
            "experiment": self.experiment,
            "title": self.title,
            "reproduces": self.reproduces,
            "prune_version": env!("CARGO_PKG_VERSION"),
            "problems": self.problems,
            "settings": settings,
            "findings": self.findings,
            "tables": tables,
            "plots": plots,
        })
    }

    /// Writes the report folder `dir` (created if needed): `report.md`, `report.json`, one
    /// `NAME.csv` per table, one `NAME.svg` per plot and the experiment's own files. Returns the files written.
    pub fn write(&self, dir: &Path) -> Result<Vec<PathBuf>, LabError> {
        fs::create_dir_all(dir).map_err(|e| LabError::io(dir, e))?;
        let mut written = Vec::new();
        let mut put = |name: String, contents: String| -> Result<(), LabError> {
            let path = dir.join(name);
            fs::write(&path, contents).map_err(|e| LabError::io(&path, e))?;
            written.push(path);
            Ok(())
        };
        put("report.md".into(), self.to_markdown())?;
        let json = serde_json::to_string_pretty(&self.to_json()).expect("reports serialise");
        put("report.json".into(), json + "\n")?;
        for table in &self.tables {
            put(format!("{}.csv", table.name), table.to_csv())?;
        }
        for plot in &self.plots {
            put(format!("{}.svg", plot.name), render_svg(plot)?)?;
        }
        for (name, contents) in &self.files {
            put(name.clone(), contents.clone())?;
        }
        Ok(written)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(713_473_198), "713,473,198");
    }

    #[test]
    fn tables_as_csv_and_markdown() {
        let mut t = Table::new("t", "A table", &["name", "nodes", "ratio"]);
        t.push(vec![
            Cell::text("a, b"),
            Cell::Count(12_345),
            Cell::real(0.5, 2),
        ]);
        t.push(vec![Cell::text("c")]);
        assert_eq!(t.to_csv(), "name,nodes,ratio\n\"a, b\",12345,0.5\nc,,\n");
        let md = t.to_markdown();
        assert!(md.contains("| a, b | 12,345 | 0.50 |"), "{md}");
        assert!(md.contains("|---|---:|---:|"), "{md}");
    }
}
