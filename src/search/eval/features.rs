//! The evaluation's features: what each weight multiplies, and where it sits in a board size's
//! weight vector.
//!
//! Counting convention (what `eval_trace` records, side to move's view): a feature without a
//! side in its name counts the side to move's instances minus the opponent's; a feature named
//! `…_to_move` or `…_not_to_move` counts that side's instances only, and its weight carries the
//! sign.

use crate::core::{MAX_SIZE, MIN_SIZE};

/// Occupants of a critical square, in the order of the `critical_*` features.
pub const CRITICAL_OCCUPANTS: [&str; 5] =
    ["empty", "own_wall", "their_flat", "their_wall", "their_cap"];
/// What stands next to a capstone, in the order of the `cap_next_*` features.
pub const CAP_NEIGHBOURS: [&str; 7] = [
    "own_flat",
    "own_wall",
    "own_tall",
    "their_flat",
    "their_wall",
    "their_cap",
    "their_tall",
];
/// Placements before the game ends on flats that `race_lead` looks at.
pub const RACE_HORIZON: usize = 4;
/// Placements to a road that `road_distance` looks at.
pub const ROAD_HORIZON: usize = 4;
/// What a square holds, side to move's view, in the order of the `pair_*` features: empty,
/// own flat, wall, capstone (upper case), the opponent's (lower case).
pub const PAIR_STATES: [char; 7] = ['e', 'F', 'W', 'C', 'f', 'w', 'c'];

/// The state of the same square seen by the other side.
const fn swap_state(s: usize) -> usize {
    match s {
        0 => 0,
        1..=3 => s + 3,
        _ => s - 3,
    }
}

/// Pair patterns up to the colour swap (48 non-empty patterns, in swapped couples).
pub const PAIR_PATTERNS: usize = 24;

/// Pattern `outer·7 + inner` → (feature within its class, sign): a pattern and its colour swap
/// share a feature with opposite signs, since the side to move's pattern counts +1 and the
/// opponent's view of the same squares −1. Both squares empty: sign 0.
pub const PAIR_FEATURE: [(u8, i8); 49] = {
    let mut table = [(0u8, 0i8); 49];
    let mut next = 0;
    let mut i = 0;
    while i < 49 {
        let swapped = swap_state(i / 7) * 7 + swap_state(i % 7);
        if i < swapped {
            table[i] = (next, 1);
            table[swapped] = (next, -1);
            next += 1;
        }
        i += 1;
    }
    table
};

/// Neighbouring square pairs of a board of `size` up to its symmetries: a pair is folded onto
/// a row (its step along the row folded to the near half, the row folded to the near half).
pub const fn pair_classes(size: usize) -> usize {
    (size - 1).div_ceil(2) * size.div_ceil(2)
}

/// Top kinds in feature order (`PieceKind as usize`).
const KINDS: [&str; 3] = ["flat", "wall", "cap"];

/// Squares of a board of `size` up to its 8 rotations and reflections.
pub const fn class_count(size: usize) -> usize {
    let half = size.div_ceil(2);
    half * (half + 1) / 2
}

/// The symmetry class of a square: both coordinates folded to the near half, then sorted
/// (`near` = steps to the nearest edge ≤ `far`), numbered `far·(far+1)/2 + near`.
pub const fn square_class(file: usize, rank: usize, size: usize) -> usize {
    let f = if file < size - 1 - file {
        file
    } else {
        size - 1 - file
    };
    let r = if rank < size - 1 - rank {
        rank
    } else {
        size - 1 - rank
    };
    let (near, far) = if f <= r { (f, r) } else { (r, f) };
    far * (far + 1) / 2 + near
}

/// The name of each symmetry class of a board of `size`, index = class: the class's square
/// nearest a1 with file ≥ rank (a1, b1, b2, c1…).
pub fn class_names(size: usize) -> Vec<String> {
    let mut names = vec![String::new(); class_count(size)];
    for far in 0..size.div_ceil(2) {
        for near in 0..=far {
            names[square_class(far, near, size)] =
                format!("{}{}", (b'a' + far as u8) as char, near + 1);
        }
    }
    names
}

/// Where each group of features starts in the weight vector of one size (feature `i` of a
/// group is at `start + i`).
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    /// Board size.
    pub size: usize,
    /// Symmetry classes of a square (`class_count(size)`).
    pub classes: usize,
    /// Having the move.
    pub tempo: usize,
    /// Flat lead with komi in half flats, when the side to move leads.
    pub flat_lead_to_move: usize,
    /// The opponent's flat lead with komi in half flats, when it leads.
    pub flat_lead_not_to_move: usize,
    /// Stones in reserve.
    pub stones_in_reserve: usize,
    /// Capstones in reserve.
    pub caps_in_reserve: usize,
    /// The side to move has one piece left in reserve.
    pub one_reserve_to_move: usize,
    /// The opponent has one piece left in reserve.
    pub one_reserve_not_to_move: usize,
    /// The flat count with komi is level (ending the game now would be a tie).
    pub flat_tie: usize,
    /// The side to move can end the game on flats this ply, and win.
    pub flat_win_now: usize,
    /// The side to move can end the game on flats this ply with a tie.
    pub flat_draw_now: usize,
    /// The opponent, with one piece left, would win the flat count by placing it.
    pub flat_loss_next: usize,
    /// The flat lead with komi (half flats, side to move's view) when the game can end on
    /// flats within a few placements: `race_lead + placements − 1`, placements = the fewer of
    /// the smaller reserve and the empty squares, 1 to `RACE_HORIZON`.
    pub race_lead: usize,
    /// Piece-square tables: `psqt + kind·classes + class`.
    pub psqt: usize,
    /// Pieces under a top: `stacks + ((kind·2 + stuck)·2 + captive)·2 + deep`.
    pub stacks: usize,
    /// Own pieces under a top, by top kind and the stack's square class:
    /// `support_psqt + kind·classes + class`.
    pub support_psqt: usize,
    /// Opponent pieces under a top, by top kind and the stack's square class:
    /// `captive_psqt + kind·classes + class`.
    pub captive_psqt: usize,
    /// Opponent flats next to a stack (two pieces or more): capturable by a spread.
    pub tall_next_their_flat: usize,
    /// Own flats next to a stack: squares a spread keeps in hand.
    pub tall_next_own_flat: usize,
    /// Own walls next to a stack: guards against captures.
    pub tall_next_own_wall: usize,
    /// Road groups.
    pub groups: usize,
    /// Road groups by span: `group_span + span − 1`.
    pub group_span: usize,
    /// Lines by own road pieces in them, no opponent piece there: `+ pieces − 1`.
    pub line_clear: usize,
    /// Lines by own road pieces in them, opponent flats but no wall or capstone: `+ pieces − 1`.
    pub line_contested: usize,
    /// Lines by own road pieces in them, blocked by an opponent wall or capstone: `+ pieces − 1`.
    pub line_blocked: usize,
    /// Critical squares: `critical + side·5 + occupant` (side 0 = to move).
    pub critical: usize,
    /// Capstones next to an own critical square they may move onto: `+ side`.
    pub cap_near_critical: usize,
    /// The fewest placements to a road (`road_distance::placements_to_road`), 1 to
    /// `ROAD_HORIZON`: `road_distance + side·ROAD_HORIZON + placements − 1` (side 0 = to move).
    pub road_distance: usize,
    /// Two neighbouring squares by what they hold, the outer square (nearer the board's edge
    /// along the pair) first: `pairs + class·PAIR_PATTERNS + PAIR_FEATURE[outer·7 + inner].0`.
    pub pairs: usize,
    /// What stands next to a capstone: `cap_next + CAP_NEIGHBOURS index`.
    pub cap_next: usize,
    /// Capstones with no opponent piece next to them.
    pub cap_isolated: usize,
    /// Opponent stacks (two pieces or more) next to a wall.
    pub wall_next_their_tall: usize,
    /// Opponent capstones next to a wall.
    pub wall_next_their_cap: usize,
    /// Number of features.
    pub len: usize,
}

impl Layout {
    /// The layout of a board of `size` (3 to 8).
    pub const fn new(size: usize) -> Layout {
        let classes = class_count(size);
        let mut n = 0;
        // Hands out `count` consecutive indices.
        macro_rules! take {
            ($count:expr) => {{
                let start = n;
                n += $count;
                start
            }};
        }
        Layout {
            size,
            classes,
            tempo: take!(1),
            flat_lead_to_move: take!(1),
            flat_lead_not_to_move: take!(1),
            stones_in_reserve: take!(1),
            caps_in_reserve: take!(1),
            one_reserve_to_move: take!(1),
            one_reserve_not_to_move: take!(1),
            flat_tie: take!(1),
            flat_win_now: take!(1),
            flat_draw_now: take!(1),
            flat_loss_next: take!(1),
            race_lead: take!(RACE_HORIZON),
            psqt: take!(3 * classes),
            stacks: take!(24),
            support_psqt: take!(3 * classes),
            captive_psqt: take!(3 * classes),
            tall_next_their_flat: take!(1),
            tall_next_own_flat: take!(1),
            tall_next_own_wall: take!(1),
            groups: take!(1),
            group_span: take!(size),
            line_clear: take!(size),
            line_contested: take!(size),
            line_blocked: take!(size),
            critical: take!(2 * CRITICAL_OCCUPANTS.len()),
            cap_near_critical: take!(2),
            road_distance: take!(2 * ROAD_HORIZON),
            pairs: take!(pair_classes(size) * PAIR_PATTERNS),
            cap_next: take!(CAP_NEIGHBOURS.len()),
            cap_isolated: take!(1),
            wall_next_their_tall: take!(1),
            wall_next_their_cap: take!(1),
            len: n,
        }
    }

    /// The layout of a supported board size, or `None`.
    pub fn of(size: usize) -> Option<&'static Layout> {
        (MIN_SIZE..=MAX_SIZE)
            .contains(&size)
            .then(|| &LAYOUTS[size])
    }

    /// Every feature's name, index `i` naming feature `i`.
    pub fn names(&self) -> Vec<String> {
        let mut names = vec![String::new(); self.len];
        let mut name = |i: usize, text: String| names[i] = text;
        name(self.tempo, "tempo".into());
        name(self.flat_lead_to_move, "flat_lead_to_move".into());
        name(self.flat_lead_not_to_move, "flat_lead_not_to_move".into());
        name(self.stones_in_reserve, "stones_in_reserve".into());
        name(self.caps_in_reserve, "caps_in_reserve".into());
        name(self.one_reserve_to_move, "one_reserve_to_move".into());
        name(
            self.one_reserve_not_to_move,
            "one_reserve_not_to_move".into(),
        );
        name(self.flat_tie, "flat_tie".into());
        name(self.flat_win_now, "flat_win_now".into());
        name(self.flat_draw_now, "flat_draw_now".into());
        name(self.flat_loss_next, "flat_loss_next".into());
        for i in 0..RACE_HORIZON {
            name(self.race_lead + i, format!("race_lead_{}", i + 1));
        }
        let class_names = class_names(self.size);
        for (k, kind) in KINDS.iter().enumerate() {
            for (class, square) in class_names.iter().enumerate() {
                let i = k * self.classes + class;
                name(self.psqt + i, format!("psqt_{kind}_{square}"));
                name(
                    self.support_psqt + i,
                    format!("support_psqt_{kind}_{square}"),
                );
                name(
                    self.captive_psqt + i,
                    format!("captive_psqt_{kind}_{square}"),
                );
            }
        }
        for (k, kind) in KINDS.iter().enumerate() {
            for (stuck, mobility) in ["mobile", "stuck"].iter().enumerate() {
                for (captive, role) in ["support", "captive"].iter().enumerate() {
                    for (deep, depth) in ["shallow", "deep"].iter().enumerate() {
                        let i = self.stacks + ((k * 2 + stuck) * 2 + captive) * 2 + deep;
                        name(i, format!("{role}_{depth}_{kind}_{mobility}"));
                    }
                }
            }
        }
        name(self.tall_next_their_flat, "tall_next_their_flat".into());
        name(self.tall_next_own_flat, "tall_next_own_flat".into());
        name(self.tall_next_own_wall, "tall_next_own_wall".into());
        name(self.groups, "groups".into());
        for i in 0..self.size {
            name(self.group_span + i, format!("group_span_{}", i + 1));
            name(self.line_clear + i, format!("line_clear_{}", i + 1));
            name(self.line_contested + i, format!("line_contested_{}", i + 1));
            name(self.line_blocked + i, format!("line_blocked_{}", i + 1));
        }
        for (side, who) in ["to_move", "not_to_move"].iter().enumerate() {
            for (o, occupant) in CRITICAL_OCCUPANTS.iter().enumerate() {
                let i = self.critical + side * CRITICAL_OCCUPANTS.len() + o;
                name(i, format!("critical_{who}_{occupant}"));
            }
            name(
                self.cap_near_critical + side,
                format!("cap_near_critical_{who}"),
            );
            for p in 0..ROAD_HORIZON {
                name(
                    self.road_distance + side * ROAD_HORIZON + p,
                    format!("road_distance_{who}_{}", p + 1),
                );
            }
        }
        let half = self.size.div_ceil(2);
        for class in 0..pair_classes(self.size) {
            let (step, rank) = (class / half, class % half);
            let squares = format!(
                "{}{}{}{}",
                (b'a' + step as u8) as char,
                rank + 1,
                (b'b' + step as u8) as char,
                rank + 1
            );
            for (pattern, &(feature, sign)) in PAIR_FEATURE.iter().enumerate() {
                if sign == 1 {
                    let (outer, inner) = (PAIR_STATES[pattern / 7], PAIR_STATES[pattern % 7]);
                    name(
                        self.pairs + class * PAIR_PATTERNS + feature as usize,
                        format!("pair_{squares}_{outer}{inner}"),
                    );
                }
            }
        }
        for (i, what) in CAP_NEIGHBOURS.iter().enumerate() {
            name(self.cap_next + i, format!("cap_next_{what}"));
        }
        name(self.cap_isolated, "cap_isolated".into());
        name(self.wall_next_their_tall, "wall_next_their_tall".into());
        name(self.wall_next_their_cap, "wall_next_their_cap".into());
        names
    }
}

/// Layouts by size (entries below 3 are unused copies of 3×3).
pub static LAYOUTS: [Layout; MAX_SIZE + 1] = {
    let mut layouts = [Layout::new(MIN_SIZE); MAX_SIZE + 1];
    let mut size = MIN_SIZE;
    while size <= MAX_SIZE {
        layouts[size] = Layout::new(size);
        size += 1;
    }
    layouts
};

/// The symmetry classes of one board size, as lookup tables.
pub struct Classes {
    /// The squares of each class, as bitboard bits.
    pub masks: [u64; 10],
    /// The class of each square index (`rank·8 + file`).
    pub of_square: [u8; 64],
}

/// Class tables by size (entries below 3 unused).
pub static CLASSES: [Classes; MAX_SIZE + 1] = {
    let mut tables = [const {
        Classes {
            masks: [0; 10],
            of_square: [0; 64],
        }
    }; MAX_SIZE + 1];
    let mut size = MIN_SIZE;
    while size <= MAX_SIZE {
        let mut sq = 0;
        while sq < size * size {
            let (file, rank) = (sq % size, sq / size);
            let class = square_class(file, rank, size);
            tables[size].masks[class] |= 1 << (rank * 8 + file);
            tables[size].of_square[rank * 8 + file] = class as u8;
            sq += 1;
        }
        size += 1;
    }
    tables
};

/// A neighbouring pair as the evaluation visits it: the outer and inner square (`rank·8 +
/// file`) and the offset of its class's patterns in the `pair_*` group.
#[derive(Clone, Copy)]
pub struct PairSite {
    pub outer: u8,
    pub inner: u8,
    pub offset: u16,
}

/// The most pair sites of a board: 2·8·7 pairs on 8×8, and its 16 middle pairs a second time.
const MAX_PAIR_SITES: usize = 2 * MAX_SIZE * (MAX_SIZE - 1) + 2 * MAX_SIZE;

/// Every neighbouring pair of one board size, folded and oriented once here so that the
/// evaluation only looks squares up.
pub struct PairSites {
    sites: [PairSite; MAX_PAIR_SITES],
    len: usize,
}

impl PairSites {
    pub fn as_slice(&self) -> &[PairSite] {
        &self.sites[..self.len]
    }
}

/// Pair sites by size (entries below 3 empty). A pair is folded onto a row (`pair_classes`)
/// and listed outer square first; the middle pair of an even row has no outer square and is
/// listed both ways.
pub static PAIR_SITES: [PairSites; MAX_SIZE + 1] = {
    const NO_SITE: PairSite = PairSite {
        outer: 0,
        inner: 0,
        offset: 0,
    };
    let mut tables = [const {
        PairSites {
            sites: [NO_SITE; MAX_PAIR_SITES],
            len: 0,
        }
    }; MAX_SIZE + 1];
    let mut size = MIN_SIZE;
    while size <= MAX_SIZE {
        let half = size.div_ceil(2);
        let table = &mut tables[size];
        let mut line = 0;
        while line < size {
            let folded_line = if line < size - 1 - line {
                line
            } else {
                size - 1 - line
            };
            let mut step = 0;
            while step < size - 1 {
                let mirror_step = size - 2 - step;
                let near_step = if step < mirror_step {
                    step
                } else {
                    mirror_step
                };
                let offset = ((near_step * half + folded_line) * PAIR_PATTERNS) as u16;
                // Along the row, then along the column.
                let squares = [
                    (line * 8 + step, line * 8 + step + 1),
                    (step * 8 + line, (step + 1) * 8 + line),
                ];
                let mut axis = 0;
                while axis < 2 {
                    let (low, high) = (squares[axis].0 as u8, squares[axis].1 as u8);
                    let mut site = NO_SITE;
                    site.offset = offset;
                    if step <= mirror_step {
                        (site.outer, site.inner) = (low, high);
                        table.sites[table.len] = site;
                        table.len += 1;
                    }
                    if step >= mirror_step {
                        (site.outer, site.inner) = (high, low);
                        table.sites[table.len] = site;
                        table.len += 1;
                    }
                    axis += 1;
                }
                step += 1;
            }
            line += 1;
        }
        size += 1;
    }
    tables
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_index_has_one_distinct_name() {
        for (size, layout) in LAYOUTS.iter().enumerate().skip(MIN_SIZE) {
            let names = layout.names();
            assert_eq!(names.len(), layout.len);
            let mut sorted = names.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted.len(), names.len(), "{size}x{size}: a name repeats");
            assert!(
                names.iter().all(|n| !n.is_empty()),
                "{size}x{size}: an index has no name"
            );
        }
    }

    #[test]
    fn classes_follow_the_board_symmetry() {
        assert_eq!(class_count(6), 6);
        assert_eq!(class_count(5), 6);
        assert_eq!(class_count(8), 10);
        for (size, tables) in CLASSES.iter().enumerate().skip(MIN_SIZE) {
            let last = size - 1;
            for file in 0..size {
                for rank in 0..size {
                    let c = square_class(file, rank, size);
                    assert!(c < class_count(size));
                    // Rotations and reflections keep the class.
                    assert_eq!(c, square_class(rank, file, size));
                    assert_eq!(c, square_class(last - file, rank, size));
                    assert_eq!(c, square_class(file, last - rank, size));
                }
            }
            let covered: u32 = tables.masks.iter().map(|m| m.count_ones()).sum();
            assert_eq!(covered as usize, size * size);
        }
        // 6×6: corner, edge next to it, the square diagonal from it, … centre.
        assert_eq!(square_class(0, 0, 6), 0);
        assert_eq!(square_class(1, 0, 6), 1);
        assert_eq!(square_class(1, 1, 6), 2);
        assert_eq!(square_class(2, 2, 6), 5);
    }
}
