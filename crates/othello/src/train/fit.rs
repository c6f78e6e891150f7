//! The least-squares fit of the pattern weights, phase by phase (see the module above).

use std::sync::Arc;

use rayon::prelude::*;

use super::{Sample, TrainOptions};
use crate::pattern::{
    indices, phase_of, Classes, PatternEval, PatternWeights, PhaseWeights, INSTANCES, PHASES,
    PHASE_WIDTH,
};

/// How well one phase was fitted.
#[derive(Clone, Debug, PartialEq)]
pub struct FitReport {
    /// The phase.
    pub phase: usize,
    /// Training samples of the phase itself (the neighbouring phase's come on top).
    pub train: usize,
    /// Held-out samples.
    pub holdout: usize,
    /// Mean absolute error on the held-out samples before the fit (the starting weights), discs.
    pub holdout_mae_before: f64,
    /// Mean absolute error on the training samples after the fit, discs.
    pub train_mae: f64,
    /// Mean absolute error on the held-out samples after the fit, discs.
    pub holdout_mae: f64,
}

/// Rows per chunk of the fit's parallel sums (fixed, so that the sums' order is too).
const CHUNK: usize = 1 << 16;

/// A sample as the fit sees it: each instance's class and sign, the bias slot, the target.
struct Row {
    features: [(u32, f32); INSTANCES],
    bias: usize,
    target: f32,
}

fn rows(samples: &[(Sample, f32)], bias_per_phase: bool) -> Vec<Row> {
    let classes = Classes::get();
    samples
        .iter()
        .map(|&(s, target)| {
            let idx = indices(s.player, s.opponent);
            let mut features = [(u32::MAX, 0.0); INSTANCES];
            for (f, &i) in features.iter_mut().zip(idx.iter()) {
                let c = classes.class[i as usize];
                if c != u32::MAX {
                    *f = (c, f32::from(classes.sign[i as usize]));
                }
            }
            Row {
                features,
                bias: if bias_per_phase {
                    0
                } else {
                    (s.empties().min(59) % PHASE_WIDTH) as usize
                },
                target,
            }
        })
        .collect()
}

fn predict(row: &Row, w: &[f32], bias: &[f32]) -> f32 {
    row.features
        .iter()
        .filter(|&&(c, _)| c != u32::MAX)
        .fold(bias[row.bias], |sum, &(c, s)| sum + s * w[c as usize])
}

fn mae(rows: &[Row], w: &[f32], bias: &[f32]) -> f64 {
    if rows.is_empty() {
        return 0.0;
    }
    rows.iter()
        .map(|r| f64::from((predict(r, w, bias) - r.target).abs()))
        .sum::<f64>()
        / rows.len() as f64
}

/// Rounds weights in discs to the file's hundredths.
fn quantize(x: f32) -> i16 {
    (x * 100.0).round().clamp(-32000.0, 32000.0) as i16
}

/// Fits one phase's weights to `samples` (with their targets, NaN for none; `extra` are more
/// samples for training only, from the neighbouring phase) from the starting weights
/// `init`: gradient descent on the squared error, each weight's step scaled by how often its
/// class occurs (plus a damping count, so rare classes move slowly), the global step halved
/// whenever a pass makes the training error worse. Samples of games numbered a multiple of
/// `options.holdout_every` are held out and only measured.
pub fn fit_phase(
    phase: usize,
    samples: &[(Sample, f32)],
    extra: &[(Sample, f32)],
    init: &PhaseWeights,
    options: &TrainOptions,
) -> (PhaseWeights, FitReport) {
    const DAMPING: f32 = 8.0;
    let holdout_every = options.holdout_every.max(2) as u32;
    let (held, mut train): (Vec<_>, Vec<_>) = samples
        .iter()
        .filter(|(_, target)| !target.is_nan())
        .partition(|(s, _)| s.game % holdout_every == 0);
    let own = train.len();
    train.extend(
        extra
            .iter()
            .filter(|(s, target)| s.game % holdout_every != 0 && !target.is_nan()),
    );
    let tied = options.bias_per_phase;
    let (held, train) = (rows(&held, tied), rows(&train, tied));
    let count = Classes::get().count;
    let mut w: Vec<f32> = init.classes.iter().map(|&x| f32::from(x) / 100.0).collect();
    let mut bias: Vec<f32> = init.bias.iter().map(|&x| f32::from(x) / 100.0).collect();
    let holdout_mae_before = mae(&held, &w, &bias);
    // What the ridge pulls toward: zero, or the starting (previous phase's) weights.
    let prior: Vec<f32> = if options.l2_toward_previous {
        w.clone()
    } else {
        vec![0.0; w.len()]
    };
    let mut occurrences = vec![0f32; count];
    let mut bias_count = vec![0f32; bias.len()];
    for r in &train {
        for &(c, _) in r.features.iter().filter(|&&(c, _)| c != u32::MAX) {
            occurrences[c as usize] += 1.0;
        }
        bias_count[r.bias] += 1.0;
    }
    // The sums over the rows run on rayon's threads in fixed chunks added up in chunk order,
    // so that the result does not depend on the number of threads.
    let loss = |w: &[f32], bias: &[f32]| -> f64 {
        train
            .par_chunks(CHUNK)
            .map(|chunk| {
                chunk
                    .iter()
                    .map(|r| f64::from((predict(r, w, bias) - r.target).powi(2)))
                    .sum::<f64>()
            })
            .collect::<Vec<f64>>()
            .into_iter()
            .sum::<f64>()
            + f64::from(options.l2)
                * w.iter()
                    .zip(&prior)
                    .map(|(&x, &p)| f64::from((x - p) * (x - p)))
                    .sum::<f64>()
    };
    let mut step = 0.5f32;
    let mut current = loss(&w, &bias);
    let mut gradient = vec![0f32; count];
    let mut bias_gradient = vec![0f32; bias.len()];
    for _ in 0..options.epochs {
        gradient.iter_mut().for_each(|g| *g = 0.0);
        bias_gradient.iter_mut().for_each(|g| *g = 0.0);
        let parts: Vec<(Vec<f32>, Vec<f32>)> = train
            .par_chunks(CHUNK)
            .map(|chunk| {
                let mut g = vec![0f32; count];
                let mut b = vec![0f32; bias.len()];
                for r in chunk {
                    let residual = r.target - predict(r, &w, &bias);
                    for &(c, s) in r.features.iter().filter(|&&(c, _)| c != u32::MAX) {
                        g[c as usize] += s * residual;
                    }
                    b[r.bias] += residual;
                }
                (g, b)
            })
            .collect();
        for (g, b) in parts {
            gradient.iter_mut().zip(g).for_each(|(x, y)| *x += y);
            bias_gradient.iter_mut().zip(b).for_each(|(x, y)| *x += y);
        }
        let (old_w, old_bias) = (w.clone(), bias.clone());
        for (((x, g), n), p) in w.iter_mut().zip(&gradient).zip(&occurrences).zip(&prior) {
            *x += step * (g - options.l2 * (*x - p)) / (n + DAMPING) / INSTANCES as f32 * 4.0;
        }
        for ((x, g), n) in bias.iter_mut().zip(&bias_gradient).zip(&bias_count) {
            *x += step * g / (n + DAMPING);
        }
        let next = loss(&w, &bias);
        if next > current {
            w = old_w;
            bias = old_bias;
            step /= 2.0;
            if step < 1e-4 {
                break;
            }
        } else {
            current = next;
        }
    }
    let quantized = PhaseWeights {
        classes: w.iter().map(|&x| quantize(x)).collect(),
        bias: std::array::from_fn(|i| quantize(bias[if tied { 0 } else { i }])),
    };
    let qw: Vec<f32> = quantized
        .classes
        .iter()
        .map(|&x| f32::from(x) / 100.0)
        .collect();
    let qb: Vec<f32> = quantized
        .bias
        .iter()
        .map(|&x| f32::from(x) / 100.0)
        .collect();
    let report = FitReport {
        phase,
        train: own,
        holdout: held.len(),
        holdout_mae_before,
        train_mae: mae(&train, &qw, &qb),
        holdout_mae: mae(&held, &qw, &qb),
    };
    (quantized, report)
}

/// Fits every phase, from the end of the game backwards: phase by phase, the phase's samples
/// are labelled by `labels(phase, samples, model)` (with `model` the weights fitted so far;
/// [`label`](super::label) computes them, the command line also keeps them in its work folder), then fitted
/// with [`fit_phase`] on them and the previous phase's samples, starting from the previous
/// phase's weights. Each fitted phase's weights also become the starting point of every later
/// phase (and the labelling search's stand-in where a pass keeps a leaf in an unfitted phase).
/// With [`TrainOptions::base`] (refining), the phases below [`TrainOptions::refit_from`]
/// empties are the base's, unlabelled and unfitted, and each later phase starts from the
/// base's own weights for it. `done` hears each fitted phase's report as it finishes.
pub fn fit_phases<E>(
    samples: &[Sample],
    options: &TrainOptions,
    provenance: &str,
    mut labels: impl FnMut(usize, &[Sample], &PatternEval) -> Result<Vec<f32>, E>,
    mut done: impl FnMut(&FitReport),
) -> Result<(PatternWeights, Vec<FitReport>), E> {
    let (mut weights, first) = match &options.base {
        Some(base) => {
            let mut weights = (**base).clone();
            weights.provenance = provenance.to_string();
            (weights, phase_of(options.refit_from))
        }
        None => (PatternWeights::zero(provenance), 0),
    };
    let mut reports = Vec::new();
    let mut previous = Vec::new();
    for phase in first..PHASES {
        let mine: Vec<Sample> = samples
            .iter()
            .filter(|s| phase_of(s.empties()) == phase)
            .copied()
            .collect();
        let model = PatternEval::new(Arc::new(weights.clone()));
        let values = labels(phase, &mine, &model)?;
        let labelled: Vec<(Sample, f32)> = mine.into_iter().zip(values).collect();
        let (fitted, report) =
            fit_phase(phase, &labelled, &previous, &weights.phases[phase], options);
        done(&report);
        reports.push(report);
        // Refining keeps the base's later phases as their starting points.
        let upto = if options.base.is_some() {
            phase + 1
        } else {
            PHASES
        };
        for later in &mut weights.phases[phase..upto] {
            later.clone_from(&fitted);
        }
        previous = labelled;
    }
    Ok((weights, reports))
}
