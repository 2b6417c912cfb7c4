//! The engine's turns in the bot's games: a search when it is our move, a ponder search on the
//! opponent's time, and which of the engine's answers still count. Every search carries a
//! ticket naming the position it was asked for (game, position version, ply); an answer for a
//! position that has moved on is stale and dropped, and asking for a new search stops the one
//! running (the engine link's worker sees another tag wanted).

use super::engine_link::{Done, EngineLink, Pondered, Strength, Thought};
use super::game::Game;
use crate::search::level::FULL_STRENGTH;
use std::time::Duration;

/// Which position a search is for: game, position version, ply.
type Key = (u64, u64, usize);

/// A search in flight: its tag for the engine link, and its position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Ticket {
    tag: u64,
    key: Key,
}

fn key(game: &Game) -> Key {
    (game.id(), game.generation, game.plies.len())
}

/// The engine and the searches asked of it.
pub struct Turns {
    engine: EngineLink,
    thinking: Option<Ticket>,
    /// A search on the opponent's time, until its end is reported.
    pondering: Option<Ticket>,
    /// The position last pondered on: each is pondered once only.
    pondered_at: Option<Key>,
    next_tag: u64,
}

impl Turns {
    /// Turns for this engine.
    pub fn new(engine: EngineLink) -> Turns {
        Turns {
            engine,
            thinking: None,
            pondering: None,
            pondered_at: None,
            next_tag: 1,
        }
    }

    /// Stops and forgets every search (the game ended, the connection dropped): their answers
    /// will be dropped when they come.
    pub fn forget(&mut self) {
        let thinking = self.thinking.take();
        let pondering = self.pondering.take();
        if let Some(ticket) = thinking.or(pondering) {
            log::debug!("dropping search {ticket:?}");
            self.engine.abort();
        }
        self.pondered_at = None;
    }

    /// Sets the engine up for a new game (bounded wait).
    pub fn new_game(
        &mut self,
        size: usize,
        half_komi: i32,
        strength: Strength,
    ) -> Result<(), String> {
        self.forget();
        self.engine.new_game(size, half_komi, strength)
    }

    fn ticket(&mut self, game: &Game) -> Ticket {
        let ticket = Ticket {
            tag: self.next_tag,
            key: key(game),
        };
        self.next_tag += 1;
        ticket
    }

    /// Starts a search when it is our move and none runs for this position; one for another
    /// position (or a ponder search) is stopped. `margin` is kept off our clock.
    pub fn think(&mut self, game: &Game, margin: Duration) -> Result<(), String> {
        if !game.our_turn() || self.thinking.is_some_and(|t| t.key == key(game)) {
            return Ok(());
        }
        let (go, limit) = game.go_command(margin);
        let position = game.position_command();
        let ticket = self.ticket(game);
        log::debug!("thinking: {position} / {go}");
        self.engine.think(ticket.tag, position, go, limit)?;
        self.thinking = Some(ticket);
        Ok(())
    }

    /// Starts a search on the opponent's time, once per position, when the engine is idle and
    /// the game is at full strength (a level is measured without pondering).
    pub fn ponder(&mut self, game: &Game) -> Result<(), String> {
        let wanted = game.level == FULL_STRENGTH
            && game.position.result().is_none()
            && game.position.to_move() != game.color()
            && self.thinking.is_none()
            && self.pondering.is_none()
            && self.pondered_at != Some(key(game));
        if !wanted {
            return Ok(());
        }
        let position = game.ponder_command();
        let ticket = self.ticket(game);
        log::debug!("pondering: {position}");
        self.engine.ponder(ticket.tag, position)?;
        self.pondering = Some(ticket);
        self.pondered_at = Some(ticket.key);
        Ok(())
    }

    /// The engine's answer for `game`'s current position, if one has come: the move (or why
    /// there is none). Stale answers are dropped; the end of a ponder search goes into
    /// `game`'s counts.
    pub fn poll(&mut self, mut game: Option<&mut Game>) -> Option<Result<Thought, String>> {
        while let Some(done) = self.engine.poll() {
            match done {
                Done::Thought(tag, answer) => {
                    let Some(ticket) = self.thinking.filter(|t| t.tag == tag) else {
                        log::debug!("dropping a stale engine answer");
                        continue;
                    };
                    self.thinking = None;
                    if game.as_deref().is_some_and(|g| key(g) == ticket.key) {
                        return Some(answer);
                    }
                }
                Done::Pondered(tag, answer) => {
                    let Some(ticket) = self.pondering.filter(|t| t.tag == tag) else {
                        continue;
                    };
                    self.pondering = None;
                    let of_game = game.as_deref_mut().filter(|g| g.id() == ticket.key.0);
                    record_ponder(of_game, answer);
                }
                Done::Ready(_) => {}
            }
        }
        None
    }
}

/// How a ponder search ended, into its game's counts.
fn record_ponder(game: Option<&mut Game>, answer: Result<Pondered, String>) {
    match answer {
        Ok(pondered) => {
            log::debug!("pondering ended: {pondered:?}");
            if let (Some(game), true) = (game, pondered.searched) {
                game.ponders += 1;
                game.ponder_infos += pondered.infos;
                game.ponder_stop_max = game.ponder_stop_max.max(pondered.stop_took);
            }
        }
        Err(why) => log::warn!("pondering failed: {why}"),
    }
}
