//! The tuner's objective: the mean squared error between sigmoid(eval / K) and each position's
//! label, its gradient in the parameters (computed on rayon, summed in a fixed order so the
//! result does not depend on the thread count), and the fit of K.

use super::eval_set::{sigmoid, Dataset};
use rayon::prelude::*;

/// Positions per parallel work item of a loss or gradient pass.
const CHUNK: usize = 512;

/// Mean of (sigmoid(eval/`k`) − label)² over the positions `rows` of `data`.
pub fn loss(data: &Dataset, rows: &[usize], w: &[f64], k: f64) -> f64 {
    mean_error(data, rows, w, k, |data, i| data.target(i))
}

/// Mean of (sigmoid(eval/`k`) − result)²: the loss against the game results alone.
pub fn result_loss(data: &Dataset, rows: &[usize], w: &[f64], k: f64) -> f64 {
    mean_error(data, rows, w, k, |data, i| data.score_and_result(i).1)
}

fn mean_error(
    data: &Dataset,
    rows: &[usize],
    w: &[f64],
    k: f64,
    label: impl Fn(&Dataset, usize) -> f64 + Sync,
) -> f64 {
    if rows.is_empty() {
        return 0.0;
    }
    let parts: Vec<f64> = rows
        .par_chunks(CHUNK)
        .map(|chunk| {
            chunk
                .iter()
                .map(|&i| (sigmoid(data.eval(i, w) / k) - label(data, i)).powi(2))
                .sum()
        })
        .collect();
    parts.iter().sum::<f64>() / rows.len() as f64
}

/// The loss over `rows` and its gradient in `w` (same layout as `w`).
pub fn gradient(data: &Dataset, rows: &[usize], w: &[f64], k: f64) -> (f64, Vec<f64>) {
    let parts: Vec<(f64, Vec<f64>)> = rows
        .par_chunks(CHUNK)
        .map(|chunk| {
            let mut grad = vec![0.0; w.len()];
            let mut sum = 0.0;
            for &i in chunk {
                let s = sigmoid(data.eval(i, w) / k);
                let error = s - data.target(i);
                sum += error * error;
                // d/d eval of (s − y)² = 2 (s − y) s (1 − s) / k.
                let d = 2.0 * error * s * (1.0 - s) / k;
                let (p, terms) = data.row(i);
                for (f, c) in terms {
                    grad[2 * f] += d * c * p;
                    grad[2 * f + 1] += d * c * (1.0 - p);
                }
            }
            (sum, grad)
        })
        .collect();
    let n = rows.len().max(1) as f64;
    let mut grad = vec![0.0; w.len()];
    let mut sum = 0.0;
    for (s, g) in parts {
        sum += s;
        for (a, b) in grad.iter_mut().zip(g) {
            *a += b;
        }
    }
    grad.iter_mut().for_each(|g| *g /= n);
    (sum / n, grad)
}

/// The K that best fits sigmoid(eval/K) to the game results under `w` (golden-section search
/// on ln K over 10..10000). The results alone, not the blended label: with the search score
/// in the label, a large K takes both sides to ½ and the loss to zero.
pub fn fit_k(data: &Dataset, rows: &[usize], w: &[f64]) -> f64 {
    let f = |ln_k: f64| result_loss(data, rows, w, ln_k.exp());
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = (10f64.ln(), 10_000f64.ln());
    let mut c = b - ratio * (b - a);
    let mut d = a + ratio * (b - a);
    let (mut fc, mut fd) = (f(c), f(d));
    for _ in 0..50 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - ratio * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + ratio * (b - a);
            fd = f(d);
        }
    }
    ((a + b) / 2.0).exp()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// `n` random sparse rows over `features` features.
    fn random_set(features: usize, n: usize, seed: u64) -> Dataset {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut data = Dataset::new(features);
        for _ in 0..n {
            let mut terms = Vec::new();
            for f in 0..features {
                if rng.random_bool(0.6) {
                    terms.push((f as u16, rng.random_range(-3i16..=3)));
                }
            }
            let score = rng.random_range(-400.0..400.0);
            let result = [0.0, 0.5, 1.0][rng.random_range(0..3)];
            data.push(rng.random_range(0..=256), &terms, score, result);
        }
        data
    }

    #[test]
    fn the_gradient_matches_finite_differences() {
        let mut data = random_set(5, 200, 1);
        data.set_targets(150.0, 0.5);
        let rows: Vec<usize> = (0..data.len()).collect();
        let mut rng = StdRng::seed_from_u64(2);
        let w: Vec<f64> = (0..10).map(|_| rng.random_range(-80.0..80.0)).collect();
        let (value, grad) = gradient(&data, &rows, &w, 150.0);
        assert!((value - loss(&data, &rows, &w, 150.0)).abs() < 1e-12);
        for j in 0..w.len() {
            let h = 1e-3;
            let (mut up, mut down) = (w.clone(), w.clone());
            up[j] += h;
            down[j] -= h;
            let numeric =
                (loss(&data, &rows, &up, 150.0) - loss(&data, &rows, &down, 150.0)) / (2.0 * h);
            assert!(
                (numeric - grad[j]).abs() <= 1e-6 * numeric.abs().max(1e-4),
                "parameter {j}: analytic {} numeric {numeric}",
                grad[j]
            );
        }
    }

    #[test]
    fn the_gradient_does_not_depend_on_the_thread_count() {
        let mut data = random_set(6, 3000, 4);
        data.set_targets(200.0, 0.3);
        let rows: Vec<usize> = (0..data.len()).collect();
        let w: Vec<f64> = (0..12).map(|j| f64::from(j) * 7.0 - 40.0).collect();
        let on = |threads| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| gradient(&data, &rows, &w, 200.0))
        };
        let (one, two) = (on(1), on(2));
        assert_eq!(one.0.to_bits(), two.0.to_bits());
        assert!(one
            .1
            .iter()
            .zip(&two.1)
            .all(|(a, b)| a.to_bits() == b.to_bits()));
    }

    #[test]
    fn k_is_recovered_from_results_drawn_with_it() {
        // Results drawn as wins with probability sigmoid(eval / 200): the fit finds about 200.
        let mut rng = StdRng::seed_from_u64(3);
        let mut data = Dataset::new(1);
        for _ in 0..20_000 {
            let count = rng.random_range(-8i16..=8);
            let p = sigmoid(f64::from(count) * 100.0 / 200.0);
            let result = if rng.random_bool(p) { 1.0 } else { 0.0 };
            data.push(128, &[(0, count)], 0.0, result);
        }
        let rows: Vec<usize> = (0..data.len()).collect();
        let k = fit_k(&data, &rows, &[100.0, 100.0]);
        assert!((k - 200.0).abs() < 20.0, "K = {k}");
    }
}
