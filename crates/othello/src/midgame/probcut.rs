//! Multi-ProbCut (Buro): forward pruning fitted by measurement.
//!
//! A deep search's value `v_D` of a position is well predicted by a shallow one's, `v_d`:
//! `v_D ≈ a·v_d + b` with a normally distributed error of deviation `σ`. So before searching a
//! null-window node `D` plies deep, a search `d` plies deep tells, with a confidence set by
//! `t` (the selectivity: how many `σ` of margin), whether the deep one would fail high
//! (`a·v_d + b - t·σ >= β`) or low (`a·v_d + b + t·σ <= α`); if so the node returns that bound
//! without the deep search. Each test is itself a null-window search at the shifted bound. The
//! larger `t`, the fewer cuts and errors; no selectivity is the full-width search.
//!
//! The parameters `(d, a, b, σ)` of each band of empties and each deep depth `D` come from
//! `prune lab probcut`, which searches positions of self-play games to many depths and fits
//! the regression; they are kept in a small text file beside the evaluation's weights
//! (`crates/othello/data/probcut.txt`, built in), one line per band and depth.

use std::fmt;
use std::str::FromStr;
use std::sync::{Arc, OnceLock};

/// The nodes from this depth up try a ProbCut test.
pub const MIN_DEPTH: u32 = 3;

/// The bands of empties the parameters are fitted for: band `k` covers `k * BAND` to
/// `(k + 1) * BAND - 1` empties.
pub const BAND: u32 = 10;

/// The number of bands (0-9 empties up to 50-60: the last band takes the start position's 60
/// too).
pub const BANDS: usize = 6;

/// The deepest depth with parameters of its own; deeper searches use this depth's (so the
/// fit should reach it).
pub const MAX_FITTED_DEPTH: u32 = 24;

/// The shallow search's depth for a deep one of `depth` plies: a third of it, rounded to the
/// same parity (Othello's values swing with the side to move at the horizon), at least 1.
pub fn shallow_depth(depth: u32) -> u32 {
    let d = (depth / 3).max(1);
    if d % 2 == depth % 2 {
        d
    } else {
        d + 1
    }
}

/// The band of `empties` empty squares.
pub fn band_of(empties: u32) -> usize {
    ((empties / BAND) as usize).min(BANDS - 1)
}

/// The fitted relation of one band and deep depth: `v_D ≈ a·v_d + b`, error `sigma` (all in
/// hundredths of a disc), from `samples` positions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fit {
    /// The deep depth `D`.
    pub depth: u32,
    /// The shallow depth `d` (see [`shallow_depth`]).
    pub shallow: u32,
    /// The slope.
    pub a: f64,
    /// The intercept.
    pub b: f64,
    /// The standard deviation of the error.
    pub sigma: f64,
    /// How many positions it was fitted on.
    pub samples: usize,
}

/// Every band's and depth's [`Fit`], and how they were made.
#[derive(Clone, Debug, PartialEq)]
pub struct ProbCutParams {
    /// The command that fitted them, free text.
    pub provenance: String,
    /// `fits[band][depth]`, `None` where nothing was fitted.
    fits: Vec<Vec<Option<Fit>>>,
}

/// A malformed parameters file: the line and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {what}")]
pub struct ParamsError {
    /// The line (from 1).
    pub line: usize,
    /// What is wrong with it.
    pub what: String,
}

impl ProbCutParams {
    /// No parameters.
    pub fn new(provenance: &str) -> ProbCutParams {
        ProbCutParams {
            provenance: provenance.to_string(),
            fits: vec![vec![None; MAX_FITTED_DEPTH as usize + 1]; BANDS],
        }
    }

    /// Records the fit of `band`.
    pub fn set(&mut self, band: usize, fit: Fit) {
        if band < BANDS && (MIN_DEPTH..=MAX_FITTED_DEPTH).contains(&fit.depth) {
            self.fits[band][fit.depth as usize] = Some(fit);
        }
    }

    /// The fit for a node of `empties` empties searched `depth` plies: its band's at that
    /// depth, or at the deepest fitted depth below it.
    pub fn get(&self, empties: u32, depth: u32) -> Option<&Fit> {
        let row = &self.fits[band_of(empties)];
        let top = depth.min(MAX_FITTED_DEPTH) as usize;
        row[..=top].iter().rev().flatten().next()
    }

    /// Every fit with its band, band by band.
    pub fn fits(&self) -> impl Iterator<Item = (usize, &Fit)> {
        self.fits
            .iter()
            .enumerate()
            .flat_map(|(band, row)| row.iter().flatten().map(move |f| (band, f)))
    }

    /// The parameters shipped with prune (`crates/othello/data/probcut.txt`, written by `prune
    /// lab probcut`).
    pub fn builtin() -> Arc<ProbCutParams> {
        Self::builtin_ref().clone()
    }

    /// The built-in parameters, without a new reference.
    fn builtin_ref() -> &'static Arc<ProbCutParams> {
        static BUILTIN: OnceLock<Arc<ProbCutParams>> = OnceLock::new();
        BUILTIN.get_or_init(|| {
            Arc::new(
                BUILTIN_PARAMS
                    .parse()
                    .expect("the built-in ProbCut parameters are checked by a test"),
            )
        })
    }
}

/// The built-in fit for a node of `empties` empties searched `depth` plies, as the generic
/// search takes it (see [`prune_search::Evaluator::probcut`]).
pub fn generic_fit(empties: u32, depth: u32) -> Option<prune_search::ProbCutFit> {
    if depth < MIN_DEPTH {
        return None;
    }
    let fit = ProbCutParams::builtin_ref().get(empties, depth)?;
    Some(prune_search::ProbCutFit {
        shallow: shallow_depth(depth),
        a: fit.a,
        b: fit.b,
        sigma: fit.sigma,
    })
}

/// The text of the built-in parameters.
pub const BUILTIN_PARAMS: &str = include_str!("../../data/probcut.txt");

impl fmt::Display for ProbCutParams {
    /// The file format: `#` comments (the first is the provenance), then one line per fit:
    /// band, its first and last empties, deep and shallow depth, a, b, sigma, samples.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "# {}", self.provenance.replace('\n', " "))?;
        writeln!(
            f,
            "# prune ProbCut parameters: v_deep = a * v_shallow + b, error sigma (hundredths of \
             a disc)"
        )?;
        writeln!(
            f,
            "# band empties_from empties_to depth shallow a b sigma samples"
        )?;
        for (band, fit) in self.fits() {
            let from = band as u32 * BAND;
            let to = if band == BANDS - 1 {
                60
            } else {
                from + BAND - 1
            };
            writeln!(
                f,
                "{band} {from} {to} {} {} {:.4} {:.1} {:.1} {}",
                fit.depth, fit.shallow, fit.a, fit.b, fit.sigma, fit.samples
            )?;
        }
        Ok(())
    }
}

impl FromStr for ProbCutParams {
    type Err = ParamsError;

    fn from_str(text: &str) -> Result<ProbCutParams, ParamsError> {
        let mut params = ProbCutParams::new("");
        let mut provenance = None;
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            let err = |what: String| ParamsError { line: i + 1, what };
            if let Some(comment) = line.strip_prefix('#') {
                provenance.get_or_insert_with(|| comment.trim().to_string());
                continue;
            }
            if line.is_empty() {
                continue;
            }
            let fields: Vec<&str> = line.split_whitespace().collect();
            if fields.len() != 9 {
                return Err(err(format!("expected 9 fields, found {}", fields.len())));
            }
            let int = |k: usize| {
                fields[k]
                    .parse::<u32>()
                    .map_err(|_| err(format!("field {}: '{}' is not a count", k + 1, fields[k])))
            };
            let real = |k: usize| {
                fields[k]
                    .parse::<f64>()
                    .ok()
                    .filter(|x| x.is_finite())
                    .ok_or_else(|| err(format!("field {}: '{}' is not a number", k + 1, fields[k])))
            };
            let band = int(0)? as usize;
            let (depth, shallow) = (int(3)?, int(4)?);
            let fit = Fit {
                depth,
                shallow,
                a: real(5)?,
                b: real(6)?,
                sigma: real(7)?,
                samples: int(8)? as usize,
            };
            if band >= BANDS {
                return Err(err(format!("band {band} is not below {BANDS}")));
            }
            if !(MIN_DEPTH..=MAX_FITTED_DEPTH).contains(&depth) {
                return Err(err(format!(
                    "depth {depth} is not {MIN_DEPTH} to {MAX_FITTED_DEPTH}"
                )));
            }
            if shallow != shallow_depth(depth) {
                return Err(err(format!(
                    "shallow depth {shallow} for depth {depth}: prune uses {}",
                    shallow_depth(depth)
                )));
            }
            if fit.a <= 0.0 || fit.sigma <= 0.0 {
                return Err(err("a and sigma must be positive".into()));
            }
            params.set(band, fit);
        }
        params.provenance = provenance.unwrap_or_default();
        Ok(params)
    }
}

/// How selective the midgame search is: full width, or ProbCut with a margin of `t` times
/// the error's deviation.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Selectivity {
    /// No forward pruning: the full-width search, equal to the generic search.
    #[default]
    Off,
    /// ProbCut with this many `σ` of margin (1.0, 1.5, 2.0 and 2.6 are the usual levels: a
    /// cut is wrong about 16%, 7%, 2% and 0.5% of the time if the error is normal).
    Sigma(f64),
}

/// The levels the lab measures, loosest last.
pub const LEVELS: [Selectivity; 5] = [
    Selectivity::Off,
    Selectivity::Sigma(2.6),
    Selectivity::Sigma(2.0),
    Selectivity::Sigma(1.5),
    Selectivity::Sigma(1.0),
];

impl fmt::Display for Selectivity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Selectivity::Off => f.write_str("off"),
            Selectivity::Sigma(t) => write!(f, "{t:.1}"),
        }
    }
}

impl FromStr for Selectivity {
    type Err = String;

    /// `off`, or a margin in deviations such as `2.0` (0.1 to 10; a trailing `s` or `σ` is
    /// allowed).
    fn from_str(text: &str) -> Result<Selectivity, String> {
        let t = text.trim().to_ascii_lowercase();
        if t == "off" || t == "none" {
            return Ok(Selectivity::Off);
        }
        let number = t.trim_end_matches('σ').trim_end_matches('s');
        match number.parse::<f64>() {
            Ok(x) if (0.1..=10.0).contains(&x) => Ok(Selectivity::Sigma(x)),
            _ => Err(format!(
                "'{text}' is not a selectivity (expected off, or a margin in deviations from \
                 0.1 to 10 such as 1.0, 1.5, 2.0 or 2.6)"
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shallow_depths_keep_the_parity() {
        let pairs: Vec<(u32, u32)> = (3..=12).map(|d| (d, shallow_depth(d))).collect();
        assert_eq!(
            pairs,
            [
                (3, 1),
                (4, 2),
                (5, 1),
                (6, 2),
                (7, 3),
                (8, 2),
                (9, 3),
                (10, 4),
                (11, 3),
                (12, 4)
            ]
        );
    }

    #[test]
    fn the_file_format_round_trips_and_bad_lines_are_named() {
        let mut p = ProbCutParams::new("test fit");
        let fit = |depth| Fit {
            depth,
            shallow: shallow_depth(depth),
            a: 0.97,
            b: 12.5,
            sigma: 230.0,
            samples: 400,
        };
        p.set(2, fit(5));
        p.set(2, fit(8));
        let text = p.to_string();
        let q: ProbCutParams = text.parse().unwrap();
        assert_eq!(q, p);
        // A deeper node uses the deepest fit at or below its depth; another band has none.
        assert_eq!(q.get(25, 7).unwrap().depth, 5);
        assert_eq!(q.get(25, 30).unwrap().depth, 8);
        assert!(q.get(25, 4).is_none());
        assert!(q.get(45, 8).is_none());
        let bad = "2 20 29 8 3 0.9 1 200 10\n";
        assert_eq!(
            bad.parse::<ProbCutParams>().unwrap_err(),
            ParamsError {
                line: 1,
                what: "shallow depth 3 for depth 8: prune uses 2".into()
            }
        );
        assert!("1 2 3"
            .parse::<ProbCutParams>()
            .unwrap_err()
            .what
            .contains("9 fields"));
    }

    #[test]
    fn the_builtin_parameters_load() {
        let p = ProbCutParams::builtin();
        assert!(p.fits().count() > 0);
    }

    #[test]
    fn selectivity_parses_levels_and_refuses_nonsense() {
        assert_eq!("off".parse(), Ok(Selectivity::Off));
        assert_eq!("1.5".parse(), Ok(Selectivity::Sigma(1.5)));
        assert_eq!("2.6σ".parse(), Ok(Selectivity::Sigma(2.6)));
        assert!("-1".parse::<Selectivity>().is_err());
        assert!("lots"
            .parse::<Selectivity>()
            .unwrap_err()
            .contains("'lots'"));
    }
}
