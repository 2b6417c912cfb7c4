//! The training pipeline of the evaluation and the move-ordering policy: self-play data
//! (`menhir datagen`), the evaluation's fit (`menhir tune-eval`) and the policy's fit (`menhir
//! tune-policy`). Depends on `core` and `search` (and the match runner's text helpers).
//!
//! - [`data`]: the data line format, `TPS;komi;score;result`, both from White's view.
//! - [`selfplay`]: one game at a fixed node budget; [`datagen`]: the command over many games.
//! - [`load`], [`dataset`]: data files read and traced into sparse rows.
//! - [`loss`], [`adam`], [`fit`]: the objective, its gradient, the optimiser and the epochs;
//!   [`tune`]: the command.
//! - [`policy_set`], [`tune_policy`]: the policy's positions, its objective, and the command.
//! - [`output`]: files written under a temporary name and renamed when complete.

pub mod adam;
pub mod binary_data;
pub mod convert;
pub mod data_line;
pub mod datagen;
pub mod eval_set;
pub mod fit;
pub mod fit_settings;
pub mod load;
pub mod loss;
pub mod policy_set;
pub mod selfplay;
pub mod tune;
pub mod tune_policy;

pub use data_line::DataLine;
pub use datagen::{datagen, DatagenConfig};
pub use tune::{tune, TuneConfig};
pub use tune_policy::{tune_policy, TunePolicyConfig};
