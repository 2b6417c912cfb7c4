//! PTN game files (src/core/game.rs): written games read back identically, the reader accepts
//! the variations other tools write, and malformed files give an error instead of a panic.

use menhir::core::{Color, GameRecord, GameResult, MoveList, Position, RecordResult, RecordedPly};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// A random legal game from `start` with a comment on some plies.
fn random_record(start: &Position, tps: Option<String>, seed: u64) -> GameRecord {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut pos = start.clone();
    let mut record = GameRecord::default();
    record.set_tag("Player1", "alice");
    record.set_tag("Player2", "bob");
    record.set_tag("Size", pos.size().to_string());
    if pos.half_komi() != 0 {
        record.set_tag("Komi", format!("{}", f64::from(pos.half_komi()) / 2.0));
    }
    record.start_tps = tps;
    let mut moves = MoveList::new();
    while pos.result().is_none() && record.plies.len() < 120 {
        moves.clear();
        pos.generate_moves(&mut moves);
        let mv = moves[rng.random_range(0..moves.len())];
        pos.do_move(mv);
        let comment = rng
            .random_bool(0.3)
            .then(|| format!("+0.{}/3 1.5s", rng.random_range(0..99)));
        record.plies.push(RecordedPly { mv, comment });
    }
    record.result = Some(match pos.result() {
        Some(result) => RecordResult::Game(result),
        None => RecordResult::Unfinished,
    });
    record
}

#[test]
fn written_games_read_back_identically() {
    for size in 3..=8 {
        for seed in 0..20 {
            let mut start = Position::start(size).unwrap();
            start.set_half_komi((seed % 5) as i32);
            let record = random_record(&start, None, seed);
            let text = record.to_string();
            let read = GameRecord::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(read, record, "{text}");
            let end = read.replay().unwrap();
            if let Some(RecordResult::Game(result)) = read.result {
                assert_eq!(end.result(), Some(result));
            }
        }
    }
}

#[test]
fn games_from_a_tps_with_black_to_move_round_trip() {
    let tps = "x4,1/x5/x2,2,x2/x5/2,x4 2 3";
    let start = Position::from_tps(tps).unwrap();
    let record = random_record(&start, Some(tps.to_string()), 7);
    let text = record.to_string();
    assert!(
        text.contains("[TPS \"x4,1/x5/x2,2,x2/x5/2,x4 2 3\"]"),
        "{text}"
    );
    assert!(text.contains("\n3. -- "), "{text}");
    assert_eq!(GameRecord::parse(&text).unwrap(), record);
    // Tiltak writes the same first ply as `3... c3`.
    let tiltak = text.replace("3. -- ", "3... ");
    assert_eq!(GameRecord::parse(&tiltak).unwrap(), record);
}

#[test]
fn several_games_in_one_file() {
    let games: Vec<GameRecord> = (0..5)
        .map(|seed| random_record(&Position::start(5).unwrap(), None, seed))
        .collect();
    let text: String = games.iter().map(|g| format!("{g}\n")).collect();
    assert_eq!(GameRecord::parse_all(&text).unwrap(), games);
    assert!(
        GameRecord::parse(&text).is_err(),
        "parse wants exactly one game"
    );
}

#[test]
fn tolerant_reading() {
    let text = "[Site \"PlayTak.com\"]\r\n[Size \"5\"]\r\n[Komi \"2\"]\r\n\r\n\
        {opening comment} 1.e5 a1{white's a1}\n2. b1' a2!? {first} {second} 3. Fc1 a3\n\
        4... d1 Sa4?? 5. Ce1'' 0-R\n{after the result}\n";
    let game = GameRecord::parse(text).unwrap();
    assert_eq!(game.tag("komi"), Some("2"));
    let moves: Vec<String> = game.plies.iter().map(|p| p.mv.to_ptn()).collect();
    assert_eq!(
        moves,
        ["e5", "a1", "b1", "a2", "c1", "a3", "d1", "Sa4", "Ce1"]
    );
    assert_eq!(game.plies[1].comment.as_deref(), Some("white's a1"));
    assert_eq!(game.plies[3].comment.as_deref(), Some("first second"));
    assert_eq!(game.plies[0].comment, None);
    assert_eq!(
        game.result,
        Some(RecordResult::Game(GameResult::Road(Color::Black)))
    );
    let end = game.replay().unwrap();
    assert_eq!(end.half_komi(), 4);
    assert_eq!(end.result(), Some(GameResult::Road(Color::White)));
    // Every result token is read.
    for token in [
        "R-0", "0-R", "F-0", "0-F", "1-0", "0-1", "1/2-1/2", "0-0", "*",
    ] {
        let game = GameRecord::parse(&format!("[Size \"4\"]\n1. a1 d4 {token}")).unwrap();
        assert_eq!(game.result.unwrap().to_string(), token);
    }
    // A wall smash marked with `*` and a spread with explicit counts.
    let smash = "[TPS \"x5/x5/x5/x,2S,x3/1C,x4 1 5\"]\n5. a1+ e5 6. 1a2>1* 0-0";
    let game = GameRecord::parse(smash).unwrap();
    assert_eq!(game.plies.len(), 3);
    assert_eq!(game.plies[2].mv.to_ptn(), "a2>");
}

#[test]
fn malformed_files_are_errors() {
    let cases = [
        ("", "no game"),
        ("1. a1 e5", "neither a Size nor a TPS"),
        ("[Size \"9\"]\n1. a1", "board size"),
        ("[Size \"five\"]\n", "Size"),
        ("[Size \"5\"]\n[Komi \"0.3\"]\n", "Komi"),
        (
            "[Size \"5\"]\n[TPS \"x4/x4/x4/x4 1 1\"]\n",
            "does not match",
        ),
        ("[Size 5]\n1. a1", "quoted"),
        ("[Size \"5\"\n1. a1", "one line"),
        ("[Si ze \"5\"]\n", "quoted"),
        ("[Size \"5\"]\n1. a1 a1", "not legal"),
        ("[Size \"5\"]\n1. a1 Ce5", "not legal"),
        ("[Size \"5\"]\n1. a1 xyz", "not a PTN move"),
        ("[Size \"5\"]\n1. a1 e6", "not a PTN move"),
        ("[Size \"5\"]\n1. a1 {never closed", "never closed"),
        ("[Size \"5\"]\n1. a1 } e5", "closes no comment"),
        ("[Size \"5\"]\n1. a1 -- e5", "placeholder"),
        ("[Size \"5\"]\n1. a1 e5 R-0 2. b1", "follow the result"),
        (
            "[Size \"3\"]\n1. a3 a1 2. b1 b2 3. c1 c2 4. a2",
            "game is over",
        ),
    ];
    for (text, why) in cases {
        match GameRecord::parse(text) {
            Ok(game) => panic!("{text:?} was read as {game:?}"),
            Err(e) => assert!(e.contains(why), "{text:?}: '{e}' does not say '{why}'"),
        }
    }
}

#[test]
fn a_game_without_moves_ends_at_its_blank_line() {
    // Racetrack writes a game forfeited before its first move as its tags and blank lines.
    let text = "[Size \"5\"]\n[Result \"1-0\"]\n\n\n\n[Size \"4\"]\n[Result \"R-0\"]\n\n\
                1. d4 a1 2. b1 a2 3. c1 a3 4. d1 R-0\n";
    let games = GameRecord::parse_all(text).unwrap();
    assert_eq!(games.len(), 2);
    assert!(games[0].plies.is_empty());
    assert_eq!(games[1].tag("Size"), Some("4"));
    assert_eq!(games[1].plies.len(), 7);
    // Blank lines before the first tags start no game.
    assert_eq!(
        GameRecord::parse_all(&format!("\n\n{text}")).unwrap(),
        games
    );
    // One damaged game leaves the others readable.
    let each = GameRecord::parse_each(&format!("[Size \"9\"]\n1. a1\n\n{text}"));
    assert_eq!(each.len(), 3);
    assert!(each[0].as_ref().unwrap_err().contains("board size"));
    assert_eq!(each[1].as_ref().unwrap(), &games[0]);
    assert_eq!(each[2].as_ref().unwrap(), &games[1]);
}

/// PTN Ninja exports variations after the main line, each a `{branch}` comment then movetext
/// whose move number goes back: the game is the main line, the branch name is no comment,
/// and a result before the variations stands.
#[test]
fn ptn_ninja_variations_are_left_out() {
    let text = "[Size \"5\"]\n[Opening \"swap\"]\n\n1. a1 e5\n2. b1 {main} a2\n3. c1 a3\n\n\
        {3w1}\n3. d4? a3\n4. d3 b4\n\n{3w1/4w1}\n4. Sd2 e4\n";
    let game = GameRecord::parse(text).unwrap();
    let moves: Vec<String> = game.plies.iter().map(|p| p.mv.to_ptn()).collect();
    assert_eq!(moves, ["a1", "e5", "b1", "a2", "c1", "a3"]);
    assert_eq!(game.plies[2].comment.as_deref(), Some("main"));
    assert_eq!(game.plies[5].comment, None);
    let finished = text.replace("3. c1 a3\n", "3. c1 a3 1-0\n");
    let game = GameRecord::parse(&finished).unwrap();
    assert_eq!(game.plies.len(), 6);
    assert_eq!(game.result.unwrap().to_string(), "1-0");
    // A comment then a move number that does not go back is still the main line.
    let game = GameRecord::parse("[Size \"5\"]\n1. a1 e5 {note}\n2. b1 a2").unwrap();
    assert_eq!(game.plies.len(), 4);
    assert_eq!(game.plies[1].comment.as_deref(), Some("note"));
}
