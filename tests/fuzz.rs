//! Input fuzzing on stable Rust: generated and mutated TPS strings, PTN moves, PTN game files and
//! TEI lines from a seeded generator, fed to the parsers and to a TEI session in process. Nothing may panic, every
//! rejected input gets its error, and a rejected TEI command leaves the session as it was.
//!
//! A quick run of every target is part of `cargo test --test fuzz` (a few seconds). The long run,
//! at least 1,000,000 inputs per target, prints its counts and times:
//!
//! ```text
//! cargo test --test fuzz -- --ignored --nocapture
//! ```
//!
//! `MENHIR_FUZZ_INPUTS=<n>` changes the long run's input count per target and `MENHIR_FUZZ_SEED=<n>`
//! its seed (a failure prints the seed and the offending input, so it can be replayed).

#[allow(dead_code)] // the fuzz targets use part of the reference model
mod reference;

use menhir::core::{
    Direction, GameRecord, Move, MoveList, PieceKind, Position, RecordResult, RecordedPly,
    MAX_SIZE, MIN_SIZE,
};
use menhir::tei::{parse_command, Command, Session};
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use reference::RefGame;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Inputs per target in the quick run that `cargo test` makes.
const QUICK_INPUTS: usize = 20_000;
/// Session lines in the quick run (each may start a search, so fewer).
const QUICK_SESSION_LINES: usize = 3_000;
/// Inputs per target in the long run unless `MENHIR_FUZZ_INPUTS` says otherwise.
const LONG_INPUTS: usize = 1_000_000;

fn long_inputs() -> usize {
    std::env::var("MENHIR_FUZZ_INPUTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(LONG_INPUTS)
}

fn seed() -> u64 {
    std::env::var("MENHIR_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x6d65_6e68_6972)
}

/// What a fuzz run saw.
#[derive(Default, Debug)]
struct Tally {
    inputs: usize,
    accepted: usize,
    rejected: usize,
}

impl Tally {
    fn count(&mut self, accepted: bool) {
        self.inputs += 1;
        if accepted {
            self.accepted += 1;
        } else {
            self.rejected += 1;
        }
    }

    fn report(&self, target: &str, seed: u64, started: Instant) {
        eprintln!(
            "fuzz {target}: {} inputs ({} accepted, {} rejected), seed {seed}, {:.1} s",
            self.inputs,
            self.accepted,
            self.rejected,
            started.elapsed().as_secs_f64()
        );
    }
}

/// Runs `f`, turning a panic into a test failure that names the input and the seed.
fn no_panic<T>(target: &str, seed: u64, input: &str, f: impl FnOnce() -> T) -> T {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(value) => value,
        Err(_) => panic!("{target} panicked (seed {seed}) on input {input:?}"),
    }
}

// ---------------------------------------------------------------------------------------------
// Generators

/// The positions of one random game of `size` (start included), at most `max_plies` long.
fn random_game(rng: &mut StdRng, size: usize, max_plies: usize) -> Vec<(Position, Option<Move>)> {
    let mut pos = Position::start(size).unwrap();
    let mut out = Vec::new();
    let mut moves = MoveList::new();
    for _ in 0..max_plies {
        if pos.result().is_some() {
            break;
        }
        moves.clear();
        pos.generate_moves(&mut moves);
        let Some(&mv) = moves.as_slice().choose(rng) else {
            break;
        };
        out.push((pos.clone(), Some(mv)));
        pos.do_move(mv);
    }
    out.push((pos, None));
    out
}

fn random_size(rng: &mut StdRng) -> usize {
    rng.random_range(MIN_SIZE..=MAX_SIZE)
}

/// A position somewhere in a random game of a random size.
fn random_position(rng: &mut StdRng) -> Position {
    let size = random_size(rng);
    let plies = rng.random_range(0..size * size * 3);
    let game = random_game(rng, size, plies);
    game.choose(rng).unwrap().0.clone()
}

/// A TPS in the long form Racetrack writes: every empty square an `x`.
fn uncompressed(tps: &str) -> String {
    let mut out = String::new();
    let mut chars = tps.chars().peekable();
    while let Some(c) = chars.next() {
        if c == 'x' && chars.peek().is_some_and(|d| d.is_ascii_digit()) {
            let mut n = 0;
            while let Some(d) = chars.peek().and_then(|d| d.to_digit(10)) {
                n = n * 10 + d;
                chars.next();
            }
            out.push_str(&vec!["x"; n as usize].join(","));
        } else {
            out.push(c);
        }
    }
    out
}

/// Characters that matter to the parsers, plus a few that must never confuse them.
const ALPHABET: &[char] = &[
    'x', '1', '2', '3', '4', '5', '6', '7', '8', '9', '0', 'S', 'C', 'F', '/', ',', ' ', ' ', '\t',
    'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', '+', '-', '<', '>', '*', '\'', '"', '!', '?', '.',
    '\r', '\n', '\0', '\u{7f}', 'é', '\u{fffd}', '\u{200b}', '9', '0',
];

/// One to four random edits of `text`: insert, delete, replace, duplicate a slice, cut short,
/// swap two words, or splice in digits that overflow every integer type.
fn mutate(rng: &mut StdRng, text: &str) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for _ in 0..rng.random_range(1..=4) {
        let len = chars.len();
        let at = rng.random_range(0..=len);
        match rng.random_range(0..9) {
            0 | 1 => chars.insert(at, *ALPHABET.choose(rng).unwrap()),
            2 if len > 0 => {
                chars.remove(at.min(len - 1));
            }
            3 if len > 0 => chars[at.min(len - 1)] = *ALPHABET.choose(rng).unwrap(),
            4 if len > 0 => {
                let start = rng.random_range(0..len);
                let end = rng.random_range(start..=len.min(start + 12));
                let piece: Vec<char> = chars[start..end].to_vec();
                let at = rng.random_range(0..=len);
                chars.splice(at..at, piece);
            }
            5 => chars.truncate(at),
            6 => {
                let text: String = chars.iter().collect();
                let mut words: Vec<&str> = text.split(' ').collect();
                if words.len() > 1 {
                    let (i, j) = (
                        rng.random_range(0..words.len()),
                        rng.random_range(0..words.len()),
                    );
                    words.swap(i, j);
                }
                chars = words.join(" ").chars().collect();
            }
            7 => {
                let digits = [
                    "99999999999999999999999",
                    "-1",
                    "0",
                    "256",
                    "65537",
                    "18446744073709551616",
                ];
                chars.splice(at..at, digits.choose(rng).unwrap().chars());
            }
            _ => chars.insert(at, char::from(rng.random_range(0u8..128))),
        }
    }
    chars.into_iter().collect()
}

/// A random PTN-shaped move for `size`: optional count or piece, a square (sometimes off the
/// board), optional direction and drops, optional marks.
fn grammar_move(rng: &mut StdRng, size: usize) -> String {
    let mut s = String::new();
    let file = |rng: &mut StdRng| char::from(b'a' + rng.random_range(0..=size as u8));
    let rank = |rng: &mut StdRng| char::from(b'0' + rng.random_range(0..=size as u8 + 1));
    if rng.random_bool(0.5) {
        if rng.random_bool(0.3) {
            s.push(*['F', 'S', 'C'].choose(rng).unwrap());
        }
        s.push(file(rng));
        s.push(rank(rng));
    } else {
        if rng.random_bool(0.6) {
            s.push_str(&rng.random_range(0..=size + 1).to_string());
        }
        s.push(file(rng));
        s.push(rank(rng));
        s.push(*['+', '-', '<', '>'].choose(rng).unwrap());
        for _ in 0..rng.random_range(0..=size) {
            s.push(char::from(b'0' + rng.random_range(0..=size as u8)));
        }
    }
    if rng.random_bool(0.1) {
        s.push('*');
    }
    if rng.random_bool(0.1) {
        s.push_str(["'", "!", "?", "''", "!?", "\""].choose(rng).unwrap());
    }
    s
}

/// Other spellings of a legal move that the reader accepts: explicit count and drops, `F`
/// prefix, a smash star, annotation marks.
fn variant_spelling(rng: &mut StdRng, mv: Move) -> String {
    let canonical = mv.to_ptn();
    match rng.random_range(0..4) {
        0 => canonical,
        1 if !canonical.starts_with(['S', 'C']) && !canonical.contains(['+', '-', '<', '>']) => {
            format!("F{canonical}")
        }
        2 => format!(
            "{canonical}{}",
            ["'", "!", "?", "''", "!?", "\"", "?!"].choose(rng).unwrap()
        ),
        _ => canonical,
    }
}

// ---------------------------------------------------------------------------------------------
// Target: TPS

fn fuzz_tps(seed: u64, inputs: usize) -> Tally {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut tally = Tally::default();
    let mut seeds: Vec<String> = Vec::new();
    while tally.inputs < inputs {
        if tally.inputs % 64 == 0 {
            let pos = random_position(&mut rng);
            seeds = vec![pos.to_tps(), uncompressed(&pos.to_tps())];
        }
        let base = seeds.choose(&mut rng).unwrap().clone();
        let text = if rng.random_bool(0.15) {
            base
        } else {
            mutate(&mut rng, &base)
        };
        let parsed = no_panic("Position::from_tps", seed, &text, || {
            Position::from_tps(&text)
        });
        match parsed {
            Ok(pos) => {
                no_panic("a position read from TPS", seed, &text, || {
                    check_read_position(&pos, &text)
                });
                tally.count(true);
            }
            Err(why) => {
                assert!(!why.trim().is_empty(), "empty error for TPS {text:?}");
                tally.count(false);
            }
        }
    }
    tally
}

/// A position read from TPS is consistent, writes back to a TPS that reads back equal, and
/// its moves make and unmake cleanly.
fn check_read_position(pos: &Position, text: &str) {
    assert!(pos.is_consistent(), "inconsistent position from {text:?}");
    let written = pos.to_tps();
    let again = Position::from_tps(&written)
        .unwrap_or_else(|e| panic!("{text:?} read, but its TPS {written:?} does not: {e}"));
    assert_eq!(&again, pos, "{text:?} → {written:?} reads back different");
    assert_eq!(again.to_tps(), written);
    let _ = pos.result();
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    let mut scratch = pos.clone();
    for &mv in moves.as_slice().iter().take(8) {
        let undo = scratch.do_move(mv);
        assert!(scratch.is_consistent(), "{} from {text:?}", mv.to_ptn());
        let _ = scratch.result();
        scratch.undo_move(mv, undo);
    }
    assert_eq!(&scratch, pos);
}

// ---------------------------------------------------------------------------------------------
// Target: PTN moves

/// A move as its PTN text says it (file, rank, then what is placed or how it spreads), read
/// from notation.md 2.2-2.4 without the core's reader: the oracle the reader is checked against.
#[derive(Clone, Debug, PartialEq)]
enum Spelled {
    Place(usize, usize, PieceKind),
    Spread(usize, usize, Direction, Vec<u32>),
}

/// notation.md's engine rule: optional `F`/`S`/`C` or count, a square, for a spread a direction
/// and drops (each at least 1, summing to the count; omitted = all on the next square), the
/// count at most the board size, the spread on the board; a trailing `*` and annotation marks
/// `' " ! ?` stripped.
fn spelled(text: &str, size: usize) -> Option<Spelled> {
    let text = text.trim_end_matches(['\'', '"', '!', '?']);
    let text = text.strip_suffix('*').unwrap_or(text);
    let b = text.as_bytes();
    if !text.is_ascii() || b.is_empty() {
        return None;
    }
    let (piece, count, at) = match b[0] {
        b'F' => (Some(PieceKind::Flat), None, 1),
        b'S' => (Some(PieceKind::Wall), None, 1),
        b'C' => (Some(PieceKind::Cap), None, 1),
        d @ b'0'..=b'9' => (None, Some(u32::from(d - b'0')), 1),
        _ => (None, None, 0),
    };
    let file = usize::from(b.get(at)?.checked_sub(b'a')?);
    let rank = usize::from(b.get(at + 1)?.checked_sub(b'1')?);
    if file >= size || rank >= size {
        return None;
    }
    let rest = &b[at + 2..];
    let Some((&symbol, drops)) = rest.split_first() else {
        return count
            .is_none()
            .then(|| Spelled::Place(file, rank, piece.unwrap_or(PieceKind::Flat)));
    };
    let (dir, df, dr) = match symbol {
        b'+' => (Direction::North, 0, 1),
        b'-' => (Direction::South, 0, -1),
        b'>' => (Direction::East, 1, 0),
        b'<' => (Direction::West, -1, 0),
        _ => return None,
    };
    let count = count.unwrap_or(1);
    if piece.is_some() || count == 0 || count as usize > size {
        return None;
    }
    let mut drops: Vec<u32> = drops
        .iter()
        .map(|&d| (b'1'..=b'9').contains(&d).then(|| u32::from(d - b'0')))
        .collect::<Option<_>>()?;
    if drops.is_empty() {
        drops.push(count);
    }
    let steps = drops.len() as isize;
    let (end_file, end_rank) = (file as isize + df * steps, rank as isize + dr * steps);
    let on = |x: isize| (0..size as isize).contains(&x);
    (drops.iter().sum::<u32>() == count && on(end_file) && on(end_rank))
        .then_some(Spelled::Spread(file, rank, dir, drops))
}

/// A generated move in the same terms, through the move encoding only.
fn spelled_move(mv: Move) -> Spelled {
    let sq = mv.square();
    if mv.is_placement() {
        Spelled::Place(sq.file(), sq.rank(), mv.kind())
    } else {
        Spelled::Spread(sq.file(), sq.rank(), mv.direction(), mv.drops().collect())
    }
}

/// The reference model's state at each position of a game from `random_game`, each checked
/// against the core's position.
fn reference_states(game: &[(Position, Option<Move>)]) -> Vec<RefGame> {
    let mut state = RefGame::new(game[0].0.size(), game[0].0.half_komi());
    game.iter()
        .map(|(pos, next)| {
            assert_eq!(state.difference(pos), None, "{}", pos.to_tps());
            let here = state.clone();
            if let Some(mv) = next {
                state.apply(*mv);
            }
            here
        })
        .collect()
}

fn fuzz_moves(seed: u64, inputs: usize) -> Tally {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut tally = Tally::default();
    let mut game = Vec::new();
    // The reference's legal moves at each position of the game, found when first needed.
    let mut legal: Vec<Option<Vec<Spelled>>> = Vec::new();
    let mut states = Vec::new();
    while tally.inputs < inputs {
        if tally.inputs % 256 == 0 {
            let size = random_size(&mut rng);
            game = random_game(&mut rng, size, size * size * 3);
            states = reference_states(&game);
            legal = vec![None; game.len()];
        }
        let index = rng.random_range(0..game.len());
        let (pos, next) = game[index].clone();
        let size = pos.size();
        // Which texts must be accepted: a legal move spelled as the reader allows.
        let (text, must_accept) = match (rng.random_range(0..4), next) {
            (0, Some(mv)) => (variant_spelling(&mut rng, mv), true),
            (1, Some(mv)) => (mutate(&mut rng, &mv.to_ptn()), false),
            (2, _) => {
                let base = grammar_move(&mut rng, size);
                (mutate(&mut rng, &base), false)
            }
            _ => (grammar_move(&mut rng, size), false),
        };
        let parsed = no_panic("Position::parse_move", seed, &text, || {
            pos.parse_move(&text)
        });
        // The oracle: the text, read by the notation rules, is one of the reference's legal
        // moves, and the reference says the game goes on.
        let state = &states[index];
        let legal_here = legal[index].get_or_insert_with(|| {
            if state.result().is_some() {
                Vec::new()
            } else {
                state.legal_moves().into_iter().map(spelled_move).collect()
            }
        });
        let meant = spelled(&text, size);
        let expected = meant.as_ref().is_some_and(|m| legal_here.contains(m));
        assert_eq!(
            parsed.is_ok(),
            expected,
            "{text:?} in {}: {parsed:?}, read by the notation rules as {meant:?}",
            pos.to_tps()
        );
        if must_accept {
            assert!(parsed.is_ok(), "legal {text:?} refused in {}", pos.to_tps());
        }
        match parsed {
            Ok(mv) => {
                assert_eq!(
                    Some(spelled_move(mv)),
                    meant,
                    "{text:?} read as another move"
                );
                let mut moves = MoveList::new();
                pos.generate_moves(&mut moves);
                assert!(moves.contains(mv), "{text:?} accepted but not generated");
                let canonical = mv.to_ptn();
                assert_eq!(
                    pos.parse_move(&canonical),
                    Ok(mv),
                    "{text:?} → {canonical:?}"
                );
                tally.count(true);
            }
            Err(why) => {
                assert!(!why.trim().is_empty(), "empty error for move {text:?}");
                tally.count(false);
            }
        }
    }
    tally
}

// ---------------------------------------------------------------------------------------------
// Target: PTN game files

/// A random game as a record: tags, sometimes a TPS start, comments, maybe a result.
fn random_record(rng: &mut StdRng) -> GameRecord {
    let start = if rng.random_bool(0.3) {
        Some(random_position(rng)).filter(|p| p.result().is_none())
    } else {
        None
    };
    let size = start
        .as_ref()
        .map_or_else(|| random_size(rng), Position::size);
    let mut record = GameRecord::default();
    record.set_tag("Site", "fuzz");
    record.set_tag("Size", size.to_string());
    let half_komi: i32 = rng.random_range(-10..=10);
    if half_komi != 0 {
        record.set_tag("Komi", format!("{}", half_komi as f64 / 2.0));
    }
    let mut pos = match &start {
        Some(p) => {
            record.start_tps = Some(p.to_tps());
            p.clone()
        }
        None => Position::start(size).unwrap(),
    };
    pos.set_half_komi(half_komi);
    let mut moves = MoveList::new();
    for _ in 0..rng.random_range(0..size * size * 2) {
        if pos.result().is_some() {
            break;
        }
        moves.clear();
        pos.generate_moves(&mut moves);
        let mv = *moves.as_slice().choose(rng).unwrap();
        pos.do_move(mv);
        let comment = rng.random_bool(0.1).then(|| {
            ["+0.35/12 1.23s", "a note", "book"]
                .choose(rng)
                .unwrap()
                .to_string()
        });
        record.plies.push(RecordedPly { mv, comment });
    }
    record.result = match pos.result() {
        Some(result) => Some(RecordResult::Game(result)),
        None => [
            None,
            Some(RecordResult::Unfinished),
            Some(RecordResult::DoubleLoss),
        ]
        .choose(rng)
        .copied()
        .unwrap(),
    };
    record
}

/// Line-level edits of a PTN file: drop, repeat or swap lines, add tags, comments, numbers.
fn mutate_lines(rng: &mut StdRng, text: &str) -> String {
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let extra = [
        "[Size \"9\"]",
        "[TPS \"x5/x5/x5/x5/x5 1 1\"]",
        "[Komi \"0.25\"]",
        "[Komi \"nan\"]",
        "[Size \"4\"]",
        "[Bad tag]",
        "{ open",
        "}",
        "1. -- a1",
        "0-0",
        "*",
        "R-0 F-0",
        "",
        "[",
        "1... e5",
        "{[Size \"5\"]}",
    ];
    for _ in 0..rng.random_range(1..=3) {
        let at = rng.random_range(0..=lines.len());
        match rng.random_range(0..4) {
            0 if !lines.is_empty() => {
                lines.remove(at.min(lines.len() - 1));
            }
            1 if !lines.is_empty() => {
                let line = lines[rng.random_range(0..lines.len())].clone();
                lines.insert(at, line);
            }
            2 if lines.len() > 1 => {
                let (i, j) = (
                    rng.random_range(0..lines.len()),
                    rng.random_range(0..lines.len()),
                );
                lines.swap(i, j);
            }
            _ => lines.insert(at, extra.choose(rng).unwrap().to_string()),
        }
    }
    lines.join(if rng.random_bool(0.2) { "\r\n" } else { "\n" })
}

fn fuzz_ptn_games(seed: u64, inputs: usize) -> Tally {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut tally = Tally::default();
    let mut records = Vec::new();
    while tally.inputs < inputs {
        if tally.inputs % 32 == 0 {
            records = (0..3).map(|_| random_record(&mut rng)).collect::<Vec<_>>();
        }
        let record = records.choose(&mut rng).unwrap();
        let original = record.to_string();
        let text = match rng.random_range(0..8) {
            0 => {
                // The writer's own output reads back as the same game.
                let read = no_panic("GameRecord::parse", seed, &original, || {
                    GameRecord::parse(&original)
                });
                assert_eq!(read.as_ref(), Ok(record), "{original}");
                original
            }
            1 => records
                .iter()
                .map(|r| r.to_string())
                .collect::<Vec<_>>()
                .join("\n"),
            2 | 3 => mutate_lines(&mut rng, &original),
            _ => mutate(&mut rng, &original),
        };
        let parsed = no_panic("GameRecord::parse_all", seed, &text, || {
            GameRecord::parse_all(&text)
        });
        match parsed {
            Ok(games) => {
                for game in &games {
                    no_panic("a game read from PTN", seed, &text, || {
                        check_read_game(game, &text)
                    });
                }
                tally.count(true);
            }
            Err(why) => {
                assert!(!why.trim().is_empty(), "empty error for PTN {text:?}");
                tally.count(false);
            }
        }
    }
    tally
}

/// A game the reader accepted replays legally and writes back to text that reads the same
/// (up to braces inside comments).
fn check_read_game(game: &GameRecord, text: &str) {
    let end = game
        .replay()
        .unwrap_or_else(|e| panic!("accepted but does not replay ({e}): {text:?}"));
    assert!(end.is_consistent());
    let written = game.to_string();
    let again = GameRecord::parse(&written)
        .unwrap_or_else(|e| panic!("accepted {text:?}, but its own text {written:?} is not: {e}"));
    // PTN cannot escape braces, so the writer drops those inside a comment (by design).
    let mut expected = game.clone();
    for ply in &mut expected.plies {
        if let Some(comment) = &mut ply.comment {
            *comment = comment.replace(['{', '}'], "").trim().to_string();
        }
    }
    assert_eq!(again, expected, "{text:?} → {written:?}");
}

// ---------------------------------------------------------------------------------------------
// Target: TEI lines (the parser alone, then a whole session)

/// A TEI line a session whose game has `size` must accept (a `go` only when no search runs
/// and the game is not over).
fn valid_line(rng: &mut StdRng, size: usize) -> String {
    let case = |rng: &mut StdRng, name: &str| -> String {
        name.chars()
            .map(|c| {
                if rng.random_bool(0.3) {
                    c.to_ascii_uppercase()
                } else {
                    c.to_ascii_lowercase()
                }
            })
            .collect()
    };
    match rng.random_range(0..14) {
        0 => "isready".into(),
        1 => "tei".into(),
        2 => "d".into(),
        3 => "stop".into(),
        4 => format!(
            "setoption name {} value {}",
            case(rng, "HalfKomi"),
            rng.random_range(-10..=10)
        ),
        5 => format!(
            "setoption name {} value {}",
            case(rng, "Threads"),
            rng.random_range(1..=2)
        ),
        6 => format!(
            "setoption name {} value {}",
            case(rng, "Hash"),
            rng.random_range(1..=2)
        ),
        7 => format!("teinewgame {}", random_size(rng)),
        8 => format!(
            "teinewgame size {} halfkomi {}",
            random_size(rng),
            rng.random_range(-10..=10)
        ),
        9 | 10 => {
            let plies = rng.random_range(0..size * size * 2);
            let game = random_game(rng, size, plies);
            let moves: Vec<String> = game
                .iter()
                .filter_map(|(_, m)| m.map(|m| variant_spelling(rng, m)))
                .collect();
            format!("position startpos moves {} ", moves.join(" "))
        }
        11 => {
            let start = random_position(rng);
            let tps = if rng.random_bool(0.5) {
                start.to_tps()
            } else {
                uncompressed(&start.to_tps())
            };
            let mut line = format!("position tps {tps}");
            if start.result().is_none() && rng.random_bool(0.7) {
                let mut moves = MoveList::new();
                start.generate_moves(&mut moves);
                line.push_str(&format!(
                    " moves {}",
                    moves.as_slice().choose(rng).unwrap().to_ptn()
                ));
            }
            line
        }
        _ => [
            "go depth 1".to_string(),
            format!("go depth {}", rng.random_range(1..=3)),
            format!("go nodes {}", rng.random_range(1..=400)),
            format!("go movetime {}", rng.random_range(1..=5)),
            format!(
                "go wtime {} btime {} winc 10 binc 10",
                rng.random_range(1..=300),
                rng.random_range(1..=300)
            ),
            "go infinite".into(),
            "go".into(),
        ]
        .choose(rng)
        .unwrap()
        .clone(),
    }
}

/// A TEI line the session must refuse with one error line, whatever its state.
fn invalid_line(rng: &mut StdRng, pos: &Position) -> String {
    invalid_line_and_parser_verdict(rng, pos).0
}

/// An invalid TEI line, and whether the command parser itself must refuse it (bad syntax: an
/// unknown command, a bad size, a bad number, a missing field); the other lines are well formed
/// and refused by the session (unknown option, value out of range, illegal move, bad TPS).
fn invalid_line_and_parser_verdict(rng: &mut StdRng, pos: &Position) -> (String, bool) {
    let category = rng.random_range(0..10);
    let line = match category {
        0 => ["uci", "Tei", "quiT", "position2", "hello world", "go2"]
            .choose(rng)
            .unwrap()
            .to_string(),
        1 => format!(
            "setoption name {} value 1",
            ["MultiPVs", "Ponder", "Threadz", "Komi"]
                .choose(rng)
                .unwrap()
        ),
        2 => format!(
            "setoption name HalfKomi value {}",
            [11, -11, 100, i64::MAX].choose(rng).unwrap()
        ),
        3 => format!(
            "setoption name Threads value {}",
            ["0", "257", "two", "1.5"].choose(rng).unwrap()
        ),
        4 => format!(
            "setoption name Hash value {}",
            ["0", "-1", "65537", "lots"].choose(rng).unwrap()
        ),
        5 => format!(
            "teinewgame {}",
            ["2", "9", "0", "five", "size", "size 5 halfkomi 11"]
                .choose(rng)
                .unwrap()
        ),
        6 => {
            // A syntactically fine move that is illegal in the position the moves reach.
            let start = random_position(rng);
            let illegal = (0..50)
                .map(|_| grammar_move(rng, start.size()))
                .find(|t| Move::parse_ptn(t, start.size()).is_ok() && start.parse_move(t).is_err());
            match illegal {
                Some(t) => format!("position tps {} moves {t}", start.to_tps()),
                None => "position tps x9/x9 1 1".into(),
            }
        }
        7 => {
            let tps = pos.to_tps();
            // Broken as the session sees it: three fields once split on whitespace.
            let broken = (0..50)
                .map(|_| {
                    mutate(rng, &tps)
                        .split_whitespace()
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .find(|t| {
                    let fields: Vec<&str> = t.split(' ').collect();
                    fields.len() == 3
                        && !fields.contains(&"moves")
                        && Position::from_tps(t).is_err()
                });
            match broken {
                Some(t) => format!("position tps {t}"),
                None => "position tps x5/x5/x5/x5/x6 1 1".into(),
            }
        }
        8 => ["go depth", "go nodes x", "go movetime 1e3", "go wtime"]
            .choose(rng)
            .unwrap()
            .to_string(),
        _ => [
            "position",
            "position startpos a1",
            "position fen x",
            "setoption",
            "setoption name",
        ]
        .choose(rng)
        .unwrap()
        .to_string(),
    };
    (line, matches!(category, 0 | 5 | 8 | 9))
}

fn fuzz_command_parser(seed: u64, inputs: usize) -> Tally {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut tally = Tally::default();
    let pos = Position::start(5).unwrap();
    while tally.inputs < inputs {
        // What the parser must say of the line as generated: valid lines parse, syntactically
        // bad ones are refused, and the rest are the session's to refuse.
        let (base, must_parse) = if rng.random_bool(0.5) {
            (valid_line(&mut rng, 5), Some(true))
        } else {
            let (line, parser_refuses) = invalid_line_and_parser_verdict(&mut rng, &pos);
            (line, parser_refuses.then_some(false))
        };
        let unchanged = rng.random_range(0..4) == 0;
        let line = if unchanged {
            base
        } else if rng.random_bool(1.0 / 3.0) {
            let bytes: Vec<u8> = (0..rng.random_range(0..40)).map(|_| rng.random()).collect();
            String::from_utf8_lossy(&bytes).into_owned()
        } else {
            mutate(&mut rng, &base)
        };
        let parsed = no_panic("tei::parse_command", seed, &line, || parse_command(&line));
        if line.trim().is_empty() {
            assert_eq!(parsed, Ok(None), "{line:?}");
        }
        if let Err(why) = &parsed {
            assert!(!why.trim().is_empty(), "empty error for {line:?}");
        }
        match (unchanged, must_parse) {
            (true, Some(true)) => {
                assert!(
                    matches!(parsed, Ok(Some(_))),
                    "valid {line:?} refused: {parsed:?}"
                )
            }
            (true, Some(false)) => {
                assert!(parsed.is_err(), "known-bad {line:?} accepted: {parsed:?}")
            }
            _ => {}
        }
        tally.count(parsed.is_ok());
    }
    tally
}

/// The lines a session has written, shared with its output closure.
type Lines = Arc<Mutex<Vec<String>>>;

/// First words a TEI reply may start with.
const REPLIES: [&str; 7] = [
    "id", "option", "size", "teiok", "readyok", "info", "bestmove",
];

/// One in-process session under test: the lines it wrote, and the searches still owed a
/// `bestmove` with the position each was asked about.
struct Harness {
    session: Session,
    lines: Lines,
    seen: usize,
    owed: Vec<Option<Position>>,
    answered: usize,
}

impl Harness {
    fn new() -> Harness {
        let lines: Lines = Arc::default();
        let sink = Arc::clone(&lines);
        let mut session =
            Session::new(Arc::new(move |l: &str| sink.lock().unwrap().push(l.into())));
        // A small table keeps `teinewgame` (which clears it) cheap.
        session.handle_line("setoption name Hash value 1");
        Harness {
            session,
            lines,
            seen: 0,
            owed: Vec::new(),
            answered: 0,
        }
    }

    /// Feeds one line and returns the error lines it caused, checking the state rule.
    fn feed(&mut self, line: &str, seed: u64) -> Vec<String> {
        let before = self.session.snapshot();
        let parsed = parse_command(line);
        let flow = no_panic("Session::handle_line", seed, line, || {
            self.session.handle_line(line)
        });
        let after = self.session.snapshot();
        let new: Vec<String> = {
            let lines = self.lines.lock().unwrap();
            lines[self.seen..].to_vec()
        };
        let errors: Vec<String> = new
            .iter()
            .filter(|l| l.starts_with("info string error:"))
            .cloned()
            .collect();
        assert!(errors.len() <= 1, "{line:?} gave {errors:?}");
        if !errors.is_empty() {
            assert_eq!(
                before, after,
                "{line:?} was refused ({errors:?}) but changed the state"
            );
        }
        if let Ok(Some(Command::Go(_))) = parsed {
            if !errors.iter().any(|e| e.contains("already running")) {
                self.owed.push(
                    before
                        .position()
                        .result()
                        .is_none()
                        .then(|| before.position().clone()),
                );
            }
        }
        if flow == menhir::tei::Flow::Quit {
            self.session.finish();
        }
        self.check_new_lines(seed);
        errors
    }

    /// Checks every line written since the last call: protocol words only, and each `bestmove`
    /// legal in the position its `go` searched.
    fn check_new_lines(&mut self, seed: u64) {
        let lines = self.lines.lock().unwrap();
        for line in &lines[self.seen..] {
            let word = line.split_whitespace().next().unwrap_or("");
            assert!(
                REPLIES.contains(&word),
                "non-protocol line {line:?} (seed {seed})"
            );
            assert!(!line.contains("search failed"), "{line:?} (seed {seed})");
            if let Some(mv) = line.strip_prefix("bestmove ") {
                let Some(owed) = self.owed.get(self.answered) else {
                    panic!("an unasked bestmove: {line:?} (seed {seed})");
                };
                match owed {
                    Some(pos) => {
                        assert!(pos.parse_move(mv).is_ok(), "{line:?} in {}", pos.to_tps())
                    }
                    None => assert_eq!(mv, "--", "a move in a finished game"),
                }
                self.answered += 1;
            }
        }
        self.seen = lines.len();
    }

    /// Stops any search and waits for every owed `bestmove`.
    fn settle(&mut self, seed: u64) {
        self.session.handle_line("stop");
        let deadline = Instant::now() + Duration::from_secs(10);
        while self.answered < self.owed.len() {
            assert!(
                Instant::now() < deadline,
                "no bestmove 10 s after stop (seed {seed})"
            );
            std::thread::sleep(Duration::from_micros(200));
            self.check_new_lines(seed);
        }
    }
}

fn fuzz_session(seed: u64, inputs: usize) -> Tally {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut tally = Tally::default();
    while tally.inputs < inputs {
        let mut harness = Harness::new();
        let mut searching = false;
        for _ in 0..rng.random_range(1..300) {
            if tally.inputs >= inputs {
                break;
            }
            let snap = harness.session.snapshot();
            let (line, expect_errors) = match rng.random_range(0..10) {
                0..=3 => {
                    let line = valid_line(&mut rng, snap.size());
                    let is_go = line.starts_with("go");
                    if is_go && searching {
                        harness.settle(seed);
                    }
                    let over = snap.position().result().is_some() || snap.position().is_threefold();
                    (line, Some(usize::from(is_go && over)))
                }
                4 | 5 => (invalid_line(&mut rng, snap.position()), Some(1)),
                _ => {
                    let base = if rng.random_bool(0.6) {
                        valid_line(&mut rng, snap.size())
                    } else {
                        invalid_line(&mut rng, snap.position())
                    };
                    (mutate(&mut rng, &base), None)
                }
            };
            // Tables and thread pools as large as a mutation may ask are not what this checks.
            if let Ok(Some(Command::SetOption {
                name,
                value: Some(v),
            })) = parse_command(&line)
            {
                let n = v.parse::<i64>().unwrap_or(0);
                if (name.eq_ignore_ascii_case("hash") || name.eq_ignore_ascii_case("threads"))
                    && n > 2
                {
                    continue;
                }
            }
            let is_go = matches!(parse_command(&line), Ok(Some(Command::Go(_))));
            if is_go && !searching {
                harness.settle(seed);
            }
            let errors = harness.feed(&line, seed);
            if let Some(n) = expect_errors {
                assert_eq!(errors.len(), n, "{line:?} (seed {seed}): {errors:?}");
            }
            searching |= is_go && errors.is_empty();
            tally.count(errors.is_empty());
            if matches!(parse_command(&line), Ok(Some(Command::Quit))) {
                break;
            }
            // Let a search run beside a few more commands, then settle it.
            if searching && rng.random_bool(0.3) {
                harness.settle(seed);
                searching = false;
            }
        }
        harness.settle(seed);
        harness.session.finish();
    }
    tally
}

// ---------------------------------------------------------------------------------------------
// The runs

fn run(target: &str, inputs: usize, fuzz: fn(u64, usize) -> Tally) {
    let seed = seed();
    let started = Instant::now();
    let tally = fuzz(seed, inputs);
    tally.report(target, seed, started);
    assert!(tally.inputs >= inputs);
    assert!(
        tally.accepted > 0 && tally.rejected > 0,
        "{target}: one-sided inputs {tally:?}"
    );
}

#[test]
fn quick_tps() {
    run("tps", QUICK_INPUTS, fuzz_tps);
}

#[test]
fn quick_ptn_moves() {
    run("ptn moves", QUICK_INPUTS, fuzz_moves);
}

#[test]
fn quick_ptn_games() {
    run("ptn games", QUICK_INPUTS / 4, fuzz_ptn_games);
}

#[test]
fn quick_tei_parser() {
    run("tei parser", QUICK_INPUTS, fuzz_command_parser);
}

#[test]
fn quick_tei_session() {
    run("tei session", QUICK_SESSION_LINES, fuzz_session);
}

#[test]
#[ignore = "long fuzz run: cargo test --test fuzz -- --ignored --nocapture"]
fn long_tps() {
    run("tps", long_inputs(), fuzz_tps);
}

#[test]
#[ignore = "long fuzz run: cargo test --test fuzz -- --ignored --nocapture"]
fn long_ptn_moves() {
    run("ptn moves", long_inputs(), fuzz_moves);
}

#[test]
#[ignore = "long fuzz run: cargo test --test fuzz -- --ignored --nocapture"]
fn long_ptn_games() {
    run("ptn games", long_inputs(), fuzz_ptn_games);
}

#[test]
#[ignore = "long fuzz run: cargo test --test fuzz -- --ignored --nocapture"]
fn long_tei_parser() {
    run("tei parser", long_inputs(), fuzz_command_parser);
}

#[test]
#[ignore = "long fuzz run: cargo test --test fuzz -- --ignored --nocapture"]
fn long_tei_session() {
    run("tei session", long_inputs(), fuzz_session);
}
