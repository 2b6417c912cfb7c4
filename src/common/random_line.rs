//! Random opening lines: the variety of self-play and matches comes from a few uniformly random
//! legal plies at the start of a game.

use crate::core::{Move, MoveList, Position};
use rand::rngs::StdRng;
use rand::Rng;

/// A start position of `size` with `half_komi` after `plies` uniformly random legal plies
/// drawn from `rng`, and those plies. A line that already decides the game is no opening: it is
/// drawn again (from where `rng` stands), so the position returned is never over.
pub fn random_line(
    size: usize,
    half_komi: i32,
    plies: usize,
    rng: &mut StdRng,
) -> (Position, Vec<Move>) {
    let mut moves = MoveList::new();
    loop {
        let mut pos = Position::start(size).expect("size checked by the caller");
        pos.set_half_komi(half_komi);
        let mut line = Vec::with_capacity(plies);
        for _ in 0..plies {
            moves.clear();
            pos.generate_moves(&mut moves);
            let mv = moves[rng.random_range(0..moves.len())];
            pos.do_move(mv);
            line.push(mv);
            if pos.result().is_some() {
                break;
            }
        }
        if pos.result().is_none() {
            return (pos, line);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn lines_are_legal_undecided_and_repeat_from_a_seed() {
        let mut rng = StdRng::seed_from_u64(5);
        for _ in 0..200 {
            let (pos, line) = random_line(3, 0, 6, &mut rng);
            assert!(pos.result().is_none());
            assert_eq!(line.len(), 6);
            let mut replay = Position::start(3).unwrap();
            for &mv in &line {
                assert!(replay.is_legal(mv));
                replay.do_move(mv);
            }
            assert_eq!(replay.hash(), pos.hash());
        }
        let draw = |seed| random_line(6, 4, 4, &mut StdRng::seed_from_u64(seed)).1;
        assert_eq!(draw(9), draw(9));
    }
}
