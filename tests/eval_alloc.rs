//! `evaluate` allocates nothing (it runs at every node of the search). A counting allocator
//! counts the allocations of the test's own thread only: the test harness's other threads
//! allocate now and then (4 allocations were counted once during CI when every thread counted).

use menhir::core::{MoveList, Position};
use menhir::search::evaluate;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct Counting;

thread_local! {
    /// Allocations made by this thread (const-initialised: reading it never allocates).
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn allocations() -> usize {
    ALLOCATIONS.with(Cell::get)
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // `try_with`: a thread being torn down has no counter left, and is not this test.
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn evaluate_does_not_allocate() {
    let mut rng = StdRng::seed_from_u64(3);
    let mut moves = MoveList::new();
    for size in 3..=8 {
        let mut positions = Vec::new();
        let mut pos = Position::start(size).unwrap();
        while pos.result().is_none() && positions.len() < 200 {
            positions.push(pos.clone());
            moves.clear();
            pos.generate_moves(&mut moves);
            pos.do_move(moves[rng.random_range(0..moves.len())]);
        }
        evaluate(&positions[0]); // parses the built-in weights once
        let before = allocations();
        let total: i64 = positions.iter().map(|p| evaluate(p) as i64).sum();
        assert_eq!(allocations(), before, "{size}x{size} (sum {total})");
    }
}
