//! The policy's training set and objective: per position, the features of every legal move
//! and which move the search chose; the loss is the softmax cross-entropy of the chosen move,
//! `−log(e^{z_chosen} / Σ e^{z_m})` with `z_m = Σ w·count` over the move's features (logits).

use super::data_line::DataLine;
use crate::core::MoveList;
use crate::search::policy::{policy_trace, PolicyContext};
use rayon::prelude::*;

/// One position's moves and label, as `PolicySet::push` takes them.
pub struct PolicyRow {
    /// Feature entries of every move, one after another.
    pub entries: Vec<(u16, i16)>,
    /// Where each move's entries end in `entries`.
    pub ends: Vec<u32>,
    /// The index of the chosen move.
    pub label: u16,
}

impl PolicyRow {
    /// The row of a data line with a chosen move; an error for a line without one.
    pub fn of(line: &DataLine) -> Result<PolicyRow, String> {
        let best = line
            .best
            .ok_or("no chosen move (a line of a datagen before moves were recorded)")?;
        let pos = &line.position;
        let ctx = PolicyContext::new(pos, line.last.unwrap_or(crate::core::Move::NULL));
        let mut moves = MoveList::new();
        pos.generate_moves(&mut moves);
        let mut row = PolicyRow {
            entries: Vec::new(),
            ends: Vec::with_capacity(moves.len()),
            label: 0,
        };
        for (i, &mv) in moves.as_slice().iter().enumerate() {
            if mv == best {
                row.label = i as u16;
            }
            policy_trace(pos, &ctx, mv, &mut row.entries);
            row.ends.push(row.entries.len() as u32);
        }
        Ok(row)
    }
}

/// Many positions, stored flat.
pub struct PolicySet {
    features: usize,
    entries: Vec<(u16, i16)>,
    /// Where each move's entries end (global).
    move_ends: Vec<u64>,
    /// Per position: its first move, its number of moves, its label.
    positions: Vec<(u64, u32, u32)>,
}

impl PolicySet {
    /// An empty set for `features` features.
    pub fn new(features: usize) -> PolicySet {
        PolicySet {
            features,
            entries: Vec::new(),
            move_ends: Vec::new(),
            positions: Vec::new(),
        }
    }

    /// Adds a position.
    pub fn push(&mut self, row: &PolicyRow) {
        let base = self.entries.len() as u64;
        self.positions.push((
            self.move_ends.len() as u64,
            row.ends.len() as u32,
            row.label as u32,
        ));
        self.entries.extend_from_slice(&row.entries);
        self.move_ends
            .extend(row.ends.iter().map(|&e| base + e as u64));
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// Whether there are no positions.
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// Number of features.
    pub fn features(&self) -> usize {
        self.features
    }

    /// The logits of position `p`'s moves under `w`, into `out`.
    fn logits(&self, p: usize, w: &[f64], out: &mut Vec<f64>) {
        let (first, count, _) = self.positions[p];
        out.clear();
        let mut start = if first == 0 {
            0
        } else {
            self.move_ends[first as usize - 1]
        };
        for m in first..first + count as u64 {
            let end = self.move_ends[m as usize];
            let z = self.entries[start as usize..end as usize]
                .iter()
                .map(|&(i, c)| w[i as usize] * c as f64)
                .sum();
            out.push(z);
            start = end;
        }
    }

    /// Softmax of `z` in place, returning log Σ e^z (shifted by the max for stability).
    fn softmax(z: &mut [f64]) -> f64 {
        let max = z.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let mut sum = 0.0;
        for v in z.iter_mut() {
            *v = (*v - max).exp();
            sum += *v;
        }
        for v in z.iter_mut() {
            *v /= sum;
        }
        max + sum.ln()
    }

    /// Mean loss and top-1 accuracy (how often the chosen move scores highest, ties broken at
    /// random) over `rows`.
    pub fn evaluate(&self, rows: &[usize], w: &[f64]) -> (f64, f64) {
        if rows.is_empty() {
            return (0.0, 0.0);
        }
        let (loss, hits) = rows
            .par_iter()
            .map_init(Vec::new, |z, &p| {
                self.logits(p, w, z);
                let label = self.positions[p].2 as usize;
                let chosen = z[label];
                // Ties are broken at random: a move tied with k others is first 1/(k+1) of
                // the time, and not at all when another scores higher.
                let higher = z.iter().any(|&v| v > chosen);
                let tied = z.iter().filter(|&&v| v == chosen).count();
                let hit = if higher { 0.0 } else { 1.0 / tied as f64 };
                let log_sum = Self::softmax(z);
                (log_sum - chosen, hit)
            })
            .reduce(|| (0.0, 0.0), |a, b| (a.0 + b.0, a.1 + b.1));
        (loss / rows.len() as f64, hits / rows.len() as f64)
    }

    /// The mean loss over `rows` and its gradient with respect to `w`.
    pub fn gradient(&self, rows: &[usize], w: &[f64]) -> (f64, Vec<f64>) {
        let n = self.features;
        let (loss, mut grad) = rows
            .par_iter()
            .fold(
                || (0.0, vec![0.0; n], Vec::new()),
                |(mut loss, mut grad, mut z), &p| {
                    self.logits(p, w, &mut z);
                    let (first, count, label) = self.positions[p];
                    let chosen = z[label as usize];
                    loss += Self::softmax(&mut z) - chosen;
                    let mut start = if first == 0 {
                        0
                    } else {
                        self.move_ends[first as usize - 1]
                    };
                    for (k, m) in (first..first + count as u64).enumerate() {
                        let end = self.move_ends[m as usize];
                        let g = z[k] - (k == label as usize) as i32 as f64;
                        for &(i, c) in &self.entries[start as usize..end as usize] {
                            grad[i as usize] += g * c as f64;
                        }
                        start = end;
                    }
                    (loss, grad, z)
                },
            )
            .map(|(loss, grad, _)| (loss, grad))
            .reduce(
                || (0.0, vec![0.0; n]),
                |(la, mut ga), (lb, gb)| {
                    for (a, b) in ga.iter_mut().zip(gb) {
                        *a += b;
                    }
                    (la + lb, ga)
                },
            );
        let scale = 1.0 / rows.len().max(1) as f64;
        grad.iter_mut().for_each(|g| *g *= scale);
        (loss * scale, grad)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A set of random positions whose "chosen" move is the best under known weights.
    fn synthetic(truth: &[f64], positions: usize) -> PolicySet {
        use rand::rngs::StdRng;
        use rand::{Rng, SeedableRng};
        let mut rng = StdRng::seed_from_u64(3);
        let mut set = PolicySet::new(truth.len());
        for _ in 0..positions {
            let moves = rng.random_range(2..12);
            let mut row = PolicyRow {
                entries: Vec::new(),
                ends: Vec::new(),
                label: 0,
            };
            let mut logits = Vec::new();
            for _ in 0..moves {
                let mut z = 0.0;
                for (f, &weight) in truth.iter().enumerate() {
                    if rng.random_bool(0.4) {
                        let c = rng.random_range(1i16..=2);
                        row.entries.push((f as u16, c));
                        z += weight * c as f64;
                    }
                }
                row.ends.push(row.entries.len() as u32);
                logits.push(z);
            }
            // Sample the label from the softmax, so the truth is the maximum-likelihood fit.
            PolicySet::softmax(&mut logits);
            let mut r = rng.random::<f64>();
            row.label = (moves - 1) as u16;
            for (k, p) in logits.iter().enumerate() {
                r -= p;
                if r <= 0.0 {
                    row.label = k as u16;
                    break;
                }
            }
            set.push(&row);
        }
        set
    }

    #[test]
    fn the_gradient_matches_finite_differences() {
        let truth = [0.7, -1.2, 0.3, 2.0];
        let set = synthetic(&truth, 200);
        let rows: Vec<usize> = (0..set.len()).collect();
        let w = [0.1, 0.2, -0.3, 0.4];
        let (_, grad) = set.gradient(&rows, &w);
        for i in 0..w.len() {
            let h = 1e-5;
            let mut up = w;
            up[i] += h;
            let mut down = w;
            down[i] -= h;
            let numeric = (set.gradient(&rows, &up).0 - set.gradient(&rows, &down).0) / (2.0 * h);
            assert!(
                (numeric - grad[i]).abs() < 1e-6,
                "feature {i}: {numeric} against {}",
                grad[i]
            );
        }
    }

    #[test]
    fn known_weights_are_recovered() {
        let truth = [0.7, -1.2, 0.3, 2.0];
        let set = synthetic(&truth, 20_000);
        let rows: Vec<usize> = (0..set.len()).collect();
        let mut w = vec![0.0; truth.len()];
        let mut adam = super::super::adam::Adam::new(w.len(), 0.05);
        for _ in 0..600 {
            let (_, grad) = set.gradient(&rows, &w);
            adam.step(&mut w, &grad);
        }
        for (got, want) in w.iter().zip(truth) {
            assert!((got - want).abs() < 0.1, "{w:?} against {truth:?}");
        }
        let (loss, accuracy) = set.evaluate(&rows, &w);
        let (zero_loss, _) = set.evaluate(&rows, &[0.0; 4]);
        assert!(
            loss < zero_loss && accuracy > 0.3,
            "{loss} {zero_loss} {accuracy}"
        );
    }
}
