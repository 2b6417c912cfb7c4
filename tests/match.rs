//! `menhir match` end to end: a short match between two Menhir processes, and matches against
//! tests/engines/misbehave.py (a TEI engine that plays random flats and misbehaves on purpose)
//! checking that each fault is judged, the match goes on, and no engine process survives.
//! Sharded matches (`--shard K/N`) play exactly the whole match's games, and `menhir report`
//! over a match's PTN prints the match's own summary.
//! Run: `cargo test --test match` (about 20 s; needs python3 for the misbehaving engine).

use menhir::core::{GameRecord, GameResult, RecordResult};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const MENHIR: &str = env!("CARGO_BIN_EXE_menhir");

fn misbehave() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/engines/misbehave.py")
        .display()
        .to_string()
}

/// What a finished `menhir match` left behind.
struct Run {
    ok: bool,
    stdout: String,
    stderr: String,
    ptn: String,
}

/// Runs `menhir match ARGS --ptn FILE`, failing the test if it takes longer than `limit`.
fn run_match(name: &str, args: &[&str], limit: Duration) -> Run {
    run_match_env(name, args, &[], limit)
}

/// As `run_match`, with the scheduler variables cleared and then `env` set.
fn run_match_env(name: &str, args: &[&str], env: &[(&str, &str)], limit: Duration) -> Run {
    let dir = std::env::temp_dir().join(format!("menhir-match-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (out, err, ptn) = (dir.join("out"), dir.join("err"), dir.join("games.ptn"));
    let mut command = Command::new(MENHIR);
    for var in menhir::shard::SCHEDULER_VARIABLES {
        command.env_remove(var);
    }
    let mut child = command
        .envs(env.iter().copied())
        .arg("match")
        .args(args)
        .arg("--ptn")
        .arg(&ptn)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(std::fs::File::create(&err).unwrap())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("menhir match {args:?} did not finish in {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let read = |p: &PathBuf| std::fs::read_to_string(p).unwrap_or_default();
    let run = Run {
        ok: status.success(),
        stdout: read(&out),
        stderr: read(&err),
        ptn: read(&ptn),
    };
    let _ = std::fs::remove_dir_all(&dir);
    run
}

/// Runs `menhir report EXTRA FILES…` over the PTN texts, each written to a file of its own.
fn run_report(name: &str, ptns: &[&str], extra: &[&str]) -> (bool, String, String) {
    let dir = std::env::temp_dir().join(format!("menhir-report-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let files: Vec<PathBuf> = ptns
        .iter()
        .enumerate()
        .map(|(i, text)| {
            let path = dir.join(format!("shard{i}.ptn"));
            std::fs::write(&path, text).unwrap();
            path
        })
        .collect();
    let out = Command::new(MENHIR)
        .arg("report")
        .args(extra)
        .args(&files)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.success(), text(&out.stdout), text(&out.stderr))
}

/// `menhir report` over a match's PTN prints the match's summary, under its one header line.
fn assert_report_matches(name: &str, run: &Run, extra: &[&str]) {
    let (ok, stdout, stderr) = run_report(name, &[&run.ptn], extra);
    assert!(ok, "{stderr}");
    let games = count_after(&run.stdout, "Games: ");
    let header = format!("Read {games} games from 1 file(s), 1 engine pair(s); skipped 0\n\n");
    assert_eq!(stdout, format!("{header}{}", run.stdout));
}

/// The pids the misbehaving engine announced on stderr.
fn announced_pids(stderr: &str) -> Vec<u32> {
    stderr
        .lines()
        .filter_map(|l| l.strip_prefix("pid "))
        .map(|p| p.trim().parse().unwrap())
        .collect()
}

fn assert_all_gone(pids: &[u32]) {
    assert!(!pids.is_empty(), "no engine announced its pid");
    for pid in pids {
        assert!(
            !Path::new(&format!("/proc/{pid}")).exists(),
            "engine process {pid} is still there"
        );
    }
}

/// Reads the PTN file back and checks each game against its `Result` tag; returns the games.
fn check_ptn(ptn: &str, games: usize) -> Vec<GameRecord> {
    let records = GameRecord::parse_all(ptn).expect("the PTN file reads back");
    assert_eq!(records.len(), games);
    let rounds: BTreeSet<usize> = records
        .iter()
        .map(|r| r.tag("Round").unwrap().parse().unwrap())
        .collect();
    assert_eq!(rounds, (1..=games).collect());
    for record in &records {
        for tag in [
            "Event", "Site", "Date", "Player1", "Player2", "Size", "Clock",
        ] {
            assert!(record.tag(tag).is_some(), "no {tag} tag in\n{record}");
        }
        let result = record.tag("Result").unwrap();
        assert_eq!(
            record.result.map(|r| r.to_string()).as_deref(),
            Some(result)
        );
        let end = record.replay().expect("every recorded move is legal");
        // A game the rules ended must end that way on the board; other ends name a reason.
        match record.result {
            Some(RecordResult::Game(r @ (GameResult::Road(_) | GameResult::Flats(_)))) => {
                assert_eq!(end.result(), Some(r), "{record}")
            }
            Some(RecordResult::Game(GameResult::Other(_))) => {
                assert!(end.result().is_none());
                assert!(record.tag("Termination").is_some(), "{record}");
            }
            Some(RecordResult::Game(GameResult::Draw)) => {
                assert!(
                    end.result() == Some(GameResult::Draw) || record.tag("Termination").is_some()
                )
            }
            other => panic!("unexpected result {other:?}"),
        }
    }
    records
}

fn assert_summary_fields(stdout: &str, names: [&str; 2]) {
    for field in [
        format!("{}: W ", names[0]),
        format!("{}: W ", names[1]),
        "  as white: W ".to_string(),
        "  as black: W ".to_string(),
        "score ".to_string(),
        format!("Elo ({} vs {}): ", names[0], names[1]),
        "(95%)".to_string(),
        "LOS (".to_string(),
        "Terminations: road ".to_string(),
        "flats ".to_string(),
        "draw ".to_string(),
        "repetition ".to_string(),
        "time ".to_string(),
        "illegal move ".to_string(),
        "malformed move ".to_string(),
        "crash ".to_string(),
        "Points (rule book): ".to_string(),
    ] {
        assert!(stdout.contains(&field), "no '{field}' in\n{stdout}");
    }
}

/// The number after `label` in `text` (e.g. "crash 4").
fn count_after(text: &str, label: &str) -> u32 {
    let at = text
        .find(label)
        .unwrap_or_else(|| panic!("no '{label}' in {text}"))
        + label.len();
    text[at..]
        .split(|c: char| !c.is_ascii_digit())
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

#[test]
fn two_menhir_processes_play_a_match() {
    let new = format!("name=new,cmd={MENHIR},option.Hash=8");
    let base = format!("name=base,cmd={MENHIR}");
    let args = [
        "--engine",
        &new,
        "--engine",
        &base,
        "--size",
        "4",
        "--games",
        "4",
        "--tc",
        "2+0.1",
        "--random-plies",
        "2",
        "--seed",
        "3",
        "--komi",
        "1",
    ];
    let run = run_match("menhir", &args, Duration::from_secs(60));
    assert!(run.ok, "{}\n{}", run.stdout, run.stderr);
    assert_summary_fields(&run.stdout, ["new", "base"]);
    assert!(run.stdout.starts_with("Games: 4\n"), "{}", run.stdout);
    let records = check_ptn(&run.ptn, 4);
    assert!(records.iter().all(|r| r.tag("Komi") == Some("1")));
    // Menhir plays legal moves within its clock: every game ends by the rules.
    assert_eq!(count_after(&run.stdout, "crash "), 0, "{}", run.stderr);
    assert_eq!(count_after(&run.stdout, "time "), 0, "{}", run.stderr);
    assert_report_matches("menhir", &run, &[]);
}

#[test]
fn two_well_behaved_engines_play_to_the_end() {
    let a = format!("name=a,cmd={},args=--seed 1", misbehave());
    let b = format!("name=b,cmd={},args=--seed 2", misbehave());
    let args = [
        "--engine",
        &a,
        "--engine",
        &b,
        "--size",
        "5",
        "--games",
        "6",
        "--tc",
        "5+0",
        "--concurrency",
        "2",
    ];
    let run = run_match("good", &args, Duration::from_secs(60));
    assert!(run.ok, "{}", run.stderr);
    assert_summary_fields(&run.stdout, ["a", "b"]);
    let records = check_ptn(&run.ptn, 6);
    // The score comments come from the engine's info lines, White's view (+0.10 for White).
    let first = &records[0];
    assert_eq!(
        first.plies[0].comment.as_deref().unwrap().split('/').next(),
        Some("+0.10")
    );
    assert_eq!(
        first.plies[1].comment.as_deref().unwrap().split('/').next(),
        Some("-0.10")
    );
    // Each opening is played twice with colours swapped.
    let white_of = |round: &str| {
        records
            .iter()
            .find(|r| r.tag("Round") == Some(round))
            .unwrap()
            .tag("Player1")
            .unwrap()
            .to_string()
    };
    assert_ne!(white_of("1"), white_of("2"));
    assert_all_gone(&announced_pids(&run.stderr));
    assert_report_matches("good", &run, &[]);
}

/// A 4-game match between a good engine and one misbehaving as `args`; returns the run after
/// checking that the bad engine lost every game for `reason` and left no process behind.
fn fault_match(name: &str, bad_args: &str, extra: &[&str], reason: &str) -> Run {
    let good = format!("name=good,cmd={}", misbehave());
    let bad = format!("name=bad,cmd={},args={bad_args}", misbehave());
    let mut args = vec![
        "--engine", &good, "--engine", &bad, "--size", "4", "--games", "4",
    ];
    args.extend_from_slice(extra);
    let run = run_match(name, &args, Duration::from_secs(60));
    assert!(run.ok, "{}", run.stderr);
    assert!(
        run.stdout.contains("good: W 4 D 0 L 0"),
        "{}\n{}",
        run.stdout,
        run.stderr
    );
    assert_eq!(
        count_after(&run.stdout, &format!("{reason} ")),
        4,
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains(&format!("{reason} 4 (by bad 4)")),
        "{}",
        run.stdout
    );
    let records = check_ptn(&run.ptn, 4);
    assert!(records
        .iter()
        .all(|r| r.tag("Termination").is_some_and(|t| t.starts_with("bad "))));
    assert_all_gone(&announced_pids(&run.stderr));
    assert_report_matches(name, &run, &[]);
    run
}

#[test]
fn illegal_moves_lose() {
    let run = fault_match(
        "illegal",
        "--mode illegal --at 2",
        &["--tc", "5+0"],
        "illegal move",
    );
    assert!(
        run.stderr.contains("bad made an illegal move"),
        "{}",
        run.stderr
    );
}

#[test]
fn malformed_moves_lose() {
    let run = fault_match(
        "malformed",
        "--mode malformed --at 0",
        &["--tc", "5+0"],
        "malformed move",
    );
    assert!(
        run.stderr.contains("bad sent a malformed move"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_crash_loses_and_the_engine_restarts() {
    let run = fault_match("crash", "--mode crash --at 3", &["--tc", "5+0"], "crash");
    // One process per game for the crashing side (restarted each time) plus the good one.
    assert_eq!(announced_pids(&run.stderr).len(), 1 + 4, "{}", run.stderr);
}

#[test]
fn a_silent_engine_is_killed_and_loses_on_time() {
    let start = Instant::now();
    let extra = ["--tc", "0.3+0", "--grace-ms", "200"];
    let run = fault_match("silent", "--mode silent --at 2", &extra, "time");
    assert!(
        run.stderr.contains("did not answer in time"),
        "{}",
        run.stderr
    );
    // Each game waits at most the clock plus the grace period.
    assert!(start.elapsed() < Duration::from_secs(15));
    assert_eq!(announced_pids(&run.stderr).len(), 1 + 4, "{}", run.stderr);
}

#[test]
fn slow_replies_lose_on_time_only_when_the_clock_runs_out() {
    // Too slow for a 0.4 s clock, but within the grace period: lost on time, not killed.
    let extra = ["--tc", "0.4+0", "--grace-ms", "2000"];
    let run = fault_match("slow", "--mode slow --at 0 --delay-ms 600", &extra, "time");
    assert!(run.stderr.contains("bad lost on time"), "{}", run.stderr);
    // The engine's own time is set beside the manager's: here the delay was outside its search.
    assert!(
        run.stderr.contains("s used, 0.001s by its own last info,"),
        "{}",
        run.stderr
    );
    assert_eq!(announced_pids(&run.stderr).len(), 2, "{}", run.stderr);
    // Slow but within the clock: games end normally.
    let good = format!("name=good,cmd={}", misbehave());
    let bad = format!(
        "name=bad,cmd={},args=--mode slow --delay-ms 20",
        misbehave()
    );
    let args = [
        "--engine", &good, "--engine", &bad, "--size", "3", "--games", "2", "--tc", "10+0",
    ];
    let run = run_match("slow-ok", &args, Duration::from_secs(60));
    assert_eq!(count_after(&run.stdout, "time "), 0, "{}", run.stdout);
    check_ptn(&run.ptn, 2);
}

#[test]
fn sprt_stops_the_match_when_decided() {
    let a = format!("name=a,cmd={},args=--seed 5", misbehave());
    let b = format!("name=b,cmd={},args=--seed 6", misbehave());
    let args = [
        "--engine",
        &a,
        "--engine",
        &b,
        "--size",
        "3",
        "--games",
        "200",
        "--tc",
        "5+0",
        "--sprt",
        "elo0=0,elo1=600,alpha=0.1,beta=0.1",
    ];
    let run = run_match("sprt", &args, Duration::from_secs(60));
    assert!(run.ok, "{}", run.stderr);
    let games = count_after(&run.stdout, "Games: ");
    assert!(games < 200, "{}", run.stdout);
    assert!(
        run.stdout
            .contains("SPRT (elo0=0, elo1=600, alpha=0.1, beta=0.1): LLR "),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("H0 accepted"), "{}", run.stdout);
    // The verdict the match stopped on, on stderr: the summary also counts the games that
    // were in progress then, which can move the LLR back inside the bounds.
    let stopped_at = count_after(&run.stderr, "SPRT: H0 accepted after ");
    assert!(stopped_at > 0 && stopped_at <= games, "{}", run.stderr);
    check_ptn(&run.ptn, games as usize);
    assert_report_matches(
        "sprt",
        &run,
        &["--sprt", "elo0=0,elo1=600,alpha=0.1,beta=0.1"],
    );
}

/// A game as it identifies the schedule and its play: White, Black, start position, every
/// move (the random opening's plies first), and the result.
type PlayedGame = (
    String,
    String,
    Option<String>,
    Vec<String>,
    Option<RecordResult>,
);

/// The games of a PTN file by round number.
fn games_by_round(ptn: &str) -> BTreeMap<usize, PlayedGame> {
    let mut games = BTreeMap::new();
    for record in GameRecord::parse_all(ptn).unwrap() {
        let round = record.tag("Round").unwrap().parse().unwrap();
        let game = (
            record.tag("Player1").unwrap().to_string(),
            record.tag("Player2").unwrap().to_string(),
            record.start_tps.clone(),
            record.plies.iter().map(|p| p.mv.to_ptn()).collect(),
            record.result,
        );
        assert!(games.insert(round, game).is_none(), "round {round} twice");
    }
    games
}

/// Issue 14's acceptance: shards 0..N−1 of a seeded match play exactly the whole match's
/// games (same rounds, openings, colours and, with engines whose moves depend only on the
/// position, the same moves and results), for N = 1, 2, 3 and 7 games (4 opening pairs, the
/// last one a single game); and `menhir report` over the shards' files equals the report of
/// the whole match. One shard is found through Slurm's variables (`--shard auto`).
#[test]
fn shards_play_exactly_the_whole_match() {
    let a = format!("name=a,cmd={},args=--per-position --seed 1", misbehave());
    let b = format!("name=b,cmd={},args=--per-position --seed 2", misbehave());
    let args = [
        "--engine",
        &a,
        "--engine",
        &b,
        "--size",
        "4",
        "--games",
        "7",
        "--tc",
        "5+0",
        "--random-plies",
        "2",
        "--seed",
        "9",
        "--concurrency",
        "2",
    ];
    let limit = Duration::from_secs(60);
    let whole = run_match("shard-whole", &args, limit);
    assert!(whole.ok, "{}", whole.stderr);
    check_ptn(&whole.ptn, 7);
    let whole_games = games_by_round(&whole.ptn);
    // The random openings differ between pairs and are shared within one.
    let opening = |round: usize| whole_games[&round].3[..2].to_vec();
    assert_eq!(opening(1), opening(2));
    assert_ne!(opening(1), opening(3));
    let (ok, whole_report, _) = run_report("shard-whole", &[&whole.ptn], &[]);
    assert!(ok);
    let figures = |report: &str| report.split_once('\n').unwrap().1.to_string();
    for n in 1..=3 {
        let mut union = BTreeMap::new();
        let mut ptns = Vec::new();
        for k in 0..n {
            let spec = format!("{k}/{n}");
            let name = format!("shard-{k}-{n}");
            let run = if (k, n) == (1, 2) {
                let env = [
                    ("SLURM_ARRAY_TASK_ID", "1"),
                    ("SLURM_ARRAY_TASK_COUNT", "2"),
                ];
                let auto: Vec<&str> = args.iter().copied().chain(["--shard", "auto"]).collect();
                run_match_env(&name, &auto, &env, limit)
            } else {
                let sharded: Vec<&str> = args.iter().copied().chain(["--shard", &spec]).collect();
                run_match(&name, &sharded, limit)
            };
            assert!(run.ok, "{spec}: {}", run.stderr);
            for (round, game) in games_by_round(&run.ptn) {
                // Whole opening pairs: rounds 2p+1 and 2p+2 belong to shard p mod N.
                assert_eq!((round - 1) / 2 % n, k, "round {round} in shard {spec}");
                assert!(union.insert(round, game).is_none(), "round {round} twice");
            }
            ptns.push(run.ptn);
        }
        assert_eq!(union, whole_games, "{n} shards");
        let texts: Vec<&str> = ptns.iter().map(String::as_str).collect();
        let (ok, report, stderr) = run_report(&format!("shards-{n}"), &texts, &[]);
        assert!(ok, "{stderr}");
        assert!(report.starts_with(&format!("Read 7 games from {n} file(s)")));
        assert_eq!(figures(&report), figures(&whole_report), "{n} shards");
    }
    // More shards than opening pairs: a shard with nothing to play says so and succeeds.
    let idle: Vec<&str> = args.iter().copied().chain(["--shard", "4/5"]).collect();
    let run = run_match("shard-idle", &idle, limit);
    assert!(run.ok, "{}", run.stderr);
    assert!(run.stdout.starts_with("Games: 0\n"), "{}", run.stdout);
    assert!(run.ptn.is_empty());
    assert!(
        run.stderr.contains("shard 4/5: 0 of the 7 games"),
        "{}",
        run.stderr
    );
}

#[test]
fn bad_shard_flags_fail_with_one_line() {
    let engines = ["--engine", "cmd=x", "--engine", "cmd=y"];
    for (extra, env, why) in [
        (
            vec!["--shard", "2/2"],
            vec![],
            "the index must be below the count",
        ),
        (
            vec!["--shard", "one/2"],
            vec![],
            "'one' is not a whole number",
        ),
        (
            vec!["--shard", "auto"],
            vec![],
            "neither SLURM_ARRAY_TASK_ID",
        ),
        (
            vec!["--shard", "auto"],
            vec![("JOB_COMPLETION_INDEX", "1")],
            "give --shard-count",
        ),
        (
            vec!["--shard", "auto"],
            vec![("SLURM_ARRAY_TASK_ID", "1")],
            "SLURM_ARRAY_TASK_COUNT is not",
        ),
        (vec!["--shard-count", "2"], vec![], "goes with --shard auto"),
        (
            vec!["--shard", "1/2", "--random-plies", "2"],
            vec![],
            "needs --seed",
        ),
        (
            vec![
                "--shard",
                "1/2",
                "--sprt",
                "elo0=0,elo1=5,alpha=0.05,beta=0.05",
            ],
            vec![],
            "menhir report --sprt",
        ),
    ] {
        let mut command = Command::new(MENHIR);
        for var in menhir::shard::SCHEDULER_VARIABLES {
            command.env_remove(var);
        }
        let out = command
            .envs(env)
            .arg("match")
            .args(engines)
            .args(&extra)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{extra:?}");
        assert_eq!(stderr.lines().count(), 1, "{extra:?}: {stderr}");
        assert!(stderr.contains(why), "{extra:?}: {stderr}");
        assert!(out.stdout.is_empty());
    }
}

fn scripted() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/engines/scripted.py")
        .display()
        .to_string()
}

/// Elo from a score fraction, and its 95% interval half-width from the per-game variance, as
/// the summary documents them (written out here to check the printed numbers).
fn elo_and_error(wins: f64, draws: f64, losses: f64) -> (f64, f64) {
    let n = wins + draws + losses;
    let mu = (wins + draws / 2.0) / n;
    let var = (wins * (1.0 - mu).powi(2) + draws * (0.5 - mu).powi(2) + losses * mu.powi(2)) / n;
    let elo = |p: f64| -400.0 * (1.0 / p - 1.0).log10();
    let sd = (var / n).sqrt();
    (
        elo(mu),
        (elo(mu + 1.959964 * sd) - elo(mu - 1.959964 * sd)) / 2.0,
    )
}

/// Two scripted engines on 3x3, each game fully determined (tests/engines/scripted.py):
/// with `a` White, a road on rank 1 at ply 7 (White has 4 stones on the board, 6 left: 9 + 6 =
/// 15 rule-book points); with `b` White, a full board without a road, White 5 flats to 4.
/// Four games: each pairing twice.
fn scripted_match(name: &str, komi: &str) -> Run {
    let a = format!(
        "name=a,cmd={},args=--white c3/a1/b1/c1 --black c3/b1/c2/b3",
        scripted()
    );
    let b = format!(
        "name=b,cmd={},args=--white a2/a1/c1/b2/a3 --black b2/a3/c2",
        scripted()
    );
    let args = [
        "--engine", &a, "--engine", &b, "--size", "3", "--komi", komi, "--games", "4", "--tc",
        "10+0",
    ];
    let run = run_match(name, &args, Duration::from_secs(60));
    assert!(run.ok, "{}\n{}", run.stdout, run.stderr);
    check_ptn(&run.ptn, 4);
    run
}

/// Komi 1: the full board is a flat tie (5 against 4 + 1), a draw worth no points.
#[test]
fn a_scripted_match_gives_the_known_result_points_and_elo() {
    let run = scripted_match("scripted-draw", "1");
    let (elo, error) = elo_and_error(2.0, 2.0, 0.0);
    let expected = format!(
        "Games: 4
a: W 2 D 2 L 0, score 3.0/4 (75.0%)
  as white: W 2 D 0 L 0
  as black: W 0 D 2 L 0
b: W 0 D 2 L 2, score 1.0/4 (25.0%)
  as white: W 0 D 2 L 0
  as black: W 0 D 0 L 2
Elo (a vs b): {elo:+.1} ± {error:.1} (95%)
LOS (a better): 92.1%
Terminations: road 2, flats 0, draw 2 (flat tie 2, repetition 0, ply cap 0), time 0, illegal move 0, malformed move 0, crash 0
Points (rule book): a 30, b 0
"
    );
    assert_eq!(run.stdout, expected);
    // 400 log10(3): 75% is +190.8 Elo.
    assert!(
        run.stdout.contains("Elo (a vs b): +190.8 ± "),
        "{}",
        run.stdout
    );
}

/// Komi 0: White's 5 flats to 4 win the full board: 9 + 5 unplayed stones = 14 points for `b`.
/// Komi 2: the same board is Black's, 4 + 2 against 5: 9 + 6 = 15 points for `a`.
#[test]
fn scripted_flat_wins_score_the_board_area_plus_unplayed_pieces() {
    let run = scripted_match("scripted-flats", "0");
    assert!(
        run.stdout.contains("a: W 2 D 0 L 2, score 2.0/4 (50.0%)\n"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("Elo (a vs b): +0.0 ± "),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("Terminations: road 2, flats 2, draw 0 "),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("Points (rule book): a 30, b 28\n"),
        "{}",
        run.stdout
    );
    let run = scripted_match("scripted-komi", "2");
    assert!(
        run.stdout
            .contains("a: W 4 D 0 L 0, score 4.0/4 (100.0%)\n"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("Elo (a vs b): +inf ± inf (95%)\n"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("Points (rule book): a 60, b 0\n"),
        "{}",
        run.stdout
    );
}

#[test]
fn bad_command_lines_fail_with_one_line() {
    for args in [
        vec![
            "--engine",
            "cmd=/nonexistent/engine",
            "--engine",
            "cmd=/nonexistent/engine",
        ],
        vec!["--engine", "cmd=x", "--games", "2"],
        vec!["--engine", "cmd=x", "--engine", "cmd=y", "--size", "9"],
        vec!["--engine", "cmd=x", "--engine", "cmd=y", "--komi", "0.3"],
        vec!["--engine", "cmd=x", "--engine", "cmd=y", "--tc", "fast"],
        vec!["--engine", "cmd=x", "--engine", "cmd=y", "--no-such-flag"],
        vec!["--engine", "name=a,colour=red", "--engine", "cmd=y"],
        vec![
            "--engine",
            "cmd=x",
            "--engine",
            "cmd=y",
            "--sprt",
            "elo0=5,elo1=0,alpha=0.05,beta=0.05",
        ],
    ] {
        let out = Command::new(MENHIR)
            .arg("match")
            .args(&args)
            .output()
            .unwrap();
        assert!(!out.status.success(), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{stderr}");
        // Exactly one line, naming what is wrong; nothing on stdout.
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr:?}");
        assert!(stderr.starts_with("menhir: "), "{args:?}: {stderr:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

/// Issue 3's acceptance: complete games of every size 3–8, with half-komi 0 and 4, Menhir
/// against itself over TEI at a fast clock (1 s + 0.02 s): no illegal or malformed move, no
/// crash, no loss on time, and every game ends by the rules. Two games (colours swapped) per
/// setting, one after another so the clocks are not squeezed by parallel tests' load.
#[test]
fn selfplay_every_size_and_komi_at_a_fast_clock() {
    let engine = format!("name=menhir,cmd={MENHIR},option.Hash=8");
    let twin = format!("name=twin,cmd={MENHIR},option.Hash=8");
    for size in 3..=8 {
        for komi in ["0", "2"] {
            let size_text = size.to_string();
            let args = [
                "--engine",
                &engine,
                "--engine",
                &twin,
                "--size",
                &size_text,
                "--komi",
                komi,
                "--games",
                "2",
                "--tc",
                "1+0.02",
                "--random-plies",
                "2",
                "--seed",
                "11",
            ];
            let run = run_match(
                &format!("selfplay-{size}-{komi}"),
                &args,
                Duration::from_secs(120),
            );
            assert!(run.ok, "{}\n{}", run.stdout, run.stderr);
            let records = check_ptn(&run.ptn, 2);
            for label in ["time ", "illegal move ", "malformed move ", "crash "] {
                assert_eq!(
                    count_after(&run.stdout, label),
                    0,
                    "size {size} komi {komi}: {label}\n{}",
                    run.stdout
                );
            }
            for record in &records {
                assert_eq!(record.tag("Size"), Some(size_text.as_str()));
                let result = record.result.expect("a finished game");
                assert!(
                    matches!(
                        result,
                        RecordResult::Game(
                            GameResult::Road(_) | GameResult::Flats(_) | GameResult::Draw
                        )
                    ),
                    "size {size} komi {komi}: {result:?}\n{record}"
                );
            }
        }
    }
}

/// A road on 5x5, where each side also has a capstone: both engines play the same script, so
/// White wins each game on rank 1 at ply 11 with 6 stones on the board (a5 was placed by Black):
/// 25 + 15 stones + 1 capstone = 41 points per win.
#[test]
fn a_road_win_scores_unplayed_stones_and_capstones() {
    let engine = |name: &str| {
        format!(
            "name={name},cmd={},args=--white e5/a1/b1/c1/d1/e1 --black a5/a3/b3/c3/e3",
            scripted()
        )
    };
    let (a, b) = (engine("a"), engine("b"));
    let args = [
        "--engine", &a, "--engine", &b, "--size", "5", "--games", "2", "--tc", "10+0",
    ];
    let run = run_match("scripted-road5", &args, Duration::from_secs(60));
    assert!(run.ok, "{}\n{}", run.stdout, run.stderr);
    check_ptn(&run.ptn, 2);
    assert!(
        run.stdout.contains("a: W 1 D 0 L 1, score 1.0/2 (50.0%)\n"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("Terminations: road 2, flats 0, draw 0 "),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("Points (rule book): a 41, b 41\n"),
        "{}",
        run.stdout
    );
}
