//! Perft against every count of ../shared/perft/published.md (terminal = 0 and terminal = 1
//! conventions) and the deeper counts of issue 2.
//!
//! `cargo test` checks every position to depth 3 or more and the start positions to depth 4.
//! The deeper rows are `#[ignore]`d, in two groups:
//!
//! ```text
//! cargo test --release --test perft -- --ignored deep    # every count up to ~13e9 nodes
//! cargo test --release --test perft -- --ignored huge    # the 7 biggest counts (5e9-49e9 each)
//! ```
//!
//! Sources, as published.md tags them: TP = Topaz (`src/perft.zig`, README), TL = Tiltak
//! (`src/tests/move_gen_*s_tests.rs`), FT = fast-tak, TZ = Takuzu. Counts not in published.md
//! come from issue 2, which had them computed by an independent engine: row B as a TPS to depth
//! 5 (`carry_5x5`), row C as a TPS to depth 4 (`suicide_5x5`).

use menhir::core::{MoveList, Perft, PerftMode, Position};

fn position(size: usize, moves: &str) -> Position {
    let mut pos = Position::start(size).unwrap();
    for text in moves.split_whitespace() {
        let mv = pos
            .parse_move(text)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        pos.do_move(mv);
    }
    pos
}

fn tps(text: &str) -> Position {
    Position::from_tps(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Checks `expected[d]` for every depth d up to `max_depth`, in both counting and (for the
/// shallow depths) full make/unmake mode.
fn check(mut pos: Position, expected: &[u64], max_depth: usize) {
    let mut perft = Perft::new();
    for (depth, &want) in expected.iter().enumerate().take(max_depth + 1) {
        let got = perft.count(&mut pos, depth, PerftMode::Counting);
        assert_eq!(got, want, "depth {depth} (counting) of {}", pos.to_tps());
        if depth <= 3 {
            let full = perft.count(&mut pos, depth, PerftMode::Full);
            assert_eq!(full, want, "depth {depth} (full) of {}", pos.to_tps());
        }
    }
}

macro_rules! perft_tests {
    ($($name:ident: $pos:expr, [$($n:expr),*], quick $quick:expr;)*) => {
        mod quick {
            use super::*;
            $(#[test] fn $name() { check($pos, &[$($n),*], $quick); })*
        }
        mod deep {
            use super::*;
            $(#[test] #[ignore = "deep perft: cargo test --release --test perft -- --ignored deep"]
              fn $name() { let v = [$($n),*]; check($pos, &v, v.len() - 1); })*
        }
    };
}

const B: &str = "c2 c3 d3 b3 c4 1c2+ 1d3< 1b3> 1c4- Cc2 a1 1c2+ a2";
const C: &str = "c4 c2 d2 c3 b2 d3 1d2+ b3 d2 b4 1c2+ 1b3> 2d3< 1c4- d4 5c3<23 c2 c4 1d4< d3 1d2+ 1c3+ Cc3 2c4> 1c3< d2 c3 1d2+ 1c3+ 1b4> 2b3>11 3c4-12 d2 c4 b4 c5 1b3> 1c4< 3c3- e5 e2";

perft_tests! {
    start3: position(3, ""), [1, 9, 72, 1_200, 17_792, 271_812, 3_712_952, 52_364_896, 679_639_648], quick 5;
    start4: position(4, ""), [1, 16, 240, 7_440, 216_464, 6_468_872, 181_954_216], quick 4;
    start5: position(5, ""), [1, 25, 600, 43_320, 2_999_784, 187_855_252], quick 4;
    start6: position(6, ""), [1, 36, 1_260, 132_720, 13_586_048, 1_253_506_520], quick 4;
    start7: position(7, ""), [1, 49, 2_352, 339_696, 48_051_008], quick 4;
    start8: position(8, ""), [1, 64, 4_032, 764_064, 142_512_336], quick 4;
    a_5x5: position(5, "d3 c3 c4 1d3< 1c4- Sc4"), [1, 87, 6_155, 461_800], quick 3;
    b_5x5: position(5, B), [1, 104, 7_743, 592_645], quick 3;
    c_5x5: position(5, C), [1, 85, 11_204, 956_736], quick 3;
    d_6x6: position(6, B), [1, 190, 20_698], quick 2;
    g_6x6: tps("2,2,21S,2,2,2/2,x,222221,2,2,x/1,1,2221C,x,111112C,2S/x,1,2S,x2,121211212/1,1,1212S,1S,2,1S/x2,2,1,21,1 1 42"), [1, 140, 21_402, 2_774_593, 395_359_484], quick 3;
    h_6x6: tps("x,2,2,22S,2,111S/21S,22C,112,x,1112S,11S/x,2,112212,2,2S,2/x,2,121122,x,1112,211/21C,x,1,2S,21S,x/2S,x,212,1S,12S,1S 1 33"), [1, 56, 17_322, 1_419_637, 280_504_959], quick 3;
    i_6x6: tps("x2,2,22,2C,1/21221S,1112,x,2211,1,2/x2,111S,x,11S,12S/11S,1S,2S,2,12S,1211C/x,12S,2,122S,x,212S/12,x2,1S,22222S,21121 2 31"), [1, 108, 11_169, 991_034, 92_392_763], quick 3;
    j_6x6: tps("2,x,2,111S,2,12/2,122S,2122,1S,x,1/x,111,1,11S,x2/21122112C,x,212S,2S,2,1212S/1,112S,21221S,2S,x2/21,222,x,12S,x2 2 30"), [1, 197, 15_300, 2_616_619, 215_768_669], quick 3;
    k_7x7: tps("1,x2,22S,1,x2/1,2S,122,1S,1,12,22/2,1,x,2,1221C,11S,21/x,1211S,221,1,12122S,121,1/2,122C,212111,1S,22,12,1/2S,2,x,12122,2,21,2S/x2,1S,1,2,1,2 2 41"), [1, 203, 43_807, 9_102_472, 1_944_603_576], quick 3;
    l_7x7: tps("1,1,x5/x,12,1S,111,2S,211,2/12S,2,1C,21212S,212,21,2C/x,211S,122,2221,21,22,1/x,1,221,12,1,1,1112S/x,1,12222S,2,222,112121S,122/1,x,1,x,2,12,11S 2 41"), [1, 253, 63_284, 16_374_739, 3_821_510_016], quick 3;
    m_8x8: tps("2S,1S,2S,1S,2S,1S,2S,1S/1S,2S,1S,2S,1S,2S,1S,2S/2S,1S,2S,1S,2S,1S,2S,1S/1S,2S,1S,111222111C,x,2S,1S,2S/2S,1S,2S,x,222111222C,1S,2S,1S/1S,2S,1S,2S,1S,2S,1S,2S/2S,1S,2S,1S,2S,1S,2S,1S/1S,2S,1S,2S,1S,2S,1S,2S 2 40"), [1, 42, 1_298, 11_632, 223_448, 4_623_236, 131_138_098], quick 5;
    n_8x8: tps("x,1,1,1S,1S,1S,1S,1S/1,x,1,1,2S,2S,1C,1S/1,1,x,1,1,2C,2S,1S/1S,1,1,x,1,1,2S,1S/1S,2S,1,1,x,1,1,1S/1S,2S,2C,1,1,x,1,1/1S,1C,2S,2S,1,1,x,1/1S,1S,1S,1S,1S,1,1,x 2 50"), [1, 32, 3_400, 92_372, 9_968_672, 362_489_760], quick 4;
    o_3x3: tps("x3/x,111222111222111222,x/x3 2 10"), [1, 28, 216, 1_224, 13_272, 167_800, 2_089_168, 30_987_564, 440_734_112], quick 6;
    p_4x4: tps("x4/x4/x2,1112221112221112221112221122,x/x4 2 15"), [1, 58, 1_188, 24_596, 726_346, 23_537_698, 839_996_380], quick 4;
    q_5x5: tps("x5/x5/x2,111222111222111222111222111222111222111222C,x2/x5/x5 2 22"), [1, 108, 3_740, 236_696, 9_043_372, 659_145_868], quick 4;
    r_6x6: tps("x6/x6/x6/x3,111222111222111222111222111222111222111222111222111222111222C,x2/x6/x6 2 31"), [1, 194, 11_334, 963_760, 56_988_512, 6_439_471_288], quick 3;
    s_7x7: tps("x7/x7/x7/x3,111222111222111222111222111222111222111222111222111222111222111222111222111222121C,x3/x7/x7/x7 1 41"), [1, 300, 34_684, 6_229_212, 760_701_664], quick 3;
    t_8x8: tps("x8/x8/x8/x8/x4,11122211122211122211122211122211122211122211122211122211122211122211122211122211122211122211122212121C,x3/x8/x8/x8 1 51"), [1, 571, 159_614, 51_729_978, 12_902_526_450], quick 3;
    u_5x5: tps("x5/x5/2S,211C,2C,212S,x/x5/x5 1 7"), [1, 55, 3_314, 175_900, 10_062_310, 516_323_231], quick 4;
    v_6x6: tps("x6/x4,1S,x/x2,21111S,1C,22122C,x/x6/x6/x6 2 11"), [1, 95, 11_683, 1_035_124, 111_863_932], quick 3;
    w_7x7: tps("x7/1C,1112S,x,112211C,2S,2C,1S/x7/x3,222C,x3/x3,2S,x3/x3,1S,x3/x7 1 10"), [1, 112, 14_248, 1_693_182, 207_813_633], quick 3;
    x_8x8: tps("x,1S,1C,1S,x4/1,11,11111C,2S,2C,2S,2S,2S/x8/x8/x2,2C,x5/x2,1S,x5/x2,1S,x5/x2,1S,x5 1 14"), [1, 148, 16_516, 2_446_613, 272_421_987], quick 3;
    // Row B's position as a TPS; depths 4 and 5 from issue 2 (an independent engine), not in
    // published.md.
    carry_5x5: tps("x,x,x,x,x/x,x,x,x,x/x,x,121212C,x,x/1,x,x,x,x/1,x,x,x,x 2 7"), [1, 104, 7_743, 592_645, 40_359_469, 2_678_856_441], quick 3;
    // Row C's position as a TPS; depth 4 from issue 2 (an independent engine), not in
    // published.md.
    suicide_5x5: tps("x,x,2,x,2/x,12,x,12,x/212,x,x,2121C,x/x,1,112221,1,1/x,x,x,x,x 2 21"), [1, 85, 11_204, 956_736, 100_652_007], quick 3;
}

/// The biggest published counts (5e9 to 49e9 nodes each), one test per count, apart from the
/// `deep` group so that group stays quick.
macro_rules! huge_perft_tests {
    ($($name:ident: $pos:expr, depth $depth:expr, $n:expr;)*) => {
        mod huge {
            use super::*;
            $(#[test] #[ignore = "huge perft: cargo test --release --test perft -- --ignored huge"]
              fn $name() {
                  let mut pos = $pos;
                  let got = Perft::new().count(&mut pos, $depth, PerftMode::Counting);
                  assert_eq!(got, $n, "depth {} of {}", $depth, pos.to_tps());
              })*
        }
    };
}

huge_perft_tests! {
    start3_d9: position(3, ""), depth 9, 9_209_357_840;
    start4_d7: position(4, ""), depth 7, 5_231_815_136;
    start5_d6: position(5, ""), depth 6, 11_293_470_152;
    start7_d5: position(7, ""), depth 5, 6_813_380_628;
    start8_d5: position(8, ""), depth 5, 26_642_455_192;
    g_6x6_d5: tps("2,2,21S,2,2,2/2,x,222221,2,2,x/1,1,2221C,x,111112C,2S/x,1,2S,x2,121211212/1,1,1212S,1S,2,1S/x2,2,1,21,1 1 42"), depth 5, 48_986_506_534;
    u_5x5_d6: tps("x5/x5/2S,211C,2C,212S,x/x5/x5 1 7"), depth 6, 28_289_067_995;
}

/// Perft in the other convention (older Tiltak, fast-tak): a game that ends before the depth
/// limit counts as one leaf. Written here on the public API, move by move.
fn perft_terminal_one(pos: &mut Position, depth: usize) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut total = 0;
    for &mv in moves.iter() {
        let undo = pos.do_move(mv);
        total += if pos.result().is_some() {
            1
        } else {
            perft_terminal_one(pos, depth - 1)
        };
        pos.undo_move(mv, undo);
    }
    total
}

fn check_terminal_one(mut pos: Position, expected: &[u64], max_depth: usize) {
    assert!(pos.result().is_none());
    for (depth, &want) in expected.iter().enumerate().take(max_depth + 1) {
        let got = perft_terminal_one(&mut pos, depth);
        assert_eq!(
            got,
            want,
            "depth {depth} (terminal = 1) of {}",
            pos.to_tps()
        );
    }
}

const E: &str = "a5 b4 c3 d2 e1 d1 c2 d3 c1 d4 d5 c4 c5 b3 b2 a2 Sb1 a3 Ce4 Cb5 a4 a1 e5 e3 c3< Sc3 c1> c1 2d1+ c3- c3 a3> a3 d1 e4< 2c2> c2 e2 b2+ b2";
const F: &str = "a1 b1 c1 d1 e1 e2 d2 c2 b2 a2 a3 b3 c3 d3 e3 a4 b4 c4 d4 e4 a5 a4- b4- c4- d4- e4- a4 b4 c4 d4 e4 2a3> c4> 2e3< a3 4b3- b3 c4 e3 d5 d2< d2 2d4- d4 c5 b5 2c2> d1+ c2 e2+ d1 e2 c5< c5 e4< Se4 2b5- e4- a3-";
const G: &str = "2,2,21S,2,2,2/2,x,222221,2,2,x/1,1,2221C,x,111112C,2S/x,1,2S,x2,121211212/1,1,1212S,1S,2,1S/x2,2,1,21,1 1 42";

/// Rows C' (5.2, FT suicide_perft), E (FT endgame_perft), F (FT reserves_perft; its depth 4 is
/// commented out in the source) and G' (TL before f05a1389), terminal = 1.
macro_rules! terminal_one_tests {
    ($($name:ident: $pos:expr, [$($n:expr),*], quick $quick:expr;)*) => {
        mod terminal_one_quick {
            use super::*;
            $(#[test] fn $name() { check_terminal_one($pos, &[$($n),*], $quick); })*
        }
        mod terminal_one_deep {
            use super::*;
            $(#[test] #[ignore = "deep perft: cargo test --release --test perft -- --ignored deep"]
              fn $name() { let v = [$($n),*]; check_terminal_one($pos, &v, v.len() - 1); })*
        }
    };
}

terminal_one_tests! {
    c_prime_5x5: position(5, C), [1, 85, 11_206, 957_000], quick 3;
    e_5x5: position(5, E), [1, 65, 4_072, 272_031, 16_642_760], quick 3;
    f_5x5: position(5, F), [1, 152, 15_356, 1_961_479, 197_434_816], quick 3;
    g_prime_6x6: tps(G), [1, 140, 21_413, 2_774_947, 395_517_158], quick 2;
}

/// Depth 1 move counts (published.md 5.4).
#[test]
fn move_counts() {
    for (text, want) in [
        ("2,2S,x/2S,121,2S/x,2S,1 1 12", 4),
        ("2,2S,x2/2S,211,2S,x/x,2S,11,2S/x2,2S,1 1 11", 12),
        ("2,x4/x2,2S,x2/x,2C,12121,2S,x/x2,2S,x2/x4,1 1 10", 56),
        (
            "x5/x,2C,x3/2S,221121C,112,1122,12S/x,212,x3/x,1S,x3 1 20",
            68,
        ),
        (
            "x,2C,x4/x6/2S,212211C,12,1212,x,12S/x6/x6/x,21S,x4 1 18",
            155,
        ),
        (
            "x,2C,x5/x,2C,x5/x7/2S,221122111C,x3,2,2S/x7/x7/1C,21S,x5 1 14",
            254,
        ),
        (
            "x,2C,x6/x8/2S,22122111211C,x,2,2,2,x,2S/x,2212,x6/x,22,x6/x,2,x6/x,1S,x6/x,1C,x6 1 25",
            485,
        ),
    ] {
        let mut pos = tps(text);
        assert_eq!(
            Perft::new().count(&mut pos, 1, PerftMode::Full),
            want,
            "{text}"
        );
        assert_eq!(pos.count_moves(), want, "{text}");
    }
}

/// At ply 2 with the opening flats in opposite corners: 3(N²−2)+2 moves, or 2(N²−2)+2 without caps.
#[test]
fn opening_sanity() {
    for size in 3..=8usize {
        let mut pos = position(size, "");
        assert_eq!(pos.count_moves(), (size * size) as u64);
        let last = (b'a' + size as u8 - 1) as char;
        let mv = pos.parse_move(&format!("{last}{size}")).unwrap();
        pos.do_move(mv);
        assert_eq!(pos.count_moves(), (size * size - 1) as u64);
        let mv = pos.parse_move("a1").unwrap();
        pos.do_move(mv);
        let kinds = if size >= 5 { 3 } else { 2 };
        assert_eq!(
            pos.count_moves(),
            (kinds * (size * size - 2) + 2) as u64,
            "size {size}"
        );
    }
}
