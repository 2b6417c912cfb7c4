//! `menhir tactics`: the tactical suite searched at a fixed limit, each move checked, one row a
//! line and a tally by task; or, with `--verify-suite`, the suite itself checked.

use super::budget::{check_budget, check_half_komi, check_hash, time_limit};
use crate::search::Limits;
use crate::tactics::{parse_suite, run_suite, tally, verify_suite, Check, LineResult};
use clap::Args;
use std::path::PathBuf;
use std::time::Duration;

/// Search time per position when neither `--movetime` nor `--nodes` is given.
const DEFAULT_MOVETIME_MS: u64 = 100;

/// Flags of `menhir tactics`.
#[derive(Args, Debug, Clone)]
pub struct TacticsArgs {
    /// The suite: `TPS ; win N|defend ; note` a line (tests/data/tactics.txt).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Milliseconds of search per position (100 when --nodes is not given).
    #[arg(long, conflicts_with = "nodes")]
    pub movetime: Option<u64>,
    /// Nodes of search per position (reproducible: one thread, table cleared per position).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Transposition table size in MB.
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
    /// Komi in half flats; 4 (komi 2) by default, the komi the suite's games were played at.
    #[arg(long, default_value_t = 4, allow_hyphen_values = true)]
    pub half_komi: i32,
    /// Check the suite instead of the engine: find for every line a move that passes, with no
    /// search (exhaustively for a win, the legal moves in turn for a defence).
    #[arg(long, conflicts_with_all = ["movetime", "nodes"])]
    pub verify_suite: bool,
}

/// Runs `menhir tactics`: `Ok(true)` when every line passed, `Ok(false)` when one failed, an
/// error (bad flags, unreadable or bad file) before anything is searched.
pub fn tactics(args: &TacticsArgs) -> Result<bool, String> {
    check_half_komi(args.half_komi)?;
    check_hash(args.hash)?;
    check_budget(args.nodes, args.movetime)?;
    let file = args.file.display();
    let text =
        std::fs::read_to_string(&args.file).map_err(|e| format!("cannot read {file}: {e}"))?;
    let suite = parse_suite(&text, args.half_komi).map_err(|e| format!("{file}: {e}"))?;
    println!("line\tkind\tmove\tresult\tnodes\tms\twhy");
    let results = if args.verify_suite {
        verify_suite(&suite, &mut print_row)
    } else {
        let limits = Limits {
            nodes: args.nodes,
            movetime: time_limit(
                args.movetime,
                args.nodes.is_some(),
                Duration::from_millis(DEFAULT_MOVETIME_MS),
            ),
            ..Limits::default()
        };
        run_suite(&suite, &limits, args.hash, &mut print_row)
    };
    let mut all = (0, 0);
    for (task, (passed, total)) in tally(&results) {
        println!("{task}: {passed}/{total}");
        all = (all.0 + passed, all.1 + total);
    }
    println!("all: {}/{}", all.0, all.1);
    Ok(all.0 == all.1)
}

/// One row: line, task, move, `ok` or `FAIL`, nodes, milliseconds, and why a line failed.
fn print_row(result: &LineResult) {
    let mv = result.mv.map_or("-".to_string(), |m| m.to_ptn());
    let (verdict, why) = match &result.check {
        Check::Pass => ("ok", ""),
        Check::Fail(why) => ("FAIL", why.as_str()),
    };
    println!(
        "{}\t{}\t{mv}\t{verdict}\t{}\t{}\t{why}",
        result.line,
        result.task,
        result.nodes,
        result.time.as_millis()
    );
}
