//! PTN output of the match: each finished game as a `GameRecord` with Racetrack's tags
//! (Event, Site, Date, Round, Player1, Player2, Size, Komi, Clock, Result, Termination).

use super::clock::TimeControl;
use super::game::GameOutcome;
use super::openings::Opening;
use crate::core::{GameRecord, RecordResult};
use std::time::{SystemTime, UNIX_EPOCH};

/// What the tags need to know besides the game.
pub struct RecordContext<'a> {
    /// 1-based game number.
    pub round: usize,
    /// White's and Black's names.
    pub players: [&'a str; 2],
    /// Board size.
    pub size: usize,
    /// Komi in half flats.
    pub half_komi: i32,
    /// The time control.
    pub time: TimeControl,
    /// Where the game started.
    pub opening: &'a Opening,
}

/// The PTN record of a finished game.
pub fn game_record(outcome: &GameOutcome, context: &RecordContext) -> GameRecord {
    let mut record = GameRecord::default();
    record.set_tag("Event", "Menhir match");
    record.set_tag("Site", "Menhir");
    record.set_tag("Date", today());
    record.set_tag("Round", context.round.to_string());
    record.set_tag("Player1", context.players[0]);
    record.set_tag("Player2", context.players[1]);
    record.set_tag("Size", context.size.to_string());
    if context.half_komi != 0 {
        record.set_tag("Komi", komi_text(context.half_komi));
    }
    record.set_tag("Clock", context.time.to_string());
    record.set_tag("Result", outcome.result.to_string());
    if !outcome.termination.is_normal() {
        record.set_tag("Termination", &outcome.detail);
    }
    record.start_tps = context.opening.root_tps.clone();
    record.plies = outcome.plies.clone();
    record.result = Some(RecordResult::Game(outcome.result));
    record
}

/// Komi in flats as the `Komi` tag writes it: `2`, `1.5`, `-0.5`.
pub fn komi_text(half_komi: i32) -> String {
    if half_komi % 2 == 0 {
        (half_komi / 2).to_string()
    } else {
        format!("{:.1}", f64::from(half_komi) / 2.0)
    }
}

/// Komi in flats as half flats, if it is a multiple of 0.5 within −10..10 (what `--komi` and
/// the training data accept).
pub fn half_komi_from_flats(komi: f64) -> Option<i32> {
    let half = komi * 2.0;
    (half.fract() == 0.0 && half.abs() <= 20.0).then_some(half as i32)
}

/// Today's UTC date as `YYYY.MM.DD`.
pub fn today() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// The Gregorian date of a day count since 1970-01-01 (H. Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_komi() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        // 2024-02-29 is day 19782 (python3: (date(2024,2,29) - date(1970,1,1)).days).
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
        assert_eq!(komi_text(4), "2");
        assert_eq!(komi_text(3), "1.5");
        assert_eq!(komi_text(-1), "-0.5");
        assert_eq!(half_komi_from_flats(2.0), Some(4));
        assert_eq!(half_komi_from_flats(-1.5), Some(-3));
        assert_eq!(half_komi_from_flats(0.3), None);
        assert_eq!(half_komi_from_flats(10.5), None);
        assert_eq!(half_komi_from_flats(f64::NAN), None);
    }
}
