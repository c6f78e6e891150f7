//! [`GameSpec`]: the game strings of the command line, such as
//! `uniform:width=3,depth=4,order=perfect,seed=1`.

use std::fmt;
use std::str::FromStr;

use crate::{ChildOrder, RandomTree, UniformTree};

/// A game named on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameSpec {
    /// `tictactoe`
    TicTacToe,
    /// `uniform:width=W,depth=D,order=perfect|worst|random|NN%,seed=S`
    Uniform(UniformTree),
    /// `random:seed=S,width=W,depth=D,range=R,states=N` (all keys optional)
    Random(RandomTree),
}

/// Why a game string was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// No game of this crate has the name.
    #[error(
        "unknown game '{0}' (expected tictactoe, uniform:width=W,depth=D,... or random:seed=S)"
    )]
    UnknownGame(String),
    /// A known game with parameters that are malformed or out of range.
    #[error("{0}")]
    Invalid(String),
}

/// Splits `key=value,key=value` into pairs, refusing empty keys, missing `=` and repeats.
pub fn parse_key_values(text: &str) -> Result<Vec<(String, String)>, SpecError> {
    let mut pairs: Vec<(String, String)> = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (key, value) = part
            .split_once('=')
            .ok_or_else(|| SpecError::Invalid(format!("'{part}' is not of the form key=value")))?;
        let (key, value) = (key.trim(), value.trim());
        if key.is_empty() || value.is_empty() {
            return Err(SpecError::Invalid(format!(
                "'{part}' has an empty key or value"
            )));
        }
        if pairs.iter().any(|(k, _)| k == key) {
            return Err(SpecError::Invalid(format!("key '{key}' is given twice")));
        }
        pairs.push((key.to_string(), value.to_string()));
    }
    Ok(pairs)
}

fn number<T>(game: &str, key: &str, value: &str, range: (T, T)) -> Result<T, SpecError>
where
    T: FromStr + PartialOrd + fmt::Display + Copy,
{
    let v: T = value
        .parse()
        .map_err(|_| SpecError::Invalid(format!("{game}: {key}='{value}' is not a number")))?;
    if v < range.0 || v > range.1 {
        return Err(SpecError::Invalid(format!(
            "{game}: {key}={value} is out of range ({}..={})",
            range.0, range.1
        )));
    }
    Ok(v)
}

impl FromStr for GameSpec {
    type Err = SpecError;
    fn from_str(s: &str) -> Result<Self, SpecError> {
        let s = s.trim();
        let (name, params) = s.split_once(':').unwrap_or((s, ""));
        let pairs = parse_key_values(params)?;
        let unknown = |key: &str, known: &str| {
            SpecError::Invalid(format!("{name}: unknown key '{key}' (expected {known})"))
        };
        match name {
            "tictactoe" | "ttt" => match pairs.first() {
                None => Ok(GameSpec::TicTacToe),
                Some((k, _)) => Err(unknown(k, "no keys")),
            },
            "uniform" => {
                let mut tree = UniformTree {
                    width: 0,
                    depth: 0,
                    order: ChildOrder::Perfect,
                    seed: 0,
                };
                let (mut has_width, mut has_depth) = (false, false);
                for (k, v) in &pairs {
                    match k.as_str() {
                        "width" | "w" => {
                            tree.width = number(name, k, v, (1, 64))?;
                            has_width = true;
                        }
                        "depth" | "d" => {
                            tree.depth = number(name, k, v, (1, 40))?;
                            has_depth = true;
                        }
                        "order" => {
                            tree.order = v
                                .parse()
                                .map_err(|e| SpecError::Invalid(format!("{name}: {e}")))?
                        }
                        "seed" => tree.seed = number(name, k, v, (0, u64::MAX))?,
                        _ => return Err(unknown(k, "width, depth, order, seed")),
                    }
                }
                if !has_width || !has_depth {
                    return Err(SpecError::Invalid(
                        "uniform: width and depth are required, e.g. uniform:width=3,depth=4"
                            .into(),
                    ));
                }
                Ok(GameSpec::Uniform(tree))
            }
            "random" => {
                let mut tree = RandomTree::new(0);
                for (k, v) in &pairs {
                    match k.as_str() {
                        "seed" => tree.seed = number(name, k, v, (0, u64::MAX))?,
                        "width" | "w" => tree.max_width = number(name, k, v, (1, 64))?,
                        "depth" | "d" => tree.max_depth = number(name, k, v, (1, 40))?,
                        "range" => tree.value_range = number(name, k, v, (0, 100_000))?,
                        "states" => tree.states = Some(number(name, k, v, (1, u64::MAX))?),
                        _ => return Err(unknown(k, "seed, width, depth, range, states")),
                    }
                }
                Ok(GameSpec::Random(tree))
            }
            _ => Err(SpecError::UnknownGame(name.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_documented_forms() {
        assert_eq!("tictactoe".parse(), Ok(GameSpec::TicTacToe));
        let GameSpec::Uniform(t) = "uniform:width=3,depth=4,order=worst,seed=2"
            .parse()
            .unwrap()
        else {
            panic!("not uniform")
        };
        assert_eq!(
            (t.width, t.depth, t.order, t.seed),
            (3, 4, ChildOrder::Worst, 2)
        );
        let GameSpec::Random(r) = "random:seed=7,states=10".parse().unwrap() else {
            panic!("not random")
        };
        assert_eq!((r.seed, r.states), (7, Some(10)));
    }

    #[test]
    fn errors_name_the_problem() {
        let err = |s: &str| s.parse::<GameSpec>().unwrap_err().to_string();
        assert!(err("chess").contains("unknown game 'chess'"));
        assert!(err("uniform:width=3").contains("required"));
        assert!(err("uniform:width=x,depth=2").contains("width='x'"));
        assert!(err("uniform:width=3,depth=2,colour=red").contains("unknown key 'colour'"));
        assert!(err("uniform:width=0,depth=2").contains("out of range"));
        assert!(err("uniform:width=3,width=3,depth=2").contains("twice"));
        assert!(err("random:seed").contains("key=value"));
        assert!(err("uniform:width=3,depth=2,order=sideways").contains("sideways"));
    }
}
