//! The `--size`, `--tps` and `--moves` flags shared by the tools that start from a position.

use crate::core::Position;
use clap::Args;

/// Where a tool starts: a start position of some size or a TPS, then optional moves.
#[derive(Args, Debug, Clone)]
pub struct PositionArgs {
    /// Board size of the start position (3 to 8).
    #[arg(long, default_value_t = 5, conflicts_with = "tps")]
    pub size: usize,
    /// Start from this TPS position instead.
    #[arg(long)]
    pub tps: Option<String>,
    /// PTN moves to play from there, separated by spaces.
    #[arg(long, default_value = "")]
    pub moves: String,
}

impl PositionArgs {
    /// Builds the position, or says what is wrong with the flags.
    pub fn position(&self) -> Result<Position, String> {
        let mut pos = match &self.tps {
            Some(tps) => Position::from_tps(tps).map_err(|e| format!("bad --tps: {e}"))?,
            None => Position::start(self.size).map_err(|e| format!("bad --size: {e}"))?,
        };
        for text in self.moves.split_whitespace() {
            let mv = pos
                .parse_move(text)
                .map_err(|e| format!("bad --moves: {e}"))?;
            pos.do_move(mv);
        }
        Ok(pos)
    }
}
