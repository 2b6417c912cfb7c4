//! Strength levels: weaker play that still looks like Tak. Below full strength a level caps the
//! search's nodes and plays one of the near-best root moves: the MultiPV lines scored within a
//! margin of the best, chosen at random with weights falling off with the score lost. So a weak
//! level misses deep ideas and drifts into slightly worse moves, but never plays a random
//! blunder (a move far below the best is never a candidate, and a proven loss is thousands of
//! centi-flats below any move that avoids it).
//!
//! The choice is a pure function of the lines, the position's hash and a seed, so a level replays
//! exactly where its search does (one thread, a node-bounded search). What each level is worth
//! is measured by matches, each level against the next (docs/playtak.md, *Levels*).

use super::{Info, MAX_MULTIPV};
use crate::core::Move;

/// The strongest level: the engine as it is, nothing capped.
pub const FULL_STRENGTH: u32 = 10;
/// The levels the `Level` option takes.
pub const LEVEL_RANGE: std::ops::RangeInclusive<u32> = 1..=FULL_STRENGTH;
/// The largest seed `LevelSeed` takes (a spin's range, which GUIs read as 32-bit).
pub const SEED_MAX: u64 = 2_147_483_647;

/// How a level below full strength plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelSpec {
    /// Most nodes a move may search, every line included (a smaller `go nodes` wins).
    pub nodes: u64,
    /// Root lines searched (MultiPV) to choose from.
    pub lines: usize,
    /// A line is a candidate when it scores at most this far below the best.
    pub margin_cp: i32,
    /// A candidate `d` centi-flats below the best weighs `exp(-d / temperature)`.
    pub temperature_cp: i32,
}

/// Levels 1 to `FULL_STRENGTH - 1`, weakest first: levels 1 to 8 each search twice the nodes of
/// the one below (about a ply more; a first ladder that quadrupled them measured 150 to over 700
/// Elo a step, docs/playtak.md) and play within a narrower margin. Level 9 quadruples level 8's
/// nodes and keeps three lines: level 8 scored 1 of 200 against full strength at 10+0.1, a gap
/// one doubling would not close.
const SPECS: [LevelSpec; FULL_STRENGTH as usize - 1] = [
    LevelSpec {
        nodes: 500,
        lines: 4,
        margin_cp: 200,
        temperature_cp: 100,
    },
    LevelSpec {
        nodes: 1_000,
        lines: 4,
        margin_cp: 160,
        temperature_cp: 80,
    },
    LevelSpec {
        nodes: 2_000,
        lines: 4,
        margin_cp: 120,
        temperature_cp: 60,
    },
    LevelSpec {
        nodes: 4_000,
        lines: 4,
        margin_cp: 90,
        temperature_cp: 45,
    },
    LevelSpec {
        nodes: 8_000,
        lines: 4,
        margin_cp: 60,
        temperature_cp: 30,
    },
    LevelSpec {
        nodes: 16_000,
        lines: 4,
        margin_cp: 40,
        temperature_cp: 20,
    },
    LevelSpec {
        nodes: 32_000,
        lines: 4,
        margin_cp: 25,
        temperature_cp: 12,
    },
    LevelSpec {
        nodes: 64_000,
        lines: 4,
        margin_cp: 15,
        temperature_cp: 7,
    },
    LevelSpec {
        nodes: 256_000,
        lines: 3,
        margin_cp: 10,
        temperature_cp: 5,
    },
];

const _: () = assert!(SPECS[0].lines <= MAX_MULTIPV);

/// How `level` plays; `None` at full strength (or above).
///
/// ```
/// use menhir::search::level::{spec, FULL_STRENGTH};
/// assert!(spec(1).unwrap().nodes < spec(2).unwrap().nodes);
/// assert_eq!(spec(FULL_STRENGTH), None);
/// ```
pub fn spec(level: u32) -> Option<LevelSpec> {
    let index = level.max(1) as usize - 1;
    SPECS.get(index).copied()
}

/// The root lines one search reported, kept by depth: what a level chooses from.
#[derive(Clone, Debug, Default)]
pub struct Lines {
    /// The deepest depth reported so far, and its lines in report order (line 1 first).
    deepest: Option<(u32, Vec<(Move, i32)>)>,
    /// The deepest depth whose every line was reported.
    complete: Option<Vec<(Move, i32)>>,
    /// Lines a complete depth has.
    expected: usize,
}

impl Lines {
    /// Collects lines of a search that reports `expected` of them per depth.
    pub fn new(expected: usize) -> Lines {
        Lines {
            expected: expected.max(1),
            ..Lines::default()
        }
    }

    /// Takes one progress report (line `info.multipv` at `info.depth`).
    pub fn record(&mut self, info: &Info) {
        let Some(&mv) = info.pv.first() else {
            return;
        };
        // Line k of a depth follows lines 1..k-1 of it; anything else (a repeat of line 1 as
        // the final report, a shallower depth) adds nothing.
        let line = info.multipv.max(1) as usize;
        match &mut self.deepest {
            Some((depth, lines)) if *depth == info.depth && line == lines.len() + 1 => {
                lines.push((mv, info.score_cp))
            }
            Some((depth, _)) if *depth >= info.depth => return,
            _ if line == 1 => self.deepest = Some((info.depth, vec![(mv, info.score_cp)])),
            _ => return,
        }
        if let Some((_, lines)) = &self.deepest {
            if lines.len() == self.expected {
                self.complete = Some(lines.clone());
            }
        }
    }

    /// The lines to choose from: the deepest complete depth's, else the deepest depth's (the
    /// node cap ended the search before every line of depth 1 was done).
    pub fn best_set(&self) -> &[(Move, i32)] {
        match (&self.complete, &self.deepest) {
            (Some(lines), _) => lines,
            (None, Some((_, lines))) => lines,
            (None, None) => &[],
        }
    }
}

/// Chooses among `lines` (move and score, the side to move's view) as `spec` says, by `seed`:
/// the lines within the margin of the best, weighted by `exp(-lost / temperature)`. `None` when
/// there are no lines.
pub fn choose(lines: &[(Move, i32)], spec: &LevelSpec, seed: u64) -> Option<(Move, i32)> {
    let best = lines.iter().map(|&(_, score)| score).max()?;
    let candidates: Vec<(Move, i32, f64)> = lines
        .iter()
        .filter(|&&(_, score)| best - score <= spec.margin_cp)
        .map(|&(mv, score)| {
            let lost = f64::from(best - score);
            let weight = (-lost / f64::from(spec.temperature_cp.max(1))).exp();
            (mv, score, weight)
        })
        .collect();
    let total: f64 = candidates.iter().map(|c| c.2).sum();
    let mut point = unit(seed) * total;
    for &(mv, score, weight) in &candidates {
        if point < weight {
            return Some((mv, score));
        }
        point -= weight;
    }
    candidates.last().map(|&(mv, score, _)| (mv, score))
}

/// The seed of the choice in a position: the level's seed and the position's hash, mixed.
pub fn position_seed(seed: u64, position_hash: u64) -> u64 {
    splitmix(seed ^ splitmix(position_hash))
}

/// SplitMix64's output function: written out so a seed means the same moves in every build (a
/// library generator may change its stream between versions).
fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A number in [0, 1) from `seed`.
fn unit(seed: u64) -> f64 {
    (splitmix(seed) >> 11) as f64 / (1u64 << 53) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Position;

    fn moves(texts: &[&str]) -> Vec<Move> {
        let pos = Position::start(5).unwrap();
        texts.iter().map(|t| pos.parse_move(t).unwrap()).collect()
    }

    #[test]
    fn levels_grow_towards_full_strength() {
        for level in 1..FULL_STRENGTH - 1 {
            let (weaker, stronger) = (spec(level).unwrap(), spec(level + 1).unwrap());
            assert!(weaker.nodes < stronger.nodes);
            assert!(weaker.margin_cp > stronger.margin_cp);
            assert!(weaker.lines >= stronger.lines && stronger.lines >= 2);
        }
        assert_eq!(spec(FULL_STRENGTH), None);
        assert_eq!(spec(0), spec(1));
    }

    #[test]
    fn only_moves_within_the_margin_are_chosen_and_the_best_most_often() {
        let m = moves(&["a1", "b1", "c1", "d1"]);
        let lines = [(m[0], 50), (m[1], 30), (m[2], -20), (m[3], -9000)];
        let spec = LevelSpec {
            nodes: 1,
            lines: 4,
            margin_cp: 80,
            temperature_cp: 40,
        };
        let mut counts = [0; 4];
        for seed in 0..2000 {
            let (mv, score) = choose(&lines, &spec, position_seed(seed, 42)).unwrap();
            let i = m.iter().position(|&x| x == mv).unwrap();
            assert_eq!(lines[i].1, score);
            counts[i] += 1;
        }
        assert!(counts[0] > counts[1] && counts[1] > counts[2], "{counts:?}");
        assert!(counts[2] > 0, "{counts:?}");
        assert_eq!(counts[3], 0, "a blunder is never a candidate");
        // The same seed, the same move.
        assert_eq!(choose(&lines, &spec, 7), choose(&lines, &spec, 7));
        assert_eq!(choose(&[], &spec, 7), None);
    }

    #[test]
    fn the_deepest_complete_depth_is_chosen_from() {
        let m = moves(&["a1", "b1", "c1"]);
        let info = |depth, line: usize, score| Info {
            multipv: line as u32,
            depth,
            score_cp: score,
            pv: vec![m[line - 1]],
            ..Info::default()
        };
        let mut lines = Lines::new(2);
        assert!(lines.best_set().is_empty());
        lines.record(&info(1, 1, 10));
        assert_eq!(
            lines.best_set(),
            [(m[0], 10)],
            "partial depth 1 is all there is"
        );
        lines.record(&info(1, 2, 5));
        lines.record(&info(2, 1, 12));
        assert_eq!(lines.best_set(), [(m[0], 10), (m[1], 5)]);
        lines.record(&info(2, 2, 11));
        assert_eq!(lines.best_set(), [(m[0], 12), (m[1], 11)]);
        // The final report repeats line 1 at the deepest depth, and a shallower line is old
        // news: neither adds a line.
        lines.record(&info(2, 1, 12));
        lines.record(&info(1, 3, 0));
        assert_eq!(lines.best_set(), [(m[0], 12), (m[1], 11)]);
    }
}
