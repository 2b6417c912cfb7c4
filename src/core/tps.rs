//! TPS (Tak Positional System): `<board> <player> <move>`, read in both the compressed (`x5`)
//! and the spelled-out (`x,x,x,x,x`) forms, written compressed.

use super::bitboard::Bitboard;
use super::piece::{Color, PieceKind};
use super::position::{starting_reserves, Position};
use super::square::{Square, MAX_SIZE, MIN_SIZE};
use super::stack::{Stack, MAX_HEIGHT};
use std::fmt::Write;

/// A number written with ASCII digits only (Rust's own parser would also take a `+`).
fn digits<T: std::str::FromStr>(text: &str) -> Option<T> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// One parsed square of a TPS row: its stack and top kind.
fn parse_stack(text: &str) -> Result<(Stack, PieceKind), String> {
    let (colours, kind) = match text.as_bytes().last() {
        Some(b'S') => (&text[..text.len() - 1], PieceKind::Wall),
        Some(b'C') => (&text[..text.len() - 1], PieceKind::Cap),
        _ => (text, PieceKind::Flat),
    };
    if colours.is_empty() {
        return Err(format!("stack '{text}' has no pieces"));
    }
    if colours.len() > MAX_HEIGHT {
        return Err(format!("stack '{text}' is taller than {MAX_HEIGHT} pieces"));
    }
    let mut stack = Stack::EMPTY;
    for c in colours.chars() {
        match c {
            '1' => stack.push(Color::White),
            '2' => stack.push(Color::Black),
            'S' | 'C' => {
                return Err(format!(
                    "stack '{text}': a wall or capstone can only be on top"
                ))
            }
            _ => return Err(format!("stack '{text}': unexpected character '{c}'")),
        }
    }
    Ok((stack, kind))
}

impl Position {
    /// Parses a TPS string (three whitespace-separated fields).
    ///
    /// ```
    /// use menhir::core::Position;
    /// let pos = Position::from_tps("x4,1/x5/x5/x5/2,x4 1 2").unwrap();
    /// assert_eq!(pos.to_tps(), "x4,1/x5/x5/x5/2,x4 1 2");
    /// assert!(Position::from_tps("x4/x5/x5/x5/x5 1 1").is_err());
    /// ```
    pub fn from_tps(tps: &str) -> Result<Position, String> {
        let fields: Vec<&str> = tps.split_whitespace().collect();
        let [board, player, move_number] = fields[..] else {
            return Err(format!(
                "TPS needs 3 fields (board, player, move number), found {}",
                fields.len()
            ));
        };
        let rows: Vec<&str> = board.split('/').collect();
        let size = rows.len();
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(format!(
                "TPS board has {size} rows; sizes 3 to 8 are supported"
            ));
        }
        let mut pos = Position::start(size)?;
        for (i, row) in rows.iter().enumerate() {
            let rank = size - 1 - i;
            let mut file = 0;
            for cell in row.split(',') {
                if cell.is_empty() {
                    return Err(format!("row {} has an empty square entry", i + 1));
                }
                if let Some(run) = cell.strip_prefix('x') {
                    let n = if run.is_empty() {
                        1
                    } else {
                        match digits(run).filter(|_| run.len() == 1) {
                            Some(n) if (1..=MAX_SIZE).contains(&n) => n,
                            _ => return Err(format!("'{cell}' is not a run of empty squares")),
                        }
                    };
                    file += n;
                    if file > size {
                        break;
                    }
                    continue;
                }
                let (stack, kind) = parse_stack(cell)?;
                let sq = Square::new(file, rank, size)
                    .ok_or_else(|| format!("row {} has more than {size} squares", i + 1))?;
                pos.put_stack(sq, stack, kind);
                file += 1;
            }
            if file != size {
                return Err(format!(
                    "row {} has {file} squares, but the board has {size} rows",
                    i + 1
                ));
            }
        }
        let to_move = match player {
            "1" => Color::White,
            "2" => Color::Black,
            _ => return Err(format!("player to move must be 1 or 2, not '{player}'")),
        };
        let number: u16 = match digits(move_number) {
            Some(n) if (1..=10_000).contains(&n) => n,
            _ => {
                return Err(format!(
                    "move number must be a positive integer, not '{move_number}'"
                ))
            }
        };
        pos.set_turn(to_move, 2 * (number - 1) + to_move as u16);
        pos.set_reserves_from_board()?;
        Ok(pos)
    }

    /// Derives reserves from the pieces on the board; errors if a colour has too many.
    fn set_reserves_from_board(&mut self) -> Result<(), String> {
        let (stones, caps) = starting_reserves(self.size());
        for color in Color::ALL {
            let mut on_board = 0u32;
            let mut caps_on_board = 0u32;
            for sq in self.board() {
                let stack = self.stack(sq);
                let (white, black) = stack.counts();
                on_board += if color == Color::White { white } else { black };
                if self.caps().contains(sq) && stack.top() == Some(color) {
                    caps_on_board += 1;
                }
            }
            let stones_used = on_board - caps_on_board;
            if caps_on_board > caps as u32 {
                return Err(format!(
                    "player {} has {caps_on_board} capstone(s) on the board, more than the {caps} of a {}x{} game",
                    color as usize + 1,
                    self.size(),
                    self.size()
                ));
            }
            if stones_used > stones as u32 {
                return Err(format!(
                    "player {} has {stones_used} stone(s) on the board, more than the {stones} of a {}x{} game",
                    color as usize + 1,
                    self.size(),
                    self.size()
                ));
            }
            self.stones[color.index()] = stones - stones_used as u8;
            self.capstones[color.index()] = caps - caps_on_board as u8;
        }
        Ok(())
    }

    /// Writes the position as TPS, compressing runs of empty squares (`x5`).
    pub fn to_tps(&self) -> String {
        let size = self.size();
        let mut out = String::new();
        for rank in (0..size).rev() {
            let mut empties = 0;
            let mut first = true;
            let flush = |out: &mut String, empties: &mut usize, first: &mut bool| {
                if *empties > 0 {
                    if !*first {
                        out.push(',');
                    }
                    out.push('x');
                    if *empties > 1 {
                        let _ = write!(out, "{empties}");
                    }
                    *empties = 0;
                    *first = false;
                }
            };
            for file in 0..size {
                let sq = Square::new(file, rank, size).expect("on board");
                let stack = self.stack(sq);
                if stack.is_empty() {
                    empties += 1;
                    continue;
                }
                flush(&mut out, &mut empties, &mut first);
                if !first {
                    out.push(',');
                }
                first = false;
                for c in stack.iter() {
                    out.push(if c == Color::White { '1' } else { '2' });
                }
                out.push_str(self.top_kind(sq).ptn_prefix());
            }
            flush(&mut out, &mut empties, &mut first);
            if rank > 0 {
                out.push('/');
            }
        }
        let player = self.to_move() as usize + 1;
        let number = self.ply() / 2 + 1;
        let _ = write!(out, " {player} {number}");
        out
    }

    /// Squares where the bitboards and stacks agree (a consistency check for tests).
    pub fn is_consistent(&self) -> bool {
        let mut tops = [Bitboard::EMPTY; 2];
        for sq in self.board() {
            if let Some(c) = self.stack(sq).top() {
                tops[c.index()].set(sq);
            }
        }
        let occupied = tops[0] | tops[1];
        tops == [self.tops(Color::White), self.tops(Color::Black)]
            && (self.walls() | self.caps()) & !occupied == Bitboard::EMPTY
            && (self.walls() & self.caps()).is_empty()
            && self.hash() == self.hash_from_scratch()
    }
}
