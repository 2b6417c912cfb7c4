//! Running the suite: every line searched with the same limits and its move checked, or (to
//! check the suite itself) every line answered by the checker alone; and the tally by task.

use super::check::{check_move, find_answer, Check};
use super::suite::{SuiteLine, Task};
use crate::core::Move;
use crate::search::{Limits, Searcher};
use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// What one line came to.
#[derive(Clone, Debug)]
pub struct LineResult {
    /// Line number in the suite file.
    pub line: usize,
    /// The line's task.
    pub task: Task,
    /// The move judged: the search's choice, or the answer found (`None`: none found).
    pub mv: Option<Move>,
    /// The verdict on the move.
    pub check: Check,
    /// Search nodes (0 when the suite itself is checked).
    pub nodes: u64,
    /// Time of the search, or of finding the answer.
    pub time: Duration,
}

/// Searches every line within `limits` (one thread, a table of `hash_mb` cleared before each
/// line, so a line's result does not depend on the lines before it) and checks the move.
/// `on_line` sees each result as it comes.
pub fn run_suite(
    suite: &[SuiteLine],
    limits: &Limits,
    hash_mb: usize,
    on_line: &mut dyn FnMut(&LineResult),
) -> Vec<LineResult> {
    let mut searcher = Searcher::new(hash_mb, 1);
    let stop = AtomicBool::new(false);
    let mut results = Vec::with_capacity(suite.len());
    for entry in suite {
        log::info!("line {}: {} ({})", entry.line, entry.task, entry.note);
        searcher.new_game();
        let searched = searcher.search(&entry.position, limits, &stop, &mut |_| {});
        let check = match searched.best_move {
            Some(mv) => check_move(&entry.position, entry.task, mv),
            None => Check::Fail("the search gave no move".into()),
        };
        if let Check::Fail(why) = &check {
            log::debug!(
                "line {}: {why}; the search scored {} at depth {}",
                entry.line,
                searched.info.score_cp,
                searched.info.depth
            );
        }
        let result = LineResult {
            line: entry.line,
            task: entry.task,
            mv: searched.best_move,
            check,
            nodes: searched.info.nodes,
            time: searched.info.time,
        };
        on_line(&result);
        results.push(result);
    }
    results
}

/// Finds for every line a move that passes its check, without the search: a line with none is
/// mislabelled (or lost within the checker's horizon though the labels' solver proved no loss).
pub fn verify_suite(suite: &[SuiteLine], on_line: &mut dyn FnMut(&LineResult)) -> Vec<LineResult> {
    let mut results = Vec::with_capacity(suite.len());
    for entry in suite {
        let started = Instant::now();
        let mv = find_answer(&entry.position, entry.task);
        let check = match mv {
            Some(_) => Check::Pass,
            None => Check::Fail(format!("no move does what '{}' asks", entry.task)),
        };
        let result = LineResult {
            line: entry.line,
            task: entry.task,
            mv,
            check,
            nodes: 0,
            time: started.elapsed(),
        };
        on_line(&result);
        results.push(result);
    }
    results
}

/// Passed and total lines per task, tasks in order (`win 1`, `win 3`, …, `defend`).
pub fn tally(results: &[LineResult]) -> BTreeMap<Task, (usize, usize)> {
    let mut counts = BTreeMap::new();
    for result in results {
        let (passed, total) = counts.entry(result.task).or_insert((0, 0));
        *passed += result.check.passed() as usize;
        *total += 1;
    }
    counts
}
