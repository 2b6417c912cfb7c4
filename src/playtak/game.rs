//! One game on the server as the bot sees it: the position rebuilt from the server's moves,
//! both clocks from its time updates, the engine's last score, and the PTN record.

use super::notation::parse_server_move;
use super::protocol::GameStart;
use crate::common::today;
use crate::core::komi_text;
use crate::core::{
    starting_reserves, Color, GameRecord, Move, Position, RecordResult, RecordedPly,
};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A game in progress.
#[derive(Clone, Debug)]
pub struct Game {
    /// What the server said at the start.
    pub start: GameStart,
    /// Increment per move (from the seek; the start line of protocol 1 does not carry it).
    pub increment: Duration,
    /// The current position.
    pub position: Position,
    /// The plies played.
    pub plies: Vec<Move>,
    /// White's and Black's clocks in milliseconds at `clock_at`.
    pub clocks_ms: [u64; 2],
    /// When the clocks were last set.
    pub clock_at: Instant,
    /// Bumped whenever the position is rebuilt (resume, undo), so a search started before is
    /// known to be stale.
    pub generation: u64,
    /// The engine's last score from our side, in centi-flats.
    pub last_score: Option<i32>,
    /// The date the game started, for the PTN.
    pub date: String,
    /// The strength level the engine plays this game at.
    pub level: u32,
    /// The opponent's reply our engine expects after our last move (checked legal).
    pub expected_reply: Option<Move>,
    /// Searches on the opponent's time so far, the `info` lines they wrote (built-in search),
    /// and the longest any took to stop.
    pub ponders: u32,
    /// See `ponders`.
    pub ponder_infos: u32,
    /// See `ponders`.
    pub ponder_stop_max: Duration,
}

impl Game {
    /// A new game, refused when Menhir cannot play it (size, or pieces and capstones other than
    /// the standard reserves).
    pub fn new(start: GameStart, increment: Duration) -> Result<Game, String> {
        let mut position = Position::start(start.size)?;
        let (stones, caps) = starting_reserves(start.size);
        if start.pieces.is_some_and(|p| p != u32::from(stones))
            || start.capstones.is_some_and(|c| c != u32::from(caps))
        {
            return Err(format!(
                "game {}: {:?} pieces and {:?} capstones on {}x{} are not the standard reserves \
                 ({stones} and {caps}) that Menhir plays",
                start.id, start.pieces, start.capstones, start.size, start.size
            ));
        }
        position.set_half_komi(start.half_komi);
        let time = u64::from(start.time_s) * 1000;
        Ok(Game {
            start,
            increment,
            position,
            plies: Vec::new(),
            clocks_ms: [time, time],
            clock_at: Instant::now(),
            generation: 0,
            last_score: None,
            date: today(),
            level: crate::search::level::FULL_STRENGTH,
            expected_reply: None,
            ponders: 0,
            ponder_infos: 0,
            ponder_stop_max: Duration::ZERO,
        })
    }

    /// Game number.
    pub fn id(&self) -> u64 {
        self.start.id
    }

    /// Our colour.
    pub fn color(&self) -> Color {
        self.start.color
    }

    /// The opponent's name.
    pub fn opponent(&self) -> &str {
        match self.start.color {
            Color::White => &self.start.black,
            Color::Black => &self.start.white,
        }
    }

    /// Whether it is our move in a game not yet decided on the board.
    pub fn our_turn(&self) -> bool {
        self.position.to_move() == self.start.color && self.position.result().is_none()
    }

    /// Plays a move in server notation (either side's); refuses an illegal one.
    pub fn apply_server_move(&mut self, text: &str) -> Result<Move, String> {
        let mv = parse_server_move(text, &self.position)?;
        self.apply(mv);
        Ok(mv)
    }

    /// Plays a move already checked legal.
    pub fn apply(&mut self, mv: Move) {
        self.position.do_move(mv);
        self.plies.push(mv);
        self.expected_reply = None;
    }

    /// Plays our move, remembering the reply the engine expects (`ponder`, PTN) if it is legal
    /// after it.
    pub fn apply_ours(&mut self, mv: Move, ponder: Option<&str>) {
        self.apply(mv);
        self.expected_reply = ponder
            .and_then(|text| self.position.parse_move(text).ok())
            .filter(|&reply| self.position.is_legal(reply));
    }

    /// Takes back the last ply (the server's `Undo`).
    pub fn undo(&mut self) -> Result<(), String> {
        if self.plies.pop().is_none() {
            return Err("no ply to take back".into());
        }
        let plies = std::mem::take(&mut self.plies);
        self.restart();
        for mv in plies {
            self.apply(mv);
        }
        Ok(())
    }

    /// Back to the empty board (a resume replays the moves after this).
    pub fn restart(&mut self) {
        let mut position = Position::start(self.start.size).expect("size checked in new");
        position.set_half_komi(self.start.half_komi);
        self.position = position;
        self.plies.clear();
        self.generation += 1;
    }

    /// Sets both clocks from a time update.
    pub fn set_clocks(&mut self, white_ms: u64, black_ms: u64) {
        self.clocks_ms = [white_ms, black_ms];
        self.clock_at = Instant::now();
    }

    /// Our remaining time now.
    pub fn our_time(&self) -> Duration {
        let ours = Duration::from_millis(self.clocks_ms[self.start.color.index()]);
        if self.position.to_move() == self.start.color {
            ours.saturating_sub(self.clock_at.elapsed())
        } else {
            ours
        }
    }

    /// `position startpos moves ...` for the engine. A position seen three times goes as its
    /// TPS alone: playtak has no repetition rule, so the game goes on, but an engine given the
    /// history holds it drawn and will not search it (the bot then resigned such games).
    pub fn position_command(&self) -> String {
        if self.position.is_threefold() {
            return format!("position tps {}", self.position.to_tps());
        }
        let mut text = String::from("position startpos moves");
        for mv in &self.plies {
            text.push(' ');
            text.push_str(&mv.to_ptn());
        }
        text
    }

    /// What to search on the opponent's time: the position after the reply the engine expects,
    /// or, with none expected, the position the opponent moves in (its replies fill the table
    /// just as well).
    pub fn ponder_command(&self) -> String {
        let mut text = self.position_command();
        if let Some(reply) = self.expected_reply {
            if !text.starts_with("position startpos moves") {
                text.push_str(" moves");
            }
            text.push(' ');
            text.push_str(&reply.to_ptn());
        }
        text
    }

    /// `go wtime .. btime .. winc .. binc ..`, with our own clock cut by `margin` for the
    /// network, and how long the engine may take before its move is late.
    pub fn go_command(&self, margin: Duration) -> (String, Duration) {
        let ours = self.our_time();
        let mut clocks = self.clocks_ms;
        clocks[self.start.color.index()] = ours.saturating_sub(margin).as_millis().max(50) as u64;
        let inc = self.increment.as_millis();
        let go = format!(
            "go wtime {} btime {} winc {inc} binc {inc}",
            clocks[0], clocks[1]
        );
        (go, ours + Duration::from_secs(1))
    }

    /// Writes the record with `result` as `DIR/playtak-DATE-GAME-WHITE-vs-BLACK.ptn`.
    pub fn write_ptn(
        &self,
        dir: &Path,
        result: RecordResult,
        site: &str,
    ) -> Result<PathBuf, String> {
        let path = dir.join(format!(
            "playtak-{}-{}-{}-vs-{}.ptn",
            self.date.replace('.', ""),
            self.id(),
            self.start.white,
            self.start.black
        ));
        std::fs::create_dir_all(dir)
            .and_then(|_| std::fs::write(&path, self.record(result, site).to_string()))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        Ok(path)
    }

    /// The PTN record with `result`.
    pub fn record(&self, result: RecordResult, site: &str) -> GameRecord {
        let mut record = GameRecord::default();
        record.set_tag("Site", site);
        record.set_tag("Event", format!("playtak game {}", self.start.id));
        record.set_tag("Date", &self.date);
        record.set_tag("Player1", &self.start.white);
        record.set_tag("Player2", &self.start.black);
        record.set_tag("Size", self.start.size.to_string());
        record.set_tag("Komi", komi_text(self.start.half_komi));
        record.set_tag(
            "Clock",
            format!(
                "{}:{:02} +{}",
                self.start.time_s / 60,
                self.start.time_s % 60,
                self.increment.as_secs()
            ),
        );
        record.set_tag("Result", result.to_string());
        record.plies = self
            .plies
            .iter()
            .map(|&mv| RecordedPly { mv, comment: None })
            .collect();
        record.result = Some(result);
        record
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::playtak::ServerLine;

    fn start(line: &str) -> Game {
        let ServerLine::GameStart(start) = ServerLine::parse(line) else {
            panic!("{line}")
        };
        Game::new(start, Duration::from_secs(3)).unwrap()
    }

    #[test]
    fn the_engine_clock_comes_from_the_time_updates() {
        let mut game = start("Game Start 7 5 alice vs bot black 180 4 21 1 0 0");
        game.apply_server_move("P A1").unwrap();
        let ServerLine::Time(7, w, b) = ServerLine::parse("Game#7 Timems 170500 175250") else {
            panic!()
        };
        game.set_clocks(w, b);
        assert!(game.our_turn());
        let (go, limit) = game.go_command(Duration::from_millis(250));
        // Our clock (Black) loses the margin and the few ms since the update.
        let words: Vec<&str> = go.split_whitespace().collect();
        assert_eq!(&words[..3], ["go", "wtime", "170500"]);
        let btime: u64 = words[4].parse().unwrap();
        assert!((174_000..=175_000).contains(&btime), "{go}");
        assert_eq!(&words[5..], ["winc", "3000", "binc", "3000"]);
        assert!(limit > Duration::from_secs(175) && limit <= Duration::from_secs(177));
        assert_eq!(game.position_command(), "position startpos moves a1");
        assert_eq!(game.position.half_komi(), 4);
        // Seconds (protocol 0) too.
        assert_eq!(
            ServerLine::parse("Game#7 Time 12 34"),
            ServerLine::Time(7, 12_000, 34_000)
        );
    }

    /// A threefold repetition, which playtak does not end, reaches the engine without its
    /// history, so the engine searches it instead of refusing it.
    #[test]
    fn a_threefold_position_goes_to_the_engine_without_its_history() {
        let mut game = start("Game Start 3 5 bot vs bob white 60 0 21 1");
        for text in ["a1", "e5", "c3", "d4"] {
            game.apply_ours(game.position.parse_move(text).unwrap(), None);
        }
        assert!(game
            .position_command()
            .starts_with("position startpos moves a1 e5"));
        // c3 goes to b3 and back, d4 to d3 and back, twice: the position after d4 recurs.
        for _ in 0..2 {
            for text in ["c3<", "d4-", "b3>", "d3+"] {
                game.apply_ours(game.position.parse_move(text).unwrap(), None);
            }
        }
        assert!(game.position.is_threefold());
        assert_eq!(
            game.position_command(),
            format!("position tps {}", game.position.to_tps())
        );
        game.expected_reply = Some(game.position.parse_move("c3<").unwrap());
        assert_eq!(
            game.ponder_command(),
            format!("position tps {} moves c3<", game.position.to_tps())
        );
    }

    #[test]
    fn the_ponder_position_follows_the_expected_reply_when_it_is_legal() {
        let mut game = start("Game Start 3 5 bot vs bob white 60 0 21 1");
        let a1 = game.position.parse_move("a1").unwrap();
        game.apply_ours(a1, Some("b2"));
        assert_eq!(game.ponder_command(), "position startpos moves a1 b2");
        // The expected reply is forgotten once a move is played.
        game.apply_server_move("P E5").unwrap();
        assert_eq!(game.expected_reply, None);
        // An illegal or unreadable reply is not pondered on: the position itself is.
        let c3 = game.position.parse_move("c3").unwrap();
        game.apply_ours(c3, Some("e5"));
        assert_eq!(game.ponder_command(), "position startpos moves a1 e5 c3");
        game.undo().unwrap();
        let c3 = game.position.parse_move("c3").unwrap();
        game.apply_ours(c3, Some("z9"));
        assert_eq!(game.expected_reply, None);
        game.apply_ours(game.position.parse_move("d4").unwrap(), None);
        assert_eq!(game.expected_reply, None);
    }

    #[test]
    fn undo_and_restart_rebuild_the_board() {
        let mut game = start("Game Start 1 5 bot vs bob white 60 0 21 1");
        for mv in ["P A1", "P E5", "P C3 C"] {
            game.apply_server_move(mv).unwrap();
        }
        let generation = game.generation;
        game.undo().unwrap();
        assert_eq!(game.plies.len(), 2);
        assert!(game.generation > generation);
        assert!(
            game.apply_server_move("M A1 A2 1").is_err(),
            "a1 is Black's flat"
        );
        game.restart();
        assert!(game.plies.is_empty() && game.our_turn());
        assert!(game.undo().is_err());
    }

    #[test]
    fn games_with_other_reserves_are_refused() {
        let ServerLine::GameStart(s) = ServerLine::parse("Game Start 1 5 a vs b white 60 0 25 1")
        else {
            panic!()
        };
        assert!(Game::new(s, Duration::ZERO).is_err());
    }
}
