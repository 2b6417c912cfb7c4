//! What the evaluation's and the policy's weights files share: `#` comments and blank lines,
//! a `size N` line first, then one line per feature, each feature exactly once. The errors are
//! one line each and name the line.

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
