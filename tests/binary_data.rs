//! The binary training-data format (docs/network.md): every position of random games at every
//! size survives text → binary → text; `datagen` writes the same records as converting its
//! text; a malformed file gets one line of error and no output. Run: `cargo test --test
//! binary_data`.

use menhir::core::{MoveList, Position};
use menhir::train::binary_data::{self, decode, encode, read_header, record_len, records};
use menhir::train::DataLine;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::path::PathBuf;
use std::process::Command;

/// Positions of a random game of `size`, with varied komi, scores and results.
fn random_lines(size: usize, rng: &mut StdRng) -> Vec<DataLine> {
    let mut pos = Position::start(size).unwrap();
    pos.set_half_komi(rng.random_range(-4..=8));
    let mut lines = Vec::new();
    let mut moves = MoveList::new();
    while pos.result().is_none() && lines.len() < 400 {
        lines.push(DataLine {
            position: pos.clone(),
            score: rng.random_range(-10_000..=10_000),
            result: [0.0, 0.5, 1.0][rng.random_range(0..3)],
            best: None,
            last: None,
        });
        moves.clear();
        pos.generate_moves(&mut moves);
        // Spreads more often than chance: tall stacks are what the format must keep.
        let spreads: Vec<_> = moves.iter().filter(|m| !m.is_placement()).collect();
        let mv = if !spreads.is_empty() && rng.random_bool(0.6) {
            *spreads[rng.random_range(0..spreads.len())]
        } else {
            moves[rng.random_range(0..moves.len())]
        };
        pos.do_move(mv);
    }
    lines
}

#[test]
fn every_position_survives_text_to_binary_and_back() {
    let mut rng = StdRng::seed_from_u64(46);
    for size in 3..=8 {
        let mut tallest = 0;
        for _ in 0..8 {
            for line in random_lines(size, &mut rng) {
                let mut bytes = Vec::new();
                encode(&line, &mut bytes);
                assert_eq!(bytes.len(), record_len(size));
                let back = decode(size, &bytes).unwrap();
                assert_eq!(back.to_line(), line.to_line());
                assert_eq!(back.position.ply(), line.position.ply());
                tallest = tallest.max(
                    line.position
                        .occupied()
                        .map(|sq| line.position.stack(sq).len())
                        .max()
                        .unwrap_or(0),
                );
            }
        }
        assert!(tallest >= 4, "{size}x{size}: no tall stack was tried");
    }
}

#[test]
fn record_lengths_are_the_documented_ones() {
    let documented = [(3, 35), (4, 50), (5, 70), (6, 94), (7, 123), (8, 155)];
    for (size, len) in documented {
        assert_eq!(record_len(size), len, "{size}x{size}");
    }
}

fn refused(bytes: &[u8]) -> String {
    let why = match records(bytes) {
        Ok(_) => panic!("a malformed file must be refused"),
        Err(why) => why,
    };
    assert!(!why.contains('\n'), "{why}");
    why
}

#[test]
fn malformed_binary_files_get_one_line_each() {
    let mut rng = StdRng::seed_from_u64(1);
    let mut file = binary_data::header(5).to_vec();
    for line in random_lines(5, &mut rng).iter().take(3) {
        encode(line, &mut file);
    }
    assert_eq!(read_header(&file).unwrap(), 5);

    assert!(refused(&file[..file.len() - 1]).contains("truncated"));
    assert!(refused(&file[..10]).contains("not a Menhir binary data file"));
    let mut bad = file.clone();
    bad[3] = b'x';
    assert!(refused(&bad).contains("not a Menhir binary data file"));
    let mut bad = file.clone();
    bad[8] = 2;
    assert!(refused(&bad).contains("version 2"));
    let mut bad = file.clone();
    bad[10] = 9;
    assert!(refused(&bad).contains("board size 9"));
    let mut bad = file.clone();
    bad[10] = 6;
    assert!(refused(&bad).contains("records of 70 bytes"));

    // A record that contradicts itself: reserves that do not match the board.
    let rec = &file[16..16 + record_len(5)];
    let mut bad = rec.to_vec();
    bad[8] = bad[8].wrapping_sub(1);
    assert!(decode(5, &bad).unwrap_err().contains("reserves"));
    let mut bad = rec.to_vec();
    bad[2] = 3;
    assert!(decode(5, &bad).unwrap_err().contains("result"));
}

fn menhir(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_menhir"))
        .args(args)
        .output()
        .unwrap()
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("menhir-binary-data-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn datagen_writes_what_convert_data_makes_of_its_text() {
    let (text, bin, converted, back) = (
        temp("g.data"),
        temp("g.mhd"),
        temp("c.mhd"),
        temp("back.data"),
    );
    let common = [
        "datagen", "--size", "4", "--games", "4", "--nodes", "200", "--seed", "5",
    ];
    for out in [&text, &bin] {
        let run = menhir(&[&common[..], &["--out", out.to_str().unwrap()]].concat());
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
    }
    let run = menhir(&[
        "convert-data",
        text.to_str().unwrap(),
        "--out",
        converted.to_str().unwrap(),
    ]);
    assert!(run.status.success());
    assert_eq!(
        std::fs::read(&bin).unwrap(),
        std::fs::read(&converted).unwrap()
    );
    let run = menhir(&[
        "convert-data",
        bin.to_str().unwrap(),
        "--out",
        back.to_str().unwrap(),
    ]);
    assert!(run.status.success());
    let original: Vec<String> = std::fs::read_to_string(&text)
        .unwrap()
        .lines()
        .map(|l| l.split(';').take(4).collect::<Vec<_>>().join(";"))
        .collect();
    let again: Vec<String> = std::fs::read_to_string(&back)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(original, again);
}

#[test]
fn convert_data_refuses_bad_input_in_one_line_and_writes_nothing() {
    let bad = temp("bad.data");
    std::fs::write(&bad, "x4/x4/x4/x4 1 1;0;12;1.0\nnot a line\n").unwrap();
    let out = temp("never.mhd");
    let run = menhir(&[
        "convert-data",
        bad.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    assert!(stderr.contains("line 2"), "{stderr}");
    assert!(!out.exists());

    let mixed = temp("mixed.data");
    std::fs::write(
        &mixed,
        "x4/x4/x4/x4 1 1;0;12;1.0\nx5/x5/x5/x5/x5 1 1;0;12;1.0\n",
    )
    .unwrap();
    let run = menhir(&[
        "convert-data",
        mixed.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("one size a file"), "{stderr}");
    assert!(!out.exists());
}
