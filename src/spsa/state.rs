//! The `--out` file of `menhir spsa` and reading it back for `--resume`: `#` header lines (the
//! command, the iteration), then one `Name value` line per tuned parameter with θ. Written under
//! a temporary name and renamed, so a killed run always leaves a whole file.

use super::algorithm::Spsa;
use crate::common::AtomicFile;
use std::path::Path;

/// The text of the state file.
pub fn render(spsa: &Spsa, iterations: usize, command: &str) -> String {
    let mut text = format!(
        "# {command}\n# iteration {} of {iterations}; values are θ, rounded to the nearest \
         integer when sent to an engine\n",
        spsa.iteration()
    );
    for (dim, theta) in spsa.dims().iter().zip(spsa.theta()) {
        text.push_str(&format!("{} {theta:.3}\n", dim.name));
    }
    text
}

/// Writes the state to `path` (temporary file, then rename).
pub fn write(path: &Path, spsa: &Spsa, iterations: usize, command: &str) -> Result<(), String> {
    let mut file = AtomicFile::create(path)?;
    file.write(&render(spsa, iterations, command))?;
    file.finish()
}

/// What a state file holds: the iterations completed and the `(name, θ)` lines, in order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Saved {
    /// Iterations completed (0 when the file does not say).
    pub iteration: usize,
    /// Parameter names as written, with their values.
    pub values: Vec<(String, f64)>,
}

/// Parses a state file's text. Names are checked by the caller.
pub fn parse(text: &str) -> Result<Saved, String> {
    let mut saved = Saved::default();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        let fail = |why: &str| format!("line {}: {why}: '{line}'", number + 1);
        if let Some(comment) = line.strip_prefix('#') {
            let mut words = comment.split_whitespace();
            if words.next() == Some("iteration") {
                let count = words.next().unwrap_or("").trim_end_matches(';');
                saved.iteration = count
                    .parse()
                    .map_err(|_| fail("the iteration is not a count"))?;
            }
            continue;
        }
        if line.is_empty() {
            continue;
        }
        let mut words = line.split_whitespace();
        let (Some(name), Some(value), None) = (words.next(), words.next(), words.next()) else {
            return Err(fail("expected 'Name value'"));
        };
        let value: f64 = value
            .parse()
            .ok()
            .filter(|v: &f64| v.is_finite())
            .ok_or_else(|| fail("the value is not a number"))?;
        saved.values.push((name.to_string(), value));
    }
    Ok(saved)
}

/// Reads a state file.
pub fn read(path: &Path) -> Result<Saved, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    parse(&text).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::super::algorithm::Dimension;
    use super::*;

    #[test]
    fn state_round_trips() {
        let dims = vec![Dimension {
            name: "NullMoveDepth".into(),
            min: 1,
            max: 10,
            start: 3.25,
        }];
        let mut spsa = Spsa::new(dims, 10, 0);
        spsa.update(&[1.0], 0.0);
        let text = render(&spsa, 10, "menhir spsa --iterations 10");
        assert!(text.starts_with("# menhir spsa --iterations 10\n# iteration 1 of 10;"));
        let saved = parse(&text).unwrap();
        assert_eq!(saved.iteration, 1);
        assert_eq!(saved.values, [("NullMoveDepth".to_string(), 3.25)]);
        for bad in [
            "NullMoveDepth",
            "NullMoveDepth x",
            "A 1 2",
            "# iteration many",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }
}
