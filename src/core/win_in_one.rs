//! Wins at once: the move that ends the game in the mover's favour, by a road or on flats.

use super::moves::{Move, MoveList};
use super::position::Position;

impl Position {
    /// A move that ends the game at once in favour of the side to move, if there is one: a road
    /// (`road_win`, placements first), or a move that ends the game on flats with the mover
    /// ahead, komi counted. Spreads end a game on flats too (they can fill the last empty
    /// squares and cover the opponent's flats), so those endings are found by trying moves,
    /// but only where one could happen: the mover's last reserve piece, or fewer empty squares
    /// than a spread can cover.
    ///
    /// ```
    /// use menhir::core::Position;
    /// // White's placement on b1 fills the board and loses 7-8 on flats; the spread onto b1
    /// // and Black's c1 wins 8-7.
    /// let mut pos = Position::from_tps("2,1,2,1/1,2,1,2/2,1,2,2S/111,x,2,2 1 12").unwrap();
    /// assert_eq!(pos.win_in_one().unwrap().to_ptn(), "2a1>11");
    /// ```
    pub fn win_in_one(&mut self) -> Option<Move> {
        if self.result().is_some() {
            return None;
        }
        self.win_in_one_in_play()
    }

    /// `win_in_one` of a position its caller knows is not over (the tinue solver has just asked
    /// `result` of every child it makes), without asking again.
    ///
    /// ```
    /// use menhir::core::Position;
    /// let mut pos = Position::from_tps("x3/1,2,x/1,2,x 1 3").unwrap();
    /// assert_eq!(pos.win_in_one_in_play().unwrap().to_ptn(), "a3");
    /// ```
    pub fn win_in_one_in_play(&mut self) -> Option<Move> {
        if let Some(mv) = self.road_win_in_play() {
            return Some(mv);
        }
        self.flat_win_in_one_in_play()
    }

    /// A move that ends the game on flats at once with the side to move ahead (komi counted),
    /// in a position its caller knows is not over. Roads are `road_win_in_play`.
    pub fn flat_win_in_one_in_play(&mut self) -> Option<Move> {
        let me = self.to_move();
        let last_piece = self.pieces_in_reserve(me) <= 1;
        let few_empty = (self.empty().count() as usize) < self.size();
        // Most positions cannot end on flats with one move: no move is tried then.
        if !(last_piece || few_empty) || self.is_opening() {
            return None;
        }
        let mut moves = MoveList::new();
        self.generate_moves(&mut moves);
        moves.iter().copied().find(|&mv| {
            let undo = self.do_move(mv);
            let won = self.result().and_then(|r| r.winner()) == Some(me);
            self.undo_move(mv, undo);
            won
        })
    }

    /// Whether the opponent of the side to move would win at once if it were their move: a
    /// threat (a tak) the side to move must answer.
    pub fn opponent_wins_in_one(&mut self) -> bool {
        self.do_null_move();
        let threat = self.win_in_one().is_some();
        self.undo_null_move();
        threat
    }

    /// `opponent_wins_in_one` of a position its caller knows is not over.
    ///
    /// ```
    /// use menhir::core::Position;
    /// // White threatens a3 (a road up the a-file); Black, to move, must answer it.
    /// let mut pos = Position::from_tps("x3/1,2,x/1,2,x 2 3").unwrap();
    /// assert!(pos.opponent_wins_in_one_in_play());
    /// ```
    pub fn opponent_wins_in_one_in_play(&mut self) -> bool {
        self.do_null_move();
        let threat = self.win_in_one_in_play().is_some();
        self.undo_null_move();
        threat
    }
}
