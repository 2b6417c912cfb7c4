//! The training set in memory: each position's evaluation trace as a sparse row (compressed
//! sparse rows: one start offset per position into shared index and count arrays), its phase,
//! and its score and result from the side to move's view.
//!
//! Parameters are laid out as `[open_0, end_0, open_1, end_1, …]`, two per feature, and a row
//! evaluates as the engine's model does: Σ count·(open·p + end·(1 − p)) with p = phase/256.

/// Positions as sparse feature rows with their labels' ingredients.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    features: usize,
    phase: Vec<f64>,
    starts: Vec<usize>,
    index: Vec<u16>,
    count: Vec<i16>,
    score: Vec<f64>,
    result: Vec<f64>,
    target: Vec<f64>,
}

impl Dataset {
    /// An empty set over `features` features.
    pub fn new(features: usize) -> Dataset {
        Dataset {
            features,
            starts: vec![0],
            ..Dataset::default()
        }
    }

    /// The number of features (half the number of parameters).
    pub fn features(&self) -> usize {
        self.features
    }

    /// The number of positions.
    pub fn len(&self) -> usize {
        self.phase.len()
    }

    /// Whether there is no position.
    pub fn is_empty(&self) -> bool {
        self.phase.is_empty()
    }

    /// Adds a position: `phase` 0..=256, `terms` (feature, count), and its search score
    /// (centi-flats) and result (1, 0.5, 0), both from the side to move's view.
    pub fn push(&mut self, phase: i32, terms: &[(u16, i16)], score: f64, result: f64) {
        debug_assert!(terms.iter().all(|&(i, _)| (i as usize) < self.features));
        self.phase.push(f64::from(phase.clamp(0, 256)) / 256.0);
        for &(i, c) in terms {
            self.index.push(i);
            self.count.push(c);
        }
        self.starts.push(self.index.len());
        self.score.push(score);
        self.result.push(result);
        self.target.push(result);
    }

    /// Position `i`'s phase as a fraction (1 = opening) and its terms.
    #[inline]
    pub fn row(&self, i: usize) -> (f64, impl Iterator<Item = (usize, f64)> + '_) {
        let range = self.starts[i]..self.starts[i + 1];
        let terms = self.index[range.clone()]
            .iter()
            .zip(&self.count[range])
            .map(|(&f, &c)| (f as usize, f64::from(c)));
        (self.phase[i], terms)
    }

    /// The evaluation of position `i` under parameters `w` (two per feature).
    #[inline]
    pub fn eval(&self, i: usize, w: &[f64]) -> f64 {
        let (p, terms) = self.row(i);
        terms
            .map(|(f, c)| c * (w[2 * f] * p + w[2 * f + 1] * (1.0 - p)))
            .sum()
    }

    /// Position `i`'s search score and result, side to move's view.
    pub fn score_and_result(&self, i: usize) -> (f64, f64) {
        (self.score[i], self.result[i])
    }

    /// The label of position `i` (see `set_targets`).
    #[inline]
    pub fn target(&self, i: usize) -> f64 {
        self.target[i]
    }

    /// Sets every label to `lambda`·result + (1 − `lambda`)·sigmoid(score / `k`).
    pub fn set_targets(&mut self, k: f64, lambda: f64) {
        for i in 0..self.len() {
            self.target[i] = lambda * self.result[i] + (1.0 - lambda) * sigmoid(self.score[i] / k);
        }
    }

    /// Sets position `i`'s label directly (synthetic sets in tests).
    pub fn set_target(&mut self, i: usize, target: f64) {
        self.target[i] = target;
    }
}

/// The logistic function.
#[inline]
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}
