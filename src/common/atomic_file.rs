//! Writing an output file so that a killed run never leaves a half-written file under its name:
//! the text goes to a temporary file beside the target, renamed over it when complete.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// A file being written; `finish` puts it under its name, dropping it unfinished removes it.
pub struct AtomicFile {
    target: PathBuf,
    /// `None` when the target is written in place (see `create`).
    temp: Option<PathBuf>,
    writer: Option<BufWriter<File>>,
}

impl AtomicFile {
    /// Creates `.<name>.tmp<pid>` beside `target` (so the rename stays on one file system).
    ///
    /// A target that exists and is not a plain file (`/dev/null`, a FIFO, a terminal) is written
    /// in place: renaming over it would put a plain file where the device was, and as root that
    /// breaks `/dev/null` for every program on the machine. A symbolic link to a plain file is
    /// followed, so the file it points to is replaced, not the link.
    pub fn create(target: &Path) -> Result<AtomicFile, String> {
        let cannot =
            |path: &Path, e: std::io::Error| format!("cannot write {}: {e}", path.display());
        let target = match std::fs::metadata(target) {
            Ok(meta) if !meta.is_file() => {
                let file = File::create(target).map_err(|e| cannot(target, e))?;
                return Ok(AtomicFile {
                    target: target.to_path_buf(),
                    temp: None,
                    writer: Some(BufWriter::new(file)),
                });
            }
            Ok(_) => std::fs::canonicalize(target).map_err(|e| cannot(target, e))?,
            Err(_) => target.to_path_buf(),
        };
        let name = target
            .file_name()
            .ok_or_else(|| format!("{}: not a file name", target.display()))?;
        let temp = target.with_file_name(format!(
            ".{}.tmp{}",
            name.to_string_lossy(),
            std::process::id()
        ));
        let file = File::create(&temp).map_err(|e| cannot(&temp, e))?;
        Ok(AtomicFile {
            target,
            temp: Some(temp),
            writer: Some(BufWriter::new(file)),
        })
    }

    /// The path being written until `finish` (for tests and messages).
    pub fn temp_path(&self) -> &Path {
        self.temp.as_deref().unwrap_or(&self.target)
    }

    /// Appends `text`.
    pub fn write(&mut self, text: &str) -> Result<(), String> {
        self.write_bytes(text.as_bytes())
    }

    /// Appends `bytes`.
    pub fn write_bytes(&mut self, bytes: &[u8]) -> Result<(), String> {
        // The fields apart (not `temp_path()`), so the path is formatted only on an error.
        let path = self.temp.as_deref().unwrap_or(&self.target);
        let writer = self.writer.as_mut().expect("not finished");
        writer
            .write_all(bytes)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))
    }

    /// Flushes, syncs and renames the file to its target name.
    pub fn finish(mut self) -> Result<(), String> {
        let writer = self.writer.take().expect("not finished");
        let fail = |e: std::io::Error| format!("cannot write {}: {e}", self.target.display());
        let file = writer.into_inner().map_err(|e| fail(e.into_error()))?;
        match &self.temp {
            Some(temp) => {
                file.sync_all().map_err(fail)?;
                std::fs::rename(temp, &self.target).map_err(fail)
            }
            None => Ok(()),
        }
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if let (Some(_), Some(temp)) = (self.writer.take(), &self.temp) {
            let _ = std::fs::remove_file(temp);
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

    #[test]
    fn a_target_that_is_not_a_plain_file_is_written_in_place() {
        use std::os::unix::fs::FileTypeExt;
        let dir = std::env::temp_dir().join(format!("menhir-atomic-fifo-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if !made.is_ok_and(|status| status.success()) {
            eprintln!("skipped: no mkfifo");
            return;
        }
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
        };
        let mut file = AtomicFile::create(&fifo).unwrap();
        file.write("through the pipe\n").unwrap();
        file.finish().unwrap();
        // Renamed over, the FIFO would now be a plain file (and the reader would wait forever).
        let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
        assert!(kind.is_fifo(), "the FIFO was replaced by a plain file");
        assert_eq!(reader.join().unwrap(), "through the pipe\n");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_symbolic_link_keeps_pointing_at_the_replaced_file() {
        let dir = std::env::temp_dir().join(format!("menhir-atomic-link-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let real = dir.join("real.txt");
        let link = dir.join("link.txt");
        std::fs::write(&real, "old\n").unwrap();
        std::os::unix::fs::symlink(&real, &link).unwrap();
        let mut file = AtomicFile::create(&link).unwrap();
        file.write("new\n").unwrap();
        file.finish().unwrap();
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read_to_string(&real).unwrap(), "new\n");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
