//! Position hashing: the XOR of one key per occupied square, plus a side-to-move key.
//!
//! A square's key mixes its whole stack (colour bits, height, top kind) with per-square random
//! numbers, so a spread updates the hash with two mixes per square it touches, however tall the
//! stacks are, and no large table of keys is needed.

use super::piece::{Color, PieceKind};
use super::square::Square;
use super::stack::Stack;

const fn splitmix(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const fn make_keys(seed: u64) -> [u64; 64] {
    let mut keys = [0u64; 64];
    let mut i = 0;
    while i < 64 {
        keys[i] = splitmix(seed.wrapping_add((i as u64).wrapping_mul(0x1234_5678_9ABC_DEF1)));
        i += 1;
    }
    keys
}

static LOW_KEYS: [u64; 64] = make_keys(0x6D65_6E68_6972_0001);
static HIGH_KEYS: [u64; 64] = make_keys(0x6D65_6E68_6972_0002);

/// XORed into the hash when Black is to move.
pub const SIDE_KEY: u64 = 0xA3B1_9535_4A39_B70D;

#[inline]
const fn fold_multiply(a: u64, b: u64) -> u64 {
    let full = (a as u128) * (b as u128);
    (full as u64) ^ ((full >> 64) as u64)
}

#[inline]
const fn mix(sq: usize, bits: u128, height: u64, top: u64) -> u64 {
    let low = bits as u64 ^ LOW_KEYS[sq];
    let high = (bits >> 64) as u64 ^ HIGH_KEYS[sq] ^ (height << 2 | top);
    fold_multiply(
        fold_multiply(low, high) ^ HIGH_KEYS[63 - sq],
        0x9FB2_1C65_1E98_DF25,
    )
}

/// The key of one square holding `stack` topped by `top`; zero for an empty square.
#[inline]
pub fn square_key(sq: Square, stack: Stack, top: PieceKind) -> u64 {
    if stack.is_empty() {
        return 0;
    }
    mix(sq.index(), stack.bits(), stack.len() as u64, top as u64)
}

const fn build_placement_keys() -> [[[u64; 3]; 2]; 64] {
    let mut keys = [[[0; 3]; 2]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut color = 0;
        while color < 2 {
            let mut kind = 0;
            while kind < 3 {
                keys[sq][color][kind] = mix(sq, color as u128, 1, kind as u64);
                kind += 1;
            }
            color += 1;
        }
        sq += 1;
    }
    keys
}

static PLACEMENT_KEYS: [[[u64; 3]; 2]; 64] = build_placement_keys();

/// The key of a square holding a single piece: `square_key` from a table, for placements.
#[inline]
pub fn placement_key(sq: Square, color: Color, kind: PieceKind) -> u64 {
    PLACEMENT_KEYS[sq.index()][color.index()][kind as usize]
}

/// The side-to-move part of the hash.
#[inline]
pub fn side_key(to_move: Color) -> u64 {
    match to_move {
        Color::White => 0,
        Color::Black => SIDE_KEY,
    }
}
