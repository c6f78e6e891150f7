//! The Elo difference of a match and its error bar, from the logistic model: a player that
//! scores a fraction `s` of the points against another is `-400 · log10(1/s − 1)` Elo stronger.
//!
//! The error bar is a normal approximation: the standard error of the mean score is the
//! per-game standard deviation of the scores (1, ½ or 0 a game) over √n, and the 95 % interval
//! `s ± 1.96 · σ/√n` is mapped through the same formula (so it is not symmetric in Elo). A
//! score of exactly 0 or 1 has no finite Elo; its one-sided bound then comes from the exact
//! binomial bound instead (all n games won: the per-game score is at least `0.025^(1/n)` with
//! 97.5 % confidence).

use std::fmt;

/// The two-sided 95 % quantile of the normal distribution.
pub const Z_95: f64 = 1.959_963_984_540_054;

/// The Elo difference of a player who scores `score` (a fraction of the points, 0 to 1)
/// against another; `None` when the score is 0 or 1 (the difference is unbounded) or not a
/// number between them.
pub fn elo_from_score(score: f64) -> Option<f64> {
    if score > 0.0 && score < 1.0 {
        Some(-400.0 * (1.0 / score - 1.0).log10())
    } else {
        None
    }
}

/// The score fraction expected from an Elo difference (the inverse of [`elo_from_score`]).
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// What a match tells about the difference in strength of its two players.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// Games played.
    pub games: u32,
    /// The score fraction of the first player: (wins + draws / 2) / games.
    pub score: f64,
    /// The standard error of `score` (per-game standard deviation over √games).
    pub score_error: f64,
    /// The Elo difference (first player minus second); `None` when the score is 0 or 1.
    pub elo: Option<f64>,
    /// The lower end of the 95 % interval; `None`: unbounded below.
    pub low: Option<f64>,
    /// The upper end of the 95 % interval; `None`: unbounded above.
    pub high: Option<f64>,
}

impl EloEstimate {
    /// The estimate from the first player's wins, draws and losses; `None` with no games.
    pub fn from_results(wins: u32, draws: u32, losses: u32) -> Option<EloEstimate> {
        let games = wins + draws + losses;
        if games == 0 {
            return None;
        }
        let n = f64::from(games);
        let score = (f64::from(wins) + f64::from(draws) / 2.0) / n;
        let variance = (f64::from(wins) * (1.0 - score).powi(2)
            + f64::from(draws) * (0.5 - score).powi(2)
            + f64::from(losses) * score.powi(2))
            / n;
        let score_error = variance.sqrt() / n.sqrt();
        let (low, high) = if wins == games {
            // Every game won: only a lower bound, from the binomial.
            (elo_from_score(0.025f64.powf(1.0 / n)), None)
        } else if losses == games {
            (None, elo_from_score(1.0 - 0.025f64.powf(1.0 / n)))
        } else {
            (
                elo_from_score(score - Z_95 * score_error),
                elo_from_score(score + Z_95 * score_error),
            )
        };
        Some(EloEstimate {
            games,
            score,
            score_error,
            elo: elo_from_score(score),
            low,
            high,
        })
    }

    /// The 95 % interval as text, `-35.0 to +12.3`, an unbounded end as `∞`.
    pub fn interval_text(&self) -> String {
        let end = |x: Option<f64>| x.map_or("∞".to_string(), signed);
        format!("{} to {}", end(self.low), end(self.high))
    }

    /// Half the width of the 95 % interval in Elo (`None` when one end is unbounded): the
    /// `±` of `+12.3 ± 45.6`.
    pub fn error(&self) -> Option<f64> {
        Some((self.high? - self.low?) / 2.0)
    }
}

/// An Elo difference with its sign: `+190.8`, `-35.0`, `0.0`.
pub fn signed(elo: f64) -> String {
    if elo.abs() < 0.05 {
        "0.0".to_string()
    } else {
        format!("{elo:+.1}")
    }
}

impl fmt::Display for EloEstimate {
    /// `+190.8 ± 120.3 (95%: +70.5 to +311.0)`, or `> +400.2 (95%)` when every game was won
    /// (`< -400.2 (95%)` when every game was lost).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bound = |b: Option<f64>, inf: &str| b.map_or(inf.to_string(), signed);
        match (self.elo, self.error()) {
            (Some(elo), Some(error)) => write!(
                f,
                "{} ± {error:.1} (95%: {} to {})",
                signed(elo),
                bound(self.low, "-inf"),
                bound(self.high, "+inf")
            ),
            (Some(elo), None) => write!(
                f,
                "{} (95%: {} to {})",
                signed(elo),
                bound(self.low, "-inf"),
                bound(self.high, "+inf")
            ),
            (None, _) => match (self.low, self.high) {
                (Some(low), None) => write!(f, "> {} (95%)", signed(low)),
                (None, Some(high)) => write!(f, "< {} (95%)", signed(high)),
                _ => f.write_str("unbounded"),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn known_scores() {
        assert_eq!(elo_from_score(0.5), Some(0.0));
        let e = elo_from_score(0.75).unwrap();
        assert!(close(e, 190.85, 0.01), "{e}");
        // 10:1 odds are 400 Elo.
        assert!(close(elo_from_score(10.0 / 11.0).unwrap(), 400.0, 1e-9));
        for s in [0.01, 0.1, 0.3, 0.5, 0.64, 0.9, 0.999] {
            let e = elo_from_score(s).unwrap();
            assert!(close(elo_from_score(1.0 - s).unwrap(), -e, 1e-9), "{s}");
            assert!(close(score_from_elo(e), s, 1e-12), "{s}");
        }
        for s in [0.0, 1.0, -0.5, 1.5, f64::NAN] {
            assert_eq!(elo_from_score(s), None, "{s}");
        }
    }

    #[test]
    fn an_even_match_has_a_symmetric_interval() {
        let e = EloEstimate::from_results(10, 0, 10).unwrap();
        assert_eq!(e.score, 0.5);
        assert_eq!(e.elo, Some(0.0));
        // Scores 0 or 1, each game: σ = 0.5, standard error 0.5/√20.
        assert!(close(e.score_error, 0.5 / 20f64.sqrt(), 1e-12));
        let (low, high) = (e.low.unwrap(), e.high.unwrap());
        assert!(close(low, -high, 1e-9), "{low} {high}");
        let expected = elo_from_score(0.5 + Z_95 * 0.5 / 20f64.sqrt()).unwrap();
        assert!(close(high, expected, 1e-9));
        assert!(close(e.error().unwrap(), high, 1e-9));
        assert!(e.to_string().starts_with("0.0 ± "), "{e}");
    }

    #[test]
    fn draws_narrow_the_interval_and_results_mirror() {
        let decisive = EloEstimate::from_results(30, 0, 10).unwrap();
        let drawish = EloEstimate::from_results(20, 20, 0).unwrap();
        assert_eq!(decisive.score, 0.75);
        assert_eq!(drawish.score, 0.75);
        assert!(close(decisive.elo.unwrap(), 190.85, 0.01));
        assert!(drawish.error().unwrap() < decisive.error().unwrap());
        let mirrored = EloEstimate::from_results(10, 0, 30).unwrap();
        assert!(close(mirrored.elo.unwrap(), -decisive.elo.unwrap(), 1e-9));
        assert!(close(mirrored.low.unwrap(), -decisive.high.unwrap(), 1e-9));
        assert!(decisive.low.unwrap() < 190.85 && decisive.high.unwrap() > 190.85);
        assert!(decisive.to_string().starts_with("+190.8 ± "), "{decisive}");
    }

    #[test]
    fn clean_sweeps_have_one_bound() {
        let sweep = EloEstimate::from_results(8, 0, 0).unwrap();
        assert_eq!(sweep.elo, None);
        assert_eq!(sweep.high, None);
        let low = sweep.low.unwrap();
        assert!(close(
            low,
            elo_from_score(0.025f64.powf(1.0 / 8.0)).unwrap(),
            1e-9
        ));
        assert!(low > 0.0);
        assert_eq!(sweep.error(), None);
        assert!(sweep.to_string().starts_with("> +"), "{sweep}");
        let wiped = EloEstimate::from_results(0, 0, 8).unwrap();
        assert!(close(wiped.high.unwrap(), -low, 1e-9));
        assert!(wiped.to_string().starts_with("< -"), "{wiped}");
        // More games, a tighter bound.
        let longer = EloEstimate::from_results(50, 0, 0).unwrap();
        assert!(longer.low.unwrap() > low);
        assert_eq!(EloEstimate::from_results(0, 0, 0), None);
        // All draws: a score of one half with no spread.
        let draws = EloEstimate::from_results(0, 6, 0).unwrap();
        assert_eq!((draws.elo, draws.error()), (Some(0.0), Some(0.0)));
    }
}
