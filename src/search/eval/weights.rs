//! `EvalWeights`: an opening and an end weight per feature for one board size, read from and
//! written to the text files under `weights/`.
//!
//! File format: `#` comment lines (the header naming the command and data that produced the
//! weights), blank lines, one `size N` line, then one `name opening end` line per feature, in
//! any order, each feature exactly once, and at most one `scale K` line: the logistic scale the
//! tuner fitted the weights against (see [`EvalWeights::logistic_scale`]).

use super::features::{Layout, LAYOUTS};
use crate::core::{MAX_SIZE, MIN_SIZE};
use crate::search::weights_file::{
    bad_size, builtin_weight_files, parse_builtin, FeatureNames, WeightsText,
};

/// What these weights are called in a size error.
const KIND: &str = "weights";
use std::sync::LazyLock;

/// The weights of one board size: `[opening, end]` per feature, in centi-flats.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalWeights {
    size: usize,
    weights: Vec<[i32; 2]>,
    logistic_scale: f64,
}

/// `K` of a weights file without a `scale` line (the hand-set weights): the scale `menhir tune-eval`
/// fitted to the game results of generation 0 (243,069 6×6 komi 2 positions of `menhir
/// datagen` at 5000 nodes, the hand-set weights). With 505, one flat ahead expects 55 %.
pub const DEFAULT_LOGISTIC_SCALE: f64 = 505.0;

/// The weight files compiled into the engine, 3×3 to 8×8.
const FILES: [&str; 6] = builtin_weight_files!("eval");

/// The compiled-in weights, parsed once on first use.
static BUILTIN: LazyLock<Vec<EvalWeights>> =
    LazyLock::new(|| parse_builtin(&FILES, "eval", EvalWeights::parse, EvalWeights::size));

/// Feature names by size, built once.
static NAMES: LazyLock<Vec<Vec<String>>> =
    LazyLock::new(|| LAYOUTS.iter().map(Layout::names).collect());

impl EvalWeights {
    /// All-zero weights for a board of `size`, or an error for a size outside 3–8.
    pub fn zero(size: usize) -> Result<EvalWeights, String> {
        let layout = Layout::of(size).ok_or_else(|| bad_size(KIND, size))?;
        Ok(EvalWeights {
            size,
            weights: vec![[0, 0]; layout.len],
            logistic_scale: DEFAULT_LOGISTIC_SCALE,
        })
    }

    /// The weights compiled into the engine for a board of `size` (clamped into 3–8).
    pub fn builtin(size: usize) -> &'static EvalWeights {
        &BUILTIN[size.clamp(MIN_SIZE, MAX_SIZE) - MIN_SIZE]
    }

    /// The board size these weights are for.
    pub fn size(&self) -> usize {
        self.size
    }

    /// `K` in centi-flats of `E = sigmoid(eval / K)`, the expected result of the side to move
    /// for an evaluation: the scale these weights were tuned against, so it differs by size
    /// and generation (a sharper evaluation has a smaller K).
    pub fn logistic_scale(&self) -> f64 {
        self.logistic_scale
    }

    /// Sets the logistic scale, kept to the tenth that a file holds; a scale that is not a
    /// positive finite number is refused.
    pub fn set_logistic_scale(&mut self, k: f64) -> Result<(), String> {
        if !(k.is_finite() && k > 0.0) {
            return Err(format!("bad logistic scale {k}: must be a positive number"));
        }
        self.logistic_scale = (k * 10.0).round() / 10.0;
        Ok(())
    }

    /// Number of features (weights pairs).
    pub fn feature_count(&self) -> usize {
        self.weights.len()
    }

    /// The feature names of a board of `size`, index `i` naming feature `i` (empty for an
    /// unsupported size).
    pub fn feature_names(size: usize) -> Vec<&'static str> {
        match Layout::of(size) {
            Some(_) => NAMES[size].iter().map(String::as_str).collect(),
            None => Vec::new(),
        }
    }

    /// `[opening, end]` weight of feature `index` (panics past `feature_count`, as a slice).
    #[inline]
    pub fn get(&self, index: usize) -> [i32; 2] {
        self.weights[index]
    }

    /// Sets the `[opening, end]` weight of feature `index` (panics past `feature_count`).
    pub fn set(&mut self, index: usize, v: [i32; 2]) {
        self.weights[index] = v;
    }

    /// The weights as a slice, for the evaluation's inner loop.
    #[inline]
    pub(super) fn as_slice(&self) -> &[[i32; 2]] {
        &self.weights
    }

    /// Reads a weights file; a one-line error names the line and what is wrong with it.
    pub fn parse(text: &str) -> Result<EvalWeights, String> {
        let file = WeightsText::read(text, KIND)?;
        let size = file.size;
        let mut weights = EvalWeights::zero(size)?;
        let names = EvalWeights::feature_names(size);
        let mut features = FeatureNames::new(size, &names);
        let mut scale_seen = false;
        for (n, line) in file.lines {
            if let ["scale", value] = line.split_whitespace().collect::<Vec<_>>()[..] {
                if std::mem::replace(&mut scale_seen, true) {
                    return Err(format!("line {n}: `scale` given twice"));
                }
                let k = value.parse::<f64>().unwrap_or(f64::NAN);
                weights.set_logistic_scale(k).map_err(|_| {
                    format!("line {n}: bad scale '{value}': must be a positive number")
                })?;
                continue;
            }
            let [name, opening, end] = line.split_whitespace().collect::<Vec<_>>()[..] else {
                return Err(format!(
                    "line {n}: expected '<feature> <opening> <end>', found '{line}'"
                ));
            };
            let i = features.take(n, name)?;
            let number = |text: &str| {
                text.parse::<i32>()
                    .map_err(|_| format!("line {n}: bad number '{text}' for feature '{name}'"))
            };
            weights.weights[i] = [number(opening)?, number(end)?];
        }
        features.finish()?;
        Ok(weights)
    }

    /// The weights as a file: `header` lines as `# …` comments, then `size N`, `scale K`, then one
    /// `name opening end` line per feature in index order.
    pub fn to_text(&self, header: &[String]) -> String {
        let mut text = String::new();
        // A line break inside a header line would end the comment: each part gets its own.
        for part in header.iter().flat_map(|line| line.split('\n')) {
            text += &format!("# {}\n", part.trim_end());
        }
        text += &format!("size {}\n", self.size);
        text += &format!("scale {:.1}\n", self.logistic_scale);
        let names = EvalWeights::feature_names(self.size);
        for (name, [opening, end]) in names.iter().zip(&self.weights) {
            text += &format!("{name:<32} {opening:>6} {end:>6}\n");
        }
        text
    }
}
