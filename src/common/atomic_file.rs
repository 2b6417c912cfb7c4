//! Writing an output file so that a killed run never leaves a half-written file under its name:
//! the text goes to a temporary file beside the target, renamed over it when complete.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// A file being written; `finish` puts it under its name, dropping it unfinished removes it.
pub struct AtomicFile {
    target: PathBuf,
    temp: PathBuf,
    writer: Option<BufWriter<File>>,
}

impl AtomicFile {
    /// Creates `.<name>.tmp<pid>` beside `target` (so the rename stays on one file system).
    pub fn create(target: &Path) -> Result<AtomicFile, String> {
        let name = target
            .file_name()
            .ok_or_else(|| format!("{}: not a file name", target.display()))?;
        let temp = target.with_file_name(format!(
            ".{}.tmp{}",
            name.to_string_lossy(),
            std::process::id()
        ));
        let file =
            File::create(&temp).map_err(|e| format!("cannot write {}: {e}", temp.display()))?;
        Ok(AtomicFile {
            target: target.to_path_buf(),
            temp,
            writer: Some(BufWriter::new(file)),
        })
    }

    /// The temporary path (for tests and messages).
    pub fn temp_path(&self) -> &Path {
        &self.temp
    }

    /// Appends `text`.
    pub fn write(&mut self, text: &str) -> Result<(), String> {
        let writer = self.writer.as_mut().expect("not finished");
        writer
            .write_all(text.as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", self.temp.display()))
    }

    /// Flushes, syncs and renames the file to its target name.
    pub fn finish(mut self) -> Result<(), String> {
        let writer = self.writer.take().expect("not finished");
        let fail = |e: std::io::Error| format!("cannot write {}: {e}", self.target.display());
        let file = writer.into_inner().map_err(|e| fail(e.into_error()))?;
        file.sync_all().map_err(fail)?;
        std::fs::rename(&self.temp, &self.target).map_err(fail)
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.writer.take().is_some() {
            let _ = std::fs::remove_file(&self.temp);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_name_appears_only_when_finished() {
        let dir = std::env::temp_dir().join(format!("menhir-atomic-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let target = dir.join("out.txt");
        let mut file = AtomicFile::create(&target).unwrap();
        file.write("hello\n").unwrap();
        assert!(!target.exists() && file.temp_path().exists());
        file.finish().unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "hello\n");

        // Dropped unfinished (an error on the way): no file under either name.
        let other = dir.join("other.txt");
        let file = AtomicFile::create(&other).unwrap();
        let temp = file.temp_path().to_path_buf();
        drop(file);
        assert!(!other.exists() && !temp.exists());
        assert!(AtomicFile::create(&dir.join("no/such/dir/x")).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
