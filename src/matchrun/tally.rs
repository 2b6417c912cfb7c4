//! The match tally and what is printed from it: a progress line per game on stderr and the
//! final summary on stdout (W/D/L overall and by colour, score, Elo ± 95%, LOS, terminations,
//! rule-book points, SPRT).

use super::game::{GameOutcome, Termination};
use super::stats::{elo_with_interval, likelihood_of_superiority, Score, Sprt};
use crate::core::{Color, GameResult};
use std::fmt::Write;

/// Results so far, for two engines (index 0 is the first `--engine`).
#[derive(Clone, Debug)]
pub struct Tally {
    names: [String; 2],
    /// Per engine, per colour it played: wins, draws, losses.
    by_colour: [[[u32; 3]; 2]; 2],
    /// Rule-book points per engine.
    points: [u64; 2],
    /// Games per termination kind (indexed as `Termination::ALL`).
    terminations: [u32; KINDS],
    /// Per engine, faults it committed (time, illegal, malformed, crash), as `Termination::ALL`.
    faults: [[u32; KINDS]; 2],
}

const KINDS: usize = Termination::ALL.len();

fn kind_index(t: Termination) -> usize {
    Termination::ALL
        .iter()
        .position(|&k| k == t)
        .expect("listed")
}

impl Tally {
    /// An empty tally.
    pub fn new(names: [String; 2]) -> Tally {
        Tally {
            names,
            by_colour: [[[0; 3]; 2]; 2],
            points: [0; 2],
            terminations: [0; KINDS],
            faults: [[0; KINDS]; 2],
        }
    }

    /// Adds a game in which engine `white` (0 or 1) had White.
    pub fn add(&mut self, white: usize, outcome: &GameOutcome) {
        self.add_result(white, outcome.result, outcome.termination, outcome.points);
    }

    /// Adds a game in which engine `white` (0 or 1) had White, from its result, how it
    /// ended and the winner's rule-book points.
    pub fn add_result(
        &mut self,
        white: usize,
        result: GameResult,
        termination: Termination,
        points: u32,
    ) {
        let engine_of = |c: Color| if c == Color::White { white } else { 1 - white };
        match result.winner() {
            Some(winner) => {
                let loser = !winner;
                self.by_colour[engine_of(winner)][winner.index()][0] += 1;
                self.by_colour[engine_of(loser)][loser.index()][2] += 1;
                self.points[engine_of(winner)] += u64::from(points);
                if !termination.is_normal() {
                    self.faults[engine_of(loser)][kind_index(termination)] += 1;
                }
            }
            None => {
                for c in Color::ALL {
                    self.by_colour[engine_of(c)][c.index()][1] += 1;
                }
            }
        }
        self.terminations[kind_index(termination)] += 1;
    }

    /// Games counted.
    pub fn games(&self) -> u32 {
        self.terminations.iter().sum()
    }

    /// W/D/L of engine `e` over both colours.
    fn wdl(&self, e: usize) -> [u32; 3] {
        let [w, b] = self.by_colour[e];
        [w[0] + b[0], w[1] + b[1], w[2] + b[2]]
    }

    /// The score of the first engine against the second.
    pub fn score(&self) -> Score {
        let [wins, draws, losses] = self.wdl(0);
        Score {
            wins,
            draws,
            losses,
        }
    }

    /// One progress line: `[12/100] new vs base: +5 =3 -4, score 6.5/12 (54.2%)`.
    pub fn progress_line(&self, total: usize) -> String {
        let s = self.score();
        format!(
            "[{}/{total}] {} vs {}: +{} ={} -{}, score {:.1}/{} ({:.1}%)",
            self.games(),
            self.names[0],
            self.names[1],
            s.wins,
            s.draws,
            s.losses,
            s.points(),
            s.games(),
            100.0 * s.score_fraction()
        )
    }

    /// The final report.
    pub fn summary(&self, sprt: Option<&Sprt>) -> String {
        let mut out = String::new();
        let games = self.games();
        let _ = writeln!(out, "Games: {games}");
        for e in 0..2 {
            let [w, d, l] = self.wdl(e);
            let points = f64::from(w) + f64::from(d) / 2.0;
            let pct = if games == 0 {
                50.0
            } else {
                100.0 * points / f64::from(games)
            };
            let _ = writeln!(
                out,
                "{}: W {w} D {d} L {l}, score {points:.1}/{games} ({pct:.1}%)",
                self.names[e]
            );
            for c in Color::ALL {
                let [w, d, l] = self.by_colour[e][c.index()];
                let colour = if c == Color::White { "white" } else { "black" };
                let _ = writeln!(out, "  as {colour}: W {w} D {d} L {l}");
            }
        }
        let score = self.score();
        let (elo, error) = elo_with_interval(&score);
        let _ = writeln!(
            out,
            "Elo ({} vs {}): {} ± {} (95%)",
            self.names[0],
            self.names[1],
            signed(elo),
            unsigned(error)
        );
        let _ = writeln!(
            out,
            "LOS ({} better): {:.1}%",
            self.names[0],
            100.0 * likelihood_of_superiority(&score)
        );
        let count = |t: Termination| self.terminations[kind_index(t)];
        let draws = [
            Termination::DrawFlatTie,
            Termination::DrawRepetition,
            Termination::DrawPlyCap,
        ];
        let _ = write!(
            out,
            "Terminations: road {}, flats {}, draw {} (",
            count(Termination::Road),
            count(Termination::Flats),
            draws.iter().map(|&t| count(t)).sum::<u32>()
        );
        let draw_parts: Vec<String> = draws
            .iter()
            .map(|&t| format!("{} {}", t.label(), count(t)))
            .collect();
        let _ = write!(out, "{})", draw_parts.join(", "));
        // "other" appears only in reports of PTN files, and only when it happened.
        for t in Termination::ALL.into_iter().filter(|&t| {
            !t.is_normal() && !t.is_draw() && (t != Termination::Other || count(t) > 0)
        }) {
            let by: Vec<String> = (0..2)
                .filter(|&e| self.faults[e][kind_index(t)] > 0)
                .map(|e| format!("{} {}", self.names[e], self.faults[e][kind_index(t)]))
                .collect();
            let _ = write!(out, ", {} {}", t.label(), count(t));
            if !by.is_empty() {
                let _ = write!(out, " (by {})", by.join(", "));
            }
        }
        let _ = writeln!(out);
        let _ = writeln!(
            out,
            "Points (rule book): {} {}, {} {}",
            self.names[0], self.points[0], self.names[1], self.points[1]
        );
        if let Some(sprt) = sprt {
            let (lower, upper) = sprt.bounds();
            let verdict = sprt.verdict(&score).label();
            let _ = writeln!(
                out,
                "SPRT (elo0={}, elo1={}, alpha={}, beta={}): LLR {:.3} ({:.3}, {:.3}): {verdict}",
                sprt.elo0,
                sprt.elo1,
                sprt.alpha,
                sprt.beta,
                sprt.llr(&score),
                lower,
                upper
            );
        }
        out
    }
}

fn signed(x: f64) -> String {
    if x.is_finite() {
        // `+ 0.0` turns -0.0 (an even score) into +0.0, which prints as "+0.0".
        format!("{:+.1}", x + 0.0)
    } else if x > 0.0 {
        "+inf".into()
    } else {
        "-inf".into()
    }
}

fn unsigned(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.1}")
    } else {
        "inf".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(result: GameResult, termination: Termination, points: u32) -> GameOutcome {
        GameOutcome {
            plies: Vec::new(),
            result,
            termination,
            detail: String::new(),
            points,
        }
    }

    #[test]
    fn counts_by_engine_colour_termination_and_points() {
        let mut tally = Tally::new(["a".into(), "b".into()]);
        // a (White) wins by road with 30 points.
        tally.add(
            0,
            &outcome(GameResult::Road(Color::White), Termination::Road, 30),
        );
        // b (White) loses on time: a (Black) wins, b is the offender.
        tally.add(
            1,
            &outcome(GameResult::Other(Color::Black), Termination::Time, 40),
        );
        // a draw by repetition, b White.
        tally.add(
            1,
            &outcome(GameResult::Draw, Termination::DrawRepetition, 0),
        );
        assert_eq!(
            tally.score(),
            Score {
                wins: 2,
                draws: 1,
                losses: 0
            }
        );
        assert_eq!(tally.by_colour[0], [[1, 0, 0], [1, 1, 0]]);
        assert_eq!(tally.by_colour[1], [[0, 1, 1], [0, 0, 1]]);
        assert_eq!(tally.points, [70, 0]);
        let text = tally.summary(None);
        assert!(
            text.contains("a: W 2 D 1 L 0, score 2.5/3 (83.3%)"),
            "{text}"
        );
        assert!(text.contains("  as black: W 1 D 1 L 0"), "{text}");
        assert!(
            text.contains("draw 1 (flat tie 0, repetition 1, ply cap 0)"),
            "{text}"
        );
        assert!(text.contains("time 1 (by b 1)"), "{text}");
        assert!(text.contains("Points (rule book): a 70, b 0"), "{text}");
        assert_eq!(
            tally.progress_line(10),
            "[3/10] a vs b: +2 =1 -0, score 2.5/3 (83.3%)"
        );
    }
}
