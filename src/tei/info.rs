//! Formatting search reports as TEI `info` lines: always `score cp` (Racetrack drops any other
//! score), `pv` last (Racetrack reads the PV up to the next keyword).

use crate::search::Info;
use std::fmt::Write;

/// `info depth D seldepth S score cp X nodes N nps R time T hashfull H pv m1 m2 …`.
/// The `pv` field is left out when the variation is empty.
pub fn format_info(info: &Info) -> String {
    let mut line = format!(
        "info depth {} seldepth {} score cp {} nodes {} nps {} time {} hashfull {}",
        info.depth,
        info.seldepth,
        info.score_cp,
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
    use std::time::Duration;

    #[test]
    fn fields_in_order_with_pv_last() {
        let pos = Position::start(5).unwrap();
        let info = Info {
            depth: 3,
            seldepth: 5,
            score_cp: -42,
            nodes: 1500,
            time: Duration::from_millis(500),
            hashfull: 7,
            pv: vec![pos.parse_move("a1").unwrap(), pos.parse_move("e5").unwrap()],
        };
        assert_eq!(
            format_info(&info),
            "info depth 3 seldepth 5 score cp -42 nodes 1500 nps 3000 time 500 hashfull 7 pv a1 e5"
        );
        let empty = Info::default();
        assert!(!format_info(&empty).contains("pv"));
    }
}
