//! The server's move notation (playtak-api `server/README.md`): `P A1`, `P A1 W`, `P A1 C` for
//! placements and `M A1 A3 1 2` for spreads (start square, end square, then the pieces dropped
//! on each square travelled, last square included). Squares are a capital file letter and a
//! rank digit, as PTN's but upper-case.

use crate::core::{Direction, Move, PieceKind, Position, Square};

/// The server text of a move on a board of `size` (without the `Game#N ` prefix).
///
/// ```
/// use menhir::core::Move;
/// use menhir::playtak::to_server;
/// assert_eq!(to_server(Move::parse_ptn("Cb2", 5).unwrap(), 5), "P B2 C");
/// assert_eq!(to_server(Move::parse_ptn("3a1+12", 5).unwrap(), 5), "M A1 A3 1 2");
/// ```
pub fn to_server(mv: Move, size: usize) -> String {
    let sq = mv.square();
    if mv.is_placement() {
        return match mv.kind() {
            PieceKind::Flat => format!("P {}", square_text(sq)),
            PieceKind::Wall => format!("P {} W", square_text(sq)),
            PieceKind::Cap => format!("P {} C", square_text(sq)),
        };
    }
    let mut end = sq;
    for _ in 0..mv.distance() {
        // A move built by the core stays on the board; the fallback only keeps this total.
        end = end.step(mv.direction(), size).unwrap_or(end);
    }
    let mut text = format!("M {} {}", square_text(sq), square_text(end));
    for d in mv.drops() {
        text.push(' ');
        text.push_str(&d.to_string());
    }
    text
}

/// `A1` for a1.
fn square_text(sq: Square) -> String {
    format!("{}{}", (b'A' + sq.file() as u8) as char, sq.rank() + 1)
}

/// Parses a server square (`A1`..`H8`) on a board of `size`.
fn parse_square(text: &str, size: usize) -> Result<Square, String> {
    let b = text.as_bytes();
    if b.len() != 2 || !(b'A'..=b'H').contains(&b[0]) || !(b'1'..=b'8').contains(&b[1]) {
        return Err(format!("'{text}' is not a server square (A1 to H8)"));
    }
    Square::new((b[0] - b'A') as usize, (b[1] - b'1') as usize, size)
        .ok_or_else(|| format!("square {text} is off the {size}x{size} board"))
}

/// Parses server move text (the words after `Game#N`) for a board of `size`. Checks the
/// syntax and the geometry, not legality in a position (see [`parse_server_move`]).
///
/// ```
/// use menhir::playtak::from_server;
/// assert_eq!(from_server("M C3 A3 2 1", 5).unwrap().to_ptn(), "3c3<21");
/// assert!(from_server("M C3 A2 1", 5).is_err());
/// ```
pub fn from_server(text: &str, size: usize) -> Result<Move, String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let bad = |why: &str| Err(format!("'{text}' is not a server move: {why}"));
    match words.as_slice() {
        ["P", sq, rest @ ..] => {
            let sq = parse_square(sq, size)?;
            let kind = match rest {
                [] => PieceKind::Flat,
                ["W"] => PieceKind::Wall,
                ["C"] => PieceKind::Cap,
                _ => return bad("a placement ends with nothing, W or C"),
            };
            Ok(Move::place(sq, kind))
        }
        ["M", from, to, drops @ ..] => {
            let from = parse_square(from, size)?;
            let to = parse_square(to, size)?;
            let (df, dr) = (
                to.file() as isize - from.file() as isize,
                to.rank() as isize - from.rank() as isize,
            );
            let (dir, distance) = match (df, dr) {
                (0, d) if d > 0 => (Direction::North, d),
                (0, d) if d < 0 => (Direction::South, -d),
                (d, 0) if d > 0 => (Direction::East, d),
                (d, 0) if d < 0 => (Direction::West, -d),
                _ => return bad("the end square is not on a line from the start square"),
            };
            let mut counts = Vec::with_capacity(drops.len());
            for d in drops {
                match d.parse::<u32>() {
                    Ok(n) => counts.push(n),
                    Err(_) => return bad("a drop count is not a number"),
                }
            }
            if counts.len() != distance as usize {
                return bad("one drop count is needed per square travelled");
            }
            if counts.iter().sum::<u32>() as usize > size {
                return bad("more pieces carried than the carry limit");
            }
            Move::spread_from_drops(from, dir, &counts).map_or_else(|| bad("bad drop counts"), Ok)
        }
        _ => bad("expected 'P SQ [W|C]' or 'M SQ SQ N...'"),
    }
}

/// Parses server move text and checks the move is legal in `pos`.
pub fn parse_server_move(text: &str, pos: &Position) -> Result<Move, String> {
    let mv = from_server(text, pos.size())?;
    if !pos.is_legal(mv) {
        return Err(format!("'{text}' ({}) is not legal here", mv.to_ptn()));
    }
    Ok(mv)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(ptn: &str, server: &str, size: usize) {
        let mv = Move::parse_ptn(ptn, size).unwrap();
        assert_eq!(to_server(mv, size), server);
        assert_eq!(from_server(server, size).unwrap(), mv);
    }

    #[test]
    fn every_kind_of_move() {
        round_trip("a1", "P A1", 5);
        round_trip("Sc3", "P C3 W", 5);
        round_trip("Ce5", "P E5 C", 5);
        round_trip("a1+", "M A1 A2 1", 5);
        round_trip("2c3-", "M C3 C2 2", 5);
        round_trip("3c3>21", "M C3 E3 2 1", 5);
        round_trip("5h8<1112", "M H8 D8 1 1 1 2", 8);
        round_trip("6a1+111111", "M A1 A7 1 1 1 1 1 1", 8);
    }

    #[test]
    fn malformed_server_moves_are_errors() {
        for bad in [
            "",
            "P",
            "P A",
            "P a1",
            "P A9",
            "P F1",
            "P A1 X",
            "P A1 C W",
            "M A1",
            "M A1 A1 1",
            "M A1 B2 1",
            "M A1 A3 1",
            "M A1 A2 0",
            "M A1 A2 x",
            "M A1 A2 6",
            "Q A1",
        ] {
            assert!(from_server(bad, 5).is_err(), "{bad:?} accepted");
        }
    }
}
