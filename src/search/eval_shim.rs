//! TEMPORARY SHIM — delete when the accumulator-generic evaluation (`src/search/eval/`, issue 11
//! part 1) is merged. It implements that branch's interface (`EvalTrace`, `eval_trace`,
//! `EvalWeights`, `evaluate_with`) over today's terms (`eval.rs`) with a handful of features, so
//! the training pipeline (`src/train/`) builds and is tested before the real one lands. Nothing
//! in the search uses it; only `src/train/` and its tests do.
//!
//! Model (the real one's): eval = Σ count·(open·phase + end·(256 − phase))/256, side to move's
//! view, with `phase` 256 at the opening and 0 when a reserve or the board runs out.

use super::EVAL_LIMIT;
use crate::core::{starting_reserves, Bitboard, Color, PieceKind, Position};
use std::sync::OnceLock;

/// The feature names, the same for every size (TEMPORARY: the real list is larger).
const NAMES: [&str; 19] = [
    "flat",
    "wall",
    "cap",
    "cap_reserve",
    "support",
    "captive",
    "support_hard",
    "captive_hard",
    "centre",
    "group_span_2",
    "group_span_3",
    "group_span_4",
    "group_span_5",
    "group_span_6",
    "group_span_7",
    "group_span_8",
    "road_threat",
    "tempo",
    "komi",
];
const FLAT: usize = 0;
const WALL: usize = 1;
const CAP: usize = 2;
const CAP_RESERVE: usize = 3;
const SUPPORT: usize = 4;
const CAPTIVE: usize = 5;
const SUPPORT_HARD: usize = 6;
const CAPTIVE_HARD: usize = 7;
const CENTRE: usize = 8;
const SPAN: usize = 7; // group_span_2 is SPAN + 2
const ROAD_THREAT: usize = 16;
const TEMPO: usize = 17;
const KOMI: usize = 18;

/// The features that fired in one position: a sparse vector, side to move's view.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EvalTrace {
    /// 0..=256, 256 = opening.
    pub phase: i32,
    /// (feature index, count), each index once.
    pub terms: Vec<(u16, i16)>,
}

/// Per feature [opening, end] weights of one board size.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalWeights {
    size: usize,
    values: Vec<[i32; 2]>,
}

impl EvalWeights {
    /// The feature names of a board of `size`, in index order.
    pub fn feature_names(_size: usize) -> Vec<&'static str> {
        NAMES.to_vec()
    }

    /// The board size these weights are for.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The [opening, end] weights of feature `index`.
    pub fn get(&self, index: usize) -> [i32; 2] {
        self.values[index]
    }

    /// Sets the [opening, end] weights of feature `index`.
    pub fn set(&mut self, index: usize, v: [i32; 2]) {
        self.values[index] = v;
    }

    /// The weights built into the engine for `size` (3..=8).
    pub fn builtin(size: usize) -> &'static EvalWeights {
        static ALL: OnceLock<Vec<EvalWeights>> = OnceLock::new();
        let all = ALL.get_or_init(|| (3..=8).map(hand_weights).collect());
        &all[size.clamp(3, 8) - 3]
    }

    /// Reads the text form written by `to_text`: `#` comments, `size N`, then one
    /// `name opening end` line per feature.
    pub fn parse(text: &str) -> Result<EvalWeights, String> {
        let mut size = None;
        let mut values: Vec<Option<[i32; 2]>> = vec![None; NAMES.len()];
        for (number, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let fail = |why: String| format!("weights line {}: {why}", number + 1);
            let words: Vec<&str> = line.split_whitespace().collect();
            if words[0] == "size" {
                let n = words
                    .get(1)
                    .and_then(|w| w.parse::<usize>().ok())
                    .filter(|n| (3..=8).contains(n))
                    .ok_or_else(|| fail(format!("bad size line `{line}`")))?;
                size = Some(n);
                continue;
            }
            let index = NAMES
                .iter()
                .position(|&n| n == words[0])
                .ok_or_else(|| fail(format!("unknown feature `{}`", words[0])))?;
            if words.len() != 3 {
                return Err(fail(format!("expected `name opening end`, got `{line}`")));
            }
            let num = |w: &str| {
                w.parse::<i32>()
                    .map_err(|_| fail(format!("`{w}` is not an integer")))
            };
            if values[index].is_some() {
                return Err(fail(format!("feature `{}` given twice", words[0])));
            }
            values[index] = Some([num(words[1])?, num(words[2])?]);
        }
        let size = size.ok_or("weights: no `size N` line")?;
        let values = values
            .into_iter()
            .zip(NAMES)
            .map(|(v, name)| v.ok_or(format!("weights: feature `{name}` missing")))
            .collect::<Result<Vec<_>, String>>()?;
        Ok(EvalWeights { size, values })
    }

    /// The text form: each header line as a `# ` comment, `size N`, one line per feature.
    pub fn to_text(&self, header: &[String]) -> String {
        let mut text = String::new();
        for line in header {
            text += &format!("# {line}\n");
        }
        text += &format!("size {}\n", self.size);
        for (name, [open, end]) in NAMES.iter().zip(&self.values) {
            text += &format!("{name} {open} {end}\n");
        }
        text
    }
}

/// Today's hand-set numbers of `eval.rs`, as features.
fn hand_weights(size: usize) -> EvalWeights {
    let span: [i32; 9] = match size {
        3 => [0, 0, 20, 40, 0, 0, 0, 0, 0],
        4 => [0, 0, 15, 40, 70, 0, 0, 0, 0],
        5 => [0, 0, 10, 30, 65, 100, 0, 0, 0],
        6 => [0, 0, 8, 22, 45, 80, 110, 0, 0],
        7 => [0, 0, 6, 18, 36, 60, 90, 115, 0],
        _ => [0, 0, 5, 15, 30, 50, 75, 100, 120],
    };
    let mut values = vec![[0; 2]; NAMES.len()];
    let both = |v: i32| [v, v];
    values[FLAT] = [100, 180];
    values[WALL] = both(35);
    values[CAP] = both(70);
    values[CAP_RESERVE] = both(40);
    values[SUPPORT] = both(14);
    values[CAPTIVE] = both(-10);
    values[SUPPORT_HARD] = both(8);
    values[CAPTIVE_HARD] = both(4);
    values[CENTRE] = both(if size <= 4 { 4 } else { 6 });
    for n in 2..=8 {
        values[SPAN + n] = both(span[n]);
    }
    values[ROAD_THREAT] = both(130);
    values[TEMPO] = both(25);
    values[KOMI] = [50, 90];
    EvalWeights { size, values }
}

fn ring(file: usize, rank: usize, size: usize) -> i32 {
    file.min(rank).min(size - 1 - file).min(size - 1 - rank) as i32
}

fn span(group: Bitboard) -> usize {
    let (mut files, mut ranks, mut bits) = (0u64, 0u32, group.0);
    for _ in 0..8 {
        let row = bits & 0xFF;
        if row != 0 {
            files |= row;
            ranks += 1;
        }
        bits >>= 8;
    }
    files.count_ones().max(ranks) as usize
}

/// Adds `sign` × one colour's feature counts to `counts`.
fn side_counts(pos: &Position, color: Color, sign: i32, counts: &mut [i32]) {
    let size = pos.size();
    let tops = pos.tops(color);
    counts[FLAT] += sign * (tops & !pos.walls() & !pos.caps()).count() as i32;
    counts[WALL] += sign * (tops & pos.walls()).count() as i32;
    counts[CAP] += sign * (tops & pos.caps()).count() as i32;
    counts[CAP_RESERVE] += sign * pos.capstones(color) as i32;
    for sq in tops {
        let stack = pos.stack(sq);
        if stack.len() > 1 {
            let (white, black) = stack.counts();
            let (mine, theirs) = match color {
                Color::White => (white - 1, black),
                Color::Black => (black - 1, white),
            };
            let (mine, theirs) = (mine.min(size as u32) as i32, theirs.min(size as u32) as i32);
            counts[SUPPORT] += sign * mine;
            counts[CAPTIVE] += sign * theirs;
            if pos.top_kind(sq) != PieceKind::Flat {
                counts[SUPPORT_HARD] += sign * mine;
                counts[CAPTIVE_HARD] += sign * theirs;
            }
        }
    }
    let road = pos.road_pieces(color);
    for sq in road {
        counts[CENTRE] += sign * ring(sq.file(), sq.rank(), size);
    }
    let mut rest = road;
    while let Some(seed) = rest.first() {
        let group = rest.flood(Bitboard::from_square(seed));
        rest ^= group;
        let s = span(group);
        if s >= 2 {
            counts[SPAN + s] += sign;
        }
    }
    if pos.stones(color) + pos.capstones(color) > 0 {
        counts[ROAD_THREAT] += sign * pos.road_squares(color).count().min(2) as i32;
    }
}

/// The features of `pos`, side to move's view.
pub fn eval_trace(pos: &Position) -> EvalTrace {
    let size = pos.size();
    let (stones, _) = starting_reserves(size);
    let left = pos.stones(Color::White).min(pos.stones(Color::Black)) as i32;
    let empty = pos.empty().count() as i32;
    let phase = (left * 256 / stones as i32).min(empty * 256 / (size * size) as i32);
    let me = pos.to_move();
    let mut counts = [0i32; NAMES.len()];
    side_counts(pos, me, 1, &mut counts);
    side_counts(pos, !me, -1, &mut counts);
    counts[TEMPO] = 1;
    // Komi is added to Black.
    counts[KOMI] = if me == Color::Black {
        pos.half_komi()
    } else {
        -pos.half_komi()
    };
    let terms = counts
        .iter()
        .enumerate()
        .filter(|(_, &c)| c != 0)
        .map(|(i, &c)| (i as u16, c as i16))
        .collect();
    EvalTrace { phase, terms }
}

/// The evaluation of `pos` with weights `w`, side to move's view, clamped to ±`EVAL_LIMIT`.
pub fn evaluate_with(pos: &Position, w: &EvalWeights) -> i32 {
    let trace = eval_trace(pos);
    let (mut open, mut end) = (0i64, 0i64);
    for &(i, c) in &trace.terms {
        let [o, e] = w.get(i as usize);
        open += i64::from(c) * i64::from(o);
        end += i64::from(c) * i64::from(e);
    }
    let phase = i64::from(trace.phase);
    let score = (open * phase + end * (256 - phase)) / 256;
    score.clamp(-i64::from(EVAL_LIMIT), i64::from(EVAL_LIMIT)) as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trips_and_bad_text_is_refused() {
        let w = EvalWeights::builtin(6);
        let text = w.to_text(&["made by hand".into()]);
        assert!(text.starts_with("# made by hand\nsize 6\n"));
        assert_eq!(&EvalWeights::parse(&text).unwrap(), w);
        assert!(EvalWeights::parse("size 6\n").is_err());
        assert!(EvalWeights::parse(&text.replace("tempo", "tempi")).is_err());
        assert!(EvalWeights::parse(&text.replace("size 6", "size 9")).is_err());
    }

    #[test]
    fn close_to_todays_evaluation() {
        // Rounding of the taper differs; the terms are the same.
        let pos = Position::from_tps("2,1,x4/x,1,2,x3/x2,1C,x3/x6/x4,2S,x/x6 2 5").unwrap();
        let shim = evaluate_with(&pos, EvalWeights::builtin(6));
        assert!((shim - super::super::evaluate(&pos)).abs() <= 3, "{shim}");
    }
}
