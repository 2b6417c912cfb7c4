//! `PolicyWeights`: one weight per move feature for one board size, read from and written to
//! the files `weights/policy-NxN.txt`.
//!
//! File format: `#` comment lines (the header naming the command and data that produced the
//! weights), blank lines, one `size N` line, at most one `units U` line, then one
//! `name weight` line per feature, in any order, each feature exactly once. Weights are in
//! move-ordering units, the scale of the history table; `units` says how many make one logit
//! of the fitted policy (absent in hand-set files).

use super::features::{Layout, LAYOUTS};
use crate::search::weights_file::{builtin_weight_files, parse_builtin, Weights, WeightsFormat};
use std::sync::LazyLock;

/// The weights of one board size: one per feature, and the units per logit when fitted.
pub type PolicyWeights = Weights<PolicyFile>;

/// The policy's weights file: `name weight` lines and a `units U` line.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PolicyFile;

/// The weight files compiled into the engine, 3×3 to 8×8.
const FILES: [&str; 6] = builtin_weight_files!("policy");

/// The compiled-in weights, parsed once on first use.
static BUILTIN: LazyLock<Vec<PolicyWeights>> =
    LazyLock::new(|| parse_builtin(&FILES, "policy", PolicyWeights::parse, PolicyWeights::size));

/// Feature names by size, built once.
static NAMES: LazyLock<Vec<Vec<String>>> =
    LazyLock::new(|| LAYOUTS.iter().map(Layout::names).collect());

impl WeightsFormat for PolicyFile {
    type Value = i32;
    type Extra = Option<f64>;
    const KIND: &'static str = "policy weights";
    const EXTRA_KEY: &'static str = "units";
    const ARITY: usize = 1;
    const SHAPE: &'static str = "<feature> <weight>";
    const DEFAULT_EXTRA: Option<f64> = None;

    fn feature_names(size: usize) -> Vec<&'static str> {
        match Layout::of(size) {
            Some(_) => NAMES[size].iter().map(String::as_str).collect(),
            None => Vec::new(),
        }
    }

    fn builtin_all() -> &'static [PolicyWeights] {
        &BUILTIN
    }

    fn extra(units: f64) -> Result<Option<f64>, ()> {
        if units.is_finite() && units > 0.0 {
            Ok(Some(units))
        } else {
            Err(())
        }
    }

    fn extra_line(units: Option<f64>) -> Option<String> {
        units.map(|units| format!("units {units}"))
    }

    fn value<'t>(numbers: &[&'t str]) -> Result<i32, &'t str> {
        numbers[0]
            .parse::<i32>()
            .ok()
            .filter(|w| w.abs() <= MAX_WEIGHT)
            .ok_or(numbers[0])
    }

    fn bad_number(n: usize, text: &str, name: &str) -> String {
        format!(
            "line {n}: bad weight '{text}' for feature '{name}' (an integer within ±{MAX_WEIGHT})"
        )
    }

    fn value_line(name: &str, weight: i32) -> String {
        format!("{name:<32} {weight:>7}")
    }
}

impl Weights<PolicyFile> {
    /// Ordering units per logit of the fitted policy (`None` for hand-set weights).
    pub fn units(&self) -> Option<f64> {
        self.extra
    }

    /// Sets the units per logit; a value that is not a positive finite number is refused.
    pub fn set_units(&mut self, units: f64) -> Result<(), String> {
        self.extra = PolicyFile::extra(units)
            .map_err(|()| format!("bad units {units}: must be a positive number"))?;
        Ok(())
    }
}

/// The largest weight a file may hold: the scores of a move's dozen features stay far inside
/// the ordering key's range, whatever the weights.
pub const MAX_WEIGHT: i32 = 1_000_000;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{MAX_SIZE, MIN_SIZE};

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
