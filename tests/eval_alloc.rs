//! `evaluate` allocates nothing (it runs at every node of the search). A counting allocator
//! watches this test binary, which holds this one test only.

use menhir::core::{MoveList, Position};
use menhir::search::evaluate;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

struct Counting;
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Relaxed);
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
        let before = ALLOCATIONS.load(Relaxed);
        let total: i64 = positions.iter().map(|p| evaluate(p) as i64).sum();
        assert_eq!(
            ALLOCATIONS.load(Relaxed),
            before,
            "{size}x{size} (sum {total})"
        );
    }
}
