//! One game's annotation: every position analysed in order, then each ply's marks and
//! comment from the analyses before and after it.

use super::marks::{expected_score, is_tak, Judgement, Marks};
use super::position::{analyse_position, PositionAnalysis};
use super::prover::{Outcome, TinueProver};
use crate::core::{Color, GameRecord, Move, Position};
use crate::search::{score_is_win, wdl, Limits, Searcher};
use std::fmt::Write;

/// Longest engine line written in a comment, in plies.
const PV_PLIES: usize = 6;

/// What annotation adds to one ply.
#[derive(Clone, Debug, PartialEq)]
pub struct AnnotatedPly {
    /// The marks written after the move.
    pub marks: Marks,
    /// The analysis comment (without braces).
    pub comment: String,
    /// Who played the ply.
    pub mover: Color,
    /// The mover's expected score (0 to 1) before the ply: the engine's best there.
    pub before: f64,
    /// The mover's expected score after the ply.
    pub after: f64,
    /// The mover had a proven forced win before the ply and has none after it.
    pub missed_tinue: bool,
}

/// Analyses every position of `record` (which must replay: see `GameRecord::parse_each`)
/// and judges each ply; `on_position` is called after each position analysed.
pub fn annotate_game(
    record: &GameRecord,
    limits: &Limits,
    searcher: &mut Searcher,
    prover: &mut dyn TinueProver,
    on_position: &mut dyn FnMut(),
) -> Result<Vec<AnnotatedPly>, String> {
    let start = record.start_position()?;
    let mut positions = vec![start];
    for ply in &record.plies {
        let mut next = positions.last().expect("the start position").clone();
        next.do_move(ply.mv);
        positions.push(next);
    }
    searcher.new_game();
    let analyses: Vec<PositionAnalysis> = positions
        .iter()
        .map(|pos| {
            let analysis = analyse_position(pos, limits, searcher, prover);
            on_position();
            analysis
        })
        .collect();
    Ok(record
        .plies
        .iter()
        .enumerate()
        .map(|(i, ply)| {
            let mut after = positions[i + 1].clone();
            let mut annotated = annotate_ply(
                ply.mv,
                &positions[i],
                &mut after,
                &analyses[i],
                &analyses[i + 1],
            );
            if annotated.marks.judgement == Some(Judgement::Blunder)
                && lost_anyway(
                    &positions[i],
                    ply.mv,
                    &analyses[i],
                    &analyses[i + 1],
                    limits,
                    searcher,
                    prover,
                )
            {
                let size = positions[i].size();
                annotated.marks.judgement = Judgement::of(
                    expected_score(analyses[i].score_cp, size),
                    expected_score(-analyses[i + 1].score_cp, size),
                    false,
                );
            }
            annotated
        })
        .collect())
}

/// Whether a ply judged a blunder only for walking into a proven loss (its odds alone would
/// not make it one) was played where the engine's own choice loses by force too: then the
/// position was lost already, the search before it just did not see so far, and the ply is
/// judged on the odds. Costs one more analysis, in such plies only.
fn lost_anyway(
    before: &Position,
    played: Move,
    was: &PositionAnalysis,
    now: &PositionAnalysis,
    limits: &Limits,
    searcher: &mut Searcher,
    prover: &mut dyn TinueProver,
) -> bool {
    let size = before.size();
    let mover_after = -now.score_cp;
    let Some(best) = was.best().filter(|&best| best != played) else {
        return false;
    };
    let only_by_the_proof = score_is_win(-mover_after)
        && !score_is_win(-was.score_cp)
        && Judgement::of(
            expected_score(was.score_cp, size),
            expected_score(mover_after, size),
            false,
        ) != Some(Judgement::Blunder);
    if !only_by_the_proof {
        return false;
    }
    let mut alternative = before.clone();
    alternative.do_move(best);
    let analysis = analyse_position(&alternative, limits, searcher, prover);
    score_is_win(analysis.score_cp)
}

/// The marks and comment of `mv`, played in `before` (analysed as `was`) to reach `after`
/// (analysed as `now`).
fn annotate_ply(
    mv: Move,
    before: &Position,
    after: &mut Position,
    was: &PositionAnalysis,
    now: &PositionAnalysis,
) -> AnnotatedPly {
    let size = before.size();
    let mover = before.to_move();
    let mover_after = -now.score_cp;
    let engine_move = was.best() == Some(mv);
    let tinue = after.result().is_none()
        && now
            .proof
            .as_ref()
            .is_some_and(|p| p.outcome == Outcome::Loss);
    let marks = Marks {
        tak: is_tak(after),
        tinue,
        judgement: Judgement::of_scores(was.score_cp, mover_after, size, engine_move),
    };
    let mover_wins_after = after.result().and_then(|r| r.winner()) == Some(mover);
    let proven_win_before = score_is_win(was.score_cp)
        || was
            .proof
            .as_ref()
            .is_some_and(|p| p.outcome == Outcome::Win);
    let missed_tinue =
        proven_win_before && !tinue && !mover_wins_after && !score_is_win(mover_after);
    let mut comment = eval_text(mover_after * mover.sign(), now.depth, size);
    if let Some(proof) = &now.proof {
        let winner = match proof.outcome {
            Outcome::Loss => mover,
            Outcome::Win => !mover,
        };
        let plies = if proof.plies == 1 { "ply" } else { "plies" };
        let _ = write!(
            comment,
            " {} wins by force in {} {plies}",
            color_name(winner),
            proof.plies
        );
    }
    if !engine_move && !was.pv.is_empty() {
        comment.push_str(" pv");
        for m in was.pv.iter().take(PV_PLIES) {
            let _ = write!(comment, " {}", m.to_ptn());
        }
    }
    AnnotatedPly {
        marks,
        comment,
        mover,
        before: expected_score(was.score_cp, size),
        after: expected_score(mover_after, size),
        missed_tinue,
    }
}

/// The evaluation as PTN Ninja writes its own analysis notes, all from White's view: the
/// expected score on its −1…+1 scale with the depth, `wdl:` in percent (White, draw, Black)
/// and the raw score `cp:` in centi-flats.
fn eval_text(white_cp: i32, depth: u32, size: usize) -> String {
    let [w, d, l] = wdl::wdl(white_cp, size);
    let expected = (w as f64 + d as f64 / 2.0) / 1000.0;
    let mut text = format!("{:+.2}", 2.0 * expected - 1.0);
    if depth > 0 {
        let _ = write!(text, "/{depth}");
    }
    let _ = write!(
        text,
        " wdl:{:.1},{:.1},{:.1} cp:{white_cp}",
        w as f64 / 10.0,
        d as f64 / 10.0,
        l as f64 / 10.0
    );
    text
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}
