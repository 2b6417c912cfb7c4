//! A slow, obviously-correct model of Tak on plain nested vectors, for the property tests.
//!
//! It shares nothing with the core but the `Move` encoding and the colour and kind enums: its
//! own board, its own make-move, a brute-force move list, breadth-first search for roads and a
//! direct flat count. Written for clarity, never for speed.

use menhir::core::{starting_reserves, Color, Direction, GameResult, Move, PieceKind, Position};
use menhir::core::{Square, Stack};
use std::collections::VecDeque;

/// One square: colours bottom to top (0 = White, 1 = Black) and the kind of the top piece.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    pub pieces: Vec<usize>,
    pub top: PieceKind,
}

/// A whole game state on plain arrays: `cells[rank][file]`.
#[derive(Clone, Debug)]
pub struct RefGame {
    pub size: usize,
    pub cells: Vec<Vec<Cell>>,
    pub stones: [u32; 2],
    pub caps: [u32; 2],
    pub to_move: usize,
    pub ply: usize,
    pub half_komi: i32,
}

fn step(file: usize, rank: usize, dir: Direction, size: usize) -> Option<(usize, usize)> {
    let (file, rank) = (file as isize, rank as isize);
    let (f, r) = match dir {
        Direction::North => (file, rank + 1),
        Direction::South => (file, rank - 1),
        Direction::East => (file + 1, rank),
        Direction::West => (file - 1, rank),
    };
    let on = |x: isize| (0..size as isize).contains(&x);
    (on(f) && on(r)).then_some((f as usize, r as usize))
}

/// Every way to split `count` pieces into at most `max_parts` positive drops.
fn compositions(count: u32, max_parts: usize) -> Vec<Vec<u32>> {
    if count == 0 {
        return vec![Vec::new()];
    }
    if max_parts == 0 {
        return Vec::new();
    }
    let mut out = Vec::new();
    for first in 1..=count {
        for mut rest in compositions(count - first, max_parts - 1) {
            rest.insert(0, first);
            out.push(rest);
        }
    }
    out
}

impl RefGame {
    /// The empty board of `size` with komi in half flats.
    pub fn new(size: usize, half_komi: i32) -> RefGame {
        let (stones, caps) = starting_reserves(size);
        let empty = Cell {
            pieces: Vec::new(),
            top: PieceKind::Flat,
        };
        RefGame {
            size,
            cells: vec![vec![empty; size]; size],
            stones: [stones as u32; 2],
            caps: [caps as u32; 2],
            to_move: 0,
            ply: 0,
            half_komi,
        }
    }

    /// A position from its cells (`cells[rank][file]`), with reserves derived from them;
    /// `None` if a colour uses more stones or capstones than it has.
    pub fn from_cells(
        cells: Vec<Vec<Cell>>,
        to_move: usize,
        ply: usize,
        half_komi: i32,
    ) -> Option<RefGame> {
        let mut game = RefGame::new(cells.len(), half_komi);
        for cell in cells.iter().flatten() {
            for (i, &c) in cell.pieces.iter().enumerate() {
                let is_cap = i + 1 == cell.pieces.len() && cell.top == PieceKind::Cap;
                let reserve = if is_cap {
                    &mut game.caps
                } else {
                    &mut game.stones
                };
                reserve[c] = reserve[c].checked_sub(1)?;
            }
        }
        game.cells = cells;
        game.to_move = to_move;
        game.ply = ply;
        Some(game)
    }

    /// TPS with every empty square written as `x` (the spelled-out form).
    pub fn to_tps(&self) -> String {
        let rows: Vec<String> = (0..self.size)
            .rev()
            .map(|rank| {
                let cells: Vec<String> = self.cells[rank]
                    .iter()
                    .map(|cell| {
                        if cell.pieces.is_empty() {
                            return "x".to_string();
                        }
                        let mut text: String = cell
                            .pieces
                            .iter()
                            .map(|&c| if c == 0 { '1' } else { '2' })
                            .collect();
                        text.push_str(cell.top.ptn_prefix());
                        text
                    })
                    .collect();
                cells.join(",")
            })
            .collect();
        format!(
            "{} {} {}",
            rows.join("/"),
            self.to_move + 1,
            self.ply / 2 + 1
        )
    }

    fn cell(&self, file: usize, rank: usize) -> &Cell {
        &self.cells[rank][file]
    }

    /// Plays `mv`, assumed legal, by moving pieces one square at a time.
    pub fn apply(&mut self, mv: Move) {
        let (file, rank) = (mv.square().file(), mv.square().rank());
        if mv.is_placement() {
            let color = if self.ply < 2 {
                1 - self.to_move
            } else {
                self.to_move
            };
            if mv.kind() == PieceKind::Cap {
                self.caps[color] -= 1;
            } else {
                self.stones[color] -= 1;
            }
            self.cells[rank][file] = Cell {
                pieces: vec![color],
                top: mv.kind(),
            };
        } else {
            let origin = &mut self.cells[rank][file];
            let moving_kind = origin.top;
            let keep = origin.pieces.len() - mv.count() as usize;
            let mut hand: VecDeque<usize> = origin.pieces.split_off(keep).into();
            origin.top = PieceKind::Flat;
            let (mut f, mut r) = (file, rank);
            let drops: Vec<u32> = mv.drops().collect();
            for (i, &n) in drops.iter().enumerate() {
                (f, r) = step(f, r, mv.direction(), self.size).expect("spread stays on board");
                let cell = &mut self.cells[r][f];
                for _ in 0..n {
                    cell.pieces.push(hand.pop_front().expect("enough pieces"));
                }
                // A flattened wall is simply a flat under the arriving capstone.
                cell.top = if i + 1 == drops.len() {
                    moving_kind
                } else {
                    PieceKind::Flat
                };
            }
        }
        self.to_move = 1 - self.to_move;
        self.ply += 1;
    }

    /// Every legal move, found by trying every square, count, direction and drop split.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::new();
        let size = self.size;
        let sq = |f: usize, r: usize| Square::new(f, r, size).unwrap();
        for rank in 0..size {
            for file in 0..size {
                let cell = self.cell(file, rank);
                if cell.pieces.is_empty() {
                    if self.ply < 2 {
                        out.push(Move::place(sq(file, rank), PieceKind::Flat));
                        continue;
                    }
                    if self.stones[self.to_move] > 0 {
                        out.push(Move::place(sq(file, rank), PieceKind::Flat));
                        out.push(Move::place(sq(file, rank), PieceKind::Wall));
                    }
                    if self.caps[self.to_move] > 0 {
                        out.push(Move::place(sq(file, rank), PieceKind::Cap));
                    }
                    continue;
                }
                if self.ply < 2 || *cell.pieces.last().unwrap() != self.to_move {
                    continue;
                }
                let carry = cell.pieces.len().min(size) as u32;
                for dir in Direction::ALL {
                    for count in 1..=carry {
                        for drops in compositions(count, size) {
                            if self.spread_fits(file, rank, dir, &drops) {
                                let mv = Move::spread_from_drops(sq(file, rank), dir, &drops);
                                out.push(mv.expect("valid drops"));
                            }
                        }
                    }
                }
            }
        }
        out
    }

    fn spread_fits(&self, file: usize, rank: usize, dir: Direction, drops: &[u32]) -> bool {
        let moving_cap = self.cell(file, rank).top == PieceKind::Cap;
        let (mut f, mut r) = (file, rank);
        for (i, &n) in drops.iter().enumerate() {
            let Some(next) = step(f, r, dir, self.size) else {
                return false;
            };
            (f, r) = next;
            let cell = self.cell(f, r);
            if cell.pieces.is_empty() {
                continue;
            }
            let last = i + 1 == drops.len();
            let ok = match cell.top {
                PieceKind::Flat => true,
                PieceKind::Wall => last && n == 1 && moving_cap,
                PieceKind::Cap => false,
            };
            if !ok {
                return false;
            }
        }
        true
    }

    /// Whether `color` (0 or 1) has a road, by breadth-first search from two edges.
    pub fn has_road(&self, color: usize) -> bool {
        let size = self.size;
        let counts = |f: usize, r: usize| {
            let cell = self.cell(f, r);
            cell.pieces.last() == Some(&color) && cell.top != PieceKind::Wall
        };
        // West to east, then south to north.
        for horizontal in [true, false] {
            let mut seen = vec![vec![false; size]; size];
            let mut queue = VecDeque::new();
            for i in 0..size {
                let (f, r) = if horizontal { (0, i) } else { (i, 0) };
                if counts(f, r) {
                    seen[r][f] = true;
                    queue.push_back((f, r));
                }
            }
            while let Some((f, r)) = queue.pop_front() {
                if (horizontal && f == size - 1) || (!horizontal && r == size - 1) {
                    return true;
                }
                for dir in Direction::ALL {
                    if let Some((nf, nr)) = step(f, r, dir, size) {
                        if !seen[nr][nf] && counts(nf, nr) {
                            seen[nr][nf] = true;
                            queue.push_back((nf, nr));
                        }
                    }
                }
            }
        }
        false
    }

    /// Flats on top for White and Black.
    pub fn flat_counts(&self) -> (u32, u32) {
        let mut counts = [0, 0];
        for row in &self.cells {
            for cell in row {
                if let (Some(&c), PieceKind::Flat) = (cell.pieces.last(), cell.top) {
                    counts[c] += 1;
                }
            }
        }
        (counts[0], counts[1])
    }

    /// The result as rules.md words it, judged after the last ply.
    pub fn result(&self) -> Option<GameResult> {
        let color = |i: usize| if i == 0 { Color::White } else { Color::Black };
        let mover = 1 - self.to_move;
        if self.has_road(mover) {
            return Some(GameResult::Road(color(mover)));
        }
        if self.has_road(1 - mover) {
            return Some(GameResult::Road(color(1 - mover)));
        }
        let full = self.cells.iter().flatten().all(|c| !c.pieces.is_empty());
        let out_of_pieces = (0..2).any(|c| self.stones[c] == 0 && self.caps[c] == 0);
        if !full && !out_of_pieces {
            return None;
        }
        let (white, black) = self.flat_counts();
        let margin = 2 * white as i32 - 2 * black as i32 - self.half_komi;
        Some(match margin {
            m if m > 0 => GameResult::Flats(Color::White),
            m if m < 0 => GameResult::Flats(Color::Black),
            _ => GameResult::Draw,
        })
    }

    /// Describes the first difference from the core's position, if any.
    pub fn difference(&self, pos: &Position) -> Option<String> {
        for rank in 0..self.size {
            for file in 0..self.size {
                let sq = Square::new(file, rank, self.size).unwrap();
                let cell = self.cell(file, rank);
                let stack: Stack = pos.stack(sq);
                let colours: Vec<usize> = stack.iter().map(|c| c.index()).collect();
                if colours != cell.pieces {
                    return Some(format!("{sq}: stack {colours:?}, reference {cell:?}"));
                }
                if !colours.is_empty() && pos.top_kind(sq) != cell.top {
                    return Some(format!(
                        "{sq}: top {:?}, reference {cell:?}",
                        pos.top_kind(sq)
                    ));
                }
            }
        }
        for c in Color::ALL {
            let i = c.index();
            if (pos.stones(c), pos.capstones(c)) != (self.stones[i], self.caps[i]) {
                return Some(format!("reserves of {c:?} differ from the reference"));
            }
        }
        if pos.to_move().index() != self.to_move || pos.ply() != self.ply {
            return Some("side to move or ply differs from the reference".into());
        }
        None
    }
}
