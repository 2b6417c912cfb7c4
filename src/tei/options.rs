//! The options Menhir advertises after `tei` (HalfKomi, Threads, Hash, MultiPV, ScoreMate,
//! ScoreSolved, EvalFile, Level, LevelSeed),
//! their `option` lines, and checking a `setoption` against them. Names compare
//! case-insensitively.
//!
//! In tuning mode (`menhir tei --tune` or `MENHIR_TUNE=1`) every search parameter of
//! [`crate::search::PARAMS`] is an option too: a spin named as in that table; and so is every
//! pruning switch of [`crate::search::SWITCHES`], a check option, on by default (for A/B
//! matches). Otherwise those names are unknown options, so a tournament never sees or sets them.

use super::command::{parse_half_komi, HALF_KOMI_RANGE};
use crate::search::level::{FULL_STRENGTH, LEVEL_RANGE, SEED_MAX};
use crate::search::{ParamOverrides, PruningSwitches, PARAMS, SWITCHES};

/// Transposition-table size limits in MB.
pub const HASH_MB_RANGE: std::ops::RangeInclusive<usize> = 1..=65536;
/// Default table size in MB.
pub const HASH_MB_DEFAULT: usize = 64;
/// Worker-thread limits.
pub const THREADS_RANGE: std::ops::RangeInclusive<usize> = 1..=256;
/// Lines MultiPV may ask for.
pub const MULTIPV_RANGE: std::ops::RangeInclusive<usize> = 1..=crate::search::MAX_MULTIPV;
/// Seeds `LevelSeed` takes.
pub const LEVEL_SEED_RANGE: std::ops::RangeInclusive<u64> = 0..=SEED_MAX;

/// The names of every option, as advertised.
const NAMES: [&str; 9] = [
    "HalfKomi",
    "Threads",
    "Hash",
    "MultiPV",
    "ScoreMate",
    "ScoreSolved",
    "EvalFile",
    "Level",
    "LevelSeed",
];

/// `EvalFile`'s value that means the compiled-in evaluation at every size.
pub const EVAL_FILE_BUILTIN: &str = "<builtin>";

/// The option values the session holds.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// Komi in half flats for the current and later games.
    pub half_komi: i32,
    /// Search threads.
    pub threads: usize,
    /// Transposition table in MB.
    pub hash_mb: usize,
    /// How many best root moves to report.
    pub multipv: usize,
    /// Report a proven road (or flat) result as `score mate N` instead of `score cp`. Off by
    /// default: tournament managers such as Racetrack read only `score cp`.
    pub score_mate: bool,
    /// Report a proven result as `score solved win|loss N` (PTN Ninja's forced-result form),
    /// before `ScoreMate`. A sibling check option rather than turning `ScoreMate` into a combo,
    /// so GUIs that already send `ScoreMate value true` keep working. Off by default.
    pub score_solved: bool,
    /// Search margins and limits set by hand (only in tuning mode); the others are the
    /// engine's values for the size played.
    pub search_params: ParamOverrides,
    /// The search's pruning switches (set only in tuning mode).
    pub switches: PruningSwitches,
    /// Strength level, 1 to `FULL_STRENGTH` (the engine as it is; see `search::level`).
    pub level: u32,
    /// The seed of a level's choices among near-best moves.
    pub level_seed: u64,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            half_komi: 0,
            threads: 1,
            hash_mb: HASH_MB_DEFAULT,
            multipv: 1,
            score_mate: false,
            score_solved: false,
            search_params: ParamOverrides::default(),
            switches: PruningSwitches::default(),
            level: FULL_STRENGTH,
            level_seed: 0,
        }
    }
}

/// One accepted `setoption`, with its value checked.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum OptionChange {
    /// `HalfKomi`.
    HalfKomi(i32),
    /// `Threads`.
    Threads(usize),
    /// `Hash` in MB.
    Hash(usize),
    /// `MultiPV`.
    MultiPv(usize),
    /// `ScoreMate`.
    ScoreMate(bool),
    /// `ScoreSolved`.
    ScoreSolved(bool),
    /// `EvalFile`: a network file to load (the session reads and checks it), or
    /// `EVAL_FILE_BUILTIN`.
    EvalFile,
    /// A search parameter (tuning mode only): its index in `PARAMS` and the value.
    SearchParam(usize, i32),
    /// A pruning switch (tuning mode only): its index in `SWITCHES` and whether it is on.
    Feature(usize, bool),
    /// `Level`.
    Level(u32),
    /// `LevelSeed`.
    LevelSeed(u64),
}

impl Options {
    /// The `option …` lines printed after `tei` (with the search parameters and the pruning
    /// switches when `tuning`), then the PTN Ninja `size … halfkomi …` line.
    #[cfg(test)]
    pub fn advertise(tuning: bool) -> Vec<String> {
        Options::advertise_with(&Options::default(), tuning)
    }

    /// The options the WebSocket transport starts with (`menhir serve`): a GUI is the client
    /// there, so `ScoreSolved` is on (PTN Ninja shows a proven result only in that form, and
    /// has no other way to ask for one during live analysis). Over stdin/stdout the defaults
    /// stay off, for tournament managers that read only `score cp`.
    pub fn for_gui() -> Options {
        Options {
            score_solved: true,
            ..Options::default()
        }
    }

    /// [`Options::advertise`] with `defaults` as the advertised defaults.
    pub fn advertise_with(defaults: &Options, tuning: bool) -> Vec<String> {
        let mut lines = vec![
            format!(
                "option name HalfKomi type spin default {} min {} max {}",
                defaults.half_komi,
                HALF_KOMI_RANGE.start(),
                HALF_KOMI_RANGE.end()
            ),
            format!(
                "option name Threads type spin default {} min {} max {}",
                defaults.threads,
                THREADS_RANGE.start(),
                THREADS_RANGE.end()
            ),
            format!(
                "option name Hash type spin default {} min {} max {}",
                defaults.hash_mb,
                HASH_MB_RANGE.start(),
                HASH_MB_RANGE.end()
            ),
            format!(
                "option name MultiPV type spin default {} min {} max {}",
                defaults.multipv,
                MULTIPV_RANGE.start(),
                MULTIPV_RANGE.end()
            ),
            format!(
                "option name ScoreMate type check default {}",
                defaults.score_mate
            ),
            format!(
                "option name ScoreSolved type check default {}",
                defaults.score_solved
            ),
            format!("option name EvalFile type string default {EVAL_FILE_BUILTIN}"),
            format!(
                "option name Level type spin default {} min {} max {}",
                defaults.level,
                LEVEL_RANGE.start(),
                LEVEL_RANGE.end()
            ),
            format!(
                "option name LevelSeed type spin default {} min {} max {}",
                defaults.level_seed,
                LEVEL_SEED_RANGE.start(),
                LEVEL_SEED_RANGE.end()
            ),
        ];
        if tuning {
            lines.extend(PARAMS.iter().map(|p| {
                format!(
                    "option name {} type spin default {} min {} max {}",
                    p.name, p.default, p.min, p.max
                )
            }));
            let on = PruningSwitches::default();
            lines.extend(
                SWITCHES
                    .iter()
                    .map(|f| format!("option name {} type check default {}", f.name, f.get(&on))),
            );
        }
        let sizes: Vec<String> = (crate::core::MIN_SIZE..=crate::core::MAX_SIZE)
            .map(|n| n.to_string())
            .collect();
        let komis: Vec<String> = HALF_KOMI_RANGE.map(|k| k.to_string()).collect();
        lines.push(format!(
            "size {} halfkomi {}",
            sizes.join(" "),
            komis.join(" ")
        ));
        lines
    }

    /// Checks `setoption name <name> value <value>`, search parameters and pruning switches
    /// included when `tuning`; the caller applies the change.
    pub fn check(name: &str, value: Option<&str>, tuning: bool) -> Result<OptionChange, String> {
        let param = PARAMS
            .iter()
            .position(|p| p.name.eq_ignore_ascii_case(name))
            .filter(|_| tuning);
        if let Some(index) = param {
            let spec = &PARAMS[index];
            let Some(value) = value else {
                return Err(format!(
                    "option {0} needs a value: 'setoption name {0} value <n>'",
                    spec.name
                ));
            };
            let range = spec.min as i64..=spec.max as i64;
            return spin(spec.name, value, range)
                .map(|v| OptionChange::SearchParam(index, v as i32));
        }
        let feature = SWITCHES
            .iter()
            .position(|f| f.name.eq_ignore_ascii_case(name))
            .filter(|_| tuning);
        if let Some(index) = feature {
            let name = SWITCHES[index].name;
            let Some(value) = value else {
                return Err(format!(
                    "option {name} needs a value: 'setoption name {name} value <true|false>'"
                ));
            };
            return check(name, value).map(|on| OptionChange::Feature(index, on));
        }
        let canonical = NAMES
            .into_iter()
            .find(|known| known.eq_ignore_ascii_case(name))
            .ok_or_else(|| format!("unknown option '{name}' (Menhir has {})", NAMES.join(", ")))?;
        let Some(value) = value else {
            return Err(format!(
                "option {canonical} needs a value: 'setoption name {canonical} value <n>'"
            ));
        };
        match canonical {
            "HalfKomi" => parse_half_komi(value)
                .map(OptionChange::HalfKomi)
                .map_err(|e| format!("option HalfKomi: {e}")),
            "Threads" => spin_usize(canonical, value, THREADS_RANGE).map(OptionChange::Threads),
            "MultiPV" => spin_usize(canonical, value, MULTIPV_RANGE).map(OptionChange::MultiPv),
            "ScoreMate" => check(canonical, value).map(OptionChange::ScoreMate),
            "ScoreSolved" => check(canonical, value).map(OptionChange::ScoreSolved),
            "EvalFile" => Ok(OptionChange::EvalFile),
            "Level" => spin(
                canonical,
                value,
                i64::from(*LEVEL_RANGE.start())..=i64::from(*LEVEL_RANGE.end()),
            )
            .map(|n| OptionChange::Level(n as u32)),
            "LevelSeed" => spin(
                canonical,
                value,
                *LEVEL_SEED_RANGE.start() as i64..=*LEVEL_SEED_RANGE.end() as i64,
            )
            .map(|n| OptionChange::LevelSeed(n as u64)),
            _ => spin_usize(canonical, value, HASH_MB_RANGE).map(OptionChange::Hash),
        }
    }

    /// Records an accepted change.
    pub fn apply(&mut self, change: OptionChange) {
        match change {
            OptionChange::HalfKomi(k) => self.half_komi = k,
            OptionChange::Threads(n) => self.threads = n,
            OptionChange::Hash(mb) => self.hash_mb = mb,
            OptionChange::MultiPv(n) => self.multipv = n,
            OptionChange::ScoreMate(on) => self.score_mate = on,
            OptionChange::ScoreSolved(on) => self.score_solved = on,
            OptionChange::SearchParam(index, value) => self.search_params.set(index, value),
            OptionChange::Feature(index, on) => SWITCHES[index].set(&mut self.switches, on),
            OptionChange::EvalFile => {}
            OptionChange::Level(level) => self.level = level,
            OptionChange::LevelSeed(seed) => self.level_seed = seed,
        }
    }
}

/// A `check` value: `true`/`false`, or the `1`/`0`, `on`/`off`, `yes`/`no` GUIs also send.
fn check(name: &str, value: &str) -> Result<bool, String> {
    match value.to_ascii_lowercase().as_str() {
        "true" | "1" | "on" | "yes" => Ok(true),
        "false" | "0" | "off" | "no" => Ok(false),
        _ => Err(format!("option {name}: '{value}' is not true or false")),
    }
}

fn spin_usize(
    name: &str,
    value: &str,
    range: std::ops::RangeInclusive<usize>,
) -> Result<usize, String> {
    spin(name, value, *range.start() as i64..=*range.end() as i64).map(|n| n as usize)
}

/// A `spin` value: an integer within `range`.
fn spin(name: &str, value: &str, range: std::ops::RangeInclusive<i64>) -> Result<i64, String> {
    let (lo, hi) = (range.start(), range.end());
    match value.parse::<i64>() {
        Ok(n) if range.contains(&n) => Ok(n),
        Ok(n) => Err(format!("option {name}: {n} is out of range ({lo} to {hi})")),
        Err(_) => Err(format!("option {name}: '{value}' is not an integer")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_case_insensitive() {
        assert_eq!(
            Options::check("halfkomi", Some("4"), false),
            Ok(OptionChange::HalfKomi(4))
        );
        assert_eq!(
            Options::check("THREADS", Some("2"), false),
            Ok(OptionChange::Threads(2))
        );
        assert_eq!(
            Options::check("hash", Some("16"), false),
            Ok(OptionChange::Hash(16))
        );
    }

    #[test]
    fn multipv_and_score_mate() {
        assert_eq!(
            Options::check("multipv", Some("3"), false),
            Ok(OptionChange::MultiPv(3))
        );
        assert_eq!(
            Options::check("ScoreMate", Some("true"), false),
            Ok(OptionChange::ScoreMate(true))
        );
        assert_eq!(
            Options::check("scoremate", Some("0"), false),
            Ok(OptionChange::ScoreMate(false))
        );
        assert!(Options::check("MultiPV", Some("0"), false).is_err());
        assert!(Options::check("MultiPV", Some("65"), false).is_err());
        assert!(Options::check("ScoreMate", Some("maybe"), false).is_err());
        assert!(Options::check("ScoreMate", None, false).is_err());
        let lines = Options::advertise(false);
        assert!(lines.contains(&"option name MultiPV type spin default 1 min 1 max 64".into()));
        assert!(lines.contains(&"option name ScoreMate type check default false".into()));
    }

    #[test]
    fn bad_names_and_values_are_errors() {
        assert!(Options::check("MultiPVs", Some("2"), false).is_err());
        assert!(Options::check("HalfKomi", None, false).is_err());
        assert!(Options::check("HalfKomi", Some("11"), false).is_err());
        assert!(Options::check("HalfKomi", Some("2.5"), false).is_err());
        assert!(Options::check("Threads", Some("0"), false).is_err());
        assert!(Options::check("Threads", Some("257"), false).is_err());
        assert!(Options::check("Hash", Some("-1"), false).is_err());
        assert!(Options::check("Hash", Some("lots"), false).is_err());
        assert!(Options::check("Level", Some("0"), false).is_err());
        let above_top = (FULL_STRENGTH + 1).to_string();
        assert!(Options::check("Level", Some(&above_top), false).is_err());
        assert!(Options::check("LevelSeed", Some("-1"), false).is_err());
        assert!(Options::check("LevelSeed", Some("2147483648"), false).is_err());
    }

    #[test]
    fn level_and_its_seed() {
        assert_eq!(
            Options::check("level", Some("1"), false),
            Ok(OptionChange::Level(1))
        );
        assert_eq!(
            Options::check("level", Some("10"), false),
            Ok(OptionChange::Level(FULL_STRENGTH))
        );
        assert_eq!(
            Options::check("LEVELSEED", Some("2147483647"), false),
            Ok(OptionChange::LevelSeed(2_147_483_647))
        );
        let lines = Options::advertise(false);
        assert!(lines.contains(&"option name Level type spin default 10 min 1 max 10".into()));
        let mut options = Options::default();
        options.apply(OptionChange::Level(2));
        assert_eq!(options.level, 2);
    }

    #[test]
    fn advertised_lines_end_with_every_size_and_komi() {
        let lines = Options::advertise(false);
        assert_eq!(
            lines.last().unwrap(),
            "size 3 4 5 6 7 8 halfkomi -10 -9 -8 -7 -6 -5 -4 -3 -2 -1 0 1 2 3 4 5 6 7 8 9 10"
        );
        assert!(lines.contains(&"option name HalfKomi type spin default 0 min -10 max 10".into()));
    }

    #[test]
    fn search_parameters_are_options_only_when_tuning() {
        let line = "option name NullMoveDepth type spin default 3 min 1 max 10";
        assert!(!Options::advertise(false).iter().any(|l| l == line));
        assert!(Options::advertise(true).iter().any(|l| l == line));
        assert!(Options::check("NullMoveDepth", Some("4"), false)
            .unwrap_err()
            .starts_with("unknown option"));
        let index = PARAMS
            .iter()
            .position(|p| p.name == "NullMoveDepth")
            .unwrap();
        let change = Options::check("nullmovedepth", Some("4"), true).unwrap();
        assert_eq!(change, OptionChange::SearchParam(index, 4));
        let mut options = Options::default();
        options.apply(change);
        assert_eq!(options.search_params.at_size(6).null_move_depth, 4);
        for bad in [None, Some("0"), Some("11"), Some("3.5"), Some("deep")] {
            assert!(
                Options::check("NullMoveDepth", bad, true).is_err(),
                "{bad:?}"
            );
        }
        // The pruning switches likewise.
        let line = "option name CorrectionHistory type check default true";
        assert!(!Options::advertise(false).iter().any(|l| l == line));
        assert!(Options::advertise(true).iter().any(|l| l == line));
        assert!(Options::check("CorrectionHistory", Some("false"), false).is_err());
        let index = SWITCHES.iter().position(|f| f.name == "Improving").unwrap();
        let change = Options::check("improving", Some("off"), true).unwrap();
        assert_eq!(change, OptionChange::Feature(index, false));
        options.apply(change);
        assert!(!options.switches.improving);
        assert!(options.switches.correction_history);
        for bad in [None, Some("2"), Some("maybe")] {
            assert!(Options::check("Improving", bad, true).is_err(), "{bad:?}");
        }
        // The usual options are unchanged in tuning mode.
        assert_eq!(
            Options::check("Hash", Some("16"), true),
            Ok(OptionChange::Hash(16))
        );
    }
}
