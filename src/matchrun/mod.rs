//! `menhir match`: plays two TEI engines against each other and reports the result.
//!
//! The flags and the tournament loop live here: each of `--concurrency` worker threads owns one
//! process per engine and takes the next game number; the main thread tallies, writes PTN,
//! prints progress and stops early when the SPRT decides. With `--shard K/N` it plays only the
//! opening pairs K, K+N, … of the whole match, numbered as in the whole match.

pub mod book;
pub mod clock;
pub mod engine;
pub mod game;
pub mod openings;
pub mod record;
pub mod report;
pub mod stats;
pub mod tally;

use crate::common::seed_from_clock;
use crate::core::{komi_text, size_and_half_komi};
use crate::shard::{Shard, ShardRequest};
use clock::TimeControl;
use engine::{ChildEngine, EngineSpec};
use game::{play_game, GameOutcome, GameSettings};
use openings::{parse_openings, random_openings, Opening};
use record::{game_record, RecordContext};
use stats::{Sprt, SprtVerdict};
use std::fs::File;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::thread;
use std::time::Duration;
use tally::Tally;

/// Settings of `menhir match` (built from its flags in `commands`).
#[derive(Debug, Clone)]
pub struct MatchConfig {
    /// An engine, twice: `name=NAME,cmd=PROGRAM[,args=ARGS][,option.NAME=VALUE...]`. Arguments
    /// are split on spaces; options are sent with `setoption` after the handshake.
    pub engines: Vec<EngineSpec>,
    /// Board size, 3 to 8.
    pub size: usize,
    /// Komi in flats, in half steps (sent as HalfKomi = 2 × komi).
    pub komi: f64,
    /// Number of games.
    pub games: usize,
    /// Time control: base seconds + increment seconds.
    pub tc: TimeControl,
    /// A fixed time per move in milliseconds instead of a clock.
    pub movetime: Option<u64>,
    /// Games played at once; each has its own engine processes.
    pub concurrency: usize,
    /// Write every game to this PTN file.
    pub ptn: Option<std::path::PathBuf>,
    /// Seed for random openings (default: from the clock, printed).
    pub seed: Option<u64>,
    /// Openings file: one PTN move list or TPS per line; each is played twice, colours swapped.
    pub openings: Option<std::path::PathBuf>,
    /// Start each pair of games with this many random legal plies (from --seed).
    pub random_plies: Option<usize>,
    /// Stop when a sequential probability ratio test decides: `elo0=0,elo1=5,alpha=0.05,beta=0.05`.
    pub sprt: Option<Sprt>,
    /// Milliseconds past its clock before a silent engine is killed (the game is lost on time).
    pub grace_ms: u64,
    /// Games reaching this many plies are drawn.
    pub max_plies: usize,
    /// Which part of the match to play (whole opening pairs; games keep their numbers).
    pub shard: ShardRequest,
}

/// Runs a match: progress on stderr, the summary on stdout.
pub fn run(config: &MatchConfig) -> Result<(), String> {
    let summary = run_match(config)?;
    print!("{summary}");
    Ok(())
}

/// Checks the flags and builds the game settings.
fn settings(config: &MatchConfig) -> Result<GameSettings, String> {
    if config.engines.len() != 2 {
        return Err(format!(
            "a match needs exactly two --engine, {} given",
            config.engines.len()
        ));
    }
    let half_komi = size_and_half_komi(config.size, config.komi)?;
    if config.games == 0 || config.concurrency == 0 || config.max_plies == 0 {
        return Err("--games, --concurrency and --max-plies must be at least 1".into());
    }
    let time = match config.movetime {
        Some(0) => return Err("--movetime must be at least 1 ms".into()),
        Some(ms) => TimeControl::MoveTime(Duration::from_millis(ms)),
        None => config.tc,
    };
    Ok(GameSettings {
        size: config.size,
        half_komi,
        time,
        grace: Duration::from_millis(config.grace_ms),
        max_plies: config.max_plies,
    })
}

/// One opening per pair of games.
fn openings(
    config: &MatchConfig,
    settings: &GameSettings,
    seed: u64,
) -> Result<Vec<Opening>, String> {
    let pairs = config.games.div_ceil(2);
    if let Some(path) = &config.openings {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        return parse_openings(&text, settings.size, settings.half_komi);
    }
    Ok(match config.random_plies {
        Some(plies) => random_openings(settings.size, settings.half_komi, plies, pairs, seed),
        None => vec![Opening::default()],
    })
}

/// The shard to play and, in match order, the numbers (from 0) of its games: both games of
/// each opening pair it owns. Every shard must draw the same openings, hence the checks.
fn shard_games(config: &MatchConfig) -> Result<(Shard, Vec<usize>), String> {
    let shard = config.shard.resolve()?;
    if shard.count > 1 {
        if config.sprt.is_some() {
            return Err(format!(
                "--sprt cannot stop a shard ({shard}) early for the whole match; play the \
                 shards, then run `menhir report --sprt` over their PTN files"
            ));
        }
        if config.random_plies.is_some() && config.seed.is_none() {
            return Err(format!(
                "--shard {shard} with --random-plies needs --seed, so that every shard draws \
                 the same openings"
            ));
        }
    }
    let games = (0..config.games).filter(|&g| shard.owns(g / 2)).collect();
    Ok((shard, games))
}

/// A finished game as a worker reports it.
struct Finished {
    index: usize,
    white: usize,
    outcome: GameOutcome,
}

/// Plays the match and returns the summary text.
pub fn run_match(config: &MatchConfig) -> Result<String, String> {
    let settings = settings(config)?;
    let (shard, games) = shard_games(config)?;
    let seed = config.seed.unwrap_or_else(seed_from_clock);
    let openings = openings(config, &settings, seed)?;
    let mut ptn = match &config.ptn {
        Some(path) => {
            Some(File::create(path).map_err(|e| format!("cannot create {}: {e}", path.display()))?)
        }
        None => None,
    };
    // Start every process before the first game, so a wrong command fails the match at once.
    let workers = config.concurrency.min(games.len());
    let mut pairs = Vec::with_capacity(workers);
    for _ in 0..workers {
        let mut pair = Vec::with_capacity(2);
        for spec in &config.engines {
            let engine = ChildEngine::start(spec, settings.half_komi)
                .map_err(|e| format!("engine {}: {e}", spec.name))?;
            pair.push(engine);
        }
        pairs.push(pair);
    }
    // Only now: a command line that cannot start its engines gets one line, its error.
    eprintln!(
        "match: {} vs {}, {} games, size {}, komi {}, {}, concurrency {}, seed {seed}",
        config.engines[0].name,
        config.engines[1].name,
        config.games,
        settings.size,
        komi_text(settings.half_komi),
        settings.time,
        config.concurrency
    );
    if shard != Shard::WHOLE {
        eprintln!(
            "shard {shard}: {} of the {} games (opening pairs {}, {}, … counted from 0)",
            games.len(),
            config.games,
            shard.index,
            shard.index + shard.count
        );
    }
    let next_game = Arc::new(AtomicUsize::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let openings = Arc::new(openings);
    let games = Arc::new(games);
    let (sender, receiver) = mpsc::channel();
    let mut handles = Vec::with_capacity(workers);
    for mut pair in pairs {
        let (next_game, stop, openings) = (next_game.clone(), stop.clone(), openings.clone());
        let (sender, settings, games) = (sender.clone(), settings.clone(), games.clone());
        handles.push(thread::spawn(move || loop {
            let next = next_game.fetch_add(1, Ordering::SeqCst);
            if next >= games.len() || stop.load(Ordering::SeqCst) {
                break;
            }
            let index = games[next];
            // Game 2k and 2k+1 share opening k, with colours swapped.
            let opening = &openings[(index / 2) % openings.len()];
            let white = index % 2;
            let (first, second) = pair.split_at_mut(1);
            let engines = if white == 0 {
                [&mut first[0], &mut second[0]]
            } else {
                [&mut second[0], &mut first[0]]
            };
            let outcome = play_game(engines, opening, &settings);
            if sender
                .send(Finished {
                    index,
                    white,
                    outcome,
                })
                .is_err()
            {
                break;
            }
        }));
    }
    drop(sender);
    let names = [
        config.engines[0].name.clone(),
        config.engines[1].name.clone(),
    ];
    let mut tally = Tally::new(names.clone());
    for finished in receiver {
        let Finished {
            index,
            white,
            outcome,
        } = finished;
        tally.add(white, &outcome);
        if !outcome.detail.is_empty() {
            eprintln!("game {}: {}", index + 1, outcome.detail);
        }
        if let Some(file) = ptn.as_mut() {
            let context = RecordContext {
                round: index + 1,
                players: [&names[white], &names[1 - white]],
                size: settings.size,
                half_komi: settings.half_komi,
                time: settings.time,
                opening: &openings[(index / 2) % openings.len()],
            };
            let text = game_record(&outcome, &context).to_string();
            writeln!(file, "{text}").map_err(|e| format!("cannot write the PTN file: {e}"))?;
        }
        eprintln!("{}", tally.progress_line(games.len()));
        if let Some(sprt) = &config.sprt {
            let score = tally.score();
            let verdict = sprt.verdict(&score);
            if verdict != SprtVerdict::Continue && !stop.swap(true, Ordering::SeqCst) {
                // The summary counts the games in progress too, which can move the LLR back
                // inside the bounds: this line keeps the verdict the test stopped on.
                eprintln!(
                    "SPRT: {} after {} games (LLR {:.3}); finishing the games in progress",
                    verdict.label(),
                    tally.games(),
                    sprt.llr(&score)
                );
            }
        }
    }
    for handle in handles {
        handle
            .join()
            .map_err(|_| "a match worker panicked".to_string())?;
    }
    Ok(tally.summary(config.sprt.as_ref()))
}
