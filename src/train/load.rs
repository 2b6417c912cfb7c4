//! Reading data files into a `Dataset`: every line of the chosen size is parsed and traced
//! once (on rayon, a block of lines at a time); lines of other sizes are counted and skipped;
//! malformed lines are counted, and the first few are named with their file and line number.

use super::data::DataLine;
use super::dataset::Dataset;
use crate::search::{eval_trace, EvalWeights};
use rayon::prelude::*;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

/// Lines read and traced at a time (bounds the memory the text takes).
const BLOCK: usize = 1 << 18;
/// Malformed lines named in the report.
const NAMED: usize = 5;

/// What one file gave.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FileCounts {
    /// The file.
    pub path: PathBuf,
    /// Data lines (not blank, not `#`).
    pub lines: usize,
    /// Positions of the chosen size, kept.
    pub used: usize,
    /// Positions of other sizes, skipped.
    pub other_size: usize,
    /// Lines that could not be read.
    pub malformed: usize,
}

/// What all files gave.
#[derive(Debug)]
pub struct Loaded {
    /// The positions of the chosen size.
    pub data: Dataset,
    /// Per file, in the order given.
    pub files: Vec<FileCounts>,
    /// The first malformed lines as `file:line: why`.
    pub examples: Vec<String>,
}

enum Parsed {
    Kept(i32, Vec<(u16, i16)>, f64, f64),
    OtherSize,
    Malformed(String),
}

fn parse_line(line: &str, size: usize) -> Parsed {
    match DataLine::parse(line) {
        Err(why) => Parsed::Malformed(why),
        Ok(d) if d.position.size() != size => Parsed::OtherSize,
        Ok(d) => {
            let trace = eval_trace(&d.position);
            let (score, result) = d.mover_view();
            Parsed::Kept(trace.phase, trace.terms, f64::from(score), result)
        }
    }
}

/// Reads the positions of `size` from `paths`. Errors: an unreadable file, or no usable line.
pub fn load(paths: &[PathBuf], size: usize) -> Result<Loaded, String> {
    let mut data = Dataset::new(EvalWeights::feature_names(size).len());
    let mut files = Vec::new();
    let mut examples = Vec::new();
    for path in paths {
        let counts = load_file(path, size, &mut data, &mut examples)?;
        files.push(counts);
    }
    if data.is_empty() {
        let malformed: usize = files.iter().map(|f| f.malformed).sum();
        let other: usize = files.iter().map(|f| f.other_size).sum();
        let mut message = format!(
            "no usable {size}x{size} position in the data ({malformed} malformed lines, {other} of other sizes)"
        );
        if let Some(first) = examples.first() {
            message += &format!("; first malformed: {first}");
        }
        return Err(message);
    }
    Ok(Loaded {
        data,
        files,
        examples,
    })
}

fn load_file(
    path: &Path,
    size: usize,
    data: &mut Dataset,
    examples: &mut Vec<String>,
) -> Result<FileCounts, String> {
    let fail = |e: std::io::Error| format!("cannot read {}: {e}", path.display());
    let file = std::fs::File::open(path).map_err(fail)?;
    let mut reader = BufReader::new(file);
    let mut counts = FileCounts {
        path: path.to_path_buf(),
        ..FileCounts::default()
    };
    let mut number = 0usize;
    let mut block: Vec<(usize, String)> = Vec::with_capacity(BLOCK);
    let mut done = false;
    while !done {
        block.clear();
        while block.len() < BLOCK {
            let mut bytes = Vec::new();
            if reader.read_until(b'\n', &mut bytes).map_err(fail)? == 0 {
                done = true;
                break;
            }
            number += 1;
            // Bytes that are not UTF-8 make a malformed line, not an unreadable file.
            let line = String::from_utf8_lossy(&bytes).into_owned();
            let text = line.trim();
            if !text.is_empty() && !text.starts_with('#') {
                block.push((number, line));
            }
        }
        let parsed: Vec<Parsed> = block.par_iter().map(|(_, l)| parse_line(l, size)).collect();
        for ((number, _), parsed) in block.iter().zip(parsed) {
            counts.lines += 1;
            match parsed {
                Parsed::Kept(phase, terms, score, result) => {
                    counts.used += 1;
                    data.push(phase, &terms, score, result);
                }
                Parsed::OtherSize => counts.other_size += 1,
                Parsed::Malformed(why) => {
                    counts.malformed += 1;
                    if examples.len() < NAMED {
                        examples.push(format!("{}:{number}: {why}", path.display()));
                    }
                }
            }
        }
    }
    Ok(counts)
}
