//! The comparisons of `menhir spsa`, played: per slot (`--concurrency`) one "plus" and one
//! "minus" engine process, kept for the whole run; each iteration sets their parameters with
//! `setoption` and plays one pair of games per slot from a shared random opening, colours
//! swapped, through the match runner's game loop.

use crate::core::Color;
use crate::matchrun::engine::{ChildEngine, EngineSpec};
use crate::matchrun::game::{play_game, GameOutcome, GameSettings, Termination};
use crate::matchrun::openings::Opening;
use std::thread;

/// The engine pairs, one per slot.
pub struct Pairs {
    slots: Vec<[ChildEngine; 2]>,
    settings: GameSettings,
}

/// The result of one slot's pair, from plus's side.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PairResult {
    /// Plus's points over the two games (1 a win, ½ a draw).
    pub plus_points: f64,
    /// Games that ended by a fault (time, crash, illegal move) instead of the rules.
    pub faults: u32,
}

impl Pairs {
    /// Starts `slots` × 2 engines from `spec` and checks that each advertises every option in
    /// `names` (a binary not in tuning mode would ignore them all).
    pub fn start(
        spec: &EngineSpec,
        slots: usize,
        settings: GameSettings,
        names: &[&str],
    ) -> Result<Pairs, String> {
        let mut started = Vec::with_capacity(slots);
        for _ in 0..slots {
            let engine = |name: &str| {
                let spec = EngineSpec {
                    name: name.to_string(),
                    ..spec.clone()
                };
                let engine = ChildEngine::start(&spec, settings.half_komi)
                    .map_err(|e| format!("engine {}: {e}", spec.cmd))?;
                if let Some(missing) = names.iter().find(|&&n| {
                    !engine
                        .advertised_options()
                        .iter()
                        .any(|a| a.eq_ignore_ascii_case(n))
                }) {
                    return Err(format!(
                        "engine {} {} does not offer the option {missing}: is it a Menhir \
                         started in tuning mode (tei --tune)?",
                        spec.cmd,
                        spec.args.join(" ")
                    ));
                }
                Ok(engine)
            };
            started.push([engine("plus")?, engine("minus")?]);
        }
        Ok(Pairs {
            slots: started,
            settings,
        })
    }

    /// How many pairs `play` plays at once.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether there is no slot (never, once started).
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Plays one pair per slot at once, slot `i` from `openings[i]`: plus gets the `plus`
    /// options, minus the `minus` ones. A game lost to a fault counts as a loss, as in
    /// `menhir match`; its reason is printed.
    pub fn play(
        &mut self,
        plus: &[(String, String)],
        minus: &[(String, String)],
        openings: &[Opening],
    ) -> Vec<PairResult> {
        let settings = &self.settings;
        thread::scope(|scope| {
            let handles: Vec<_> = self
                .slots
                .iter_mut()
                .zip(openings)
                .map(|(slot, opening)| {
                    scope.spawn(move || play_pair(slot, plus, minus, opening, settings))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a game thread does not panic"))
                .collect()
        })
    }
}

/// Both games of one opening: plus White first, then minus White.
fn play_pair(
    slot: &mut [ChildEngine; 2],
    plus: &[(String, String)],
    minus: &[(String, String)],
    opening: &Opening,
    settings: &GameSettings,
) -> PairResult {
    let [plus_engine, minus_engine] = slot;
    // A failure to send kills the process; it restarts with these options for the game.
    for (engine, options) in [(&mut *plus_engine, plus), (&mut *minus_engine, minus)] {
        if let Err(e) = engine.set_options(options) {
            eprintln!("spsa: engine {}: {e}", engine.name());
        }
    }
    let mut result = PairResult::default();
    for plus_color in [Color::White, Color::Black] {
        let engines = match plus_color {
            Color::White => [&mut *plus_engine, &mut *minus_engine],
            Color::Black => [&mut *minus_engine, &mut *plus_engine],
        };
        let outcome = play_game(engines, opening, settings);
        result.plus_points += points(&outcome, plus_color);
        let fault = matches!(
            outcome.termination,
            Termination::Time
                | Termination::IllegalMove
                | Termination::MalformedMove
                | Termination::Crash
        );
        if fault {
            result.faults += 1;
            eprintln!("spsa: {}", outcome.detail);
        }
    }
    result
}

/// The points of the side playing `color`.
fn points(outcome: &GameOutcome, color: Color) -> f64 {
    match outcome.result.winner() {
        Some(winner) if winner == color => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    }
}
