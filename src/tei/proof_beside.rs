//! The tinue solver beside an analysis search (issue 47), and the one proven answer both give.
//!
//! During `go infinite` (or a bare `go`) with `ScoreSolved` or `ScoreMate` on, the solver runs
//! on one more thread for at most [`BESIDE_TIME`] (then the search has the machine alone). A
//! proof goes out as an `info` line in the session's style (`score solved win|loss N … pv …`),
//! unless the search has already reported the same result in as few plies; from then on the
//! search's lines go out only when they prove the same result in fewer plies, so the GUI never
//! falls back from a proof to a centi-flat score. The final line and `bestmove` after `stop`
//! follow the shorter of the two.
//!
//! `go solved` asks the search too, once the solver has proved a result: the search's proven
//! line is kept when it is shorter ([`SHORTEN_NODES`]). So the search and `go solved` give the
//! same N for a position: the shorter of what each proves.

use super::info::{format_info, InfoStyle};
use crate::core::{Move, Position};
use crate::search::{plies_to_result, Info, WIN};
use crate::tinue::{Outcome, Verdict};
use std::sync::Mutex;
use std::time::Duration;

/// The longest the solver runs beside an analysis search.
pub const BESIDE_TIME: Duration = Duration::from_secs(30);

/// Nodes of the search `go solved` runs after a proof, to find a shorter proven line.
pub const SHORTEN_NODES: u64 = 1_000_000;

/// A proven result for the side to move: whether it wins, and its line (to the end of the game;
/// its length is N).
#[derive(Clone, Debug, PartialEq)]
pub struct Proof {
    /// The side to move wins (else it loses).
    pub win: bool,
    /// The line to the end of the game.
    pub pv: Vec<Move>,
}

impl Proof {
    /// Plies to the end of the game.
    pub fn plies(&self) -> u32 {
        self.pv.len() as u32
    }

    /// The solver's proof, if it proved one whose line ends the game as claimed.
    pub fn of_outcome(pos: &Position, outcome: &Outcome) -> Option<Proof> {
        let (win, pv) = match &outcome.verdict {
            Verdict::Win { pv, .. } => (true, pv),
            Verdict::Loss { pv, .. } => (false, pv),
            _ => return None,
        };
        let proof = Proof {
            win,
            pv: pv.clone(),
        };
        proof.ends_game(pos).then_some(proof)
    }

    /// The search's proven result in `info`, if it is one.
    pub fn of_info(info: &Info) -> Option<Proof> {
        plies_to_result(info.score_cp)?;
        Some(Proof {
            win: info.score_cp > 0,
            pv: info.pv.clone(),
        })
    }

    /// Whether the line, replayed from `pos`, ends the game with the claimed winner.
    fn ends_game(&self, pos: &Position) -> bool {
        let mut pos = pos.clone();
        let winner = if self.win {
            pos.to_move()
        } else {
            !pos.to_move()
        };
        for &mv in &self.pv {
            if pos.result().is_some() || !pos.is_legal(mv) {
                return false;
            }
            pos.do_move(mv);
        }
        pos.result().and_then(|r| r.winner()) == Some(winner)
    }

    /// Whether this proof is better to show than `other`: `other` is none, or not this result,
    /// or longer.
    pub fn beats(&self, other: Option<&Proof>) -> bool {
        match other {
            Some(o) => o.win != self.win || o.plies() > self.plies(),
            None => true,
        }
    }

    /// The `info` line of the proof, in `style`, with the effort it took.
    pub fn line(&self, style: InfoStyle, size: usize, effort: &Info) -> String {
        let plies = self.plies();
        let info = Info {
            multipv: 1,
            depth: plies,
            seldepth: plies,
            score_cp: if self.win {
                WIN - plies as i32
            } else {
                -(WIN - plies as i32)
            },
            pv: self.pv.clone(),
            ..effort.clone()
        };
        format_info(&info, style, size)
    }
}

/// What the search thread and the solver thread share: the best proof shown so far.
#[derive(Default)]
pub struct Board {
    shown: Mutex<Option<Proof>>,
}

impl Board {
    /// Runs `show` (which writes a line) if `proof` beats what was shown, under the board's
    /// lock, so the two threads' lines keep their order; records it. `None` (an unproven search
    /// line) is shown only while no proof has been.
    pub fn offer(&self, proof: Option<Proof>, show: impl FnOnce()) -> bool {
        let mut shown = self.shown.lock().unwrap_or_else(|e| e.into_inner());
        let better = match &proof {
            Some(p) => p.beats(shown.as_ref()),
            None => shown.is_none(),
        };
        if better {
            show();
            if proof.is_some() {
                *shown = proof;
            }
        }
        better
    }

    /// The best proof shown.
    pub fn best(&self) -> Option<Proof> {
        self.shown.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}
