//! Formatting search reports as TEI `info` lines: `score cp` unless `ScoreMate` is on
//! (Racetrack drops any other score), `wdl` on every line (PTN Ninja prefers it for its
//! evaluation bar; Racetrack ignores it), `pv` last (Racetrack reads the PV up to the next
//! keyword).

use crate::search::{plies_to_result, wdl::wdl, Info};
use std::fmt::Write;

/// What the options change in `info` lines.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct InfoStyle {
    /// MultiPV is above 1: every line says which line it is (`multipv k`).
    pub multipv: bool,
    /// `ScoreMate`: a proven result goes out as `score mate N`, N in plies to the end of the
    /// game, negative when the side to move loses (PTN Ninja's reading).
    pub score_mate: bool,
    /// `ScoreSolved`: a proven result goes out as `score solved win|loss N` (PTN Ninja's
    /// forced-result form), N in plies to the end of the game; it takes precedence over
    /// `score_mate`.
    pub score_solved: bool,
}

/// `info [multipv K] depth D seldepth S score cp X wdl W D L nodes N nps R time T hashfull H
/// pv m1 m2 …`, with `score mate N` for `score cp X` under `style.score_mate` when the score is
/// a proven result. The `pv` field is left out when the variation is empty. `wdl` uses the
/// logistic scale of the weights of a board of `size`.
pub fn format_info(info: &Info, style: InfoStyle, size: usize) -> String {
    let mut line = String::from("info");
    if style.multipv {
        let _ = write!(line, " multipv {}", info.multipv.max(1));
    }
    let _ = write!(line, " depth {} seldepth {}", info.depth, info.seldepth);
    match plies_to_result(info.score_cp) {
        Some(plies) if style.score_solved => {
            let side = if info.score_cp < 0 { "loss" } else { "win" };
            let _ = write!(line, " score solved {side} {plies}");
        }
        Some(plies) if style.score_mate => {
            let sign = if info.score_cp < 0 { "-" } else { "" };
            let _ = write!(line, " score mate {sign}{plies}");
        }
        _ => {
            let _ = write!(line, " score cp {}", info.score_cp);
        }
    }
    let [w, d, l] = wdl(info.score_cp, size);
    let _ = write!(
        line,
        " wdl {w} {d} {l} nodes {} nps {} time {} hashfull {}",
        info.nodes,
        info.nps(),
        info.time.as_millis(),
        info.hashfull
    );
    if !info.pv.is_empty() {
        line.push_str(" pv");
        for mv in &info.pv {
            let _ = write!(line, " {}", mv.to_ptn());
        }
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Position;
    use crate::search::WIN;
    use std::time::Duration;

    #[test]
    fn fields_in_order_with_pv_last() {
        let pos = Position::start(5).unwrap();
        let info = Info {
            multipv: 1,
            depth: 3,
            seldepth: 5,
            score_cp: -42,
            nodes: 1500,
            time: Duration::from_millis(500),
            hashfull: 7,
            pv: vec![pos.parse_move("a1").unwrap(), pos.parse_move("e5").unwrap()],
        };
        // 3×3 keeps hand-set weights and the default scale, so `wdl` here stays put as 6×6 is retuned.
        assert_eq!(
            format_info(&info, InfoStyle::default(), 3),
            "info depth 3 seldepth 5 score cp -42 wdl 454 50 496 nodes 1500 nps 3000 time 500 hashfull 7 pv a1 e5"
        );
        let empty = Info::default();
        assert!(!format_info(&empty, InfoStyle::default(), 6).contains("pv"));
    }

    #[test]
    fn multipv_leads_and_score_mate_only_for_proven_results() {
        let pos = Position::start(5).unwrap();
        let mut info = Info {
            multipv: 2,
            depth: 9,
            score_cp: WIN - 5,
            pv: vec![pos.parse_move("a1").unwrap()],
            ..Info::default()
        };
        let both = InfoStyle {
            multipv: true,
            score_mate: true,
            score_solved: false,
        };
        let line = format_info(&info, both, 6);
        assert!(
            line.starts_with("info multipv 2 depth 9 seldepth 0 score mate 5 wdl 1000 0 0 "),
            "{line}"
        );
        assert!(line.ends_with(" pv a1"), "{line}");
        // Off by default: the same win is a centi-flat score, as Racetrack needs.
        let line = format_info(&info, InfoStyle::default(), 6);
        assert!(
            line.starts_with("info depth 9 seldepth 0 score cp 9995 wdl 1000 0 0 "),
            "{line}"
        );
        info.score_cp = -(WIN - 4);
        assert!(format_info(&info, both, 6).contains(" score mate -4 wdl 0 0 1000 "));
        let solved = InfoStyle {
            score_solved: true,
            ..both
        };
        assert!(format_info(&info, solved, 6).contains(" score solved loss 4 wdl 0 0 1000 "));
        info.score_cp = WIN - 7;
        assert!(format_info(&info, solved, 6).contains(" score solved win 7 wdl "));
        info.score_cp = 8000;
        assert!(format_info(&info, both, 6).contains(" score cp 8000 wdl "));
        assert!(format_info(&info, solved, 6).contains(" score cp 8000 wdl "));
    }
}
