//! `menhir playtak --level`: the bot's built-in search plays the whole game at the level, legal
//! move after legal move, and on a fixed `--level-seed` the same game twice against the same
//! opponent (a level's search is bounded by nodes, so only the seed can change its moves),
//! another game on another seed. Against the in-process server double.
//! Run: `cargo test --test playtak_level`.

mod playtak_double;

use menhir::playtak::Mode;
use playtak_double::bot::{config, in_process, run, seek};
use playtak_double::{Double, Scenario};

/// One game at `level` with `seed` against the double's seeded random opponent: its plies.
fn game(level: u32, seed: u64) -> Vec<String> {
    let double = Double::start(Scenario {
        max_plies: 16,
        ..Scenario::default()
    });
    let mut cfg = config(&double, false, Mode::Seek(seek(5, 0)), in_process());
    cfg.level = level;
    cfg.level_seed = Some(seed);
    let summary = run(cfg).unwrap();
    assert_eq!(summary.games[0].level, level);
    assert_eq!(
        double.observed.lock().unwrap().move_noks,
        0,
        "every move legal"
    );
    let played = double.games();
    assert_eq!(played.len(), 1);
    played[0].plies.clone()
}

#[test]
fn a_level_replays_on_its_seed_and_plays_otherwise_on_another() {
    let first = game(1, 7);
    assert!(first.len() >= 8, "{first:?}");
    assert_eq!(game(1, 7), first, "the same seed, the same game");
    assert_ne!(game(1, 8), first, "another seed, another game");
}
