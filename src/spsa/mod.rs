//! `menhir spsa`: tunes search parameters ([`crate::search::PARAMS`]) by SPSA over self-play
//! games between two copies of an engine started in tuning mode (`tei --tune`).
//!
//! - [`algorithm`]: θ, the gains and the update, apart from how comparisons are played.
//! - [`games`]: the engine pairs and the game pairs, through the match runner.
//! - [`state`]: the `--out` file, written after every iteration, and `--resume`.
//!
//! Each iteration draws one ±1 vector Δ and plays `--concurrency` game pairs at once, each pair
//! from its own random opening with colours swapped, θ + c_kΔ against θ − c_kΔ; the update uses
//! the mean result over those pairs, so `--concurrency` makes each step less noisy without
//! changing its size. The result is a guess from a fast clock: confirm it with `menhir match`
//! at a real clock before it replaces the defaults.

pub mod algorithm;
pub mod games;
pub mod state;

use crate::common::seed_from_clock;
use crate::core::size_and_half_komi;
use crate::matchrun::clock::TimeControl;
use crate::matchrun::engine::EngineSpec;
use crate::matchrun::game::{GameSettings, DEFAULT_MAX_PLIES};
use crate::matchrun::openings::{parse_openings, random_openings, Opening};
use crate::search::{find_param, ParamSpec, SearchParams, PARAMS};
use algorithm::{Dimension, Spsa};
use games::Pairs;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Settings of `menhir spsa` (built from its flags in `commands`).
#[derive(Debug, Clone)]
pub struct SpsaConfig {
    /// Parameters to tune, comma-separated TEI option names (default: all of them).
    pub params: Vec<String>,
    /// Write θ here after every iteration (`Name value` lines; temporary file, then rename).
    pub out: PathBuf,
    /// Start from θ and the iteration count of an earlier `--out` file.
    pub resume: Option<PathBuf>,
    /// Iterations in all (a resumed run counts the ones already done).
    pub iterations: usize,
    /// Board size, 3 to 8.
    pub size: usize,
    /// Komi in flats, in half steps.
    pub komi: f64,
    /// Time control of every game: base seconds + increment seconds.
    pub tc: TimeControl,
    /// Game pairs played at once (each with its own two engine processes).
    pub concurrency: usize,
    /// Random legal plies that open each game pair.
    pub random_plies: usize,
    /// Openings file (as `menhir match --openings`): each game pair starts from one of its
    /// openings, drawn at random, instead of random plies.
    pub openings: Option<PathBuf>,
    /// Seed for the perturbations and openings (default: from the clock, printed).
    pub seed: Option<u64>,
    /// The engine to tune (default: this executable).
    pub engine_cmd: Option<PathBuf>,
    /// Its arguments, split on spaces; they must start it in tuning mode.
    pub engine_args: String,
    /// Milliseconds past its clock before a silent engine is killed (the game is lost on time).
    pub grace_ms: u64,
}

/// The tuned parameters: `--params`, or all.
fn chosen_params(names: &[String]) -> Result<Vec<&'static ParamSpec>, String> {
    if names.is_empty() {
        return Ok(PARAMS.iter().collect());
    }
    let mut chosen: Vec<&'static ParamSpec> = Vec::new();
    for name in names {
        let spec = find_param(name.trim()).ok_or_else(|| {
            let known: Vec<&str> = PARAMS.iter().map(|p| p.name).collect();
            format!(
                "--params: unknown parameter '{name}' (known: {})",
                known.join(", ")
            )
        })?;
        if chosen.iter().any(|c| c.name == spec.name) {
            return Err(format!("--params: {} is given twice", spec.name));
        }
        chosen.push(spec);
    }
    Ok(chosen)
}

/// The starting dimensions: the engine's values at the size played, or the values of `--resume`; and the iterations done.
fn start(config: &SpsaConfig, chosen: &[&ParamSpec]) -> Result<(Vec<Dimension>, usize), String> {
    let mut dims: Vec<Dimension> = chosen
        .iter()
        .map(|p| Dimension {
            name: p.name.to_string(),
            min: p.min,
            max: p.max,
            start: f64::from(p.get(&SearchParams::for_size(config.size))),
        })
        .collect();
    let Some(path) = &config.resume else {
        return Ok((dims, 0));
    };
    let saved = state::read(path)?;
    for (name, value) in &saved.values {
        let dim = dims
            .iter_mut()
            .find(|d| d.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| {
                format!(
                    "{}: {name} is not a parameter being tuned (see --params)",
                    path.display()
                )
            })?;
        dim.start = *value;
    }
    Ok((dims, saved.iteration))
}

/// The openings of `--openings`, checked against the size and komi played.
fn read_openings(path: &PathBuf, settings: &GameSettings) -> Result<Vec<Opening>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    parse_openings(&text, settings.size, settings.half_komi)
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// Checks the flags that need no engine.
fn game_settings(config: &SpsaConfig) -> Result<GameSettings, String> {
    let half_komi = size_and_half_komi(config.size, config.komi)?;
    if config.iterations == 0 {
        return Err("--iterations must be at least 1".into());
    }
    if config.concurrency == 0 || config.concurrency > 64 {
        return Err("--concurrency must be 1 to 64".into());
    }
    Ok(GameSettings {
        size: config.size,
        half_komi,
        time: config.tc,
        grace: Duration::from_millis(config.grace_ms),
        max_plies: DEFAULT_MAX_PLIES,
    })
}

/// The engine every game runs.
fn engine_spec(config: &SpsaConfig) -> Result<EngineSpec, String> {
    let cmd = match &config.engine_cmd {
        Some(path) => path.clone(),
        None => std::env::current_exe()
            .map_err(|e| format!("cannot find this executable (give --engine-cmd): {e}"))?,
    };
    Ok(EngineSpec {
        name: "menhir".into(),
        cmd: cmd.to_string_lossy().into_owned(),
        args: config
            .engine_args
            .split_whitespace()
            .map(String::from)
            .collect(),
        options: Vec::new(),
    })
}

/// `setoption` pairs for one candidate.
fn options(names: &[&str], values: &[i32]) -> Vec<(String, String)> {
    names
        .iter()
        .zip(values)
        .map(|(name, v)| (name.to_string(), v.to_string()))
        .collect()
}

/// θ for a progress line: `Name 41.3, …`.
fn theta_text(spsa: &Spsa) -> String {
    let parts: Vec<String> = spsa
        .dims()
        .iter()
        .zip(spsa.theta())
        .map(|(d, t)| format!("{} {t:.2}", d.name))
        .collect();
    parts.join(", ")
}

/// Runs `menhir spsa`: progress on stderr, θ in `--out` after every iteration.
pub fn run(config: &SpsaConfig) -> Result<(), String> {
    let chosen = chosen_params(&config.params)?;
    let settings = game_settings(config)?;
    let (dims, done) = start(config, &chosen)?;
    let book = config
        .openings
        .as_ref()
        .map(|path| read_openings(path, &settings))
        .transpose()?;
    let mut spsa = Spsa::new(dims, config.iterations, done);
    let command = std::env::args().collect::<Vec<_>>().join(" ");
    // Written now: an unwritable --out fails before any engine starts.
    state::write(&config.out, &spsa, config.iterations, &command)?;
    if done >= config.iterations {
        eprintln!(
            "spsa: {done} of {} iterations already done",
            config.iterations
        );
        return Ok(());
    }
    let seed = config.seed.unwrap_or_else(seed_from_clock);
    // A resumed run draws other perturbations than the first iterations did.
    let mut rng = StdRng::seed_from_u64(seed ^ (done as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let names: Vec<&str> = chosen.iter().map(|p| p.name).collect();
    let mut pairs = Pairs::start(
        &engine_spec(config)?,
        config.concurrency,
        settings.clone(),
        &names,
    )?;
    eprintln!(
        "spsa: {} parameters, iterations {}..{} of {}, size {}, komi {}, {}, concurrency {}, seed {seed}",
        names.len(),
        done + 1,
        config.iterations,
        config.iterations,
        settings.size,
        config.komi,
        settings.time,
        pairs.len()
    );
    let started = Instant::now();
    let (mut points, mut games) = (0.0, 0u64);
    while spsa.iteration() < config.iterations {
        let opening_seed: u64 = rng.random();
        let openings = match &book {
            Some(book) => {
                let mut draw = StdRng::seed_from_u64(opening_seed);
                (0..pairs.len())
                    .map(|_| book[draw.random_range(0..book.len())].clone())
                    .collect()
            }
            None => random_openings(
                settings.size,
                settings.half_komi,
                config.random_plies,
                pairs.len(),
                opening_seed,
            ),
        };
        let mut faults = 0;
        let d = spsa.step(&mut rng, |plus, minus| {
            let results = pairs.play(&options(&names, plus), &options(&names, minus), &openings);
            let plus_points: f64 = results.iter().map(|r| r.plus_points).sum();
            faults = results.iter().map(|r| r.faults).sum::<u32>();
            points += plus_points;
            games += 2 * results.len() as u64;
            // Per game, plus's score minus minus's: (p − (2n − p)) / 2n.
            let n = results.len() as f64;
            Ok((plus_points - (2.0 * n - plus_points)) / (2.0 * n))
        })?;
        state::write(&config.out, &spsa, config.iterations, &command)?;
        let faults = if faults > 0 {
            format!(" ({faults} by fault)")
        } else {
            String::new()
        };
        eprintln!(
            "spsa: iteration {}/{} d {d:+.2}{faults}, plus {points}/{games} so far, {:.0}s: {}",
            spsa.iteration(),
            config.iterations,
            started.elapsed().as_secs_f64(),
            theta_text(&spsa)
        );
    }
    eprintln!("spsa: done; θ is in {}", config.out.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(size: usize) -> SpsaConfig {
        SpsaConfig {
            params: Vec::new(),
            out: PathBuf::from("unused"),
            resume: None,
            iterations: 10,
            size,
            komi: 0.0,
            tc: "1+0.01".parse().unwrap(),
            concurrency: 1,
            random_plies: 2,
            openings: None,
            seed: None,
            engine_cmd: None,
            engine_args: String::new(),
            grace_ms: 0,
        }
    }

    /// A run starts from the engine's values at the size it plays, so a size tuned before is
    /// tuned on from there.
    #[test]
    fn a_run_starts_from_the_values_of_its_size() {
        let chosen = chosen_params(&[]).unwrap();
        for size in 3..=8 {
            let (dims, done) = start(&config(size), &chosen).unwrap();
            assert_eq!(done, 0);
            let expected = SearchParams::for_size(size);
            for (dim, spec) in dims.iter().zip(&chosen) {
                assert_eq!(dim.start, f64::from(spec.get(&expected)), "{}", dim.name);
            }
        }
    }
}
