//! Reading data files: every line of the chosen size is parsed and traced once (on rayon, a
//! block of lines at a time); lines of other sizes are counted and skipped; malformed lines are
//! counted, and the first few are named with their file and line number. [`load`] makes the
//! evaluation's `Dataset`; [`read_files`] is the reading itself, for any tuner.

use super::data_line::DataLine;
use super::eval_set::Dataset;
use crate::common::today;
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

/// What one line became.
pub enum Parsed<T> {
    /// A position of the chosen size, made into what the tuner keeps.
    Kept(T),
    /// A position of another size.
    OtherSize,
    /// Not a usable line, and why.
    Malformed(String),
}

impl<T> Parsed<T> {
    /// Reads a line with `DataLine::parse` and, when its size is `size`, turns it by `keep`
    /// (which may still refuse it with a reason).
    pub fn of(line: &str, size: usize, keep: impl Fn(DataLine) -> Result<T, String>) -> Self {
        match DataLine::parse(line) {
            Err(why) => Parsed::Malformed(why),
            Ok(d) if d.position.size() != size => Parsed::OtherSize,
            Ok(d) => keep(d).map_or_else(Parsed::Malformed, Parsed::Kept),
        }
    }
}

/// The evaluation's row of a line: phase, trace, score and result from the mover's view.
type EvalRow = (i32, Vec<(u16, i16)>, f64, f64);

fn eval_row(d: DataLine) -> Result<EvalRow, String> {
    let trace = eval_trace(&d.position);
    let (score, result) = d.mover_view();
    Ok((trace.phase, trace.terms, f64::from(score), result))
}

/// Reads the positions of `size` from `paths`. Errors: an unreadable file, or no usable line.
pub fn load(paths: &[PathBuf], size: usize) -> Result<Loaded, String> {
    let mut data = Dataset::new(EvalWeights::feature_names(size).len());
    let (files, examples) = read_files(
        paths,
        size,
        |line| Parsed::of(line, size, eval_row),
        |(phase, terms, score, result)| data.push(phase, &terms, score, result),
    )?;
    Ok(Loaded {
        data,
        files,
        examples,
    })
}

/// Reads every line of `paths`, turns each by `parse` (in parallel) and hands the kept ones
/// to `keep` in file order. Returns the counts per file and the first malformed lines named.
/// Errors: an unreadable file, or no line kept at all.
pub fn read_files<T: Send>(
    paths: &[PathBuf],
    size: usize,
    parse: impl Fn(&str) -> Parsed<T> + Sync,
    mut keep: impl FnMut(T),
) -> Result<(Vec<FileCounts>, Vec<String>), String> {
    let mut files = Vec::new();
    let mut examples = Vec::new();
    for path in paths {
        let counts = read_file(path, &parse, &mut keep, &mut examples)?;
        files.push(counts);
    }
    if files.iter().all(|f| f.used == 0) {
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
    Ok((files, examples))
}

fn read_file<T: Send>(
    path: &Path,
    parse: &(impl Fn(&str) -> Parsed<T> + Sync),
    keep: &mut impl FnMut(T),
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
        let parsed: Vec<Parsed<T>> = block.par_iter().map(|(_, l)| parse(l)).collect();
        for ((number, _), parsed) in block.iter().zip(parsed) {
            counts.lines += 1;
            match parsed {
                Parsed::Kept(row) => {
                    counts.used += 1;
                    keep(row);
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

/// Prints on stderr, each line led by `tool: `, what every file gave and the malformed lines
/// named.
pub fn print_counts(tool: &str, files: &[FileCounts], examples: &[String]) {
    for f in files {
        eprintln!(
            "{tool}: {}: {} lines, {} used, {} of other sizes, {} malformed",
            f.path.display(),
            f.lines,
            f.used,
            f.other_size,
            f.malformed
        );
    }
    for example in examples {
        eprintln!("{tool}: malformed: {example}");
    }
}

/// The first header lines of a fitted weights file: the command line as typed, the date and
/// what each data file gave.
pub fn data_header(files: &[FileCounts]) -> Vec<String> {
    let command = std::env::args().collect::<Vec<_>>().join(" ");
    let mut header = vec![
        format!("written by: {command}"),
        format!("date: {}", today()),
    ];
    for f in files {
        header.push(format!(
            "data: {} ({} lines, {} used)",
            f.path.display(),
            f.lines,
            f.used
        ));
    }
    header
}
