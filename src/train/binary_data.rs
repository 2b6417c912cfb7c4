//! The binary training-data format (`.mhd`, docs/network.md "Binary training data"): a 16-byte
//! header naming the board size, then one fixed-length record per position that holds the
//! whole position (every stack, lossless), the search score, the result, the ply, the komi and
//! the linear evaluation.
//! The network's trainer reads it as one numpy array; `menhir convert-data` turns the text
//! format into it and back. The chosen and last moves of the text format are not kept (the
//! policy's fit reads text).

use super::data_line::DataLine;
use crate::core::{komi_text, starting_reserves, Color, PieceKind, Position, Square};
use crate::search::evaluate;
use std::fmt::Write as _;
use std::path::Path;

/// The file's first eight bytes.
pub const MAGIC: &[u8; 8] = b"MENHIRDB";
/// The version written and read.
pub const VERSION: u16 = 1;
/// Bytes before the first record.
pub const HEADER_LEN: usize = 16;
/// The file name extension that selects the binary format (`datagen --out`, `convert-data`).
pub const EXTENSION: &str = "mhd";
/// Bytes of a record before the squares.
const FIXED_LEN: usize = 14;

/// Whether `path` names a binary data file (by its extension).
pub fn is_binary_path(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == EXTENSION)
}

/// The length of one record at `size`: the fixed fields, top and height per square, and one bit
/// per piece that can lie under a top.
pub const fn record_len(size: usize) -> usize {
    let (stones, caps) = starting_reserves(size);
    let pieces = 2 * (stones as usize + caps as usize);
    FIXED_LEN + 2 * size * size + pieces.div_ceil(8)
}

/// The file header for `size`.
pub fn header(size: usize) -> [u8; HEADER_LEN] {
    let mut h = [0u8; HEADER_LEN];
    h[..8].copy_from_slice(MAGIC);
    h[8..10].copy_from_slice(&VERSION.to_le_bytes());
    h[10] = size as u8;
    h[12..16].copy_from_slice(&(record_len(size) as u32).to_le_bytes());
    h
}

/// The board size of a file's header; the error says what is wrong.
pub fn read_header(bytes: &[u8]) -> Result<usize, String> {
    if bytes.len() < HEADER_LEN || &bytes[..8] != MAGIC {
        return Err("not a Menhir binary data file (it does not start with MENHIRDB)".into());
    }
    let version = u16::from_le_bytes([bytes[8], bytes[9]]);
    if version != VERSION {
        return Err(format!(
            "binary data version {version}: this build reads version {VERSION}"
        ));
    }
    let size = bytes[10] as usize;
    if !(crate::core::MIN_SIZE..=crate::core::MAX_SIZE).contains(&size) {
        return Err(format!("binary data for board size {size} (3 to 8 exist)"));
    }
    let len = u32::from_le_bytes([bytes[12], bytes[13], bytes[14], bytes[15]]) as usize;
    if len != record_len(size) {
        return Err(format!(
            "binary data records of {len} bytes; {size}x{size} records have {}",
            record_len(size)
        ));
    }
    Ok(size)
}

/// A square's top code: 0 empty, 1–3 White flat, wall, capstone, 4–6 Black's.
fn top_code(pos: &Position, sq: Square) -> u8 {
    match pos.top(sq) {
        None => 0,
        Some((color, kind)) => 1 + 3 * color.index() as u8 + kind as u8,
    }
}

/// The board's squares in board-index order (`rank · N + file`).
fn board_squares(size: usize) -> impl Iterator<Item = Square> {
    (0..size * size).map(move |i| Square::new(i % size, i / size, size).expect("on the board"))
}

/// Appends `line`'s record to `out`.
pub fn encode(line: &DataLine, out: &mut Vec<u8>) {
    let pos = &line.position;
    let size = pos.size();
    let start = out.len();
    out.resize(start + record_len(size), 0);
    let rec = &mut out[start..];
    rec[0..2].copy_from_slice(&(line.score as i16).to_le_bytes());
    rec[2] = (line.result * 2.0).round() as u8;
    rec[3] = pos.to_move().index() as u8;
    rec[4..6].copy_from_slice(&(pos.ply() as u16).to_le_bytes());
    rec[6] = pos.half_komi() as i8 as u8;
    rec[8] = pos.stones(Color::White) as u8;
    rec[9] = pos.stones(Color::Black) as u8;
    rec[10] = pos.capstones(Color::White) as u8;
    rec[11] = pos.capstones(Color::Black) as u8;
    // The linear evaluation, which a network of the residual kind corrects.
    rec[12..14].copy_from_slice(&(evaluate(pos) as i16).to_le_bytes());
    let s = size * size;
    let mut bit = 0;
    for (i, sq) in board_squares(size).enumerate() {
        let stack = pos.stack(sq);
        rec[FIXED_LEN + i] = top_code(pos, sq);
        rec[FIXED_LEN + s + i] = stack.len() as u8;
        for d in 0..stack.len().saturating_sub(1) {
            if stack.get(stack.len() - 2 - d) == Color::Black {
                rec[FIXED_LEN + 2 * s + bit / 8] |= 1 << (bit % 8);
            }
            bit += 1;
        }
    }
}

/// Reads a record of a `size` file back into a data line (without moves); the error says what
/// is wrong.
pub fn decode(size: usize, rec: &[u8]) -> Result<DataLine, String> {
    if rec.len() != record_len(size) {
        return Err(format!(
            "a record of {} bytes, not {}",
            rec.len(),
            record_len(size)
        ));
    }
    let s = size * size;
    let colour_bit = |bit: usize| rec[FIXED_LEN + 2 * s + bit / 8] >> (bit % 8) & 1;
    // The position as TPS, checked by the TPS reader (reserves are checked against it below).
    let mut rows = vec![String::new(); size];
    let mut bit = 0;
    for (i, row) in (0..s).map(|i| (i, i / size)) {
        let (code, height) = (rec[FIXED_LEN + i], rec[FIXED_LEN + s + i] as usize);
        let text = &mut rows[row];
        if i % size > 0 {
            text.push(',');
        }
        match (code, height) {
            (0, 0) => text.push('x'),
            (1..=6, 1..) => {
                let mut under = Vec::with_capacity(height - 1);
                for _ in 1..height {
                    under.push(colour_bit(bit));
                    bit += 1;
                }
                for &b in under.iter().rev() {
                    text.push(if b == 1 { '2' } else { '1' });
                }
                text.push(if code >= 4 { '2' } else { '1' });
                match PieceKind::from_index(((code - 1) % 3) as usize) {
                    Some(PieceKind::Wall) => text.push('S'),
                    Some(PieceKind::Cap) => text.push('C'),
                    _ => {}
                }
            }
            _ => return Err(format!("square {i}: top {code} with height {height}")),
        }
    }
    let side = rec[3];
    let ply = u16::from_le_bytes([rec[4], rec[5]]) as usize;
    if side > 1 || ply % 2 != side as usize {
        return Err(format!("side to move {side} does not match ply {ply}"));
    }
    let mut tps = rows.into_iter().rev().collect::<Vec<_>>().join("/");
    let _ = write!(tps, " {} {}", side + 1, ply / 2 + 1);
    let mut position = Position::from_tps(&tps).map_err(|e| format!("bad position: {e}"))?;
    let half_komi = rec[6] as i8 as i32;
    if !crate::core::HALF_KOMI_RANGE.contains(&half_komi) {
        return Err(format!("komi {} out of range", komi_text(half_komi)));
    }
    position.set_half_komi(half_komi);
    let reserves = [rec[8], rec[9], rec[10], rec[11]].map(u32::from);
    let expected = [
        position.stones(Color::White),
        position.stones(Color::Black),
        position.capstones(Color::White),
        position.capstones(Color::Black),
    ];
    if reserves != expected {
        return Err(format!(
            "reserves {reserves:?} do not match the board's {expected:?}"
        ));
    }
    let score = i16::from_le_bytes([rec[0], rec[1]]) as i32;
    if score.abs() > 10_000 || rec[2] > 2 {
        return Err(format!("score {score} or result {} out of range", rec[2]));
    }
    Ok(DataLine {
        position,
        score,
        result: f64::from(rec[2]) / 2.0,
        best: None,
        last: None,
    })
}

/// The records of a binary data file's bytes, with its size; a wrong header or a length that is
/// not whole records is refused.
pub fn records(bytes: &[u8]) -> Result<(usize, impl Iterator<Item = &[u8]>), String> {
    let size = read_header(bytes)?;
    let body = &bytes[HEADER_LEN..];
    let len = record_len(size);
    if !body.len().is_multiple_of(len) {
        return Err(format!(
            "truncated binary data: {} bytes after the header is not a whole number of \
             {len}-byte records",
            body.len()
        ));
    }
    Ok((size, body.chunks_exact(len)))
}
