//! `PolicyWeights`: one weight per move feature for one board size, read from and written to
//! the files `weights/policy-NxN.txt`.
//!
//! File format: `#` comment lines (the header naming the command and data that produced the
//! weights), blank lines, one `size N` line, at most one `units U` line, then one
//! `name weight` line per feature, in any order, each feature exactly once. Weights are in
//! move-ordering units, the scale of the history table; `units` says how many make one logit
//! of the fitted policy (absent in hand-set files).

use super::features::{Layout, LAYOUTS};
use crate::core::{MAX_SIZE, MIN_SIZE};
use crate::search::weights_file::{
    bad_size, builtin_weight_files, parse_builtin, FeatureNames, WeightsText,
};

/// What these weights are called in a size error.
const KIND: &str = "policy weights";
use std::sync::LazyLock;

/// The weights of one board size.
#[derive(Clone, Debug, PartialEq)]
pub struct PolicyWeights {
    size: usize,
    weights: Vec<i32>,
    units: Option<f64>,
}

/// The weight files compiled into the engine, 3×3 to 8×8.
const FILES: [&str; 6] = builtin_weight_files!("policy");

/// The compiled-in weights, parsed once on first use.
static BUILTIN: LazyLock<Vec<PolicyWeights>> =
    LazyLock::new(|| parse_builtin(&FILES, "policy", PolicyWeights::parse, PolicyWeights::size));

/// Feature names by size, built once.
static NAMES: LazyLock<Vec<Vec<String>>> =
    LazyLock::new(|| LAYOUTS.iter().map(Layout::names).collect());

impl PolicyWeights {
    /// All-zero weights for a board of `size`, or an error for a size outside 3–8.
    pub fn zero(size: usize) -> Result<PolicyWeights, String> {
        let layout = Layout::of(size).ok_or_else(|| bad_size(KIND, size))?;
        Ok(PolicyWeights {
            size,
            weights: vec![0; layout.len],
            units: None,
        })
    }

    /// The weights compiled into the engine for a board of `size` (clamped into 3–8).
    pub fn builtin(size: usize) -> &'static PolicyWeights {
        &BUILTIN[size.clamp(MIN_SIZE, MAX_SIZE) - MIN_SIZE]
    }

    /// The board size these weights are for.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Ordering units per logit of the fitted policy (`None` for hand-set weights).
    pub fn units(&self) -> Option<f64> {
        self.units
    }

    /// Sets the units per logit; a value that is not a positive finite number is refused.
    pub fn set_units(&mut self, units: f64) -> Result<(), String> {
        if !(units.is_finite() && units > 0.0) {
            return Err(format!("bad units {units}: must be a positive number"));
        }
        self.units = Some(units);
        Ok(())
    }

    /// Number of features.
    pub fn feature_count(&self) -> usize {
        self.weights.len()
    }

    /// The feature names of a board of `size` (empty for an unsupported size).
    pub fn feature_names(size: usize) -> Vec<&'static str> {
        match Layout::of(size) {
            Some(_) => NAMES[size].iter().map(String::as_str).collect(),
            None => Vec::new(),
        }
    }

    /// The weight of feature `index` (panics past `feature_count`, as a slice).
    #[inline]
    pub fn get(&self, index: usize) -> i32 {
        self.weights[index]
    }

    /// Sets the weight of feature `index` (panics past `feature_count`).
    pub fn set(&mut self, index: usize, weight: i32) {
        self.weights[index] = weight;
    }

    /// Reads a weights file; a one-line error names the line and what is wrong with it.
    pub fn parse(text: &str) -> Result<PolicyWeights, String> {
        let file = WeightsText::read(text, KIND)?;
        let mut weights = PolicyWeights::zero(file.size)?;
        let names = PolicyWeights::feature_names(file.size);
        let mut features = FeatureNames::new(file.size, &names);
        for (n, line) in file.lines {
            let [name, value] = line.split_whitespace().collect::<Vec<_>>()[..] else {
                return Err(format!(
                    "line {n}: expected '<feature> <weight>', found '{line}'"
                ));
            };
            if name == "units" {
                if weights.units.is_some() {
                    return Err(format!("line {n}: `units` given twice"));
                }
                let units = value.parse::<f64>().unwrap_or(f64::NAN);
                weights.set_units(units).map_err(|_| {
                    format!("line {n}: bad units '{value}': must be a positive number")
                })?;
                continue;
            }
            let i = features.take(n, name)?;
            weights.weights[i] = value
                .parse::<i32>()
                .ok()
                .filter(|w| w.abs() <= MAX_WEIGHT)
                .ok_or_else(|| {
                    format!(
                        "line {n}: bad weight '{value}' for feature '{name}' (an integer within ±{MAX_WEIGHT})"
                    )
                })?;
        }
        features.finish()?;
        Ok(weights)
    }

    /// The weights as a file: `header` lines as `# …` comments, then `size N`, `units U` when
    /// known, then one `name weight` line per feature in index order.
    pub fn to_text(&self, header: &[String]) -> String {
        let mut text = String::new();
        for part in header.iter().flat_map(|line| line.split('\n')) {
            text += &format!("# {}\n", part.trim_end());
        }
        text += &format!("size {}\n", self.size);
        if let Some(units) = self.units {
            text += &format!("units {units}\n");
        }
        for (name, weight) in PolicyWeights::feature_names(self.size)
            .iter()
            .zip(&self.weights)
        {
            text += &format!("{name:<32} {weight:>7}\n");
        }
        text
    }
}

/// The largest weight a file may hold: the scores of a move's dozen features stay far inside
/// the ordering key's range, whatever the weights.
pub const MAX_WEIGHT: i32 = 1_000_000;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shipped_file_reads_and_writes_back() {
        for size in MIN_SIZE..=MAX_SIZE {
            let w = PolicyWeights::builtin(size);
            assert_eq!(w.size(), size);
            assert_eq!(PolicyWeights::parse(&w.to_text(&[])).as_ref(), Ok(w));
        }
    }

    #[test]
    fn bad_files_get_one_line_errors() {
        let good = PolicyWeights::zero(4).unwrap().to_text(&[]);
        let first = PolicyWeights::feature_names(4)[0];
        let cases = [
            (String::new(), "no `size N` line"),
            ("size 9\n".to_string(), "bad board size '9'"),
            (
                good.replace(&format!("{first} "), "nonsense "),
                "unknown feature 'nonsense'",
            ),
            (
                good.replacen("size 4\n", "size 4\nunits 0\n", 1),
                "bad units",
            ),
            (
                good.replacen("size 4\n", "size 4\nunits 9\nunits 9\n", 1),
                "`units` given twice",
            ),
            (format!("{good}{first} 1\n"), "given twice"),
            (
                good.replace(&format!("{first:<32}       0"), &format!("{first} x")),
                "bad weight 'x'",
            ),
            (
                good.replace(&format!("{first:<32}       0"), &format!("{first} 2000000")),
                "bad weight '2000000'",
            ),
            (
                good.replace(&format!("{first:<32}       0\n"), ""),
                "missing feature",
            ),
            (
                format!("{good}one two three\n"),
                "expected '<feature> <weight>'",
            ),
        ];
        for (text, why) in cases {
            let err = PolicyWeights::parse(&text).unwrap_err();
            assert!(err.contains(why), "{why}: {err}");
            assert!(!err.contains('\n'), "{err}");
        }
    }
}
