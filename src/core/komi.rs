//! Komi and board size as the tools take them on the command line and in data files: komi in
//! flats (a multiple of 0.5) against the half flats the game keeps, and the sizes Tak is played
//! at, checked in one place.

use super::{MAX_SIZE, MIN_SIZE};

/// Komi in half flats that Menhir plays and advertises: komi −5 to +5.
pub const HALF_KOMI_RANGE: std::ops::RangeInclusive<i32> = -10..=10;

/// Checks a command's `--size`: Tak is played on 3x3 to 8x8.
pub fn check_size(size: usize) -> Result<(), String> {
    if (MIN_SIZE..=MAX_SIZE).contains(&size) {
        Ok(())
    } else {
        Err(format!("--size {size} is not {MIN_SIZE} to {MAX_SIZE}"))
    }
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

/// Checks a command's `--size` and `--komi` (as `menhir match`, `datagen` and `spsa` take
/// them) and gives the komi in half flats.
pub fn size_and_half_komi(size: usize, komi: f64) -> Result<i32, String> {
    check_size(size)?;
    half_komi_from_flats(komi)
        .ok_or_else(|| format!("--komi {komi} is not a multiple of 0.5 within -10..10"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn komi_and_sizes() {
        assert_eq!(komi_text(4), "2");
        assert_eq!(komi_text(3), "1.5");
        assert_eq!(komi_text(-1), "-0.5");
        assert_eq!(half_komi_from_flats(2.0), Some(4));
        assert_eq!(half_komi_from_flats(-1.5), Some(-3));
        assert_eq!(half_komi_from_flats(0.3), None);
        assert_eq!(half_komi_from_flats(10.5), None);
        assert_eq!(half_komi_from_flats(f64::NAN), None);
        assert!(check_size(3).is_ok() && check_size(8).is_ok());
        assert_eq!(check_size(9).unwrap_err(), "--size 9 is not 3 to 8");
        assert_eq!(size_and_half_komi(6, 2.5), Ok(5));
        assert!(size_and_half_komi(2, 2.0).is_err());
    }
}
