//! The `--shard` and `--shard-count` flags, flattened into every command that splits its work
//! (`menhir match`, `menhir datagen`), turned into a plain `shard::ShardRequest`.

use super::settings::settings_from_flags;
use crate::shard::ShardRequest;
use clap::Args;

/// The `--shard` and `--shard-count` flags, for any command that splits its work.
#[derive(Args, Debug, Clone, Default)]
pub struct ShardArgs {
    /// Play only part K of N of the run (K from 0), `K/N`, or `auto` to read it from a Slurm
    /// array (SLURM_ARRAY_TASK_ID/COUNT) or a Kubernetes indexed job (JOB_COMPLETION_INDEX).
    #[arg(long, value_name = "K/N|auto")]
    pub shard: Option<String>,
    /// The number of shards for `--shard auto` when the scheduler does not say
    /// (JOB_COMPLETION_INDEX): the job's completions.
    // Checked by hand in `ShardRequest::resolve`, not by clap's `requires`: its message
    // ("--shard-count goes with --shard auto") is pinned by tests/match.rs.
    #[arg(long, value_name = "N")]
    pub shard_count: Option<usize>,
}

settings_from_flags!(ShardArgs => ShardRequest {
    shard, shard_count
});
