//! `menhir tinue`: the tinue solver on one position, or on a file of positions with a progress
//! line on stderr and a summary.

use super::budget::{check_budget, check_half_komi, check_hash, time_limit};
use super::PositionArgs;
use crate::core::{Move, Position};
use crate::tinue::{Budget, Outcome, Solver, Verdict};
use clap::Args;
use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Flags of `menhir tinue`.
#[derive(Args, Debug, Clone)]
pub struct TinueArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Solve every position of this file instead: one TPS a line, `#` starts a comment.
    #[arg(long, conflicts_with = "tps")]
    pub positions: Option<String>,
    /// Give up after this many milliseconds per position (default 10000 unless --nodes).
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Give up after this many nodes per position.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Solver table size in MB.
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
    /// Komi in half flats (added to Black's flat count).
    #[arg(long, default_value_t = 0, allow_hyphen_values = true)]
    pub half_komi: i32,
}

/// Runs `menhir tinue`.
pub fn tinue(args: &TinueArgs) -> Result<(), String> {
    check_half_komi(args.half_komi)?;
    check_hash(args.hash)?;
    check_budget(args.nodes, args.movetime)?;
    let budget = Budget {
        nodes: args.nodes,
        time: time_limit(args.movetime, args.nodes.is_some(), Duration::from_secs(10)),
    };
    let mut solver = Solver::new(args.hash);
    match &args.positions {
        Some(file) => batch(file, args.half_komi, budget, &mut solver),
        None => {
            let mut pos = args.position.position()?;
            pos.set_half_komi(args.half_komi);
            if let Some(result) = pos.result() {
                return Err(format!("the game is over ({result}): nothing to solve"));
            }
            let outcome = solver.solve(&pos, budget, &AtomicBool::new(false));
            println!("{}", describe(&outcome.verdict));
            if let Verdict::Win { pv, .. } | Verdict::Loss { pv, .. } = &outcome.verdict {
                println!("line: {}", moves_text(pv));
            }
            println!(
                "nodes {} time {} ms nps {}",
                outcome.nodes,
                outcome.elapsed.as_millis(),
                outcome.nps()
            );
            Ok(())
        }
    }
}

/// One line saying what the solver found.
pub fn describe(verdict: &Verdict) -> String {
    match verdict {
        Verdict::Win {
            plies, tinue: true, ..
        } => format!("tinue: win in {plies} plies"),
        Verdict::Win { plies, .. } => {
            format!("forced win in {plies} plies (the first move is quiet: no tinue yet)")
        }
        Verdict::Loss { plies, .. } => format!("lost: every move loses, in {plies} plies"),
        Verdict::NoTinue => "no tinue (disproved)".into(),
        Verdict::Unknown => "unknown (the budget ended before a proof or a disproof)".into(),
        Verdict::Finished => "the game is over".into(),
    }
}

fn moves_text(moves: &[Move]) -> String {
    moves
        .iter()
        .map(|m| m.to_ptn())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The positions of a batch file: `(line number, position)`, or an error naming the bad line.
/// A TPS may be followed by `#` and a comment; blank and comment lines are skipped.
pub fn read_positions(text: &str, half_komi: i32) -> Result<Vec<(usize, Position)>, String> {
    let mut positions = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let tps = line.split('#').next().unwrap_or("").trim();
        if tps.is_empty() {
            continue;
        }
        let mut pos = Position::from_tps(tps).map_err(|e| format!("line {}: {e}", i + 1))?;
        pos.set_half_komi(half_komi);
        if let Some(result) = pos.result() {
            return Err(format!("line {}: the game is over ({result})", i + 1));
        }
        positions.push((i + 1, pos));
    }
    if positions.is_empty() {
        return Err("no position in the file".into());
    }
    Ok(positions)
}

fn batch(file: &str, half_komi: i32, budget: Budget, solver: &mut Solver) -> Result<(), String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read {file}: {e}"))?;
    let positions = read_positions(&text, half_komi).map_err(|e| format!("{file}: {e}"))?;
    let stop = AtomicBool::new(false);
    let mut outcomes: Vec<Outcome> = Vec::with_capacity(positions.len());
    let total = positions.len();
    println!("line\tverdict\tplies\tms\tnodes\tline");
    for (done, (line, pos)) in positions.iter().enumerate() {
        progress(done, total);
        let outcome = solver.solve(pos, budget, &stop);
        let (word, plies, pv) = match &outcome.verdict {
            Verdict::Win { plies, pv, .. } => ("win", plies.to_string(), moves_text(pv)),
            Verdict::Loss { plies, pv } => ("loss", plies.to_string(), moves_text(pv)),
            Verdict::NoTinue => ("disproved", "-".into(), String::new()),
            Verdict::Unknown => ("unknown", "-".into(), String::new()),
            Verdict::Finished => ("over", "-".into(), String::new()),
        };
        println!(
            "{line}\t{word}\t{plies}\t{}\t{}\t{pv}",
            outcome.elapsed.as_millis(),
            outcome.nodes
        );
        outcomes.push(outcome);
    }
    progress(total, total);
    eprintln!();
    let count = |f: fn(&Verdict) -> bool| outcomes.iter().filter(|o| f(&o.verdict)).count();
    let mut times: Vec<u128> = outcomes.iter().map(|o| o.elapsed.as_millis()).collect();
    times.sort_unstable();
    let nodes: u64 = outcomes.iter().map(|o| o.nodes).sum();
    let seconds: f64 = outcomes.iter().map(|o| o.elapsed.as_secs_f64()).sum();
    println!(
        "summary: {total} positions, proved {} (win {}, loss {}), disproved {}, unknown {}, \
         median time {} ms, {} nps",
        count(|v| matches!(v, Verdict::Win { .. } | Verdict::Loss { .. })),
        count(|v| matches!(v, Verdict::Win { .. })),
        count(|v| matches!(v, Verdict::Loss { .. })),
        count(|v| matches!(v, Verdict::NoTinue)),
        count(|v| matches!(v, Verdict::Unknown)),
        times[times.len() / 2],
        (nodes as f64 / seconds.max(1e-6)) as u64
    );
    Ok(())
}

/// A `\r` progress line on stderr.
fn progress(done: usize, total: usize) {
    const WIDTH: usize = 30;
    let filled = done * WIDTH / total.max(1);
    eprint!(
        "\r[{}{}] {done}/{total}",
        "#".repeat(filled),
        " ".repeat(WIDTH - filled)
    );
    let _ = std::io::stderr().flush();
}
