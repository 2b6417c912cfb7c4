//! The checks and defaults the analysis commands (`analyze`, `annotate`, `tinue`, `tactics`)
//! share for komi, table size and search budget, so each refuses a bad value with the same line.

use crate::core::HALF_KOMI_RANGE;
use std::time::Duration;

/// Largest `--hash` in MB (64 GiB: more than any machine these run on).
const MAX_HASH_MB: usize = 1 << 16;

/// Refuses a `--half-komi` outside the range the engine advertises.
pub fn check_half_komi(half_komi: i32) -> Result<(), String> {
    if HALF_KOMI_RANGE.contains(&half_komi) {
        return Ok(());
    }
    Err(format!(
        "bad --half-komi: {half_komi} is outside {}..{}",
        HALF_KOMI_RANGE.start(),
        HALF_KOMI_RANGE.end()
    ))
}

/// Refuses a `--hash` of 0 or above `MAX_HASH_MB`.
pub fn check_hash(mb: usize) -> Result<(), String> {
    if (1..=MAX_HASH_MB).contains(&mb) {
        return Ok(());
    }
    Err(format!("bad --hash: must be 1 to {MAX_HASH_MB} (MB)"))
}

/// Refuses a budget of 0 nodes or 0 milliseconds.
pub fn check_budget(nodes: Option<u64>, movetime: Option<u64>) -> Result<(), String> {
    if nodes == Some(0) || movetime == Some(0) {
        return Err("bad budget: --nodes and --movetime must be at least 1".into());
    }
    Ok(())
}

/// The time limit: `--movetime` when given, none when only another limit (`--nodes`,
/// `--depth`) is, else `default`.
pub fn time_limit(
    movetime_ms: Option<u64>,
    other_limit: bool,
    default: Duration,
) -> Option<Duration> {
    match (movetime_ms, other_limit) {
        (Some(ms), _) => Some(Duration::from_millis(ms)),
        (None, true) => None,
        (None, false) => Some(default),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_values_get_one_line_and_good_ones_pass() {
        assert!(check_half_komi(4).is_ok() && check_half_komi(-10).is_ok());
        assert_eq!(
            check_half_komi(11).unwrap_err(),
            "bad --half-komi: 11 is outside -10..10"
        );
        assert!(check_hash(1).is_ok() && check_hash(0).is_err() && check_hash(1 << 17).is_err());
        assert!(check_budget(Some(1), None).is_ok());
        assert!(check_budget(Some(0), None).is_err() && check_budget(None, Some(0)).is_err());
        let second = Duration::from_secs(1);
        assert_eq!(
            time_limit(Some(5), true, second),
            Some(Duration::from_millis(5))
        );
        assert_eq!(time_limit(None, true, second), None);
        assert_eq!(time_limit(None, false, second), Some(second));
    }
}
