//! `menhir convert-data`: training data between the text and the binary format.

use crate::train::convert::convert_data;
use clap::Args;
use std::path::PathBuf;

/// Flags of `menhir convert-data`.
#[derive(Args, Debug, Clone)]
pub struct ConvertDataArgs {
    /// Data files, text or binary (told apart by their first bytes).
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// The file to write: binary if it ends in `.mhd` (one board size a file), else text.
    #[arg(long)]
    pub out: PathBuf,
}

/// Runs `menhir convert-data`; the count goes to stderr.
pub fn convert(args: &ConvertDataArgs) -> Result<(), String> {
    let written = convert_data(&args.inputs, &args.out)?;
    eprintln!(
        "convert-data: {written} positions from {} files to {}",
        args.inputs.len(),
        args.out.display()
    );
    Ok(())
}
