//! `menhir convert-data`: training data from the text format to the binary one and back.
//! Inputs of either format (told apart by their first bytes), one output whose format its
//! extension picks (`.mhd` binary, anything else text). Any bad input stops the run with the
//! file and line or record named, and the output is then not written (`AtomicFile`).

use super::binary_data::{self, is_binary_path};
use super::data_line::DataLine;
use crate::common::AtomicFile;
use std::path::{Path, PathBuf};

/// Converts `inputs` into `out`; returns the number of positions written.
pub fn convert_data(inputs: &[PathBuf], out: &Path) -> Result<usize, String> {
    if inputs.is_empty() {
        return Err("no input files".into());
    }
    let binary = is_binary_path(out);
    let mut file = AtomicFile::create(out)?;
    let mut size = None;
    let mut written = 0;
    let mut bytes = Vec::new();
    for path in inputs {
        let data =
            std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let mut emit = |line: DataLine, place: &dyn Fn() -> String| -> Result<(), String> {
            let n = line.position.size();
            if binary {
                match size {
                    None => {
                        size = Some(n);
                        file.write_bytes(&binary_data::header(n))?;
                    }
                    Some(s) if s != n => {
                        return Err(format!(
                            "{}: a {n}x{n} position in a {s}x{s} binary file (one size a file)",
                            place()
                        ))
                    }
                    Some(_) => {}
                }
                bytes.clear();
                binary_data::encode(&line, &mut bytes);
                file.write_bytes(&bytes)?;
            } else {
                file.write(&line.to_line())?;
                file.write("\n")?;
            }
            written += 1;
            Ok(())
        };
        if data.starts_with(binary_data::MAGIC) {
            let (n, records) =
                binary_data::records(&data).map_err(|e| format!("{}: {e}", path.display()))?;
            for (i, rec) in records.enumerate() {
                let place = || format!("{} record {}", path.display(), i + 1);
                let line = binary_data::decode(n, rec).map_err(|e| format!("{}: {e}", place()))?;
                emit(line, &place)?;
            }
        } else {
            let text = std::str::from_utf8(&data)
                .map_err(|_| format!("{}: neither binary data nor UTF-8 text", path.display()))?;
            for (i, raw) in text.lines().enumerate() {
                let raw = raw.trim();
                if raw.is_empty() || raw.starts_with('#') {
                    continue;
                }
                let place = || format!("{} line {}", path.display(), i + 1);
                let line = DataLine::parse(raw).map_err(|e| format!("{}: {e}", place()))?;
                emit(line, &place)?;
            }
        }
    }
    if binary && size.is_none() {
        return Err("no positions in the input: a binary file needs one to know its size".into());
    }
    file.finish()?;
    Ok(written)
}
