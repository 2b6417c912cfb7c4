//! The server's move notation against PTN, exhaustively on random games: every legal move of
//! every position reached, on every size 3 to 8, goes Move -> server text -> Move and
//! Move -> PTN -> Move unchanged, and the server text agrees with the test double's own
//! conversion (written separately from the README) both ways. Seeded and bounded by counts.

mod playtak_double;

use menhir::core::{Move, MoveList, Position};
use menhir::playtak::{from_server, parse_server_move, to_server};
use playtak_double::{ptn_to_server, server_to_ptn};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Games per size and the ply cap of each: bounded, yet reaching tall stacks and long spreads.
const GAMES_PER_SIZE: usize = 4;
const MAX_PLIES: usize = 120;

#[test]
fn every_legal_move_round_trips_through_server_notation_and_ptn() {
    let mut rng = StdRng::seed_from_u64(27);
    let mut checked = 0u64;
    let mut spreads = 0u64;
    let mut kinds = [0u64; 3];
    let mut moves = MoveList::new();
    for size in 3..=8 {
        for _ in 0..GAMES_PER_SIZE {
            let mut pos = Position::start(size).unwrap();
            for _ in 0..MAX_PLIES {
                if pos.result().is_some() {
                    break;
                }
                moves.clear();
                pos.generate_moves(&mut moves);
                for &mv in moves.iter() {
                    let server = to_server(mv, size);
                    assert_eq!(
                        from_server(&server, size),
                        Ok(mv),
                        "{server} on {size}x{size}"
                    );
                    assert_eq!(parse_server_move(&server, &pos), Ok(mv));
                    let ptn = mv.to_ptn();
                    assert_eq!(Move::parse_ptn(&ptn, size), Ok(mv));
                    assert_eq!(pos.parse_move(&ptn), Ok(mv));
                    // The double's separate conversion agrees both ways.
                    assert_eq!(
                        server_to_ptn(&server).as_deref(),
                        Some(ptn.as_str()),
                        "{server}"
                    );
                    assert_eq!(ptn_to_server(&ptn), server, "{ptn}");
                    checked += 1;
                    if mv.is_placement() {
                        kinds[mv.kind() as usize] += 1;
                    } else {
                        spreads += 1;
                    }
                }
                // Spreads more often than chance, to grow stacks.
                let spreads_here: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|m| !m.is_placement())
                    .collect();
                let mv = if !spreads_here.is_empty() && rng.random_bool(0.6) {
                    spreads_here[rng.random_range(0..spreads_here.len())]
                } else {
                    moves[rng.random_range(0..moves.len())]
                };
                pos.do_move(mv);
            }
        }
    }
    eprintln!("{checked} moves checked: {spreads} spreads, placements {kinds:?} (flat, wall, cap)");
    assert!(checked > 50_000, "{checked} moves checked");
    assert!(
        spreads > 10_000 && kinds.iter().all(|&k| k > 1000),
        "{spreads} {kinds:?}"
    );
}

#[test]
fn illegal_server_moves_are_refused_in_a_position() {
    let mut pos = Position::start(5).unwrap();
    pos.do_move(pos.parse_move("a1").unwrap());
    // The first ply of each side places a flat only; a1 is taken; nothing to spread from e5.
    for bad in ["P A1", "P B2 C", "P B2 W", "M E5 E4 1", "P F6"] {
        assert!(parse_server_move(bad, &pos).is_err(), "{bad}");
    }
    assert!(parse_server_move("P B2", &pos).is_ok());
}
