//! `EvalWeights`: an opening and an end weight per feature for one board size, read from and
//! written to the text files under `weights/`.
//!
//! File format: `#` comment lines (the header naming the command and data that produced the
//! weights), blank lines, one `size N` line, then one `name opening end` line per feature, in
//! any order, each feature exactly once, and at most one `scale K` line: the logistic scale the
//! tuner fitted the weights against (see [`EvalWeights::logistic_scale`]).

use super::features::{Layout, LAYOUTS};
use crate::search::weights_file::{builtin_weight_files, parse_builtin, Weights, WeightsFormat};
use std::sync::LazyLock;

/// The weights of one board size: `[opening, end]` per feature, in centi-flats, and the
/// logistic scale.
pub type EvalWeights = Weights<EvalFile>;

/// The evaluation's weights file: `name opening end` lines and a `scale K` line.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EvalFile;

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

/// A logistic scale kept to the tenth that a file holds; `Err` unless a positive finite number.
fn rounded_scale(k: f64) -> Result<f64, ()> {
    if k.is_finite() && k > 0.0 {
        Ok((k * 10.0).round() / 10.0)
    } else {
        Err(())
    }
}

impl WeightsFormat for EvalFile {
    type Value = [i32; 2];
    type Extra = f64;
    const KIND: &'static str = "weights";
    const EXTRA_KEY: &'static str = "scale";
    const ARITY: usize = 2;
    const SHAPE: &'static str = "<feature> <opening> <end>";
    const DEFAULT_EXTRA: f64 = DEFAULT_LOGISTIC_SCALE;

    fn feature_names(size: usize) -> Vec<&'static str> {
        match Layout::of(size) {
            Some(_) => NAMES[size].iter().map(String::as_str).collect(),
            None => Vec::new(),
        }
    }

    fn builtin_all() -> &'static [EvalWeights] {
        &BUILTIN
    }

    fn extra(value: f64) -> Result<f64, ()> {
        rounded_scale(value)
    }

    fn extra_line(k: f64) -> Option<String> {
        Some(format!("scale {k:.1}"))
    }

    fn value<'t>(numbers: &[&'t str]) -> Result<[i32; 2], &'t str> {
        let number = |text: &'t str| text.parse::<i32>().map_err(|_| text);
        Ok([number(numbers[0])?, number(numbers[1])?])
    }

    fn bad_number(n: usize, text: &str, name: &str) -> String {
        format!("line {n}: bad number '{text}' for feature '{name}'")
    }

    fn value_line(name: &str, [opening, end]: [i32; 2]) -> String {
        format!("{name:<32} {opening:>6} {end:>6}")
    }
}

impl Weights<EvalFile> {
    /// `K` in centi-flats of `E = sigmoid(eval / K)`, the expected result of the side to move
    /// for an evaluation: the scale these weights were tuned against, so it differs by size
    /// and generation (a sharper evaluation has a smaller K).
    pub fn logistic_scale(&self) -> f64 {
        self.extra
    }

    /// Sets the logistic scale, kept to the tenth that a file holds; a scale that is not a
    /// positive finite number is refused.
    pub fn set_logistic_scale(&mut self, k: f64) -> Result<(), String> {
        self.extra = rounded_scale(k)
            .map_err(|()| format!("bad logistic scale {k}: must be a positive number"))?;
        Ok(())
    }

    /// The weights as a slice, for the evaluation's inner loop.
    #[inline]
    pub(super) fn as_slice(&self) -> &[[i32; 2]] {
        &self.values
    }
}
