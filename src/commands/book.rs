//! `menhir book`: balanced openings for `menhir match --openings`, written as they are found.

use crate::common::seed_from_clock;
use crate::core::size_and_half_komi;
use crate::matchrun::book::{balanced_openings, BookSettings};
use clap::Args;

/// Flags of `menhir book`.
#[derive(Args, Debug, Clone)]
pub struct BookArgs {
    /// Board size, 3 to 8.
    #[arg(long, default_value_t = 4)]
    pub size: usize,
    /// Komi in flats, in half steps (as `menhir match`).
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    pub komi: f64,
    /// Random plies in each line.
    #[arg(long, default_value_t = 4)]
    pub plies: usize,
    /// Lines wanted.
    #[arg(long, default_value_t = 100)]
    pub count: usize,
    /// Nodes of search per line (one thread, table cleared per line: a seed gives one book).
    #[arg(long, default_value_t = 200_000)]
    pub nodes: u64,
    /// Keep a line when the search scores it within this many centi-flats either way.
    #[arg(long, default_value_t = 50)]
    pub max_score: i32,
    /// Seed of the random lines (default: from the clock, printed).
    #[arg(long)]
    pub seed: Option<u64>,
}

/// Prints the book to stdout, a header comment first and each line as it is found; the count
/// found goes to stderr.
pub fn book(args: &BookArgs) -> Result<(), String> {
    let half_komi = size_and_half_komi(args.size, args.komi)?;
    let seed = args.seed.unwrap_or_else(seed_from_clock);
    let settings = BookSettings {
        size: args.size,
        half_komi,
        plies: args.plies,
        count: args.count,
        nodes: args.nodes,
        max_score: args.max_score,
        seed,
    };
    settings.check()?;
    println!(
        "# menhir book --size {} --komi {} --plies {} --count {} --nodes {} --max-score {} --seed {seed}",
        args.size, args.komi, args.plies, args.count, args.nodes, args.max_score
    );
    // println! flushes each line (stdout is line-buffered) and a closed stdout ends the
    // program through main's hook, as for any command.
    let book = balanced_openings(&settings, &mut |line| println!("{}", line.to_text()))?;
    eprintln!("menhir book: {} of {} lines found", book.len(), args.count);
    Ok(())
}
