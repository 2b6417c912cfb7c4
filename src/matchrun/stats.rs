//! Match statistics for the match runner: the win/draw/loss tally, Elo difference with
//! its 95% confidence interval, likelihood of superiority, and the trinomial SPRT
//! (log-likelihood ratio, stopping bounds, verdict). Self-contained: depends only on `std`.

use std::str::FromStr;

/// Two-sided 95% quantile of the standard normal distribution, Φ⁻¹(0.975).
const Z_95: f64 = 1.959_963_984_540_054;

/// Result tally of a match, counted from the first engine's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Score {
    /// Games won by the first engine.
    pub wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games lost by the first engine.
    pub losses: u32,
}

impl Score {
    /// Total number of games played.
    pub fn games(&self) -> u64 {
        u64::from(self.wins) + u64::from(self.draws) + u64::from(self.losses)
    }

    /// Points scored by the first engine: a win counts 1, a draw 1/2.
    pub fn points(&self) -> f64 {
        f64::from(self.wins) + f64::from(self.draws) / 2.0
    }

    /// Mean score per game, `points() / games()`, in `[0, 1]`.
    ///
    /// Returns the neutral 0.5 when no game has been played.
    pub fn score_fraction(&self) -> f64 {
        match self.games() {
            0 => 0.5,
            n => self.points() / n as f64,
        }
    }

    /// Per-game variance of the score under the trinomial (W/D/L) model, with a win
    /// scoring 1, a draw 0.5 and a loss 0. Returns `None` when no game has been played.
    fn per_game_variance(&self) -> Option<f64> {
        let n = self.games();
        if n == 0 {
            return None;
        }
        let n = n as f64;
        let mu = self.score_fraction();
        let (w, d, l) = (
            f64::from(self.wins) / n,
            f64::from(self.draws) / n,
            f64::from(self.losses) / n,
        );
        Some(w * (1.0 - mu).powi(2) + d * (0.5 - mu).powi(2) + l * mu.powi(2))
    }
}

/// Elo difference corresponding to an expected score `fraction` under the logistic model:
/// `-400 * log10(1/p - 1)`.
///
/// Scores at or outside the ends are not clamped to a finite value: `p <= 0` gives
/// `f64::NEG_INFINITY` and `p >= 1` gives `f64::INFINITY`. A NaN input gives NaN.
pub fn elo_from_score(fraction: f64) -> f64 {
    if fraction.is_nan() {
        f64::NAN
    } else if fraction <= 0.0 {
        f64::NEG_INFINITY
    } else if fraction >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / fraction - 1.0).log10()
    }
}

/// Elo difference of the first engine over the second and the half-width of its 95%
/// confidence interval, returned as `(elo, error)` meaning `elo ± error`.
///
/// Method (identical to cutechess-cli's `Elo` class and fastchess's W/D/L report):
/// - `mu` = mean score per game (win 1, draw 0.5, loss 0);
/// - per-game variance `var = w*(1-mu)² + d*(0.5-mu)² + l*(0-mu)²` with `w, d, l` the
///   result frequencies, and standard error of the mean `stdev = sqrt(var / N)`;
/// - `elo = Elo(mu)` and
///   `error = (Elo(mu + z*stdev) - Elo(mu - z*stdev)) / 2` with `z = Φ⁻¹(0.975) ≈ 1.959964`
///   and `Elo` = [`elo_from_score`], i.e. the interval is built on the score and mapped
///   through the logistic curve, then reported as its symmetric half-width.
///
/// Degenerate cases: with no games the result is `(0.0, f64::INFINITY)`; whenever an end of
/// the score interval reaches 0 or 1 (including all-win or all-loss matches) the error is
/// `f64::INFINITY` (and `elo` is infinite for all-win / all-loss).
pub fn elo_with_interval(s: &Score) -> (f64, f64) {
    let Some(var) = s.per_game_variance() else {
        return (0.0, f64::INFINITY);
    };
    let mu = s.score_fraction();
    let stdev = (var / s.games() as f64).sqrt();
    let elo = elo_from_score(mu);
    let error = (elo_from_score(mu + Z_95 * stdev) - elo_from_score(mu - Z_95 * stdev)) / 2.0;
    // inf - inf (all wins or all losses, zero variance) is NaN: report an unbounded error.
    (elo, if error.is_nan() { f64::INFINITY } else { error })
}

/// Likelihood of superiority of the first engine, in `[0, 1]` (cutechess formula):
/// `0.5 * (1 + erf((wins - losses) / sqrt(2 * (wins + losses))))`.
///
/// Draws are ignored. Returns 0.5 when there are no decisive games.
pub fn likelihood_of_superiority(s: &Score) -> f64 {
    let decisive = f64::from(s.wins) + f64::from(s.losses);
    if decisive == 0.0 {
        return 0.5;
    }
    let diff = f64::from(s.wins) - f64::from(s.losses);
    0.5 * (1.0 + erf(diff / (2.0 * decisive).sqrt()))
}

/// The error function, accurate to a few ulps (absolute error below 2e-15 against
/// python3 `math.erf` on a 0.001 grid over [-7, 7]).
///
/// Uses the everywhere-convergent series with positive terms
/// `erf(x) = 2/√π · e^(−x²) · Σ_{n≥0} 2ⁿ x^(2n+1) / (1·3·…·(2n+1))`
/// (Abramowitz & Stegun 7.1.6), which has no cancellation. For `|x| >= 6`,
/// `1 - erf(|x|) < 2.2e-17`, so ±1 is returned exactly.
fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    let a = x.abs();
    if a >= 6.0 {
        return x.signum();
    }
    let two_x2 = 2.0 * a * a;
    let mut term = a;
    let mut sum = a;
    let mut n = 0.0_f64;
    // Terms grow while 2n+1 < 2x² (at most ~36 steps for |x| < 6) and then decay
    // geometrically; 400 iterations is far more than ever needed.
    for _ in 0..400 {
        n += 1.0;
        term *= two_x2 / (2.0 * n + 1.0);
        sum += term;
        if term <= sum * 1e-17 {
            break;
        }
    }
    let value = std::f64::consts::FRAC_2_SQRT_PI * (-a * a).exp() * sum;
    value.min(1.0).copysign(x)
}

/// Expected score of the stronger side for an Elo difference, `1 / (1 + 10^(-elo/400))`.
fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Parameters of a sequential probability ratio test between H0: `elo = elo0` and
/// H1: `elo = elo1` (logistic Elo), with type I error `alpha` and type II error `beta`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sprt {
    /// Elo difference under the null hypothesis H0.
    pub elo0: f64,
    /// Elo difference under the alternative hypothesis H1; must exceed `elo0`.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds (false positive), in (0, 1).
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds (false negative), in (0, 1).
    pub beta: f64,
}

/// Outcome of checking an SPRT against the current score.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SprtVerdict {
    /// The LLR reached the lower bound: H0 (`elo = elo0`) is accepted.
    AcceptH0,
    /// The LLR reached the upper bound: H1 (`elo = elo1`) is accepted.
    AcceptH1,
    /// The LLR is strictly between the bounds: keep playing.
    Continue,
}

impl SprtVerdict {
    /// How a report names the verdict.
    pub fn label(self) -> &'static str {
        match self {
            SprtVerdict::AcceptH0 => "H0 accepted",
            SprtVerdict::AcceptH1 => "H1 accepted",
            SprtVerdict::Continue => "undecided",
        }
    }
}

impl Sprt {
    /// Checks that the parameters are usable: all finite, `alpha` and `beta` in (0, 1)
    /// and `elo0 < elo1`. The error message says which condition fails.
    pub fn validate(&self) -> Result<(), String> {
        for (name, value) in [("elo0", self.elo0), ("elo1", self.elo1)] {
            if !value.is_finite() {
                return Err(format!("SPRT {name} must be a finite number, got {value}"));
            }
        }
        for (name, value) in [("alpha", self.alpha), ("beta", self.beta)] {
            if !(value > 0.0 && value < 1.0) {
                return Err(format!(
                    "SPRT {name} must be strictly between 0 and 1, got {value}"
                ));
            }
        }
        if self.elo0 >= self.elo1 {
            return Err(format!(
                "SPRT elo0 must be less than elo1, got elo0={} and elo1={}",
                self.elo0, self.elo1
            ));
        }
        Ok(())
    }

    /// Wald's stopping bounds on the LLR, `(lower, upper)` =
    /// `(ln(beta / (1 - alpha)), ln((1 - beta) / alpha))`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// Log-likelihood ratio of H1 against H0 for the score `s`, using the normal
    /// (GSPRT) approximation on the trinomial W/D/L model with logistic Elo, as in
    /// fastchess / cutechess:
    /// `llr = 0.5 * N * (s1 - s0) * (2*mu - s0 - s1) / var`,
    /// where `s_i = 1 / (1 + 10^(-elo_i/400))`, `mu` is the mean score per game, `var` the
    /// per-game variance of the score and `N` the number of games.
    ///
    /// Returns 0 when no games have been played or the variance is 0 (e.g. all draws).
    pub fn llr(&self, s: &Score) -> f64 {
        let Some(mut var) = s.per_game_variance() else {
            return 0.0;
        };
        if var <= 0.0 {
            // Every game alike (all won, say) shows no spread, and a zero variance would keep
            // the LLR at 0 for ever: a 105-0 match ran on. Measure the spread with one more
            // win and one more loss instead; the score itself is left as played.
            var = Score {
                wins: s.wins + 1,
                draws: s.draws,
                losses: s.losses + 1,
            }
            .per_game_variance()
            .unwrap_or(0.25);
        }
        let s0 = score_from_elo(self.elo0);
        let s1 = score_from_elo(self.elo1);
        let mu = s.score_fraction();
        0.5 * s.games() as f64 * (s1 - s0) * (2.0 * mu - s0 - s1) / var
    }

    /// Decision for the score `s`: [`SprtVerdict::AcceptH1`] if the LLR is at or above the
    /// upper bound, [`SprtVerdict::AcceptH0`] if at or below the lower bound, otherwise
    /// [`SprtVerdict::Continue`].
    pub fn verdict(&self, s: &Score) -> SprtVerdict {
        let llr = self.llr(s);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtVerdict::AcceptH1
        } else if llr <= lower {
            SprtVerdict::AcceptH0
        } else {
            SprtVerdict::Continue
        }
    }
}

impl FromStr for Sprt {
    type Err = String;

    /// Parses `elo0=0,elo1=5,alpha=0.05,beta=0.05`: comma-separated `key=value` pairs in
    /// any order (whitespace around items is ignored), each of the four keys exactly once,
    /// then checked with [`Sprt::validate`].
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        const KEYS: [&str; 4] = ["elo0", "elo1", "alpha", "beta"];
        let mut values: [Option<f64>; 4] = [None; 4];
        for item in text.split(',') {
            let item = item.trim();
            if item.is_empty() {
                return Err(format!("empty item in SPRT specification '{text}'"));
            }
            let Some((key, value)) = item.split_once('=') else {
                return Err(format!(
                    "SPRT item '{item}' is not of the form key=value (expected keys: elo0, elo1, alpha, beta)"
                ));
            };
            let key = key.trim();
            let value = value.trim();
            let Some(index) = KEYS.iter().position(|k| *k == key) else {
                return Err(format!(
                    "unknown SPRT key '{key}' (expected keys: elo0, elo1, alpha, beta)"
                ));
            };
            if values[index].is_some() {
                return Err(format!("SPRT key '{key}' is given more than once"));
            }
            let number = value
                .parse::<f64>()
                .map_err(|_| format!("SPRT value for '{key}' is not a number: '{value}'"))?;
            values[index] = Some(number);
        }
        let missing: Vec<&str> = KEYS
            .iter()
            .zip(values.iter())
            .filter(|(_, v)| v.is_none())
            .map(|(k, _)| *k)
            .collect();
        if !missing.is_empty() {
            return Err(format!(
                "SPRT specification is missing key(s): {}",
                missing.join(", ")
            ));
        }
        let [Some(elo0), Some(elo1), Some(alpha), Some(beta)] = values else {
            unreachable!("all keys were checked to be present");
        };
        let sprt = Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        };
        sprt.validate()?;
        Ok(sprt)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(actual: f64, expected: f64, tol: f64) -> bool {
        (actual - expected).abs() <= tol
    }

    macro_rules! assert_close {
        ($actual:expr, $expected:expr, $tol:expr) => {{
            let (a, e): (f64, f64) = ($actual, $expected);
            assert!(
                close(a, e, $tol),
                "expected {e}, got {a} (tolerance {})",
                $tol
            );
        }};
    }

    fn score(wins: u32, draws: u32, losses: u32) -> Score {
        Score {
            wins,
            draws,
            losses,
        }
    }

    #[test]
    fn score_basics() {
        let s = score(60, 20, 20);
        assert_eq!(s.games(), 100);
        assert_close!(s.points(), 70.0, 1e-12);
        assert_close!(s.score_fraction(), 0.7, 1e-12);
        assert_close!(Score::default().score_fraction(), 0.5, 0.0);
        assert_eq!(
            score(u32::MAX, u32::MAX, 1).games(),
            2 * u64::from(u32::MAX) + 1
        );
    }

    #[test]
    fn erf_matches_python() {
        // Expected values: python3 math.erf(x) (repr).
        let cases = [
            (0.0, 0.0),
            (1e-10, 1.1283791670955126e-10),
            (0.1, 0.1124629160182849),
            (0.46875, 0.49261347321793797),
            (0.5, 0.5204998778130465),
            (1.0, 0.8427007929497149),
            (2.0, 0.9953222650189527),
            (3.0, 0.9999779095030014),
            (3.5, 0.9999992569016276),
            (4.0, 0.9999999845827421),
            (5.0, 0.9999999999984626),
            (5.9, 0.9999999999999999),
            (6.0, 1.0),
            (-0.7, -0.6778011938374184),
            (-2.5, -0.999593047982555),
        ];
        for (x, expected) in cases {
            assert!(
                close(erf(x), expected, 1e-15),
                "erf({x}) = {}, expected {expected}",
                erf(x)
            );
        }
        assert_eq!(erf(10.0), 1.0);
        assert_eq!(erf(-10.0), -1.0);
        assert!(erf(f64::NAN).is_nan());
    }

    #[test]
    fn elo_from_score_values() {
        assert_close!(elo_from_score(0.5), 0.0, 1e-12);
        // python3: -400*math.log10(1/0.75-1) = 190.848501887865
        assert_close!(elo_from_score(0.75), 190.848501887865, 1e-9);
        // python3: -400*math.log10(1/0.25-1) = -190.84850188786498
        assert_close!(elo_from_score(0.25), -190.84850188786498, 1e-9);
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
        assert_eq!(elo_from_score(-0.1), f64::NEG_INFINITY);
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(elo_from_score(1.5), f64::INFINITY);
        assert!(elo_from_score(f64::NAN).is_nan());
    }

    #[test]
    fn elo_interval_60_20_20() {
        let (elo, err) = elo_with_interval(&score(60, 20, 20));
        // python3: elo(mu=0.7) = 147.19071411783776, with elo(p) = -400*log10(1/p-1)
        assert_close!(elo, 147.19071411783776, 1e-6);
        // python3: var=0.16, sd=sqrt(var/100)=0.04, z=statistics.NormalDist().inv_cdf(0.975),
        // (elo(mu+z*sd)-elo(mu-z*sd))/2 = 66.01338122038528
        assert_close!(err, 66.01338122038528, 1e-6);
    }

    #[test]
    fn elo_interval_other_scores() {
        // Expected values: python3, same cutechess method as in elo_interval_60_20_20.
        let (elo, err) = elo_with_interval(&score(1000, 800, 900));
        assert_close!(elo, 12.873873348560497, 1e-6);
        assert_close!(err, 11.00154267386868, 1e-6);
        let (elo, err) = elo_with_interval(&score(30, 40, 30));
        assert_close!(elo, 0.0, 1e-9);
        assert_close!(err, 53.157979780053196, 1e-6);
        let (elo, err) = elo_with_interval(&score(10, 5, 20));
        assert_close!(elo, -102.10900204132241, 1e-6);
        assert_close!(err, 115.46685985808995, 1e-6);
    }

    #[test]
    fn elo_interval_degenerate() {
        assert_eq!(elo_with_interval(&Score::default()), (0.0, f64::INFINITY));
        assert_eq!(
            elo_with_interval(&score(5, 0, 0)),
            (f64::INFINITY, f64::INFINITY)
        );
        assert_eq!(
            elo_with_interval(&score(0, 0, 5)),
            (f64::NEG_INFINITY, f64::INFINITY)
        );
        assert_eq!(elo_with_interval(&score(0, 7, 0)), (0.0, 0.0));
        // Upper end of the score interval above 1: unbounded error.
        let (elo, err) = elo_with_interval(&score(9, 0, 1));
        assert!(elo.is_finite());
        assert_eq!(err, f64::INFINITY);
    }

    #[test]
    fn los_values() {
        // python3: 0.5*(1+math.erf((60-20)/math.sqrt(2*(60+20)))) = 0.9999961278917845
        assert_close!(
            likelihood_of_superiority(&score(60, 20, 20)),
            0.9999961278917845,
            1e-9
        );
        // python3: 0.5*(1+math.erf((1000-900)/math.sqrt(2*1900))) = 0.9891092686044403
        assert_close!(
            likelihood_of_superiority(&score(1000, 800, 900)),
            0.9891092686044403,
            1e-9
        );
        // python3: 0.5*(1+math.erf((10-20)/math.sqrt(2*30))) = 0.0339445774309145
        assert_close!(
            likelihood_of_superiority(&score(10, 5, 20)),
            0.0339445774309145,
            1e-9
        );
        assert_close!(likelihood_of_superiority(&score(30, 40, 30)), 0.5, 1e-15);
        assert_close!(likelihood_of_superiority(&score(0, 12, 0)), 0.5, 0.0);
        assert_close!(likelihood_of_superiority(&Score::default()), 0.5, 0.0);
    }

    fn sprt_0_5() -> Sprt {
        Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        }
    }

    #[test]
    fn sprt_bounds() {
        let (lower, upper) = sprt_0_5().bounds();
        // python3: math.log(0.05/0.95) = -2.9444389791664403, math.log(0.95/0.05) = 2.9444389791664403
        assert_close!(lower, -2.9444389791664403, 1e-12);
        assert_close!(upper, 2.9444389791664403, 1e-12);
        let asym = Sprt {
            alpha: 0.05,
            beta: 0.1,
            ..sprt_0_5()
        };
        let (lower, upper) = asym.bounds();
        // python3: math.log(0.1/0.95) = -2.251291798606495, math.log(0.9/0.05) = 2.8903717578961645
        assert_close!(lower, -2.251291798606495, 1e-12);
        assert_close!(upper, 2.8903717578961645, 1e-12);
    }

    #[test]
    fn sprt_llr_values() {
        let sprt = sprt_0_5();
        // Expected values: python3, llr = 0.5*N*(s1-s0)*(2*mu-s0-s1)/var with
        // s_i = 1/(1+10**(-elo_i/400)), mu = (W+D/2)/N,
        // var = (W*(1-mu)**2 + D*(0.5-mu)**2 + L*mu**2)/N.
        assert_close!(sprt.llr(&score(1000, 800, 900)), 1.6508755416224623, 1e-6);
        assert_close!(sprt.llr(&score(900, 800, 1000)), -2.446948337985698, 1e-6);
        assert_close!(sprt.llr(&score(1200, 800, 900)), 5.63019737120907, 1e-6);
        assert_close!(sprt.llr(&score(60, 20, 20)), 0.8832073383814437, 1e-6);
        assert_eq!(sprt.llr(&Score::default()), 0.0);
        // All draws: no spread of its own; one pseudo win and loss give 0.5/52, and an even
        // score leans a little towards H0 (elo0 = 0 < elo1).
        let draws = sprt.llr(&score(0, 50, 0));
        assert!(draws < 0.0 && draws > -0.5, "{draws}");
    }

    #[test]
    fn a_one_sided_score_decides() {
        let sprt = sprt_0_5();
        assert_eq!(sprt.verdict(&score(3, 0, 0)), SprtVerdict::Continue);
        assert_eq!(sprt.verdict(&score(60, 0, 0)), SprtVerdict::AcceptH1);
        assert_eq!(sprt.verdict(&score(0, 0, 60)), SprtVerdict::AcceptH0);
        assert!(sprt.llr(&score(20, 0, 0)) > sprt.llr(&score(10, 0, 0)));
    }

    #[test]
    fn sprt_verdicts() {
        let sprt = sprt_0_5();
        // LLR 1.65 is inside (-2.944, 2.944).
        assert_eq!(sprt.verdict(&score(1000, 800, 900)), SprtVerdict::Continue);
        // LLR 5.63 is above the upper bound.
        assert_eq!(sprt.verdict(&score(1200, 800, 900)), SprtVerdict::AcceptH1);
        // LLR -2.45 is inside; mirrored and larger it falls below the lower bound.
        assert_eq!(sprt.verdict(&score(900, 800, 1000)), SprtVerdict::Continue);
        assert_eq!(sprt.verdict(&score(900, 800, 1200)), SprtVerdict::AcceptH0);
        assert_eq!(sprt.verdict(&Score::default()), SprtVerdict::Continue);
    }

    #[test]
    fn sprt_parse_ok() {
        let parsed: Sprt = "elo0=0,elo1=5,alpha=0.05,beta=0.05".parse().unwrap();
        assert_eq!(parsed, sprt_0_5());
        let parsed: Sprt = " beta=0.1 , alpha = 0.02,elo1=2.5,elo0=-1.5"
            .parse()
            .unwrap();
        assert_eq!(
            parsed,
            Sprt {
                elo0: -1.5,
                elo1: 2.5,
                alpha: 0.02,
                beta: 0.1,
            }
        );
    }

    #[test]
    fn sprt_parse_errors() {
        let err = |text: &str| text.parse::<Sprt>().unwrap_err();
        assert!(err("elo0=0,elo1=5,alpha=0.05").contains("missing key(s): beta"));
        assert!(err("elo1=5").contains("missing key(s): elo0, alpha, beta"));
        assert!(err("").contains("empty item"));
        assert!(err("elo0=0,,elo1=5,alpha=0.05,beta=0.05").contains("empty item"));
        assert!(
            err("elo0=0,elo1=5,alpha=0.05,beta=0.05,gamma=1").contains("unknown SPRT key 'gamma'")
        );
        assert!(err("elo0=0,elo0=1,elo1=5,alpha=0.05,beta=0.05").contains("more than once"));
        assert!(err("elo0=0,elo1,alpha=0.05,beta=0.05").contains("key=value"));
        assert!(err("elo0=zero,elo1=5,alpha=0.05,beta=0.05").contains("not a number: 'zero'"));
        assert!(err("elo0=0,elo1=5,alpha=0,beta=0.05")
            .contains("alpha must be strictly between 0 and 1"));
        assert!(err("elo0=0,elo1=5,alpha=0.05,beta=1")
            .contains("beta must be strictly between 0 and 1"));
        assert!(err("elo0=0,elo1=5,alpha=NaN,beta=0.05").contains("alpha must be strictly between"));
        assert!(err("elo0=5,elo1=5,alpha=0.05,beta=0.05").contains("elo0 must be less than elo1"));
        assert!(err("elo0=6,elo1=5,alpha=0.05,beta=0.05").contains("elo0 must be less than elo1"));
        assert!(
            err("elo0=inf,elo1=5,alpha=0.05,beta=0.05").contains("elo0 must be a finite number")
        );
    }
}
