//! Adam (Kingma & Ba, 2015): per-parameter steps scaled by running estimates of the gradient's
//! first and second moments, so features that fire rarely still learn at the same pace.

/// The optimiser's state for one parameter vector.
pub struct Adam {
    rate: f64,
    m: Vec<f64>,
    v: Vec<f64>,
    t: i32,
}

const BETA1: f64 = 0.9;
const BETA2: f64 = 0.999;
const EPSILON: f64 = 1e-8;

impl Adam {
    /// State for `len` parameters, stepping about `rate` per step at most.
    pub fn new(len: usize, rate: f64) -> Adam {
        Adam {
            rate,
            m: vec![0.0; len],
            v: vec![0.0; len],
            t: 0,
        }
    }

    /// One step of `params` against `grad`.
    pub fn step(&mut self, params: &mut [f64], grad: &[f64]) {
        self.t += 1;
        let m_scale = 1.0 / (1.0 - BETA1.powi(self.t));
        let v_scale = 1.0 / (1.0 - BETA2.powi(self.t));
        for (((p, g), m), v) in params
            .iter_mut()
            .zip(grad)
            .zip(&mut self.m)
            .zip(&mut self.v)
        {
            *m = BETA1 * *m + (1.0 - BETA1) * g;
            *v = BETA2 * *v + (1.0 - BETA2) * g * g;
            *p -= self.rate * (*m * m_scale) / ((*v * v_scale).sqrt() + EPSILON);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minimises_a_quadratic() {
        // f(x, y) = (x − 3)² + 10 (y + 2)².
        let mut p = [0.0, 0.0];
        let mut adam = Adam::new(2, 0.1);
        for _ in 0..2000 {
            let g = [2.0 * (p[0] - 3.0), 20.0 * (p[1] + 2.0)];
            adam.step(&mut p, &g);
        }
        assert!(
            (p[0] - 3.0).abs() < 1e-3 && (p[1] + 2.0).abs() < 1e-3,
            "{p:?}"
        );
    }
}
