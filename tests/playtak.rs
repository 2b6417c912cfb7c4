//! `menhir playtak` against an in-process server double (tests/playtak_double, written from
//! the server README): whole games as White and as Black at two sizes with komi, over TCP and
//! WebSocket; a dropped connection resumed; a refused login and a refused seek; engines that
//! crash or play illegal moves; draw offers and undo requests; bad server lines; accepting
//! seeks; Ctrl-C. Everything stays on 127.0.0.1 and every run is bounded by game and ply
//! counts, with a generous wall-clock cap only as a guard.
//! Run: `cargo test --test playtak` (needs python3 for the scripted engines).

mod playtak_double;

use menhir::core::{Color, GameRecord, RecordResult};
use menhir::playtak::{AcceptFilter, Endpoint, EngineChoice, Login, Mode, RunSummary};
use menhir::search::level::FULL_STRENGTH;
use playtak_double::bot::{
    config, in_process, misbehave, run, seek, temp_dir, wait_at_most, RUN_CAP,
};
use playtak_double::{Double, Played, Scenario};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// Each summary game agrees with the double's record, and its PTN file (when written) replays
/// to the same plies and result.
fn check_games(summary: &RunSummary, played: &[Played], ptn_dir: Option<&Path>) {
    assert_eq!(
        summary.games.len(),
        played.len(),
        "{summary:?} vs {played:?}"
    );
    for (ours, theirs) in summary.games.iter().zip(played) {
        assert_eq!(ours.id, theirs.id);
        assert_eq!(ours.color, theirs.client_color);
        assert_eq!(ours.result.to_string(), theirs.result, "game {}", ours.id);
        assert_eq!(ours.plies, theirs.plies.len(), "game {}", ours.id);
    }
    if let Some(dir) = ptn_dir {
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        assert_eq!(files.len(), played.len());
        for theirs in played {
            let file = files
                .iter()
                .find(|f| f.to_string_lossy().contains(&format!("-{}-", theirs.id)))
                .expect("a PTN file per game");
            let record = GameRecord::parse(&std::fs::read_to_string(file).unwrap()).unwrap();
            let plies: Vec<String> = record.plies.iter().map(|p| p.mv.to_ptn()).collect();
            assert_eq!(plies, theirs.plies);
            assert_eq!(record.tag("Result"), Some(theirs.result.as_str()));
            assert_eq!(record.tag("Size"), Some(theirs.size.to_string().as_str()));
            let komi = menhir::core::komi_text(theirs.half_komi);
            assert_eq!(record.tag("Komi"), Some(komi.as_str()));
            record.replay().expect("the PTN replays");
        }
    }
}

fn whole_games(size: usize, half_komi: i32, websocket: bool, name: &str) {
    let double = Double::start(Scenario {
        websocket,
        seed: size as u64,
        ..Scenario::default()
    });
    let dir = temp_dir(name);
    let mut cfg = config(
        &double,
        websocket,
        Mode::Seek(seek(size, half_komi)),
        in_process(),
    );
    cfg.max_games = Some(2);
    cfg.ptn_dir = Some(dir.clone());
    let summary = run(cfg).expect("two games");
    let played = double.games();
    // Colour A: the double gives the bot White, then Black.
    assert_eq!(
        played.iter().map(|p| p.client_color).collect::<Vec<_>>(),
        [Color::White, Color::Black]
    );
    check_games(&summary, &played, Some(&dir));
    let received = double.received();
    let seek_line = format!("Seek {size} 5 0 A {half_komi} ");
    assert_eq!(
        received
            .iter()
            .filter(|l| l.starts_with(&seek_line))
            .count(),
        2,
        "a seek per game: {received:?}"
    );
    assert!(received.iter().any(|l| l == "PING"));
    assert!(received.starts_with(&["Client Menhir-test".into(), "Protocol 1".into()]));
    assert_eq!(double.observed.lock().unwrap().move_noks, 0);
    assert_eq!(received.last().map(String::as_str), Some("quit"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn whole_games_as_white_and_black_on_5x5_with_komi() {
    whole_games(5, 4, false, "5x5");
}

#[test]
fn whole_games_as_white_and_black_on_6x6_with_komi_over_websocket() {
    whole_games(6, 3, true, "6x6");
}

#[test]
fn a_dropped_connection_is_resumed_mid_game() {
    let double = Double::start(Scenario {
        drop_after_plies: Some(7),
        garbage: true,
        ..Scenario::default()
    });
    let summary = run(config(&double, false, Mode::Seek(seek(5, 0)), in_process())).unwrap();
    assert_eq!(summary.connections, 2);
    assert_eq!(double.observed.lock().unwrap().connections, 2);
    assert!(summary.games[0].resumed, "{summary:?}");
    let played = double.games();
    assert!(played[0].plies.len() > 7);
    check_games(&summary, &played, None);
    // The same guest token both times, so the server knows it is the same guest.
    let logins: Vec<String> = double
        .received()
        .into_iter()
        .filter(|l| l.starts_with("Login Guest "))
        .collect();
    assert_eq!(logins.len(), 2);
    assert_eq!(logins[0], logins[1]);
    assert_eq!(logins[0].len(), "Login Guest ".len() + 20);
}

#[test]
fn a_refused_login_is_an_error() {
    let double = Double::start(Scenario::default());
    let mut cfg = config(&double, false, Mode::Seek(seek(5, 0)), in_process());
    cfg.login = Login::User {
        name: "menhirbot".into(),
        password: "wrong-pw".into(),
    };
    let err = run(cfg).unwrap_err();
    assert!(err.contains("login as menhirbot refused"), "{err}");
    assert!(!err.contains("wrong-pw"));
    assert_eq!(double.observed.lock().unwrap().started, 0);
}

#[test]
fn the_binary_logs_in_with_the_password_from_the_environment_or_fails_clearly() {
    let double = Double::start(Scenario::default());
    let bin = env!("CARGO_BIN_EXE_menhir");
    let base = |pw: &str| {
        let mut c = Command::new(bin);
        c.args([
            "playtak",
            "--server",
            &double.server_arg(false),
            "--user",
            "menhirbot",
            "--size",
            "4",
            "--half-komi",
            "0",
            "--time",
            "5",
            "--increment",
            "0",
            "--max-games",
            "1",
            "--engine",
        ]);
        let engine = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines/misbehave.py");
        c.arg(format!("cmd={}", engine.display()));
        // debug: every line sent is logged, so the masking of the password is put to the test.
        c.env("PLAYTAK_PASSWORD", pw).env("RUST_LOG", "debug");
        c
    };
    let out = base("wrong-pw").output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("login as menhirbot refused"), "{stderr}");
    assert!(!stderr.contains("wrong-pw"), "the password is never logged");
    let started = Instant::now();
    let out = base("secret-pw").output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        !stderr.contains("secret-pw"),
        "the password is never logged"
    );
    assert!(started.elapsed() < RUN_CAP);
    assert!(double
        .received()
        .contains(&"Login menhirbot secret-pw".to_string()));
    assert_eq!(double.games().len(), 1);
    assert!(stderr.contains("> Login menhirbot ********"), "{stderr}");
    // Without a password source the command line is refused before connecting.
    let out = Command::new(bin)
        .args(["playtak", "--server", "127.0.0.1:9", "--user", "x"])
        .env_remove("PLAYTAK_PASSWORD")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "a bad command line");
    assert!(String::from_utf8_lossy(&out.stderr).contains("PLAYTAK_PASSWORD"));
}

#[test]
fn a_refused_seek_is_an_error() {
    let double = Double::start(Scenario {
        reject_seek: true,
        ..Scenario::default()
    });
    let err = run(config(&double, false, Mode::Seek(seek(5, 0)), in_process())).unwrap_err();
    assert!(err.contains("refused the seek"), "{err}");
}

fn faulty_engine(mode: &str) {
    let double = Double::start(Scenario {
        placements_only: true,
        max_plies: 20,
        ..Scenario::default()
    });
    let mut cfg = config(&double, false, Mode::Seek(seek(5, 0)), misbehave(mode, 2));
    cfg.max_games = Some(2);
    let summary = run(cfg).expect("the run goes on after a bad engine");
    let played = double.games();
    check_games(&summary, &played, None);
    for (game, p) in summary.games.iter().zip(&played) {
        let lost = if p.client_color == Color::White {
            "0-1"
        } else {
            "1-0"
        };
        assert_eq!(game.result.to_string(), lost, "{mode}: resigned");
    }
    let resigns = double
        .received()
        .iter()
        .filter(|l| l.ends_with(" Resign"))
        .count();
    assert_eq!(resigns, 2);
    assert_eq!(
        double.observed.lock().unwrap().move_noks,
        0,
        "no bad move sent"
    );
}

#[test]
fn a_crashing_engine_resigns_the_game_and_is_restarted() {
    faulty_engine("crash");
}

#[test]
fn an_illegal_engine_move_resigns_the_game() {
    faulty_engine("illegal");
}

#[test]
fn a_malformed_engine_move_resigns_the_game() {
    faulty_engine("malformed");
}

fn draw_offer(threshold: Option<i32>) -> (RunSummary, Vec<Played>, Vec<String>) {
    let double = Double::start(Scenario {
        placements_only: true,
        offer_draw_at: Some(3),
        // Eight plies of flats on 5x5 cannot make a road: the cap decides a declined game.
        max_plies: 8,
        ..Scenario::default()
    });
    // The scripted engine always reports `score cp 10`.
    let mut cfg = config(&double, false, Mode::Seek(seek(5, 0)), misbehave("good", 0));
    cfg.accept_draw_below = threshold;
    let summary = run(cfg).unwrap();
    (summary, double.games(), double.received())
}

#[test]
fn a_draw_offer_is_accepted_only_below_the_threshold() {
    let (summary, played, received) = draw_offer(Some(50));
    check_games(&summary, &played, None);
    assert_eq!(played[0].result, "1/2-1/2");
    assert!(played[0].plies.len() < 8);
    assert!(received.iter().any(|l| l.ends_with(" OfferDraw")));

    let (summary, played, received) = draw_offer(Some(10));
    check_games(&summary, &played, None);
    assert!(!received.iter().any(|l| l.ends_with(" OfferDraw")));
    assert_eq!(played[0].plies.len(), 8, "played on to the ply cap");

    let (_, _, received) = draw_offer(None);
    assert!(!received.iter().any(|l| l.ends_with(" OfferDraw")));
}

fn undo_request(accept: bool) -> (RunSummary, Vec<Played>, Vec<String>, usize) {
    let double = Double::start(Scenario {
        request_undo_at: Some(4),
        max_plies: 14,
        ..Scenario::default()
    });
    let mut cfg = config(&double, false, Mode::Seek(seek(5, 2)), in_process());
    cfg.accept_undo = accept;
    let summary = run(cfg).unwrap();
    let games = double.games();
    let noks = double.observed.lock().unwrap().move_noks;
    (summary, games, double.received(), noks)
}

#[test]
fn undo_requests_are_never_granted_by_default() {
    let (summary, played, received, noks) = undo_request(false);
    check_games(&summary, &played, None);
    assert!(!received.iter().any(|l| l.ends_with(" RequestUndo")));
    assert_eq!(noks, 0);
}

#[test]
fn undo_requests_are_granted_with_accept_undo_and_the_boards_stay_in_step() {
    let (summary, played, received, noks) = undo_request(true);
    assert!(received.iter().any(|l| l.ends_with(" RequestUndo")));
    // After the undo every move of the bot was legal on the server's board.
    assert_eq!(noks, 0);
    check_games(&summary, &played, None);
}

#[test]
fn seeks_are_accepted_by_name_size_and_standard_reserves_only() {
    let double = Double::start(Scenario {
        listed_seeks: vec![
            "Seek new 10 alice 5 5 0 A 0 21 1 1 0 0 0 ".into(),
            "Seek new 11 mallory 5 5 0 A 0 21 1 1 0 0 0 ".into(),
            "Seek new 12 alice 5 5 0 A 0 25 1 1 0 0 0 ".into(),
            "Seek new 13 alice 6 5 0 W 0 30 1 1 0 0 0 ".into(),
            "Seek new 14 alice 5 5 0 W 2 21 1 1 0 0 0 someoneelse".into(),
            "Seek new 15 alice 5 5 0 W 2 21 1 1 0 0 0 ".into(),
        ],
        // Seek 10 is taken by someone else first: the bot goes on down the list.
        refuse_accepts: vec!["10".into()],
        ..Scenario::default()
    });
    let filter = AcceptFilter {
        names: vec!["Alice".into()],
        sizes: vec![5],
        rated: false,
    };
    let summary = run(config(&double, false, Mode::Accept(filter), in_process())).unwrap();
    let accepts: Vec<String> = double
        .received()
        .into_iter()
        .filter(|l| l.starts_with("Accept"))
        .collect();
    assert_eq!(accepts, ["Accept 10", "Accept 15"]);
    let played = double.games();
    assert_eq!(played[0].client_color, Color::Black, "alice seeks White");
    assert_eq!(played[0].half_komi, 2);
    check_games(&summary, &played, None);
}

#[test]
fn ctrl_c_stops_after_the_game_and_twice_resigns_at_once() {
    for presses in [1usize, 2] {
        let double = Double::start(Scenario {
            placements_only: true,
            max_plies: 8,
            ..Scenario::default()
        });
        let mut cfg = config(&double, false, Mode::Seek(seek(5, 0)), misbehave("slow", 0));
        if let EngineChoice::External(spec) = &mut cfg.engine {
            spec.args
                .extend(["--delay-ms".to_string(), "100".to_string()]);
        }
        cfg.max_games = None;
        let stop = cfg.stop.clone();
        let observed = double.observed.clone();
        thread::spawn(move || {
            let start = Instant::now();
            while observed.lock().unwrap().started == 0 && start.elapsed() < RUN_CAP {
                thread::sleep(Duration::from_millis(10));
            }
            thread::sleep(Duration::from_millis(150));
            for _ in 0..presses {
                stop.interrupt();
                thread::sleep(Duration::from_millis(60));
            }
        });
        let summary = run(cfg).unwrap();
        let played = double.games();
        assert_eq!(summary.games.len(), 1, "{presses} presses: {summary:?}");
        let resigned = double.received().iter().any(|l| l.ends_with(" Resign"));
        if presses == 1 {
            assert!(!resigned);
            assert_eq!(played[0].plies.len(), 8, "the game was played out");
        } else {
            assert!(resigned);
            assert!(played[0].plies.len() < 8);
        }
        assert_eq!(double.received().last().map(String::as_str), Some("quit"));
    }
}

#[test]
fn bad_server_lines_are_ignored() {
    let double = Double::start(Scenario {
        garbage: true,
        placements_only: true,
        max_plies: 8,
        ..Scenario::default()
    });
    let summary = run(config(
        &double,
        false,
        Mode::Seek(seek(5, 0)),
        misbehave("good", 0),
    ))
    .unwrap();
    check_games(&summary, &double.games(), None);
    assert_eq!(
        summary.games[0].result,
        RecordResult::parse("1/2-1/2").unwrap()
    );
}

#[test]
fn an_unreachable_server_is_retried_then_given_up() {
    // A port that was free a moment ago: nothing listens there.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let double = Double::start(Scenario::default());
    let mut cfg = config(&double, false, Mode::Seek(seek(5, 0)), in_process());
    cfg.endpoint = Endpoint::parse(&format!("127.0.0.1:{port}")).unwrap();
    cfg.max_reconnects = Some(2);
    let err = run(cfg).unwrap_err();
    assert!(err.contains("gave up after 3 attempts"), "{err}");
    assert!(Endpoint::parse("wss://playtak.com/ws").is_err());
}

#[test]
fn bad_command_lines_fail_with_one_line_and_status_2_before_connecting() {
    let bin = env!("CARGO_BIN_EXE_menhir");
    // One above the top level: a valid level here would make the bot connect and retry.
    let above_top = (FULL_STRENGTH + 1).to_string();
    let levels_above_top = format!("1,{above_top}");
    // 127.0.0.1:9 (discard) is never reached: each case fails while checking its flags, as
    // clap's own errors (the first two) or the bot's checks (the rest), with the same status.
    for (args, expected) in [
        (vec!["--no-such-flag"], "--no-such-flag"),
        (vec!["--size", "six"], "six"),
        (vec!["--server", "wss://playtak.com/ws"], "wss://"),
        (vec!["--server", "no-port"], "HOST:PORT"),
        (vec!["--color", "purple"], "--color"),
        (vec!["--size", "9"], "size 9"),
        (vec!["--half-komi", "9"], "komi 9"),
        (vec!["--size", "5", "--pieces", "25"], "standard"),
        (
            vec!["--user", "bob", "--password-file", "/nonexistent/pw"],
            "--password-file",
        ),
        (vec!["--password-file", "/nonexistent/pw"], "needs --user"),
        (vec!["--engine", "name=x"], "cmd=PROGRAM"),
        (
            vec!["--accept", "bob", "--accept-sizes", "2"],
            "--accept-sizes",
        ),
        (vec!["--on-term", "explode"], "--on-term"),
        (vec!["--level", "0"], "--level"),
        (vec!["--level", &above_top], "--level"),
        (vec!["--level", "3", "--engine", "cmd=x"], "--level"),
        (vec!["--level-seed", "2147483648"], "--level-seed"),
        (vec!["--ponder", "maybe"], "--ponder"),
        (vec!["--chat-levels", &levels_above_top], "--chat-levels"),
        (
            vec!["--chat-levels", "1", "--engine", "cmd=x"],
            "--chat-levels",
        ),
        (vec!["--chat", "loud"], "--chat"),
        (vec!["--chat-sizes", "4,9"], "--chat-sizes"),
        (
            vec!["--chat-min-time", "600", "--chat-max-time", "60"],
            "--chat-min-time",
        ),
    ] {
        let mut command = Command::new(bin);
        command.arg("playtak");
        if !args.contains(&"--server") {
            command.args(["--server", "127.0.0.1:9"]);
        }
        let mut child = command
            .args(&args)
            .env_remove("PLAYTAK_PASSWORD")
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // A case whose flags turn valid would connect and retry for ever: fail it instead.
        if wait_at_most(&mut child, Duration::from_secs(60)).is_none() {
            panic!("{args:?}: still running after 60 s, so the flags were accepted");
        }
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    }
}

#[test]
fn a_registered_user_resumes_too_with_the_game_restarted_after_the_welcome() {
    // For a registered login the server welcomes first, then restarts the game.
    let double = Double::start(Scenario {
        drop_after_plies: Some(4),
        websocket: true,
        ..Scenario::default()
    });
    let mut cfg = config(&double, true, Mode::Seek(seek(6, 4)), in_process());
    cfg.login = Login::User {
        name: "menhirbot".into(),
        password: "secret-pw".into(),
    };
    let summary = run(cfg).unwrap();
    assert_eq!(summary.connections, 2);
    assert!(summary.games[0].resumed, "{summary:?}");
    check_games(&summary, &double.games(), None);
    let logins = double
        .received()
        .iter()
        .filter(|l| *l == "Login menhirbot secret-pw")
        .count();
    assert_eq!(logins, 2);
}

#[test]
fn a_silent_engine_is_killed_at_our_clock_and_the_game_resigned() {
    // Our clock shows 1.5 s: the engine may take that plus a second, then it is killed (and
    // restarted, with no time left for a second try), and the game resigned.
    let double = Double::start(Scenario {
        placements_only: true,
        clock_ms: 1500,
        ..Scenario::default()
    });
    let cfg = config(
        &double,
        false,
        Mode::Seek(seek(5, 0)),
        misbehave("silent", 2),
    );
    let started = Instant::now();
    let summary = run(cfg).unwrap();
    let played = double.games();
    check_games(&summary, &played, None);
    assert_eq!(played[0].result, "0-1", "White resigned");
    assert_eq!(played[0].plies.len(), 2);
    assert!(double.received().iter().any(|l| l == "Game#1 Resign"));
    // Not hung: the whole run is the engine's start, one short game and a 2.5 s wait.
    assert!(started.elapsed() < Duration::from_secs(60));
}
