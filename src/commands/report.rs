//! `menhir report`: its flags, and the glue that reads the files, prints the tally of
//! `matchrun::report` and sets the exit status.

use crate::matchrun::stats::Sprt;
use clap::Args;
use std::path::PathBuf;

/// Flags of `menhir report`.
#[derive(Args, Debug, Clone)]
pub struct ReportArgs {
    /// PTN files to read, in any order (for example every shard of a match).
    #[arg(required = true, value_name = "FILE.ptn")]
    pub files: Vec<PathBuf>,
    /// Also give the verdict of this SPRT for each pair: `elo0=0,elo1=5,alpha=0.05,beta=0.05`.
    #[arg(long)]
    pub sprt: Option<Sprt>,
}

/// Prints the report of the files; an error (non-zero exit) only when no game was read.
pub fn report(args: &ReportArgs) -> Result<(), String> {
    let inputs: Vec<(String, Result<String, String>)> = args
        .files
        .iter()
        .map(|path| {
            let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read: {e}"));
            (path.display().to_string(), text)
        })
        .collect();
    let report = crate::matchrun::report::report(&inputs, args.sprt.as_ref());
    print!("{}", report.text);
    if report.read == 0 {
        return Err(format!(
            "no game could be read from the {} file(s) given",
            inputs.len()
        ));
    }
    Ok(())
}
