//! What the evaluation's and the policy's weights files share: `#` comments and blank lines,
//! a `size N` line first, at most one setting line (`scale K`, `units U`), then one line per
//! feature, each feature exactly once; and [`Weights`], the one type both are held in, read
//! and written by. The errors are one line each and name the line.

use crate::core::{MAX_SIZE, MIN_SIZE};
use std::collections::HashMap;
use std::fmt::Display;

/// The error for a board size without weights; `kind` names the weights.
pub fn bad_size(kind: &str, value: impl Display) -> String {
    format!("bad board size '{value}' ({kind} exist for sizes {MIN_SIZE} to {MAX_SIZE})")
}

/// The numbered data lines of a weights file after its `size N` line, and the size.
pub struct WeightsText<'a> {
    /// The board size of the `size N` line.
    pub size: usize,
    /// The remaining lines that are neither blank nor comments, with their 1-based numbers.
    pub lines: Vec<(usize, &'a str)>,
}

impl<'a> WeightsText<'a> {
    /// Splits `text`; `kind` names the weights in the error for a size outside 3–8.
    pub fn read(text: &'a str, kind: &str) -> Result<WeightsText<'a>, String> {
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, line)| (i + 1, line.trim()))
            .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'));
        let (n, first) = lines
            .next()
            .ok_or("no `size N` line: the file holds no weights")?;
        let size = match first.split_whitespace().collect::<Vec<_>>()[..] {
            ["size", value] => value
                .parse::<usize>()
                .ok()
                .filter(|s| (MIN_SIZE..=MAX_SIZE).contains(s))
                .ok_or_else(|| format!("line {n}: {}", bad_size(kind, value)))?,
            _ => {
                return Err(format!(
                    "line {n}: expected `size N` first, found '{first}'"
                ))
            }
        };
        Ok(WeightsText {
            size,
            lines: lines.collect(),
        })
    }
}

/// Which features a file has named so far.
pub struct FeatureNames<'a> {
    size: usize,
    names: &'a [&'a str],
    index: HashMap<&'a str, usize>,
    seen: Vec<bool>,
}

impl<'a> FeatureNames<'a> {
    /// The features of a board of `size`, none named yet.
    pub fn new(size: usize, names: &'a [&'a str]) -> FeatureNames<'a> {
        FeatureNames {
            size,
            names,
            index: names.iter().enumerate().map(|(i, &s)| (s, i)).collect(),
            seen: vec![false; names.len()],
        }
    }

    /// The index of feature `name` on line `n`; an error for an unknown or repeated name.
    pub fn take(&mut self, n: usize, name: &str) -> Result<usize, String> {
        let size = self.size;
        let &i = self
            .index
            .get(name)
            .ok_or_else(|| format!("line {n}: unknown feature '{name}' for {size}x{size}"))?;
        if std::mem::replace(&mut self.seen[i], true) {
            return Err(format!("line {n}: feature '{name}' given twice"));
        }
        Ok(i)
    }

    /// An error naming the first feature the file left out, if any.
    pub fn finish(self) -> Result<(), String> {
        let size = self.size;
        let missing: Vec<&str> = (0..self.names.len())
            .filter(|&i| !self.seen[i])
            .map(|i| self.names[i])
            .collect();
        match missing[..] {
            [] => Ok(()),
            [one] => Err(format!("missing feature '{one}' for {size}x{size}")),
            [first, ..] => Err(format!(
                "missing feature '{first}' and {} more for {size}x{size}",
                missing.len() - 1
            )),
        }
    }
}
/// What sets one kind of weights file apart: its values per feature, its one extra setting
/// line (`scale K`, `units U`), its feature names and its compiled-in files. [`Weights`] holds
/// the rest once: the size, the vector, reading, writing and the look-ups.
pub trait WeightsFormat: Sized + 'static {
    /// The value of one feature.
    type Value: Copy + Default + PartialEq + std::fmt::Debug;
    /// The file's extra setting, as held.
    type Extra: Copy + PartialEq + std::fmt::Debug;
    /// What these weights are called in a size error.
    const KIND: &'static str;
    /// The key of the extra setting line (`scale`, `units`).
    const EXTRA_KEY: &'static str;
    /// The numbers a feature line holds after the name.
    const ARITY: usize;
    /// A feature line's shape, for the error on a line of another shape.
    const SHAPE: &'static str;
    /// The extra setting of weights read from a file that has no such line.
    const DEFAULT_EXTRA: Self::Extra;
    /// The feature names of a board of `size` (empty for an unsupported size).
    fn feature_names(size: usize) -> Vec<&'static str>;
    /// The compiled-in weights, 3×3 to 8×8.
    fn builtin_all() -> &'static [Weights<Self>];
    /// The extra setting from its number; an error (the caller words it) when out of range.
    fn extra(value: f64) -> Result<Self::Extra, ()>;
    /// The extra setting's line, if it is written.
    fn extra_line(extra: Self::Extra) -> Option<String>;
    /// A feature's value from the `ARITY` numbers after its name; `Err` holds the bad number.
    fn value<'t>(numbers: &[&'t str]) -> Result<Self::Value, &'t str>;
    /// The error detail of a bad number (after `bad number 'x' for feature 'f'`-like text).
    fn bad_number(n: usize, text: &str, name: &str) -> String;
    /// A feature's line: its name and value, aligned.
    fn value_line(name: &str, value: Self::Value) -> String;
}

/// One board size's weights of a kind: one value per feature plus the file's extra setting.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights<F: WeightsFormat> {
    size: usize,
    pub(in crate::search) values: Vec<F::Value>,
    pub(in crate::search) extra: F::Extra,
    /// `set_before[i]`: how many of the first `i` values are not zero, so that a group of
    /// features can be skipped in two loads when none of it is set.
    set_before: Vec<u32>,
}

impl<F: WeightsFormat> Weights<F> {
    /// All-zero weights for a board of `size`, or an error for a size outside 3–8.
    pub fn zero(size: usize) -> Result<Weights<F>, String> {
        let names = F::feature_names(size);
        if names.is_empty() {
            return Err(bad_size(F::KIND, size));
        }
        Ok(Weights {
            size,
            values: vec![F::Value::default(); names.len()],
            extra: F::DEFAULT_EXTRA,
            set_before: vec![0; names.len() + 1],
        })
    }

    /// The weights compiled into the engine for a board of `size` (clamped into 3–8).
    pub fn builtin(size: usize) -> &'static Weights<F> {
        &F::builtin_all()[size.clamp(MIN_SIZE, MAX_SIZE) - MIN_SIZE]
    }

    /// The board size these weights are for.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Number of features.
    pub fn feature_count(&self) -> usize {
        self.values.len()
    }

    /// The feature names of a board of `size`, index `i` naming feature `i` (empty for an
    /// unsupported size).
    pub fn feature_names(size: usize) -> Vec<&'static str> {
        F::feature_names(size)
    }

    /// The value of feature `index` (panics past `feature_count`, as a slice).
    #[inline]
    pub fn get(&self, index: usize) -> F::Value {
        self.values[index]
    }

    /// Sets the value of feature `index` (panics past `feature_count`).
    pub fn set(&mut self, index: usize, value: F::Value) {
        let zero = F::Value::default();
        let change = i32::from(value != zero) - i32::from(self.values[index] != zero);
        self.values[index] = value;
        if change != 0 {
            for count in &mut self.set_before[index + 1..] {
                *count = count.wrapping_add_signed(change);
            }
        }
    }

    /// Whether any of features `start..start + len` has a value other than zero.
    #[inline]
    pub fn any_set(&self, start: usize, len: usize) -> bool {
        self.set_before[start + len] != self.set_before[start]
    }

    /// Reads a weights file; a one-line error names the line and what is wrong with it.
    pub fn parse(text: &str) -> Result<Weights<F>, String> {
        let file = WeightsText::read(text, F::KIND)?;
        let size = file.size;
        let mut weights = Weights::<F>::zero(size)?;
        let names = F::feature_names(size);
        let mut features = FeatureNames::new(size, &names);
        let mut extra_seen = false;
        for (n, line) in file.lines {
            let words: Vec<&str> = line.split_whitespace().collect();
            let key = F::EXTRA_KEY;
            if let [word, value] = words[..] {
                if word == key {
                    if std::mem::replace(&mut extra_seen, true) {
                        return Err(format!("line {n}: `{key}` given twice"));
                    }
                    let number = value.parse::<f64>().unwrap_or(f64::NAN);
                    weights.extra = F::extra(number).map_err(|()| {
                        format!("line {n}: bad {key} '{value}': must be a positive number")
                    })?;
                    continue;
                }
            }
            if words.len() != F::ARITY + 1 {
                return Err(format!("line {n}: expected '{}', found '{line}'", F::SHAPE));
            }
            let name = words[0];
            let i = features.take(n, name)?;
            weights.set(
                i,
                F::value(&words[1..]).map_err(|bad| F::bad_number(n, bad, name))?,
            );
        }
        features.finish()?;
        Ok(weights)
    }

    /// The weights as a file: `header` lines as `# …` comments, then `size N`, the extra
    /// setting's line, then one line per feature in index order.
    pub fn to_text(&self, header: &[String]) -> String {
        let mut text = String::new();
        // A line break inside a header line would end the comment: each part gets its own.
        for part in header.iter().flat_map(|line| line.split('\n')) {
            text += &format!("# {}\n", part.trim_end());
        }
        text += &format!("size {}\n", self.size);
        if let Some(line) = F::extra_line(self.extra) {
            text += &line;
            text += "\n";
        }
        for (name, &value) in F::feature_names(self.size).iter().zip(&self.values) {
            text += &F::value_line(name, value);
            text += "\n";
        }
        text
    }
}

/// The weight files `weights/<stem>-3x3.txt` to `-8x8.txt`, compiled into the engine.
macro_rules! builtin_weight_files {
    ($stem:literal) => {
        [
            include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/weights/",
                $stem,
                "-3x3.txt"
            )),
            include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/weights/",
                $stem,
                "-4x4.txt"
            )),
            include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/weights/",
                $stem,
                "-5x5.txt"
            )),
            include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/weights/",
                $stem,
                "-6x6.txt"
            )),
            include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/weights/",
                $stem,
                "-7x7.txt"
            )),
            include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/weights/",
                $stem,
                "-8x8.txt"
            )),
        ]
    };
}
pub(crate) use builtin_weight_files;

/// Parses the compiled-in weight files `files` (3×3 to 8×8, named `weights/<stem>-NxN.txt`)
/// with `parse`, each checked to be for its size by `size_of`. A test parses every file, so a
/// failure here is a build defect, not input: it panics.
pub fn parse_builtin<W>(
    files: &[&str],
    stem: &str,
    parse: fn(&str) -> Result<W, String>,
    size_of: fn(&W) -> usize,
) -> Vec<W> {
    files
        .iter()
        .zip(crate::core::MIN_SIZE..)
        .map(|(text, size)| match parse(text) {
            Ok(w) if size_of(&w) == size => w,
            Ok(w) => panic!(
                "weights/{stem}-{size}x{size}.txt is for size {}",
                size_of(&w)
            ),
            Err(e) => panic!("weights/{stem}-{size}x{size}.txt: {e}"),
        })
        .collect()
}
