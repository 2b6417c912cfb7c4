//! Writing an annotated game as PTN: the record's tags, moves and result as
//! `GameRecord`'s own writer lays them out, each move followed by its marks, the analysis
//! comment, and then the comment the game already had; the game's report (`report.rs`) as a
//! comment block before the first move. (`GameRecord` keeps no marks, and one
//! comment a ply, so it cannot write this itself.)

use super::game::AnnotatedPly;
use super::report::GameReport;
use crate::core::GameRecord;
use std::fmt::Write;

/// The PTN text of `record` with `plies` (one per ply of the record) added.
pub fn write_annotated(record: &GameRecord, plies: &[AnnotatedPly]) -> String {
    debug_assert_eq!(record.plies.len(), plies.len());
    let mut out = String::new();
    for (name, value) in &record.tags {
        let _ = writeln!(out, "[{name} \"{}\"]", value.replace('"', "'"));
    }
    if let Some(tps) = &record.start_tps {
        let _ = writeln!(out, "[TPS \"{tps}\"]");
    }
    out.push('\n');
    let report = GameReport::of(record, plies);
    let _ = writeln!(out, "{{{}}}", braceless(&report.text(record)));
    let first_ply = record.start_position().map_or(0, |p| p.ply());
    let mut line = String::new();
    for (i, (ply, annotated)) in record.plies.iter().zip(plies).enumerate() {
        let ply_index = first_ply + i;
        let white = ply_index.is_multiple_of(2);
        if white || i == 0 {
            if !line.is_empty() {
                let _ = writeln!(out, "{line}");
                line.clear();
            }
            let _ = write!(line, "{}.", ply_index / 2 + 1);
            if !white {
                line.push_str(" --");
            }
        }
        let _ = write!(
            line,
            " {}{} {{{}}}",
            ply.mv.to_ptn(),
            annotated.marks.text(),
            braceless(&annotated.comment)
        );
        if let Some(comment) = &ply.comment {
            let _ = write!(line, " {{{}}}", braceless(comment));
        }
    }
    if let Some(result) = record.result {
        if !line.is_empty() {
            line.push(' ');
        }
        let _ = write!(line, "{result}");
    }
    if !line.is_empty() {
        let _ = writeln!(out, "{line}");
    }
    out
}

fn braceless(text: &str) -> String {
    text.replace(['{', '}'], "")
}
