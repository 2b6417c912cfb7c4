//! `menhir playtak` in chat, against the in-process server double: a player's wish (size,
//! clock, colour) changes the next seek, a value outside the operator's limits is refused with
//! an answer, chatter not addressed to the bot gets nothing, the rate limit holds, and a level
//! asked for is the level the engine plays that player's game at. The
//! double delivers the chat lines mid-game; every check counts lines, none times them.
//! Run: `cargo test --test playtak_chat` (needs python3 for the scripted engine).

mod playtak_double;

use menhir::core::{Color, GameRecord};
use menhir::playtak::{ChatConfig, Mode, PlaytakConfig};
use menhir::search::level::FULL_STRENGTH;
use playtak_double::bot::{config, in_process, misbehave, run, seek, temp_dir};
use playtak_double::{Double, Scenario};
use std::time::Duration;

/// A game of short placements during which the double delivers `chat` at ply 2.
fn chatting(chat: &[&str]) -> Double {
    Double::start(Scenario {
        placements_only: true,
        max_plies: 8,
        chat_at_ply: Some(2),
        chat: chat.iter().map(|l| l.to_string()).collect(),
        ..Scenario::default()
    })
}

/// The bot on 5x5 5+0 (its own seek) with the chat limits of these tests: sizes 4 and 5, one
/// to five minutes, increments to 3 s.
fn bot(double: &Double, games: u32) -> PlaytakConfig {
    let mut cfg = config(double, false, Mode::Seek(seek(5, 0)), misbehave("good", 0));
    cfg.max_games = Some(games);
    cfg.chat = ChatConfig {
        sizes: vec![4, 5],
        min_time_s: 60,
        max_time_s: 300,
        max_increment_s: 3,
        ..ChatConfig::default()
    };
    cfg
}

/// The bot's `Tell` lines, as (to, text).
fn tells(double: &Double) -> Vec<(String, String)> {
    double
        .received()
        .iter()
        .filter_map(|l| {
            let rest = l.strip_prefix("Tell ")?;
            let (to, text) = rest.split_once(' ')?;
            Some((to.to_string(), text.to_string()))
        })
        .collect()
}

fn seeks(double: &Double) -> Vec<String> {
    double
        .received()
        .into_iter()
        .filter(|l| l.starts_with("Seek "))
        .collect()
}

#[test]
fn a_wish_in_chat_changes_the_next_seek() {
    let double = chatting(&["Tell <alice> size 4 clock 2+1 color black"]);
    let dir = temp_dir("chat-wish");
    let mut cfg = bot(&double, 2);
    cfg.ptn_dir = Some(dir.clone());
    run(cfg).unwrap();
    let told = tells(&double);
    assert_eq!(told.len(), 1, "{told:?}");
    assert_eq!(told[0].0, "alice");
    assert!(
        told[0]
            .1
            .starts_with("OK: 4x4, 2 min +1 s, komi 0, you play Black"),
        "{told:?}"
    );
    assert!(told[0].1.contains("after this game"), "{told:?}");
    // Our own seek first; after the game, the wish: for alice alone, the bot White.
    assert_eq!(
        seeks(&double),
        ["Seek 5 5 0 A 0 21 1 1 0", "Seek 4 120 1 W 0 15 0 1 0 alice"]
    );
    let played = double.games();
    assert_eq!(played.len(), 2);
    assert_eq!((played[1].size, played[1].client_color), (4, Color::White));
    // The game is recorded with the clock it was played at, increment included.
    let file = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().contains("-2-"))
        .expect("game 2's PTN");
    let record = GameRecord::parse(&std::fs::read_to_string(file).unwrap()).unwrap();
    assert_eq!(record.tag("Clock"), Some("2:00 +1"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_refused_wish_is_answered_with_what_is_allowed_and_changes_nothing() {
    let double = chatting(&[
        "Tell <alice> size 8",
        "Tell <bobby> clock 90+0",
        "Tell <carol> clock 3+10",
        "Tell <daisy> dance",
    ]);
    run(bot(&double, 2)).unwrap();
    let told = tells(&double);
    let expected = [
        ("alice", "size 8 is not offered (sizes: 4, 5)"),
        ("bobby", "90 min is outside 1 min to 5 min"),
        ("carol", "increment 10 s is over 3 s"),
        ("daisy", "'dance' is not a command"),
    ];
    assert_eq!(told.len(), expected.len(), "{told:?}");
    for ((to, text), (name, why)) in told.iter().zip(expected) {
        assert_eq!(to, name);
        assert!(text.starts_with("Refused: "), "{text}");
        assert!(text.contains(why), "{text}");
    }
    assert_eq!(seeks(&double), ["Seek 5 5 0 A 0 21 1 1 0"; 2]);
}

#[test]
fn chatter_not_addressed_to_the_bot_gets_no_reply() {
    // The bot is the double's first guest, Guest1.
    let double = chatting(&[
        "Shout <bobby> size 4 anyone?",
        "Shout <carol> hello alice, good game",
        "Shout <carol> Guest10 help",
        "Shout <Server> Server going down for maintenance",
        "Shout <Guest1> Guest1 help",
        "Tell <Guest1> help",
        "Tell <bob> help",
        "ShoutRoom lobby <erin> Guest1 help",
        "Shout <daisy> @guest1: help",
    ]);
    run(bot(&double, 1)).unwrap();
    let told = tells(&double);
    assert_eq!(told.len(), 1, "only daisy addressed the bot: {told:?}");
    assert_eq!(told[0].0, "daisy");
    assert!(told[0].1.contains("size 4|5"), "the help: {told:?}");
}

#[test]
fn chat_replies_are_rate_limited_per_sender_and_overall() {
    let mut lines = vec!["Tell <alice> help"; 5];
    lines.extend([
        "Tell <bobby> help",
        "Tell <carol> size 4",
        "Tell <daisy> help",
        "Tell <erin1> help",
    ]);
    let double = chatting(&lines);
    let mut cfg = bot(&double, 1);
    // Windows far longer than the run, so the counts alone decide.
    cfg.chat.per_sender = Duration::from_secs(3600);
    cfg.chat.max_replies = 3;
    cfg.chat.window = Duration::from_secs(3600);
    run(cfg).unwrap();
    let to: Vec<String> = tells(&double).into_iter().map(|(to, _)| to).collect();
    assert_eq!(to, ["alice", "bobby", "carol"]);
}

#[test]
fn a_level_asked_for_in_chat_is_the_level_of_that_players_game() {
    let double = chatting(&["Tell <alice> level 9", "Tell <alice> level 2"]);
    let mut cfg = config(&double, false, Mode::Seek(seek(5, 0)), in_process());
    cfg.max_games = Some(2);
    cfg.chat.levels = vec![1, 2, 3];
    cfg.chat.per_sender = Duration::ZERO;
    let summary = run(cfg).unwrap();
    let told = tells(&double);
    assert_eq!(told.len(), 2, "{told:?}");
    assert!(
        told[0]
            .1
            .contains("level 9 is not offered (levels: 1, 2, 3)"),
        "{told:?}"
    );
    assert!(told[1].1.contains("level 2 (alice)"), "{told:?}");
    let levels: Vec<u32> = summary.games.iter().map(|g| g.level).collect();
    assert_eq!(levels, [FULL_STRENGTH, 2]);
    assert_eq!(double.observed.lock().unwrap().move_noks, 0);
}
