//! `menhir playtak --ponder`: on the opponent's time the built-in search runs (its `info` lines
//! are counted), a TEI engine is sent `go infinite` on the position after our move and `stop`
//! before its next real `go`, and each ponder search stops within the promised `STOP_GRACE`
//! once the opponent's move comes. Without `--ponder`, or at a level below full strength, there
//! is none. Against the in-process server double, whose opponent here thinks a little.
//! Two bots paired by the pairing double (tests/playtak_double/pair.rs) play each other to the
//! end of the game, by the board, the clock or a resignation.
//! Run: `cargo test --test playtak_ponder` (needs python3 for the scripted engine).
//!
//! The ponder match (ignored: it takes most of an hour) plays the release binary with
//! `--ponder on` against itself with `--ponder off` through the pairing double:
//! `cargo test --release --test playtak_ponder -- --ignored ponder_match --nocapture`, with
//! `PONDER_GAMES` (150), `PONDER_SIZE` (6), `PONDER_HALF_KOMI` (4), `PONDER_TIME` (seconds, 10),
//! `PONDER_INC` (seconds, 0), `PONDER_OPENING_PLIES` (2), `PONDER_SEED` (1), `PONDER_HASH` (MB,
//! 64), `PONDER_MAX_MINUTES` (none: a time box, after which the bots are stopped and the games
//! finished so far are counted; the cut depends on the clock only, never on a result),
//! `PONDER_OUT` (a directory for both bots' logs and the PTN; a temporary one by default)
//! and `MENHIR_BIN` (the binary; the one cargo built by default).

mod playtak_double;

use menhir::core::{Color, Position};
use menhir::matchrun::openings::random_openings;
use menhir::matchrun::stats::{elo_with_interval, likelihood_of_superiority, Score};
use menhir::playtak::{AcceptFilter, EngineChoice, Login, Mode, RunSummary, STOP_GRACE};
use playtak_double::bot::{
    config, config_for, in_process, misbehave, misbehave_with, run, seek, temp_dir,
};
use playtak_double::pair::{Ending, PairDouble, PairGame, PairScenario};
use playtak_double::{Double, Scenario};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// A game whose opponent takes `delay_ms` over each move.
fn slow_opponent(delay_ms: u64, placements_only: bool) -> Double {
    Double::start(Scenario {
        placements_only,
        max_plies: 10,
        opponent_delay_ms: delay_ms,
        ..Scenario::default()
    })
}

#[test]
fn the_built_in_search_ponders_on_the_opponents_time_and_stops_in_time() {
    let double = slow_opponent(300, false);
    let mut cfg = config(&double, false, Mode::Seek(seek(5, 0)), in_process());
    cfg.ponder = true;
    let summary = run(cfg).unwrap();
    let game = &summary.games[0];
    // We are White: five moves, the first four followed by an opponent's move to wait for
    // (the fifth's ponder search is cut by the game's end).
    assert!(game.ponders >= 3, "{game:?}");
    assert!(
        game.ponder_infos >= game.ponders,
        "the search ran: {game:?}"
    );
    assert!(game.ponder_stop_max < STOP_GRACE, "{game:?}");
    let played = double.games();
    // The double's opponent plays random moves, so now and then (2 runs in 11 here) our
    // fifth move makes a road and the game ends at ply 9 instead of the double's cap of 10.
    let plies = played[0].plies.len();
    assert!(
        plies == 10 || (plies == 9 && played[0].result == "R-0"),
        "{plies} plies, {}",
        played[0].result
    );
    assert_eq!(double.observed.lock().unwrap().move_noks, 0);
}

#[test]
fn a_tei_engine_gets_go_infinite_after_our_move_and_stop_before_its_next_go() {
    let double = slow_opponent(200, true);
    let dir = temp_dir("ponder-log");
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("engine.log");
    let engine = misbehave_with(&format!("--mode good --log {}", log.display()));
    let mut cfg = config(&double, false, Mode::Seek(seek(5, 0)), engine);
    cfg.ponder = true;
    let summary = run(cfg).unwrap();
    let game = &summary.games[0];
    assert_eq!(game.color, Color::White);
    assert!(game.ponder_stop_max < STOP_GRACE, "{game:?}");
    let lines: Vec<String> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    let mut ponders = 0;
    for (i, line) in lines.iter().enumerate() {
        if !line.starts_with("go ") {
            continue;
        }
        // What precedes each go is its position; White searches after an even number of
        // plies, and ponders after its own move, an odd number (no reply expected: the
        // scripted engine's lines are one move long).
        let position = lines[..i]
            .iter()
            .rev()
            .find(|l| l.starts_with("position"))
            .unwrap();
        let plies = position.split_whitespace().skip(3).count();
        if line == "go infinite" {
            ponders += 1;
            assert_eq!(plies % 2, 1, "{position}");
            let next = &lines[i + 1..];
            let stop = next.iter().position(|l| l == "stop");
            let go = next.iter().position(|l| l.starts_with("go "));
            assert!(
                stop.is_some() && (go.is_none() || stop < go),
                "a ponder search is stopped before the next go: {lines:?}"
            );
        } else {
            assert_eq!(plies % 2, 0, "{position}");
        }
    }
    assert!(ponders >= 3, "{lines:?}");
    // The summary counts the ponder searches that ended in the game; the last may be stopped
    // by the game's end.
    assert!(
        game.ponders + 1 >= ponders && game.ponders <= ponders,
        "{game:?}"
    );
    assert_eq!(double.games()[0].plies.len(), 10);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn no_pondering_when_off_or_below_full_strength() {
    let double = slow_opponent(200, true);
    let dir = temp_dir("ponder-off");
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("engine.log");
    let engine = misbehave_with(&format!("--mode good --log {}", log.display()));
    let cfg = config(&double, false, Mode::Seek(seek(5, 0)), engine);
    assert!(!cfg.ponder);
    let summary = run(cfg).unwrap();
    assert_eq!(summary.games[0].ponders, 0);
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(!text.contains("go infinite"), "{text}");
    assert!(!text.contains("stop"), "{text}");
    let _ = std::fs::remove_dir_all(dir);

    // A level is measured without pondering, so it plays without.
    let double = slow_opponent(200, false);
    let mut cfg = config(&double, false, Mode::Seek(seek(5, 0)), in_process());
    cfg.ponder = true;
    cfg.level = 2;
    let summary = run(cfg).unwrap();
    assert_eq!((summary.games[0].level, summary.games[0].ponders), (2, 0));
}

/// The two accounts of the pairing tests.
fn pair_accounts() -> Vec<(String, String)> {
    vec![
        ("seeker".into(), "pw-seeker".into()),
        ("taker".into(), "pw-taker".into()),
    ]
}

/// `seeker` seeks `games` games of `size` at `time_s` for `taker` only; `taker` accepts them.
/// Both run in-process, each on its own thread; returns their summaries (seeker's first).
fn pair_up(
    double: &PairDouble,
    size: usize,
    time_s: u32,
    games: u32,
    engines: [EngineChoice; 2],
    level: u32,
) -> [RunSummary; 2] {
    let server = double.addr.to_string();
    let mut sought = seek(size, 2);
    sought.time_s = time_s;
    sought.opponent = "taker".into();
    let [seeker_engine, taker_engine] = engines;
    let mut seeker = config_for(&server, Mode::Seek(sought), seeker_engine);
    let filter = AcceptFilter {
        names: vec!["seeker".into()],
        ..AcceptFilter::default()
    };
    let mut taker = config_for(&server, Mode::Accept(filter), taker_engine);
    let accounts = pair_accounts();
    for (cfg, (name, password), seed) in [
        (&mut seeker, &accounts[0], 11),
        (&mut taker, &accounts[1], 12),
    ] {
        cfg.login = Login::User {
            name: name.clone(),
            password: password.clone(),
        };
        cfg.max_games = Some(games);
        cfg.move_margin = Duration::from_millis(50);
        cfg.level = level;
        cfg.level_seed = Some(seed);
    }
    let taker = thread::spawn(move || run(taker));
    let seeker = run(seeker).unwrap();
    let taker = taker.join().unwrap().unwrap();
    [seeker, taker]
}

/// Replays a recorded game on Menhir's board: every ply legal, and a road or flats result is
/// the board's.
fn check_legal(game: &PairGame) {
    let mut pos = Position::start(game.size).unwrap();
    pos.set_half_komi(game.half_komi);
    for ptn in &game.plies {
        assert!(pos.result().is_none(), "a ply after the end: {game:?}");
        let mv = pos.parse_move(ptn).unwrap();
        assert!(pos.is_legal(mv), "{ptn} is illegal: {game:?}");
        pos.do_move(mv);
    }
    if matches!(game.ending, Ending::Road | Ending::Flats) {
        assert_eq!(
            pos.result().map(|r| r.to_string()),
            Some(game.result.clone())
        );
    } else {
        assert!(pos.result().is_none(), "{game:?}");
    }
}

#[test]
fn two_bots_play_each_other_through_the_pairing_double() {
    // Two games on 4x4 from one book opening, at a level (its search is bounded by nodes and
    // its choices by a fixed seed, so the games do not depend on the machine's speed).
    let book = vec!["a1".to_string(), "d4".to_string()];
    let double = PairDouble::start(PairScenario {
        accounts: pair_accounts(),
        openings: vec![book.clone()],
        ..PairScenario::default()
    });
    let [seeker, taker] = pair_up(&double, 4, 60, 2, [in_process(), in_process()], 3);
    let games = double.games();
    assert_eq!(games.len(), 2, "{games:?}");
    // An open colour: the seeker has White, then Black; both games start with the book.
    assert_eq!(
        (games[0].white.as_str(), games[0].black.as_str()),
        ("seeker", "taker")
    );
    assert_eq!(
        (games[1].white.as_str(), games[1].black.as_str()),
        ("taker", "seeker")
    );
    for (i, game) in games.iter().enumerate() {
        assert_eq!(game.plies[..2], book[..], "{game:?}");
        assert_eq!(game.book_plies, 2);
        assert!(
            matches!(game.ending, Ending::Road | Ending::Flats),
            "{game:?}"
        );
        check_legal(game);
        // Both bots recorded the double's result and every ply.
        for (summary, me) in [(&seeker, "seeker"), (&taker, "taker")] {
            let mine = &summary.games[i];
            assert_eq!(mine.result.to_string(), game.result);
            assert_eq!(mine.plies, game.plies.len());
            let white = if mine.color == Color::White {
                me
            } else {
                mine.opponent.as_str()
            };
            assert_eq!(white, game.white);
        }
        // The clock ran: each side spent some of its minute, and the increment is 0.
        assert!(game.clocks_ms.iter().all(|&c| c < 60_000), "{game:?}");
    }
    assert_eq!(double.observed.lock().unwrap().move_noks, 0);
}

#[test]
fn the_pairing_double_ends_games_on_time_and_by_resignation() {
    // The seeker's engine falls silent at once (White, no book): its 2 s run out, and the
    // server's flag falls before the bot's own limit (its clock plus 1 s).
    let double = PairDouble::start(PairScenario {
        accounts: pair_accounts(),
        ..PairScenario::default()
    });
    let start = Instant::now();
    let [seeker, _] = pair_up(&double, 4, 2, 1, [misbehave("silent", 0), in_process()], 9);
    let game = &double.games()[0];
    assert_eq!((game.ending, game.result.as_str()), (Ending::Time, "0-1"));
    assert!(game.plies.is_empty() && game.clocks_ms[0] == 0, "{game:?}");
    assert!(start.elapsed() >= Duration::from_secs(2));
    assert_eq!(seeker.games[0].result.to_string(), "0-1");

    // Here its first move is illegal: the bot resigns, and the taker is told the result.
    let double = PairDouble::start(PairScenario {
        accounts: pair_accounts(),
        ..PairScenario::default()
    });
    let [seeker, taker] = pair_up(
        &double,
        4,
        30,
        1,
        [misbehave("illegal", 0), in_process()],
        9,
    );
    let game = &double.games()[0];
    assert_eq!((game.ending, game.result.as_str()), (Ending::Resign, "0-1"));
    assert_eq!(seeker.games[0].result, taker.games[0].result);
    assert_eq!(taker.games[0].result.to_string(), "0-1");
}

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    match std::env::var(name) {
        Ok(v) => v
            .parse()
            .unwrap_or_else(|_| panic!("{name}={v} does not parse")),
        Err(_) => default,
    }
}

/// 0 if `name` won `game`, 1 for a draw, 2 for a loss.
fn outcome(game: &PairGame, name: &str) -> usize {
    match game.score_of(name) {
        Some(s) if s > 0.75 => 0,
        Some(s) if s < 0.25 => 2,
        _ => 1,
    }
}

/// A `menhir playtak` process, its stderr into `log`.
fn spawn_playtak(bin: &str, args: &[String], password: &str, log: &PathBuf) -> Child {
    let log = std::fs::File::create(log).unwrap();
    Command::new(bin)
        .arg("playtak")
        .args(args)
        .env("PLAYTAK_PASSWORD", password)
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(log)
        .spawn()
        .unwrap()
}

/// The ponder match: see the top of this file.
#[test]
#[ignore]
fn ponder_match() {
    let games: usize = env_or("PONDER_GAMES", 150);
    let size: usize = env_or("PONDER_SIZE", 6);
    let half_komi: i32 = env_or("PONDER_HALF_KOMI", 4);
    let time_s: u32 = env_or("PONDER_TIME", 10);
    let inc_s: u32 = env_or("PONDER_INC", 0);
    let plies: usize = env_or("PONDER_OPENING_PLIES", 2);
    let seed: u64 = env_or("PONDER_SEED", 1);
    let hash: u32 = env_or("PONDER_HASH", 64);
    let max_minutes: f64 = env_or("PONDER_MAX_MINUTES", f64::INFINITY);
    let bin = std::env::var("MENHIR_BIN").unwrap_or(env!("CARGO_BIN_EXE_menhir").to_string());
    let out = std::env::var("PONDER_OUT")
        .map(PathBuf::from)
        .unwrap_or_else(|_| temp_dir("ponder-match"));
    std::fs::create_dir_all(&out).unwrap();
    let (on, off) = ("PonderOn", "PonderOff");
    let openings: Vec<Vec<String>> =
        random_openings(size, half_komi, plies, games.div_ceil(2), seed)
            .into_iter()
            .map(|o| o.moves.iter().map(|m| m.to_ptn()).collect())
            .collect();
    let double = PairDouble::start(PairScenario {
        accounts: vec![(on.into(), "pw-on".into()), (off.into(), "pw-off".into())],
        openings,
        ..PairScenario::default()
    });
    let common = |name: &str, ponder: &str| -> Vec<String> {
        [
            "--server",
            &double.addr.to_string(),
            "--user",
            name,
            "--ponder",
            ponder,
            "--hash",
            &hash.to_string(),
            "--threads",
            "1",
            "--chat",
            "off",
            "--max-games",
            &games.to_string(),
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    };
    let mut on_args = common(on, "on");
    on_args.extend(
        [
            "--size",
            &size.to_string(),
            "--half-komi",
            &half_komi.to_string(),
            "--time",
            &time_s.to_string(),
            "--increment",
            &inc_s.to_string(),
            "--opponent",
            off,
            "--ptn-dir",
            &out.join("ptn").display().to_string(),
        ]
        .iter()
        .map(|s| s.to_string()),
    );
    let mut off_args = common(off, "off");
    off_args.extend(["--accept".to_string(), on.to_string()]);
    eprintln!("ponder match: {games} games, {size}x{size}, half komi {half_komi}, {time_s}+{inc_s}, {plies} random opening plies (seed {seed}), hash {hash} MB, 1 thread each; {bin}");
    eprintln!("  {on}: menhir playtak {}", on_args.join(" "));
    eprintln!("  {off}: menhir playtak {}", off_args.join(" "));
    eprintln!("  logs and PTN in {}", out.display());
    let mut children = [
        spawn_playtak(&bin, &on_args, "pw-on", &out.join("ponder-on.log")),
        spawn_playtak(&bin, &off_args, "pw-off", &out.join("ponder-off.log")),
    ];
    let start = Instant::now();
    let mut last_progress = Instant::now();
    let mut seen = 0;
    let mut boxed = false;
    let mut score = Score::default();
    loop {
        thread::sleep(Duration::from_millis(200));
        let played = double.games();
        for game in &played[seen..] {
            match outcome(game, on) {
                0 => score.wins += 1,
                2 => score.losses += 1,
                _ => score.draws += 1,
            }
            eprintln!(
                "[{}/{games}] {:.0} s: game {} {} vs {} {} ({:?}, {} plies, clocks {:.1} {:.1}); {on} +{} ={} -{}",
                seen + 1,
                start.elapsed().as_secs_f64(),
                game.id,
                game.white,
                game.black,
                game.result,
                game.ending,
                game.plies.len(),
                game.clocks_ms[0] as f64 / 1000.0,
                game.clocks_ms[1] as f64 / 1000.0,
                score.wins,
                score.draws,
                score.losses
            );
            seen += 1;
            last_progress = Instant::now();
        }
        if seen >= games {
            break;
        }
        if start.elapsed().as_secs_f64() > max_minutes * 60.0 {
            eprintln!("time box of {max_minutes} min reached after {seen} games: stopping");
            boxed = true;
            break;
        }
        let exited = children
            .iter_mut()
            .any(|c| c.try_wait().ok().flatten().is_some());
        if exited || last_progress.elapsed() > Duration::from_secs(600) {
            for c in &mut children {
                let _ = c.kill();
                let _ = c.wait();
            }
            panic!(
                "the match stopped after {seen} games (a bot exited: {exited}); see the logs in {}",
                out.display()
            );
        }
    }
    let elapsed = start.elapsed();
    // Both bots stop by themselves after --max-games (a time box stops them at once).
    for c in &mut children {
        let until = Instant::now() + Duration::from_secs(if boxed { 0 } else { 30 });
        while c.try_wait().ok().flatten().is_none() && Instant::now() < until {
            thread::sleep(Duration::from_millis(100));
        }
        let _ = c.kill();
        let _ = c.wait();
    }
    let played: Vec<PairGame> = double.games().into_iter().take(seen).collect();
    let mut by_colour = [[0u32; 3]; 2];
    let mut endings: BTreeMap<String, u32> = BTreeMap::new();
    let mut flagged: BTreeMap<String, u32> = BTreeMap::new();
    for game in &played {
        let colour = usize::from(game.white != on);
        by_colour[colour][outcome(game, on)] += 1;
        *endings.entry(format!("{:?}", game.ending)).or_default() += 1;
        if game.ending == Ending::Time {
            let loser = if game.result == "0-1" {
                &game.white
            } else {
                &game.black
            };
            *flagged.entry(loser.clone()).or_default() += 1;
        }
        check_legal(game);
    }
    let (elo, error) = elo_with_interval(&score);
    let mean_plies =
        played.iter().map(|g| g.plies.len()).sum::<usize>() as f64 / played.len() as f64;
    println!("Ponder match: {on} (--ponder on) against {off} (--ponder off)");
    println!(
        "{size}x{size}, half komi {half_komi}, {time_s}+{inc_s}, {} games in {:.1} min, {plies} random opening plies each played with both colours (seed {seed})",
        played.len(),
        elapsed.as_secs_f64() / 60.0
    );
    println!(
        "{on}: +{} ={} -{}, score {:.1}/{} ({:.1}%), Elo {elo:+.1} +- {error:.1} (95%), LOS {:.1}%",
        score.wins,
        score.draws,
        score.losses,
        score.points(),
        score.games(),
        100.0 * score.score_fraction(),
        100.0 * likelihood_of_superiority(&score)
    );
    for (c, colour) in ["white", "black"].iter().enumerate() {
        let [w, d, l] = by_colour[c];
        println!("  as {colour}: +{w} ={d} -{l}");
    }
    println!("Endings: {endings:?}; lost on time: {flagged:?}; mean plies {mean_plies:.1}");
    if boxed {
        println!(
            "Stopped by the time box of {max_minutes} min, {} of {games} games played",
            played.len()
        );
    }
    println!("Logs and PTN in {}", out.display());
    assert!(played.len() == games || boxed);
}
