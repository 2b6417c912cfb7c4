//! The network evaluation (docs/network.md): the accumulator the search updates move by move
//! equals a recomputation from scratch after every move and undo of random games at every
//! size; the network file round-trips and every malformed file gets one line of error; the
//! engine's integer output matches the trainer's float output on the committed test network.

use menhir::core::{Color, MoveList, Position};
use menhir::search::network::{
    self, evaluate_full, Accumulator, AccumulatorStack, InputLayout, Network,
};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// A network of random weights small enough for the overflow check (|W1| ≤ QA / 2).
fn random_network(size: usize, depth: usize, hidden: usize, buckets: usize, seed: u64) -> Network {
    let mut rng = StdRng::seed_from_u64(seed);
    let layout = InputLayout::new(size, depth);
    let net = Network {
        layout,
        hidden,
        buckets,
        qa: 255,
        qb: 64,
        scale: 400,
        residual: false,
        input_weights: (0..layout.inputs() * hidden)
            .map(|_| rng.random_range(-127..=127))
            .collect(),
        input_bias: (0..hidden).map(|_| rng.random_range(-200..=200)).collect(),
        output_weights: (0..buckets * 2 * hidden)
            .map(|_| rng.random_range(-127..=127))
            .collect(),
        output_bias: (0..buckets)
            .map(|_| rng.random_range(-5000..=5000))
            .collect(),
        header: format!("architecture: random test network {size}x{size}\n"),
    };
    // Through the file format, so the parser's checks apply to what the tests use.
    Network::parse(&net.to_bytes()).expect("a random test network parses")
}

/// The hidden layer of `pos` computed from scratch.
fn fresh(net: &Network, pos: &Position) -> Accumulator {
    let mut acc = Accumulator::zeroed();
    acc.refresh(net, pos);
    acc
}

fn assert_same_accumulator(net: &Network, a: &Accumulator, pos: &Position, what: &str) {
    let b = fresh(net, pos);
    for color in [Color::White, Color::Black] {
        assert_eq!(
            a.view(color)[..net.hidden],
            b.view(color)[..net.hidden],
            "{what}: {color:?}'s view differs from a recomputation at {}",
            pos.to_tps()
        );
    }
}

#[test]
fn incremental_accumulator_equals_a_full_recompute_after_every_move_and_undo() {
    let mut rng = StdRng::seed_from_u64(46);
    let mut moves = MoveList::new();
    for size in 3..=8 {
        let net = random_network(size, 6, 32, 4, size as u64);
        let mut stack = AccumulatorStack::new(400);
        for _game in 0..6 {
            let mut pos = Position::start(size).unwrap();
            stack.reset();
            let mut line = Vec::new();
            let mut checked = 0;
            while pos.result().is_none() && line.len() < 300 {
                let ply = line.len();
                // Now and then several moves go by unevaluated: the lazy path catches up.
                if rng.random_bool(0.7) {
                    let score = stack.evaluate(&net, &pos, ply);
                    assert_eq!(score, evaluate_full(&net, &pos), "{}", pos.to_tps());
                    assert_same_accumulator(&net, stack.at(ply), &pos, "after a move");
                    checked += 1;
                }
                // Undo a move now and then, and check the parent is intact.
                if ply > 0 && rng.random_bool(0.15) {
                    let (mv, undo) = line.pop().unwrap();
                    pos.undo_move(mv, undo);
                    let score = stack.evaluate(&net, &pos, ply - 1);
                    assert_eq!(score, evaluate_full(&net, &pos));
                    assert_same_accumulator(&net, stack.at(ply - 1), &pos, "after an undo");
                    continue;
                }
                moves.clear();
                pos.generate_moves(&mut moves);
                let mv = moves[rng.random_range(0..moves.len())];
                stack.before_move(ply, &pos, mv);
                let undo = pos.do_move(mv);
                stack.after_move(ply, &pos);
                line.push((mv, undo));
            }
            assert!(checked > 3, "{size}x{size}: too few positions checked");
        }
    }
}

#[test]
fn a_null_move_keeps_the_accumulator_and_swaps_the_view() {
    let net = random_network(6, 6, 32, 4, 9);
    let mut pos = Position::start(6).unwrap();
    for text in ["a1", "f6", "c3", "d4", "Cc4", "d3"] {
        let mv = pos.parse_move(text).unwrap();
        pos.do_move(mv);
    }
    let mut stack = AccumulatorStack::new(8);
    stack.reset();
    let before = stack.evaluate(&net, &pos, 0);
    stack.null_move(0, &pos);
    pos.do_null_move();
    let after = stack.evaluate(&net, &pos, 1);
    assert_eq!(after, evaluate_full(&net, &pos));
    assert_same_accumulator(&net, stack.at(1), &pos, "after a null move");
    assert_ne!(before, after, "the side to move's view leads the output");
}

#[test]
fn network_files_round_trip() {
    for size in 3..=8 {
        let net = random_network(size, 4, 16, 2, 100 + size as u64);
        let again = Network::parse(&net.to_bytes()).unwrap();
        assert_eq!(again.to_bytes(), net.to_bytes());
        assert_eq!(again.size(), size);
    }
}

/// The error for `bytes`, which must be refused.
fn refused(bytes: &[u8]) -> String {
    let why = Network::parse(bytes).expect_err("a malformed file must be refused");
    assert!(!why.contains('\n'), "one line: {why}");
    why
}

#[test]
fn malformed_network_files_get_one_line_each() {
    let net = random_network(6, 6, 32, 4, 7);
    let good = net.to_bytes();

    for cut in [0, 5, 9, 13, 40, good.len() / 2, good.len() - 1] {
        let why = refused(&good[..cut]);
        assert!(
            why.contains("truncated") || why.contains("not a Menhir network file"),
            "cut at {cut}: {why}"
        );
    }
    assert!(refused(&[good.clone(), vec![0]].concat()).contains("after its last weight"));

    let mut bad_magic = good.clone();
    bad_magic[0] = b'X';
    assert!(refused(&bad_magic).contains("not a Menhir network file"));

    let mut bad_version = good.clone();
    bad_version[8] = 9;
    assert!(refused(&bad_version).contains("version 9"));

    // The size byte follows the text header.
    let size_at = 14 + net.header.len();
    let mut bad_size = good.clone();
    bad_size[size_at] = 9;
    assert!(refused(&bad_size).contains("board size 9"));
    // A 6x6 file relabelled 5x5: its input count no longer fits.
    let mut wrong_size = good.clone();
    wrong_size[size_at] = 5;
    assert!(refused(&wrong_size).contains("inputs"));

    let mut bad_hidden = good.clone();
    bad_hidden[size_at + 2] = 33;
    assert!(refused(&bad_hidden).contains("not supported"));

    // Weights that could overflow the i16 accumulator.
    let mut big = net.clone();
    big.input_weights[0] = 30_000;
    assert!(refused(&big.to_bytes()).contains("overflow"));
}

#[test]
fn missing_network_file_is_one_line() {
    let why = Network::load(std::path::Path::new("/nonexistent/net.mhn")).unwrap_err();
    assert!(why.starts_with("cannot read /nonexistent/net.mhn"), "{why}");
    assert!(!why.contains('\n'));
}

/// The committed test network (hidden 16, trained by `trainer/train.py` on 40,702 6×6
/// positions), 64 positions and the trainer's float evaluation of each, written once by
/// `train.py reference` (docs/training.md): the engine's integer inference must land within the
/// error the trainer measured for its own integer simulation (the file's first line), plus the
/// one centi-flat the engine's truncation can add, and that error within 5 centi-flats.
#[test]
fn the_engines_integer_output_matches_the_trainers_float_output() {
    use menhir::train::binary_data::{decode, records};
    let dir = std::path::Path::new("tests/data/network");
    let net = Network::load(&dir.join("small-6x6.mhn")).unwrap();
    let bytes = std::fs::read(dir.join("positions-6x6.mhd")).unwrap();
    let (size, recs) = records(&bytes).unwrap();
    assert_eq!(size, 6);
    let expected = std::fs::read_to_string(dir.join("expected-6x6.txt")).unwrap();
    let mut lines = expected.lines();
    let stated: f64 = lines
        .next()
        .and_then(|l| l.strip_prefix("# max_abs_error_integer_vs_float: "))
        .and_then(|x| x.trim().parse().ok())
        .expect("the first line states the error");
    assert!(stated <= 5.0, "the quantisation's error grew to {stated}");
    let mut count = 0;
    for (rec, line) in recs.zip(lines) {
        let float: f64 = line.trim().parse().unwrap();
        let pos = decode(size, rec).unwrap().position;
        let engine = evaluate_full(&net, &pos) as f64;
        assert!(
            (engine - float).abs() <= stated + 1.0,
            "{}: engine {engine}, trainer {float}",
            pos.to_tps()
        );
        count += 1;
    }
    assert_eq!(count, 64);
}

/// A network of the residual kind adds its output to the linear evaluation; a kind byte other
/// than 0 or 1 is refused.
#[test]
fn a_residual_network_corrects_the_linear_evaluation() {
    let alone = random_network(5, 6, 16, 2, 21);
    let mut residual = alone.clone();
    residual.residual = true;
    let residual = Network::parse(&residual.to_bytes()).unwrap();
    assert!(residual.residual);
    let mut rng = StdRng::seed_from_u64(5);
    let mut pos = Position::start(5).unwrap();
    let mut moves = MoveList::new();
    for _ in 0..30 {
        if pos.result().is_some() {
            break;
        }
        let linear = menhir::search::evaluate(&pos);
        let correction = evaluate_full(&alone, &pos);
        if (linear + correction).abs() < 9000 {
            assert_eq!(evaluate_full(&residual, &pos), linear + correction);
        }
        moves.clear();
        pos.generate_moves(&mut moves);
        pos.do_move(moves[rng.random_range(0..moves.len())]);
    }
    let mut bytes = alone.to_bytes();
    let kind_at = 14 + alone.header.len() + 5;
    bytes[kind_at] = 2;
    assert!(refused(&bytes).contains("kind 2"));
}

/// Every network file kept in `weights/` (compiled in) or `weights/candidates/` (a net whose
/// matches are not all played yet) loads, for the size its name gives.
#[test]
fn network_files_load_for_the_size_in_their_name() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("weights");
    let mut seen = 0;
    for dir in [root.clone(), root.join("candidates")] {
        for entry in std::fs::read_dir(&dir).expect("the weights directories exist") {
            let path = entry.expect("a directory entry").path();
            if path.extension().and_then(|e| e.to_str()) != Some("mhn") {
                continue;
            }
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let net = Network::load(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
            let size = net.size();
            assert!(
                name.starts_with(&format!("nnue-{size}x{size}")),
                "{name} holds a {size}x{size} network"
            );
            seen += 1;
        }
    }
    assert!(seen > 0, "no network file under {}", root.display());
}

/// Each compiled-in network is the file `weights/nnue-NxN.mhn` of its size, and the sizes that
/// play one are those STRENGTH.md says won their matches.
#[test]
fn compiled_in_networks_are_the_weights_files() {
    let sizes: Vec<usize> = network::builtin_sizes().collect();
    assert_eq!(sizes, [4, 5, 6, 7, 8]);
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("weights");
    for &size in &sizes {
        let file = Network::load(&root.join(format!("nnue-{size}x{size}.mhn"))).unwrap();
        let builtin = network::builtin(size).expect("a compiled-in network");
        assert_eq!(builtin.to_bytes(), file.to_bytes(), "{size}x{size}");
    }
    for size in 3..=8 {
        assert_eq!(
            network::builtin(size).is_some(),
            sizes.contains(&size),
            "{size}x{size}"
        );
    }
}
